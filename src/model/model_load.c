/* km_model_load: reads and validates the text model format described in model/model.h. The header
 * and the checksum are verified on the raw bytes before the body is parsed; the body parser checks
 * every value, so a damaged or hostile file gives KM_EFORMAT and never a crash. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/locale.h"
#include "core/names.h"
#include "data/dataset.h"
#include "model/model_io.h"

/* A cursor over the lines of the body; lines are NUL-terminated in place as they are read. */
typedef struct reader {
    const char *path;
    char *next;             /* start of the next line */
    char *end;              /* end of the body: start of the checksum line */
    size_t line_no;         /* number of the current line in the file */
    char *cursor;           /* position within the current line */
} reader;

static km_status read_whole_file(const char *path, char **out, size_t *out_size)
{
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return km_error(KM_EIO, "%s: cannot read model: %s", path, strerror(errno));
    size_t size = 0, capacity = 1 << 16;
    char *buf = malloc(capacity);
    km_status st = buf ? KM_OK : km_error_nomem("a model file buffer");
    while (!st) {
        if (size == capacity) {
            char *grown = capacity <= SIZE_MAX / 2 ? realloc(buf, capacity * 2) : NULL;
            if (!grown) {
                st = km_error_nomem("a model file buffer");
                break;
            }
            buf = grown;
            capacity *= 2;
        }
        size_t got = fread(buf + size, 1, capacity - size, f);
        size += got;
        if (got == 0) {
            if (ferror(f))
                st = km_error(KM_EIO, "%s: cannot read model: %s", path, strerror(errno));
            break;
        }
    }
    fclose(f);
    if (st) {
        free(buf);
        return st;
    }
    *out = buf;
    *out_size = size;
    return KM_OK;
}

/* "kernelmix-model VERSION\n": *body is set to the second line. */
static km_status check_header(const char *path, const char *buf, size_t size, size_t *body)
{
    size_t magic = strlen(KM_MODEL_MAGIC);
    if (size <= magic || memcmp(buf, KM_MODEL_MAGIC, magic) != 0 || buf[magic] != ' ')
        return km_error(KM_EFORMAT, "%s: not a kernelmix model", path);
    size_t pos = magic + 1, digits = 0;
    unsigned long version = 0;
    for (; pos < size && buf[pos] >= '0' && buf[pos] <= '9'; pos++, digits++)
        version = version > ULONG_MAX / 10 ? ULONG_MAX : version * 10 + (unsigned long)(buf[pos] - '0');
    if (digits && version > KM_MODEL_FORMAT_VERSION)
        return km_error(KM_EFORMAT, "%s: model format version %lu is newer than this kernelmix supports (%d)", path,
                        version, KM_MODEL_FORMAT_VERSION);
    if (pos == size)
        return km_error(KM_EFORMAT, "%s: truncated", path);
    if (!digits || version == 0 || buf[pos] != '\n')
        return km_error(KM_EFORMAT, "%s:1: bad format version line", path);
    *body = pos + 1;
    return KM_OK;
}

static int lower_hex_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
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

static km_status next_line(reader *r, const char *expected)
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

/* Next blank-separated token of the current line (NUL-terminated in place), or NULL at its end. */
static char *token(reader *r)
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

static km_status required_token(reader *r, const char *what, char **out)
{
    *out = token(r);
    return *out ? KM_OK : km_error(KM_EFORMAT, "%s:%zu: missing %s", r->path, r->line_no, what);
}

static km_status end_of_line(reader *r, const char *what)
{
    char *extra = token(r);
    return extra ? km_error(KM_EFORMAT, "%s:%zu: unexpected \"%.40s\" after %s", r->path, r->line_no, extra, what)
                 : KM_OK;
}

static km_status expect_key(reader *r, const char *key)
{
    char expected[64];
    snprintf(expected, sizeof expected, "\"%s\"", key);
    km_status st = next_line(r, expected);
    if (st)
        return st;
    char *found = token(r);
    if (!found || strcmp(found, key) != 0)
        return km_error(KM_EFORMAT, "%s:%zu: expected \"%s\", found \"%.40s\"", r->path, r->line_no, key,
                        found ? found : "");
    return KM_OK;
}

/* Whether the next line starts with key (an optional line of the format). */
static int next_key_is(const reader *r, const char *key)
{
    size_t len = strlen(key);
    return (size_t)(r->end - r->next) > len && !strncmp(r->next, key, len) && r->next[len] == ' ';
}

