/* Degenerate kernels (a kernelmix safeguard; c_m is the variance of the multiplicative normalization,
 * Kloft's thesis "lp-Norm Multiple Kernel Learning", eq. 3.6): a kernel whose
 * feature-space points all coincide on the training rows (variance c_m = 0: a constant Gram matrix, e.g. a
 * Gaussian far wider than the data) carries no information, and MKL would divide by its zero block norm. The
 * test is O(n) per kernel: every point equals the first when ||phi(x_i) - phi(x_0)||^2 = k(x_i,x_i) - 2
 * k(x_i,x_0) + k(x_0,x_0) is at most 1e-12 times the mean diagonal for all i. */
#include <math.h>
#include <stdlib.h>

#include "core/error.h"
#include "mkl/mkl.h"

km_status km_mkl_check_kernels(km_provider *provider)
{
    size_t n = km_provider_n_rows(provider), M = km_provider_n_kernels(provider);
    double *column = malloc(n * sizeof *column);
    km_status st = column ? KM_OK : km_error_nomem("the degenerate-kernel check");
    for (size_t m = 0; !st && m < M; m++) {
        /* a rank-1 kernel of a feature constant on the training rows is 0 (kernel/family_rank1.c): the
         * alignment methods leave it out, the others give it weight 0 */
        if (km_provider_fitted_set(provider)->kernels[m].type == KM_KERNEL_RANK1)
            continue;
        const double *diag = km_provider_diag(provider, m);
        if ((st = km_provider_column(provider, m, 0, NULL, n, column)))   /* all rows */
            break;
        double mean_diag = 0, spread = 0;
        for (size_t i = 0; i < n; i++) {
            mean_diag += diag[i] / (double)n;
            spread = fmax(spread, diag[i] - 2.0 * column[i] + diag[0]);
        }
        if (spread <= 1e-12 * fabs(mean_diag)) {
            char spec[256];
            km_kernel_set_describe(km_provider_fitted_set(provider), m, spec, sizeof spec);
            st = km_error(KM_EINVAL, "kernel %zu (%s) is degenerate on the training data (zero variance): drop it",
                          m + 1, spec);
        }
    }
    free(column);
    return st;
}
