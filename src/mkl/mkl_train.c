/* What every kernel-weight solver shares: the method's parameters, start, step and training through
 * the method table, the evaluation at fixed theta, the limits and the reported objective. */
#include <math.h>
#include <stdlib.h>

#include "core/error.h"
#include "mkl/method.h"

km_status km_mkl_resolve(const km_mkl_params *in, km_mkl_params *out)
{
    const km_mkl_method_entry *method = km_mkl_method_of(in->method);
    if (!method)
        return km_error(KM_EINVAL, "unknown MKL method %d", (int)in->method);
    return method->resolve(in, out);
}

void km_mkl_start(const km_mkl_params *mkl, size_t M, double *theta)
{
    km_mkl_method_of(mkl->method)->start(mkl, M, theta);
}

int km_mkl_theta_step(const km_mkl_problem *problem, const double *a, double *theta)
{
    return km_mkl_method_of(problem->mkl.method)->theta_step(&problem->mkl, problem->machine->kernel->n_kernels, a,
                                                             theta);
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

/* Below this SVM tolerance the solver's gradients (entries of order 1) are rounding noise. */
#define KM_SMALLEST_USEFUL_TOLERANCE 1e-12

/* The largest diagonal kernel value and its kernel (1-based). */
static double largest_kernel_value(const km_kernel_access *k, size_t *kernel)
{
    double top = 0;
    *kernel = 1;
    for (size_t m = 0; k->diag && m < k->n_kernels; m++)
        for (size_t i = 0; i < k->n_rows; i++)
            if (fabs(k->diag[m][i]) > top) {
                top = fabs(k->diag[m][i]);
                *kernel = m + 1;
            }
    return top;
}

km_status km_mkl_gap_stuck(const km_mkl_problem *pr, double dual, double primal, double gap, const char *theta_kind)
{
    /* at a fixed theta the absolute gap P - D shrinks with the SVM tolerance e; the relative gap reaches
     * the target at about e * target |D| / (P - D) */
    double e = pr->machine->solver.tolerance, absolute = primal - dual;
    double needed = absolute > 0 ? e * pr->mkl.gap * fabs(dual) / absolute : e;
    if (needed >= KM_SMALLEST_USEFUL_TOLERANCE) {
        needed = pow(10, floor(log10(needed)));   /* the power of ten at or below: the estimate is rough */
        km_log(&pr->logger, KM_LOG_WARNING,
               "MKL gap %.3e stays above %g at a %s theta: the SVM tolerance -e %g limits the certificate (try -e "
               "%g)", gap, pr->mkl.gap, theta_kind, e, needed);
        return KM_OK;
    }
    size_t kernel;
    double top = largest_kernel_value(pr->machine->kernel, &kernel);
    return km_error(KM_ENOTCONV,
                    "the MKL duality gap cannot be certified: the objective (%.3g) is below what the SVM solver "
                    "resolves (it would need -e %.0e); kernel values reach %.3g (kernel %zu): scale the features "
                    "(kernelmix scale) or normalize the kernels (norm=mult)",
                    dual, needed, top, kernel);
}

void km_mkl_report_step(const km_mkl_problem *pr, long t, double gap)
{
    if (!pr->progress)
        return;
    pr->progress->now.mkl_step = t;
    pr->progress->now.mkl_gap = gap;
    km_progress_report(pr->progress, "mkl");
}

size_t km_mkl_count_active(const double *theta, size_t M)
{
    size_t k = 0;
    for (size_t m = 0; m < M; m++)
        k += theta[m] > 0;
    return k;
}

km_status km_mkl_train(const km_mkl_problem *problem, km_mkl_result *result)
{
    const km_mkl_method_entry *method = km_mkl_method_of(problem->mkl.method);
    result->products_valid = 0;
    km_status st = method->train(problem, result);
    if (method->learns_weights && !method->objective_is_primal) {
        /* the reported objective is -D in the solver's scaling (one-class: sum a = nu n, the
         * certificate's sum a = 1) */
        double scale = problem->machine->ops->certificate_scale(problem->machine);
        result->objective = -result->dual / (scale * scale);
    }
    return st;
}
