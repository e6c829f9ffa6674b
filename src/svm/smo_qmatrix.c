/* Q columns for the SMO solver (see smo_qmatrix.h). */
#include "svm/smo_qmatrix.h"

#include <cblas.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "svm/svm.h"

/* Combined columns of the per-kernel layout are summed by several threads from this many values on,
 * in blocks of rows that stay in the processor cache while the M kernels are added. */
#define KM_QMATRIX_PARALLEL_MIN_VALUES ((size_t)1 << 18)
#define KM_QMATRIX_ROW_BLOCK 512

/* Per-kernel entries kept when the kernel layer derives them from its own cached columns. */
#define KM_QMATRIX_DERIVED_ENTRIES 4

/* Values (columns × n) computed per block while filling the full matrix. */
#define KM_FULL_FILL_BLOCK_VALUES ((size_t)1 << 21)

static km_status fill_full_matrix(km_qmatrix *qm, int (*interrupted)(void *ctx), void *interrupt_ctx);

/* Reserves the n×n matrix of value_size values in the cache when it fits. */
static int reserve_full_matrix(km_qmatrix *qm)
{
    size_t n = qm->n;
    if (n > SIZE_MAX / n / qm->value_size || !km_cache_reserve(qm->cache, n * n * qm->value_size))
        return 0;
    qm->full_bytes = n * n * qm->value_size;
    return 1;
}

km_status km_qmatrix_init(km_qmatrix *qm, const km_qp *qp, km_cache *cache, size_t cache_bytes, int per_kernel,
                          int cache_float, int (*interrupted)(void *ctx), void *interrupt_ctx)
{
    memset(qm, 0, sizeof *qm);
    qm->qp = qp;
    qm->l = qp->n_vars;
    qm->n = qp->n_rows;
    qm->per_kernel = per_kernel;
    qm->in_place = per_kernel && qp->kernel_rows;
    qm->value_size = cache_float && !per_kernel ? sizeof(float) : sizeof(double);
    if (!cache) {
        km_status st = km_cache_new(cache_bytes, &qm->own_cache);
        if (st)
            return st;
        cache = qm->own_cache;
    }
    qm->cache = cache;
    int full = !per_kernel && reserve_full_matrix(qm);
    qm->by_row = per_kernel || full || qp->row_of != NULL;
    size_t l = qm->l, n = qm->n, M = qp->n_kernels;

    qm->y = malloc(l * sizeof *qm->y);
    qm->row = malloc(l * sizeof *qm->row);
    qm->QD = malloc(l * sizeof *qm->QD);
    if (!qm->y || !qm->row || !qm->QD)
        return km_error_nomem("the SMO variable arrays");
    for (size_t t = 0; t < l; t++) {
        qm->y[t] = qp->y[t];
        qm->row[t] = qp->row_of ? qp->row_of[t] : t;
    }
    km_qmatrix_update_diagonal(qm);
    /* kernel columns summed here (without qp->combined): over the variables (l >= n) or the rows */
    if (M > 1 && !per_kernel && !qp->combined) {
        qm->scratch = malloc(l * sizeof *qm->scratch);
        if (!qm->scratch)
            return km_error_nomem("the SMO kernel column buffer");
    }
    if (qm->value_size == sizeof(float) && !full && !(qm->fill = malloc(l * sizeof *qm->fill)))
        return km_error_nomem("the SMO kernel column buffer");
    if (qm->by_row || qm->value_size == sizeof(float)) {
        qm->buffer[0] = malloc(l * sizeof(double));
        qm->buffer[1] = malloc(l * sizeof(double));
        if (!qm->buffer[0] || !qm->buffer[1])
            return km_error_nomem("the SMO column buffers");
    }

    if (qm->by_row) {
        size_t width = per_kernel ? M * n : n;
        if (per_kernel && n > SIZE_MAX / sizeof(double) / M)
            return km_error(KM_EINVAL, "SMO: %zu kernels x %zu rows do not fit in memory", M, n);
        qm->all_rows = malloc(n * sizeof *qm->all_rows);
        qm->weighted = per_kernel ? malloc(n * sizeof *qm->weighted) : NULL;
        if (!qm->all_rows || (per_kernel && !qm->weighted))
            return km_error_nomem("the SMO column buffers");
        for (size_t r = 0; r < n; r++)
            qm->all_rows[r] = r;
        if (full)
            return fill_full_matrix(qm, interrupted, interrupt_ctx);
        if (per_kernel) {
            qm->row_values[0] = malloc(M * sizeof *qm->row_values[0]);
            qm->row_values[1] = malloc(M * sizeof *qm->row_values[1]);
            if (!qm->row_values[0] || !qm->row_values[1])
                return km_error_nomem("the SMO column buffers");
        }
        if (qm->in_place)
            return KM_OK;
        /* per-kernel entries take at most half the budget: the other half is the kernel provider's
         * (Gram matrices, dot-product columns), the balance measured before the cache was shared.
         * Entries the kernel layer derives from its own cached columns get a few slots: a step uses
         * two, and the budget is better spent on the base columns, M/2 or more times smaller. */
        size_t limit = !per_kernel ? SIZE_MAX
                       : qp->columns_derived ? KM_QMATRIX_DERIVED_ENTRIES * width * qm->value_size
                                             : km_cache_budget(cache) / 2;
        return km_cache_client_new(cache, n, qm->value_size, width, limit, &qm->columns);
    }
    return km_cache_client_new(cache, l, qm->value_size, l, SIZE_MAX, &qm->columns);
}

