/* The names of the enumerations (core/names.h) and their public lookup. */
#include "core/names.h"

#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "core/suggest.h"

const km_name km_task_names[] = {{KM_TASK_SVC, "svc"},           {KM_TASK_SVR, "svr"},
                                 {KM_TASK_ONECLASS, "oneclass"}, {KM_TASK_ONECLASS, "one-class"},
                                 {KM_TASK_NU_SVC, "nu-svc"},     {KM_TASK_NU_SVR, "nu-svr"},
                                 {KM_TASK_KRR, "krr"},
                                 {0, NULL}};

const km_name km_mkl_method_names[] = {
    {KM_MKL_FIXED, "fixed"}, {KM_MKL_LP, "lp"}, {KM_MKL_ELASTICNET, "elasticnet"}, {KM_MKL_TIKHONOV, "tikhonov"},
    {KM_MKL_ALIGN, "align"}, {KM_MKL_ALIGN_Q, "align-q"}, {KM_MKL_ALIGN_Q, "alignq"}, {KM_MKL_ALIGNF, "alignf"},
    {KM_MKL_ALIGNF_LINEAR, "alignf-linear"}, {KM_MKL_L2KRR, "l2krr"}, {KM_MKL_L1KRR, "l1krr"},
    {KM_MKL_EB_RW, "eb-rw"}, {KM_MKL_EB_MACKAY, "eb-mackay"},
    {KM_MKL_OBSCURE, "obscure"},
    {KM_MKL_CLMKL, "clmkl"}, {KM_MKL_HLMKL, "hlmkl"}, {KM_MKL_LMKL, "lmkl"},
    {0, NULL}};

const km_name km_mkl_regularizer_names[] = {{KM_REG_LQ, "lq"},         {KM_REG_BLOCK1, "block1"},
                                            {KM_REG_UNIFORM, "uniform"}, {KM_REG_BLOCKP, "blockp"},
                                            {KM_REG_ELASTICNET, "elasticnet"}, {0, NULL}};

const km_name km_mkl_solver_names[] = {{KM_MKL_INTERLEAVED, "interleaved"}, {KM_MKL_WRAPPER, "wrapper"},
                                       {KM_MKL_SILP, "silp"}, {KM_MKL_SIMPLEMKL, "simplemkl"},
                                       {KM_MKL_PEGASOS, "pegasos"}, {0, NULL}};

const km_name km_multiclass_names[] = {{KM_MULTICLASS_OVO, "ovo"}, {KM_MULTICLASS_OVR, "ovr"},
                                       {KM_MULTICLASS_JOINT, "joint"}, {0, NULL}};

/* the type names of the kernel spec grammar (kernelmix.h, km_kernel_set_add_spec) */
const km_name km_kernel_type_names[] = {
    {KM_KERNEL_LINEAR, "linear"}, {KM_KERNEL_POLY, "poly"},   {KM_KERNEL_RBF, "rbf"},
    {KM_KERNEL_SIGMOID, "sigmoid"}, {KM_KERNEL_PRECOMPUTED, "precomputed"}, {KM_KERNEL_CHI2, "chi2"},
    {KM_KERNEL_HISTINT, "histint"}, {KM_KERNEL_SPECTRUM, "spectrum"}, {KM_KERNEL_WD, "wd"},
    {KM_KERNEL_POSITIONAL, "positional"}, {KM_KERNEL_POSITIONAL, "pos"}, {KM_KERNEL_RANK1, "rank1"}, {0, NULL}};

const km_name km_normalization_names[] = {
    {KM_NORM_NONE, "none"},           {KM_NORM_MULTIPLICATIVE, "mult"}, {KM_NORM_MULTIPLICATIVE, "multiplicative"},
    {KM_NORM_SPHERICAL, "spherical"}, {KM_NORM_TRACE, "trace"},         {0, NULL}};

/* km_gamma_mode of kernel/kernel.h (KM_GAMMA_ABSOLUTE, KM_GAMMA_RELATIVE), internal to the library */
const km_name km_gamma_mode_names[] = {{0, "absolute"}, {1, "relative"}, {0, NULL}};

