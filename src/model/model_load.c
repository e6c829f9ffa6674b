/* km_model_load and km_model_load_buffer: the header and checksum are verified on the raw bytes, then
 * the body is read by the reader of its version: model_load_v1.c for version 1, here for version 2
 * (model/model_io.h). The version-2 body is first split into sections and keyed lines without
 * touching a value, then each known section's keys are read wherever they stand; unknown optional
 * keys and sections are skipped with their blocks. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/locale.h"
#include "data/text_input.h"
#include "mkl/method.h"
#include "mkl/mkl_names.h"
#include "model/model_io.h"

/* A keyed line of a section; a block's rows follow its line. */
typedef struct entry {
    const char *key;
    size_t key_len;
    char *line;
    size_t line_no;
    int used;
} entry;

typedef struct section {
    const char *name, *arg;     /* "[NAME ARG]"; arg NULL when absent */
    size_t name_len, arg_len;
    size_t line_no;
    size_t first, count;        /* its entries */
} section;

typedef struct layout {
    km_text_reader *r;
    section *sections;
    size_t n_sections;
    entry *entries;
    size_t n_entries;
    char label[96];             /* "[kernel 3]", for messages */
} layout;

static size_t word_length(const char *s) { return strcspn(s, " \t\n"); }

static int word_is(const char *word, size_t len, const char *text)
{
    return len == strlen(text) && !memcmp(word, text, len);
}

static km_status grow(void **array, size_t n, size_t size)
{
    if (n & (n - 1))    /* grows at powers of two */
        return KM_OK;
    void *grown = realloc(*array, (n ? 2 * n : 1) * size);
    if (!grown)
        return km_error_nomem("a model's layout");
    *array = grown;
    return KM_OK;
}

/* "[NAME]" or "[NAME ARG]" (line without its newline, length len). */
static km_status add_section(layout *l, char *line, size_t len, size_t line_no)
{
    km_status st = grow((void **)&l->sections, l->n_sections, sizeof *l->sections);
    if (st)
        return st;
    section *s = &l->sections[l->n_sections];
    *s = (section){.name = line + 1, .line_no = line_no, .first = l->n_entries};
    s->name_len = strcspn(s->name, " ]\n");
    const char *after = s->name + s->name_len;
    if (*after == ' ') {
        s->arg = after + 1;
        s->arg_len = strcspn(s->arg, " ]\n");
        after = s->arg + s->arg_len;
    }
    if (s->name_len == 0 || (s->arg && s->arg_len == 0) || *after != ']' || (size_t)(after - line) + 1 != len)
        return km_error(KM_EFORMAT, "%s:%zu: bad section line \"%.*s\"", l->r->path, line_no,
                        (int)(len < 40 ? len : 40), line);   /* lines are not terminated yet */
    l->n_sections++;
    return KM_OK;
}

/* Splits the body into sections and keyed lines; a "KEY rows N" line's N rows are passed over. */
static km_status split(layout *l)
{
    km_text_reader *r = l->r;
    size_t line_no = r->line_no;
    for (char *line = r->next; line < r->end;) {
        char *newline = memchr(line, '\n', (size_t)(r->end - line));
        size_t len = (size_t)(newline - line);
        line_no++;
        km_status st;
        if (*line == '[') {
            st = add_section(l, line, len, line_no);
        } else if (!l->n_sections || len == 0 || *line == ' ' || *line == '\t') {
            st = km_error(KM_EFORMAT, "%s:%zu: %s", r->path, line_no,
                          l->n_sections ? "expected \"KEY VALUE\"" : "expected a section line \"[model]\"");
        } else if (!(st = grow((void **)&l->entries, l->n_entries, sizeof *l->entries))) {
            entry *e = &l->entries[l->n_entries++];
            *e = (entry){.key = line, .key_len = word_length(line), .line = line, .line_no = line_no};
            l->sections[l->n_sections - 1].count++;
            const char *second = line + e->key_len + strspn(line + e->key_len, " \t");
            if (word_is(second, word_length(second), "rows")) {
                const char *digits = second + 4 + strspn(second + 4, " \t");
                char *end;
                errno = 0;
                unsigned long long rows = strtoull(digits, &end, 10);
                if (*digits < '0' || *digits > '9' || errno == ERANGE || end == digits)
                    st = km_error(KM_EFORMAT, "%s:%zu: bad row count", r->path, line_no);
                for (unsigned long long k = 0; !st && k < rows; k++) {
                    if (newline + 1 >= r->end)
                        st = km_error(KM_EFORMAT, "%s:%zu: %llu rows announced, the model ends after %llu",
                                      r->path, e->line_no, rows, k);
                    else
                        newline = memchr(newline + 1, '\n', (size_t)(r->end - newline - 1));
                    line_no++;
                }
            }
        }
        if (st)
            return st;
        line = newline + 1;
    }
    return KM_OK;
}

