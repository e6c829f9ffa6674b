/* Feature views: dense or CSR copies of selected columns, and their dot products through BLAS. */
#include "kernel/feature_view.h"

#include <cblas.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "kernel/dot_products.h"

/* A sparse view stays CSR when at most this fraction of its entries is stored ... */
#define KM_VIEW_SPARSE_DENSITY 0.1
/* ... and it has at least this many columns, or when the dense copy would exceed this many bytes. */
#define KM_VIEW_SPARSE_MIN_DIM 100
#define KM_VIEW_DENSE_MAX_BYTES ((double)(1u << 30))

void km_view_free(km_view *view)
{
    free(view->X);
    free(view->row_start);
    free(view->col);
    free(view->slot);
    free(view->columns);
    free(view->val);
    free(view->sqnorm);
    memset(view, 0, sizeof *view);
}

/* Position of column c in the ascending columns[0..n), or -1 when absent. */
static long find_column(const uint32_t *columns, size_t n, uint32_t c)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (columns[mid] < c)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (lo < n && columns[lo] == c) ? (long)lo : -1;
}

/* Column of the view for dataset column c, or -1 when c is not selected. */
static long view_column(const uint32_t *features, size_t n_features, size_t dim_all, uint32_t c)
{
    if (!features)
        return c < dim_all ? (long)c : -1;
    return find_column(features, n_features, c);
}

/* The entries of a sparse row that a view selects, in ascending column order (next_selected). A view of
 * a few features looks each of them up in the row (features=each: one binary search a row), one of many
 * looks each of the row's entries up in its features: O(dim log nnz) or O(nnz log dim) a row. */
typedef struct selected_entries {
    const km_dataset *data;
    const uint32_t *features;    /* NULL: every column below dim */
    size_t dim;
    size_t p, end;               /* the row's entries not yet passed */
    size_t f;                    /* by_feature: the next feature to look up */
    int by_feature;
} selected_entries;

static selected_entries select_row(const km_dataset *data, size_t row, const uint32_t *features, size_t dim)
{
    size_t p = data->row_start[row], end = data->row_start[row + 1];
    return (selected_entries){data, features, dim, p, end, 0, features && 4 * dim < end - p};
}

/* The next selected entry: its position *p among the dataset's values and its view column *c; 0 at the end. */
static int next_selected(selected_entries *s, size_t *p, size_t *c)
{
    if (s->by_feature) {
        while (s->f < s->dim) {
            size_t f = s->f++;
            long at = find_column(s->data->col + s->p, s->end - s->p, s->features[f]);
            if (at >= 0) {   /* the features ascend: the next one lies after this entry */
                *p = s->p + (size_t)at;
                s->p = *p + 1;
                *c = f;
                return 1;
            }
        }
        return 0;
    }
    while (s->p < s->end) {
        size_t q = s->p++;
        long column = view_column(s->features, s->dim, s->dim, s->data->col[q]);
        if (column >= 0) {
            *p = q;
            *c = (size_t)column;
            return 1;
        }
    }
    return 0;
}

static km_status build_dense(const km_dataset *data, const size_t *rows, const uint32_t *features, km_view *v)
{
    if (!(v->X = calloc(v->n * v->dim != 0 ? v->n * v->dim : 1, sizeof *v->X)))
        return km_error_nomem("a feature view");
    for (size_t r = 0; r < v->n; r++) {
        size_t row = rows ? rows[r] : r;
        double *dst = v->X + r * v->dim;
        if (!data->sparse) {
            const double *src = data->X + row * data->d;
            size_t shared = v->dim < data->d ? v->dim : data->d;   /* 0 for string rows, whose X is NULL */
            if (!features && shared)
                memcpy(dst, src, shared * sizeof *dst);
            else
                for (size_t c = 0; c < v->dim; c++)
                    dst[c] = features[c] < data->d ? src[features[c]] : 0.0;
        } else {
            selected_entries entries = select_row(data, row, features, v->dim);
            size_t p, c;
            while (next_selected(&entries, &p, &c))
                dst[c] = data->val[p];
        }
    }
    return KM_OK;
}

