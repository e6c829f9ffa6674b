/* Training parameters: the defaults, the handle with its setters and getters by id, and the table of
 * names and bounds they check against (also km_train's check of the machine parameters). */
#include "core/params.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/names.h"

/* Enum fields are set and read as int (an enum type is compatible with int or unsigned int). */
_Static_assert(sizeof(km_task) == sizeof(int) && sizeof(km_cache_values) == sizeof(int) &&
                   sizeof(km_multiclass) == sizeof(int) && sizeof(km_mkl_method) == sizeof(int) &&
                   sizeof(km_mkl_solver) == sizeof(int) && sizeof(km_mkl_regularizer) == sizeof(int) && sizeof(km_mu0) == sizeof(int),
               "enum fields are accessed as int");

km_params km_params_default(void)
{
    km_params p;
    memset(&p, 0, sizeof p);
    p.task = KM_TASK_SVC;
    p.C = 1.0;
    p.epsilon = 0.1;
    p.nu = 0.5;
    p.tolerance = 1e-3;
    p.shrinking = 1;
    p.cache_mb = 100.0;
    p.multiclass = KM_MULTICLASS_OVO;
    p.mkl.method = KM_MKL_FIXED;
    p.mkl.p = 2.0;
    p.mkl.lambda = 0.5;
    p.mkl.solver = KM_MKL_INTERLEAVED;
    p.mkl.gap = 1e-3;
    p.mkl.eps_mkl = 1e-5;
    p.mkl.theta_tol = 1e-4;
    p.mkl.max_outer = 10000;
    p.mkl.align_q = 2.0;
    p.mkl.radius = 1.0;
    p.mkl.eta = 0.25;
    p.mkl.eb_inner = 100;
    p.mkl.eb_tol = 1e-10;
    p.mkl.obscure_epochs = 50;
    p.mkl.obscure_tol = 1e-2;
    p.mkl.obscure_online_epochs = 5;
    p.mkl.obscure_t0 = -1;
    p.mkl.clusters = 3;
    p.mkl.cluster_ae = 0.5;
    p.mkl.cluster_tau = -1;
    p.mkl.cluster_restarts = 10;
    p.krr_bias = 1;
    return p;
}

typedef enum field_kind { FIELD_DOUBLE, FIELD_INT, FIELD_LONG, FIELD_U64 } field_kind;

typedef struct param_spec {
    km_param id;
    const char *name;
    field_kind kind;             /* FIELD_INT also holds the enums */
    size_t offset;               /* of the field in struct km_params */
    double lower, upper;
    unsigned flags;              /* KM_PARAM_* of km_param_bounds */
    const km_name *names;        /* an enumeration: its name table, which decides the valid values
                                    (lower and upper are then unused); NULL otherwise */
} param_spec;

#define AT(field) offsetof(km_params, field)
#define OPEN (KM_PARAM_LOWER_OPEN | KM_PARAM_UPPER_OPEN)
#define INT KM_PARAM_INTEGER
/* The machine parameters come first: km_params_check checks them (the MKL ones are checked by the
 * MKL method, which knows which of them apply). */
