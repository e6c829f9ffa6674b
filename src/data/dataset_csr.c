/* km_dataset_from_csr: a dataset over a caller's compressed sparse rows (scipy.sparse.csr_matrix),
 * checked as the file readers check theirs. Where size_t is the unsigned int64 (64-bit Linux, macOS)
 * the dataset uses the caller's arrays as they are: int64 row offsets are its size_t offsets and the
 * non-negative int32 column indices its uint32 columns (C lets the signed and unsigned variants of one
 * type alias); elsewhere it copies them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "data/dataset.h"

static km_status check_csr(size_t n_rows, size_t n_cols, const int64_t *indptr, const int32_t *indices,
                           const double *values, const double *labels)
{
    if (n_rows == 0 || n_cols == 0 || !indptr)
        return km_error(KM_EINVAL, "km_dataset_from_csr: empty matrix (%zu x %zu)", n_rows, n_cols);
    if (n_cols > (size_t)INT32_MAX + 1)
        return km_error(KM_EINVAL, "km_dataset_from_csr: %zu columns; column indices are 32-bit", n_cols);
    if (indptr[0] != 0)
        return km_error(KM_EINVAL, "km_dataset_from_csr: indptr[0] is %lld, not 0", (long long)indptr[0]);
    for (size_t i = 0; i < n_rows; i++) {
        if (indptr[i + 1] < indptr[i])
            return km_error(KM_EINVAL, "km_dataset_from_csr: indptr decreases at row %zu", i + 1);
        if (indptr[i + 1] > indptr[i] && (!indices || !values))
            return km_error(KM_EINVAL, "km_dataset_from_csr: stored values without indices or values");
        for (int64_t e = indptr[i]; e < indptr[i + 1]; e++) {
            if (indices[e] < 0 || (size_t)indices[e] >= n_cols)
                return km_error(KM_EINVAL, "km_dataset_from_csr: row %zu: column %ld is not within 0..%zu", i + 1,
                                (long)indices[e], n_cols - 1);
            if (e > indptr[i] && indices[e] <= indices[e - 1])
                return km_error(KM_EINVAL,
                                "km_dataset_from_csr: row %zu: column indices not strictly ascending (%ld after %ld; "
                                "scipy: sort_indices() and sum_duplicates())",
                                i + 1, (long)indices[e], (long)indices[e - 1]);
            if (!isfinite(values[e]))
                return km_error(KM_EINVAL, "km_dataset_from_csr: row %zu, column %ld is not a finite number", i + 1,
                                (long)indices[e] + 1);
        }
    }
    for (size_t i = 0; labels && i < n_rows; i++)
        if (!isfinite(labels[i]))
            return km_error(KM_EINVAL, "km_dataset_from_csr: the label of row %zu is not a finite number", i + 1);
    return KM_OK;
}

/* Whether size_t and uint32_t are the unsigned variants of int64_t and int32_t (same width, and
 * reading one through the other is defined), so that the caller's arrays can be used as they are. */
#define KM_UNSIGNED_OF(signed_value, unsigned_value)                                                        \
    _Generic((signed_value), int: _Generic((unsigned_value), unsigned int: 1, default: 0),                  \
             long: _Generic((unsigned_value), unsigned long: 1, default: 0),                                \
             long long: _Generic((unsigned_value), unsigned long long: 1, default: 0), default: 0)
#define KM_CSR_SHAREABLE (KM_UNSIGNED_OF((int64_t)0, (size_t)0) && KM_UNSIGNED_OF((int32_t)0, (uint32_t)0))

/* Copies of the caller's arrays, where the internal types differ from theirs. */
static km_status copy_arrays(km_dataset *data, const int64_t *indptr, const int32_t *indices, const double *values)
{
    size_t n = data->n, nnz = (size_t)indptr[n];
    data->row_start = malloc((n + 1) * sizeof *data->row_start);
    data->col = malloc((nnz ? nnz : 1) * sizeof *data->col);
    data->val = malloc((nnz ? nnz : 1) * sizeof *data->val);
    if (!data->row_start || !data->col || !data->val)
        return km_error_nomem("a sparse dataset");
    for (size_t i = 0; i <= n; i++)
        data->row_start[i] = (size_t)indptr[i];
    for (size_t e = 0; e < nnz; e++)
        data->col[e] = (uint32_t)indices[e];
    if (nnz)
        memcpy(data->val, values, nnz * sizeof *data->val);
    return KM_OK;
}

km_status km_dataset_from_csr(size_t n_rows, size_t n_cols, const int64_t *indptr, const int32_t *indices,
                              const double *values, const double *labels, km_dataset **out)
{
    *out = NULL;
    km_status st = check_csr(n_rows, n_cols, indptr, indices, values, labels);
    km_dataset *data = NULL;
    if (!st)
        st = km_dataset_alloc(&data);
    if (st)
        return st;
    data->n = n_rows;
    data->d = n_cols;
    data->sparse = 1;
    /* an empty matrix gives NULL indices: the internal arrays must exist */
    int shared = KM_CSR_SHAREABLE && indptr[n_rows] > 0;
    if (shared) {
        data->borrowed = 1;
        data->row_start = (size_t *)(uintptr_t)indptr;
        data->col = (uint32_t *)(uintptr_t)indices;
        data->val = (double *)(uintptr_t)values;
    } else {
        st = copy_arrays(data, indptr, indices, values);
    }
    if (!st && labels && !(data->labels = malloc(n_rows * sizeof *data->labels)))
        st = km_error_nomem("dataset labels");
    if (st) {
        km_dataset_free(data);
        return st;
    }
    if (labels)
        memcpy(data->labels, labels, n_rows * sizeof *data->labels);
    *out = data;
    return KM_OK;
}

km_status km_dataset_make_sparse(km_dataset *data)
{
    if (data->sparse || data->text)
        return KM_OK;
    if (data->d > (size_t)UINT32_MAX)
        return km_error(KM_EINVAL, "%s: %zu features; sparse column indices are 32-bit",
                        data->source ? data->source : "dataset", data->d);
    size_t n = data->n, d = data->d, stored = 0;
    for (size_t k = 0; k < n * d; k++)
        stored += data->X[k] != 0;
    size_t *row_start = malloc((n + 1) * sizeof *row_start);
    uint32_t *col = malloc((stored ? stored : 1) * sizeof *col);
    double *val = malloc((stored ? stored : 1) * sizeof *val);
    if (!row_start || !col || !val) {
        free(row_start);
        free(col);
        free(val);
        return km_error_nomem("a sparse dataset");
    }
    size_t e = 0;
    for (size_t i = 0; i < n; i++) {
        row_start[i] = e;
        for (size_t j = 0; j < d; j++)
            if (data->X[i * d + j] != 0) {
                col[e] = (uint32_t)j;
                val[e++] = data->X[i * d + j];
            }
    }
    row_start[n] = e;
    free(data->X);
    data->X = NULL;
    data->row_start = row_start;
    data->col = col;
    data->val = val;
    data->sparse = 1;
    return KM_OK;
}
