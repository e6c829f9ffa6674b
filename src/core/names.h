/* The names of the enumerations, one table per enumeration, shared by model files, the CLI and
 * its reports. */
#ifndef KM_CORE_NAMES_H
#define KM_CORE_NAMES_H

#include "kernelmix.h"

/* Names of the enumerations in model files; tables end with {0, NULL}. */
typedef struct km_name {
    int value;
    const char *name;
} km_name;
extern const km_name km_task_names[];
extern const km_name km_multiclass_names[];
extern const km_name km_mkl_method_names[];
extern const km_name km_mkl_solver_names[];
extern const km_name km_mkl_regularizer_names[];
extern const km_name km_kernel_type_names[];
extern const km_name km_normalization_names[];
extern const km_name km_gamma_mode_names[];
/* Name of value in table, or NULL when the table has none. */
const char *km_name_of(const km_name *table, int value);
/* Sets *value to the value called name in table and returns 1; returns 0 when there is none. */
int km_value_of(const km_name *table, const char *name, int *value);

#endif
