/* What every kernel-weight solver shares: the method's parameters, start, step and training through
 * the method table, the evaluation at fixed theta, the limits and the reported objective. */
#include <math.h>
#include <stdlib.h>

#include "core/clock.h"
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

/* km_mkl_solve, its start gradient from start_products (h = K_m c at result->coef) where given. */
static km_status solve_from(const km_mkl_problem *pr, km_mkl_result *result, const double *start_products)
{
    /* the SMO polls the caller every 100 steps, which a warm-started solve may never reach */
    const km_machine_problem *machine = pr->machine;
    if (machine->solver.interrupted && machine->solver.interrupted(machine->solver.interrupt_ctx))
        return km_error(KM_EINTERRUPTED, "interrupted after %ld solver iterations", result->smo_iterations);
    km_smo_options options = machine->solver;
    if (result->tolerance > 0)
        options.tolerance = result->tolerance;
    km_svm_solution solution = {.coef = result->coef, .start_products = start_products};
    km_status st = machine->ops->solve(machine, &options, &solution);
    if (st)
        return st;
    result->bias = solution.bias;
    result->smo_iterations += solution.iterations;
    return KM_OK;
}

km_status km_mkl_solve(const km_mkl_problem *pr, km_mkl_result *result) { return solve_from(pr, result, NULL); }

km_status km_mkl_evaluate(const km_mkl_problem *pr, km_mkl_result *result, double *h, int h_at_coef, double *a)
{
    km_status st = solve_from(pr, result, h_at_coef ? h : NULL);
    if (st || (st = km_mkl_products(pr, result->coef, h)))
        return st;
    km_mkl_kernel_terms(pr, result->coef, h, a);
    return KM_OK;
}

double km_mkl_seconds_since(const struct timespec *start)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - start->tv_sec) + 1e-9 * (double)(now.tv_nsec - start->tv_nsec);
}

/* the machine's deadline also counts the time spent before this solver (a clustering) */
static int at_time_limit(const km_mkl_problem *pr, double elapsed)
{
    double deadline = pr->machine->solver.deadline;
    return pr->mkl.max_time > 0 &&
           (elapsed >= pr->mkl.max_time || (deadline > 0 && km_monotonic_seconds() >= deadline));
}

int km_mkl_at_limit(const km_mkl_problem *pr, long t, double elapsed)
{
    return at_time_limit(pr, elapsed) || t >= pr->mkl.max_outer;
}

