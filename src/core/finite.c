#include "core/finite.h"

#include <stdint.h>
#include <string.h>

#include "core/vector_clones.h"

/* Arrays from this many values on are checked by several threads, in runs of KM_FINITE_RUN values. */
#define KM_FINITE_PARALLEL_MIN ((size_t)1 << 18)
#define KM_FINITE_RUN ((size_t)1 << 16)

/* 1 when no value of the run is infinite or NaN. The 64-bit compares vectorise with AVX2 or AVX-512
 * (the x86-64 baseline has none), hence the clones. */
static KM_VECTOR_CLONES int finite_run(const double *values, size_t count)
{
    const uint64_t exponent = UINT64_C(0x7ff0000000000000);
    uint64_t bad = 0;
    for (size_t k = 0; k < count; k++) {
        uint64_t bits;
        memcpy(&bits, values + k, sizeof bits);
        bad |= (bits & exponent) == exponent;
    }
    return !bad;
}

int km_all_finite(const double *values, size_t count)
{
    if (count < KM_FINITE_PARALLEL_MIN)
        return finite_run(values, count);
    size_t runs = (count + KM_FINITE_RUN - 1) / KM_FINITE_RUN;
    int bad = 0;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) reduction(| : bad)
#endif
    for (size_t r = 0; r < runs; r++) {
        size_t from = r * KM_FINITE_RUN, left = count - from;
        bad |= !finite_run(values + from, left < KM_FINITE_RUN ? left : KM_FINITE_RUN);
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