static const char *label(layout *l, const section *s)
{
    if (s->arg)
        snprintf(l->label, sizeof l->label, "[%.*s %.*s]", (int)(s->name_len > 40 ? 40 : s->name_len), s->name,
                 (int)(s->arg_len > 40 ? 40 : s->arg_len), s->arg);
    else
        snprintf(l->label, sizeof l->label, "[%.*s]", (int)(s->name_len > 40 ? 40 : s->name_len), s->name);
    return l->label;
}

/* Makes the line of key in section s current, past the key; *found = 0 when s has no such key
 * (KM_EFORMAT when it is required). */
static km_status open_key(layout *l, const section *s, const char *key, int required, int *found)
{
    entry *match = NULL;
    for (size_t k = s->first; k < s->first + s->count; k++) {
        entry *e = &l->entries[k];
        if (!word_is(e->key, e->key_len, key))
            continue;
        if (match)
            return km_error(KM_EFORMAT, "%s:%zu: %s has \"%s\" twice", l->r->path, e->line_no, label(l, s), key);
        match = e;
    }
    *found = match != NULL;
    if (!match)
        return required ? km_error(KM_EFORMAT, "%s:%zu: %s has no \"%s\"", l->r->path, s->line_no, label(l, s), key)
                        : KM_OK;
    match->used = 1;
    l->r->next = match->line;
    l->r->line_no = match->line_no - 1;
    km_status st = km_text_next_line(l->r, key);
    km_text_token(l->r);
    return st;
}

static km_status get_double(layout *l, const section *s, const char *key, double *value)
{
    int found;
    km_status st = open_key(l, s, key, 1, &found);
    if (!st)
        st = km_text_parse_double(l->r, key, value);
    return st ? st : km_text_end_of_line(l->r, key);
}

static km_status get_size(layout *l, const section *s, const char *key, size_t *value)
{
    int found;
    km_status st = open_key(l, s, key, 1, &found);
    if (!st)
        st = km_text_parse_size(l->r, key, value);
    return st ? st : km_text_end_of_line(l->r, key);
}

/* An integer in [min, max]; when optional and absent, *value is left as it is. */
static km_status get_long(layout *l, const section *s, const char *key, int required, long min, long max,
                          long *value)
{
    int found;
    km_status st = open_key(l, s, key, required, &found);
    if (!st && found)
        st = km_text_parse_long(l->r, key, min, max, value);
    return st || !found ? st : km_text_end_of_line(l->r, key);
}

static km_status get_flag(layout *l, const section *s, const char *key, int required, int *flag)
{
    long value = *flag;
    km_status st = get_long(l, s, key, required, 0, 1, &value);
    *flag = (int)value;
    return st;
}

static km_status get_name(layout *l, const section *s, const char *key, const km_name *table, int *value)
{
    int found;
    km_status st = open_key(l, s, key, 1, &found);
    return st ? st : km_text_parse_name(l->r, key, table, value);
}

/* An optional number; when absent, *value is left as it is. */
static km_status get_optional_double(layout *l, const section *s, const char *key, double *value)
{
    int found;
    km_status st = open_key(l, s, key, 0, &found);
    if (!st && found)
        st = km_text_parse_double(l->r, key, value);
    return st || !found ? st : km_text_end_of_line(l->r, key);
}

/* Exactly n doubles; optional ones may be absent (*out stays NULL). */
static km_status get_doubles(layout *l, const section *s, const char *key, int required, size_t n, double **out)
{
    int found;
    km_status st = open_key(l, s, key, required, &found);
    return st || !found ? st : km_text_parse_doubles(l->r, key, n, out);
}

/* "KEY rows N": *rows = N, the reader before the first row. */
static km_status open_block(layout *l, const section *s, const char *key, size_t *rows)
{
    int found;
    char *word;
    km_status st = open_key(l, s, key, 1, &found);
    if (!st)
        st = km_text_required_token(l->r, "rows", &word);   /* "rows", as split() saw */
    if (!st)
        st = km_text_parse_size(l->r, "row count", rows);
    return st;
}

/* Refuses required content this reader does not know: keys and sections starting with '!'. */
static km_status check_unknown_keys(layout *l, const section *s)
{
    for (size_t k = s->first; k < s->first + s->count; k++) {
        const entry *e = &l->entries[k];
        if (!e->used && *e->key == '!')
            return km_error(KM_EFORMAT, "%s:%zu: %s requires \"%.*s\", which this kernelmix does not know",
                            l->r->path, e->line_no, label(l, s), (int)(e->key_len > 40 ? 40 : e->key_len), e->key);
    }
    return KM_OK;
}

