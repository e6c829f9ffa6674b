/* The source of the string kernels (kernel_family.h KM_INPUT_ROWS): the string rows of a dataset,
 * referenced (the dataset outlives the source). */
#ifndef KM_KERNEL_STRING_ROWS_H
#define KM_KERNEL_STRING_ROWS_H

#include <stddef.h>

#include "data/dataset.h"
#include "kernel/kernel.h"

typedef struct km_string_rows {
    size_t n;
    const char **text;       /* row r's bytes (length[r] of them) */
    size_t *length;
} km_string_rows;

/* The strings of rows[0..n) of data; a kernel error when data does not hold strings. */
km_status km_string_rows_init(const km_kernel *kernel, const km_dataset *data, const size_t *rows, size_t n,
                              km_string_rows *out);
void km_string_rows_clear(km_string_rows *rows);
/* The length of the longest of the rows (0 for none). */
size_t km_string_rows_longest(const km_string_rows *rows);
/* A km_string_rows as a family's source (kernel_family.h source_new, source_free). */
km_status km_string_source_new(const km_kernel *kernel, const km_dataset *data, const size_t *rows, size_t n,
                               size_t dim_all, void **source);
void km_string_source_free(void *source);

/* out[r] = value(s_{rows[r]}, s_i) on one source (rows NULL: r), on several threads for large columns;
 * work: a cost estimate of one value, in byte comparisons. */
void km_string_column(const km_kernel *kernel, const void *source, size_t i, const size_t *rows, size_t count,
                      double (*value)(const km_kernel *, const void *, size_t, const void *, size_t), size_t work,
                      double *out);
/* The same for G kernels computed together: values(kernels, G, a, i, b, j, out, stride) sets out[g * stride]
 * = k_g(a_i, b_j), and out[g * count + r] = k_g(s_{rows[r]}, s_i); work: the cost of one call. */
void km_string_columns(const km_kernel *const *kernels, size_t G, const void *source, size_t i, const size_t *rows,
                       size_t count,
                       void (*values)(const km_kernel *const *, size_t, const void *, size_t, const void *, size_t,
                                      double *, size_t),
                       size_t work, double *out);

#endif
