/* The public lookup of enumeration names (km_enum_name, km_enum_value, km_enum_name_at). */
#include "train/enum_names.h"

#include "core/error.h"
#include "core/suggest.h"
#include "mkl/mkl_names.h"

const km_name *km_enum_table(km_enum e)
{
    switch (e) {
    case KM_ENUM_TASK: return km_task_names;
    case KM_ENUM_MULTICLASS: return km_multiclass_names;
    case KM_ENUM_MKL_METHOD: return km_mkl_method_name_table();
    case KM_ENUM_MKL_SOLVER: return km_mkl_solver_name_table();
    case KM_ENUM_MKL_REGULARIZER: return km_mkl_regularizer_name_table();
    case KM_ENUM_KERNEL_TYPE: return km_kernel_type_names;
    case KM_ENUM_NORMALIZATION: return km_normalization_names;
    case KM_ENUM_CACHE_VALUES: return km_cache_values_names;
    case KM_ENUM_MU0: return km_mu0_name_table();
    case KM_ENUM_RANK1_WEIGHT: return km_rank1_weight_name_table();
    case KM_ENUM_SCORE: return km_score_names;
    }
    return NULL;
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
        if (km_name_is_canonical(table, k) && index-- == 0) {
            if (value)
                *value = table[k].value;
            return table[k].name;
        }
    return NULL;
}