static const param_spec specs[] = {
    {KM_PARAM_TASK, "task", FIELD_INT, AT(task), 0, 0, INT, km_task_names},
    {KM_PARAM_C, "C", FIELD_DOUBLE, AT(C), 0, INFINITY, OPEN, NULL},
    {KM_PARAM_EPSILON, "epsilon", FIELD_DOUBLE, AT(epsilon), 0, INFINITY, KM_PARAM_UPPER_OPEN, NULL},
    {KM_PARAM_NU, "nu", FIELD_DOUBLE, AT(nu), 0, 1, KM_PARAM_LOWER_OPEN, NULL},
    {KM_PARAM_TOLERANCE, "tolerance", FIELD_DOUBLE, AT(tolerance), 0, INFINITY, OPEN, NULL},
    {KM_PARAM_SHRINKING, "shrinking", FIELD_INT, AT(shrinking), 0, 1, INT, NULL},
    {KM_PARAM_CACHE_MB, "cache_mb", FIELD_DOUBLE, AT(cache_mb), 0, INFINITY, OPEN, NULL},
    {KM_PARAM_CACHE_VALUES, "cache_values", FIELD_INT, AT(cache_values), 0, 0, INT, km_cache_values_names},
    {KM_PARAM_MULTICLASS, "multiclass", FIELD_INT, AT(multiclass), 0, 0, INT, km_multiclass_names},
    {KM_PARAM_MAX_ITER, "max_iter", FIELD_LONG, AT(max_iter), 0, (double)INT64_MAX, INT, NULL},
    {KM_PARAM_SEED, "seed", FIELD_U64, AT(seed), 0, (double)INT64_MAX, INT, NULL},
    {KM_PARAM_PROBABILITY, "probability", FIELD_INT, AT(probability), 0, 1, INT, NULL},
    {KM_PARAM_MKL_METHOD, "mkl_method", FIELD_INT, AT(mkl.method), 0, 0, INT, km_mkl_method_names},
    {KM_PARAM_P, "p", FIELD_DOUBLE, AT(mkl.p), 1, INFINITY, 0, NULL},
    {KM_PARAM_P_BLOCK, "p_block", FIELD_DOUBLE, AT(mkl.p_block), 0, INFINITY, 0, NULL},
    {KM_PARAM_LAMBDA, "lambda", FIELD_DOUBLE, AT(mkl.lambda), 0, 1, 0, NULL},
    {KM_PARAM_MKL_SOLVER, "mkl_solver", FIELD_INT, AT(mkl.solver), 0, 0, INT, km_mkl_solver_names},
    {KM_PARAM_MKL_GAP, "mkl_gap", FIELD_DOUBLE, AT(mkl.gap), 0, INFINITY, OPEN, NULL},
    {KM_PARAM_MKL_EPS, "mkl_eps", FIELD_DOUBLE, AT(mkl.eps_mkl), 0, INFINITY, OPEN, NULL},
    {KM_PARAM_MKL_THETA_TOL, "mkl_theta_tol", FIELD_DOUBLE, AT(mkl.theta_tol), 0, INFINITY, 0, NULL},
    {KM_PARAM_MKL_MAX_OUTER, "mkl_max_outer", FIELD_LONG, AT(mkl.max_outer), 1, (double)INT64_MAX, INT, NULL},
    {KM_PARAM_MKL_MAX_TIME, "mkl_max_time", FIELD_DOUBLE, AT(mkl.max_time), 0, INFINITY, 0, NULL},
    {KM_PARAM_SHARED_WEIGHTS, "shared_weights", FIELD_INT, AT(mkl.shared_weights), 0, 1, INT, NULL},
    {KM_PARAM_REGULARIZER, "regularizer", FIELD_INT, AT(mkl.regularizer), 0, 0, INT, km_mkl_regularizer_names},
    {KM_PARAM_REG_PARAM, "reg_param", FIELD_DOUBLE, AT(mkl.reg_param), 0, INFINITY, 0, NULL},
    {KM_PARAM_KRR_BIAS, "krr_bias", FIELD_INT, AT(krr_bias), 0, 1, INT, NULL},
    {KM_PARAM_ALIGN_Q, "align_q", FIELD_DOUBLE, AT(mkl.align_q), 1, INFINITY, KM_PARAM_LOWER_OPEN, NULL},
    {KM_PARAM_MKL_RADIUS, "mkl_radius", FIELD_DOUBLE, AT(mkl.radius), 0, INFINITY, OPEN, NULL},
    {KM_PARAM_L2KRR_ETA, "l2krr_eta", FIELD_DOUBLE, AT(mkl.eta), 0, 1, KM_PARAM_UPPER_OPEN, NULL},
    {KM_PARAM_MU0, "mu0", FIELD_INT, AT(mkl.mu0), 0, 0, INT, km_mu0_names},
    {KM_PARAM_RANK1_WEIGHT, "rank1_weight", FIELD_INT, AT(mkl.rank1_weight), 0, 0, INT, km_rank1_weight_names},
    {KM_PARAM_EB_NOISE, "eb_noise", FIELD_DOUBLE, AT(mkl.eb_noise), 0, INFINITY, KM_PARAM_UPPER_OPEN, NULL},
    {KM_PARAM_EB_LEARN_NOISE, "eb_learn_noise", FIELD_INT, AT(mkl.eb_learn_noise), 0, 1, INT, NULL},
    {KM_PARAM_EB_INNER, "eb_inner", FIELD_LONG, AT(mkl.eb_inner), 1, (double)INT64_MAX, INT, NULL},
    {KM_PARAM_EB_TOL, "eb_tol", FIELD_DOUBLE, AT(mkl.eb_tol), 0, INFINITY, OPEN, NULL},
    {KM_PARAM_OBSCURE_EPOCHS, "obscure_epochs", FIELD_LONG, AT(mkl.obscure_epochs), 0, (double)INT64_MAX, INT, NULL},
    {KM_PARAM_OBSCURE_ONLINE_EPOCHS, "obscure_online_epochs", FIELD_LONG, AT(mkl.obscure_online_epochs), 0,
     (double)INT64_MAX, INT, NULL},
    {KM_PARAM_OBSCURE_ETA, "obscure_eta", FIELD_DOUBLE, AT(mkl.obscure_eta), 0, INFINITY, KM_PARAM_UPPER_OPEN, NULL},
    {KM_PARAM_OBSCURE_RADIUS, "obscure_radius", FIELD_DOUBLE, AT(mkl.obscure_radius), 0, INFINITY, 0, NULL},
    {KM_PARAM_OBSCURE_T0, "obscure_t0", FIELD_LONG, AT(mkl.obscure_t0), -1, (double)INT64_MAX, INT, NULL},
    {KM_PARAM_OBSCURE_TOL, "obscure_tol", FIELD_DOUBLE, AT(mkl.obscure_tol), 0, INFINITY, KM_PARAM_UPPER_OPEN, NULL},
    {KM_PARAM_OBSCURE_TRACE, "obscure_trace", FIELD_INT, AT(mkl.obscure_trace), 0, 1, INT, NULL},
    {KM_PARAM_CLUSTERS, "clusters", FIELD_LONG, AT(mkl.clusters), 1, (double)INT64_MAX, INT, NULL},
    {KM_PARAM_CLUSTER_AE, "cluster_ae", FIELD_DOUBLE, AT(mkl.cluster_ae), 0, 1, KM_PARAM_LOWER_OPEN, NULL},
    {KM_PARAM_CLUSTER_TAU, "cluster_tau", FIELD_DOUBLE, AT(mkl.cluster_tau), -INFINITY, INFINITY, KM_PARAM_LOWER_OPEN, NULL},
    {KM_PARAM_CLUSTER_KERNEL, "cluster_kernel", FIELD_LONG, AT(mkl.cluster_kernel), 0, (double)INT64_MAX, INT, NULL},
    {KM_PARAM_CLUSTER_ONLY, "cluster_only", FIELD_INT, AT(mkl.cluster_only), 0, 1, INT, NULL},
    {KM_PARAM_CLUSTER_RESTARTS, "cluster_restarts", FIELD_LONG, AT(mkl.cluster_restarts), 1, (double)INT64_MAX, INT, NULL},
};
#define N_SPECS (sizeof specs / sizeof specs[0])
#define N_MACHINE_SPECS 12   /* KM_PARAM_TASK ... KM_PARAM_PROBABILITY */

