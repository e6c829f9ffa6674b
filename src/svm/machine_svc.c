/* C-SVC as a machine: labels y_i = +-1, loss sum_i C_i max(0, 1 - y_i f(x_i)), c_i = y_i alpha_i,
 * lin = sum_i y_i c_i = sum_i alpha_i; with bias 0 (--no-bias) f has no bias term and its dual no
 * constraint sum_i y_i alpha_i = 0. On explicit features both are solved by coordinate descent. */
#include <stdlib.h>

#include "core/error.h"
#include "svm/hinge_loss.h"
#include "svm/machine.h"

static double row_weight(const km_machine_problem *pr, size_t i)
{
    return pr->C * (pr->y[i] > 0 ? pr->weight_pos : pr->weight_neg);
}

/* The ops' on_features (km_machine_solves_on_features: with a bias, too, a solve runs on the features) */
static int svc_on_features(const km_machine_problem *pr)
{
    return !pr->bias && km_kernel_access_features(pr->kernel, NULL);
}

static km_status svc_solve(const km_machine_problem *pr, const km_smo_options *options, km_svm_solution *solution)
{
    size_t n = pr->kernel->n_rows;
    int warm = km_machine_warm(solution->coef, n);
    double *start = warm ? malloc(n * sizeof *start) : NULL;
    if (warm && !start)
        return km_error_nomem("a warm start");
    for (size_t i = 0; warm && i < n; i++)
        start[i] = pr->y[i] * solution->coef[i];
    int features = km_machine_solves_on_features(pr, options);
    km_status (*solver)(const km_kernel_access *, const signed char *, double, double, double,
                        const km_smo_options *, const double *, km_svm_solution *) =
        features ? (pr->bias ? km_svc_solve_features_with_bias : km_svc_solve_features)
                 : (pr->bias ? km_svc_solve : km_svc_solve_without_bias);
    km_status st = solver(pr->kernel, pr->y, pr->C, pr->weight_pos, pr->weight_neg, options, start, solution);
    free(start);
    return st;
}

static void svc_coef_from_alpha(const km_machine_problem *pr, const double *alpha, double *coef)
{
    for (size_t i = 0; i < pr->kernel->n_rows; i++)
        coef[i] = pr->y[i] * alpha[i];
}

static double svc_linear_term(const km_machine_problem *pr, const double *coef)
{
    double lin = 0;
    for (size_t i = 0; i < pr->kernel->n_rows; i++)
        lin += pr->y[i] * coef[i];
    return lin;
}

static double svc_loss_at(const km_machine_problem *pr, const double *g, double b)
{
    double L = 0;
    for (size_t i = 0; i < pr->kernel->n_rows; i++) {
        double margin = 1.0 - pr->y[i] * (g[i] + b);
        L += margin > 0 ? row_weight(pr, i) * margin : 0.0;
    }
    return L;
}

/* y = +1: C max(0, (1 - g) - b); y = -1: C max(0, b - (-1 - g)) */
static size_t svc_hinges(const km_machine_problem *pr, const double *g, km_hinge *out)
{
    size_t n = pr->kernel->n_rows;
    for (size_t i = 0; i < n; i++)
        out[i] = (km_hinge){pr->y[i] > 0 ? 1 - g[i] : -1 - g[i], row_weight(pr, i), pr->y[i] < 0};
    return n;
}

static double svc_loss(const km_machine_problem *pr, const double *g, double bias, double *best_bias)
{
    if (!pr->bias) { /* a machine without bias: the loss at b = 0 */
        *best_bias = 0.0;
        return svc_loss_at(pr, g, 0.0);
    }
    return km_refined_hinge_loss(pr, g, bias, best_bias, pr->kernel->n_rows, svc_hinges, svc_loss_at);
}

static const km_param svc_params[] = {KM_PARAM_C, KM_PARAM_KRR_BIAS, KM_PARAM_MULTICLASS, 0};

const km_machine_ops km_machine_svc = {
    .task = KM_TASK_SVC,
    .name = "C-SVC",
    .params = svc_params,
    .loss_weighted = 1,
    .solve = svc_solve,
    .on_features = svc_on_features,
    .coef_from_alpha = svc_coef_from_alpha,
    .linear_term = svc_linear_term,
    .loss = svc_loss,
    .certificate_scale = km_machine_unit_scale,
};
