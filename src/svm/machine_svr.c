/* epsilon-SVR as a machine: targets z_i, loss sum_i C max(0, |z_i - f(x_i)| - epsilon),
 * c_i = alpha_i - alpha*_i, lin = sum_i z_i c_i - epsilon |c_i|; with bias 0 (--no-bias) f has no bias
 * term and its dual no constraint sum_i c_i = 0. On explicit features both are solved by coordinate
 * descent. */
#include <math.h>
#include <stdlib.h>

#include "core/error.h"
#include "svm/hinge_loss.h"
#include "svm/machine.h"

/* The ops' on_features (km_machine_solves_on_features: with a bias, too, a solve runs on the features) */
static int svr_on_features(const km_machine_problem *pr)
{
    return !pr->bias && km_kernel_access_features(pr->kernel, NULL);
}

/* The SMO's 2n variables from c: alpha_i = max(c_i, 0), alpha*_i = max(-c_i, 0); the coordinate descent
 * takes c itself. */
static km_status svr_solve(const km_machine_problem *pr, const km_smo_options *options, km_svm_solution *solution)
{
    size_t n = pr->kernel->n_rows;
    const double *coef = solution->coef;
    int warm = km_machine_warm(coef, n);
    if (km_machine_solves_on_features(pr, options))   /* it reads the start before it writes solution->coef */
        return (pr->bias ? km_svr_solve_features_with_bias : km_svr_solve_features)(
            pr->kernel, pr->z, pr->C, pr->epsilon, options, warm ? coef : NULL, solution);
    double *start = warm ? malloc(2 * n * sizeof *start) : NULL;
    if (warm && !start)
        return km_error_nomem("a warm start");
    for (size_t i = 0; warm && i < n; i++) {
        start[i] = coef[i] > 0 ? coef[i] : 0.0;
        start[n + i] = coef[i] < 0 ? -coef[i] : 0.0;
    }
    km_status st = (pr->bias ? km_svr_solve : km_svr_solve_without_bias)(pr->kernel, pr->z, pr->C, pr->epsilon,
                                                                         options, start, solution);
    free(start);
    return st;
}

static void svr_coef_from_alpha(const km_machine_problem *pr, const double *alpha, double *coef)
{
    size_t n = pr->kernel->n_rows;
    for (size_t i = 0; i < n; i++)
        coef[i] = alpha[i] - alpha[n + i];
}

static double svr_linear_term(const km_machine_problem *pr, const double *coef)
{
    double lin = 0;
    for (size_t i = 0; i < pr->kernel->n_rows; i++)
        lin += pr->z[i] * coef[i] - pr->epsilon * fabs(coef[i]);
    return lin;
}

static double svr_loss_at(const km_machine_problem *pr, const double *g, double b)
{
    double L = 0;
    for (size_t i = 0; i < pr->kernel->n_rows; i++) {
        double excess = fabs(pr->z[i] - (g[i] + b)) - pr->epsilon;
        L += excess > 0 ? pr->C * excess : 0.0;
    }
    return L;
}

/* C max(0, (z - g - epsilon) - b) + C max(0, b - (z - g + epsilon)) */
static size_t svr_hinges(const km_machine_problem *pr, const double *g, km_hinge *out)
{
    size_t n = pr->kernel->n_rows;
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = (km_hinge){pr->z[i] - g[i] - pr->epsilon, pr->C, 0};
        out[2 * i + 1] = (km_hinge){pr->z[i] - g[i] + pr->epsilon, pr->C, 1};
    }
    return 2 * n;
}

static double svr_loss(const km_machine_problem *pr, const double *g, double bias, double *best_bias)
{
    if (!pr->bias) { /* a machine without bias: the loss at b = 0 */
        *best_bias = 0.0;
        return svr_loss_at(pr, g, 0.0);
    }
    return km_refined_hinge_loss(pr, g, bias, best_bias, 2 * pr->kernel->n_rows, svr_hinges, svr_loss_at);
}

static const km_param svr_params[] = {KM_PARAM_C, KM_PARAM_EPSILON, KM_PARAM_KRR_BIAS, 0};

const km_machine_ops km_machine_svr = {
    .task = KM_TASK_SVR,
    .name = "epsilon-SVR",
    .params = svr_params,
    .loss_weighted = 1,
    .solve = svr_solve,
    .on_features = svr_on_features,
    .coef_from_alpha = svr_coef_from_alpha,
    .linear_term = svr_linear_term,
    .loss = svr_loss,
    .certificate_scale = km_machine_unit_scale,
};
