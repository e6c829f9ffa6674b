/* The reader of model format version 1: "key value" lines in a fixed order (model/model_io.h keeps
 * its description). Files of the first release keep loading through it. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "mkl/method.h"
#include "mkl/mkl_names.h"
#include "model/model_io.h"
#include "model/model_text.h"

typedef km_text_reader reader;

static km_status expect_key(reader *r, const char *key)
{
    char expected[64];
    snprintf(expected, sizeof expected, "\"%s\"", key);
    km_status st = km_text_next_line(r, expected);
    if (st)
        return st;
    char *found = km_text_token(r);
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

static km_status read_double(reader *r, const char *key, double *value)
{
    km_status st = expect_key(r, key);
    if (!st)
        st = km_text_parse_double(r, key, value);
    return st ? st : km_text_end_of_line(r, key);
}

static km_status read_size(reader *r, const char *key, size_t *value)
{
    km_status st = expect_key(r, key);
    if (!st)
        st = km_text_parse_size(r, key, value);
    return st ? st : km_text_end_of_line(r, key);
}

static km_status read_long(reader *r, const char *key, long min, long max, long *value)
{
    km_status st = expect_key(r, key);
    if (!st)
        st = km_text_parse_long(r, key, min, max, value);
    return st ? st : km_text_end_of_line(r, key);
}

static km_status read_flag(reader *r, const char *key, int *flag)
{
    long value = 0;
    km_status st = read_long(r, key, 0, 1, &value);
    *flag = (int)value;
    return st;
}

static km_status read_name(reader *r, const char *key, const km_name *table, int *value)
{
    km_status st = expect_key(r, key);
    return st ? st : km_text_parse_name(r, key, table, value);
}

static km_status read_doubles(reader *r, const char *key, size_t n, double **out)
{
    km_status st = expect_key(r, key);
    return st ? st : km_text_parse_doubles(r, key, n, out);
}

static km_status read_exponent(reader *r, const char *key, double *value)
{
    km_status st = expect_key(r, key);
    return st ? st : km_text_parse_exponent(r, key, value);
}

/* The kernel-weight learning: method, and for learned weights p, lambda, solver and target gap. */
static km_status read_mkl(reader *r, km_mkl_params *mkl)
{
    int method = 0, solver = 0;
    *mkl = km_mkl_params_default();
    km_status st = read_name(r, "mkl", km_mkl_method_name_table(), &method);
    mkl->method = (km_mkl_method)method;
    if (st || !(km_mkl_method_flags(mkl->method) & KM_METHOD_LEARNS_WEIGHTS))
        return st;
    st = read_exponent(r, "mkl_p_block", &mkl->p_block);
    mkl->p = km_model_p_of_block(mkl->p_block);
    if (!st)
        st = read_double(r, "mkl_lambda", &mkl->lambda);
    if (!st)
        st = read_name(r, "mkl_solver", km_mkl_solver_name_table(), &solver);
    mkl->solver = (km_mkl_solver)solver;
    if (!st)
        st = read_double(r, "mkl_gap", &mkl->gap);
    int regularizer = 0;
    mkl->reg_param = 0;
    if (!st && next_key_is(r, "mkl_regularizer"))   /* the Tikhonov form's */
        st = read_name(r, "mkl_regularizer", km_mkl_regularizer_name_table(), &regularizer);
    mkl->regularizer = (km_mkl_regularizer)regularizer;
    if (!st && next_key_is(r, "mkl_reg_param"))
        st = read_exponent(r, "mkl_reg_param", &mkl->reg_param);
    mkl->shared_weights = 0;
    if (!st && next_key_is(r, "mkl_shared_weights"))
        st = read_flag(r, "mkl_shared_weights", &mkl->shared_weights);
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
        st = km_text_parse_doubles(r, "labels", model->n_classes, &model->labels);
    else if (!st)
        st = km_text_end_of_line(r, "labels");
    if (!st)
        st = read_size(r, "n_kernels", n_kernels);
    if (!st && *n_kernels == 0)
        st = km_error(KM_EFORMAT, "%s:%zu: a model needs at least one kernel", r->path, r->line_no);
    if (!st)
        st = km_text_check_count(r, "n_kernels", *n_kernels);
    if (!st)
        st = read_size(r, "kernel_dimension", dimension);
    if (!st)
        st = read_size(r, "n_machines", &model->n_machines);
    if (!st)
        st = km_text_check_count(r, "n_machines", model->n_machines);
    return st;
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
        st = expect_key(r, "features");
    if (!st)
        st = km_text_parse_features(r, k, dimension);
    if (!st)
        st = read_name(r, "norm", km_normalization_names, &norm);
    k->norm = (km_normalization)norm;
    if (!st)
        st = read_flag(r, "center", &k->center);
    if (!st)
        st = expect_key(r, "file");
    if (!st)
        st = km_text_parse_quoted(r, "file name", &k->file);
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
    if (st || km_text_rest_is_none(r))
        return st;
    return km_text_parse_doubles(r, "col_mean", k->n_train, &k->col_mean);
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
        st = km_text_check_count(r, "n_sv", machine->n_sv);
    if (st)
        return st;
    machine->sv = km_text_alloc_array(machine->n_sv, sizeof *machine->sv);
    machine->coef = km_text_alloc_array(machine->n_sv, sizeof *machine->coef);
    if (!machine->sv || !machine->coef)
        return km_error_nomem("support vectors");
    for (size_t j = 0; !st && j < machine->n_sv; j++) {
        st = km_text_next_line(r, "a support vector");
        if (!st)
            st = km_text_parse_support_vector(r, machine, 1, j);
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
        if (!st && (km_mkl_method_flags(model->mkl.method) & KM_METHOD_LEARNS_WEIGHTS)) {
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

static km_status read_basis(reader *r, km_model *model)
{
    size_t n, d, capacity = 0;
    int sparse = 0, has_labels = 0, has_ids = 0;
    static const km_name storage_names[] = {{0, "dense"}, {1, "sparse"}, {0, NULL}};
    km_status st = read_size(r, "basis_rows", &n);
    if (!st)
        st = km_text_check_count(r, "basis_rows", n);
    if (!st)
        st = read_size(r, "basis_dim", &d);
    if (!st)
        st = read_name(r, "basis_storage", storage_names, &sparse);
    if (!st)
        st = read_flag(r, "basis_labels", &has_labels);
    if (!st)
        st = read_flag(r, "basis_ids", &has_ids);
    if (!st)
        st = km_text_basis_alloc(r, model, n, d, sparse, has_labels, has_ids, &capacity);
    for (size_t i = 0; !st && i < n; i++) {
        st = km_text_next_line(r, "a basis row");
        if (!st)
            st = km_text_parse_basis_row(r, model, i, &capacity);
    }
    return st;
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

km_status km_model_read_v1(km_text_reader *r, km_model *model)
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
