/* LIBSVM text reader. Sparse rows "label idx:val ..." (1-based, strictly ascending indices) become
 * CSR with 0-based columns; precomputed-kernel rows "label 0:id 1:v ... k:v" become a dense n×k
 * matrix plus the ids. Input is streamed line by line; every malformed line fails with
 * KM_EFORMAT "NAME:LINE: problem". */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/locale.h"
#include "data/dataset.h"
#include "data/readers.h"
#include "data/text_input.h"

#define MAX_INDEX 2147483647L

/* Rows read so far. Sparse: row_start/col/val form the CSR arrays. Precomputed: val holds the
 * n×k values row after row and ids the 0:id entries. */
typedef struct libsvm_rows {
    int precomputed;
    size_t n;
    double *labels;
    size_t labels_cap;
    double *ids;
    size_t ids_cap;
    size_t *row_start;
    size_t row_start_cap;
    size_t nnz;
    uint32_t *col;
    size_t col_cap;
    double *val;
    size_t val_cap;
    size_t max_index;
    size_t k;          /* precomputed: kernel values per row, set by the first row */
    size_t k_line;     /* ... and the line that set it */
} libsvm_rows;

static void rows_free(libsvm_rows *rows)
{
    free(rows->labels);
    free(rows->ids);
    free(rows->row_start);
    free(rows->col);
    free(rows->val);
}

/* Splits off the next token (run of non-blank characters), NUL-terminating it; NULL at line end. */
static char *next_token(char **cursor)
{
    char *p = *cursor;
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p == '\0')
        return NULL;
    char *token = p;
    while (*p != '\0' && *p != ' ' && *p != '\t')
        p++;
    if (*p != '\0')
        *p++ = '\0';
    *cursor = p;
    return token;
}

static km_status number_error(const km_line_reader *in, const char *what, const char *text,
                              km_number_result result)
{
    switch (result) {
    case KM_NUMBER_EMPTY:
        return km_error(KM_EFORMAT, "%s:%zu: missing %s", in->name, in->line_no, what);
    case KM_NUMBER_RANGE:
        return km_error(KM_EFORMAT, "%s:%zu: %s '%.40s' is out of range", in->name, in->line_no, what, text);
    case KM_NUMBER_NOT_FINITE:
        return km_error(KM_EFORMAT, "%s:%zu: %s '%.40s' is not finite", in->name, in->line_no, what, text);
    default:
        return km_error(KM_EFORMAT, "%s:%zu: non-numeric %s '%.40s'", in->name, in->line_no, what, text);
    }
}

/* Parses "idx:val" into *index and *value; the token is modified. */
static km_status parse_entry(const km_line_reader *in, char *token, int precomputed, long *index, double *value)
{
    char *colon = strchr(token, ':');
    if (!colon)
        return km_error(KM_EFORMAT, "%s:%zu: '%.40s' is not idx:val (missing ':')", in->name, in->line_no, token);
    *colon = '\0';
    const char *index_text = token, *value_text = colon + 1;
    if (*index_text == '\0')
        return km_error(KM_EFORMAT, "%s:%zu: missing feature index before ':%.40s'", in->name, in->line_no,
                        value_text);
    char *end;
    errno = 0;
    long idx = strtol(index_text, &end, 10);
    if (*end != '\0' || end == index_text)
        return km_error(KM_EFORMAT, "%s:%zu: non-numeric feature index '%.40s'", in->name, in->line_no,
                        index_text);
    if (idx < 0)
        return km_error(KM_EFORMAT, "%s:%zu: feature index %.40s is negative", in->name, in->line_no, index_text);
    if (errno == ERANGE || idx > MAX_INDEX)
        return km_error(KM_EFORMAT, "%s:%zu: feature index %.40s is above %ld", in->name, in->line_no,
                        index_text, MAX_INDEX);
    if (idx == 0 && !precomputed)
        return km_error(KM_EFORMAT, "%s:%zu: feature index 0 is invalid (indices start at 1)", in->name,
                        in->line_no);
    km_number_result result = km_parse_number(value_text, value);
    if (result != KM_NUMBER_OK) {
        char what[64];
        snprintf(what, sizeof what, "value of feature %ld", idx);
        return number_error(in, what, value_text, result);
    }
    *index = idx;
    return KM_OK;
}

