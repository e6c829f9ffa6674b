/* Blocks of columns (provider.h km_provider_combined_columns, km_provider_kernel_blocks): the dot
 * products of several columns from one matrix product, all RBF widths of a view from one
 * squared-distance pass, the exp passes shared out among threads. */
#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "data/text_input.h"
#include "kernel/dot_products.h"
#include "kernel/kernel_eval.h"
#include "kernel/provider_internal.h"
#include "kernel/rank1_block.h"
#include "kernel/vector_exp.h"

/* Blocks of combined columns with at least this many kernel values are computed by several threads
 * (about 10 ms of vectorised exp; below it, the threads' start and spin cost more than they save). */
#define KM_PARALLEL_MIN_VALUES ((size_t)1 << 23)

/* An RBF kernel normalized by at most a global factor: its values come straight from squared distances. */
static int plain_rbf(const km_kernel *k, const km_provider_kernel *pk)
{
    return pk->family->exp_of_squared_distance && !k->center && !pk->factor;
}

/* The values of an exp kernel whose gamma is twice that of the kernel before it in its view's order are the
 * squares of that kernel's, exp(-2 gamma d) = exp(-gamma d)^2: one multiplication instead of an exp. Each
 * square doubles the relative error of the values it starts from, so a chain takes a fresh exp after this
 * many squares: at most 2^3 times the exp's own 4 ulp (vector_exp.h), plus the products' roundings. */
#define KM_SQUARE_CHAIN 3

static int is_exp_kernel(const km_provider *p, size_t m) { return p->kernels[m].family->exp_of_squared_distance; }

/* Kernel a comes before kernel b in a view's order: the exp kernels first, by increasing gamma. */
static int exp_before(const km_provider *p, size_t a, size_t b)
{
    return is_exp_kernel(p, a) && (!is_exp_kernel(p, b) || p->fitted->kernels[a].gamma < p->fitted->kernels[b].gamma);
}

void km_provider_plan_squares(km_provider *p)
{
    for (size_t v = 0; v < p->n_views; v++) {
        size_t *run = p->views[v].dot_kernels, n = p->views[v].n_dot_kernels;
        for (size_t t = 1; t < n; t++) {   /* insertion sort, stable: a view holds few kernels */
            size_t m = run[t], u = t;
            for (; u > 0 && exp_before(p, m, run[u - 1]); u--)
                run[u] = run[u - 1];
            run[u] = m;
        }
        /* plain kernels only: add_dot_kernels computes the others' values apart, normalized */
        for (size_t t = 1; t < n; t++) {
            size_t m = run[t], before = run[t - 1];
            const km_kernel *k = &p->fitted->kernels[m];
            unsigned chain = p->kernels[before].exp_squares;
            if (plain_rbf(k, &p->kernels[m]) && plain_rbf(&p->fitted->kernels[before], &p->kernels[before]) &&
                k->gamma == 2.0 * p->fitted->kernels[before].gamma && chain < KM_SQUARE_CHAIN)
                p->kernels[m].exp_squares = chain + 1;
        }
    }
}

void km_provider_exp_values(const km_provider *p, size_t m, const double *d, size_t n, double *out)
{
    unsigned s = p->kernels[m].exp_squares;
    km_vexp(d, -ldexp(p->fitted->kernels[m].gamma, -(int)s), n, out);   /* gamma / 2^s, exactly */
    for (unsigned t = 0; t < s; t++)
        km_vsquare(out, n, out);
}

/* out[k] += sum_m weights[m] K_m(rows[k], i) over the dot-product kernels of view v, from the view's dot
 * products dots[k] = <x_rows[k], x_i>; dist and scratch hold nrows values. The squared distances are
 * computed once for all RBF widths, each width is one vectorised exp pass or the square of the width
 * before (km_provider_plan_squares). Reads the provider only, so several threads may call it with their
 * own buffers. */
