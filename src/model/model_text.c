/* The shared layer of the model readers (model/model_text.h). */
#include "model/model_text.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "data/dataset.h"
#include "data/text_input.h"
#include "model/model_io.h"

void *km_text_alloc_array(size_t n, size_t size) { return malloc((n ? n : 1) * size); }

static int lower_hex_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

/* "kernelmix-model VERSION\n": *body is set to the second line. */
static km_status check_header(const char *path, const char *buf, size_t size, unsigned *version, size_t *body)
{
    size_t magic = strlen(KM_MODEL_MAGIC);
    if (size <= magic || memcmp(buf, KM_MODEL_MAGIC, magic) != 0 || buf[magic] != ' ')
        return km_error(KM_EFORMAT, "%s: not a kernelmix model", path);
    size_t pos = magic + 1, digits = 0;
    unsigned long v = 0;
    for (; pos < size && buf[pos] >= '0' && buf[pos] <= '9'; pos++, digits++)
        v = v > ULONG_MAX / 10 ? ULONG_MAX : v * 10 + (unsigned long)(buf[pos] - '0');
    if (digits && v > KM_MODEL_FORMAT_VERSION)
        return km_error(KM_EFORMAT, "%s: model format version %lu is newer than this kernelmix supports (%d)", path,
                        v, KM_MODEL_FORMAT_VERSION);
    if (pos == size)
        return km_error(KM_EFORMAT, "%s: truncated", path);
    if (!digits || v == 0 || buf[pos] != '\n')
        return km_error(KM_EFORMAT, "%s:1: bad format version line", path);
    *version = (unsigned)v;
    *body = pos + 1;
    return KM_OK;
}

/* The last line must be "checksum crc32 XXXXXXXX\n" with the CRC-32 of every byte before it;
 * *body_end is set to the start of that line. */
static km_status check_checksum(const char *path, const char *buf, size_t size, size_t body, size_t *body_end)
{
    static const char prefix[] = "checksum crc32 ";
    size_t prefix_len = sizeof prefix - 1, line_len = prefix_len + 9;
    size_t start = size >= line_len ? size - line_len : 0;
    if (size < body + line_len || buf[size - 1] != '\n' || buf[start - 1] != '\n' ||
        memcmp(buf + start, prefix, prefix_len) != 0)
        return km_error(KM_EFORMAT, "%s: truncated (no checksum line at the end)", path);
    uint32_t stored = 0;
    for (size_t i = 0; i < 8; i++) {
        int v = lower_hex_value(buf[start + prefix_len + i]);
        if (v < 0)
            return km_error(KM_EFORMAT, "%s: truncated (bad checksum line at the end)", path);
        stored = stored << 4 | (uint32_t)v;
    }
    if (km_crc32(0, buf, start) != stored)
        return km_error(KM_EFORMAT, "%s: checksum mismatch (file corrupt)", path);
    *body_end = start;
    return KM_OK;
}

km_status km_text_check_start(const char *path, const char *buf, size_t size, size_t from)
{
    size_t magic = strlen(KM_MODEL_MAGIC), compared = size < magic ? size : magic;
    if (memcmp(buf, KM_MODEL_MAGIC, compared) != 0)
        return km_error(KM_EFORMAT, "%s: not a kernelmix model", path);
    if (memchr(buf + from, '\0', size - from))
        return km_error(KM_EFORMAT, "%s: not a kernelmix model (contains NUL bytes)", path);
    return KM_OK;
}

km_status km_text_check(const char *path, const char *buf, size_t size, unsigned *version, size_t *body,
                        size_t *body_end)
{
    km_status st = km_text_check_start(path, buf, size, 0);
    if (!st)
        st = check_header(path, buf, size, version, body);
    return st ? st : check_checksum(path, buf, size, *body, body_end);
}

km_status km_text_next_line(km_text_reader *r, const char *expected)
{
    if (r->next >= r->end)
        return km_error(KM_EFORMAT, "%s:%zu: unexpected end of the model (expected %s)", r->path, r->line_no + 1,
                        expected);
    char *newline = memchr(r->next, '\n', (size_t)(r->end - r->next));
    *newline = '\0';    /* the body ends with a newline: check_checksum saw one before the checksum line */
    r->cursor = r->next;
    r->next = newline + 1;
    r->line_no++;
    return KM_OK;
}

char *km_text_token(km_text_reader *r)
{
    while (*r->cursor == ' ' || *r->cursor == '\t')
        r->cursor++;
    if (!*r->cursor)
        return NULL;
    char *start = r->cursor;
    while (*r->cursor && *r->cursor != ' ' && *r->cursor != '\t')
        r->cursor++;
    if (*r->cursor)
        *r->cursor++ = '\0';
    return start;
}

