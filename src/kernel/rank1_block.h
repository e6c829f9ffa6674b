/* The rank-1 kernels of a provider served together (family_rank1.c): a combination
 *     sum_m w_m K_m(x, x') = sum_j c_j (x_j - mean_j)(x'_j - mean_j),  c_j = sum over the kernels m of
 *     feature j of w_m gamma_m,
 * is one weighted dot product of the feature rows, expanded around the training means so that sparse
 * rows stay sparse: <x, c∘x'> - h(x) - h(x') + g with h(x) = <x, c∘mean> and g = <mean, c∘mean>. A
 * combined column costs O(stored entries of the rows), never an n x n matrix per kernel. */
#ifndef KM_KERNEL_RANK1_BLOCK_H
#define KM_KERNEL_RANK1_BLOCK_H

#include <stddef.h>

#include "data/dataset.h"
#include "kernel/kernel.h"

typedef struct km_rank1_block km_rank1_block;

/* The rank-1 kernels of the fitted set (which must outlive the block) on rows[0..n) of data (rows
 * NULL: 0..n-1); *out NULL when the set has none. */
km_status km_rank1_block_new(const km_dataset *data, const size_t *rows, size_t n, const km_kernel_set *fitted,
                             km_rank1_block **out);
void km_rank1_block_free(km_rank1_block *block);
/* out[t*nrows + k] += sum over the rank-1 kernels m of weights[m] K_m(rows[k], cols[t]), t < ncols
 * (rows and cols: block rows; weights: one per kernel of the set, the others' ignored). */
km_status km_rank1_block_add(km_rank1_block *block, const double *weights, const size_t *cols, size_t ncols,
                             const size_t *rows, size_t nrows, double *out);

#endif
