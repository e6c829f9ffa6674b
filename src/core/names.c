/* The names of the enumerations (core/names.h). */
#include "core/names.h"

#include <string.h>

const km_name km_task_names[] = {
    {KM_TASK_SVC, "svc"}, {KM_TASK_SVR, "svr"}, {KM_TASK_ONECLASS, "oneclass"}, {0, NULL}};

const km_name km_mkl_method_names[] = {
    {KM_MKL_FIXED, "fixed"}, {KM_MKL_LP, "lp"}, {KM_MKL_ELASTICNET, "elasticnet"}, {KM_MKL_TIKHONOV, "tikhonov"},
    {0, NULL}};

const km_name km_mkl_regularizer_names[] = {{KM_REG_LQ, "lq"},           {KM_REG_BLOCK1, "block1"},
                                            {KM_REG_UNIFORM, "uniform"}, {KM_REG_ELASTICNET, "elasticnet"},
                                            {KM_REG_BLOCKP, "blockp"},   {0, NULL}};

const km_name km_mkl_solver_names[] = {{KM_MKL_INTERLEAVED, "interleaved"}, {KM_MKL_WRAPPER, "wrapper"},
                                       {KM_MKL_SILP, "silp"}, {KM_MKL_SIMPLEMKL, "simplemkl"}, {0, NULL}};

const km_name km_multiclass_names[] = {{KM_MULTICLASS_OVO, "ovo"}, {KM_MULTICLASS_OVR, "ovr"}, {0, NULL}};

/* the type names of the kernel spec grammar (kernelmix.h, km_kernel_set_add_spec) */
const km_name km_kernel_type_names[] = {
    {KM_KERNEL_LINEAR, "linear"}, {KM_KERNEL_POLY, "poly"},   {KM_KERNEL_RBF, "rbf"},
    {KM_KERNEL_SIGMOID, "sigmoid"}, {KM_KERNEL_PRECOMPUTED, "precomputed"}, {KM_KERNEL_CHI2, "chi2"},
    {KM_KERNEL_HISTINT, "histint"}, {0, NULL}};

const km_name km_normalization_names[] = {
    {KM_NORM_NONE, "none"}, {KM_NORM_MULTIPLICATIVE, "mult"}, {KM_NORM_SPHERICAL, "spherical"},
    {KM_NORM_TRACE, "trace"}, {0, NULL}};

/* km_gamma_mode of kernel/kernel.h: KM_GAMMA_ABSOLUTE, KM_GAMMA_RELATIVE */
const km_name km_gamma_mode_names[] = {{0, "absolute"}, {1, "relative"}, {0, NULL}};

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
