/* The KRR objective and its gradient at given kernel weights (mkl/krr_learning.h). */
#include "mkl/krr_learning.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "mkl/two_stage.h"

km_status km_krr_point_alloc(const km_mkl_problem *problem, km_krr_point *point)
{
    size_t n = problem->machine->kernel->n_rows, M = problem->machine->kernel->n_kernels;
    memset(point, 0, sizeof *point);
    point->coef = malloc(n * sizeof *point->coef);
    point->h = malloc(M * n * sizeof *point->h);
    point->v = malloc(M * sizeof *point->v);
    if (point->coef && point->h && point->v)
        return KM_OK;
    km_krr_point_free(point);
    return km_error_nomem("KRR kernel learning");
}

void km_krr_point_free(km_krr_point *point)
{
    free(point->coef);
    free(point->h);
    free(point->v);
    memset(point, 0, sizeof *point);
}

km_status km_krr_learning_check(const km_mkl_problem *problem)
{
    if (problem->machine->ops->task == KM_TASK_KRR)
        return KM_OK;
    return km_error(KM_EINVAL, "--mkl %s learns kernel weights for kernel ridge regression only (-s krr), not %s",
                    km_enum_name(KM_ENUM_MKL_METHOD, problem->mkl.method), problem->machine->ops->name);
}

km_status km_krr_point_at(const km_mkl_problem *problem, const double *mu, km_krr_point *point, long *solves)
{
    const km_machine_problem *machine = problem->machine;
    const km_kernel_access *k = machine->kernel;
    size_t n = k->n_rows, M = k->n_kernels;
    if (machine->solver.interrupted && machine->solver.interrupted(machine->solver.interrupt_ctx))
        return km_error(KM_EINTERRUPTED, "interrupted while learning kernel weights");
    memcpy(k->theta, mu, M * sizeof *mu);
    km_svm_solution solution = {.coef = point->coef};
    km_status st = machine->ops->solve(machine, &machine->solver, &solution);
    if (!st)
        st = km_kernel_products(problem, point->coef, point->h);
    if (st)
        return st;
    *solves += solution.iterations;
    km_mkl_quadratic_terms(n, M, point->coef, point->h, point->v);
    for (size_t m = 0; m < M; m++)
        point->v[m] = point->v[m] > 0 ? point->v[m] : 0.0;
    point->bias = solution.bias;
    point->F = 0;
    for (size_t i = 0; i < n; i++)
        point->F += machine->z[i] * point->coef[i];
    return KM_OK;
}

void km_krr_learning_result(const km_mkl_problem *problem, const km_krr_point *point, double gap_abs,
                            km_mkl_result *result)
{
    size_t n = problem->machine->kernel->n_rows, M = problem->machine->kernel->n_kernels;
    memcpy(result->coef, point->coef, n * sizeof *result->coef);
    if (result->products) {
        memcpy(result->products, point->h, M * n * sizeof *result->products);
        result->products_valid = 1;
    }
    result->bias = point->bias;
    result->primal = 0.5 * point->F;
    result->dual = 0.5 * (point->F - gap_abs);
    result->gap = point->F > 0 ? gap_abs / point->F : 0.0;
}