void km_qmatrix_destroy(km_qmatrix *qm)
{
    km_cache_client_free(qm->columns);
    if (qm->cache)
        km_cache_unreserve(qm->cache, qm->full_bytes);
    km_cache_free(qm->own_cache);
    free(qm->y);
    free(qm->row);
    free(qm->QD);
    free(qm->full);
    free(qm->all_rows);
    free(qm->scratch);
    free(qm->fill);
    free(qm->buffer[0]);
    free(qm->buffer[1]);
    free(qm->weighted);
    free(qm->row_values[0]);
    free(qm->row_values[1]);
    memset(qm, 0, sizeof *qm);
}

void km_qmatrix_update_diagonal(km_qmatrix *qm)
{
    const km_qp *qp = qm->qp;
    memset(qm->QD, 0, qm->l * sizeof *qm->QD);
    for (size_t m = 0; m < qp->n_kernels; m++) {
        double theta = qp->theta[m];
        if (theta == 0.0)
            continue;
        const double *diag = qp->diag[m];
        for (size_t t = 0; t < qm->l; t++)
            qm->QD[t] += theta * diag[qm->row[t]];
    }
}

/* out[k] = sum_m theta_m K_m(rows[k], r), k < count, kernels with theta 0 skipped. */
static km_status combined_kernel_column(km_qmatrix *qm, size_t r, const size_t *rows, size_t count, double *out)
{
    const km_qp *qp = qm->qp;
    qm->computed++;
    if (qp->combined)
        return qp->combined(qp->column_ctx, qp->theta, &r, 1, rows, count, out);
    int first = 1;
    for (size_t m = 0; m < qp->n_kernels; m++) {
        double theta = qp->theta[m];
        if (theta == 0.0)
            continue;
        double *target = first ? out : qm->scratch;
        km_status st = qp->column(qp->column_ctx, m, r, rows, count, target);
        if (st)
            return st;
        if (first) {
            if (theta != 1.0)
                cblas_dscal((int)count, theta, out, 1);
            first = 0;
        } else {
            cblas_daxpy((int)count, theta, target, 1, out, 1);
        }
    }
    if (first)
        memset(out, 0, count * sizeof *out);
    return KM_OK;
}

static void store_values(void *to, size_t value_size, const double *from, size_t count)
{
    if (value_size == sizeof(double)) {
        memcpy(to, from, count * sizeof *from);
        return;
    }
    float *f = to;
    for (size_t k = 0; k < count; k++)
        f[k] = (float)from[k];
}

/* The full layout: combined kernel columns in blocks (one call of qp->combined per block when given;
 * the matrix is symmetric, so column r is stored as row r), polling the interrupt before each. */
