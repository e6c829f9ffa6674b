/* MKL parameters (the two p conventions, defaults, validation), the regularizer's theta step and
 * starting point, the evaluation at fixed theta that every solver shares, and the dispatch
 * to the solver the parameters ask for. */
#include <math.h>
#include <stdlib.h>

#include "core/error.h"
#include "mkl/mkl.h"
#include "mkl/theta.h"

km_status km_mkl_resolve(const km_mkl_params *in, km_mkl_params *out)
{
    *out = *in;
    if (in->method != KM_MKL_FIXED && in->method != KM_MKL_LP && in->method != KM_MKL_ELASTICNET &&
        in->method != KM_MKL_TIKHONOV)
        return km_error(KM_EINVAL, "unknown MKL method %d", (int)in->method);
    if (in->method == KM_MKL_FIXED)
        return KM_OK;
    if (in->method == KM_MKL_TIKHONOV)
        return km_tikhonov_resolve(in, out);
    if (in->p_block > 0) {
        if (!(in->p_block >= 1))
            return km_error(KM_EINVAL, "p-block must be >= 1 (got %g)", in->p_block);
        /* p = p_block / (2 - p_block) exists for p_block <= 2 (spec §1) */
        out->p = in->p_block < 2 ? in->p_block / (2 - in->p_block) : in->p_block == 2 ? INFINITY : NAN;
    } else {
        if (!(in->p >= 1))
            return km_error(KM_EINVAL, "p must be >= 1 (got %g); p = 1 gives sparse weights, p = inf uniform ones",
                            in->p);
        out->p_block = isinf(in->p) ? 2.0 : 2.0 * in->p / (in->p + 1.0);
    }
    if (in->method == KM_MKL_ELASTICNET) {
        if (!(in->lambda >= 0 && in->lambda <= 1))
            return km_error(KM_EINVAL, "elastic-net lambda must be in [0, 1] (got %g)", in->lambda);
        out->lambda = fmin(fmax(in->lambda, 1e-6), 1 - 1e-6); /* spec §5: clamp away from the ends */
        if (in->solver != KM_MKL_WRAPPER && in->solver != KM_MKL_INTERLEAVED)
            return km_error(KM_EINVAL, "the elastic net is solved by the wrapper or interleaved solver");
    }
    if (in->solver != KM_MKL_INTERLEAVED && in->solver != KM_MKL_WRAPPER && in->solver != KM_MKL_SILP &&
        in->solver != KM_MKL_SIMPLEMKL)
        return km_error(KM_EINVAL, "unknown MKL solver %d", (int)in->solver);
    if (in->solver == KM_MKL_SIMPLEMKL && out->p_block != 1.0)
        return km_error(KM_EINVAL, "SimpleMKL solves p = 1 only (got p-block %g); use silp, wrapper or interleaved",
                        out->p_block);
    if (in->solver == KM_MKL_SILP && isinf(out->p_block))
        return km_error(KM_EINVAL, "the SILP solver needs a finite p-block");
#ifndef KM_HAVE_GLPK
    if (in->solver == KM_MKL_SILP && out->p_block == 1.0)
        return km_error(KM_EINVAL, "the SILP solver for p = 1 needs GLPK (built without GLPK)");
#endif
    if (!(in->gap > 0) || !(in->eps_mkl > 0))
        return km_error(KM_EINVAL, "the MKL tolerances must be positive (gap %g, eps %g)", in->gap, in->eps_mkl);
    if (in->max_outer <= 0)
        return km_error(KM_EINVAL, "max-outer must be positive (got %ld)", in->max_outer);
    return KM_OK;
}

void km_mkl_start(const km_mkl_params *mkl, size_t M, double *theta)
{
    if (mkl->method == KM_MKL_TIKHONOV) { /* d = 1: the uniform sum (spec/bayes-blocknorm.md §5) */
        for (size_t m = 0; m < M; m++)
            theta[m] = 1.0;
        return;
    }
    if (mkl->method == KM_MKL_ELASTICNET) {
        for (size_t m = 0; m < M; m++)
            theta[m] = 1.0 / (double)M;
        return;
    }
    km_theta_init(M, mkl->p_block, theta);
}