km_status km_text_required_token(km_text_reader *r, const char *what, char **out)
{
    *out = km_text_token(r);
    return *out ? KM_OK : km_error(KM_EFORMAT, "%s:%zu: missing %s", r->path, r->line_no, what);
}

km_status km_text_end_of_line(km_text_reader *r, const char *what)
{
    char *extra = km_text_token(r);
    return extra ? km_error(KM_EFORMAT, "%s:%zu: unexpected \"%.40s\" after %s", r->path, r->line_no, extra, what)
                 : KM_OK;
}

km_status km_text_bad_value(const km_text_reader *r, const char *what, const char *text)
{
    return km_error(KM_EFORMAT, "%s:%zu: bad %s \"%.40s\"", r->path, r->line_no, what, text);
}

km_status km_text_check_count(const km_text_reader *r, const char *what, size_t count)
{
    if (count > (size_t)(r->end - r->cursor))
        return km_error(KM_EFORMAT, "%s:%zu: %s %zu exceeds what the file holds", r->path, r->line_no, what, count);
    return KM_OK;
}

int km_text_rest_is_none(const km_text_reader *r) { return !strcmp(r->cursor + strspn(r->cursor, " \t"), "none"); }

km_status km_text_convert_double(const km_text_reader *r, const char *what, const char *text, double *value)
{
    char *end;
    *value = strtod(text, &end);
    if (end == text || *end || !isfinite(*value))
        return km_text_bad_value(r, what, text);
    return KM_OK;
}

km_status km_text_convert_size(const km_text_reader *r, const char *what, const char *text, size_t max,
                               size_t *value)
{
    char *end;
    if (*text < '0' || *text > '9')
        return km_text_bad_value(r, what, text);
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (*end || errno == ERANGE || v > max)
        return km_text_bad_value(r, what, text);
    *value = (size_t)v;
    return KM_OK;
}

km_status km_text_parse_double(km_text_reader *r, const char *what, double *value)
{
    char *text;
    km_status st = km_text_required_token(r, what, &text);
    return st ? st : km_text_convert_double(r, what, text, value);
}

km_status km_text_parse_size(km_text_reader *r, const char *what, size_t *value)
{
    char *text;
    km_status st = km_text_required_token(r, what, &text);
    return st ? st : km_text_convert_size(r, what, text, SIZE_MAX, value);
}

km_status km_text_parse_long(km_text_reader *r, const char *what, long min, long max, long *value)
{
    char *text, *end;
    km_status st = km_text_required_token(r, what, &text);
    if (st)
        return st;
    errno = 0;
    *value = strtol(text, &end, 10);
    if (end == text || *end || errno == ERANGE || *value < min || *value > max)
        return km_text_bad_value(r, what, text);
    return KM_OK;
}

km_status km_text_parse_doubles(km_text_reader *r, const char *what, size_t n, double **out)
{
    km_status st = km_text_check_count(r, what, n);
    if (st)
        return st;
    if (!(*out = km_text_alloc_array(n, sizeof **out)))
        return km_error_nomem(what);
    for (size_t i = 0; !st && i < n; i++)
        st = km_text_parse_double(r, what, &(*out)[i]);
    return st ? st : km_text_end_of_line(r, what);
}

km_status km_text_parse_double_list(km_text_reader *r, const char *what, size_t *n, double **out)
{
    /* count the blank-separated tokens of the rest of the line first */
    size_t count = 0;
    for (const char *c = r->cursor; *c;) {
        c += strspn(c, " \t");
        if (*c) {
            count++;
            c += strcspn(c, " \t");
        }
    }
    if (count == 0)
        return km_error(KM_EFORMAT, "%s:%zu: missing %s", r->path, r->line_no, what);
    *n = count;
    return km_text_parse_doubles(r, what, count, out);
}

km_status km_text_parse_name(km_text_reader *r, const char *what, const km_name *table, int *value)
{
    char *name;
    km_status st = km_text_required_token(r, what, &name);
    if (!st && !km_value_of(table, name, value))
        st = km_text_bad_value(r, what, name);
    return st ? st : km_text_end_of_line(r, what);
}

km_status km_text_parse_exponent(km_text_reader *r, const char *what, double *value)
{
    char *text;
    km_status st = km_text_required_token(r, what, &text);
    if (!st && !strcmp(text, "inf"))
        *value = INFINITY;
    else if (!st)
        st = km_text_convert_double(r, what, text, value);
    if (!st && !(*value >= 1))
        st = km_error(KM_EFORMAT, "%s:%zu: %s %g is below 1", r->path, r->line_no, what, *value);
    return st ? st : km_text_end_of_line(r, what);
}

