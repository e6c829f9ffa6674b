/* km_dataset lifecycle, construction from dense memory, row subsets and element access. */
#include "data/dataset.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

km_status km_dataset_alloc(km_dataset **out)
{
    *out = calloc(1, sizeof **out);
    return *out ? KM_OK : km_error_nomem("a dataset");
}

void km_dataset_free(km_dataset *data)
{
    if (!data)
        return;
    free(data->labels);
    free(data->X);
    if (!data->borrowed) {
        free(data->row_start);
        free(data->col);
        free(data->val);
    }
    free(data->ids);
    free(data->source);
    free(data->text);
    free(data->text_start);
    free(data);
}

size_t km_dataset_rows(const km_dataset *data) { return data->n; }
size_t km_dataset_dim(const km_dataset *data) { return data->d; }
const double *km_dataset_labels(const km_dataset *data) { return data->labels; }

double km_dataset_value(const km_dataset *data, size_t i, size_t j)
{
    if (i >= data->n || j >= data->d)
        return 0.0;
    if (!data->sparse)
        return data->X[i * data->d + j];
    /* binary search in the ascending column indices of row i */
    size_t lo = data->row_start[i], hi = data->row_start[i + 1];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (data->col[mid] < j)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (lo < data->row_start[i + 1] && data->col[lo] == j) ? data->val[lo] : 0.0;
}

km_status km_dataset_from_dense(size_t n, size_t d, const double *X, const double *labels, km_dataset **out)
{
    *out = NULL;
    if (n == 0 || d == 0 || !X)
        return km_error(KM_EINVAL, "km_dataset_from_dense: empty matrix (%zu x %zu)", n, d);
    if (n > SIZE_MAX / d / sizeof(double))
        return km_error(KM_EINVAL, "km_dataset_from_dense: %zu x %zu matrix is too large", n, d);
    for (size_t k = 0; k < n * d; k++)
        if (!isfinite(X[k]))
            return km_error(KM_EINVAL, "km_dataset_from_dense: row %zu, column %zu is not a finite number", k / d + 1,
                            k % d + 1);
    for (size_t i = 0; labels && i < n; i++)
        if (!isfinite(labels[i]))
            return km_error(KM_EINVAL, "km_dataset_from_dense: the label of row %zu is not a finite number", i + 1);
    km_dataset *data;
    km_status st = km_dataset_alloc(&data);
    if (st)
        return st;
    data->n = n;
    data->d = d;
    data->X = malloc(n * d * sizeof *data->X);
    data->labels = labels ? malloc(n * sizeof *data->labels) : NULL;
    if (!data->X || (labels && !data->labels)) {
        km_dataset_free(data);
        return km_error_nomem("a dense dataset");
    }
    memcpy(data->X, X, n * d * sizeof *data->X);
    if (labels)
        memcpy(data->labels, labels, n * sizeof *data->labels);
    *out = data;
    return KM_OK;
}

static km_status copy_sparse_rows(const km_dataset *src, const size_t *rows, size_t n_rows, km_dataset *dst)
{
    size_t nnz = 0;
    for (size_t k = 0; k < n_rows; k++)
        nnz += src->row_start[rows[k] + 1] - src->row_start[rows[k]];
    dst->row_start = malloc((n_rows + 1) * sizeof *dst->row_start);
    dst->col = malloc((nnz ? nnz : 1) * sizeof *dst->col);
    dst->val = malloc((nnz ? nnz : 1) * sizeof *dst->val);
    if (!dst->row_start || !dst->col || !dst->val)
        return km_error_nomem("a sparse row subset");
    size_t pos = 0;
    for (size_t k = 0; k < n_rows; k++) {
        size_t begin = src->row_start[rows[k]], len = src->row_start[rows[k] + 1] - begin;
        dst->row_start[k] = pos;
        memcpy(dst->col + pos, src->col + begin, len * sizeof *dst->col);
        memcpy(dst->val + pos, src->val + begin, len * sizeof *dst->val);
        pos += len;
    }
    dst->row_start[n_rows] = pos;
    return KM_OK;
}

/* New dataset shell with what every row carries besides its features (labels, ids, source, layout)
 * for the given rows of src; features are left to the caller. */
static km_status subset_shell(const km_dataset *src, const size_t *rows, size_t n_rows, km_dataset **out)
{
    km_dataset *dst;
    km_status st = km_dataset_alloc(&dst);
    if (st)
        return st;
    dst->n = n_rows;
    dst->d = src->d;
    dst->sparse = src->sparse;
    dst->csv_fields = src->csv_fields;
    dst->csv_label_field = src->csv_label_field;
    if (src->source && !(dst->source = strdup(src->source)))
        st = km_error_nomem("a file name");
    if (!st && src->labels) {
        if (!(dst->labels = malloc((n_rows ? n_rows : 1) * sizeof *dst->labels)))
            st = km_error_nomem("subset labels");
        else
            for (size_t k = 0; k < n_rows; k++)
                dst->labels[k] = src->labels[rows ? rows[k] : k];
    }
    if (!st && src->ids) {
        if (!(dst->ids = malloc((n_rows ? n_rows : 1) * sizeof *dst->ids)))
            st = km_error_nomem("subset ids");
        else
            for (size_t k = 0; k < n_rows; k++)
                dst->ids[k] = src->ids[rows ? rows[k] : k];
    }
    if (st) {
        km_dataset_free(dst);
        return st;
    }
    *out = dst;
    return KM_OK;
}

