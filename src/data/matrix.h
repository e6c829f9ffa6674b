/* Matrix storage shared by the library's readers (the public lifecycle is in kernelmix.h). */
#ifndef KM_DATA_MATRIX_H
#define KM_DATA_MATRIX_H

#include "kernelmix.h"

/* A rows×cols matrix in the storage of dtype (float32: data32, float64: data); values zero-filled
 * only when zero is set. */
km_status km_matrix_alloc(size_t rows, size_t cols, km_dtype dtype, int zero, km_matrix **out);

#endif