static void add_dot_kernels(const km_provider *p, const km_provider_view *v, const double *weights, size_t i,
                            const size_t *rows, size_t nrows, const double *dots, double *dist, double *scratch,
                            double *out)
{
    int have_dist = 0;
    for (size_t t = 0; t < v->n_dot_kernels; t++) {
        size_t m = v->dot_kernels[t];
        const km_kernel *k = &p->fitted->kernels[m];
        const km_provider_kernel *pk = &p->kernels[m];
        int squared_next = t + 1 < v->n_dot_kernels && p->kernels[v->dot_kernels[t + 1]].exp_squares > 0;
        if (plain_rbf(k, pk) && (weights[m] != 0.0 || squared_next)) {
            if (pk->exp_squares > 0) {   /* scratch holds the kernel before's raw values */
                km_vsquare(scratch, nrows, scratch);
            } else {
                if (!have_dist)
                    km_squared_distances(dots, v->view.sqnorm, rows, v->view.sqnorm[i], nrows, dist);
                have_dist = 1;
                km_vexp(dist, -k->gamma, nrows, scratch);
            }
            if (weights[m] != 0.0)
                cblas_daxpy((int)nrows, weights[m] * pk->global, scratch, 1, out, 1);
            continue;
        }
        if (weights[m] == 0.0)
            continue;
        km_kernel_from_dots(k, dots, v->view.sqnorm, rows, v->view.sqnorm[i], nrows, scratch);
        km_provider_normalize(p, m, i, rows, nrows, scratch);
        cblas_daxpy((int)nrows, weights[m], scratch, 1, out, 1);
    }
}

/* v->gathered_X holds the rows rows[0..nrows) of the dense view. The buffer is kept between calls
 * and only the rows after the longest prefix shared with the last call are copied: OBSCURE scores
 * block after block against support rows that mostly grow at the end, and copying (and first-touching
 * a fresh buffer of) all of them for every block cost more than the products. */
static km_status gather_rows(km_provider_view *v, const size_t *rows, size_t nrows)
{
    size_t dim = v->view.dim;
    if (nrows == 0) {
        v->n_gathered = 0;
        return KM_OK;
    }
    size_t *ids = km_grow(v->gathered_rows, &v->gathered_rows_capacity, nrows, sizeof *ids);
    if (ids)
        v->gathered_rows = ids;
    double *X = ids ? km_grow(v->gathered_X, &v->gathered_X_capacity, nrows * dim, sizeof *X) : NULL;
    if (!X)
        return km_error_nomem("a block of dot products");
    v->gathered_X = X;
    size_t same = 0;
    while (same < nrows && same < v->n_gathered && v->gathered_rows[same] == rows[same])
        same++;
    for (size_t k = same; k < nrows; k++) {
        memcpy(v->gathered_X + k * dim, v->view.X + rows[k] * dim, dim * sizeof *v->gathered_X);
        v->gathered_rows[k] = rows[k];
    }
    v->n_gathered = nrows;
    return KM_OK;
}

/* dots[t*nrows + k] = <x_rows[k], x_cols[t]> on a dense view: the rows gathered, one matrix product. */
static km_status gathered_dots(km_provider_view *v, const size_t *cols, size_t ncols, const size_t *rows,
                               size_t nrows, double *dots)
{
    size_t dim = v->view.dim;
    if (dim == 0) {
        memset(dots, 0, ncols * nrows * sizeof *dots);
        return KM_OK;
    }
    double *a = malloc(ncols * dim * sizeof *a);
    km_status st = a ? gather_rows(v, rows, nrows) : km_error_nomem("a block of dot products");
    if (!st) {
        for (size_t t = 0; t < ncols; t++)
            memcpy(a + t * dim, v->view.X + cols[t] * dim, dim * sizeof *a);
        km_dots_block(a, ncols, v->gathered_X, nrows, dim, dots);
    }
    free(a);
    return st;
}

/* dots[t*nrows + k] = <x_rows[k], x_cols[t]> on view v: for several columns one matrix product (on
 * the view itself when the columns are consecutive and every row is asked for, else on the gathered
 * rows of a dense view), otherwise column by column. */
static km_status block_dots(km_provider *p, km_provider_view *v, const size_t *cols, size_t ncols, const size_t *rows,
                            size_t nrows, double *dots)
{
    int product = ncols > 1 && !v->gram && !v->direct;
    int consecutive = product && rows == p->identity && nrows == p->n;
    for (size_t t = 1; consecutive && t < ncols; t++)
        consecutive = cols[t] == cols[0] + t;
    if (consecutive)
        return km_view_dots(&v->view, cols[0], ncols, &v->view, dots);
    if (product && !v->view.sparse)
        return gathered_dots(v, cols, ncols, rows, nrows, dots);
    km_status st = KM_OK;
    for (size_t t = 0; !st && t < ncols; t++)
        st = km_provider_fetch_dots(p, v, cols[t], rows, nrows, dots + t * nrows);
    return st;
}

/* out[m*nrows + k] = K_m(rows[k], i) for the dot-product kernels m of view v, from the view's dot products
 * dots[k] = <x_rows[k], x_i>; dist holds nrows values. The exp kernels' raw values first (a width twice
 * the one before from its raw values' squares), then every column normalized. Reads the provider only
 * (thread-safe). */