static int compare_columns(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* The distinct columns of the stored entries, ascending, and the slot of every entry. */
static km_status number_slots(km_view *v, size_t nnz)
{
    v->columns = malloc((nnz ? nnz : 1) * sizeof *v->columns);
    v->slot = malloc((nnz ? nnz : 1) * sizeof *v->slot);
    if (!v->columns || !v->slot)
        return km_error_nomem("a sparse feature view");
    memcpy(v->columns, v->col, nnz * sizeof *v->col);
    qsort(v->columns, nnz, sizeof *v->columns, compare_columns);
    size_t distinct = 0;
    for (size_t p = 0; p < nnz; p++)
        if (distinct == 0 || v->columns[distinct - 1] != v->columns[p])
            v->columns[distinct++] = v->columns[p];
    v->n_slots = distinct;
    for (size_t p = 0; p < nnz; p++)
        v->slot[p] = (uint32_t)find_column(v->columns, distinct, v->col[p]);
    return KM_OK;
}

static km_status build_sparse(const km_dataset *data, const size_t *rows, const uint32_t *features, size_t nnz,
                              km_view *v)
{
    v->sparse = 1;
    v->row_start = malloc((v->n + 1) * sizeof *v->row_start);
    v->col = malloc((nnz ? nnz : 1) * sizeof *v->col);
    v->val = malloc((nnz ? nnz : 1) * sizeof *v->val);
    if (!v->row_start || !v->col || !v->val)
        return km_error_nomem("a sparse feature view");
    size_t pos = 0;
    for (size_t r = 0; r < v->n; r++) {
        size_t row = rows ? rows[r] : r;
        v->row_start[r] = pos;
        selected_entries entries = select_row(data, row, features, v->dim);
        size_t p, c;
        while (next_selected(&entries, &p, &c)) {
            v->col[pos] = (uint32_t)c;
            v->val[pos++] = data->val[p];
        }
    }
    v->row_start[v->n] = pos;
    return number_slots(v, nnz);
}

km_status km_view_build(const km_dataset *data, const size_t *rows, size_t n, const uint32_t *features,
                        size_t n_features, size_t dim_all, km_view *out)
{
    memset(out, 0, sizeof *out);
    out->n = n;
    out->dim = features ? n_features : dim_all;
    km_status st = KM_OK;
    if (data->sparse) {
        size_t nnz = 0, p, c;
        for (size_t r = 0; r < n; r++) {
            selected_entries entries = select_row(data, rows ? rows[r] : r, features, out->dim);
            while (next_selected(&entries, &p, &c))
                nnz++;
        }
        double cells = (double)n * (double)out->dim;
        int keep_sparse = (cells * 8.0 > KM_VIEW_DENSE_MAX_BYTES) ||
                          (out->dim >= KM_VIEW_SPARSE_MIN_DIM && (double)nnz <= KM_VIEW_SPARSE_DENSITY * cells);
        st = keep_sparse ? build_sparse(data, rows, features, nnz, out) : build_dense(data, rows, features, out);
    } else {
        st = build_dense(data, rows, features, out);
    }
    if (!st && !(out->sqnorm = malloc((n ? n : 1) * sizeof *out->sqnorm)))
        st = km_error_nomem("a feature view");
    for (size_t r = 0; !st && r < n; r++) {
        km_view_row row = km_view_get_row(out, r);
        out->sqnorm[r] = km_dot(row.val, row.val, row.nnz);
    }
    if (st)
        km_view_free(out);
    return st;
}

km_view_row km_view_get_row(const km_view *view, size_t i)
{
    km_view_row row;
    if (view->sparse) {
        row.col = view->col + view->row_start[i];
        row.slot = view->slot + view->row_start[i];
        row.val = view->val + view->row_start[i];
        row.nnz = view->row_start[i + 1] - view->row_start[i];
    } else {
        row.col = NULL;
        row.slot = NULL;
        row.val = view->X + i * view->dim;
        row.nnz = view->dim;
    }
    return row;
}

double km_view_min_value(const km_view *view)
{
    size_t count = view->sparse ? view->row_start[view->n] : view->n * view->dim;
    const double *values = view->sparse ? view->val : view->X;
    if (count == 0)
        return 0.0;
    double min = (view->sparse && count < view->n * view->dim) ? 0.0 : values[0];
    for (size_t k = 0; k < count; k++)
        if (values[k] < min)
            min = values[k];
    return min;
}

size_t km_view_width(const km_view *view)
{
    return view->sparse ? view->n_slots : view->dim;
}

double km_view_row_dot(km_view_row row, const double *y)
{
    if (!row.col)
        return km_dot(row.val, y, row.nnz);
    double s = 0.0;
    for (size_t p = 0; p < row.nnz; p++)
        s += row.val[p] * y[row.slot[p]];
    return s;
}

/* <row, y> for y indexed by view column */
static double row_dot_columns(km_view_row row, const double *y)
{
    if (!row.col)
        return km_dot(row.val, y, row.nnz);
    double s = 0.0;
    for (size_t p = 0; p < row.nnz; p++)
        s += row.val[p] * y[row.col[p]];
    return s;
}

/* Writes (value 1) or clears (value 0) the sparse row a, taken from view `from`, in the workspace of
 * view `into`: indexed by the slots of a sparse `into` (its columns that a does not use are dropped,
 * as they meet only zeros), by column for a dense one. */
static void scatter(km_view_row a, const km_view *from, const km_view *into, double *work, int value)
{
    for (size_t p = 0; p < a.nnz; p++) {
        long at = !into->sparse ? (long)a.col[p]
                  : into == from ? (long)a.slot[p]
                                 : find_column(into->columns, into->n_slots, a.col[p]);
        if (at >= 0)
            work[at] = value ? a.val[p] : 0.0;
    }
}

km_status km_view_dots(const km_view *a, size_t a0, size_t na, const km_view *b, double *out)
{
    size_t nb = b->n, dim = a->dim;
    if (na == 0 || nb == 0)
        return KM_OK;
    if (!a->sparse && !b->sparse) {
        if (dim == 0) {
            memset(out, 0, na * nb * sizeof *out);
            return KM_OK;
        }
        km_dots_block(a->X + a0 * dim, na, b->X, nb, dim, out);
        return KM_OK;
    }
    int failed = 0;
    size_t width = km_view_width(b);
#ifdef _OPENMP
#pragma omp parallel if (na * nb > 65536)
#endif
    {
        /* a sparse a-row is scattered into b's workspace, then dotted with every b-row */
        double *work = a->sparse ? calloc(width ? width : 1, sizeof *work) : NULL;
        if (a->sparse && !work)
            failed = 1;
        else {
#ifdef _OPENMP
#pragma omp for schedule(static)
#endif
            for (size_t t = 0; t < na; t++) {
                km_view_row ra = km_view_get_row(a, a0 + t);
                if (!a->sparse) {
                    for (size_t j = 0; j < nb; j++)
                        out[t * nb + j] = row_dot_columns(km_view_get_row(b, j), ra.val);
                    continue;
                }
                scatter(ra, a, b, work, 1);
                for (size_t j = 0; j < nb; j++)
                    out[t * nb + j] = km_view_row_dot(km_view_get_row(b, j), work);
                scatter(ra, a, b, work, 0);
            }
        }
        free(work);
    }
    return failed ? km_error_nomem("a dot-product workspace") : KM_OK;
}

/* The Gram matrix of the n dense rows X (n×dim) into gram, both triangles: the fixed tiles of
 * km_dots_block, not one threaded dsyrk whose split among OpenBLAS's threads changes the rounding, so
 * that the Gram, and every result from it, is the same for any thread count. */
static void dense_gram(const double *X, size_t n, size_t dim, double *gram)
{
    km_dots_block(X, n, X, n, dim, gram);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < i; j++)
            gram[i * n + j] = gram[j * n + i];
}

