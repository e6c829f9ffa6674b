/* Whether arrays of values are all finite (no infinity, no NaN): one branch-free pass over the
 * exponent bits, which a value has all set only when it is infinite or NaN. Integer operations:
 * the passes vectorise and large arrays are split among the OpenMP threads. */
#ifndef KM_CORE_FINITE_H
#define KM_CORE_FINITE_H

#include <stddef.h>

int km_all_finite(const double *values, size_t count);
int km_all_finite_float(const float *values, size_t count);

#endif
