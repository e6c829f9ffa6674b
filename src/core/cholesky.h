/* Cholesky factorization A = L L' of a symmetric positive definite matrix, and the inverse from its
 * factor, in steps of bounded cost with the caller's interrupt polled between them: one LAPACK call
 * on a large matrix (dpotrf of 12,000 rows takes seconds) cannot be stopped, these can within a
 * fraction of a second. Right-looking by panels: LAPACKE_dpotrf on each diagonal block, cblas_dtrsm
 * for the panel below it, then the trailing matrix updated strip by strip (cblas_dsyrk on the
 * diagonal block, cblas_dgemm below it). The result equals LAPACKE_dpotrf's to rounding. */
#ifndef KM_CORE_CHOLESKY_H
#define KM_CORE_CHOLESKY_H

#include <stddef.h>

#include "kernelmix.h"

/* Columns of a panel and of a trailing-update strip: each step is at most 2 n 256^2 flops. */
#define KM_CHOLESKY_PANEL 256

/* Polled between steps; non-zero stops with KM_EINTERRUPTED. NULL: never. */
typedef int (*km_interrupt_fn)(void *ctx);

/* Factors the lower triangle of the n x n column-major A (leading dimension lda) in place into L (the
 * strict upper triangle is not touched). *failed_minor: 0, or the order of the first leading minor
 * that is not positive definite (dpotrf's info; A is then partly overwritten). KM_EINTERRUPTED when
 * interrupted (A partly overwritten). */
km_status km_cholesky(size_t n, double *A, size_t lda, km_interrupt_fn interrupted, void *interrupt_ctx,
                      size_t *failed_minor);

/* The full symmetric inverse (L L')^-1 into out (n x n, column-major, leading dimension n) from the
 * factor L of km_cholesky (lda), column strip by column strip: (L L')^-1 E_J restricted to rows at
 * or below the strip needs only the trailing block of L (two triangular solves), each strip at most
 * about 4 * 10^9 flops. KM_EINTERRUPTED when interrupted (out partly written). */
km_status km_cholesky_inverse(size_t n, const double *L, size_t lda, double *out, km_interrupt_fn interrupted,
                              void *interrupt_ctx);

#endif