static km_status read_model_section(layout *l, const section *s, km_model *model, size_t *n_kernels,
                                    size_t *dimension)
{
    int task = 0, multiclass = 0, found;
    km_status st = get_name(l, s, "task", km_task_names, &task);
    if (!st)
        st = get_name(l, s, "multiclass", km_multiclass_names, &multiclass);
    model->task = (km_task)task;
    model->multiclass = (km_multiclass)multiclass;
    if (!st)
        st = get_double(l, s, "C", &model->C);
    if (!st)
        st = get_double(l, s, "epsilon", &model->epsilon);
    if (!st)
        st = get_double(l, s, "nu", &model->nu);
    if (!st)
        st = get_double(l, s, "tolerance", &model->tolerance);
    if (!st)
        st = get_size(l, s, "n_train", &model->n_train);
    if (!st)
        st = open_key(l, s, "labels", 1, &found);
    if (!st && !km_text_rest_is_none(l->r))
        st = km_text_parse_double_list(l->r, "labels", &model->n_classes, &model->labels);
    if (!st)
        st = get_size(l, s, "n_kernels", n_kernels);
    if (!st)
        st = get_size(l, s, "kernel_dimension", dimension);
    if (!st)
        st = get_size(l, s, "n_machines", &model->n_machines);
    long groups = 1;
    if (!st)
        st = get_long(l, s, "weight_groups", 0, 1, LONG_MAX, &groups);
    model->weight_groups = (size_t)groups;
    /* every kernel and machine has a section of its own */
    if (!st && (*n_kernels == 0 || *n_kernels > l->n_sections || model->n_machines > l->n_sections))
        st = km_error(KM_EFORMAT, "%s:%zu: %zu kernels and %zu machines, in a model of %zu sections", l->r->path,
                      s->line_no, *n_kernels, model->n_machines, l->n_sections);
    return st;
}

/* The keys version-2 files wrote for parameters whose names differ. */
static const struct {
    const char *key, *name;
} v2_keys[] = {{"solver", "mkl_solver"}, {"gap", "mkl_gap"}, {"radius", "mkl_radius"}, {"eta", "l2krr_eta"}};

/* The kernel-weight parameter a key of [mkl] names; NULL for a key this kernelmix does not know. */
static const km_param_row *mkl_param_of(const entry *e)
{
    const char *name = NULL;
    for (size_t k = 0; k < sizeof v2_keys / sizeof *v2_keys; k++)
        if (word_is(e->key, e->key_len, v2_keys[k].key))
            name = v2_keys[k].name;
    size_t count;
    const km_param_row *rows = km_mkl_params_rows(&count);
    for (size_t k = 0; k < count; k++)
        if (name ? !strcmp(rows[k].name, name) : word_is(e->key, e->key_len, rows[k].name))
            return &rows[k];
    return NULL;
}

/* One parameter's value, checked against its row as km_params_set_text checks it. */
static km_status read_mkl_param(layout *l, const section *s, entry *e, const km_param_row *row, km_mkl_params *mkl)
{
    char key[64], as[sizeof key + 160];
    snprintf(key, sizeof key, "%.*s", (int)(e->key_len < sizeof key ? e->key_len : sizeof key - 1), e->key);
    int found;
    char *text;
    km_status st = open_key(l, s, key, 1, &found);
    if (!st)
        st = km_text_required_token(l->r, key, &text);
    double real;
    int64_t integer;
    snprintf(as, sizeof as, "%s:%zu: %s %s", l->r->path, e->line_no, label(l, s), key);
    if (!st && km_param_row_parse(row, as, text, 1, &real, &integer)) {
        char message[512];
        snprintf(message, sizeof message, "%s", km_last_error());
        return km_error(KM_EFORMAT, "%s", message);
    }
    if (st || (st = km_text_end_of_line(l->r, key)))
        return st;
    if (row->flags & KM_PARAM_INTEGER)
        km_param_row_write_int(row, mkl, integer);
    else
        km_param_row_write(row, mkl, real);
    return KM_OK;
}

double km_model_p_of_block(double p_block)
{
    return p_block < 2 ? p_block / (2 - p_block) : p_block == 2 ? INFINITY : NAN;
}

/* [mkl]: the method, then its parameters by name (the others keep their defaults); p follows from
 * p_block, which every version stores. */
static km_status read_mkl_section(layout *l, const section *s, km_mkl_params *mkl)
{
    int method = 0;
    km_status st = get_name(l, s, "method", km_mkl_method_name_table(), &method);
    if (st)
        return st;
    *mkl = km_mkl_params_default();
    mkl->method = (km_mkl_method)method;
    if (!(km_mkl_method_flags(mkl->method) & KM_METHOD_LEARNS_WEIGHTS))
        return km_error(KM_EFORMAT, "%s:%zu: [mkl] with fixed weights", l->r->path, s->line_no);
    for (size_t k = s->first; !st && k < s->first + s->count; k++) {
        const km_param_row *row = mkl_param_of(&l->entries[k]);
        if (row)
            st = read_mkl_param(l, s, &l->entries[k], row, mkl);
    }
    mkl->p = km_model_p_of_block(mkl->p_block);
    return st;
}