static km_status append_value(libsvm_rows *rows, long index, double value)
{
    size_t need = rows->nnz + 1;
    double *val = km_grow(rows->val, &rows->val_cap, need, sizeof *val);
    if (!val)
        return km_error_nomem("LIBSVM feature values");
    rows->val = val;
    if (!rows->precomputed) {
        uint32_t *col = km_grow(rows->col, &rows->col_cap, need, sizeof *col);
        if (!col)
            return km_error_nomem("LIBSVM feature indices");
        rows->col = col;
        rows->col[rows->nnz] = (uint32_t)(index - 1);
    }
    rows->val[rows->nnz++] = value;
    if ((size_t)index > rows->max_index)
        rows->max_index = (size_t)index;
    return KM_OK;
}

static km_status start_row(libsvm_rows *rows, double label)
{
    size_t need = rows->n + 1;
    double *labels = km_grow(rows->labels, &rows->labels_cap, need, sizeof *labels);
    if (!labels)
        return km_error_nomem("LIBSVM labels");
    rows->labels = labels;
    if (rows->precomputed) {
        double *ids = km_grow(rows->ids, &rows->ids_cap, need, sizeof *ids);
        if (!ids)
            return km_error_nomem("precomputed-kernel ids");
        rows->ids = ids;
    } else {
        size_t *starts = km_grow(rows->row_start, &rows->row_start_cap, need + 1, sizeof *starts);
        if (!starts)
            return km_error_nomem("LIBSVM row offsets");
        rows->row_start = starts;
        rows->row_start[rows->n] = rows->nnz;
    }
    rows->labels[rows->n] = label;
    return KM_OK;
}

/* Checks a precomputed row's shape: 0:id first, then every index 1..k, the same k on every line. */
static km_status check_precomputed_entry(const km_line_reader *in, long previous, long index)
{
    if (previous < 0 && index != 0)
        return km_error(KM_EFORMAT, "%s:%zu: precomputed-kernel row lacks the 0:id entry (first index is %ld)",
                        in->name, in->line_no, index);
    if (previous >= 0 && index > previous + 1)
        return km_error(KM_EFORMAT,
                        "%s:%zu: kernel value %ld is missing (precomputed rows need every index 1..k, "
                        "zeros included)",
                        in->name, in->line_no, previous + 1);
    return KM_OK;
}

static km_status finish_precomputed_row(libsvm_rows *rows, const km_line_reader *in, long last_index)
{
    if (last_index < 0)
        return km_error(KM_EFORMAT, "%s:%zu: precomputed-kernel row lacks the 0:id entry", in->name, in->line_no);
    size_t k = (size_t)last_index;
    if (rows->n == 0) {
        if (k == 0)
            return km_error(KM_EFORMAT, "%s:%zu: precomputed-kernel row has no kernel values", in->name,
                            in->line_no);
        rows->k = k;
        rows->k_line = in->line_no;
    } else if (k != rows->k) {
        return km_error(KM_EFORMAT, "%s:%zu: %zu kernel values, expected %zu (as on line %zu)", in->name,
                        in->line_no, k, rows->k, rows->k_line);
    }
    return KM_OK;
}

static km_status parse_line(libsvm_rows *rows, const km_line_reader *in, char *line)
{
    char *cursor = line;
    char *token = next_token(&cursor);
    if (strchr(token, ':'))
        return km_error(KM_EFORMAT, "%s:%zu: label missing (line starts with '%.40s')", in->name, in->line_no,
                        token);
    double label;
    km_number_result result = km_parse_number(token, &label);
    if (result != KM_NUMBER_OK)
        return number_error(in, "label", token, result);
    km_status st = start_row(rows, label);
    if (st)
        return st;
    long previous = -1;
    while ((token = next_token(&cursor)) != NULL) {
        long index = 0;
        double value = 0.0;
        if ((st = parse_entry(in, token, rows->precomputed, &index, &value)))
            return st;
        if (previous >= 0 && index <= previous)
            return km_error(KM_EFORMAT, "%s:%zu: feature index %ld is not greater than the previous index %ld",
                            in->name, in->line_no, index, previous);
        if (rows->precomputed && (st = check_precomputed_entry(in, previous, index)))
            return st;
        if (rows->precomputed && index == 0)
            rows->ids[rows->n] = value;
        else if ((st = append_value(rows, index, value)))
            return st;
        previous = index;
    }
    if (rows->precomputed && (st = finish_precomputed_row(rows, in, previous)))
        return st;
    rows->n++;
    return KM_OK;
}