static km_status bad_value(const reader *r, const char *what, const char *text)
{
    return km_error(KM_EFORMAT, "%s:%zu: bad %s \"%.40s\"", r->path, r->line_no, what, text);
}

/* A finite double filling the whole text. */
static km_status convert_double(const reader *r, const char *what, const char *text, double *value)
{
    char *end;
    *value = strtod(text, &end);
    if (end == text || *end || !isfinite(*value))
        return bad_value(r, what, text);
    return KM_OK;
}

/* A non-negative decimal integer filling the whole text, at most max. */
static km_status convert_size(const reader *r, const char *what, const char *text, size_t max, size_t *value)
{
    char *end;
    if (*text < '0' || *text > '9')
        return bad_value(r, what, text);
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (*end || errno == ERANGE || v > max)
        return bad_value(r, what, text);
    *value = (size_t)v;
    return KM_OK;
}

static km_status parse_double(reader *r, const char *what, double *value)
{
    char *text;
    km_status st = required_token(r, what, &text);
    return st ? st : convert_double(r, what, text, value);
}

static km_status parse_size(reader *r, const char *what, size_t *value)
{
    char *text;
    km_status st = required_token(r, what, &text);
    return st ? st : convert_size(r, what, text, SIZE_MAX, value);
}

/* An integer in [min, max]. */
static km_status parse_long(reader *r, const char *what, long min, long max, long *value)
{
    char *text, *end;
    km_status st = required_token(r, what, &text);
    if (st)
        return st;
    errno = 0;
    *value = strtol(text, &end, 10);
    if (end == text || *end || errno == ERANGE || *value < min || *value > max)
        return bad_value(r, what, text);
    return KM_OK;
}

/* A count of items that follow: each needs at least one byte of the rest of the body, so a count
 * beyond it is damage, not a reason to allocate. */
static km_status check_count(const reader *r, const char *what, size_t count)
{
    if (count > (size_t)(r->end - r->cursor))
        return km_error(KM_EFORMAT, "%s:%zu: %s %zu exceeds what the file holds", r->path, r->line_no, what, count);
    return KM_OK;
}

static km_status read_double(reader *r, const char *key, double *value)
{
    km_status st = expect_key(r, key);
    if (!st)
        st = parse_double(r, key, value);
    return st ? st : end_of_line(r, key);
}

static km_status read_size(reader *r, const char *key, size_t *value)
{
    km_status st = expect_key(r, key);
    if (!st)
        st = parse_size(r, key, value);
    return st ? st : end_of_line(r, key);
}

static km_status read_long(reader *r, const char *key, long min, long max, long *value)
{
    km_status st = expect_key(r, key);
    if (!st)
        st = parse_long(r, key, min, max, value);
    return st ? st : end_of_line(r, key);
}

static km_status read_flag(reader *r, const char *key, int *flag)
{
    long value;
    km_status st = read_long(r, key, 0, 1, &value);
    *flag = (int)value;
    return st;
}

static km_status read_name(reader *r, const char *key, const km_name *table, int *value)
{
    char *name;
    km_status st = expect_key(r, key);
    if (!st)
        st = required_token(r, key, &name);
    if (!st && !km_value_of(table, name, value))
        st = bad_value(r, key, name);
    return st ? st : end_of_line(r, key);
}

/* At least one element (malloc(0) may return NULL). */
static void *alloc_array(size_t n, size_t size) { return malloc((n ? n : 1) * size); }

/* The rest of the current line as n doubles into a new array. */
static km_status parse_doubles(reader *r, const char *what, size_t n, double **out)
{
    km_status st = check_count(r, what, n);
    if (st)
        return st;
    if (!(*out = alloc_array(n, sizeof **out)))
        return km_error_nomem(what);
    for (size_t i = 0; !st && i < n; i++)
        st = parse_double(r, what, &(*out)[i]);
    return st ? st : end_of_line(r, what);
}

static km_status read_doubles(reader *r, const char *key, size_t n, double **out)
{
    km_status st = expect_key(r, key);
    return st ? st : parse_doubles(r, key, n, out);
}

/* An exponent that may be infinite: "inf" or a number >= 1. */
static km_status read_exponent(reader *r, const char *key, double *value)
{
    char *text;
    km_status st = expect_key(r, key);
    if (!st)
        st = required_token(r, key, &text);
    if (!st && !strcmp(text, "inf"))
        *value = INFINITY;
    else if (!st)
        st = convert_double(r, key, text, value);
    if (!st && !(*value >= 1))
        st = km_error(KM_EFORMAT, "%s:%zu: %s %g is below 1", r->path, r->line_no, key, *value);
    return st ? st : end_of_line(r, key);
}