int km_mkl_limit_reached(const km_mkl_problem *pr, long t, double elapsed, double gap)
{
    if (at_time_limit(pr, elapsed)) {
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
/* A relative gap this small that stays above its target is the rounding of the objectives. */
#define KM_ROUNDING_GAP 1e-9
/* A relative gap the solver must be able to certify at any objective it resolves (the default target). */
#define KM_RESOLVABLE_GAP 1e-3
/* A stalled gap tightens the SVM tolerance by itself down to this fraction of the one asked for (-e). */
#define KM_TOLERANCE_REACH 1e-4

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

/* The SVM tolerance that should let the relative gap reach the target at a fixed theta: the absolute gap the
 * SVM accounts for (P - D at a fixed point) shrinks with the SVM tolerance e, so the target is met at about
 * e * target |D| / absolute, taken to the power of ten at or below (the estimate is rough). A dual of 0 (a
 * tolerance so loose that the solver left every variable at 0) tells nothing: a tenth of e. */
static double tolerance_for_target(const km_mkl_problem *pr, double tolerance, double dual, double absolute)
{
    if (dual == 0)
        return 0.1 * tolerance;
    double needed = absolute > 0 ? tolerance * pr->mkl.gap * fabs(dual) / absolute : tolerance;
    return needed > 0 ? pow(10, floor(log10(needed))) : needed;
}

static double tolerance_floor(const km_mkl_problem *pr)
{
    return fmax(pr->machine->solver.tolerance * KM_TOLERANCE_REACH, KM_SMALLEST_USEFUL_TOLERANCE);
}

int km_mkl_tolerance_at_floor(const km_mkl_problem *pr, double tolerance)
{
    return tolerance <= tolerance_floor(pr) * (1 + 1e-9);
}

int km_mkl_tighten(const km_mkl_problem *pr, double *tolerance, double dual, double svm_gap)
{
    double floor_tolerance = tolerance_floor(pr);
    double needed = tolerance_for_target(pr, *tolerance, dual, svm_gap);
    if (km_mkl_tolerance_at_floor(pr, *tolerance) || needed < KM_SMALLEST_USEFUL_TOLERANCE)
        return 0; /* at the floor, or no tolerance could reach the target: km_mkl_gap_stuck says which */
    double tighter = fmax(fmin(needed, 0.1 * *tolerance), floor_tolerance);
    km_log(&pr->logger, KM_LOG_INFO, "mkl: SVM tolerance %g -> %g for the gap", *tolerance, tighter);
    *tolerance = tighter;
    return 1;
}

int km_mkl_svm_limits_gap(const km_mkl_problem *pr, double gap, double dual, double primal, double svm_share)
{
    return gap > pr->mkl.gap && svm_share > 0.5 * pr->mkl.gap * fabs(primal) && svm_share >= 0.5 * (primal - dual);
}

km_status km_mkl_gap_stuck(const km_mkl_problem *pr, double tolerance, double dual, double primal, double gap,
                           const char *theta_kind)
{
    double needed = tolerance_for_target(pr, tolerance, dual, primal - dual);
    if (needed >= KM_SMALLEST_USEFUL_TOLERANCE) {
        double asked = pr->machine->solver.tolerance;
        if (tolerance < asked)
            km_log(&pr->logger, KM_LOG_WARNING,
                   "MKL gap %.3e stays above %g at a %s theta: the SVM tolerance, tightened from -e %g to %g, limits "
                   "the certificate (try -e %g)", gap, pr->mkl.gap, theta_kind, asked, tolerance, needed);
        else
            km_log(&pr->logger, KM_LOG_WARNING,
                   "MKL gap %.3e stays above %g at a %s theta: the SVM tolerance -e %g limits the certificate (try "
                   "-e %g)", gap, pr->mkl.gap, theta_kind, tolerance, needed);
        return KM_OK;
    }
    /* needed scales with the target: a gap of KM_RESOLVABLE_GAP still in reach means that the target, not
     * an objective lost in rounding, is out of reach */
    if (gap <= KM_ROUNDING_GAP || needed / pr->mkl.gap * KM_RESOLVABLE_GAP >= KM_SMALLEST_USEFUL_TOLERANCE) {
        km_log(&pr->logger, KM_LOG_WARNING,
               "MKL gap %.3e stays above %g at a %s theta: the target is below what the SVM solver certifies (at SVM "
               "tolerance %g, the rounding of the objectives)", gap, pr->mkl.gap, theta_kind, tolerance);
        return KM_OK;
    }
    size_t kernel;
    double top = largest_kernel_value(pr->machine->kernel, &kernel);
    return km_error(KM_ENOTCONV,
                    "the MKL duality gap cannot be certified: the objective (%.3g) is below what the SVM solver "
                    "resolves (it would need -e %.0e); kernel values reach %.3g (kernel %zu): scale the features "
                    "(kernelmix scale) or normalize the kernels (norm=mult)",
                    dual, needed, top, km_mkl_model_kernel(pr, kernel - 1) + 1);
}

km_mkl_step_record km_mkl_step_record_of(long t, const double *weights, size_t n_weights)
{
    return (km_mkl_step_record){.step = t, .gap = NAN, .objective = NAN, .dual = NAN, .primal = NAN,
                                .weights = weights, .n_weights = weights ? n_weights : 0};
}

void km_mkl_report_step(const km_mkl_problem *pr, const km_mkl_step_record *record)
{
    if (!pr->progress)
        return;
    km_progress *now = &pr->progress->now;
    now->mkl_step = record->step;
    now->mkl_gap = record->gap;
    now->mkl_objective = record->objective;
    now->mkl_dual = record->dual;
    now->mkl_primal = record->primal;
    now->mkl_weights = record->weights;
    now->mkl_n_weights = record->n_weights;
    km_progress_report(pr->progress, "mkl");
    now->mkl_weights = NULL; /* the solver's memory: valid during the report only */
    now->mkl_n_weights = 0;
}

void km_mkl_report_certified(const km_mkl_problem *pr, long t, const double *theta, size_t n_weights, double dual,
                             double primal, double gap)
{
    km_mkl_step_record record = km_mkl_step_record_of(t, theta, n_weights);
    record.gap = gap;
    record.objective = record.primal = primal;
    record.dual = dual;
    km_mkl_report_step(pr, &record);
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
    if ((method->flags & KM_METHOD_LEARNS_WEIGHTS) && !(method->flags & KM_METHOD_PRIMAL_OBJECTIVE)) {
        /* the reported objective is -D in the solver's scaling (one-class: sum a = nu n, the
         * certificate's sum a = 1) */
        double scale = problem->machine->ops->certificate_scale(problem->machine);
        result->objective = -result->dual / (scale * scale);
    }
    return st;
}