/* "[ROWS] COLS values...": ROWS x COLS values, ROWS read when read_rows is set. */
static km_status read_matrix_values(layout *l, const char *key, int read_rows, size_t *rows, size_t *cols,
                                    double **values)
{
    km_status st = read_rows ? km_text_parse_size(l->r, key, rows) : KM_OK;
    if (!st)
        st = km_text_parse_size(l->r, key, cols);
    if (!st && *cols && *rows > SIZE_MAX / *cols)
        st = km_error(KM_EFORMAT, "%s:%zu: %s of %zu x %zu values overflow", l->r->path, l->r->line_no, key, *rows, *cols);
    return st ? st : km_text_parse_doubles(l->r, key, *rows * *cols, values);
}

/* "landmarks same K": a copy of the landmark rows of the earlier kernel K of set. */
static km_status same_landmarks(layout *l, const km_kernel_set *set, km_kernel *k)
{
    size_t g;
    km_status st = km_text_parse_size(l->r, "landmarks same", &g);
    if (!st && !(g < set->size && set->kernels[g].landmarks))
        st = km_error(KM_EFORMAT, "%s:%zu: landmarks same %zu: no earlier low-rank kernel %zu", l->r->path,
                      l->r->line_no, g, g);
    if (st)
        return st;
    const km_kernel *from = &set->kernels[g];
    size_t values = from->n_landmarks * from->landmark_dim;
    if (!(k->landmarks = malloc((values ? values : 1) * sizeof *k->landmarks)))
        return km_error_nomem("landmark rows");
    memcpy(k->landmarks, from->landmarks, values * sizeof *k->landmarks);
    k->n_landmarks = from->n_landmarks;
    k->landmark_dim = from->landmark_dim;
    return km_text_end_of_line(l->r, "landmarks same");
}

/* rank, and the Nystrom map of a fitted low-rank kernel (kernel/family_nystrom.c); set: the kernels read
 * before it. */
static km_status read_nystrom_map(layout *l, const section *s, const km_kernel_set *set, km_kernel *k)
{
    long rank = 0;
    int found;
    km_status st = get_long(l, s, "rank", 0, 1, KM_KERNEL_MAX_RANK, &rank);
    k->rank = (size_t)rank;
    if (!st)
        st = open_key(l, s, "icd", 0, &found);
    if (!st && found)
        st = km_text_parse_double(l->r, "icd", &k->icd_tolerance);
    if (!st && found)
        st = km_text_end_of_line(l->r, "icd");
    if (!st && found && !(k->rank && k->icd_tolerance > 0 && k->icd_tolerance < 1))
        st = km_error(KM_EFORMAT, "%s:%zu: icd %g is not a tolerance in (0, 1) of a low-rank kernel", l->r->path,
                      l->r->line_no, k->icd_tolerance);
    int sampling = KM_LANDMARKS_UNIFORM;
    if (!st)
        st = open_key(l, s, "sampling", 0, &found);
    if (!st && found)
        st = km_text_parse_name(l->r, "sampling", km_landmark_sampling_names, &sampling);
    if (!st && found && (!k->rank || k->icd_tolerance > 0))
        st = km_error(KM_EFORMAT, "%s:%zu: a landmark sampling belongs to a low-rank kernel without icd", l->r->path,
                      l->r->line_no);
    k->landmark_sampling = (km_landmark_sampling)sampling;
    if (!st && k->rank)
        st = open_key(l, s, "landmarks", k->fitted, &found);
    if (st || !k->rank || !found)
        return st;
    const char *rest = l->r->cursor + strspn(l->r->cursor, " \t");
    if (strncmp(rest, "same", 4) == 0 && (rest[4] == ' ' || rest[4] == '\t')) {
        km_text_token(l->r);
        st = same_landmarks(l, set, k);
    } else {
        st = read_matrix_values(l, "landmarks", 1, &k->n_landmarks, &k->landmark_dim, &k->landmarks);
    }
    if (!st)
        st = open_key(l, s, "projection", 1, &found);
    return st ? st : read_matrix_values(l, "projection", 0, &k->n_landmarks, &k->rank_kept, &k->projection);
}

