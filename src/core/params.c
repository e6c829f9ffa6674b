/* The parameters stored as fields of km_params (the machine's, the cache's, the run's): their rows,
 * the defaults, the generic store of the other layers' parameters, the handle's arrays and the check of
 * a block before training. The public setters by id are src/train's (param_table.c), which sees every
 * layer's rows. */
#include "core/params.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/names.h"

#define OPEN (KM_PARAM_LOWER_OPEN | KM_PARAM_UPPER_OPEN)
#define INT KM_PARAM_INTEGER
#define ROW(id_, name_, field_, member) .id = id_, .name = name_, .field = field_, .offset = offsetof(km_params, member)

static const km_param_row field_rows[] = {
    {ROW(KM_PARAM_TASK, "task", KM_FIELD_INT, task), .flags = INT, .default_value = KM_TASK_SVC,
     .enumeration = KM_ENUM_TASK, .names = km_task_name_table, .options = "-s|--task", .value_name = "TYPE",
     .help = "0 C-SVC, 1 nu-SVC, 2 one-class SVM, 3 epsilon-SVR, 4 nu-SVR (or the names svc, nu-svc, "
             "oneclass, svr, nu-svr), krr (kernel ridge regression, ridge lambda = 1/C); nu-SVC and nu-SVR "
             "train with fixed kernel weights only"},
    {ROW(KM_PARAM_C, "C", KM_FIELD_DOUBLE, C), .lower = 0, .upper = INFINITY, .flags = OPEN, .default_value = 1,
     .options = "-c|--C", .value_name = "C", .help = "loss weight of C-SVC, epsilon-SVR and nu-SVR"},
    {ROW(KM_PARAM_EPSILON, "epsilon", KM_FIELD_DOUBLE, epsilon), .lower = 0, .upper = INFINITY,
     .flags = KM_PARAM_UPPER_OPEN, .default_value = 0.1, .options = "-p|--epsilon", .value_name = "EPSILON",
     .help = "epsilon-SVR tube half-width"},
    {ROW(KM_PARAM_NU, "nu", KM_FIELD_DOUBLE, nu), .lower = 0, .upper = 1, .flags = KM_PARAM_LOWER_OPEN,
     .default_value = 0.5, .options = "-n|--nu", .value_name = "NU", .help = "nu of nu-SVC, one-class and nu-SVR"},
    {ROW(KM_PARAM_TOLERANCE, "tolerance", KM_FIELD_DOUBLE, tolerance), .lower = 0, .upper = INFINITY,
     .flags = OPEN, .default_value = 1e-3, .options = "-e|--tolerance", .value_name = "TOLERANCE",
     .help = "stopping tolerance on the KKT violation"},
    {ROW(KM_PARAM_SHRINKING, "shrinking", KM_FIELD_INT, shrinking), .lower = 0, .upper = 1, .flags = INT,
     .default_value = 1, .options = "-h|--shrinking", .value_name = "0|1", .help = "shrinking heuristics"},
    {ROW(KM_PARAM_CACHE_MB, "cache_mb", KM_FIELD_DOUBLE, cache_mb), .lower = 0, .upper = INFINITY, .flags = OPEN,
     .default_value = 100, .options = "-m|--cache", .value_name = "MB",
     .help = "kernel cache size in MiB; with a fixed combination whose N x N kernel matrix fits, the "
             "solver computes it once"},
    {ROW(KM_PARAM_CACHE_VALUES, "cache_values", KM_FIELD_INT, cache_values), .flags = INT,
     .default_value = KM_CACHE_AUTO, .enumeration = KM_ENUM_CACHE_VALUES, .names = km_cache_values_name_table,
     .options = "--cache-values", .value_name = "auto|double|float",
     .help = "how the cache keeps kernel values, double or float (twice as many per MiB; results differ "
             "from double in the last digits): the fixed combination's, where auto is double when the N x N "
             "matrix fits in -m as double, else float; and low-rank kernels' features (every method), where "
             "auto is double when they fit in -m as double, else float (--cache-float and --cache-double are "
             "its switches)"},
    {ROW(KM_PARAM_MULTICLASS, "multiclass", KM_FIELD_INT, multiclass), .flags = INT,
     .default_value = KM_MULTICLASS_OVO, .enumeration = KM_ENUM_MULTICLASS, .names = km_multiclass_name_table,
     .options = "--multiclass", .value_name = "M",
     .help = "ovo (one-vs-one) or ovr (one-vs-rest); joint: one machine for all classes (--mkl obscure)"},
    {ROW(KM_PARAM_MAX_ITER, "max_iter", KM_FIELD_LONG, max_iter), .lower = 1, .upper = (double)INT64_MAX,
     .flags = INT | KM_PARAM_AUTOMATIC, .options = "--max-iter", .value_name = "N",
     .help = "solver iteration limit (default: LIBSVM's, max(10^7, 100 N))"},
    {ROW(KM_PARAM_SEED, "seed", KM_FIELD_U64, seed), .lower = 0, .upper = (double)INT64_MAX, .flags = INT,
     .options = "--seed", .value_name = "N",
     .help = "seed of the fold assignment, the probability models' folds (0: those svm-train draws), "
             "k-means and OBSCURE's order"},
    {ROW(KM_PARAM_PROBABILITY, "probability", KM_FIELD_INT, probability), .lower = 0, .upper = 1, .flags = INT,
     .options = "-b|--probability", .value_name = "0|1",
     .help = "1: also fit probability models by 5-fold internal cross-validation, as LIBSVM's -b 1: "
             "classification a Platt sigmoid per one-vs-one machine (pairs coupled for more than two "
             "classes), regression the Laplace width of the residuals; one-class has none. Costs 5 more "
             "solves per machine, with learned kernel weights fixed. The folds follow --seed. Not with -v "
             "(its folds predict by vote)"},
    {ROW(KM_PARAM_KRR_BIAS, "krr_bias", KM_FIELD_INT, krr_bias), .lower = 0, .upper = 1, .flags = INT,
     .default_value = 1, .options = "--no-bias", .switch_value = 0,
     .help = "krr: no bias term (default: an unregularized bias, which equals centred kernels and "
             "targets); C-SVC and epsilon-SVR (and MKL on them): f(x) = sum_i c_i K(x_i, x) without bias, the "
             "dual loses sum_i y_i a_i = 0 (sum_i c_i = 0) and is solved by one-variable steps, on low-rank "
             "kernels by dual coordinate descent on their features"},
};
#define N_FIELD_ROWS (sizeof field_rows / sizeof field_rows[0])

