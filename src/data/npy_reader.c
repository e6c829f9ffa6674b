/* numpy .npy files (numpy.lib.format): the magic "\x93NUMPY", a major and a minor version byte, the
 * header length (uint16 little-endian in version 1.0, uint32 in 2.0 and 3.0), then the header, a
 * Python dict literal such as {'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), } padded with
 * spaces and a newline, then the array's values to the end of the file.
 * Read: 2-D arrays of little-endian float64 ('<f8') or float32 ('<f4'), kept in that dtype; a
 * Fortran-order array is transposed into rows on read (one extra copy of the values while it is).
 * Refused, with one line naming the file: other dtypes (big-endian, object, structured, integers),
 * other dimensions, a header that overruns the file or is not that dict, a payload of the wrong size. */
#include <errno.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "core/error.h"
#include "data/dataset.h"
#include "data/matrix.h"
#include "data/readers.h"
#include "data/text_input.h"

#define VERSION1_PREFIX_BYTES 10    /* magic, version, uint16 header length */
#define VERSION2_PREFIX_BYTES 12    /* magic, version, uint32 header length */
/* the most dimensions a header may list (numpy's own limit is 64) */
#define MAX_DIMS 64

typedef struct npy_header {
    km_dtype dtype;
    int fortran_order;
    size_t n_dims;
    uint64_t dims[MAX_DIMS];
} npy_header;

/* A cursor over the header text, for messages its file name and the header's offset in the file. */
typedef struct header_cursor {
    const char *at, *end;
    const char *name;
    const char *start;
    size_t offset;
} header_cursor;

static km_status header_error(const header_cursor *c, const char *problem)
{
    return km_error(KM_EFORMAT, "%s: malformed .npy header at byte %zu: %s", c->name,
                    c->offset + (size_t)(c->at - c->start), problem);
}

static void skip_space(header_cursor *c)
{
    while (c->at < c->end && (*c->at == ' ' || *c->at == '\t' || *c->at == '\n' || *c->at == '\r'))
        c->at++;
}

/* Skips spaces, then consumes ch if it is next. */
static int accept(header_cursor *c, char ch)
{
    skip_space(c);
    if (c->at < c->end && *c->at == ch) {
        c->at++;
        return 1;
    }
    return 0;
}

/* A quoted string without escapes: *text points at its characters (not NUL-terminated). */
static km_status parse_string(header_cursor *c, const char **text, size_t *length)
{
    skip_space(c);
    if (c->at >= c->end || (*c->at != '\'' && *c->at != '"'))
        return header_error(c, "expected a quoted string");
    char quote = *c->at++;
    const char *begin = c->at;
    while (c->at < c->end && *c->at != quote && *c->at != '\\')
        c->at++;
    if (c->at >= c->end || *c->at != quote)
        return header_error(c, "unterminated or escaped string");
    *text = begin;
    *length = (size_t)(c->at - begin);
    c->at++;
    return KM_OK;
}

static int text_is(const char *text, size_t length, const char *word)
{
    return strlen(word) == length && memcmp(text, word, length) == 0;
}

static km_status parse_descr(header_cursor *c, npy_header *h)
{
    skip_space(c);
    if (c->at < c->end && *c->at == '[')
        return km_error(KM_EFORMAT, "%s: structured .npy arrays are not supported (save a plain 2-D float64 or "
                        "float32 array)", c->name);
    const char *text;
    size_t length;
    km_status st = parse_string(c, &text, &length);
    if (st)
        return st;
    if (text_is(text, length, "<f8")) {
        h->dtype = KM_FLOAT64;
        return KM_OK;
    }
    if (text_is(text, length, "<f4")) {
        h->dtype = KM_FLOAT32;
        return KM_OK;
    }
    const char *what = memchr(text, 'O', length) ? "object arrays are not supported"
                       : length > 0 && text[0] == '>' ? "big-endian values are not supported"
                                                       : "this dtype is not supported";
    /* the dtype as written, its first 32 characters, with '?' for what would break the one line */
    char shown[33];
    size_t n = length < 32 ? length : 32;
    for (size_t k = 0; k < n; k++)
        shown[k] = text[k] >= ' ' && text[k] <= '~' ? text[k] : '?';
    shown[n] = '\0';
    return km_error(KM_EFORMAT, "%s: .npy dtype '%s': %s (float64 '<f8' or float32 '<f4' are read)", c->name, shown,
                    what);
}