km_status km_view_gram(const km_view *view, double *gram)
{
    size_t n = view->n;
    if (view->sparse || view->dim == 0)
        return km_view_dots(view, 0, n, view, gram);
    dense_gram(view->X, n, view->dim, gram);
    return KM_OK;
}

void km_view_gram_of_rows(const km_view *view, const size_t *rows, size_t n, double *work, double *gram)
{
    size_t dim = view->dim;
    for (size_t k = 0; k < n; k++)
        memcpy(work + k * dim, view->X + rows[k] * dim, dim * sizeof *work);
    dense_gram(work, n, dim, gram);
}

void km_view_dot_vector(const km_view *view, const double *y, double *out)
{
    if (view->sparse) {
        for (size_t r = 0; r < view->n; r++)
            out[r] = km_view_row_dot(km_view_get_row(view, r), y);
    } else if (view->dim == 0) {
        memset(out, 0, view->n * sizeof *out);
    } else {
        km_dots_vector(view->X, view->n, view->dim, y, out);
    }
}

void km_view_dot_column(const km_view *view, size_t i, double *work, double *out)
{
    if (!view->sparse) {
        km_view_dot_vector(view, view->X + i * view->dim, out);
        return;
    }
    km_view_row ri = km_view_get_row(view, i);
    scatter(ri, view, view, work, 1);
    km_view_dot_vector(view, work, out);
    scatter(ri, view, view, work, 0);
}

