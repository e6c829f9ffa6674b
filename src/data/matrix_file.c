/* Matrix files. Binary format (kernelmix.h), all integers and values little-endian:
 *   offset 0  "KMMATRIX"   offset 8  uint32 version = 1   offset 12 uint32 dtype (1 float64, 2 float32)
 *   offset 16 uint64 rows  offset 24 uint64 cols          offset 32 rows×cols values, row-major.
 * Files starting with numpy's magic are .npy arrays (npy_reader.c).
 * Files without either magic are LIBSVM precomputed-kernel text: row r holds line r's values 1..k. */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/finite.h"
#include "core/locale.h"
#include "data/dataset.h"
#include "data/matrix.h"
#include "data/readers.h"
#include "data/text_input.h"

#define MAGIC "KMMATRIX"
#define MAGIC_BYTES 8
#define HEADER_BYTES 32
#define FORMAT_VERSION 1
#define CHUNK_VALUES 8192
/* Payloads from this size on are mapped rather than read. */
#define KM_MAP_MIN_BYTES ((uint64_t)1 << 20)

static uint64_t load_le(const unsigned char *bytes, int width)
{
    uint64_t v = 0;
    for (int i = width - 1; i >= 0; i--)
        v = v << 8 | bytes[i];
    return v;
}

static void store_le(unsigned char *bytes, uint64_t v, int width)
{
    for (int i = 0; i < width; i++, v >>= 8)
        bytes[i] = (unsigned char)(v & 0xFF);
}

