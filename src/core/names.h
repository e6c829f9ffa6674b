/* The names of the enumerations, one table per enumeration (the lower layers' here, the kernel-weight
 * methods' in mkl/mkl_names.h), shared by model files, the CLI, its reports and the public lookup
 * km_enum_name / km_enum_value (src/train/enum_names.c). */
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
extern const km_name km_kernel_type_names[];
extern const km_name km_normalization_names[];
extern const km_name km_gamma_mode_names[];
extern const km_name km_landmark_sampling_names[];
extern const km_name km_cache_values_names[];
extern const km_name km_score_names[];
/* The same tables as functions (a parameter row's names, core/param_row.h). */
const km_name *km_task_name_table(void);
const km_name *km_multiclass_name_table(void);
const km_name *km_cache_values_name_table(void);
/* Canonical name of value in table, or NULL when the table has none. */
const char *km_name_of(const km_name *table, int value);
/* Sets *value to the value called name (canonical or alias) in table and returns 1; returns 0 when
 * there is none. */
int km_value_of(const km_name *table, const char *name, int *value);
/* Whether entry k of table is the canonical name of its value (the first with that value). */
int km_name_is_canonical(const km_name *table, size_t k);
/* The canonical names as a phrase, "a, b or c", into buf (truncated to size); returns buf. */
const char *km_names_phrase(const km_name *table, char *buf, size_t size);

#endif
