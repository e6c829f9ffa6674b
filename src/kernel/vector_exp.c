/* Vectorised exponentials (vector_exp.h). GCC vectorises a loop over exp() with libmvec's vector
 * variants when exp is declared SIMD-callable and errno need not be set: this file is built with
 * -fno-math-errno and -O3 (CMakeLists.txt), and target_clones compiles each function for AVX-512,
 * AVX2 and the baseline, chosen once at load time. Other compilers get plain exp() loops.
 *
 * Every value goes through the same vector code whatever its position in the array (the tail is
 * padded to a whole block), so a value does not depend on which other values were asked for with it
 * (the provider's columns must not depend on the cache). */
#include "kernel/vector_exp.h"

#include <math.h>
#include <string.h>

#include "core/vector_clones.h"

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__GLIBC__)
double exp(double) __attribute__((simd("notinbranch")));
#endif

/* Results below KM_EXP_TINY are 0. Below exp(-708) = 3.31e-308 (near the smallest normal double)
 * libmvec hands each lane to the scalar exp, 25 times slower (wide RBF distances made that a third
 * of the training time): arguments are clamped at -708 and results below 3.4e-308 (arguments below
 * about -707.97) set to 0. */
#define KM_EXP_MIN_ARG (-708.0)
#define KM_EXP_TINY 3.4e-308
/* Values per block: one AVX-512 vector, two AVX2 or four SSE2 vectors. */
#define KM_EXP_BLOCK 8
/* Values per chunk of the loops below (a multiple of KM_EXP_BLOCK, on the stack). */
#define KM_EXP_CHUNK 256

/* out[k] = exp(scale * x[k]) (0 below KM_EXP_TINY) for n a multiple of KM_EXP_BLOCK: the vector loop
 * covers every value (its scalar remainder is never reached), so a value does not depend on its
 * position. The arguments are clamped in a loop of their own: in one loop with the exp, GCC turns
 * exp(a < m ? m : a) into a < m ? exp(m) : exp(a) and calls exp on the unclamped argument. The only
 * function compiled per instruction set; a call is never inlined into code built for another. */
KM_VECTOR_CLONES static void exp_blocks(const double *x, double scale, size_t n, double *out)
{
    double arg[KM_EXP_CHUNK];
    for (size_t k0 = 0; k0 < n; k0 += KM_EXP_CHUNK) {
        size_t len = n - k0 < KM_EXP_CHUNK ? n - k0 : KM_EXP_CHUNK;
        for (size_t j = 0; j < len; j++) {
            double a = scale * x[k0 + j];
            arg[j] = a < KM_EXP_MIN_ARG ? KM_EXP_MIN_ARG : a;
        }
        for (size_t j = 0; j < len; j++) {
            double e = exp(arg[j]);
            out[k0 + j] = e < KM_EXP_TINY ? 0.0 : e;
        }
    }
}

void km_vexp(const double *x, double scale, size_t n, double *out)
{
    size_t whole = n - n % KM_EXP_BLOCK;
    exp_blocks(x, scale, whole, out);
    if (whole < n) {
        double tail[KM_EXP_BLOCK] = {0};
        memcpy(tail, x + whole, (n - whole) * sizeof *tail);
        exp_blocks(tail, scale, KM_EXP_BLOCK, tail);
        memcpy(out + whole, tail, (n - whole) * sizeof *tail);
    }
}

/* The squares' loop, compiled per instruction set as exp_blocks is (one rounding a value in every variant). */
KM_VECTOR_CLONES static void square_all(const double *x, size_t n, double *out)
{
    for (size_t k = 0; k < n; k++) {
        double v = x[k] * x[k];
        out[k] = v < KM_EXP_TINY ? 0.0 : v;
    }
}

void km_vsquare(const double *x, size_t n, double *out) { square_all(x, n, out); }