static const param_spec *find_spec(km_param id)
{
    for (size_t k = 0; k < N_SPECS; k++)
        if (specs[k].id == id)
            return &specs[k];
    return NULL;
}

static km_status spec_of(km_param id, const param_spec **out)
{
    if (!(*out = find_spec(id)))
        return km_error(KM_EINVAL, "unknown parameter id %d", (int)id);
    return KM_OK;
}

/* The smallest and largest value an enumeration's name table names. */
static void enum_range(const km_name *names, double *lower, double *upper)
{
    *lower = INFINITY;
    *upper = -INFINITY;
    for (; names->name; names++) {
        *lower = fmin(*lower, names->value);
        *upper = fmax(*upper, names->value);
    }
}

static int within(const param_spec *s, double value)
{
    if (s->names)
        return value == (int)value && km_name_of(s->names, (int)value) != NULL;
    int above = s->flags & KM_PARAM_LOWER_OPEN ? value > s->lower : value >= s->lower;
    int below = s->flags & KM_PARAM_UPPER_OPEN ? value < s->upper : value <= s->upper;
    return above && below;
}

static km_status out_of_bounds(const param_spec *s, double value)
{
    if (s->names)
        return km_error(KM_EINVAL, "parameter %s: %.17g is not one of its values", s->name, value);
    return km_error(KM_EINVAL, "parameter %s must be %s in %c%g, %g%c (got %.17g)", s->name,
                    s->flags & KM_PARAM_INTEGER ? "an integer" : "a number",
                    s->flags & KM_PARAM_LOWER_OPEN ? '(' : '[', s->lower, s->upper,
                    s->flags & KM_PARAM_UPPER_OPEN ? ')' : ']', value);
}

