/* The kernel provider: every algorithm reads kernel values through it (the kernel-access seam of
 * docs/architecture.md, "The four seams").
 *
 * A training provider covers n training rows (a subset of a dataset, in a given order). It fits the
 * data-dependent values of the kernel set on those rows (default widths, normalization constants)
 * and serves columns "K_m(rows[k], i) for k < nrows" of each normalized base kernel, or of a
 * weighted combination, from precomputed matrices or from features (BLAS Gram blocks shared by all
 * dot-product kernels on the same features), keeping what it may in the kernel cache (cache.h). */
#ifndef KM_KERNEL_PROVIDER_H
#define KM_KERNEL_PROVIDER_H

#include <stddef.h>

#include "core/log.h"
#include "kernel/cache.h"
#include "kernel/feature_block.h"
#include "kernel/kernel.h"

typedef struct km_provider km_provider;

/* What the caller asks for, which decides what the provider keeps in a shared cache. */
typedef enum km_provider_use {
    /* per-kernel columns (learned weights): Gram matrices in up to half of the budget (the rest for
     * the solver's per-kernel columns), dot-product and pairwise columns cached */
    KM_PROVIDER_PER_KERNEL = 0,
    /* combined columns only, which the caller caches itself: no Gram matrices, the provider's columns
     * kept only while in use */
    KM_PROVIDER_COMBINED = 1
} km_provider_use;

/* rows: indices into data of the n training rows (NULL: all rows of data, n = rows of data).
 * The provider keeps pointers to data and to the set's matrices; they must outlive it.
 * Precomputed matrices are N×N over the N rows of data (row rows[i] is training row i) and must be
 * symmetric to 1e-8 relative on the training rows; a precomputed kernel without a matrix reads the
 * dataset's kernel rows (K(i,j) = row i at column id_j - 1, LIBSVM's 0:id). cache_bytes bounds the
 * memory of full Gram matrices and cached columns together. A provider is not thread-safe: one
 * thread at a time may ask it for columns. */
km_status km_provider_new(const km_dataset *data, const size_t *rows, size_t n, const km_kernel_set *set,
                          size_t cache_bytes, const km_logger *logger, km_provider **out);
/* As km_provider_new, keeping Gram matrices and columns in the shared cache (which must outlive the
 * provider) as use says. */
km_status km_provider_new_shared(const km_dataset *data, const size_t *rows, size_t n, const km_kernel_set *set,
                                 km_cache *cache, km_provider_use use, const km_logger *logger, km_provider **out);
void km_provider_free(km_provider *provider);
/* Until km_provider_unfocus (or the next focus), only rows[0..n) (provider rows, ascending) are asked
 * for, as by one machine of a multiclass split: each dense feature view without an N×N Gram matrix
 * then takes the n×n one of these rows where it fits in the Gram matrices' share of the budget, and
 * serves their dot products from it instead of recomputing N-value columns. rows NULL or n = N: no
 * focus. A view whose Gram does not fit (or cannot be allocated) keeps its columns. */
void km_provider_focus(km_provider *provider, const size_t *rows, size_t n);
void km_provider_unfocus(km_provider *provider);

size_t km_provider_n_rows(const km_provider *provider);
size_t km_provider_n_kernels(const km_provider *provider);
/* 1 when a kernel's values are computed one by one from its rows (string and histogram kernels:
 * microseconds each, against nanoseconds for a dot-product or low-rank kernel's from a matrix product). */
int km_provider_costly_values(const km_provider *provider);
/* 1 when every kernel is a dot-product kernel (linear, polynomial, RBF, ...) and they share at most
 * half as many feature views as there are kernels: then the M columns of a row come from at most
 * M/2 dot-product columns, which the provider caches, plus elementwise maps. */
int km_provider_columns_from_dots(const km_provider *provider);
/* Where every kernel is a precomputed matrix over exactly the provider's rows, all stored alike and
 * used as stored (no centring or scaling when read), the columns K_m(., i) lie in memory as they are:
 * km_provider_in_place_size gives the size of their values (sizeof(float) or sizeof(double)), 0
 * otherwise, and km_provider_columns_in_place points values[m] at column i of kernel m (its n values: row i of
 * the symmetric matrix). Those values were checked finite when the matrices were read. */
size_t km_provider_in_place_size(const km_provider *provider);
void km_provider_columns_in_place(const km_provider *provider, size_t i, const void **values);
/* The kernel set with fitted values (gamma resolved, normalization constants, centering means). */
const km_kernel_set *km_provider_fitted_set(const km_provider *provider);

/* out[k] = K_m(rows[k], i), k < nrows; i and rows are provider-local indices (0..n-1; i and m are
 * checked, rows are not: this is the solvers' inner loop); rows NULL: 0..nrows-1. Values do not depend on the cache size, except that a full Gram matrix (when it fits)
 * and on-demand columns may differ in the last bits. */
km_status km_provider_column(km_provider *provider, size_t m, size_t i, const size_t *rows, size_t nrows,
                             double *out);
