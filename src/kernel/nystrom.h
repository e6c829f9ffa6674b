/* Low-rank kernels by the Nystrom method (family_nystrom.c) from outside the kernel layer: the values of
 * a fitted kernel to its landmark rows, from dot products that kernels with the same landmarks share,
 * which is all that prediction in the landmarks' space needs,
 *     k~(x, x') = k(x, Z) P P' k(Z, x'),  so  sum_j c_j k~(x, x_j) = k(x, Z) u,  u = P P' sum_j c_j k(Z, x_j). */
#ifndef KM_KERNEL_NYSTROM_H
#define KM_KERNEL_NYSTROM_H

#include <stddef.h>

#include "data/dataset.h"
#include "kernel/kernel.h"

/* Fits every kernel of set (all low-rank) on every row of data as training does, without the rows'
 * features: widths (default or relative to the mean distance), landmark rows and projections; the
 * kernels on one feature subset share one view of the rows, its mean distance and its k-means++ draw.
 * A provider made with kernels so fitted computes the features of its own rows only, which is how the
 * processes of data-parallel training share one map. Leverage-score landmarks, which need every row's
 * features, are refused. */
km_status km_nystrom_fit_landmarks(km_kernel_set *set, const km_dataset *data);
/* 1 when both are fitted low-rank kernels on the same features with the same landmark rows (so that
 * their dot products with the rows are the same numbers). */
int km_nystrom_same_landmarks(const km_kernel *a, const km_kernel *b);
/* dots[t * L + l] = <x_t, z_l> and sqnorm[t] = ||x_t||^2 for rows rows[0..n) of data (rows NULL:
 * 0..n-1) on the kernel's features, L its landmarks. */
km_status km_nystrom_dots(const km_kernel *kernel, const km_dataset *data, const size_t *rows, size_t n,
                          double *dots, double *sqnorm);
/* values[t * L + l] = k(x_t, z_l) of the base kernel from those dots (values may be dots). */
km_status km_nystrom_values(const km_kernel *kernel, const double *dots, const double *sqnorm, size_t n,
                            double *values);
/* u = P P' v (L values each; u may be v). */
km_status km_nystrom_project(const km_kernel *kernel, const double *v, double *u);
/* sq[t] = k~(x_t, x_t) = ||P' k(Z, x_t)||^2 from the rows' values to the landmarks. */
km_status km_nystrom_self_values(const km_kernel *kernel, const double *values, size_t n, double *sq);

#endif