static km_status read_kernel_section(layout *l, const section *s, const km_kernel_set *set, km_kernel *k,
                                     size_t dimension)
{
    int type = 0, gamma_mode = 0, norm = 0, found;
    km_status st = get_name(l, s, "type", km_kernel_type_names, &type);
    k->type = (km_kernel_type)type;
    if (!st)
        st = get_double(l, s, "gamma", &k->gamma);
    if (!st)
        st = get_name(l, s, "gamma_mode", km_gamma_mode_names, &gamma_mode);
    k->gamma_mode = (km_gamma_mode)gamma_mode;
    if (!st)
        st = get_double(l, s, "coef0", &k->coef0);
    if (!st)
        st = get_double(l, s, "degree", &k->degree);
    long kmer = 0, shift = 0;
    if (!st)
        st = get_long(l, s, "k", k->type == KM_KERNEL_SPECTRUM, 1, 1024, &kmer);
    if (!st)
        st = get_long(l, s, "shift", 0, 0, 1024, &shift);
    k->kmer = (size_t)kmer;
    k->shift = (size_t)shift;
    if (!st)
        st = open_key(l, s, "features", 1, &found);
    if (!st)
        st = km_text_parse_features(l->r, k, dimension);
    if (!st)
        st = get_name(l, s, "norm", km_normalization_names, &norm);
    k->norm = (km_normalization)norm;
    if (!st)
        st = get_flag(l, s, "center", 1, &k->center);
    if (!st)
        st = open_key(l, s, "file", 1, &found);
    if (!st)
        st = km_text_parse_quoted(l->r, "file name", &k->file);
    if (!st)
        st = get_flag(l, s, "fitted", 1, &k->fitted);
    if (!st)
        st = get_double(l, s, "scale", &k->scale);
    if (!st)
        st = get_double(l, s, "mean_all", &k->mean_all);
    if (!st)
        st = open_key(l, s, "col_mean", 1, &found);
    if (!st && !km_text_rest_is_none(l->r))
        st = km_text_parse_double_list(l->r, "col_mean", &k->n_train, &k->col_mean);
    if (!st)
        st = read_nystrom_map(l, s, set, k);
    return st ? st : check_unknown_keys(l, s);
}

static km_status read_support_vectors(layout *l, const section *s, km_machine *machine, size_t outputs)
{
    km_status st = open_block(l, s, "support_vectors", &machine->n_sv);
    if (!st)
        st = km_text_end_of_line(l->r, "the row count");
    /* every row holds its outputs' coefficients */
    if (!st && machine->n_sv && outputs > (size_t)(l->r->end - l->r->next) / machine->n_sv)
        st = km_error(KM_EFORMAT, "%s:%zu: %zu support vectors of %zu outputs exceed what the file holds",
                      l->r->path, l->r->line_no, machine->n_sv, outputs);
    if (st)
        return st;
    machine->sv = km_text_alloc_array(machine->n_sv, sizeof *machine->sv);
    machine->coef = km_text_alloc_array(machine->n_sv * outputs, sizeof *machine->coef);
    if (!machine->sv || !machine->coef)
        return km_error_nomem("support vectors");
    for (size_t j = 0; !st && j < machine->n_sv; j++) {
        st = km_text_next_line(l->r, "a support vector");
        if (!st)
            st = km_text_parse_support_vector(l->r, machine, outputs, j);
    }
    return st;
}

static km_status read_machine_section(layout *l, const section *s, const km_model *model, km_machine *machine)
{
    size_t M = model->kernels->size;
    long outputs = 1, iterations = 0, class_pos = 0, class_neg = 0, mkl_iterations = 0;
    km_status st = KM_OK;
    /* theta holds M x weight_groups values: within the line, so bounded by the file */
    if (model->weight_groups > SIZE_MAX / M)
        st = km_error(KM_EFORMAT, "%s:%zu: %zu weight groups of %zu kernels", l->r->path, s->line_no,
                      model->weight_groups, M);
    if (!st)
        st = get_doubles(l, s, "theta", 1, M * model->weight_groups, &machine->theta);
    if (!st)
        st = get_long(l, s, "outputs", 0, 1, LONG_MAX, &outputs);
    machine->n_outputs = (size_t)outputs;
    if (!st && outputs > 1)
        st = get_doubles(l, s, "bias", 1, (size_t)outputs, &machine->biases);
    else if (!st)
        st = get_double(l, s, "bias", &machine->bias);
    if (!st)
        st = get_double(l, s, "objective", &machine->objective);
    if (!st)
        st = get_long(l, s, "iterations", 1, 0, LONG_MAX, &iterations);
    if (!st)
        st = get_flag(l, s, "converged", 1, &machine->converged);
    if (!st)
        st = get_long(l, s, "class_pos", 1, -1, INT_MAX, &class_pos);
    if (!st)
        st = get_long(l, s, "class_neg", 1, -1, INT_MAX, &class_neg);
    machine->iterations = iterations;
    machine->class_pos = (int)class_pos;
    machine->class_neg = (int)class_neg;
    machine->primal = machine->gap = NAN;
    if (!st && (km_mkl_method_flags(model->mkl.method) & KM_METHOD_LEARNS_WEIGHTS)) {
        st = get_double(l, s, "primal", &machine->primal);
        if (!st)
            st = get_optional_double(l, s, "gap", &machine->gap);   /* absent: no certificate */
        if (!st)
            st = get_long(l, s, "mkl_iterations", 1, 0, LONG_MAX, &mkl_iterations);
        if (!st)
            st = get_doubles(l, s, "block_norms", 0, M, &machine->block_norms);
    }
    machine->mkl_iterations = mkl_iterations;
    if (!st)
        st = read_support_vectors(l, s, machine, (size_t)outputs);
    return st ? st : check_unknown_keys(l, s);
}

