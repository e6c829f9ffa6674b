/* The names of the enumerations of the lower layers (core/names.h) and the lookups in name tables. */
#include "core/names.h"

#include <stdio.h>
#include <string.h>


const km_name km_task_names[] = {{KM_TASK_SVC, "svc"},           {KM_TASK_SVR, "svr"},
                                 {KM_TASK_ONECLASS, "oneclass"}, {KM_TASK_ONECLASS, "one-class"},
                                 {KM_TASK_NU_SVC, "nu-svc"},     {KM_TASK_NU_SVR, "nu-svr"},
                                 {KM_TASK_KRR, "krr"},
                                 {0, NULL}};

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

/* km_landmark_sampling of kernel/kernel.h (KM_LANDMARKS_UNIFORM, _KMEANSPP, _LEVERAGE), internal to the library */
const km_name km_landmark_sampling_names[] = {{0, "uniform"}, {1, "kmeans++"}, {2, "leverage"}, {0, NULL}};

const km_name km_cache_values_names[] = {
    {KM_CACHE_AUTO, "auto"}, {KM_CACHE_DOUBLE, "double"}, {KM_CACHE_FLOAT, "float"}, {0, NULL}};

const km_name km_score_names[] = {
    {KM_SCORE_ACCURACY, "accuracy"}, {KM_SCORE_BALANCED_ACCURACY, "balanced-accuracy"}, {KM_SCORE_AUC, "auc"},
    {KM_SCORE_MCC, "mcc"}, {KM_SCORE_AVERAGE_PRECISION, "average-precision"}, {KM_SCORE_MSE, "mse"},
    {KM_SCORE_R2, "r2"}, {KM_SCORE_LOG_LOSS, "log-loss"}, {KM_SCORE_BALANCED_ACCURACY, "balanced_accuracy"},
    {KM_SCORE_LOG_LOSS, "log_loss"},
    {KM_SCORE_AVERAGE_PRECISION, "average_precision"}, {KM_SCORE_AVERAGE_PRECISION, "ap"}, {0, NULL}};

const km_name *km_task_name_table(void)
{
    return km_task_names;
}

const km_name *km_multiclass_name_table(void)
{
    return km_multiclass_names;
}

const km_name *km_cache_values_name_table(void)
{
    return km_cache_values_names;
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
int km_name_is_canonical(const km_name *table, size_t k)
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
        n += km_name_is_canonical(table, k);
    if (size)
        buf[0] = '\0';
    for (size_t k = 0, i = 0; table[k].name; k++) {
        if (!km_name_is_canonical(table, k))
            continue;
        const char *separator = i == 0 ? "" : i + 1 == n ? " or " : ", ";
        int written = len < size ? snprintf(buf + len, size - len, "%s%s", separator, table[k].name) : 0;
        len += written > 0 ? (size_t)written : 0;
        i++;
    }
    return buf;
}
