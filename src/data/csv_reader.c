/* Delimited-text reader: dense rows of numbers, one per line, with an optional header line and a
 * label column anywhere. Fields may be double-quoted ("" inside quotes is a quote); with the
 * whitespace delimiter ' ' runs of spaces and tabs separate fields. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/locale.h"
#include "core/sized_struct.h"
#include "data/dataset.h"
#include "data/readers.h"
#include "data/text_input.h"

typedef struct field_list {
    char **items;
    size_t count, capacity;
} field_list;

static km_status push_field(field_list *fields, char *field)
{
    char **items = km_grow(fields->items, &fields->capacity, fields->count + 1, sizeof *items);
    if (!items)
        return km_error_nomem("CSV fields");
    fields->items = items;
    fields->items[fields->count++] = field;
    return KM_OK;
}

static int is_space(char c, char delimiter) { return c == ' ' || (c == '\t' && delimiter != '\t'); }

/* Unquotes the field starting at the opening quote p in place; *end receives the character after the
 * closing quote. Returns NULL when the quote is not closed. */
static char *unquote(char *p, char **end)
{
    char *field = p, *out = p;
    for (p++;; p++) {
        if (*p == '\0')
            return NULL;
        if (*p == '"') {
            if (p[1] != '"')
                break;
            p++;
        }
        *out++ = *p;
    }
    *end = p + 1;
    *out = '\0';
    return field;
}

/* Splits line in place into fields (surrounding spaces trimmed, quotes removed). */
static km_status split_line(const km_line_reader *in, char *line, char delimiter, field_list *fields)
{
    fields->count = 0;
    char *p = line;
    if (delimiter == ' ') {
        for (;;) {
            while (*p == ' ' || *p == '\t')
                p++;
            if (*p == '\0')
                return KM_OK;
            char *field = p;
            while (*p != '\0' && *p != ' ' && *p != '\t')
                p++;
            if (*p != '\0')
                *p++ = '\0';
            km_status st = push_field(fields, field);
            if (st)
                return st;
        }
    }
    for (;;) {
        while (is_space(*p, delimiter))
            p++;
        char *field, *after;
        if (*p == '"') {
            if (!(field = unquote(p, &after)))
                return km_error(KM_EFORMAT, "%s:%zu: unterminated quote in field %zu", in->name, in->line_no,
                                fields->count + 1);
            p = after;
            while (is_space(*p, delimiter))
                p++;
            if (*p != delimiter && *p != '\0')
                return km_error(KM_EFORMAT, "%s:%zu: unexpected '%c' after the closing quote of field %zu",
                                in->name, in->line_no, *p, fields->count + 1);
        } else {
            field = p;
            while (*p != delimiter && *p != '\0')
                p++;
            char *trim = p;
            while (trim > field && is_space(trim[-1], delimiter))
                trim--;
            after = trim;
        }
        int last = *p == '\0';
        *after = '\0';
        km_status st = push_field(fields, field);
        if (st || last)
            return st;
        p++;
    }
}

/* ',' ';' or tab, whichever appears first in that order of preference; else runs of white space. */
static char detect_delimiter(const char *line)
{
    static const char candidates[] = {',', ';', '\t'};
    for (size_t i = 0; i < sizeof candidates; i++)
        if (strchr(line, candidates[i]))
            return candidates[i];
    return ' ';
}

/* The layout fixed by the first data line. */
typedef struct csv_layout {
    char delimiter;
    size_t n_fields;
    int has_label;
    size_t label;      /* 0-based label field when has_label */
} csv_layout;

static km_status resolve_label(const km_line_reader *in, const km_csv_options *options, size_t n_fields,
                               csv_layout *layout)
{
    layout->n_fields = n_fields;
    layout->has_label = options->label_column != KM_CSV_NO_LABEL;
    if (!layout->has_label)
        return KM_OK;
    long column = options->label_column < 0 ? (long)n_fields + options->label_column : options->label_column;
    if (column < 0 || (size_t)column >= n_fields)
        return km_error(KM_EINVAL, "%s:%zu: label column %d does not exist (%zu fields)", in->name, in->line_no,
                        options->label_column, n_fields);
    if (n_fields < 2)
        return km_error(KM_EFORMAT, "%s:%zu: no feature columns besides the label", in->name, in->line_no);
    layout->label = (size_t)column;
    return KM_OK;
}

/* Header detection: a field other than the label that is text (empty fields and "nan" or "inf" are
 * left for the row parser to report). */
static int looks_like_header(const field_list *fields, const csv_layout *layout)
{
    for (size_t j = 0; j < fields->count; j++) {
        double ignored;
        if ((!layout->has_label || j != layout->label) &&
            km_parse_number(fields->items[j], &ignored) == KM_NUMBER_INVALID)
            return 1;
    }
    return 0;
}

typedef struct csv_rows {
    size_t n, d;
    double *X;
    size_t X_cap;
    double *labels;
    size_t labels_cap;
} csv_rows;

static km_status field_error(const km_line_reader *in, const char *what, size_t column, const char *text,
                             km_number_result result)
{
    switch (result) {
    case KM_NUMBER_EMPTY:
        return km_error(KM_EFORMAT, "%s:%zu: empty field %zu", in->name, in->line_no, column);
    case KM_NUMBER_RANGE:
        return km_error(KM_EFORMAT, "%s:%zu: %s '%.40s' in field %zu is out of range", in->name, in->line_no,
                        what, text, column);
    case KM_NUMBER_NOT_FINITE:
        return km_error(KM_EFORMAT, "%s:%zu: %s '%.40s' in field %zu is not finite", in->name, in->line_no,
                        what, text, column);
    default:
        return km_error(KM_EFORMAT, "%s:%zu: non-numeric %s '%.40s' in field %zu", in->name, in->line_no, what,
                        text, column);
    }
}