/* "KEY rows R C" and R lines of C values, or "KEY text "TEXT"". */
static km_status read_data_entry(layout *l, const section *s, entry *e, km_model *model, const char *name)
{
    char key[72];
    snprintf(key, sizeof key, "%.*s", (int)(e->key_len < 70 ? e->key_len : 70), e->key);
    km_text_reader *r = l->r;
    int found;
    char *kind;
    km_status st = open_key(l, s, key, 1, &found);
    if (!st)
        st = km_text_required_token(r, "an entry kind (rows or text)", &kind);
    if (st)
        return st;
    if (!strcmp(kind, "text")) {
        char *text = NULL;
        st = km_text_parse_quoted(r, "text", &text);
        if (!st && !text)
            st = km_text_bad_value(r, "text", "none");
        if (!st)
            st = km_record_set_text(&model->data, name, key, text);
        free(text);
        return st ? km_error(KM_EFORMAT, "%s:%zu: %s", r->path, r->line_no, km_last_error()) : KM_OK;
    }
    size_t rows, cols;
    st = km_text_parse_size(r, "row count", &rows);
    if (!st)
        st = km_text_parse_size(r, "column count", &cols);
    if (!st)
        st = km_text_end_of_line(r, "the column count");
    if (!st && (rows == 0 || cols == 0 || cols > (size_t)(r->end - r->next) / rows))
        st = km_error(KM_EFORMAT, "%s:%zu: a %zu x %zu matrix in the model's %zu remaining bytes", r->path, r->line_no,
                      rows, cols, (size_t)(r->end - r->next));
    double *values = st ? NULL : malloc(rows * cols * sizeof *values);
    if (!st && !values)
        st = km_error_nomem("model data values");
    for (size_t i = 0; !st && i < rows; i++) {
        st = km_text_next_line(r, "a row of values");
        for (size_t j = 0; !st && j < cols; j++)
            st = km_text_parse_double(r, key, &values[i * cols + j]);
        if (!st)
            st = km_text_end_of_line(r, key);
    }
    if (!st && (st = km_record_set_values(&model->data, name, key, rows, cols, values)))
        st = km_error(KM_EFORMAT, "%s:%zu: %s", r->path, r->line_no, km_last_error());
    free(values);
    return st;
}

static km_status read_data_section(layout *l, const section *s, km_model *model)
{
    if (!s->arg)
        return km_error(KM_EFORMAT, "%s:%zu: [data] without a name", l->r->path, s->line_no);
    char name[72];
    snprintf(name, sizeof name, "%.*s", (int)(s->arg_len < 70 ? s->arg_len : 70), s->arg);
    if (!km_record_name_valid(name))
        return km_error(KM_EFORMAT, "%s:%zu: bad data section name \"%s\"", l->r->path, s->line_no, name);
    for (size_t k = 0; k < model->data.n_sections; k++)
        if (!strcmp(model->data.sections[k].name, name))
            return km_error(KM_EFORMAT, "%s:%zu: a second %s", l->r->path, s->line_no, label(l, s));
    km_status st = KM_OK;
    for (size_t k = s->first; !st && k < s->first + s->count; k++)
        st = read_data_entry(l, s, &l->entries[k], model, name);
    return st;
}

static km_status read_probability_section(layout *l, const section *s, km_model *model)
{
    km_status st;
    model->probability = 1;
    if (km_task_classifies(model->task)) {
        st = get_doubles(l, s, "sigmoid_a", 1, model->n_machines, &model->sigmoid_a);
        if (!st)
            st = get_doubles(l, s, "sigmoid_b", 1, model->n_machines, &model->sigmoid_b);
    } else {
        st = get_double(l, s, "laplace_sigma", &model->laplace_sigma);
    }
    return st ? st : check_unknown_keys(l, s);
}

static km_status read_basis_section(layout *l, const section *s, km_model *model)
{
    static const km_name storage_names[] = {{0, "dense"}, {1, "sparse"}, {KM_BASIS_STRINGS, "strings"}, {0, NULL}};
    int sparse = 0, labels = 0, ids = 0;
    size_t d = 0, n = 0, capacity = 0;
    km_status st = get_name(l, s, "storage", storage_names, &sparse);
    if (!st)
        st = get_size(l, s, "dim", &d);
    if (!st)
        st = get_flag(l, s, "labels", 1, &labels);
    if (!st)
        st = get_flag(l, s, "ids", 1, &ids);
    if (!st)
        st = open_block(l, s, "vectors", &n);
    if (!st)
        st = km_text_end_of_line(l->r, "the row count");
    if (!st)
        st = km_text_basis_alloc(l->r, model, n, d, sparse, labels, ids, &capacity);
    for (size_t i = 0; !st && i < n; i++) {
        st = km_text_next_line(l->r, "a basis row");
        if (!st)
            st = km_text_parse_basis_row(l->r, model, i, &capacity);
    }
    return st ? st : check_unknown_keys(l, s);
}

