/* km_model_save and km_model_save_buffer: the text model format described in model/model_io.h,
 * composed in memory, then written atomically or handed to the caller. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/locale.h"
#include "core/names.h"
#include "data/dataset.h"
#include "kernel/nystrom.h"
#include "mkl/method.h"
#include "mkl/mkl_names.h"
#include "model/model_io.h"

typedef struct writer {
    char *buf;
    size_t len, capacity;
    const char *path;       /* for messages */
    km_status st;           /* first failure (allocation, non-finite value, unknown name) */
} writer;

static void put_bytes(writer *w, const char *text, size_t n)
{
    if (w->st)
        return;
    if (w->len + n > w->capacity) {
        size_t grown = w->capacity ? w->capacity : 1 << 16;
        while (grown < w->len + n)
            grown *= 2;
        char *buf = realloc(w->buf, grown);
        if (!buf) {
            w->st = km_error_nomem("a model's text");
            return;
        }
        w->buf = buf;
        w->capacity = grown;
    }
    memcpy(w->buf + w->len, text, n);
    w->len += n;
}

static void put_text(writer *w, const char *text) { put_bytes(w, text, strlen(text)); }

static void put_size(writer *w, size_t value)
{
    char buf[32];
    put_bytes(w, buf, (size_t)snprintf(buf, sizeof buf, "%zu", value));
}

static void put_long(writer *w, long value)
{
    char buf[32];
    put_bytes(w, buf, (size_t)snprintf(buf, sizeof buf, "%ld", value));
}

/* %.17g: enough digits for strtod to give back the same double. */
static void put_double(writer *w, double value, const char *what)
{
    if (!isfinite(value) && !w->st)
        w->st = km_error(KM_EINVAL, "%s: cannot save a model with a non-finite %s (%g)", w->path, what, value);
    char buf[40];
    put_bytes(w, buf, (size_t)snprintf(buf, sizeof buf, "%.17g", value));
}

static void put_key(writer *w, const char *key)
{
    put_text(w, key);
    put_text(w, " ");
}

static void line_size(writer *w, const char *key, size_t value)
{
    put_key(w, key);
    put_size(w, value);
    put_text(w, "\n");
}

static void line_long(writer *w, const char *key, long value)
{
    put_key(w, key);
    put_long(w, value);
    put_text(w, "\n");
}

static void line_double(writer *w, const char *key, double value)
{
    put_key(w, key);
    put_double(w, value, key);
    put_text(w, "\n");
}

/* An exponent that may be infinite (p_block): "inf" or a number. */
static void line_exponent(writer *w, const char *key, double value)
{
    if (isinf(value) && value > 0) {
        put_key(w, key);
        put_text(w, "inf\n");
    } else {
        line_double(w, key, value);
    }
}

static void put_doubles(writer *w, const double *values, size_t n, const char *what)
{
    for (size_t i = 0; i < n; i++) {
        if (i)
            put_text(w, " ");
        put_double(w, values[i], what);
    }
}

static void line_doubles(writer *w, const char *key, const double *values, size_t n)
{
    put_key(w, key);
    put_doubles(w, values, n, key);
    put_text(w, "\n");
}

static void line_name(writer *w, const char *key, const km_name *table, int value)
{
    const char *name = km_name_of(table, value);
    if (!name && !w->st)
        w->st = km_error(KM_EINVAL, "%s: cannot save a model with %s %d (unknown)", w->path, key, value);
    put_key(w, key);
    put_text(w, name ? name : "");
    put_text(w, "\n");
}

/* "TEXT" with C-style escapes for backslash, quote and control bytes, or none for NULL. */
static void line_quoted(writer *w, const char *key, const char *text)
{
    put_key(w, key);
    if (!text) {
        put_text(w, "none\n");
        return;
    }
    put_text(w, "\"");
    for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
        char buf[8];
        if (*c == '\\' || *c == '"')
            snprintf(buf, sizeof buf, "\\%c", *c);
        else if (*c < 0x20 || *c == 0x7f)
            snprintf(buf, sizeof buf, "\\x%02x", *c);
        else
            snprintf(buf, sizeof buf, "%c", *c);
        put_text(w, buf);
    }
    put_text(w, "\"\n");
}

static void section(writer *w, const char *name, const char *arg)
{
    put_text(w, "[");
    put_text(w, name);
    if (arg) {
        put_text(w, " ");
        put_text(w, arg);
    }
    put_text(w, "]\n");
}