/* out[m*nrows + k] = K_m(rows[k], i) for every kernel m (rows NULL: 0..nrows-1): the kernels on one
 * feature subset from one dot-product column, all RBF widths from one squared-distance column, each
 * kernel one elementwise map of it. Values equal km_provider_column's. */
km_status km_provider_kernel_columns(km_provider *provider, size_t i, const size_t *rows, size_t nrows, double *out);
/* out[(t*M + m)*nrows + k] = K_m(rows[k], cols[t]), t < ncols: km_provider_kernel_columns for several
 * columns, their dot products from one matrix product as in km_provider_combined_columns (values may
 * differ from km_provider_kernel_columns' in the last bits). */
km_status km_provider_kernel_blocks(km_provider *provider, const size_t *cols, size_t ncols, const size_t *rows,
                                    size_t nrows, double *out);
/* out[k] = sum_m weights[m] K_m(rows[k], i); kernels with weight 0 are skipped. */
km_status km_provider_combined_column(km_provider *provider, const double *weights, size_t i,
                                      const size_t *rows, size_t nrows, double *out);
/* out[t*nrows + k] = sum_m weights[m] K_m(rows[k], cols[t]), t < ncols: several combined columns at
 * once (rows NULL: 0..nrows-1). The dot products come from one matrix product instead of one per
 * column (dense views, or any view for consecutive cols and all rows), and the exp passes run on
 * several threads; values may differ from km_provider_combined_column's in the last bits. */
km_status km_provider_combined_columns(km_provider *provider, const double *weights, const size_t *cols,
                                       size_t ncols, const size_t *rows, size_t nrows, double *out);
/* Bytes the low-rank kernels of a set hold while fitted on n rows of dim_all features (their features,
 * landmarks, projection and landmarks' kernel matrix), which a provider reserves in its cache. */
double km_provider_low_rank_bytes(const km_kernel_set *set, size_t n, size_t dim_all);
/* Kernel m as explicit features over the provider's rows (feature_block.h, rows NULL) when it has them
 * (low-rank kernels) and is not centred; out->phi NULL otherwise. */
void km_provider_feature_block(const km_provider *provider, size_t m, km_feature_block *out);
/* Diagonal K_m(i, i) of the normalized kernel m, n values. */
const double *km_provider_diag(const km_provider *provider, size_t m);

/* Kernel values between rows of a (arows, na) and basis rows of b (brows, nb) for every kernel of a
 * fitted set, normalized with the stored constants: out[(m*na + t)*nb + j] = K_m(a_t, b_j).
 * Precomputed kernels read test_kernels[m][arows[t]][kcol[j]] (test_kernels indexed by kernel m,
 * entries for non-precomputed kernels ignored), or, for kernels without a file, the rows of a
 * themselves (LIBSVM 0:id convention). test_diag[m] (may be NULL) gives K_m(a_t, a_t) of precomputed
 * kernels for spherical normalization, indexed like arows. Centering needs b to be the full set of
 * training rows, in training order.
 * Details: arows/brows NULL mean 0..na-1 / 0..nb-1. kcol NULL: b's 0:id - 1 when b has ids, else
 * brows. A precomputed kernel with a matrix and no test_kernels[m] reads its training matrix (a then
 * indexes training rows, and spherical normalization takes k(a_t, a_t) from its diagonal). Without
 * test_diag, spherical normalization of precomputed kernels fails unless the values are available
 * that way (or a == b for kernels in the dataset rows). */
km_status km_kernel_cross(const km_kernel_set *fitted, const km_dataset *a, const size_t *arows, size_t na,
                          const km_dataset *b, const size_t *brows, size_t nb,
                          const km_matrix *const *test_kernels, const double *const *test_diag,
                          const size_t *kcol, double *out);

/* The same values in blocks of rows of a against one basis, whose side (its feature views, the sources
 * of kernels that read rows) is built once: for prediction, which asks for many blocks of test rows.
 * a, b, brows and kcol as for km_kernel_cross; a, b and kcol must outlive the basis. */
typedef struct km_cross_basis km_cross_basis;
km_status km_cross_basis_new(const km_kernel_set *fitted, const km_dataset *a, const km_dataset *b,
                             const size_t *brows, size_t nb, const size_t *kcol, km_cross_basis **out);
/* Computes only the kernels m with wanted[m] set (M flags, kept by the caller while the basis is used;
 * NULL: every kernel): a model's kernels that every machine weighs 0. The blocks of the others are left
 * as they were. */
void km_cross_basis_only(km_cross_basis *basis, const unsigned char *wanted);
/* out[(m*na + t)*nb + j] = K_m(a_{arows[t]}, b_j) (arows NULL: 0..na-1). */
km_status km_cross_basis_values(const km_cross_basis *basis, const size_t *arows, size_t na,
                                const km_matrix *const *test_kernels, const double *const *test_diag, double *out);
void km_cross_basis_free(km_cross_basis *basis);

#endif
