/* The names of the enumerations, one table per enumeration, shared by model files, the CLI, its
 * reports and the public lookup km_enum_name / km_enum_value. */
#ifndef KM_CORE_NAMES_H
#define KM_CORE_NAMES_H

#include <stddef.h>

#include "kernelmix.h"

/* One name of a value; a table lists each value's canonical name first, may follow it with
 * aliases (accepted when reading, never written), and ends with {0, NULL}. */
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
extern const km_name km_cache_values_names[];
extern const km_name km_mu0_names[];
extern const km_name km_rank1_weight_names[];
/* The table of a public enumeration, or NULL for an unknown km_enum. */
const km_name *km_enum_table(km_enum e);
/* Canonical name of value in table, or NULL when the table has none. */
const char *km_name_of(const km_name *table, int value);
/* Sets *value to the value called name (canonical or alias) in table and returns 1; returns 0 when
 * there is none. */
int km_value_of(const km_name *table, const char *name, int *value);
/* The canonical names as a phrase, "a, b or c", into buf (truncated to size); returns buf. */
const char *km_names_phrase(const km_name *table, char *buf, size_t size);

#endif
