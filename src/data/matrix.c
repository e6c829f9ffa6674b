/* km_matrix lifecycle. */
#include <stdint.h>
#include <stdlib.h>

#include "core/error.h"
#include "kernelmix.h"

km_status km_matrix_new(size_t rows, size_t cols, km_matrix **out)
{
    *out = NULL;
    if (rows == 0 || cols == 0)
        return km_error(KM_EINVAL, "km_matrix_new: empty matrix (%zu x %zu)", rows, cols);
    if (rows > SIZE_MAX / cols / sizeof(double))
        return km_error(KM_EINVAL, "km_matrix_new: %zu x %zu matrix is too large", rows, cols);
    km_matrix *m = malloc(sizeof *m);
    double *data = calloc(rows * cols, sizeof *data);
    if (!m || !data) {
        free(m);
        free(data);
        return km_error(KM_ENOMEM, "out of memory for a %zu x %zu matrix (%.1f MiB)", rows, cols,
                        (double)rows * (double)cols * 8.0 / 1048576.0);
    }
    m->rows = rows;
    m->cols = cols;
    m->data = data;
    *out = m;
    return KM_OK;
}

void km_matrix_free(km_matrix *matrix)
{
    if (!matrix)
        return;
    free(matrix->data);
    free(matrix);
}