/* The kernel-weight learning: method, and for learned weights p, lambda, solver and target gap. */
static km_status read_mkl(reader *r, km_mkl_params *mkl)
{
    int method = 0, solver = 0;
    km_status st = read_name(r, "mkl", km_mkl_method_names, &method);
    mkl->method = (km_mkl_method)method;
    mkl->p = mkl->p_block = 0;
    if (st || mkl->method == KM_MKL_FIXED)
        return st;
    st = read_exponent(r, "mkl_p_block", &mkl->p_block);
    if (!st)
        st = read_double(r, "mkl_lambda", &mkl->lambda);
    if (!st)
        st = read_name(r, "mkl_solver", km_mkl_solver_names, &solver);
    mkl->solver = (km_mkl_solver)solver;
    if (!st)
        st = read_double(r, "mkl_gap", &mkl->gap);
    int regularizer = 0;
    mkl->reg_param = 0;
    if (!st && mkl->method == KM_MKL_TIKHONOV)
        st = read_name(r, "mkl_regularizer", km_mkl_regularizer_names, &regularizer);
    mkl->regularizer = (km_mkl_regularizer)regularizer;
    if (!st && mkl->method == KM_MKL_TIKHONOV && (mkl->regularizer == KM_REG_LQ || mkl->regularizer == KM_REG_BLOCKP))
        st = read_exponent(r, "mkl_reg_param", &mkl->reg_param);
    mkl->shared_weights = 0;
    if (!st && next_key_is(r, "mkl_shared_weights"))
        st = read_flag(r, "mkl_shared_weights", &mkl->shared_weights);
    /* the kernel-weight norm p = p_block/(2 - p_block) exists for p_block <= 2 */
    if (!st)
        mkl->p = mkl->p_block < 2 ? mkl->p_block / (2 - mkl->p_block) : mkl->p_block == 2 ? INFINITY : NAN;
    return st;
}

static km_status read_parameters(reader *r, km_model *model, size_t *n_kernels, size_t *dimension)
{
    int task = 0, multiclass = 0;
    km_status st = read_name(r, "task", km_task_names, &task);
    if (!st)
        st = read_name(r, "multiclass", km_multiclass_names, &multiclass);
    model->task = (km_task)task;
    model->multiclass = (km_multiclass)multiclass;
    if (!st)
        st = read_double(r, "C", &model->C);
    if (!st)
        st = read_double(r, "epsilon", &model->epsilon);
    if (!st)
        st = read_double(r, "nu", &model->nu);
    if (!st)
        st = read_double(r, "tolerance", &model->tolerance);
    if (!st)
        st = read_mkl(r, &model->mkl);
    if (!st)
        st = read_size(r, "n_train", &model->n_train);
    if (!st)
        st = read_size(r, "n_classes", &model->n_classes);
    if (!st)
        st = expect_key(r, "labels");
    if (!st && model->n_classes)
        st = parse_doubles(r, "labels", model->n_classes, &model->labels);
    else if (!st)
        st = end_of_line(r, "labels");
    if (!st)
        st = read_size(r, "n_kernels", n_kernels);
    if (!st && *n_kernels == 0)
        st = km_error(KM_EFORMAT, "%s:%zu: a model needs at least one kernel", r->path, r->line_no);
    if (!st)
        st = check_count(r, "n_kernels", *n_kernels);
    if (!st)
        st = read_size(r, "kernel_dimension", dimension);
    if (!st)
        st = read_size(r, "n_machines", &model->n_machines);
    if (!st)
        st = check_count(r, "n_machines", model->n_machines);
    return st;
}

/* "features all" or "features COUNT i_1 .. i_COUNT", 1-based strictly ascending indices within the
 * kernel set's dimension (when known). */