const km_name km_cache_values_names[] = {
    {KM_CACHE_AUTO, "auto"}, {KM_CACHE_DOUBLE, "double"}, {KM_CACHE_FLOAT, "float"}, {0, NULL}};

const km_name km_mu0_names[] = {{KM_MU0_ZERO, "zero"}, {KM_MU0_UNIFORM, "uniform"}, {KM_MU0_GIVEN, "given"}, {0, NULL}};

const km_name km_rank1_weight_names[] = {{KM_RANK1_WEIGHT_CORR2, "corr2"}, {KM_RANK1_WEIGHT_CORR, "corr"}, {0, NULL}};

const km_name *km_enum_table(km_enum e)
{
    switch (e) {
    case KM_ENUM_TASK: return km_task_names;
    case KM_ENUM_MULTICLASS: return km_multiclass_names;
    case KM_ENUM_MKL_METHOD: return km_mkl_method_names;
    case KM_ENUM_MKL_SOLVER: return km_mkl_solver_names;
    case KM_ENUM_MKL_REGULARIZER: return km_mkl_regularizer_names;
    case KM_ENUM_KERNEL_TYPE: return km_kernel_type_names;
    case KM_ENUM_NORMALIZATION: return km_normalization_names;
    case KM_ENUM_CACHE_VALUES: return km_cache_values_names;
    case KM_ENUM_MU0: return km_mu0_names;
    case KM_ENUM_RANK1_WEIGHT: return km_rank1_weight_names;
    }
    return NULL;
}

const char *km_name_of(const km_name *table, int value)
{
    for (; table->name; table++)
        if (table->value == value)
            return table->name;
    return NULL;
}

int km_value_of(const km_name *table, const char *name, int *value)
{
    for (; table->name; table++)
        if (!strcmp(table->name, name)) {
            *value = table->value;
            return 1;
        }
    return 0;
}

/* Whether entry k of the table is the canonical name of its value (the first with that value). */
static int is_canonical(const km_name *table, size_t k)
{
    for (size_t j = 0; j < k; j++)
        if (table[j].value == table[k].value)
            return 0;
    return 1;
}

const char *km_names_phrase(const km_name *table, char *buf, size_t size)
{
    size_t n = 0, len = 0;
    for (size_t k = 0; table[k].name; k++)
        n += is_canonical(table, k);
    if (size)
        buf[0] = '\0';
    for (size_t k = 0, i = 0; table[k].name; k++) {
        if (!is_canonical(table, k))
            continue;
        const char *separator = i == 0 ? "" : i + 1 == n ? " or " : ", ";
        int written = len < size ? snprintf(buf + len, size - len, "%s%s", separator, table[k].name) : 0;
        len += written > 0 ? (size_t)written : 0;
        i++;
    }
    return buf;
}

const char *km_enum_name(km_enum e, int value)
{
    const km_name *table = km_enum_table(e);
    return table ? km_name_of(table, value) : NULL;
}

km_status km_enum_value(km_enum e, const char *name, int *value)
{
    const km_name *table = km_enum_table(e);
    if (!table)
        return km_error(KM_EINVAL, "km_enum_value: %d is not an enumeration", (int)e);
    if (name && km_value_of(table, name, value))
        return KM_OK;
    char phrase[256], hint[96];
    return km_error(KM_EINVAL, "'%s' is not %s%s", name ? name : "(null)", km_names_phrase(table, phrase, sizeof phrase),
                    km_did_you_mean(km_suggest_name(table, name), hint, sizeof hint));
}

const char *km_enum_name_at(km_enum e, size_t index, int *value)
{
    const km_name *table = km_enum_table(e);
    for (size_t k = 0; table && table[k].name; k++)
        if (is_canonical(table, k) && index-- == 0) {
            if (value)
                *value = table[k].value;
            return table[k].name;
        }
    return NULL;
}
