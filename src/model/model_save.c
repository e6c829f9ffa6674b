/* km_model_save: the text model format described in model/model.h, written atomically. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/locale.h"
#include "core/names.h"
#include "data/dataset.h"
#include "model/model_io.h"

typedef struct writer {
    km_atomic_file file;
    uint32_t crc;           /* CRC-32 of everything written so far */
    const char *path;
    km_status st;           /* first failure that is not a write error (non-finite value, unknown name) */
} writer;

static void put_bytes(writer *w, const char *text, size_t n)
{
    if (w->st)
        return;
    w->crc = km_crc32(w->crc, text, n);
    km_atomic_write(&w->file, text, n);
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

static void line_size(writer *w, const char *key, size_t value)
{
    put_text(w, key);
    put_text(w, " ");
    put_size(w, value);
    put_text(w, "\n");
}

static void line_long(writer *w, const char *key, long value)
{
    put_text(w, key);
    put_text(w, " ");
    put_long(w, value);
    put_text(w, "\n");
}

static void line_double(writer *w, const char *key, double value)
{
    put_text(w, key);
    put_text(w, " ");
    put_double(w, value, key);
    put_text(w, "\n");
}

/* An exponent that may be infinite (p_block): "inf" or a number. */
static void line_exponent(writer *w, const char *key, double value)
{
    if (isinf(value) && value > 0) {
        put_text(w, key);
        put_text(w, " inf\n");
    } else {
        line_double(w, key, value);
    }
}

static void line_doubles(writer *w, const char *key, const double *values, size_t n)
{
    put_text(w, key);
    for (size_t i = 0; i < n; i++) {
        put_text(w, " ");
        put_double(w, values[i], key);
    }
    put_text(w, "\n");
}

static void line_name(writer *w, const char *key, const km_name *table, int value)
{
    const char *name = km_name_of(table, value);
    if (!name && !w->st)
        w->st = km_error(KM_EINVAL, "%s: cannot save a model with %s %d (unknown)", w->path, key, value);
    put_text(w, key);
    put_text(w, " ");
    put_text(w, name ? name : "");
    put_text(w, "\n");
}

/* "NAME" with C-style escapes for backslash, quote and control bytes. */
static void put_quoted(writer *w, const char *text)
{
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
    put_text(w, "\"");
}

static void write_parameters(writer *w, const km_model *model)
{
    char header[64];
    snprintf(header, sizeof header, "%s %d\n", KM_MODEL_MAGIC, KM_MODEL_FORMAT_VERSION);
    put_text(w, header);
    line_name(w, "task", km_task_names, model->task);
    line_name(w, "multiclass", km_multiclass_names, model->multiclass);
    line_double(w, "C", model->C);
    line_double(w, "epsilon", model->epsilon);
    line_double(w, "nu", model->nu);
    line_double(w, "tolerance", model->tolerance);
    line_name(w, "mkl", km_mkl_method_names, model->mkl.method);
    if (model->mkl.method != KM_MKL_FIXED) {
        line_exponent(w, "mkl_p_block", model->mkl.p_block);
        line_double(w, "mkl_lambda", model->mkl.lambda);
        line_name(w, "mkl_solver", km_mkl_solver_names, model->mkl.solver);
        line_double(w, "mkl_gap", model->mkl.gap);
        if (model->mkl.method == KM_MKL_TIKHONOV) { /* regularizer; q (lq) or p (blockp) */
            line_name(w, "mkl_regularizer", km_mkl_regularizer_names, model->mkl.regularizer);
            if (model->mkl.regularizer == KM_REG_LQ || model->mkl.regularizer == KM_REG_BLOCKP)
                line_exponent(w, "mkl_reg_param", model->mkl.reg_param);
        }
        if (model->mkl.shared_weights)
            line_long(w, "mkl_shared_weights", 1);
    }
    line_size(w, "n_train", model->n_train);
    line_size(w, "n_classes", model->n_classes);
    line_doubles(w, "labels", model->labels, model->n_classes);
    line_size(w, "n_kernels", model->kernels->size);
    line_size(w, "kernel_dimension", model->kernels->dimension);
    line_size(w, "n_machines", model->n_machines);
}

static void write_kernel(writer *w, const km_kernel *k, size_t m)
{
    line_size(w, "kernel", m);
    line_name(w, "type", km_kernel_type_names, k->type);
    line_double(w, "gamma", k->gamma);
    line_name(w, "gamma_mode", km_gamma_mode_names, k->gamma_mode);
    line_double(w, "coef0", k->coef0);
    line_double(w, "degree", k->degree);
    put_text(w, "features");
    if (!k->features || k->n_features == 0)
        put_text(w, " all");
    else {
        put_text(w, " ");
        put_size(w, k->n_features);
        for (size_t i = 0; i < k->n_features; i++) {
            put_text(w, " ");
            put_size(w, (size_t)k->features[i] + 1);
        }
    }
    put_text(w, "\n");
    line_name(w, "norm", km_normalization_names, k->norm);
    line_long(w, "center", k->center != 0);
    put_text(w, "file ");
    if (k->file)
        put_quoted(w, k->file);
    else
        put_text(w, "none");
    put_text(w, "\n");
    line_long(w, "fitted", k->fitted != 0);
    line_double(w, "scale", k->scale);
    line_double(w, "mean_all", k->mean_all);
    line_size(w, "n_train", k->n_train);
    if (k->col_mean && k->n_train)
        line_doubles(w, "col_mean", k->col_mean, k->n_train);
    else
        put_text(w, "col_mean none\n");
}

static void write_machine(writer *w, const km_machine *machine, size_t p, size_t n_kernels, int mkl)
{
    line_size(w, "machine", p);
    line_doubles(w, "theta", machine->theta, n_kernels);
    line_double(w, "bias", machine->bias);
    line_double(w, "objective", machine->objective);
    line_long(w, "iterations", machine->iterations);
    line_long(w, "converged", machine->converged != 0);
    if (mkl) {
        line_double(w, "primal", machine->primal);
        line_double(w, "gap", machine->gap);
        line_long(w, "mkl_iterations", machine->mkl_iterations);
        if (machine->block_norms)
            line_doubles(w, "block_norms", machine->block_norms, n_kernels);
    }
    line_long(w, "class_pos", machine->class_pos);
    line_long(w, "class_neg", machine->class_neg);
    line_size(w, "n_sv", machine->n_sv);
    for (size_t j = 0; j < machine->n_sv; j++) {
        put_size(w, machine->sv[j]);
        put_text(w, " ");
        put_double(w, machine->coef[j], "support vector coefficient");
        put_text(w, "\n");
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

static void write_basis(writer *w, const km_model *model)
{
    const km_dataset *basis = model->basis;
    line_size(w, "basis_rows", basis->n);
    line_size(w, "basis_dim", basis->d);
    put_text(w, basis->sparse ? "basis_storage sparse\n" : "basis_storage dense\n");
    line_long(w, "basis_labels", basis->labels != NULL);
    line_long(w, "basis_ids", basis->ids != NULL);
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
        write_basis_row(w, basis, i);
        put_text(w, "\n");
    }
}

/* Everything the checksum covers, then the checksum line itself. */
static void write_model(writer *w, const km_model *model)
{
    write_parameters(w, model);
    for (size_t m = 0; m < model->kernels->size; m++)
        write_kernel(w, &model->kernels->kernels[m], m);
    if (model->target_alignment)
        line_doubles(w, "target_alignment", model->target_alignment, model->kernels->size);
    if (model->kernel_alignment)
        line_doubles(w, "kernel_alignment", model->kernel_alignment, model->kernels->size * model->kernels->size);
    for (size_t p = 0; p < model->n_machines; p++)
        write_machine(w, &model->machines[p], p, model->kernels->size, model->mkl.method != KM_MKL_FIXED);
    write_basis(w, model);
    char checksum[40];
    int len = snprintf(checksum, sizeof checksum, "checksum crc32 %08lx\n", (unsigned long)w->crc);
    if (!w->st)
        km_atomic_write(&w->file, checksum, (size_t)len);
}

km_status km_model_save(const km_model *model, const char *path)
{
    km_status st = km_model_check(model, path, KM_EINVAL);
    if (st)
        return st;
    km_numeric_locale locale;
    if ((st = km_numeric_locale_enter(&locale)))
        return st;
    writer w = {.path = path};
    st = km_atomic_open(&w.file, path, "model");
    if (!st) {
        write_model(&w, model);
        if (w.st) {
            km_atomic_abort(&w.file);
            st = w.st;
        } else {
            st = km_atomic_commit(&w.file);
        }
    }
    km_numeric_locale_leave(&locale);
    return st;
}