static km_status parse_bool(header_cursor *c, int *value)
{
    skip_space(c);
    size_t left = (size_t)(c->end - c->at);
    if (left >= 4 && memcmp(c->at, "True", 4) == 0) {
        *value = 1;
        c->at += 4;
    } else if (left >= 5 && memcmp(c->at, "False", 5) == 0) {
        *value = 0;
        c->at += 5;
    } else {
        return header_error(c, "expected True or False");
    }
    return KM_OK;
}

/* A tuple of non-negative integers: (), (n,), (n, m), (n, m,) ... */
static km_status parse_shape(header_cursor *c, npy_header *h)
{
    if (!accept(c, '('))
        return header_error(c, "expected the shape tuple");
    h->n_dims = 0;
    while (!accept(c, ')')) {
        if (h->n_dims > 0 && h->n_dims == MAX_DIMS)
            return header_error(c, "more than 64 dimensions");
        skip_space(c);
        if (c->at >= c->end || *c->at < '0' || *c->at > '9')
            return header_error(c, "expected a dimension");
        uint64_t value = 0;
        for (; c->at < c->end && *c->at >= '0' && *c->at <= '9'; c->at++) {
            uint64_t digit = (uint64_t)(*c->at - '0');
            if (value > (UINT64_MAX - digit) / 10)
                return header_error(c, "dimension too large");
            value = value * 10 + digit;
        }
        if (c->at < c->end && *c->at == 'L')   /* Python 2 long literal */
            c->at++;
        h->dims[h->n_dims++] = value;
        if (!accept(c, ',')) {
            if (!accept(c, ')'))
                return header_error(c, "expected ',' or ')' in the shape");
            break;
        }
    }
    return KM_OK;
}

/* The dict: exactly the keys descr, fortran_order and shape, each once, in any order. */
static km_status parse_header(header_cursor *c, npy_header *h)
{
    enum { DESCR = 1, FORTRAN = 2, SHAPE = 4 };
    unsigned seen = 0;
    if (!accept(c, '{'))
        return header_error(c, "expected '{'");
    while (!accept(c, '}')) {
        const char *key;
        size_t length;
        km_status st = parse_string(c, &key, &length);
        if (st)
            return st;
        unsigned which = text_is(key, length, "descr") ? DESCR
                         : text_is(key, length, "fortran_order") ? FORTRAN
                         : text_is(key, length, "shape") ? SHAPE : 0;
        if (!which)
            return header_error(c, "unknown key (descr, fortran_order and shape are allowed)");
        if (seen & which)
            return header_error(c, "repeated key");
        seen |= which;
        if (!accept(c, ':'))
            return header_error(c, "expected ':'");
        st = which == DESCR ? parse_descr(c, h) : which == FORTRAN ? parse_bool(c, &h->fortran_order)
                                                                 : parse_shape(c, h);
        if (st)
            return st;
        if (!accept(c, ',')) {
            if (!accept(c, '}'))
                return header_error(c, "expected ',' or '}'");
            break;
        }
    }
    skip_space(c);
    if (c->at != c->end)
        return header_error(c, "unexpected text after the dict");
    if (seen != (DESCR | FORTRAN | SHAPE))
        return km_error(KM_EFORMAT, "%s: .npy header lacks the key '%s'", c->name,
                        !(seen & DESCR) ? "descr" : !(seen & FORTRAN) ? "fortran_order" : "shape");
    return KM_OK;
}