static km_status read_features(reader *r, km_kernel *k, size_t dimension)
{
    char *text;
    km_status st = expect_key(r, "features");
    if (!st)
        st = required_token(r, "features", &text);
    if (st || !strcmp(text, "all"))
        return st ? st : end_of_line(r, "features");
    size_t n;
    if ((st = convert_size(r, "feature count", text, SIZE_MAX, &n)))
        return st;
    if (n == 0)
        return bad_value(r, "feature count", text);
    if ((st = check_count(r, "feature count", n)))
        return st;
    if (!(k->features = alloc_array(n, sizeof *k->features)))
        return km_error_nomem("a feature list");
    k->n_features = n;
    size_t max = dimension ? dimension : (size_t)UINT32_MAX + 1;
    for (size_t i = 0; !st && i < n; i++) {
        size_t index;
        st = parse_size(r, "feature index", &index);
        if (!st && (index == 0 || index > max || (i > 0 && index - 1 <= k->features[i - 1])))
            st = km_error(KM_EFORMAT, "%s:%zu: feature index %zu is not ascending within 1..%zu", r->path,
                          r->line_no, index, max);
        if (!st)
            k->features[i] = (uint32_t)(index - 1);
    }
    return st ? st : end_of_line(r, "features");
}

/* 'file none' or 'file "NAME"' with the escapes \\ \" \xHH. */
static km_status read_file_name(reader *r, char **out)
{
    km_status st = expect_key(r, "file");
    if (st)
        return st;
    while (*r->cursor == ' ')
        r->cursor++;
    if (!strcmp(r->cursor, "none"))
        return KM_OK;
    const char *c = r->cursor;
    if (*c++ != '"')
        return bad_value(r, "file name", r->cursor);
    char *name = malloc(strlen(c) + 1), *dst = name;
    if (!name)
        return km_error_nomem("a file name");
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
        free(name);
        return bad_value(r, "file name", r->cursor);
    }
    *out = name;
    return KM_OK;
}

static km_status read_kernel_body(reader *r, km_kernel *k, size_t dimension)
{
    int type = 0, gamma_mode = 0, norm = 0;
    km_status st = read_name(r, "type", km_kernel_type_names, &type);
    k->type = (km_kernel_type)type;
    if (!st)
        st = read_double(r, "gamma", &k->gamma);
    if (!st)
        st = read_name(r, "gamma_mode", km_gamma_mode_names, &gamma_mode);
    k->gamma_mode = (km_gamma_mode)gamma_mode;
    if (!st)
        st = read_double(r, "coef0", &k->coef0);
    if (!st)
        st = read_double(r, "degree", &k->degree);
    if (!st)
        st = read_features(r, k, dimension);
    if (!st)
        st = read_name(r, "norm", km_normalization_names, &norm);
    k->norm = (km_normalization)norm;
    if (!st)
        st = read_flag(r, "center", &k->center);
    if (!st)
        st = read_file_name(r, &k->file);
    if (!st)
        st = read_flag(r, "fitted", &k->fitted);
    if (!st)
        st = read_double(r, "scale", &k->scale);
    if (!st)
        st = read_double(r, "mean_all", &k->mean_all);
    if (!st)
        st = read_size(r, "n_train", &k->n_train);
    if (!st)
        st = expect_key(r, "col_mean");
    if (st || !strcmp(r->cursor + strspn(r->cursor, " \t"), "none"))
        return st;
    return parse_doubles(r, "col_mean", k->n_train, &k->col_mean);
}

/* "NAME INDEX" opening block number expected (kernel m, machine p). */
static km_status read_block_start(reader *r, const char *key, size_t expected)
{
    size_t index;
    km_status st = read_size(r, key, &index);
    if (!st && index != expected)
        st = km_error(KM_EFORMAT, "%s:%zu: %s %zu where %s %zu was expected", r->path, r->line_no, key, index, key,
                      expected);
    return st;
}

static km_status read_kernels(reader *r, km_model *model, size_t n_kernels, size_t dimension)
{
    km_status st = km_kernel_set_new(&model->kernels);
    if (st)
        return st;
    model->kernels->dimension = dimension;
    for (size_t m = 0; !st && m < n_kernels; m++) {
        km_kernel k = {0};
        st = read_block_start(r, "kernel", m);
        if (!st)
            st = read_kernel_body(r, &k, dimension);
        if (!st)
            st = km_kernel_set_append(model->kernels, &k);
        if (st)
            km_kernel_clear(&k);
    }
    return st;
}

