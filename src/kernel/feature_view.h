/* Feature views: the rows of a dataset restricted to one feature subset, stored dense (row-major) or,
 * for very sparse high-dimensional data, as CSR, with the squared norm of every row. Kernels on the
 * same subset share one view and, for dot-product kernels, one set of BLAS dot products.
 *
 * A sparse view also numbers the distinct columns its rows use (its "slots"): workspaces and column
 * vectors of a sparse view have one entry per slot, so their size follows the stored entries, never
 * the largest feature index (a file with the single index 2e9 needs bytes, not 16 GB). */
#ifndef KM_KERNEL_FEATURE_VIEW_H
#define KM_KERNEL_FEATURE_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "data/dataset.h"

typedef struct km_view {
    size_t n;                /* rows */
    size_t dim;              /* columns (subset size, or the dimension asked for) */
    int sparse;
    double *X;               /* dense: n×dim row-major */
    size_t *row_start;       /* CSR: n+1 offsets */
    uint32_t *col;           /* CSR: view columns, ascending within a row */
    uint32_t *slot;          /* CSR: slot of each stored entry (index into columns) */
    uint32_t *columns;       /* CSR: the distinct view columns used, ascending (n_slots of them) */
    size_t n_slots;
    double *val;
    double *sqnorm;          /* ||row||^2, n values */
} km_view;

/* One row for pairwise kernels: col == NULL means dense (nnz = dim values, column = position). */
typedef struct km_view_row {
    const uint32_t *col;
    const uint32_t *slot;    /* sparse rows: the slot of each entry in its view; NULL when dense */
    const double *val;
    size_t nnz;
} km_view_row;

/* Rows rows[0..n) of data (rows NULL: 0..n-1) on the 0-based feature subset (features NULL: columns
 * 0..dim_all-1). Sparse data stays CSR when the view is high-dimensional and very sparse. */
km_status km_view_build(const km_dataset *data, const size_t *rows, size_t n, const uint32_t *features,
                        size_t n_features, size_t dim_all, km_view *out);
void km_view_free(km_view *view);

km_view_row km_view_get_row(const km_view *view, size_t i);
/* <row, y> for y indexed by the row's slots (a sparse row) or by the view's columns (a dense one). */
double km_view_row_dot(km_view_row row, const double *y);
/* Smallest stored value (0 when the view has an implicit zero), for kernels that need x >= 0. */
double km_view_min_value(const km_view *view);

/* out[t*b->n + j] = <a_{a0+t}, b_j> for t < na (a and b have the same dim). */
km_status km_view_dots(const km_view *a, size_t a0, size_t na, const km_view *b, double *out);
/* Full Gram matrix G = X X^T (n×n, both triangles). */
km_status km_view_gram(const km_view *view, double *gram);
/* The n×n Gram matrix of rows rows[0..n) of a dense view with dim > 0, both triangles, by the tiles of
 * km_view_gram; work: n×dim values. */
void km_view_gram_of_rows(const km_view *view, const size_t *rows, size_t n, double *work, double *gram);
/* Length of the view's column vectors and workspaces: n_slots for a sparse view, dim for a dense one. */
size_t km_view_width(const km_view *view);
/* out[r] = <x_r, y> for every row r (y: km_view_width values, one per slot of a sparse view). */
void km_view_dot_vector(const km_view *view, const double *y, double *out);
/* out[r] = <x_r, x_i> for every row r; work: km_view_width zeros (left zero), used by sparse views. */
void km_view_dot_column(const km_view *view, size_t i, double *work, double *out);
/* out[k] = <x_rows[k], x_i> by a plain loop, for dense views with few columns. */
void km_view_dots_direct(const km_view *view, size_t i, const size_t *rows, size_t nrows, double *out);
/* *sum = the column sums, km_view_width values (free with free()). */
km_status km_view_column_sums(const km_view *view, double **sum);
/* Mean squared distance ||x_i - x_j||^2 over the pairs i < j (closed form from the row sums). */
km_status km_view_mean_sqdist(const km_view *view, double *mean);

#endif