const km_param_row *km_params_field_rows(size_t *count)
{
    *count = N_FIELD_ROWS;
    return field_rows;
}

static int listed(km_param id, const km_param *except)
{
    for (size_t k = 0; except && except[k]; k++)
        if (except[k] == id)
            return 1;
    return 0;
}

/* n values of two arrays, equal (both NULL included). */
static int same_values(const double *a, const double *b, size_t n)
{
    if (!a || !b)
        return a == b;
    for (size_t k = 0; k < n; k++)
        if (!(a[k] == b[k]))
            return 0;
    return 1;
}

int km_params_same_except(const km_params *a, const km_params *b, const km_param *except)
{
    for (size_t k = 0; k < N_FIELD_ROWS; k++) {
        const km_param_row *row = &field_rows[k];
        if (!listed(row->id, except) && km_param_row_read(row, a) != km_param_row_read(row, b))
            return 0;
    }
    for (size_t id = 0; id < KM_PARAM_SLOTS; id++) {
        const km_param_slot *x = &a->slots[id], *y = &b->slots[id];
        if (!listed((km_param)id, except) && (x->set != y->set || (x->set && (!(x->real == y->real) ||
                                                                               x->integer != y->integer))))
            return 0;
    }
    return a->n_class_weights == b->n_class_weights && a->n_kernel_weights == b->n_kernel_weights &&
           same_values(a->class_weight_labels, b->class_weight_labels, a->n_class_weights) &&
           same_values(a->class_weights, b->class_weights, a->n_class_weights) &&
           (a->n_kernel_weights ? same_values(a->kernel_weights, b->kernel_weights, a->n_kernel_weights)
                                : a->kernel_weights == b->kernel_weights);
}

km_params km_params_default(void)
{
    km_params p;
    memset(&p, 0, sizeof p);
    km_param_rows_defaults(field_rows, N_FIELD_ROWS, &p);
    return p;
}

void km_params_store(km_params *params, km_param id, double value)
{
    if ((unsigned)id >= KM_PARAM_SLOTS)
        return;
    km_param_slot *slot = &params->slots[id];
    slot->real = value;
    slot->integer = fabs(value) < 0x1p62 ? (int64_t)value : value < 0 ? INT64_MIN : INT64_MAX;
    slot->set = 1;
}

km_status km_params_new(km_params **out)
{
    if (!(*out = malloc(sizeof **out)))
        return km_error_nomem("training parameters");
    **out = km_params_default();
    return KM_OK;
}

void km_params_free(km_params *params)
{
    if (!params)
        return;
    free(params->owned_kernel_weights);
    free(params->owned_class_weights);
    free(params);
}