/* The version, the header length and the header (bounded by the file's size, so a forged length
 * cannot make it allocate more than the file holds); the stream is left at the payload. */
static km_status read_header(FILE *stream, const char *name, npy_header *h, uint64_t *payload_offset)
{
    unsigned char prefix[VERSION2_PREFIX_BYTES];
    if (fseeko(stream, 0, SEEK_END) != 0)
        return km_error(KM_EIO, "%s: cannot determine the file size: %s", name, strerror(errno));
    off_t file_bytes = ftello(stream);
    if (file_bytes < 0 || fseeko(stream, 0, SEEK_SET) != 0)
        return km_error(KM_EIO, "%s: cannot determine the file size: %s", name, strerror(errno));
    size_t got = fread(prefix, 1, VERSION1_PREFIX_BYTES, stream);
    if (got < VERSION1_PREFIX_BYTES)
        return km_error(KM_EFORMAT, "%s: truncated .npy header (%zu of %d bytes)", name, got, VERSION1_PREFIX_BYTES);
    if (memcmp(prefix, KM_NPY_MAGIC, KM_NPY_MAGIC_BYTES) != 0)
        return km_error(KM_EFORMAT, "%s: not a .npy file (no \\x93NUMPY magic)", name);
    int major = prefix[6], minor = prefix[7];
    if ((major != 1 && major != 2 && major != 3) || minor != 0)
        return km_error(KM_EFORMAT, "%s: unsupported .npy format version %d.%d (1.0, 2.0 and 3.0 are read)", name,
                        major, minor);
    size_t prefix_bytes = major == 1 ? VERSION1_PREFIX_BYTES : VERSION2_PREFIX_BYTES;
    if (prefix_bytes > got && fread(prefix + got, 1, prefix_bytes - got, stream) != prefix_bytes - got)
        return km_error(KM_EFORMAT, "%s: truncated .npy header (%zu bytes)", name, (size_t)file_bytes);
    uint64_t header_bytes = prefix[8] | (uint64_t)prefix[9] << 8;
    if (major != 1)
        header_bytes |= (uint64_t)prefix[10] << 16 | (uint64_t)prefix[11] << 24;
    if ((uint64_t)file_bytes < prefix_bytes || header_bytes > (uint64_t)file_bytes - prefix_bytes)
        return km_error(KM_EFORMAT, "%s: .npy header of %llu bytes overruns the file (%llu bytes)", name,
                        (unsigned long long)header_bytes, (unsigned long long)file_bytes);
    char *text = malloc(header_bytes ? (size_t)header_bytes : 1);
    if (!text)
        return km_error_nomem("a .npy header");
    km_status st = KM_OK;
    if (fread(text, 1, (size_t)header_bytes, stream) != header_bytes) {
        st = km_error(KM_EIO, "%s: read error in the .npy header", name);
    } else {
        header_cursor cursor = {text, text + header_bytes, name, text, prefix_bytes};
        st = parse_header(&cursor, h);
    }
    free(text);
    *payload_offset = prefix_bytes + header_bytes;
    return st;
}

/* The shape as Python writes it, "(3,)" or "(2, 3, 4)", cut short with "..." where it does not fit. */
static void format_shape(const npy_header *h, char *text, size_t size)
{
    size_t used = (size_t)snprintf(text, size, "(");
    for (size_t k = 0; k < h->n_dims && used < size; k++)
        used += (size_t)snprintf(text + used, size - used, "%s%llu", k ? ", " : "", (unsigned long long)h->dims[k]);
    if (used < size)
        snprintf(text + used, size - used, h->n_dims == 1 ? ",)" : ")");
    if (used >= size - 1)
        memcpy(text + size - 5, "...)", 5);
}