static double decode_value(const unsigned char *bytes, int width)
{
    if (width == 8) {
        uint64_t bits = load_le(bytes, 8);
        double v;
        memcpy(&v, &bits, sizeof v);
        return v;
    }
    uint32_t bits = (uint32_t)load_le(bytes, 4);
    float v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

static void encode_value(unsigned char *bytes, double value, int width)
{
    if (width == 8) {
        uint64_t bits;
        memcpy(&bits, &value, sizeof bits);
        store_le(bytes, bits, 8);
    } else {
        float single = (float)value;
        uint32_t bits;
        memcpy(&bits, &single, sizeof bits);
        store_le(bytes, bits, 4);
    }
}

static const char *dtype_name(int width) { return width == 8 ? "float64" : "float32"; }

/* The rows×cols values into the matrix's storage (of the file's width): read straight into place on
 * little-endian hosts, decoded chunk by chunk elsewhere. */
static km_status read_values(FILE *stream, const char *name, uint64_t offset, int width, km_matrix *matrix)
{
    size_t total = matrix->rows * matrix->cols;
    unsigned char *target = width == 8 ? (unsigned char *)matrix->data : (unsigned char *)matrix->data32;
    int direct = km_host_is_little_endian();
    unsigned char chunk[CHUNK_VALUES * 8];
    for (size_t done = 0; done < total;) {
        size_t count = direct ? total - done : total - done < CHUNK_VALUES ? total - done : CHUNK_VALUES;
        unsigned char *into = direct ? target + done * (size_t)width : chunk;
        if (fread(into, (size_t)width, count, stream) != count)
            return km_error(KM_EIO, "%s: read error at byte %llu", name,
                            (unsigned long long)(offset + done * (uint64_t)width));
        for (size_t k = 0; !direct && k < count; k++) {
            double v = decode_value(chunk + k * (size_t)width, width);
            if (width == 8)
                matrix->data[done + k] = v;
            else
                matrix->data32[done + k] = (float)v;
        }
        done += count;
    }
    return KM_OK;
}

km_status km_matrix_check_finite(const km_matrix *matrix, const char *name)
{
    size_t total = matrix->rows * matrix->cols;
    if (matrix->data ? km_all_finite(matrix->data, total) : km_all_finite_float(matrix->data32, total))
        return KM_OK;
    size_t k = 0;
    while (k < total && isfinite(km_matrix_value(matrix, k / matrix->cols, k % matrix->cols)))
        k++;
    return km_error(KM_EFORMAT, "%s: entry (%zu, %zu) is not finite", name, k / matrix->cols, k % matrix->cols);
}

/* Validates the header, then reads the payload that follows it (the stream is past the magic). */
static km_status read_binary(FILE *stream, const char *name, const unsigned char *magic, int defer_finiteness,
                             km_matrix **out)
{
    unsigned char header[HEADER_BYTES];
    memcpy(header, magic, MAGIC_BYTES);
    size_t got = MAGIC_BYTES + fread(header + MAGIC_BYTES, 1, HEADER_BYTES - MAGIC_BYTES, stream);
    if (got < HEADER_BYTES)
        return km_error(KM_EFORMAT, "%s: truncated matrix header (%zu of %d bytes)", name, got, HEADER_BYTES);
    uint32_t version = (uint32_t)load_le(header + 8, 4), dtype = (uint32_t)load_le(header + 12, 4);
    if (version != FORMAT_VERSION)
        return km_error(KM_EFORMAT, "%s: unsupported matrix format version %lu (this library reads version %d)",
                        name, (unsigned long)version, FORMAT_VERSION);
    if (dtype != KM_FLOAT64 && dtype != KM_FLOAT32)
        return km_error(KM_EFORMAT, "%s: unknown matrix dtype %lu (1 = float64, 2 = float32)", name,
                        (unsigned long)dtype);
    return km_matrix_read_payload(stream, name, load_le(header + 16, 8), load_le(header + 24, 8), (km_dtype)dtype,
                                  HEADER_BYTES, defer_finiteness, out);
}

km_status km_matrix_read_payload(FILE *stream, const char *name, uint64_t rows, uint64_t cols, km_dtype dtype,
                                 uint64_t offset, int defer_finiteness, km_matrix **out)
{
    *out = NULL;
    int width = dtype == KM_FLOAT64 ? 8 : 4;
    if (rows == 0 || cols == 0)
        return km_error(KM_EFORMAT, "%s: empty matrix (%llu x %llu)", name, (unsigned long long)rows,
                        (unsigned long long)cols);
    /* rows*cols*8 (doubles in memory) bounds the file payload too; both must fit size_t and off_t */
    uint64_t limit = (uint64_t)(SIZE_MAX < INT64_MAX ? SIZE_MAX : INT64_MAX) / 8;
    if (rows > limit / cols || offset > limit)
        return km_error(KM_EFORMAT, "%s: %llu x %llu matrix is too large", name, (unsigned long long)rows,
                        (unsigned long long)cols);
    uint64_t expected = offset + rows * cols * (uint64_t)width;
    if (fseeko(stream, 0, SEEK_END) != 0)
        return km_error(KM_EIO, "%s: cannot determine the file size: %s", name, strerror(errno));
    off_t actual = ftello(stream);
    if (actual < 0 || fseeko(stream, (off_t)offset, SEEK_SET) != 0)
        return km_error(KM_EIO, "%s: cannot determine the file size: %s", name, strerror(errno));
    if ((uint64_t)actual != expected)
        return km_error(KM_EFORMAT, "%s: file has %llu bytes, expected %llu (%llu-byte header + %llu x %llu %s)",
                        name, (unsigned long long)actual, (unsigned long long)expected, (unsigned long long)offset,
                        (unsigned long long)rows, (unsigned long long)cols, dtype_name(width));
    /* large payloads are mapped (no copy, no fresh memory to clear), the others read; a payload at an
     * offset that is not a multiple of the value width is read, as mapped values would be misaligned */
    km_matrix *matrix = NULL;
    km_status st = KM_OK;
    if (expected - offset >= KM_MAP_MIN_BYTES && offset % (uint64_t)width == 0)
        st = km_matrix_map(fileno(stream), (size_t)rows, (size_t)cols, dtype, (size_t)offset, &matrix);
    if (!st && !matrix && !(st = km_matrix_alloc((size_t)rows, (size_t)cols, dtype, 0, &matrix)))
        st = read_values(stream, name, offset, width, matrix);
    else if (st)
        st = km_error_in(name, st);   /* the mapping's or allocation's failure */
    if (!st && defer_finiteness)
        matrix->finiteness_deferred = 1;
    else if (!st)
        st = km_matrix_check_finite(matrix, name);
    if (st) {
        km_matrix_free(matrix);
        return st;
    }
    *out = matrix;
    return KM_OK;
}

/* Rows of a training kernel are the training rows in order: row i is 0:i, the id by which -t 4 finds
 * the row's own column. A test kernel's ids are free (LIBSVM ignores them). */
static km_status check_training_ids(const km_dataset *data, const char *name)
{
    for (size_t i = 0; i < data->n; i++)
        if (data->ids[i] != (double)(i + 1))
            return km_error(KM_EFORMAT, "%s: row %zu: id 0:%g is not the row's position %zu (the rows of a training "
                            "kernel are the training rows in order, row i starting with 0:i)", name, i + 1,
                            data->ids[i], i + 1);
    return KM_OK;
}

/* The n×k kernel values of a precomputed-kernel text file become the matrix (the array changes owner). */
static km_status read_text(FILE *stream, const char *name, int training, km_matrix **out)
{
    km_dataset *data;
    km_status st = km_read_libsvm_stream(stream, name, KM_READ_PRECOMPUTED, &data);
    if (!st && training)
        st = check_training_ids(data, name);
    if (st) {
        km_dataset_free(data);
        return st;
    }
    km_matrix *matrix = calloc(1, sizeof *matrix);
    if (!matrix) {
        km_dataset_free(data);
        return km_error_nomem("a matrix");
    }
    matrix->rows = data->n;
    matrix->cols = data->d;
    matrix->data = data->X;
    data->X = NULL;
    km_dataset_free(data);
    *out = matrix;
    return KM_OK;
}

static km_status read_matrix(FILE *stream, const char *name, int training, km_matrix **out)
{
    *out = NULL;
    unsigned char magic[MAGIC_BYTES];
    size_t got = fread(magic, 1, MAGIC_BYTES, stream);
    if (ferror(stream))
        return km_error(KM_EIO, "%s: read error: %s", name, strerror(errno));
    if (got == MAGIC_BYTES && memcmp(magic, MAGIC, MAGIC_BYTES) == 0)
        return read_binary(stream, name, magic, training, out);
    /* a file that starts like the .npy magic is one, if only a truncated one */
    if (got > 0 && memcmp(magic, KM_NPY_MAGIC, got < KM_NPY_MAGIC_BYTES ? got : KM_NPY_MAGIC_BYTES) == 0)
        return km_read_npy_stream(stream, name, training, out);
    if (got > 0 && got < MAGIC_BYTES && memcmp(magic, MAGIC, got) == 0)
        return km_error(KM_EFORMAT, "%s: truncated matrix header (%zu of %d bytes)", name, got, HEADER_BYTES);
    if (fseeko(stream, 0, SEEK_SET) != 0)
        return km_error(KM_EIO, "%s: cannot rewind: %s", name, strerror(errno));
    return read_text(stream, name, training, out);
}

static km_status read_matrix_stream(FILE *stream, const char *name, int training, km_matrix **out)
{
    km_numeric_locale locale;
    km_status st = km_numeric_locale_enter(&locale);
    if (st)
        return st;
    st = read_matrix(stream, name, training, out);
    km_numeric_locale_leave(&locale);
    if (!st && !((*out)->source = strdup(name))) {
        km_matrix_free(*out);
        *out = NULL;
        st = km_error_nomem("a file name");
    }
    return st;
}

km_status km_matrix_read_stream(FILE *stream, const char *name, km_matrix **out)
{
    return read_matrix_stream(stream, name, 0, out);
}

static km_status read_matrix_file(const char *path, int training, km_matrix **out)
{
    *out = NULL;
    FILE *stream;
    km_status st = km_open_input(path, &stream);
    if (st)
        return st;
    st = read_matrix_stream(stream, km_input_name(path), training, out);
    fclose(stream);
    return st;
}

km_status km_matrix_read(const char *path, km_matrix **out)
{
    return read_matrix_file(path, 0, out);
}

km_status km_matrix_read_training(const char *path, km_matrix **out)
{
    return read_matrix_file(path, 1, out);
}

/* Values the reader would reject (NaN, infinities, overflow to float32) are refused before writing. */
km_status km_matrix_writable(const km_matrix *matrix, const char *path, km_dtype dtype)
{
    if (!matrix || !path || (!matrix->data && !matrix->data32) || matrix->rows == 0 || matrix->cols == 0)
        return km_error(KM_EINVAL, "km_matrix_write: %s", !path ? "NULL path" : "empty or NULL matrix");
    if (dtype != KM_FLOAT64 && dtype != KM_FLOAT32)
        return km_error(KM_EINVAL, "km_matrix_write: unknown dtype %d (KM_FLOAT64 or KM_FLOAT32)", (int)dtype);
    int width = dtype == KM_FLOAT64 ? 8 : 4;
    for (size_t k = 0; k < matrix->rows * matrix->cols; k++) {
        double v = km_matrix_value(matrix, k / matrix->cols, k % matrix->cols);
        if (!isfinite(v) || (width == 4 && fabs(v) > FLT_MAX))
            return km_error(KM_EINVAL, "%s: entry (%zu, %zu) = %g cannot be stored as %s", path, k / matrix->cols,
                            k % matrix->cols, v, dtype_name(width));
    }
    return KM_OK;
}

void km_matrix_write_to(const km_matrix *matrix, km_atomic_file *file, km_dtype dtype)
{
    int width = dtype == KM_FLOAT64 ? 8 : 4;
    unsigned char header[HEADER_BYTES];
    memcpy(header, MAGIC, MAGIC_BYTES);
    store_le(header + 8, FORMAT_VERSION, 4);
    store_le(header + 12, (uint64_t)dtype, 4);
    store_le(header + 16, matrix->rows, 8);
    store_le(header + 24, matrix->cols, 8);
    fwrite(header, 1, HEADER_BYTES, file->stream);
    unsigned char chunk[CHUNK_VALUES * 8];
    size_t total = matrix->rows * matrix->cols;
    for (size_t done = 0; done < total && !ferror(file->stream);) {
        size_t count = total - done < CHUNK_VALUES ? total - done : CHUNK_VALUES;
        for (size_t k = 0; k < count; k++)
            encode_value(chunk + k * (size_t)width, matrix->data ? matrix->data[done + k] : matrix->data32[done + k], width);
        fwrite(chunk, (size_t)width, count, file->stream);
        done += count;
    }
}

km_status km_matrix_write(const km_matrix *matrix, const char *path, km_dtype dtype)
{
    km_status st = km_matrix_writable(matrix, path, dtype);
    if (st)
        return st;
    km_atomic_file file;
    if ((st = km_atomic_open(&file, path, "kernel matrix")))
        return st;
    km_matrix_write_to(matrix, &file, dtype);
    return km_atomic_commit(&file);
}