static km_status append_row(csv_rows *rows, const km_line_reader *in, const field_list *fields,
                            const csv_layout *layout)
{
    if (fields->count != layout->n_fields)
        return km_error(KM_EFORMAT, "%s:%zu: %zu fields, expected %zu", in->name, in->line_no, fields->count,
                        layout->n_fields);
    double *X = km_grow(rows->X, &rows->X_cap, (rows->n + 1) * rows->d, sizeof *X);
    if (!X)
        return km_error_nomem("CSV rows");
    rows->X = X;
    if (layout->has_label) {
        double *labels = km_grow(rows->labels, &rows->labels_cap, rows->n + 1, sizeof *labels);
        if (!labels)
            return km_error_nomem("CSV labels");
        rows->labels = labels;
    }
    double *row = rows->X + rows->n * rows->d;
    for (size_t j = 0; j < fields->count; j++) {
        int is_label = layout->has_label && j == layout->label;
        double value;
        km_number_result result = km_parse_number(fields->items[j], &value);
        if (result != KM_NUMBER_OK)
            return field_error(in, is_label ? "label" : "value", j + 1, fields->items[j], result);
        if (is_label)
            rows->labels[rows->n] = value;
        else
            *row++ = value;
    }
    rows->n++;
    return KM_OK;
}

static km_status check_options(const char *name, const km_csv_options *options)
{
    if (options->header < -1 || options->header > 1)
        return km_error(KM_EINVAL, "%s: CSV header option must be -1, 0 or 1, not %d", name, options->header);
    char c = options->delimiter;
    if (c == '"' || c == '\n' || c == '\r' || c == '.' || c == '-' || c == '+' || (c >= '0' && c <= '9'))
        return km_error(KM_EINVAL, "%s: byte 0x%02X cannot be a CSV delimiter", name, (unsigned char)c);
    return KM_OK;
}

/* Reads every row, starting from first_line (the first non-blank line, header or data). */
static km_status read_rows(km_line_reader *in, char *first_line, field_list *fields, const km_csv_options *options,
                           csv_rows *rows, csv_layout *layout_out)
{
    csv_layout layout = {.delimiter = options->delimiter ? options->delimiter : detect_delimiter(first_line)};
    int header = options->header;
    km_status st;
    if (header != 1 && (st = split_line(in, first_line, layout.delimiter, fields)))
        return st;
    if (header == -1) {
        if ((st = resolve_label(in, options, fields->count, &layout)))
            return st;
        header = looks_like_header(fields, &layout);
    }
    char *line;
    if (header) {
        if ((st = km_line_next(in, &line)))
            return st;
        if (!line)
            return km_error(KM_EFORMAT, "%s:%zu: no data rows after the header", in->name, in->line_no);
        if ((st = split_line(in, line, layout.delimiter, fields)))
            return st;
    }
    /* the field count comes from the first data line (a header line may differ, as in sklearn's CSVs) */
    if ((st = resolve_label(in, options, fields->count, &layout)))
        return st;
    rows->d = layout.n_fields - (layout.has_label ? 1 : 0);
    *layout_out = layout;
    for (;;) {
        if ((st = append_row(rows, in, fields, &layout)))
            return st;
        if ((st = km_line_next(in, &line)) || !line)
            return st;
        if ((st = split_line(in, line, layout.delimiter, fields)))
            return st;
    }
}

static km_status read_csv(FILE *stream, const char *name, const km_csv_options *options, km_dataset **out)
{
    *out = NULL;
    /* the caller's options over the defaults, as far as the caller's struct reaches */
    km_csv_options full = KM_CSV_OPTIONS_INIT;
    km_status st = options ? km_sized_struct_read(&full, sizeof full, options,
                                                  offsetof(km_csv_options, delimiter) + sizeof(char), "km_csv_options")
                           : KM_OK;
    options = &full;
    if (!st)
        st = check_options(name, options);
    if (st)
        return st;
    km_line_reader in;
    km_line_reader_init(&in, stream, name);
    field_list fields = {0};
    csv_rows rows = {0};
    csv_layout layout = {0};
    char *line;
    if (!(st = km_line_next(&in, &line))) {
        if (!line)
            st = km_error(KM_EFORMAT, "%s:%zu: no data rows", name, in.line_no ? in.line_no : 1);
        else
            st = read_rows(&in, line, &fields, options, &rows, &layout);
    }
    km_dataset *data = NULL;
    if (!st && !(st = km_dataset_alloc(&data))) {
        data->n = rows.n;
        data->d = rows.d;
        data->X = rows.X;
        data->labels = rows.labels;
        data->csv_fields = layout.n_fields;
        data->csv_label_field = layout.has_label ? (long)layout.label : -1;
        rows.X = rows.labels = NULL;
        if (!(data->source = strdup(name))) {
            km_dataset_free(data);
            st = km_error_nomem("a file name");
        } else {
            *out = data;
        }
    }
    free(rows.X);
    free(rows.labels);
    free(fields.items);
    km_line_reader_free(&in);
    return st;
}

km_status km_read_csv_stream(FILE *stream, const char *name, const km_csv_options *options, km_dataset **out)
{
    km_numeric_locale locale;
    km_status st = km_numeric_locale_enter(&locale);
    if (st)
        return st;
    st = read_csv(stream, name, options, out);
    km_numeric_locale_leave(&locale);
    return st;
}

km_status km_dataset_read_csv(const char *path, const km_csv_options *options, km_dataset **out)
{
    *out = NULL;
    FILE *stream;
    km_status st = km_open_input(path, &stream);
    if (st)
        return st;
    st = km_read_csv_stream(stream, km_input_name(path), options, out);
    fclose(stream);
    return st;
}