static km_status fill_full_matrix(km_qmatrix *qm, int (*interrupted)(void *ctx), void *interrupt_ctx)
{
    const km_qp *qp = qm->qp;
    size_t n = qm->n, block = KM_FULL_FILL_BLOCK_VALUES / n ? KM_FULL_FILL_BLOCK_VALUES / n : 1;
    if (qp->costly_values)
        block = km_costly_block_columns(n, qp->n_kernels);
    block = block < n ? block : n;
    qm->full = malloc(n * n * qm->value_size);
    size_t *cols = malloc(block * sizeof *cols);
    double *values = qm->value_size == sizeof(double) ? NULL : malloc(block * n * sizeof *values);
    km_status st = KM_OK;
    if (!qm->full || !cols || (qm->value_size != sizeof(double) && !values))
        st = km_error_nomem("the SMO kernel matrix");
    for (size_t c0 = 0; !st && c0 < n; c0 += block) {
        if (interrupted && interrupted(interrupt_ctx)) {
            st = km_error(KM_EINTERRUPTED, "interrupted while computing the SMO kernel matrix");
            break;
        }
        size_t len = n - c0 < block ? n - c0 : block;
        double *target = values ? values : (double *)qm->full + c0 * n;
        for (size_t t = 0; t < len; t++)
            cols[t] = c0 + t;
        if (qp->combined)
            st = qp->combined(qp->column_ctx, qp->theta, cols, len, NULL, n, target);
        for (size_t t = 0; !qp->combined && !st && t < len; t++)
            st = combined_kernel_column(qm, c0 + t, qm->all_rows, n, target + t * n);
        if (!st && values)
            store_values((float *)qm->full + c0 * n, qm->value_size, values, len * n);
        qm->computed += len;
    }
    free(cols);
    free(values);
    return st;
}

/* Base-kernel entry of row r: a row of the full matrix, or of the by-row cache (combined kernel, or
 * M base kernels); double or float values (qm->value_size). */
static const void *row_entry(km_qmatrix *qm, size_t r)
{
    if (qm->full)
        return (const char *)qm->full + r * qm->n * qm->value_size;
    const km_qp *qp = qm->qp;
    size_t n = qm->n, width = qm->per_kernel ? qp->n_kernels * n : n;
    void *data;
    size_t valid;
    if ((qm->failure = km_cache_get(qm->columns, r, width, &data, &valid)))
        return NULL;
    if (valid == width)
        return data;
    km_status st = KM_OK;
    if (qm->per_kernel)
        qm->computed++;
    if (qm->per_kernel && qp->kernel_columns) {
        st = qp->kernel_columns(qp->column_ctx, r, NULL, n, data);
    } else if (qm->per_kernel) {
        for (size_t m = 0; m < qp->n_kernels && !st; m++)
            st = qp->column(qp->column_ctx, m, r, NULL, n, (double *)data + m * n);
    } else if (qm->value_size == sizeof(double)) {
        st = combined_kernel_column(qm, r, qm->all_rows, n, data);
    } else if (!(st = combined_kernel_column(qm, r, qm->all_rows, n, qm->fill))) {
        store_values(data, qm->value_size, qm->fill, n);
    }
    if (st) {
        qm->failure = st;
        km_cache_drop(qm->columns, r);
        return NULL;
    }
    return data;
}

km_status km_qmatrix_kernel_columns(km_qmatrix *qm, size_t r, km_row_kernels *out)
{
    const km_qp *qp = qm->qp;
    const void **values = qm->row_values[qm->next_row_values];
    qm->next_row_values ^= 1;
    *out = (km_row_kernels){.values = values, .single = qm->in_place && qp->kernel_rows_size == sizeof(float)};
    if (qm->in_place) {
        km_status st = qp->kernel_rows(qp->column_ctx, r, values);
        if (st)
            qm->failure = st;
        return st;
    }
    const double *entry = row_entry(qm, r);
    if (!entry)
        return qm->failure;
    for (size_t m = 0; m < qp->n_kernels; m++)
        values[m] = entry + m * qm->n;
    return KM_OK;
}

static double *next_buffer(km_qmatrix *qm)
{
    double *out = qm->buffer[qm->next_buffer];
    qm->next_buffer ^= 1;
    return out;
}