/* items reallocated to exactly count items (at least one); unchanged if that fails. */
static void *fit(void *items, size_t count, size_t item_size)
{
    void *fitted = realloc(items, (count ? count : 1) * item_size);
    return fitted ? fitted : items;
}

/* Moves the rows into a new dataset (the arrays change owner, trimmed to their length). */
static km_status build_dataset(libsvm_rows *rows, const char *name, km_dataset **out)
{
    km_dataset *data;
    km_status st = km_dataset_alloc(&data);
    if (st)
        return st;
    if (!(data->source = strdup(name))) {
        km_dataset_free(data);
        return km_error_nomem("a file name");
    }
    data->n = rows->n;
    rows->labels = fit(rows->labels, rows->n, sizeof *rows->labels);
    rows->val = fit(rows->val, rows->nnz, sizeof *rows->val);
    data->labels = rows->labels;
    rows->labels = NULL;
    if (rows->precomputed) {
        data->d = rows->k;
        data->X = rows->val;
        data->ids = rows->ids;
        rows->val = NULL;
        rows->ids = NULL;
    } else {
        rows->row_start[rows->n] = rows->nnz;
        rows->col = fit(rows->col, rows->nnz, sizeof *rows->col);
        data->sparse = 1;
        data->d = rows->max_index;
        data->row_start = rows->row_start;
        data->col = rows->col;
        data->val = rows->val;
        rows->row_start = NULL;
        rows->col = NULL;
        rows->val = NULL;
        /* rows without any feature leave col and val NULL; fit() gave them one item if memory allowed */
        if (!data->col || !data->val) {
            km_dataset_free(data);
            return km_error_nomem("empty LIBSVM rows");
        }
    }
    *out = data;
    return KM_OK;
}

static km_status read_libsvm(FILE *stream, const char *name, unsigned flags, km_dataset **out)
{
    *out = NULL;
    if (flags & ~KM_READ_PRECOMPUTED)
        return km_error(KM_EINVAL, "%s: unknown LIBSVM read flags 0x%x", name, flags);
    libsvm_rows rows = {0};
    rows.precomputed = (flags & KM_READ_PRECOMPUTED) != 0;
    km_line_reader in;
    km_line_reader_init(&in, stream, name);
    km_status st;
    char *line;
    while ((st = km_line_next(&in, &line)) == KM_OK && line)
        if ((st = parse_line(&rows, &in, line)))
            break;
    if (!st && rows.n == 0)
        st = km_error(KM_EFORMAT, "%s:%zu: no data rows", name, in.line_no ? in.line_no : 1);
    if (!st)
        st = build_dataset(&rows, name, out);
    km_line_reader_free(&in);
    rows_free(&rows);
    return st;
}

km_status km_read_libsvm_stream(FILE *stream, const char *name, unsigned flags, km_dataset **out)
{
    km_numeric_locale locale;
    km_status st = km_numeric_locale_enter(&locale);
    if (st)
        return st;
    st = read_libsvm(stream, name, flags, out);
    km_numeric_locale_leave(&locale);
    return st;
}

km_status km_dataset_read_libsvm(const char *path, unsigned flags, km_dataset **out)
{
    *out = NULL;
    FILE *stream;
    km_status st = km_open_input(path, &stream);
    if (st)
        return st;
    st = km_read_libsvm_stream(stream, km_input_name(path), flags, out);
    fclose(stream);
    return st;
}