/* The index of a "[kernel m]" or "[machine p]" section, below count and not seen before. */
static km_status section_index(layout *l, const section *s, size_t count, const section **seen, size_t *index)
{
    char text[32];
    snprintf(text, sizeof text, "%.*s", (int)(s->arg_len < 30 ? s->arg_len : 30), s->arg ? s->arg : "");
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (!s->arg || *text < '0' || *text > '9' || *end || errno == ERANGE || v >= count)
        return km_error(KM_EFORMAT, "%s:%zu: %s is not within 0..%zu", l->r->path, s->line_no, label(l, s),
                        count ? count - 1 : 0);
    if (seen[v])
        return km_error(KM_EFORMAT, "%s:%zu: a second %s", l->r->path, s->line_no, label(l, s));
    seen[v] = s;
    *index = (size_t)v;
    return KM_OK;
}

/* Sorts the sections: the single ones into their slots, kernels and machines by index. */
typedef struct sections_found {
    const section *model, *mkl, *basis, *probability;
    const section **kernels, **machines;
} sections_found;

static km_status find_sections(layout *l, size_t n_kernels, size_t n_machines, sections_found *f)
{
    km_status st = KM_OK;
    for (size_t k = 0; !st && k < l->n_sections; k++) {
        const section *s = &l->sections[k];
        const section **single = NULL;
        size_t index;
        if (word_is(s->name, s->name_len, "model"))
            single = &f->model;
        else if (word_is(s->name, s->name_len, "mkl"))
            single = &f->mkl;
        else if (word_is(s->name, s->name_len, "basis"))
            single = &f->basis;
        else if (word_is(s->name, s->name_len, "probability"))
            single = &f->probability;
        else if (word_is(s->name, s->name_len, "kernel"))
            st = section_index(l, s, n_kernels, f->kernels, &index);
        else if (word_is(s->name, s->name_len, "machine"))
            st = section_index(l, s, n_machines, f->machines, &index);
        else if (*s->name == '!')
            st = km_error(KM_EFORMAT, "%s:%zu: the model requires %s, which this kernelmix does not know",
                          l->r->path, s->line_no, label(l, s));
        if (single && (*single != s && (*single || s->arg)))
            st = km_error(KM_EFORMAT, "%s:%zu: %s %s", l->r->path, s->line_no, *single ? "a second" : "unexpected",
                          label(l, s));
        else if (single)
            *single = s;
    }
    for (size_t m = 0; !st && m < n_kernels; m++)
        if (!f->kernels[m])
            st = km_error(KM_EFORMAT, "%s: the model has no [kernel %zu]", l->r->path, m);
    for (size_t p = 0; !st && p < n_machines; p++)
        if (!f->machines[p])
            st = km_error(KM_EFORMAT, "%s: the model has no [machine %zu]", l->r->path, p);
    if (!st && !f->basis)
        st = km_error(KM_EFORMAT, "%s: the model has no [basis]", l->r->path);
    return st;
}

static km_status read_sections(layout *l, km_model *model)
{
    const section *model_section = NULL;
    for (size_t k = 0; k < l->n_sections && !model_section; k++)
        if (word_is(l->sections[k].name, l->sections[k].name_len, "model"))
            model_section = &l->sections[k];
    if (!model_section)
        return km_error(KM_EFORMAT, "%s: the model has no [model] section", l->r->path);
    size_t n_kernels = 0, dimension = 0;
    km_status st = read_model_section(l, model_section, model, &n_kernels, &dimension);
    sections_found f = {0};
    if (!st) {
        f.kernels = calloc(n_kernels, sizeof *f.kernels);
        f.machines = calloc(model->n_machines ? model->n_machines : 1, sizeof *f.machines);
        st = f.kernels && f.machines ? find_sections(l, n_kernels, model->n_machines, &f)
                                     : km_error_nomem("a model's sections");
    }
    model->mkl = km_mkl_params_default();   /* fixed weights: no [mkl] */
    if (!st && f.mkl)
        st = read_mkl_section(l, f.mkl, &model->mkl);
    if (!st && f.mkl)
        st = check_unknown_keys(l, f.mkl);
    if (!st)
        st = km_kernel_set_new(&model->kernels);
    if (!st)
        model->kernels->dimension = dimension;
    for (size_t m = 0; !st && m < n_kernels; m++) {
        km_kernel k = {0};
        st = read_kernel_section(l, f.kernels[m], model->kernels, &k, dimension);
        if (!st)
            st = km_kernel_set_append(model->kernels, &k);
        if (st)
            km_kernel_clear(&k);
    }
    /* the optional MKL diagnostics: alignments with the labels (M) and between kernels (M x M) */
    if (!st)
        st = get_doubles(l, model_section, "target_alignment", 0, n_kernels, &model->target_alignment);
    if (!st)
        st = get_doubles(l, model_section, "kernel_alignment", 0, n_kernels * n_kernels, &model->kernel_alignment);
    if (!st)
        st = check_unknown_keys(l, model_section);
    if (!st && !(model->machines = calloc(model->n_machines ? model->n_machines : 1, sizeof *model->machines)))
        st = km_error_nomem("machines");
    for (size_t p = 0; !st && p < model->n_machines; p++)
        st = read_machine_section(l, f.machines[p], model, &model->machines[p]);
    if (!st && f.probability)
        st = read_probability_section(l, f.probability, model);
    for (size_t k = 0; !st && k < l->n_sections; k++)
        if (word_is(l->sections[k].name, l->sections[k].name_len, "data"))
            st = read_data_section(l, &l->sections[k], model);
    if (!st)
        st = read_basis_section(l, f.basis, model);
    free(f.kernels);
    free(f.machines);
    return st;
}

