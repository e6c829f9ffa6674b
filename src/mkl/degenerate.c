/* Degenerate kernels (c_m is the variance of the multiplicative normalization, Kloft's thesis "lp-Norm
 * Multiple Kernel Learning", eq. 3.6): a kernel whose feature-space points all coincide on the training rows
 * (variance c_m = 0: a constant Gram matrix, e.g. a Gaussian far wider than the data, or a zero one) adds
 * only a constant to the decision function, which the bias absorbs, and its centred alignment with any
 * target is 0 (Rostamizadeh's thesis, the alignment methods): it carries no information, so MKL learns
 * on the other kernels and gives it weight 0. The test is O(n) per kernel: every point equals the first
 * when ||phi(x_i) - phi(x_0)||^2 = k(x_i,x_i) - 2 k(x_i,x_0) + k(x_0,x_0) is at most KM_CONSTANT_SPREAD
 * times the mean diagonal for all i. */
#include <math.h>
#include <stdlib.h>

#include "core/error.h"
#include "mkl/mkl.h"

/* The kernel's values agree to half of double precision (sqrt of its epsilon, 2^-26 = 1.5e-8): centring
 * them (the alignments, the variance c_m) cancels more than half of their digits, and at any weight they
 * move the decision values by at most this fraction of the kernel's scale (an RBF with gamma = 1e-12 on
 * scaled data varies by 1e-10). */
#define KM_CONSTANT_SPREAD 1.5e-8

/* 1 when kernel m is constant on the provider's rows (column: n scratch values). */
static km_status is_constant(km_provider *provider, size_t m, double *column, int *constant)
{
    size_t n = km_provider_n_rows(provider);
    *constant = 0;
    /* a rank-1 kernel of a feature constant on the training rows is 0 (kernel/family_rank1.c): the
     * alignment methods leave it out, the others give it weight 0 */
    if (km_provider_fitted_set(provider)->kernels[m].type == KM_KERNEL_RANK1)
        return KM_OK;
    const double *diag = km_provider_diag(provider, m);
    km_status st = km_provider_column(provider, m, 0, NULL, n, column);   /* all rows */
    if (st)
        return st;
    double mean_diag = 0, spread = 0;
    for (size_t i = 0; i < n; i++) {
        mean_diag += diag[i] / (double)n;
        spread = fmax(spread, diag[i] - 2.0 * column[i] + diag[0]);
    }
    *constant = spread <= KM_CONSTANT_SPREAD * fabs(mean_diag);
    return KM_OK;
}

km_status km_mkl_informative_kernels(km_provider *provider, const km_logger *logger, size_t *used, size_t *n_used)
{
    size_t n = km_provider_n_rows(provider), M = km_provider_n_kernels(provider);
    const km_kernel_set *set = km_provider_fitted_set(provider);
    double *column = malloc(n * sizeof *column);
    km_status st = column ? KM_OK : km_error_nomem("the constant-kernel check");
    *n_used = 0;
    for (size_t m = 0; !st && m < M; m++) {
        int constant;
        if ((st = is_constant(provider, m, column, &constant)) || !constant)
            used[(*n_used)++] = m;
    }
    free(column);
    if (!st && *n_used == 0)
        st = km_error(KM_EINVAL, "every kernel is constant on the training rows: there are no kernel weights to learn");
    for (size_t m = 0, u = 0; !st && m < M; m++) {   /* one warning per dropped kernel */
        if (u < *n_used && used[u] == m) {
            u++;
            continue;
        }
        char spec[256];
        km_kernel_set_describe(set, m, spec, sizeof spec);
        km_log(logger, KM_LOG_WARNING, "kernel %zu (%s) is constant on the training rows: weight 0", m + 1, spec);
    }
    return st;
}

void km_mkl_model_weights(const km_mkl_problem *problem, const double *weights, double *out)
{
    for (size_t k = 0; k < km_mkl_model_kernels(problem); k++)
        out[k] = 0.0;
    for (size_t m = 0; m < problem->machine->kernel->n_kernels; m++)
        out[km_mkl_model_kernel(problem, m)] = weights[m];
}

size_t km_mkl_model_kernel(const km_mkl_problem *problem, size_t m)
{
    return problem->model_kernel ? problem->model_kernel[m] : m;
}

size_t km_mkl_model_kernels(const km_mkl_problem *problem)
{
    return problem->model_kernel ? problem->n_model_kernels : problem->machine->kernel->n_kernels;
}