km_status km_params_copy(const km_params *params, km_params **out)
{
    km_params *copy = malloc(sizeof *copy);
    if (!copy)
        return km_error_nomem("training parameters");
    *copy = *params;
    copy->kernel_weights = copy->owned_kernel_weights = NULL;
    copy->n_kernel_weights = copy->n_class_weights = 0;
    copy->class_weight_labels = copy->class_weights = copy->owned_class_weights = NULL;
    km_status st = km_params_set_kernel_weights(copy, params->kernel_weights, params->n_kernel_weights);
    if (!st)
        st = km_params_set_class_weights(copy, params->class_weight_labels, params->class_weights,
                                         params->n_class_weights);
    if (st) {
        km_params_free(copy);
        return st;
    }
    *out = copy;
    return KM_OK;
}

static km_status check_kernel_weights(const double *weights, size_t n)
{
    double sum = 0;
    for (size_t m = 0; m < n; m++) {
        if (!(weights[m] >= 0) || !isfinite(weights[m]))
            return km_error(KM_EINVAL, "kernel weight %zu must be >= 0 (got %g)", m + 1, weights[m]);
        sum += weights[m];
    }
    if (sum <= 0)
        return km_error(KM_EINVAL, "kernel weights are all zero");
    return KM_OK;
}

static km_status check_class_weights(const double *labels, const double *weights, size_t n)
{
    for (size_t k = 0; k < n; k++)
        if (!(weights[k] > 0) || !isfinite(weights[k]))
            return km_error(KM_EINVAL, "class weight of label %g must be positive (got %g)", labels[k], weights[k]);
    return KM_OK;
}

km_status km_params_set_kernel_weights(km_params *params, const double *weights, size_t n)
{
    if (!weights || n == 0) {
        free(params->owned_kernel_weights);
        params->kernel_weights = params->owned_kernel_weights = NULL;
        params->n_kernel_weights = 0;
        return KM_OK;
    }
    km_status st = check_kernel_weights(weights, n);
    if (st)
        return st;
    double *copy = malloc(n * sizeof *copy);
    if (!copy)
        return km_error_nomem("kernel weights");
    memcpy(copy, weights, n * sizeof *copy);
    free(params->owned_kernel_weights);
    params->kernel_weights = params->owned_kernel_weights = copy;
    params->n_kernel_weights = n;
    return KM_OK;
}

const double *km_params_kernel_weights(const km_params *params, size_t *n)
{
    if (n)
        *n = params->n_kernel_weights;
    return params->kernel_weights;
}

km_status km_params_set_class_weights(km_params *params, const double *labels, const double *weights, size_t n)
{
    if (n && (!labels || !weights))
        return km_error(KM_EINVAL, "%zu class weights without their labels or values", n);
    km_status st = check_class_weights(labels, weights, n);
    if (st)
        return st;
    double *copy = NULL;
    if (n && !(copy = malloc(2 * n * sizeof *copy)))
        return km_error_nomem("class weights");
    if (n) {
        memcpy(copy, labels, n * sizeof *copy);
        memcpy(copy + n, weights, n * sizeof *copy);
    }
    free(params->owned_class_weights);
    params->owned_class_weights = copy;
    params->class_weight_labels = copy;
    params->class_weights = copy ? copy + n : NULL;
    params->n_class_weights = n;
    return KM_OK;
}

size_t km_params_class_weights(const km_params *params, const double **labels, const double **weights)
{
    if (labels)
        *labels = params->class_weight_labels;
    if (weights)
        *weights = params->class_weights;
    return params->n_class_weights;
}

void km_params_set_log(km_params *params, km_log_fn fn, void *user)
{
    params->log = fn;
    params->log_user = user;
}

void km_params_set_progress(km_params *params, km_progress_fn fn, void *user)
{
    params->progress = fn;
    params->progress_user = user;
}

km_status km_params_check(const km_params *params, size_t n_kernels)
{
    for (size_t k = 0; k < N_FIELD_ROWS; k++) {
        double value = km_param_row_read(&field_rows[k], params);
        if (!km_param_row_within(&field_rows[k], value))
            return km_param_out_of_bounds(&field_rows[k], value);
    }
    km_status st = check_class_weights(params->class_weight_labels, params->class_weights, params->n_class_weights);
    if (st || !params->kernel_weights)
        return st;
    if (params->n_kernel_weights && params->n_kernel_weights != n_kernels)
        return km_error(KM_EINVAL, "%zu kernel weights given for %zu kernels", params->n_kernel_weights, n_kernels);
    return check_kernel_weights(params->kernel_weights, n_kernels);
}
