/* Fixed kernel weights: the given weights (or the uniform sum, the "unif" baseline), one solve. */
#include <math.h>

#include "mkl/method.h"

static km_status fixed_resolve(const km_mkl_params *in, km_mkl_params *out)
{
    *out = *in;
    return KM_OK;
}

static km_status fixed_train(const km_mkl_problem *problem, km_mkl_result *result)
{
    const km_machine_problem *machine = problem->machine;
    km_svm_solution solution = {.coef = result->coef};
    km_status st = machine->ops->solve(machine, &machine->solver, &solution);
    if (st)
        return st;
    result->bias = solution.bias;
    result->objective = solution.objective;
    result->smo_iterations = solution.iterations;
    result->converged = solution.converged;
    result->primal = result->gap = result->dual = NAN;
    result->mkl_iterations = 0;
    if (!solution.converged)
        km_log(&problem->logger, KM_LOG_WARNING, "reached the iteration limit (%ld) before the tolerance %g",
               solution.iterations, machine->solver.tolerance);
    return KM_OK;
}

/* info: "fixed"; nothing beyond the machines' own weights. */
static void fixed_describe(const km_mkl_description *d)
{
    if (d->part == KM_DESCRIBE_SETTINGS && !d->json)
        fprintf(d->out, "fixed\n");
}

const km_mkl_method_entry km_method_fixed = {
    .id = KM_MKL_FIXED, .name = "fixed",
    .help = "the kernel weights are given: uniform (d_m = 1) or --weights",
    .describe = fixed_describe,
    .resolve = fixed_resolve,
    .train = fixed_train,
};
