/* Kernel normalization (Kloft's thesis "lp-Norm Multiple Kernel Learning", eqs. 3.6, 3.7): constants fitted
 * on the training rows and their use. Every normalized value has the form
 *     k~(x, x') = (k(x, x') - shift(x) - shift(x') + mu) * factor(x) * factor(x') * global
 * with shift = training-row mean r(x) and mu = mean of all training entries when centred (else 0),
 * factor = 1/sqrt(centred k(x, x)) for spherical (else 1), global = 1/c_m or 1/t_m (else 1). */
#ifndef KM_KERNEL_NORMALIZATION_H
#define KM_KERNEL_NORMALIZATION_H

#include <stddef.h>

#include "kernel/kernel.h"

/* 1 when fitting needs the row sums of the raw training matrix (centering, multiplicative scale). */
int km_norm_needs_row_sums(const km_kernel *kernel);
/* Fits the constants of kernel on n training rows from the raw diagonal and raw row sums (row_sum may
 * be NULL when not needed): col_mean, mean_all, scale (unless fixed), fitted. */
km_status km_norm_fit(km_kernel *kernel, const double *raw_diag, const double *row_sum, size_t n);
/* Spherical factors of n rows: 1/sqrt(raw_diag - 2 shift + mu) (0 where that is 0); shift may be NULL. */
km_status km_norm_factors(const km_kernel *kernel, const double *raw_diag, const double *shift, size_t n,
                          double *factor);
/* Normalizes in place the raw values[r] = k(x_{rows[r]}, x) of one column (rows NULL: r), for training
 * columns and prediction blocks alike: with centering, subtracts shift[rows[r]] + shift_x - mu (shift:
 * the rows' training-row means, shift_x that of x); with spherical factors (factor non-NULL: the rows'
 * factors, factor_x that of x), scales by factor[rows[r]] factor_x global; otherwise by global. */
void km_norm_apply(const km_kernel *kernel, const double *shift, double shift_x, const double *factor, double factor_x,
                   const size_t *rows, size_t count, double *values);
/* Per-row scaling of one column: values[r] *= scale[rows[r]] * scale_x (rows NULL: r). Spherical
 * normalization is this with the factors; row-scaled kernel views (kernel_view.h) use it too. */
void km_scale_rows(const double *scale, double scale_x, const size_t *rows, size_t count, double *values);
/* mu and global of a fitted kernel. */
double km_norm_mu(const km_kernel *kernel);
double km_norm_global(const km_kernel *kernel);

#endif