static void numbered_section(writer *w, const char *name, size_t index)
{
    char arg[32];
    snprintf(arg, sizeof arg, "%zu", index);
    section(w, name, arg);
}

/* "KEY rows N" opening a block of N lines. */
static void block_start(writer *w, const char *key, size_t n)
{
    put_key(w, key);
    put_text(w, "rows ");
    put_size(w, n);
}

static void write_model_section(writer *w, const km_model *model)
{
    section(w, "model", NULL);
    line_name(w, "task", km_task_names, model->task);
    line_name(w, "multiclass", km_multiclass_names, model->multiclass);
    line_double(w, "C", model->C);
    line_double(w, "epsilon", model->epsilon);
    line_double(w, "nu", model->nu);
    line_double(w, "tolerance", model->tolerance);
    line_size(w, "n_train", model->n_train);
    if (model->n_classes)
        line_doubles(w, "labels", model->labels, model->n_classes);
    else
        put_text(w, "labels none\n");
    line_size(w, "n_kernels", model->kernels->size);
    line_size(w, "kernel_dimension", model->kernels->dimension);
    line_size(w, "n_machines", model->n_machines);
    line_size(w, "weight_groups", model->weight_groups);
    size_t M = model->kernels->size;
    if (model->target_alignment)
        line_doubles(w, "target_alignment", model->target_alignment, M);
    if (model->kernel_alignment)
        line_doubles(w, "kernel_alignment", model->kernel_alignment, M * M);
}

/* A kernel-weight parameter's line: its name and its value as km_params_set_text reads it. */
static void line_param(writer *w, const km_param_row *row, const km_mkl_params *mkl)
{
    if (row->names)
        line_name(w, row->name, row->names(), (int)km_param_row_read_int(row, mkl));
    else if (row->flags & KM_PARAM_INTEGER)
        line_long(w, row->name, (long)km_param_row_read_int(row, mkl));
    else
        line_exponent(w, row->name, km_param_row_read(row, mkl));
}

/* Whether a method's entry lists parameter id among those it reads. */
static int reads(const km_mkl_method_entry *method, km_param id)
{
    for (const km_param *p = method->params; p && *p; p++)
        if (*p == id)
            return 1;
    return 0;
}

/* The method and the parameters its model keeps (km_param_row.storage: every learned model's, and those
 * the method reads), in the table's order (learned weights only); a value that does not exist (NAN) is
 * left out. */
static void write_mkl_section(writer *w, const km_mkl_params *mkl)
{
    const km_mkl_method_entry *method = km_mkl_method_of(mkl->method);
    if (!(method->flags & KM_METHOD_LEARNS_WEIGHTS))
        return;
    section(w, "mkl", NULL);
    line_name(w, "method", km_mkl_method_name_table(), mkl->method);
    size_t count;
    const km_param_row *rows = km_mkl_params_rows(&count);
    for (size_t k = 0; k < count; k++) {
        const km_param_row *row = &rows[k];
        int kept = row->storage == KM_STORED_ALWAYS || (row->storage == KM_STORED_IF_READ && reads(method, row->id));
        if (kept && row->id != KM_PARAM_MKL_METHOD && !isnan(km_param_row_read(row, mkl)))
            line_param(w, row, mkl);
    }
}

/* The first kernel before m with the same landmark rows as k (written once), or m. */
static size_t landmarks_of(const km_kernel_set *set, size_t m)
{
    const km_kernel *k = &set->kernels[m];
    for (size_t g = 0; g < m; g++)
        if (km_nystrom_same_landmarks(&set->kernels[g], k))
            return g;
    return m;
}