km_status km_dataset_subset(const km_dataset *src, const size_t *rows, size_t n_rows, km_dataset **out)
{
    *out = NULL;
    for (size_t k = 0; k < n_rows; k++)
        if (rows[k] >= src->n)
            return km_error(KM_EINVAL, "km_dataset_subset: row %zu out of range (%zu rows)", rows[k], src->n);
    km_dataset *dst;
    km_status st = subset_shell(src, rows, n_rows, &dst);
    if (st)
        return st;
    if (src->text)
        st = km_dataset_copy_strings(src, rows, n_rows, dst);
    else if (src->sparse)
        st = copy_sparse_rows(src, rows, n_rows, dst);
    else if (!(dst->X = malloc((n_rows && src->d ? n_rows * src->d : 1) * sizeof *dst->X)))
        st = km_error_nomem("a dense row subset");
    else
        for (size_t k = 0; k < n_rows; k++)
            memcpy(dst->X + k * src->d, src->X + rows[k] * src->d, src->d * sizeof *dst->X);
    if (st) {
        km_dataset_free(dst);
        return st;
    }
    *out = dst;
    return KM_OK;
}

/* CSR rows of src without the entries at columns >= d. */
static km_status copy_sparse_first_features(const km_dataset *src, size_t d, km_dataset *dst)
{
    size_t nnz = 0;
    for (size_t e = 0; e < src->row_start[src->n]; e++)
        nnz += src->col[e] < d;
    dst->row_start = malloc((src->n + 1) * sizeof *dst->row_start);
    dst->col = malloc((nnz ? nnz : 1) * sizeof *dst->col);
    dst->val = malloc((nnz ? nnz : 1) * sizeof *dst->val);
    if (!dst->row_start || !dst->col || !dst->val)
        return km_error_nomem("test rows restricted to the model's features");
    size_t pos = 0;
    for (size_t i = 0; i < src->n; i++) {
        dst->row_start[i] = pos;
        for (size_t e = src->row_start[i]; e < src->row_start[i + 1] && src->col[e] < d; e++) {
            dst->col[pos] = src->col[e];
            dst->val[pos++] = src->val[e];
        }
    }
    dst->row_start[src->n] = pos;
    return KM_OK;
}

km_status km_dataset_first_features(const km_dataset *src, size_t d, km_dataset **out)
{
    *out = NULL;
    if (d > src->d)
        return km_error(KM_EINVAL, "km_dataset_first_features: %zu features asked of data with %zu", d, src->d);
    km_dataset *dst;
    km_status st = subset_shell(src, NULL, src->n, &dst);
    if (st)
        return st;
    dst->d = d;
    if (src->sparse)
        st = copy_sparse_first_features(src, d, dst);
    else if (!(dst->X = malloc((src->n && d ? src->n * d : 1) * sizeof *dst->X)))
        st = km_error_nomem("test rows restricted to the model's features");
    else
        for (size_t i = 0; i < src->n; i++)
            memcpy(dst->X + i * d, src->X + i * src->d, d * sizeof *dst->X);
    if (st) {
        km_dataset_free(dst);
        return st;
    }
    *out = dst;
    return KM_OK;
}

size_t km_dataset_rows_beyond(const km_dataset *data, size_t d, size_t *largest)
{
    size_t rows = 0;
    *largest = 0;
    for (size_t i = 0; data->d > d && i < data->n; i++) {
        size_t beyond = 0;   /* the row's largest non-zero feature beyond d, 1-based */
        if (data->sparse) {
            for (size_t k = data->row_start[i + 1]; k > data->row_start[i] && data->col[k - 1] >= d && !beyond; k--)
                if (data->val[k - 1] != 0)
                    beyond = (size_t)data->col[k - 1] + 1;
        } else {
            for (size_t j = data->d; j > d && !beyond; j--)
                if (data->X[i * data->d + j - 1] != 0)
                    beyond = j;
        }
        rows += beyond > 0;
        if (beyond > *largest)
            *largest = beyond;
    }
    return rows;
}

km_status km_dataset_check_magnitude(const km_dataset *data, const size_t *rows, size_t n)
{
    if (data->ids)
        return KM_OK;
    if (!rows)
        n = data->n;
    for (size_t k = 0; k < n; k++) {
        size_t i = rows ? rows[k] : k;
        const double *values = data->sparse ? data->val + data->row_start[i] : data->X + i * data->d;
        size_t count = data->sparse ? data->row_start[i + 1] - data->row_start[i] : data->d;
        double sq = 0.0, largest = 0.0;
        for (size_t j = 0; j < count; j++) {
            sq += values[j] * values[j];
            largest = fmax(largest, fabs(values[j]));
        }
        if (!isfinite(sq))
            return km_error(KM_EINVAL, "%s: row %zu: the squared norm of the features overflows double precision "
                            "(a feature of magnitude %g): scale the features", data->source ? data->source : "the data",
                            i + 1, largest);
    }
    return KM_OK;
}
