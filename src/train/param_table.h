/* The one table of training parameters: the rows of every layer (core/params.c: the machine's and the
 * run's; mkl/mkl_params.c: the kernel-weight methods'), behind the public km_params_set_* / get_*,
 * km_param_bounds, km_param_describe and the command line's generated options and help. */
#ifndef KM_TRAIN_PARAM_TABLE_H
#define KM_TRAIN_PARAM_TABLE_H

#include <stddef.h>

#include "core/param_row.h"
#include "core/params.h"

/* The row of parameter id; NULL when there is none. */
const km_param_row *km_param_row_of(km_param id);
/* The k-th row of the table (the machine's first); NULL past the end. */
const km_param_row *km_param_row_at(size_t k);
/* Whether parameter id belongs to the kernel-weight methods (mkl/mkl_params.h) rather than to the
 * machine or the run. */
int km_param_is_method_param(km_param id);
/* Sets parameter id from text (km_param_row_parse); a failure's message starts with `as` ("option -c")
 * and leaves the value as it was. automatic: the automatic choice of a KM_PARAM_AUTOMATIC row is taken
 * as well (the command line leaves it to the option's absence). */
km_status km_params_set_text_as(km_params *params, km_param id, const char *text, const char *as, int automatic);

#endif