static void write_kernel(writer *w, const km_kernel_set *set, size_t m)
{
    const km_kernel *k = &set->kernels[m];
    numbered_section(w, "kernel", m);
    line_name(w, "type", km_kernel_type_names, k->type);
    line_double(w, "gamma", k->gamma);
    line_name(w, "gamma_mode", km_gamma_mode_names, k->gamma_mode);
    line_double(w, "coef0", k->coef0);
    line_double(w, "degree", k->degree);
    if (k->type == KM_KERNEL_SPECTRUM)
        line_size(w, "k", k->kmer);
    if (k->shift)
        line_size(w, "shift", k->shift);
    put_text(w, "features ");
    if (!k->features || k->n_features == 0)
        put_text(w, "all");
    else {
        put_size(w, k->n_features);
        for (size_t i = 0; i < k->n_features; i++) {
            put_text(w, " ");
            put_size(w, (size_t)k->features[i] + 1);
        }
    }
    put_text(w, "\n");
    line_name(w, "norm", km_normalization_names, k->norm);
    line_long(w, "center", k->center != 0);
    line_quoted(w, "file", k->file);
    line_long(w, "fitted", k->fitted != 0);
    line_double(w, "scale", k->scale);
    line_double(w, "mean_all", k->mean_all);
    if (k->col_mean && k->n_train)
        line_doubles(w, "col_mean", k->col_mean, k->n_train);
    else
        put_text(w, "col_mean none\n");
    if (!k->rank)
        return;
    line_size(w, "rank", k->rank);
    if (k->icd_tolerance > 0)
        line_double(w, "icd", k->icd_tolerance);
    if (k->landmark_sampling != KM_LANDMARKS_UNIFORM)
        line_name(w, "sampling", km_landmark_sampling_names, (int)k->landmark_sampling);
    if (!k->projection)
        return;
    /* the Nystrom map (kernel/family_nystrom.c): "landmarks L D" then L x D values, or "landmarks same K"
     * for those of kernel K (every width of a grid); "projection R" then L x R values */
    size_t same = landmarks_of(set, m);
    put_key(w, "landmarks");
    if (same < m) {
        put_text(w, "same ");
        put_size(w, same);
    } else {
        put_size(w, k->n_landmarks);
        put_text(w, " ");
        put_size(w, k->landmark_dim);
        put_text(w, " ");
        put_doubles(w, k->landmarks, k->n_landmarks * k->landmark_dim, "landmark value");
    }
    put_text(w, "\n");
    put_key(w, "projection");
    put_size(w, k->rank_kept);
    put_text(w, " ");
    put_doubles(w, k->projection, k->n_landmarks * k->rank_kept, "projection value");
    put_text(w, "\n");
}

static void write_machine(writer *w, const km_model *model, size_t p)
{
    const km_machine *machine = &model->machines[p];
    size_t M = model->kernels->size, K = machine->n_outputs > 1 ? machine->n_outputs : 1;
    numbered_section(w, "machine", p);
    line_doubles(w, "theta", machine->theta, M * model->weight_groups);
    line_size(w, "outputs", K);
    if (K > 1)
        line_doubles(w, "bias", machine->biases, K);
    else
        line_double(w, "bias", machine->bias);
    line_double(w, "objective", machine->objective);
    line_long(w, "iterations", machine->iterations);
    line_long(w, "converged", machine->converged != 0);
    line_long(w, "class_pos", machine->class_pos);
    line_long(w, "class_neg", machine->class_neg);
    if (km_mkl_method_flags(model->mkl.method) & KM_METHOD_LEARNS_WEIGHTS) {
        line_double(w, "primal", machine->primal);
        if (isfinite(machine->gap))   /* methods without a certificate (EB, LMKL) have no gap */
            line_double(w, "gap", machine->gap);
        line_long(w, "mkl_iterations", machine->mkl_iterations);
        if (machine->block_norms)
            line_doubles(w, "block_norms", machine->block_norms, M);
    }
    block_start(w, "support_vectors", machine->n_sv);
    put_text(w, "\n");
    for (size_t j = 0; j < machine->n_sv; j++) {
        put_size(w, machine->sv[j]);
        put_text(w, " ");
        put_doubles(w, machine->coef + j * K, K, "support vector coefficient");
        put_text(w, "\n");
    }
}

/* The probability models (-b 1): per machine sigmoids, or the regression's Laplace width. */
static void write_probability_section(writer *w, const km_model *model)
{
    if (!model->probability)
        return;
    section(w, "probability", NULL);
    if (model->sigmoid_a) {
        line_doubles(w, "sigmoid_a", model->sigmoid_a, model->n_machines);
        line_doubles(w, "sigmoid_b", model->sigmoid_b, model->n_machines);
    } else {
        line_double(w, "laplace_sigma", model->laplace_sigma);
    }
}

static void write_data_sections(writer *w, const km_model *model)
{
    for (size_t s = 0; s < model->data.n_sections; s++) {
        const km_record_section *sec = &model->data.sections[s];
        section(w, "data", sec->name);
        for (size_t e = 0; e < sec->n_entries; e++) {
            const km_record_entry *entry = &sec->entries[e];
            if (entry->text) {
                put_text(w, entry->name);
                put_text(w, " text");
                line_quoted(w, "", entry->text);
                continue;
            }
            block_start(w, entry->name, entry->rows);
            put_text(w, " ");
            put_size(w, entry->cols);
            put_text(w, "\n");
            for (size_t i = 0; i < entry->rows; i++) {
                put_doubles(w, entry->values + i * entry->cols, entry->cols, entry->name);
                put_text(w, "\n");
            }
        }
    }
}