/* The rows of a Fortran-order (column-major) array, read as its transpose. */
static km_status transpose_into_rows(const char *name, km_matrix *columns, km_matrix **out)
{
    km_matrix *rows;
    km_status st = km_matrix_alloc(columns->cols, columns->rows, km_matrix_dtype(columns), 0, &rows);
    if (st)
        st = km_error_in(name, st);
    for (size_t i = 0; !st && i < rows->rows; i++)
        for (size_t j = 0; j < rows->cols; j++) {
            if (rows->data)
                rows->data[i * rows->cols + j] = columns->data[j * columns->cols + i];
            else
                rows->data32[i * rows->cols + j] = columns->data32[j * columns->cols + i];
        }
    if (!st)
        rows->finiteness_deferred = columns->finiteness_deferred;
    km_matrix_free(columns);
    *out = st ? NULL : rows;
    return st;
}

km_status km_read_npy_stream(FILE *stream, const char *name, int defer_finiteness, km_matrix **out)
{
    *out = NULL;
    npy_header h = {0};
    uint64_t offset;
    km_status st = read_header(stream, name, &h, &offset);
    if (st)
        return st;
    int empty = 0;
    for (size_t k = 0; k < h.n_dims; k++)
        empty |= h.dims[k] == 0;
    if (h.n_dims != 2 || empty) {
        char shape[96];
        format_shape(&h, shape, sizeof shape);
        return km_error(KM_EFORMAT, "%s: .npy array of shape %s: %s", name, shape,
                        h.n_dims != 2 ? "a matrix needs 2 dimensions" : "empty");
    }
    uint64_t rows = h.fortran_order ? h.dims[1] : h.dims[0], cols = h.fortran_order ? h.dims[0] : h.dims[1];
    if ((st = km_matrix_read_payload(stream, name, rows, cols, h.dtype, offset, defer_finiteness, out)))
        return st;
    return h.fortran_order ? transpose_into_rows(name, *out, out) : KM_OK;
}

km_status km_read_npy_dataset_stream(FILE *stream, const char *name, int label_column, km_dataset **out)
{
    *out = NULL;
    km_matrix *m;
    km_status st = km_read_npy_stream(stream, name, 0, &m);
    if (st)
        return st;
    int has_label = label_column != KM_CSV_NO_LABEL;
    long label = label_column < 0 ? (long)m->cols + label_column : label_column;
    /* a single column that is the label is a labels-only file, as LIBSVM rows without features are:
     * the rows of precomputed kernels given by file= */
    if (has_label && (label < 0 || (size_t)label >= m->cols)) {
        st = km_error(KM_EINVAL, "%s: label column %d does not exist (%zu columns)", name,
                      label_column >= 0 ? label_column + 1 : label_column, m->cols);
        km_matrix_free(m);
        return st;
    }
    km_dataset *data;
    if ((st = km_dataset_alloc(&data))) {
        km_matrix_free(m);
        return km_error_in(name, st);
    }
    data->n = m->rows;
    data->d = m->cols - (size_t)has_label;
    data->X = malloc((data->d ? data->n * data->d : 1) * sizeof *data->X);
    data->labels = has_label ? malloc(data->n * sizeof *data->labels) : NULL;
    data->source = strdup(name);
    if (!data->X || (has_label && !data->labels) || !data->source) {
        st = km_error(KM_ENOMEM, "%s: out of memory for the %zu x %zu values of its rows", name, m->rows, m->cols);
        km_matrix_free(m);
        km_dataset_free(data);
        return st;
    }
    for (size_t i = 0; i < m->rows; i++)
        for (size_t j = 0, feature = 0; j < m->cols; j++) {
            double v = km_matrix_value(m, i, j);
            if (has_label && j == (size_t)label)
                data->labels[i] = v;
            else
                data->X[i * data->d + feature++] = v;
        }
    km_matrix_free(m);
    *out = data;
    return KM_OK;
}

km_status km_dataset_read_npy(const char *path, int label_column, km_dataset **out)
{
    *out = NULL;
    FILE *stream;
    km_status st = km_open_input(path, &stream);
    if (st)
        return st;
    st = km_read_npy_dataset_stream(stream, km_input_name(path), label_column, out);
    fclose(stream);
    return st;
}
