/* Vectorised exponentials (vector_exp.h). GCC vectorises a loop over exp() with libmvec's vector
 * variants when exp is declared SIMD-callable and errno need not be set: this file is built with
 * -fno-math-errno and -O3 (CMakeLists.txt), and target_clones compiles each loop for AVX-512, AVX2
 * and the baseline, chosen once at load time. Other compilers get the scalar loop. */
#include "kernel/vector_exp.h"

#include <math.h>

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__GLIBC__)
double exp(double) __attribute__((simd("notinbranch")));
#define KM_VECTOR_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define KM_VECTOR_CLONES
#endif

KM_VECTOR_CLONES void km_vexp(const double *x, double scale, size_t n, double *out)
{
    for (size_t k = 0; k < n; k++)
        out[k] = exp(scale * x[k]);
}

KM_VECTOR_CLONES void km_vexp_add(const double *x, double scale, double weight, size_t n, double *out)
{
    for (size_t k = 0; k < n; k++)
        out[k] += weight * exp(scale * x[k]);
}