void km_view_dots_direct(const km_view *view, size_t i, const size_t *rows, size_t nrows, double *out)
{
    size_t dim = view->dim;
    const double *xi = view->X + i * dim;
    if (dim == 1) {   /* one feature per kernel (features=each) */
        for (size_t k = 0; k < nrows; k++)
            out[k] = view->X[rows[k]] * xi[0];
        return;
    }
    for (size_t k = 0; k < nrows; k++) {
        const double *x = view->X + rows[k] * dim;
        double s = 0.0;
        for (size_t f = 0; f < dim; f++)
            s += x[f] * xi[f];
        out[k] = s;
    }
}

km_status km_view_column_sums(const km_view *view, double **sum)
{
    size_t width = km_view_width(view);
    if (!(*sum = calloc(width ? width : 1, sizeof **sum)))
        return km_error_nomem("a column sum");
    for (size_t r = 0; r < view->n; r++) {
        km_view_row row = km_view_get_row(view, r);
        for (size_t p = 0; p < row.nnz; p++)
            (*sum)[row.slot ? row.slot[p] : p] += row.val[p];
    }
    return KM_OK;
}

km_status km_view_mean_sqdist(const km_view *view, double *mean)
{
    /* sum_{i<j} ||x_i - x_j||^2 = n sum_i ||x_i||^2 - ||sum_i x_i||^2 */
    size_t n = view->n;
    if (n < 2)
        return km_error(KM_EINVAL, "a mean distance needs at least 2 training rows (got %zu)", n);
    double *sum, sq = 0.0;
    km_status st = km_view_column_sums(view, &sum);
    if (st)
        return st;
    for (size_t r = 0; r < n; r++)
        sq += view->sqnorm[r];
    double total = (double)n * sq - km_dot(sum, sum, km_view_width(view));
    free(sum);
    /* rounding can leave a tiny negative total; an overflow stays inf or NaN for the caller to name */
    *mean = (total < 0 ? 0.0 : total) / ((double)n * (double)(n - 1) / 2.0);
    return KM_OK;
}
