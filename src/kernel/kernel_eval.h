/* Kernel values (kernelmix.h km_kernel_type) on raw, unnormalized inputs, by the kernel's family
 * (kernel_family.h) for KM_INPUT_DOT: from dot products. gamma must be resolved (absolute). */
#ifndef KM_KERNEL_KERNEL_EVAL_H
#define KM_KERNEL_KERNEL_EVAL_H

#include <stddef.h>

#include "kernel/feature_view.h"
#include "kernel/kernel.h"

/* k(x, x') from <x,x'> and the squared norms of x and x'. */
double km_kernel_from_dot(const km_kernel *kernel, double dot, double sq_a, double sq_b);
/* out[k] = k(x_{rows[k]}, x_i) from dot[k] = <x_{rows[k]}, x_i>, sqnorm[rows[k]] and sq_i
 * (rows NULL: identity). out may equal dot. Serial: callers parallelize over blocks of rows. */
void km_kernel_from_dots(const km_kernel *kernel, const double *dot, const double *sqnorm, const size_t *rows,
                         double sq_i, size_t count, double *out);
/* out[k] = ||x_{rows[k]} - x_i||^2 = sqnorm[rows[k]] + sq_i - 2 dot[k], clamped at 0 (rows NULL: identity;
 * out may equal dot). */
void km_squared_distances(const double *dot, const double *sqnorm, const size_t *rows, double sq_i, size_t count,
                          double *out);

/* Short name of a kernel type ("rbf"), or NULL for an unknown type. */
const char *km_kernel_type_name(km_kernel_type type);

#endif