km_status km_text_parse_features(km_text_reader *r, km_kernel *k, size_t dimension)
{
    char *text;
    km_status st = km_text_required_token(r, "features", &text);
    if (st || !strcmp(text, "all"))
        return st ? st : km_text_end_of_line(r, "features");
    size_t n;
    if ((st = km_text_convert_size(r, "feature count", text, SIZE_MAX, &n)))
        return st;
    if (n == 0)
        return km_text_bad_value(r, "feature count", text);
    if ((st = km_text_check_count(r, "feature count", n)))
        return st;
    if (!(k->features = km_text_alloc_array(n, sizeof *k->features)))
        return km_error_nomem("a feature list");
    k->n_features = n;
    size_t max = dimension ? dimension : (size_t)UINT32_MAX + 1;
    for (size_t i = 0; !st && i < n; i++) {
        size_t index;
        st = km_text_parse_size(r, "feature index", &index);
        if (!st && (index == 0 || index > max || (i > 0 && index - 1 <= k->features[i - 1])))
            st = km_error(KM_EFORMAT, "%s:%zu: feature index %zu is not ascending within 1..%zu", r->path,
                          r->line_no, index, max);
        if (!st)
            k->features[i] = (uint32_t)(index - 1);
    }
    return st ? st : km_text_end_of_line(r, "features");
}

km_status km_text_parse_quoted(km_text_reader *r, const char *what, char **out)
{
    *out = NULL;
    while (*r->cursor == ' ')
        r->cursor++;
    if (!strcmp(r->cursor, "none"))
        return KM_OK;
    const char *c = r->cursor;
    if (*c++ != '"')
        return km_text_bad_value(r, what, r->cursor);
    char *text = malloc(strlen(c) + 1), *dst = text;
    if (!text)
        return km_error_nomem(what);
    for (; *c && *c != '"'; c++) {
        unsigned char byte = (unsigned char)*c;
        int hi, lo;
        if (byte < 0x20 || byte == 0x7f)
            break;
        if (byte != '\\')
            *dst++ = (char)byte;
        else if (c[1] == '\\' || c[1] == '"')
            *dst++ = *++c;
        else if (c[1] == 'x' && (hi = lower_hex_value(c[2])) >= 0 && (lo = lower_hex_value(c[3])) >= 0 &&
                 (hi || lo)) {
            *dst++ = (char)(hi << 4 | lo);
            c += 3;
        } else
            break;
    }
    *dst = '\0';
    if (*c != '"' || c[1]) {
        free(text);
        return km_text_bad_value(r, what, r->cursor);
    }
    *out = text;
    return KM_OK;
}

km_status km_text_parse_support_vector(km_text_reader *r, km_machine *machine, size_t outputs, size_t j)
{
    km_status st = km_text_parse_size(r, "support vector index", &machine->sv[j]);
    for (size_t k = 0; !st && k < outputs; k++)
        st = km_text_parse_double(r, "support vector coefficient", &machine->coef[j * outputs + k]);
    return st ? st : km_text_end_of_line(r, "support vector coefficient");
}

km_status km_text_basis_alloc(km_text_reader *r, km_model *model, size_t n, size_t d, int sparse, int labels,
                              int ids, size_t *capacity)
{
    /* dense rows hold n*d values; sparse column indices are 32-bit */
    if (!sparse && n && d > (size_t)(r->end - r->cursor) / n)
        return km_error(KM_EFORMAT, "%s:%zu: %zu x %zu dense basis exceeds what the file holds", r->path,
                        r->line_no, n, d);
    if (sparse && d > (size_t)UINT32_MAX + 1)
        return km_error(KM_EFORMAT, "%s:%zu: sparse basis_dim %zu is beyond 2^32", r->path, r->line_no, d);
    int strings = sparse == KM_BASIS_STRINGS;
    if (strings)
        sparse = 0;
    km_status st = km_dataset_alloc(&model->basis);
    if (st)
        return st;
    km_dataset *basis = model->basis;
    if (strings) {
        *capacity = 64;
        basis->text = km_text_alloc_array(*capacity, 1);
        basis->text_start = km_text_alloc_array(n + 1, sizeof *basis->text_start);
        if (!basis->text || !basis->text_start)
            return km_error_nomem("basis strings");
        basis->text_start[0] = 0;
    }
    basis->n = n;
    basis->d = d;
    basis->sparse = sparse;
    model->basis_kcol = km_text_alloc_array(n, sizeof *model->basis_kcol);
    if (labels)
        basis->labels = km_text_alloc_array(n, sizeof *basis->labels);
    if (ids)
        basis->ids = km_text_alloc_array(n, sizeof *basis->ids);
    if (!sparse)
        basis->X = km_text_alloc_array(n * d, sizeof *basis->X);
    if (sparse) {
        *capacity = 64;
        basis->row_start = km_text_alloc_array(n + 1, sizeof *basis->row_start);
        basis->col = km_text_alloc_array(*capacity, sizeof *basis->col);
        basis->val = km_text_alloc_array(*capacity, sizeof *basis->val);
        if (basis->row_start)
            basis->row_start[0] = 0;
    }
    if (!model->basis_kcol || (labels && !basis->labels) || (ids && !basis->ids) || (!sparse && !basis->X) ||
        (sparse && (!basis->row_start || !basis->col || !basis->val)))
        return km_error_nomem("basis rows");
    return KM_OK;
}

