/* Exponentials of whole arrays, vectorised through glibc's libmvec where the compiler supports it
 * (GCC on x86-64, with run-time dispatch to AVX-512 or AVX2 code), a plain exp() loop elsewhere.
 * libmvec's exp is within 4 ulp of the correctly rounded value. */
#ifndef KM_KERNEL_VECTOR_EXP_H
#define KM_KERNEL_VECTOR_EXP_H

#include <stddef.h>

/* out[k] = exp(scale * x[k]), k < n, but 0 where that is below 3.4e-308 (arguments below about
 * -707.97; there exp is tiny, subnormal or 0); out may equal x. */
void km_vexp(const double *x, double scale, size_t n, double *out);
/* out[k] = x[k]^2, 0 where that is below 3.4e-308 as in km_vexp: exp(2a) from exp(a) with one
 * multiplication (out may equal x). */
void km_vsquare(const double *x, size_t n, double *out);

#endif