static void write_basis_row(writer *w, const km_dataset *basis, size_t i)
{
    if (basis->sparse) {
        for (size_t e = basis->row_start[i]; e < basis->row_start[i + 1]; e++) {
            put_text(w, " ");
            put_size(w, (size_t)basis->col[e] + 1);
            put_text(w, ":");
            put_double(w, basis->val[e], "basis value");
        }
        return;
    }
    for (size_t j = 0; j < basis->d; j++) {
        put_text(w, " ");
        put_double(w, basis->X[i * basis->d + j], "basis value");
    }
}

/* A string row, quoted (line_quoted); a NUL byte inside it cannot be written. */
static void write_basis_string(writer *w, const km_dataset *basis, size_t i)
{
    size_t length;
    const char *text = km_dataset_string(basis, i, &length);
    if (strlen(text) != length && !w->st)
        w->st = km_error(KM_EINVAL, "%s: cannot save a model with a NUL byte in a string row", w->path);
    line_quoted(w, "", text);
}

static void write_basis(writer *w, const km_model *model)
{
    const km_dataset *basis = model->basis;
    section(w, "basis", NULL);
    put_text(w, basis->text ? "storage strings\n" : basis->sparse ? "storage sparse\n" : "storage dense\n");
    line_size(w, "dim", basis->d);
    line_long(w, "labels", basis->labels != NULL);
    line_long(w, "ids", basis->ids != NULL);
    block_start(w, "vectors", basis->n);
    put_text(w, "\n");
    for (size_t i = 0; i < basis->n; i++) {
        put_size(w, model->basis_kcol[i]);
        if (basis->labels) {
            put_text(w, " ");
            put_double(w, basis->labels[i], "basis label");
        }
        if (basis->ids) {
            put_text(w, " ");
            put_double(w, basis->ids[i], "basis id");
        }
        if (basis->text) {
            write_basis_string(w, basis, i);   /* its own line end */
            continue;
        }
        write_basis_row(w, basis, i);
        put_text(w, "\n");
    }
}

/* The whole file: header, sections, and the checksum of everything before its line. */
static void write_model(writer *w, const km_model *model)
{
    char header[64];
    snprintf(header, sizeof header, "%s %d\n", KM_MODEL_MAGIC, KM_MODEL_FORMAT_VERSION);
    put_text(w, header);
    write_model_section(w, model);
    write_mkl_section(w, &model->mkl);
    for (size_t m = 0; m < model->kernels->size; m++)
        write_kernel(w, model->kernels, m);
    for (size_t p = 0; p < model->n_machines; p++)
        write_machine(w, model, p);
    write_probability_section(w, model);
    write_data_sections(w, model);
    write_basis(w, model);
    char checksum[40];
    snprintf(checksum, sizeof checksum, "checksum crc32 %08lx\n",
             (unsigned long)(w->st ? 0 : km_crc32(0, w->buf, w->len)));
    put_text(w, checksum);
}

/* The model's file text into a new buffer (*text, *len); path names the destination in messages. */
static km_status compose(const km_model *model, const char *path, char **text, size_t *len)
{
    km_status st = km_model_check(model, path, KM_EINVAL);
    if (st)
        return st;
    km_numeric_locale locale;
    if ((st = km_numeric_locale_enter(&locale)))
        return st;
    writer w = {.path = path};
    write_model(&w, model);
    km_numeric_locale_leave(&locale);
    if (w.st) {
        free(w.buf);
        return w.st;
    }
    *text = w.buf;
    *len = w.len;
    return KM_OK;
}

km_status km_model_save(const km_model *model, const char *path)
{
    char *text;
    size_t len;
    km_status st = compose(model, path, &text, &len);
    if (st)
        return st;
    km_atomic_file file;
    st = km_atomic_open(&file, path, "model");
    if (!st) {
        km_atomic_write(&file, text, len);
        st = km_atomic_commit(&file);
    }
    free(text);
    return st;
}

km_status km_model_save_buffer(const km_model *model, void **buffer, size_t *size)
{
    *buffer = NULL;
    *size = 0;
    char *text;
    size_t len;
    km_status st = compose(model, "model buffer", &text, &len);
    if (!st) {
        *buffer = text;
        *size = len;
    }
    return st;
}

void km_free(void *buffer) { free(buffer); }