static double field_value(const km_params *params, const param_spec *s)
{
    const void *field = (const char *)params + s->offset;
    switch (s->kind) {
    case FIELD_DOUBLE: return *(const double *)field;
    case FIELD_INT: return *(const int *)field;
    case FIELD_LONG: return (double)*(const long *)field;
    case FIELD_U64: return (double)*(const uint64_t *)field;
    }
    return NAN;
}

static km_status wrong_type(const param_spec *s)
{
    const char *type = s->flags & KM_PARAM_INTEGER ? "int" : "double";
    return km_error(KM_EINVAL, "parameter %s is read and written by km_params_set_%s and km_params_get_%s", s->name,
                    type, type);
}

/* The spec of parameter id, which must be an integer parameter (integer != 0) or a real one. */
static km_status typed_spec(km_param id, int integer, const param_spec **out)
{
    km_status st = spec_of(id, out);
    if (st)
        return st;
    return !((*out)->flags & KM_PARAM_INTEGER) == !integer ? KM_OK : wrong_type(*out);
}

km_status km_params_set_double(km_params *params, km_param id, double value)
{
    const param_spec *s;
    km_status st = typed_spec(id, 0, &s);
    if (st)
        return st;
    if (!within(s, value))
        return out_of_bounds(s, value);
    if (id == KM_PARAM_P_BLOCK && value > 0 && value < 1)
        return km_error(KM_EINVAL, "parameter p_block must be 0 (use p) or at least 1 (got %g)", value);
    *(double *)((char *)params + s->offset) = value;
    return KM_OK;
}

km_status km_params_set_int(km_params *params, km_param id, int64_t value)
{
    const param_spec *s;
    km_status st = typed_spec(id, 1, &s);
    if (st)
        return st;
    if (!within(s, (double)value))
        return out_of_bounds(s, (double)value);
    void *field = (char *)params + s->offset;
    switch (s->kind) {
    case FIELD_INT: *(int *)field = (int)value; break;
    case FIELD_LONG: *(long *)field = (long)value; break;
    case FIELD_U64: *(uint64_t *)field = (uint64_t)value; break;
    case FIELD_DOUBLE: break;   /* not an integer parameter */
    }
    return KM_OK;
}

km_status km_params_get_double(const km_params *params, km_param id, double *value)
{
    const param_spec *s;
    km_status st = typed_spec(id, 0, &s);
    if (st)
        return st;
    *value = field_value(params, s);
    return KM_OK;
}

km_status km_params_get_int(const km_params *params, km_param id, int64_t *value)
{
    const param_spec *s;
    km_status st = typed_spec(id, 1, &s);
    if (st)
        return st;
    const void *field = (const char *)params + s->offset;
    *value = s->kind == FIELD_INT ? *(const int *)field
             : s->kind == FIELD_LONG ? (int64_t)*(const long *)field
                                     : (int64_t)*(const uint64_t *)field;
    return KM_OK;
}

km_status km_param_bounds(km_param id, double *lower, double *upper, unsigned *flags)
{
    const param_spec *s;
    km_status st = spec_of(id, &s);
    if (st)
        return st;
    double lo = s->lower, hi = s->upper;
    if (s->names)
        enum_range(s->names, &lo, &hi);
    if (lower)
        *lower = lo;
    if (upper)
        *upper = hi;
    if (flags)
        *flags = s->flags;
    return KM_OK;
}

km_status km_param_from_name(const char *name, km_param *id)
{
    for (size_t k = 0; name && k < N_SPECS; k++)
        if (!strcmp(specs[k].name, name)) {
            *id = specs[k].id;
            return KM_OK;
        }
    return km_error(KM_EINVAL, "unknown parameter '%s'", name ? name : "(null)");
}

const char *km_param_name(km_param id)
{
    const param_spec *s = find_spec(id);
    return s ? s->name : NULL;
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
    for (size_t k = 0; k < N_MACHINE_SPECS; k++) {
        double value = field_value(params, &specs[k]);
        if (!within(&specs[k], value))
            return out_of_bounds(&specs[k], value);
    }
    km_status st = check_class_weights(params->class_weight_labels, params->class_weights, params->n_class_weights);
    if (st || !params->kernel_weights)
        return st;
    if (params->n_kernel_weights && params->n_kernel_weights != n_kernels)
        return km_error(KM_EINVAL, "%zu kernel weights given for %zu kernels", params->n_kernel_weights, n_kernels);
    return check_kernel_weights(params->kernel_weights, n_kernels);
}
