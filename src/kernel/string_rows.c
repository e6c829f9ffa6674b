/* The string rows a string kernel reads (string_rows.h). */
#include "kernel/string_rows.h"

#include <stdlib.h>

#include "core/error.h"

/* Columns with at least this many byte comparisons are computed by several threads. */
#define KM_STRING_PARALLEL_MIN_WORK ((size_t)1 << 18)

km_status km_string_rows_init(const km_kernel *kernel, const km_dataset *data, const size_t *rows, size_t n,
                              km_string_rows *out)
{
    out->n = n;
    out->text = NULL;
    out->length = NULL;
    if (!data->text)
        return km_kernel_error(kernel, "the data has no string rows (read sequences with --format seq, "
                                       "km_dataset_read_sequences or km_dataset_from_strings)");
    out->text = malloc((n ? n : 1) * sizeof *out->text);
    out->length = malloc((n ? n : 1) * sizeof *out->length);
    if (!out->text || !out->length) {
        km_string_rows_clear(out);
        return km_error_nomem("string rows");
    }
    for (size_t r = 0; r < n; r++)
        out->text[r] = km_dataset_string(data, rows ? rows[r] : r, &out->length[r]);
    return KM_OK;
}

void km_string_rows_clear(km_string_rows *rows)
{
    free(rows->text);
    free(rows->length);
    rows->text = NULL;
    rows->length = NULL;
}

size_t km_string_rows_longest(const km_string_rows *rows)
{
    size_t longest = 0;
    for (size_t r = 0; r < rows->n; r++)
        if (rows->length[r] > longest)
            longest = rows->length[r];
    return longest;
}

km_status km_string_source_new(const km_kernel *kernel, const km_dataset *data, const size_t *rows, size_t n,
                               size_t dim_all, void **source)
{
    (void)dim_all;
    km_string_rows *s = malloc(sizeof *s);
    if (!s)
        return km_error_nomem("string rows");
    km_status st = km_string_rows_init(kernel, data, rows, n, s);
    if (st) {
        free(s);
        return st;
    }
    *source = s;
    return KM_OK;
}

void km_string_source_free(void *source)
{
    km_string_rows_clear(source);
    free(source);
}

void km_string_column(const km_kernel *kernel, const void *source, size_t i, const size_t *rows, size_t count,
                      double (*value)(const km_kernel *, const void *, size_t, const void *, size_t), size_t work,
                      double *out)
{
    (void)work;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) if (count * (work + 1) > KM_STRING_PARALLEL_MIN_WORK)
#endif
    for (size_t r = 0; r < count; r++)
        out[r] = value(kernel, source, rows ? rows[r] : r, source, i);
}

void km_string_columns(const km_kernel *const *kernels, size_t G, const void *source, size_t i, const size_t *rows,
                       size_t count,
                       void (*values)(const km_kernel *const *, size_t, const void *, size_t, const void *, size_t,
                                      double *, size_t),
                       size_t work, double *out)
{
    (void)work;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) if (count * (work + 1) > KM_STRING_PARALLEL_MIN_WORK)
#endif
    for (size_t r = 0; r < count; r++)
        values(kernels, G, source, rows ? rows[r] : r, source, i, out + r, count);
}
