/* Kernel ridge regression as a machine (svm/krr.h): targets z_i, loss C/2 sum_i (z_i - f(x_i))^2, so the
 * ridge is lambda = 1/C. The dual in the MKL certificate's form is lin(c) - 1/2 c'K c with
 * lin(c) = sum_i z_i c_i - ||c||^2 / (2C) (and sum_i c_i = 0 with a bias): no SMO, so no
 * coef_from_alpha; the lp-norm family solves KRR with the wrapper. */
#include "svm/krr.h"
#include "svm/machine.h"

static km_status krr_solve(const km_machine_problem *pr, const km_smo_options *options, km_svm_solution *solution)
{
    return km_krr_solve(pr->kernel, pr->z, 1.0 / pr->C, pr->bias, options->cache_bytes, options, solution);
}

static double krr_linear_term(const km_machine_problem *pr, const double *coef)
{
    double lin = 0;
    for (size_t i = 0; i < pr->kernel->n_rows; i++)
        lin += pr->z[i] * coef[i] - coef[i] * coef[i] / (2.0 * pr->C);
    return lin;
}

/* The squared loss at g + b; the best bias is the mean residual (0 without a bias). */
static double krr_loss(const km_machine_problem *pr, const double *g, double bias, double *best_bias)
{
    size_t n = pr->kernel->n_rows;
    double b = 0;
    if (pr->bias) {
        for (size_t i = 0; i < n; i++)
            b += pr->z[i] - g[i];
        b /= (double)n;
    }
    (void)bias;
    double L = 0;
    for (size_t i = 0; i < n; i++) {
        double r = pr->z[i] - g[i] - b;
        L += 0.5 * pr->C * r * r;
    }
    *best_bias = b;
    return L;
}

static const km_param krr_params[] = {KM_PARAM_C, KM_PARAM_KRR_BIAS, 0};

const km_machine_ops km_machine_krr = {
    .task = KM_TASK_KRR,
    .name = "KRR",
    .params = krr_params,
    .loss_weighted = 1,
    .solve = krr_solve,
    .linear_term = krr_linear_term,
    .loss = krr_loss,
    .certificate_scale = km_machine_unit_scale,
};