static km_status read_support_vectors(reader *r, km_machine *machine)
{
    km_status st = read_size(r, "n_sv", &machine->n_sv);
    if (!st)
        st = check_count(r, "n_sv", machine->n_sv);
    if (st)
        return st;
    machine->sv = alloc_array(machine->n_sv, sizeof *machine->sv);
    machine->coef = alloc_array(machine->n_sv, sizeof *machine->coef);
    if (!machine->sv || !machine->coef)
        return km_error_nomem("support vectors");
    for (size_t j = 0; !st && j < machine->n_sv; j++) {
        st = next_line(r, "a support vector");
        if (!st)
            st = parse_size(r, "support vector index", &machine->sv[j]);
        if (!st)
            st = parse_double(r, "support vector coefficient", &machine->coef[j]);
        if (!st)
            st = end_of_line(r, "support vector coefficient");
    }
    return st;
}

static km_status read_machines(reader *r, km_model *model)
{
    if (!(model->machines = calloc(model->n_machines ? model->n_machines : 1, sizeof *model->machines)))
        return km_error_nomem("machines");
    km_status st = KM_OK;
    for (size_t p = 0; !st && p < model->n_machines; p++) {
        km_machine *machine = &model->machines[p];
        long iterations = 0, class_pos = 0, class_neg = 0;
        st = read_block_start(r, "machine", p);
        if (!st)
            st = read_doubles(r, "theta", model->kernels->size, &machine->theta);
        if (!st)
            st = read_double(r, "bias", &machine->bias);
        if (!st)
            st = read_double(r, "objective", &machine->objective);
        if (!st)
            st = read_long(r, "iterations", 0, LONG_MAX, &iterations);
        if (!st)
            st = read_flag(r, "converged", &machine->converged);
        machine->primal = machine->gap = NAN;
        if (!st && model->mkl.method != KM_MKL_FIXED) {
            st = read_double(r, "primal", &machine->primal);
            if (!st)
                st = read_double(r, "gap", &machine->gap);
            if (!st)
                st = read_long(r, "mkl_iterations", 0, LONG_MAX, &machine->mkl_iterations);
            if (!st && next_key_is(r, "block_norms"))
                st = read_doubles(r, "block_norms", model->kernels->size, &machine->block_norms);
        }
        if (!st)
            st = read_long(r, "class_pos", -1, INT_MAX, &class_pos);
        if (!st)
            st = read_long(r, "class_neg", -1, INT_MAX, &class_neg);
        machine->iterations = iterations;
        machine->class_pos = (int)class_pos;
        machine->class_neg = (int)class_neg;
        if (!st)
            st = read_support_vectors(r, machine);
    }
    return st;
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
static km_status read_sparse_features(reader *r, km_dataset *basis, size_t i, size_t *capacity)
{
    size_t nnz = basis->row_start[i];
    km_status st = KM_OK;
    for (char *text; !st && (text = token(r)); nnz++) {
        char *colon = strchr(text, ':');
        size_t index;
        double value;
        if (!colon)
            return bad_value(r, "sparse feature", text);
        *colon = '\0';
        st = convert_size(r, "feature index", text, SIZE_MAX, &index);
        if (!st && (index == 0 || index > basis->d || (nnz > basis->row_start[i] && index - 1 <= basis->col[nnz - 1])))
            st = km_error(KM_EFORMAT, "%s:%zu: feature index %zu is not ascending within 1..%zu", r->path,
                          r->line_no, index, basis->d);
        if (!st)
            st = convert_double(r, "feature value", colon + 1, &value);
        if (!st)
            st = append_sparse(basis, capacity, nnz, (uint32_t)(index - 1), value);
    }
    basis->row_start[i + 1] = nnz;
    return st;
}

static km_status read_basis_rows(reader *r, km_model *model)
{
    km_dataset *basis = model->basis;
    size_t capacity = 64;
    if (basis->sparse) {
        basis->row_start = alloc_array(basis->n + 1, sizeof *basis->row_start);
        basis->col = alloc_array(capacity, sizeof *basis->col);
        basis->val = alloc_array(capacity, sizeof *basis->val);
        if (!basis->row_start || !basis->col || !basis->val)
            return km_error_nomem("sparse basis rows");
        basis->row_start[0] = 0;
    }
    km_status st = KM_OK;
    for (size_t i = 0; !st && i < basis->n; i++) {
        st = next_line(r, "a basis row");
        if (!st)
            st = parse_size(r, "basis row column", &model->basis_kcol[i]);
        if (!st && basis->labels)
            st = parse_double(r, "basis row label", &basis->labels[i]);
        if (!st && basis->ids)
            st = parse_double(r, "basis row id", &basis->ids[i]);
        if (!st && basis->sparse)
            st = read_sparse_features(r, basis, i, &capacity);
        for (size_t j = 0; !st && !basis->sparse && j < basis->d; j++)
            st = parse_double(r, "basis value", &basis->X[i * basis->d + j]);
        if (!st)
            st = end_of_line(r, "the basis row");
    }
    return st;
}

static km_status read_basis(reader *r, km_model *model)
{
    size_t n, d;
    int sparse = 0, has_labels = 0, has_ids = 0;
    static const km_name storage_names[] = {{0, "dense"}, {1, "sparse"}, {0, NULL}};
    km_status st = read_size(r, "basis_rows", &n);
    if (!st)
        st = check_count(r, "basis_rows", n);
    if (!st)
        st = read_size(r, "basis_dim", &d);
    if (!st)
        st = read_name(r, "basis_storage", storage_names, &sparse);
    /* dense rows hold n*d values; sparse column indices are 32-bit */
    if (!st && !sparse && n && (d > (size_t)(r->end - r->cursor) / n))
        st = km_error(KM_EFORMAT, "%s:%zu: %zu x %zu dense basis exceeds what the file holds", r->path, r->line_no,
                      n, d);
    if (!st && sparse && d > (size_t)UINT32_MAX + 1)
        st = km_error(KM_EFORMAT, "%s:%zu: sparse basis_dim %zu is beyond 2^32", r->path, r->line_no, d);
    if (!st)
        st = read_flag(r, "basis_labels", &has_labels);
    if (!st)
        st = read_flag(r, "basis_ids", &has_ids);
    if (!st)
        st = km_dataset_alloc(&model->basis);
    if (st)
        return st;
    km_dataset *basis = model->basis;
    basis->n = n;
    basis->d = d;
    basis->sparse = sparse;
    model->basis_kcol = alloc_array(n, sizeof *model->basis_kcol);
    if (has_labels)
        basis->labels = alloc_array(n, sizeof *basis->labels);
    if (has_ids)
        basis->ids = alloc_array(n, sizeof *basis->ids);
    if (!sparse)
        basis->X = alloc_array(n * d, sizeof *basis->X);
    if (!model->basis_kcol || (has_labels && !basis->labels) || (has_ids && !basis->ids) || (!sparse && !basis->X))
        return km_error_nomem("basis rows");
    return read_basis_rows(r, model);
}

/* The optional centred alignments of the kernels with the labels (M) and with each other (M x M). */
static km_status read_alignments(reader *r, km_model *model)
{
    size_t M = model->kernels->size;
    km_status st = KM_OK;
    if (next_key_is(r, "target_alignment"))
        st = read_doubles(r, "target_alignment", M, &model->target_alignment);
    if (!st && next_key_is(r, "kernel_alignment"))
        st = read_doubles(r, "kernel_alignment", M * M, &model->kernel_alignment);
    return st;
}

static km_status read_body(reader *r, km_model *model)
{
    size_t n_kernels, dimension;
    km_status st = read_parameters(r, model, &n_kernels, &dimension);
    if (!st)
        st = read_kernels(r, model, n_kernels, dimension);
    if (!st)
        st = read_alignments(r, model);
    if (!st)
        st = read_machines(r, model);
    if (!st)
        st = read_basis(r, model);
    if (!st && r->next < r->end)
        st = km_error(KM_EFORMAT, "%s:%zu: unexpected text after the basis rows", r->path, r->line_no + 1);
    return st;
}

km_status km_model_load(const char *path, km_model **out)
{
    *out = NULL;
    char *buf;
    size_t size = 0, body = 0, body_end = 0;
    km_status st = read_whole_file(path, &buf, &size);
    if (st)
        return st;
    if (memchr(buf, '\0', size))
        st = km_error(KM_EFORMAT, "%s: not a kernelmix model (contains NUL bytes)", path);
    if (!st)
        st = check_header(path, buf, size, &body);
    if (!st)
        st = check_checksum(path, buf, size, body, &body_end);
    km_numeric_locale locale;
    if (!st && !(st = km_numeric_locale_enter(&locale))) {
        km_model *model = NULL;
        reader r = {.path = path, .next = buf + body, .end = buf + body_end, .line_no = 1};
        st = km_model_alloc(&model);
        if (!st)
            st = read_body(&r, model);
        if (!st)
            st = km_model_check(model, path, KM_EFORMAT);
        if (st)
            km_model_free(model);
        else
            *out = model;
        km_numeric_locale_leave(&locale);
    }
    free(buf);
    return st;
}