/* Appends one stored value of a sparse row, growing the CSR arrays. */
static km_status append_sparse(km_dataset *basis, size_t *capacity, size_t nnz, uint32_t col, double val)
{
    if (nnz == *capacity) {
        size_t grown = *capacity * 2;
        uint32_t *cols = realloc(basis->col, grown * sizeof *cols);
        if (cols)
            basis->col = cols;
        double *vals = realloc(basis->val, grown * sizeof *vals);
        if (vals)
            basis->val = vals;
        if (!cols || !vals)
            return km_error_nomem("sparse basis rows");
        *capacity = grown;
    }
    basis->col[nnz] = col;
    basis->val[nnz] = val;
    return KM_OK;
}

/* The features of sparse row i: "INDEX:VALUE" pairs, 1-based indices ascending within 1..d. */
static km_status parse_sparse_features(km_text_reader *r, km_dataset *basis, size_t i, size_t *capacity)
{
    size_t nnz = basis->row_start[i];
    km_status st = KM_OK;
    for (char *text; !st && (text = km_text_token(r)); nnz++) {
        char *colon = strchr(text, ':');
        size_t index;
        double value;
        if (!colon)
            return km_text_bad_value(r, "sparse feature", text);
        *colon = '\0';
        st = km_text_convert_size(r, "feature index", text, SIZE_MAX, &index);
        if (!st && (index == 0 || index > basis->d || (nnz > basis->row_start[i] && index - 1 <= basis->col[nnz - 1])))
            st = km_error(KM_EFORMAT, "%s:%zu: feature index %zu is not ascending within 1..%zu", r->path,
                          r->line_no, index, basis->d);
        if (!st)
            st = km_text_convert_double(r, "feature value", colon + 1, &value);
        if (!st)
            st = append_sparse(basis, capacity, nnz, (uint32_t)(index - 1), value);
    }
    basis->row_start[i + 1] = nnz;
    return st;
}

/* The rest of the line, a quoted string, as string row i. */
static km_status parse_string_row(km_text_reader *r, km_dataset *basis, size_t i, size_t *capacity)
{
    char *text;
    km_status st = km_text_parse_quoted(r, "basis string", &text);
    if (!st && !text)
        st = km_text_bad_value(r, "basis string", "none");
    if (st)
        return st;
    size_t at = basis->text_start[i], length = strlen(text);
    char *grown = km_grow(basis->text, capacity, at + length + 1, 1);
    if (!grown) {
        free(text);
        return km_error_nomem("basis strings");
    }
    basis->text = grown;
    memcpy(basis->text + at, text, length + 1);
    basis->text_start[i + 1] = at + length + 1;
    free(text);
    return KM_OK;
}

km_status km_text_parse_basis_row(km_text_reader *r, km_model *model, size_t i, size_t *capacity)
{
    km_dataset *basis = model->basis;
    km_status st = km_text_parse_size(r, "basis row column", &model->basis_kcol[i]);
    if (!st && basis->labels)
        st = km_text_parse_double(r, "basis row label", &basis->labels[i]);
    if (!st && basis->ids)
        st = km_text_parse_double(r, "basis row id", &basis->ids[i]);
    if (!st && basis->text)
        return parse_string_row(r, basis, i, capacity);
    if (!st && basis->sparse)
        st = parse_sparse_features(r, basis, i, capacity);
    for (size_t j = 0; !st && !basis->sparse && j < basis->d; j++)
        st = km_text_parse_double(r, "basis value", &basis->X[i * basis->d + j]);
    return st ? st : km_text_end_of_line(r, "the basis row");
}
