/* Datasets whose rows are strings (sequences for the string kernels): construction, access, subsets. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "data/dataset.h"

/* Fills dst->text and dst->text_start with the n strings of get(i). */
static km_status store_strings(km_dataset *dst, size_t n, const char *(*get)(const void *, size_t, size_t *),
                               const void *source)
{
    size_t total = 0, len;
    for (size_t i = 0; i < n; i++) {
        get(source, i, &len);
        if (len >= SIZE_MAX - total - 1)
            return km_error(KM_EINVAL, "km_dataset_from_strings: the strings are too long");
        total += len + 1;
    }
    dst->text = malloc(total ? total : 1);
    dst->text_start = malloc((n + 1) * sizeof *dst->text_start);
    if (!dst->text || !dst->text_start)
        return km_error_nomem("string rows");
    size_t pos = 0;
    for (size_t i = 0; i < n; i++) {
        const char *s = get(source, i, &len);
        dst->text_start[i] = pos;
        if (len)
            memcpy(dst->text + pos, s, len);
        dst->text[pos + len] = '\0';
        pos += len + 1;
    }
    dst->text_start[n] = pos;
    return KM_OK;
}

typedef struct caller_strings {
    const char *const *strings;
    const size_t *lengths;
} caller_strings;

static const char *caller_string(const void *source, size_t i, size_t *len)
{
    const caller_strings *c = source;
    *len = c->lengths ? c->lengths[i] : strlen(c->strings[i]);
    return c->strings[i];
}

typedef struct subset_strings {
    const km_dataset *src;
    const size_t *rows;
} subset_strings;

static const char *subset_string(const void *source, size_t i, size_t *len)
{
    const subset_strings *s = source;
    return km_dataset_string(s->src, s->rows[i], len);
}

km_status km_dataset_from_strings(size_t n, const char *const *strings, const size_t *lengths, const double *labels,
                                  km_dataset **out)
{
    *out = NULL;
    if (n == 0 || !strings)
        return km_error(KM_EINVAL, "km_dataset_from_strings: no strings");
    for (size_t i = 0; i < n; i++) {
        if (!strings[i] && (!lengths || lengths[i]))
            return km_error(KM_EINVAL, "km_dataset_from_strings: string %zu is NULL", i + 1);
        if (labels && !isfinite(labels[i]))
            return km_error(KM_EINVAL, "km_dataset_from_strings: the label of row %zu is not a finite number", i + 1);
    }
    km_dataset *data;
    km_status st = km_dataset_alloc(&data);
    if (st)
        return st;
    data->n = n;
    caller_strings source = {strings, lengths};
    st = store_strings(data, n, caller_string, &source);
    if (!st && labels && !(data->labels = malloc(n * sizeof *data->labels)))
        st = km_error_nomem("string row labels");
    if (st) {
        km_dataset_free(data);
        return st;
    }
    if (labels)
        memcpy(data->labels, labels, n * sizeof *data->labels);
    *out = data;
    return KM_OK;
}

const char *km_dataset_string(const km_dataset *data, size_t i, size_t *length)
{
    if (!data->text || i >= data->n)
        return NULL;
    if (length)
        *length = data->text_start[i + 1] - data->text_start[i] - 1;
    return data->text + data->text_start[i];
}

km_status km_dataset_copy_strings(const km_dataset *src, const size_t *rows, size_t n_rows, km_dataset *dst)
{
    subset_strings source = {src, rows};
    return store_strings(dst, n_rows, subset_string, &source);
}
