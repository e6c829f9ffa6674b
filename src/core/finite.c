#include "core/finite.h"

#include <stdint.h>
#include <string.h>

/* Arrays from this many values on are checked by several threads. */
#define KM_FINITE_PARALLEL_MIN ((size_t)1 << 18)

int km_all_finite(const double *values, size_t count)
{
    const uint64_t exponent = UINT64_C(0x7ff0000000000000);
    int bad = 0;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) reduction(| : bad) if (count >= KM_FINITE_PARALLEL_MIN)
#endif
    for (size_t k = 0; k < count; k++) {
        uint64_t bits;
        memcpy(&bits, values + k, sizeof bits);
        bad |= (bits & exponent) == exponent;
    }
    return !bad;
}

int km_all_finite_float(const float *values, size_t count)
{
    const uint32_t exponent = UINT32_C(0x7f800000);
    int bad = 0;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) reduction(| : bad) if (count >= KM_FINITE_PARALLEL_MIN)
#endif
    for (size_t k = 0; k < count; k++) {
        uint32_t bits;
        memcpy(&bits, values + k, sizeof bits);
        bad |= (bits & exponent) == exponent;
    }
    return !bad;
}