km_status km_model_read_sections(km_text_reader *r, km_model *model)
{
    layout l = {.r = r};
    km_status st = split(&l);
    if (!st)
        st = read_sections(&l, model);
    free(l.sections);
    free(l.entries);
    return st;
}

/* Reads the model in buf[0..size) (modified in place); path names it in messages. */
static km_status load_text(const char *path, char *buf, size_t size, km_model **out)
{
    unsigned version = 0;
    size_t body = 0, body_end = 0;
    km_status st = km_text_check(path, buf, size, &version, &body, &body_end);
    km_numeric_locale locale;
    if (st || (st = km_numeric_locale_enter(&locale)))
        return st;
    km_model *model = NULL;
    km_text_reader r = {.path = path, .next = buf + body, .end = buf + body_end, .line_no = 1};
    st = km_model_alloc(&model);
    if (!st)
        st = version == 1 ? km_model_read_v1(&r, model) : km_model_read_sections(&r, model);
    if (!st)
        st = km_model_check(model, path, KM_EFORMAT);
    if (!st)
        st = km_model_validate(model, path, size);
    km_numeric_locale_leave(&locale);
    if (st)
        km_model_free(model);
    else
        *out = model;
    return st;
}

/* The file's bytes, followed by a NUL (the reader scans lines up to it). */
static km_status read_whole_file(const char *path, char **out, size_t *out_size)
{
    *out = NULL;
    FILE *f;
    const char *name = km_input_name(path);
    if (km_open_input(path, &f) != KM_OK)
        return km_error(KM_EIO, "%s: cannot read model: %s", name, strerror(errno));
    size_t size = 0, capacity = 1 << 16;
    char *buf = malloc(capacity);
    km_status st = buf ? KM_OK : km_error_nomem("a model file buffer");
    while (!st) {
        if (size + 1 >= capacity) {   /* room for the data and the terminating NUL the reader relies on */
            char *grown = capacity <= SIZE_MAX / 2 ? realloc(buf, capacity * 2) : NULL;
            if (!grown) {
                st = km_error_nomem("a model file buffer");
                break;
            }
            buf = grown;
            capacity *= 2;
        }
        size_t got = fread(buf + size, 1, capacity - 1 - size, f);
        size += got;
        if ((st = km_text_check_start(name, buf, size, size - got)))
            break;
        if (got == 0) {
            if (ferror(f))
                st = km_error(KM_EIO, "%s: cannot read model: %s", name, strerror(errno));
            break;
        }
    }
    fclose(f);
    if (st) {
        free(buf);
        return st;
    }
    buf[size] = '\0';
    *out = buf;
    *out_size = size;
    return KM_OK;
}

km_status km_model_load(const char *path, km_model **out)
{
    *out = NULL;
    char *buf;
    size_t size = 0;
    km_status st = read_whole_file(path, &buf, &size);
    if (!st)
        st = load_text(km_input_name(path), buf, size, out);
    free(buf);
    return st;
}

km_status km_model_load_buffer(const void *buffer, size_t size, km_model **out)
{
    *out = NULL;
    if (!buffer && size)
        return km_error(KM_EINVAL, "km_model_load_buffer: no buffer");
    char *copy = size < SIZE_MAX ? malloc(size + 1) : NULL;   /* the reader terminates lines in place and
                                                                 scans up to a terminating NUL */
    if (!copy)
        return km_error_nomem("a model buffer");
    if (size)
        memcpy(copy, buffer, size);
    copy[size] = '\0';
    km_status st = load_text("model buffer", copy, size, out);
    free(copy);
    return st;
}
