/* Kernel views: the kernels of a provider seen on a subset of its rows, in a given order (the
 * machines of one-vs-one, cross-validation folds, the sample rows of the alignments), each kernel
 * optionally scaled per row:
 *     K'_v(i, j) = s_v(i) s_v(j) K_{base(v)}(rows[i], rows[j])
 * for view rows i, j. The per-row form is the one of spherical normalization, and it serves localized
 * MKL's beta_c(x_i) beta_c(x_j) K_m(x_i, x_j) as just another kernel (base m, scale beta_c): a view
 * may list one provider kernel several times with different scales.
 * The column and combined functions have the signatures of the solvers' kernel callbacks (svm/smo.h
 * km_column_fn, km_combined_fn) with the view as their context. A view is not thread-safe. */
#ifndef KM_KERNEL_KERNEL_VIEW_H
#define KM_KERNEL_KERNEL_VIEW_H

#include <stddef.h>

#include "kernel/provider.h"

typedef struct km_kernel_view km_kernel_view;

/* The kernels of provider on the provider rows rows[0..n_rows) (rows NULL: every provider row, n_rows
 * must then be their number). The view copies rows; the provider must outlive it. */
km_status km_kernel_view_new(km_provider *provider, const size_t *rows, size_t n_rows, km_kernel_view **out);
/* As km_kernel_view_new with n_kernels kernels of its own: kernel v is provider kernel base[v] scaled by
 * row_scale[v] (n_rows values, one per view row, copied; row_scale NULL or row_scale[v] NULL: 1). */
km_status km_kernel_view_new_scaled(km_provider *provider, const size_t *rows, size_t n_rows, size_t n_kernels,
                                    const size_t *base, const double *const *row_scale, km_kernel_view **out);
void km_kernel_view_free(km_kernel_view *view);

size_t km_kernel_view_n_rows(const km_kernel_view *view);
size_t km_kernel_view_n_kernels(const km_kernel_view *view);
/* 1 when the view's kernels are its provider's, unscaled, and every one is a rank-1 kernel
 * (family_rank1.c): their columns are x~_v x~_v(i), a multiple of one feature column. */
int km_kernel_view_rank1(const km_kernel_view *view);
/* km_provider_costly_values of the view's provider. */
int km_kernel_view_costly_values(const km_kernel_view *view);
/* 1 when the view's kernel columns of a row are cheap to recompute: the provider's kernels, unscaled,
 * from its cached dot-product columns (km_provider_columns_from_dots), so a solver need not cache them. */
int km_kernel_view_columns_derived(const km_kernel_view *view);
/* The size of the view's kernel values when its kernel columns can be read in place (provider.h
 * km_provider_in_place_size): the view is its provider's kernels on all its rows, in order, unscaled;
 * 0 otherwise. */
size_t km_kernel_view_in_place_size(const km_kernel_view *view);
/* View kernel v as explicit features over the view's rows (feature_block.h) when its provider kernel
 * has them and the view does not scale it; out->phi NULL otherwise. ctx: the view. */
void km_kernel_view_feature_block(void *ctx, size_t v, km_feature_block *out);
/* diag[v][i] = K'_v(i, i) for every view kernel v and view row i. */
const double *const *km_kernel_view_diag(const km_kernel_view *view);

/* out[k] = K'_v(rows[k], i), k < nrows (view rows; rows NULL: 0..nrows-1). ctx: the view. */
km_status km_kernel_view_column(void *ctx, size_t v, size_t i, const size_t *rows, size_t nrows, double *out);
/* out[v*nrows + k] = K'_v(rows[k], i) for every view kernel v (provider.h km_provider_kernel_columns:
 * shared dot-product and squared-distance columns). ctx: the view. */
km_status km_kernel_view_kernel_columns(void *ctx, size_t i, const size_t *rows, size_t nrows, double *out);
/* values[v] = the n_rows values K'_v(., i) in place, for every view kernel v (when
 * km_kernel_view_in_place_size is not 0; provider.h km_provider_columns_in_place). ctx: the view. */
km_status km_kernel_view_columns_in_place(void *ctx, size_t i, const void **values);
/* out[(t*V + v)*nrows + k] = K'_v(rows[k], cols[t]) for the V view kernels, t < ncols: the kernel columns
 * of several rows, their dot products from one matrix product (provider.h km_provider_kernel_blocks).
 * ctx: the view. */
km_status km_kernel_view_kernel_blocks(void *ctx, const size_t *cols, size_t ncols, const size_t *rows, size_t nrows,
                                       double *out);
/* out[t*nrows + k] = sum_v theta[v] K'_v(rows[k], cols[t]), t < ncols (rows NULL: 0..nrows-1); one block
 * of the provider (km_provider_combined_columns) when the view neither scales nor repeats kernels. */
km_status km_kernel_view_combined(void *ctx, const double *theta, const size_t *cols, size_t ncols,
                                  const size_t *rows, size_t nrows, double *out);

#endif