int km_mkl_theta_step(const km_mkl_problem *problem, const double *a, double *theta)
{
    size_t M = problem->machine->kernel->n_kernels;
    if (problem->mkl.method == KM_MKL_ELASTICNET)
        return km_theta_elasticnet_step(M, problem->mkl.lambda, a, theta);
    return km_theta_lp_step(M, problem->mkl.p_block, a, theta);
}

km_status km_mkl_result_products(const km_mkl_problem *problem, km_mkl_result *result)
{
    if (result->products_valid)
        return KM_OK;
    km_status st = km_mkl_products(problem, result->coef, result->products);
    result->products_valid = !st;
    return st;
}

km_status km_mkl_evaluate(const km_mkl_problem *pr, km_mkl_result *result, double *h, double *a)
{
    /* the SMO polls the caller every 100 steps, which a warm-started solve may never reach */
    const km_machine_problem *machine = pr->machine;
    if (machine->solver.interrupted && machine->solver.interrupted(machine->solver.interrupt_ctx))
        return km_error(KM_EINTERRUPTED, "interrupted after %ld solver iterations", result->smo_iterations);
    km_svm_solution solution = {.coef = result->coef};
    km_status st = machine->ops->solve(machine, &machine->solver, &solution);
    if (st)
        return st;
    result->bias = solution.bias;
    result->smo_iterations += solution.iterations;
    if ((st = km_mkl_products(pr, result->coef, h)))
        return st;
    km_mkl_quadratic_terms(pr->machine->kernel->n_rows, pr->machine->kernel->n_kernels, result->coef, h, a);
    return KM_OK;
}

double km_mkl_seconds_since(const struct timespec *start)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - start->tv_sec) + 1e-9 * (double)(now.tv_nsec - start->tv_nsec);
}

int km_mkl_limit_reached(const km_mkl_problem *pr, long t, double elapsed, double gap)
{
    if (pr->mkl.max_time > 0 && elapsed >= pr->mkl.max_time) {
        km_log(&pr->logger, KM_LOG_WARNING, "MKL stopped at the time limit (%gs) with gap %.3e", pr->mkl.max_time, gap);
        return 1;
    }
    if (t >= pr->mkl.max_outer) {
        km_log(&pr->logger, KM_LOG_WARNING, "MKL stopped after %ld outer iterations with gap %.3e", t, gap);
        return 1;
    }
    return 0;
}

size_t km_mkl_count_active(const double *theta, size_t M)
{
    size_t k = 0;
    for (size_t m = 0; m < M; m++)
        k += theta[m] > 0;
    return k;
}

static km_status run_solver(const km_mkl_problem *problem, km_mkl_result *result)
{
    if (problem->mkl.method == KM_MKL_TIKHONOV)
        return km_mkl_tikhonov(problem, result);
    switch (problem->mkl.solver) {
    case KM_MKL_WRAPPER: return km_mkl_wrapper(problem, result);
    case KM_MKL_INTERLEAVED: return km_mkl_interleaved(problem, result);
    case KM_MKL_SILP: return km_mkl_silp(problem, result);
    case KM_MKL_SIMPLEMKL: return km_mkl_simplemkl(problem, result);
    default: break;
    }
    return km_error(KM_EINVAL, "unknown MKL solver %d", (int)problem->mkl.solver);
}

km_status km_mkl_train(const km_mkl_problem *problem, km_mkl_result *result)
{
    result->products_valid = 0;
    km_status st = run_solver(problem, result);
    if (!st)
        st = km_mkl_switch_off(problem, result);
    /* the reported objective is -D in the solver's scaling (one-class: sum a = nu n, spec: sum a = 1) */
    double scale = problem->machine->ops->certificate_scale(problem->machine);
    result->objective = -result->dual / (scale * scale);
    return st;
}
