/* The precomputed family: values stored in a kernel matrix (file= or an in-memory matrix) or in the
 * dataset's own kernel rows (LIBSVM's 0:id rows); read and checked by precomputed.c and
 * km_kernel_cross. */
#include "kernel/kernel_family.h"

const km_kernel_family km_family_precomputed = {
    .type = KM_KERNEL_PRECOMPUTED,
    .input = KM_INPUT_MATRIX,
    .params = KM_SPEC_FILE,
};