/* Q column gathered from the kernel columns of row_i: out[k] = y_i y_k K(row_k, row_i). */
static const double *gathered_column(km_qmatrix *qm, size_t i, size_t len)
{
    const void *entry = row_entry(qm, qm->row[i]);
    if (!entry)
        return NULL;
    double *out = next_buffer(qm);
    const signed char *y = qm->y;
    const size_t *row = qm->row;
    double yi = y[i];
    if (qm->value_size == sizeof(float)) {
        const float *values = entry;
        for (size_t k = 0; k < len; k++)
            out[k] = yi * y[k] * (double)values[row[k]];
        return out;
    }
    const double *values = entry;
    for (size_t k = 0; k < len; k++)
        out[k] = yi * y[k] * values[row[k]];
    return out;
}

/* Q column of the per-kernel layout: the combined kernel column sum_m theta_m K_m(., row_i), then
 * permuted. OpenMP threads over blocks of rows, not BLAS's dgemv: the solver's other loops run on
 * OpenMP threads, and two thread pools waiting for work on the same cores slow each other down several
 * times. */
static const double *weighted_column(km_qmatrix *qm, size_t i, size_t len)
{
    km_row_kernels kernels;
    if (km_qmatrix_kernel_columns(qm, qm->row[i], &kernels))
        return NULL;
    const km_qp *qp = qm->qp;
    size_t n = qm->n, M = qp->n_kernels;
    double *sum = qm->weighted;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) if (M * n >= KM_QMATRIX_PARALLEL_MIN_VALUES)
#endif
    for (size_t k0 = 0; k0 < n; k0 += KM_QMATRIX_ROW_BLOCK) {
        size_t k1 = k0 + KM_QMATRIX_ROW_BLOCK < n ? k0 + KM_QMATRIX_ROW_BLOCK : n;
        for (size_t k = k0; k < k1; k++)
            sum[k] = 0.0;
        for (size_t m = 0; m < M; m++) {
            km_row_kernels_prefetch(&kernels, M, m + KM_ROW_KERNELS_PREFETCH, k0);
            if (qp->theta[m] != 0.0)
                km_row_kernel_axpy(&kernels, m, qp->theta[m], sum, k0, k1);
        }
    }
    double *out = next_buffer(qm);
    const signed char *y = qm->y;
    const size_t *row = qm->row;
    double yi = y[i];
    for (size_t k = 0; k < len; k++)
        out[k] = yi * y[k] * sum[row[k]];
    return out;
}

/* Q column cached by permuted position; only the missing positions [valid, len) are computed. */
static const double *cached_column(km_qmatrix *qm, size_t i, size_t len)
{
    void *data;
    size_t valid;
    if ((qm->failure = km_cache_get(qm->columns, i, len, &data, &valid)))
        return NULL;
    int as_float = qm->value_size == sizeof(float);
    if (valid < len) {
        double *values = as_float ? qm->fill : (double *)data + valid;
        if ((qm->failure = combined_kernel_column(qm, qm->row[i], qm->row + valid, len - valid, values))) {
            km_cache_drop(qm->columns, i);
            return NULL;
        }
        const signed char *y = qm->y;
        for (size_t k = valid; k < len; k++)
            if (y[k] != y[i])
                values[k - valid] = -values[k - valid];
        if (as_float)
            store_values((float *)data + valid, qm->value_size, values, len - valid);
    }
    if (!as_float)
        return data;
    double *out = next_buffer(qm);
    const float *values = data;
    for (size_t k = 0; k < len; k++)
        out[k] = values[k];
    return out;
}

const double *km_qmatrix_column(km_qmatrix *qm, size_t i, size_t len)
{
    if (qm->per_kernel)
        return weighted_column(qm, i, len);
    return qm->by_row ? gathered_column(qm, i, len) : cached_column(qm, i, len);
}

void km_qmatrix_swap(km_qmatrix *qm, size_t i, size_t j)
{
    signed char y = qm->y[i];
    qm->y[i] = qm->y[j];
    qm->y[j] = y;
    size_t r = qm->row[i];
    qm->row[i] = qm->row[j];
    qm->row[j] = r;
    double d = qm->QD[i];
    qm->QD[i] = qm->QD[j];
    qm->QD[j] = d;
    if (!qm->by_row)
        km_cache_swap_keys(qm->columns, i, j);
}
