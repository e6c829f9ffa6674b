/* Kernel normalization constants (Kloft, "lp-Norm Multiple Kernel Learning", thesis eqs. 3.6 and 3.7). */
#include "kernel/normalization.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/error.h"

static int scale_fixed(const km_kernel *k) { return !k->fitted && k->scale > 0; }

static int uses_scale(const km_kernel *k) { return k->norm == KM_NORM_MULTIPLICATIVE || k->norm == KM_NORM_TRACE; }

int km_norm_needs_row_sums(const km_kernel *k)
{
    return k->center || (k->norm == KM_NORM_MULTIPLICATIVE && !scale_fixed(k));
}

static km_status kernel_error(const km_kernel *k, const char *fmt, double value)
{
    char name[256];
    km_kernel_describe(k, name, sizeof name);
    char message[256];
    snprintf(message, sizeof message, fmt, value);
    return km_error(KM_EINVAL, "kernel %s: %s", name, message);
}

km_status km_norm_fit(km_kernel *k, const double *raw_diag, const double *row_sum, size_t n)
{
    double total = 0.0, diag_mean = 0.0;
    for (size_t i = 0; i < n; i++)
        diag_mean += raw_diag[i];
    diag_mean /= (double)n;
    if (row_sum)
        for (size_t i = 0; i < n; i++)
            total += row_sum[i];
    double mean_all = total / ((double)n * (double)n);
    free(k->col_mean);
    k->col_mean = NULL;
    k->n_train = 0;
    k->mean_all = 0.0;
    if (k->center) {
        if (!(k->col_mean = malloc(n * sizeof *k->col_mean)))
            return km_error_nomem("centering means");
        for (size_t i = 0; i < n; i++)
            k->col_mean[i] = row_sum[i] / (double)n;
        k->mean_all = mean_all;
        k->n_train = n;
    }
    if (uses_scale(k) && !scale_fixed(k)) {
        /* centred diagonal mean: mean_i (k_ii - 2 m_i + mu) = mean k_ii - mu, and the centred matrix has
         * mean 0, so c_m (eq. 3.6) and t_m both equal mean k_ii - mu; uncentred, c_m = mean k_ii - mu and
         * t_m = mean k_ii */
        double c = (k->center || k->norm == KM_NORM_MULTIPLICATIVE) ? diag_mean - mean_all : diag_mean;
        if (!(c > 0) || !isfinite(c))
            return kernel_error(k, "normalization constant %g is not positive (a constant kernel?)", c);
        k->scale = c;
    } else if (!uses_scale(k)) {
        k->scale = 1.0;
    }
    k->fitted = 1;
    return KM_OK;
}

km_status km_norm_factors(const km_kernel *k, const double *raw_diag, const double *shift, size_t n, double *factor)
{
    double mu = km_norm_mu(k), largest = 0.0;
    for (size_t i = 0; i < n; i++) {
        factor[i] = raw_diag[i] - (shift ? 2.0 * shift[i] - mu : 0.0);
        if (fabs(factor[i]) > largest)
            largest = fabs(factor[i]);
    }
    /* self-similarities within rounding of 0 count as 0 (the spherical value, Kloft's thesis eq. 3.7, is 0) */
    double tiny = 1e-12 * largest;
    for (size_t i = 0; i < n; i++) {
        if (factor[i] < -tiny)
            return kernel_error(k, "spherical normalization needs k(x,x) >= 0 (got %g)", factor[i]);
        factor[i] = factor[i] > tiny ? 1.0 / sqrt(factor[i]) : 0.0;
    }
    return KM_OK;
}

double km_norm_mu(const km_kernel *k) { return k->center ? k->mean_all : 0.0; }

double km_norm_global(const km_kernel *k) { return uses_scale(k) ? 1.0 / k->scale : 1.0; }

void km_scale_rows(const double *scale, double scale_x, const size_t *rows, size_t count, double *values)
{
    if (rows) {
        for (size_t r = 0; r < count; r++)
            values[r] *= scale[rows[r]] * scale_x;
    } else {
        for (size_t r = 0; r < count; r++)
            values[r] *= scale[r] * scale_x;
    }
}

void km_norm_apply(const km_kernel *k, const double *shift, double shift_x, const double *factor, double factor_x,
                   const size_t *rows, size_t count, double *values)
{
    double mu = km_norm_mu(k), global = km_norm_global(k);
    if (k->center) {
        double offset = shift_x - mu;
        for (size_t r = 0; r < count; r++)
            values[r] -= shift[rows ? rows[r] : r] + offset;
    }
    if (factor) {
        km_scale_rows(factor, factor_x * global, rows, count, values);
    } else if (global != 1.0) {
        for (size_t r = 0; r < count; r++)
            values[r] *= global;
    }
}
