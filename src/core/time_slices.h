/* Work on many items (kernel columns) done in slices, with a check between slices (the caller's
 * interrupt), each slice sized from the time the last one took so that it takes about
 * KM_SLICE_SECONDS: an item's cost varies a thousandfold between kernels (a column of string kernels
 * against one of dot products), so a fixed count is either too coarse to stop promptly or too fine
 * for block products to be efficient. */
#ifndef KM_CORE_TIME_SLICES_H
#define KM_CORE_TIME_SLICES_H

#include <stddef.h>

#define KM_SLICE_SECONDS 0.05

typedef struct km_time_slices {
    size_t items;     /* items of the next slice (starts at 1) */
    double started;   /* km_monotonic_seconds() at the start of the current slice */
} km_time_slices;

void km_time_slices_init(km_time_slices *s);
/* Starts a slice: returns its items, at most remaining (> 0) and at most limit (0: none). Of several
 * items a slice takes at least two and leaves none or at least two (unless limit forbids): a block
 * of kernel columns takes another BLAS path for one column (matrix-vector), whose last bits differ
 * from a matrix product's, while products of two or more columns give every value the same bits
 * (measured with OpenBLAS: a 1-row dgemm differs from a 256-row one in most values at 50 and 784
 * features, 2 to 200 rows agree bit for bit); so kernel values do not depend on where slices fall. */
size_t km_time_slices_begin(km_time_slices *s, size_t remaining, size_t limit);
/* Ends a slice of count items: the next is twice as large while a full slice takes under a quarter of
 * KM_SLICE_SECONDS, scaled down to it when one takes longer. */
void km_time_slices_end(km_time_slices *s, size_t count);

#endif