static void view_kernel_columns(const km_provider *p, const km_provider_view *v, size_t i, const size_t *rows,
                                size_t nrows, const double *dots, double *dist, double *out)
{
    const double *sqnorm = v->view.sqnorm;
    int have_dist = 0;
    for (size_t t = 0; t < v->n_dot_kernels; t++) {
        size_t m = v->dot_kernels[t];
        const km_kernel *k = &p->fitted->kernels[m];
        double *column = out + m * nrows;
        if (p->kernels[m].exp_squares > 0) {
            km_vsquare(out + v->dot_kernels[t - 1] * nrows, nrows, column);
        } else if (is_exp_kernel(p, m)) {
            if (!have_dist)
                km_squared_distances(dots, sqnorm, rows, sqnorm[i], nrows, dist);
            have_dist = 1;
            km_vexp(dist, -k->gamma, nrows, column);
        } else {
            km_kernel_from_dots(k, dots, sqnorm, rows, sqnorm[i], nrows, column);
        }
    }
    for (size_t t = 0; t < v->n_dot_kernels; t++)
        km_provider_normalize(p, v->dot_kernels[t], i, rows, nrows, out + v->dot_kernels[t] * nrows);
}

/* View v has a dot-product kernel that is asked for (weights NULL: every kernel is). */
static int view_used(const km_provider_view *v, const double *weights)
{
    for (size_t t = 0; t < v->n_dot_kernels; t++)
        if (!weights || weights[v->dot_kernels[t]] != 0.0)
            return 1;
    return 0;
}

/* Column i's part of view v: with weights, out[k] += the weighted sum of its kernels; without, each
 * kernel's column into out[m*nrows + k]. dist and scratch: nrows values each. */
static void view_column(const km_provider *p, const km_provider_view *v, const double *weights, size_t i,
                        const size_t *rows, size_t nrows, const double *dots, double *dist, double *scratch,
                        double *out)
{
    if (weights)
        add_dot_kernels(p, v, weights, i, rows, nrows, dots, dist, scratch, out);
    else
        view_kernel_columns(p, v, i, rows, nrows, dots, dist, out);
}

/* The dot-product kernels' part of a block of columns t (out + t*stride), the columns shared out among
 * threads; dots: ncols*nrows values of scratch. */
static km_status dot_kernel_block(km_provider *p, const double *weights, const size_t *cols, size_t ncols,
                                  const size_t *rows, size_t nrows, double *dots, size_t stride, double *out)
{
    for (size_t v = 0; v < p->n_views; v++) {
        km_provider_view *view = &p->views[v];
        if (!view_used(view, weights))
            continue;
        km_status st = block_dots(p, view, cols, ncols, rows, nrows, dots);
        if (st)
            return st;
        if (ncols == 1) {
            view_column(p, view, weights, cols[0], rows, nrows, dots, p->dist, p->scratch, out);
            continue;
        }
        int failed = 0;
#ifdef _OPENMP
#pragma omp parallel if (ncols * nrows * view->n_dot_kernels > KM_PARALLEL_MIN_VALUES) reduction(+ : failed)
#endif
        {
            double *work = malloc(2 * nrows * sizeof *work);
            failed += !work;
#ifdef _OPENMP
#pragma omp for schedule(static)
#endif
            for (size_t t = 0; t < ncols; t++)
                if (work)
                    view_column(p, view, weights, cols[t], rows, nrows, dots + t * nrows, work, work + nrows,
                                out + t * stride);
            free(work);
        }
        if (failed)
            return km_error_nomem("kernel column buffers");
    }
    return KM_OK;
}

/* The dot-product part of a block of columns (see dot_kernel_block), after checking the columns. */
static km_status dot_part(km_provider *p, const double *weights, const size_t *cols, size_t ncols, const size_t *rows,
                          size_t nrows, size_t stride, double *out)
{
    km_status st = KM_OK;
    for (size_t t = 0; !st && t < ncols; t++)
        st = km_provider_check_request(p, cols[t]);
    if (st || ncols == 0)
        return st;
    double *dots = ncols == 1 ? p->base : malloc(ncols * nrows * sizeof *dots);
    if (!dots)
        return km_error_nomem("a block of dot products");
    st = dot_kernel_block(p, weights, cols, ncols, rows, nrows, dots, stride, out);
    if (dots != p->base)
        free(dots);
    return st;
}

/* Rows rows[0..count) (NULL: 0..count) of a block's features as doubles: the block's own values where
 * they are double and every row is asked for, else gathered. */
