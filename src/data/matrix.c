/* km_matrix lifecycle and storage: allocated values, or a mapped file payload. */
#define _DEFAULT_SOURCE /* madvise's MADV_HUGEPAGE (Linux) */
#include "data/matrix.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "core/error.h"

/* Matrices of at least this many bytes are aligned to, and advised for, transparent huge pages:
 * filling a large kernel matrix then takes a page fault per 2 MiB instead of per 4 KiB. */
#define KM_HUGE_PAGE_BYTES ((size_t)2 << 20)

static void *allocate_values(size_t bytes, int zero)
{
    void *values = NULL;
    if (bytes < KM_HUGE_PAGE_BYTES)
        return zero ? calloc(bytes, 1) : malloc(bytes);
    if (posix_memalign(&values, KM_HUGE_PAGE_BYTES, bytes) != 0)
        return NULL;
#ifdef MADV_HUGEPAGE
    madvise(values, bytes - bytes % KM_HUGE_PAGE_BYTES, MADV_HUGEPAGE); /* advice only: failure is harmless */
#endif
    if (zero)
        memset(values, 0, bytes);
    return values;
}

km_status km_matrix_alloc(size_t rows, size_t cols, km_dtype dtype, int zero, km_matrix **out)
{
    *out = NULL;
    size_t width = dtype == KM_FLOAT32 ? sizeof(float) : sizeof(double);
    if (rows == 0 || cols == 0)
        return km_error(KM_EINVAL, "empty matrix (%zu x %zu)", rows, cols);
    if (rows > SIZE_MAX / cols / width)
        return km_error(KM_EINVAL, "%zu x %zu matrix is too large", rows, cols);
    km_matrix *m = calloc(1, sizeof *m);
    void *values = allocate_values(rows * cols * width, zero);
    if (!m || !values) {
        free(m);
        free(values);
        return km_error(KM_ENOMEM, "out of memory for a %zu x %zu matrix (%.1f MiB)", rows, cols,
                        (double)rows * (double)cols * (double)width / 1048576.0);
    }
    m->rows = rows;
    m->cols = cols;
    if (dtype == KM_FLOAT32)
        m->data32 = values;
    else
        m->data = values;
    *out = m;
    return KM_OK;
}

km_status km_matrix_new(size_t rows, size_t cols, km_matrix **out)
{
    return km_matrix_alloc(rows, cols, KM_FLOAT64, 1, out);
}

km_status km_matrix_wrap(size_t rows, size_t cols, km_dtype dtype, const void *values, km_matrix **out)
{
    *out = NULL;
    if (dtype != KM_FLOAT64 && dtype != KM_FLOAT32)
        return km_error(KM_EINVAL, "unknown matrix value type %d", (int)dtype);
    if (rows == 0 || cols == 0 || !values)
        return km_error(KM_EINVAL, "empty matrix (%zu x %zu)", rows, cols);
    km_matrix *m = calloc(1, sizeof *m);
    if (!m)
        return km_error_nomem("a matrix");
    m->rows = rows;
    m->cols = cols;
    m->borrowed = 1;
    /* the library never writes through these pointers of a borrowed matrix (km_matrix_data hides them) */
    if (dtype == KM_FLOAT32)
        m->data32 = (float *)(uintptr_t)values;
    else
        m->data = (double *)(uintptr_t)values;
    *out = m;
    return KM_OK;
}

size_t km_matrix_rows(const km_matrix *matrix) { return matrix->rows; }

size_t km_matrix_cols(const km_matrix *matrix) { return matrix->cols; }

km_dtype km_matrix_dtype(const km_matrix *matrix) { return matrix->data32 ? KM_FLOAT32 : KM_FLOAT64; }

double *km_matrix_data(km_matrix *matrix) { return matrix->borrowed ? NULL : matrix->data; }

struct km_matrix_mapping {
    void *base;
    size_t bytes;
};

int km_host_is_little_endian(void)
{
    const uint16_t probe = 1;
    unsigned char first;
    memcpy(&first, &probe, 1);
    return first == 1;
}

km_status km_matrix_map(int fd, size_t rows, size_t cols, km_dtype dtype, size_t offset, km_matrix **out)
{
    *out = NULL;
    size_t width = dtype == KM_FLOAT32 ? sizeof(float) : sizeof(double);
    if (fd < 0 || !km_host_is_little_endian() || rows == 0 || cols == 0 || rows > (SIZE_MAX - offset) / cols / width)
        return KM_OK;
    size_t bytes = offset + rows * cols * width;
    /* no MAP_POPULATE: on a writable private mapping it would copy every page */
    void *base = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
    if (base == MAP_FAILED)
        return KM_OK;
    km_matrix *m = calloc(1, sizeof *m);
    struct km_matrix_mapping *mapping = malloc(sizeof *mapping);
    if (!m || !mapping) {
        free(m);
        free(mapping);
        munmap(base, bytes);
        return km_error_nomem("a mapped matrix");
    }
    mapping->base = base;
    mapping->bytes = bytes;
    m->rows = rows;
    m->cols = cols;
    m->mapping = mapping;
    if (dtype == KM_FLOAT32)
        m->data32 = (float *)((unsigned char *)base + offset);
    else
        m->data = (double *)((unsigned char *)base + offset);
    *out = m;
    return KM_OK;
}

double km_matrix_value(const km_matrix *matrix, size_t i, size_t j)
{
    size_t k = i * matrix->cols + j;
    return matrix->data ? matrix->data[k] : (double)matrix->data32[k];
}

void km_matrix_free(km_matrix *matrix)
{
    if (!matrix)
        return;
    if (matrix->mapping) {
        munmap(matrix->mapping->base, matrix->mapping->bytes);
        free(matrix->mapping);
    } else if (!matrix->borrowed) {   /* borrowed values are the caller's */
        free(matrix->data);
        free(matrix->data32);
    }
    free(matrix->source);
    free(matrix);
}