static const double *feature_rows(const km_feature_block *b, const size_t *rows, size_t count, double *gathered)
{
    if (!rows && b->phi)
        return b->phi;
    for (size_t k = 0; k < count; k++) {
        double *into = gathered + k * b->r;
        const double *row = km_feature_row_values(b, rows ? rows[k] : k, into);
        if (row != into)
            memcpy(into, row, b->r * sizeof *into);
    }
    return gathered;
}

/* out[t * ld + k] = K_m(rows[k], cols[t]), normalized, of a kernel with explicit features (a low-rank
 * kernel): one product of the rows' and the columns' features. */
static km_status feature_kernel_block(km_provider *p, size_t m, const size_t *cols, size_t ncols, const size_t *rows,
                                      size_t nrows, double *out, size_t ld)
{
    const km_provider_kernel *pk = &p->kernels[m];
    km_feature_block block = {0};
    pk->family->features(pk->rows, &block);
    size_t r = block.r;
    int in_place = rows == p->identity && nrows == p->n && block.phi;
    double *a = in_place ? NULL : malloc((nrows ? nrows : 1) * (r ? r : 1) * sizeof *a);
    double *b = malloc((ncols ? ncols : 1) * (r ? r : 1) * sizeof *b);
    if ((!in_place && !a) || !b) {
        free(a);
        free(b);
        return km_error_nomem("a block of low-rank kernel values");
    }
    const double *A = feature_rows(&block, in_place ? NULL : rows, nrows, a);
    const double *B = feature_rows(&block, cols, ncols, b);
    if (r)
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)ncols, (int)nrows, (int)r, 1.0, B, (int)r, A, (int)r,
                    0.0, out, (int)ld);
    else
        for (size_t t = 0; t < ncols; t++)
            memset(out + t * ld, 0, nrows * sizeof *out);
    for (size_t t = 0; t < ncols; t++)
        km_provider_normalize(p, m, cols[t], rows, nrows, out + t * ld);
    free(a);
    free(b);
    return KM_OK;
}

km_status km_provider_combined_columns(km_provider *p, const double *weights, const size_t *cols, size_t ncols,
                                       const size_t *rows, size_t nrows, double *out)
{
    if (!rows)
        rows = p->identity;
    memset(out, 0, ncols * nrows * sizeof *out);
    km_status st = dot_part(p, weights, cols, ncols, rows, nrows, nrows, out);
    for (size_t m = 0; !st && m < p->fitted->size; m++) {
        if (weights[m] == 0.0 || km_kernel_uses_dot(&p->fitted->kernels[m]) ||
            p->fitted->kernels[m].type == KM_KERNEL_RANK1)
            continue;
        for (size_t t = 0; !st && t < ncols; t++) {
            st = km_provider_kernel_column(p, m, cols[t], rows, nrows, NULL, p->scratch);
            if (!st)
                cblas_daxpy((int)nrows, weights[m], p->scratch, 1, out + t * nrows, 1);
        }
    }
    if (!st && p->rank1)   /* the rank-1 kernels: one weighted dot product */
        st = km_rank1_block_add(p->rank1, weights, cols, ncols, rows, nrows, out);
    return st;
}

km_status km_provider_combined_column(km_provider *p, const double *weights, size_t i, const size_t *rows,
                                      size_t nrows, double *out)
{
    return km_provider_combined_columns(p, weights, &i, 1, rows, nrows, out);
}

km_status km_provider_kernel_blocks(km_provider *p, const size_t *cols, size_t ncols, const size_t *rows, size_t nrows,
                                    double *out)
{
    if (!rows)
        rows = p->identity;
    size_t M = p->fitted->size;
    km_status st = dot_part(p, NULL, cols, ncols, rows, nrows, M * nrows, out);
    if (st)
        return st;
    /* precomputed matrices are only read: several threads copy their columns, a kernel at a time */
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 8) if (M * ncols * nrows >= KM_PARALLEL_MIN_VALUES / 8)
#endif
    for (size_t m = 0; m < M; m++)
        for (size_t t = 0; p->kernels[m].family->input == KM_INPUT_MATRIX && t < ncols; t++)
            km_provider_matrix_column(p, m, cols[t], rows, nrows, out + (t * M + m) * nrows);
    for (size_t m = 0; !st && m < M; m++) {
        if (km_kernel_uses_dot(&p->fitted->kernels[m]) || p->kernels[m].family->input == KM_INPUT_MATRIX)
            continue;
        if (p->kernels[m].family->features) {
            st = feature_kernel_block(p, m, cols, ncols, rows, nrows, out + m * nrows, M * nrows);
            continue;
        }
        for (size_t t = 0; !st && t < ncols; t++)
            st = km_provider_kernel_column(p, m, cols[t], rows, nrows, NULL, out + (t * M + m) * nrows);
    }
    return st;
}
