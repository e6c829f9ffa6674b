/* Cholesky factorization and inverse in interruptible steps (core/cholesky.h). */
#include "core/cholesky.h"

#include <cblas.h>
#include <lapacke.h>
#include <string.h>

#include "core/error.h"

/* The inverse's strip width: 2 m^2 w flops for m trailing rows stay near this many. */
#define INVERSE_STRIP_FLOPS 4e9
#define INVERSE_STRIP_MIN 16

static km_status poll(km_interrupt_fn interrupted, void *ctx, size_t n)
{
    if (interrupted && interrupted(ctx))
        return km_error(KM_EINTERRUPTED, "interrupted in the Cholesky factorization of %zu rows", n);
    return KM_OK;
}

static size_t smaller(size_t a, size_t b) { return a < b ? a : b; }

/* A22 -= L21 L21' for the trailing block from row and column c0 on, L21 the panel's b columns at
 * column j; strip by strip, polling before each. */
static km_status update_trailing(size_t n, double *A, size_t lda, size_t j, size_t b, size_t c0,
                                 km_interrupt_fn interrupted, void *ctx)
{
    for (size_t c = c0; c < n; c += KM_CHOLESKY_PANEL) {
        km_status st = poll(interrupted, ctx, n);
        if (st)
            return st;
        size_t w = smaller(KM_CHOLESKY_PANEL, n - c), below = n - c - w;
        cblas_dsyrk(CblasColMajor, CblasLower, CblasNoTrans, (int)w, (int)b, -1.0, A + c + j * lda, (int)lda, 1.0,
                    A + c + c * lda, (int)lda);
        if (below)
            cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, (int)below, (int)w, (int)b, -1.0,
                        A + c + w + j * lda, (int)lda, A + c + j * lda, (int)lda, 1.0, A + c + w + c * lda, (int)lda);
    }
    return KM_OK;
}

km_status km_cholesky(size_t n, double *A, size_t lda, km_interrupt_fn interrupted, void *interrupt_ctx,
                      size_t *failed_minor)
{
    *failed_minor = 0;
    for (size_t j = 0; j < n; j += KM_CHOLESKY_PANEL) {
        size_t b = smaller(KM_CHOLESKY_PANEL, n - j), below = n - j - b;
        km_status st = poll(interrupted, interrupt_ctx, n);
        if (st)
            return st;
        lapack_int info = LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', (lapack_int)b, A + j + j * lda, (lapack_int)lda);
        if (info) {
            *failed_minor = j + (size_t)info;
            return KM_OK;
        }
        if (!below)
            break;
        /* L21 = A21 L11^-T */
        cblas_dtrsm(CblasColMajor, CblasRight, CblasLower, CblasTrans, CblasNonUnit, (int)below, (int)b, 1.0,
                    A + j + j * lda, (int)lda, A + j + b + j * lda, (int)lda);
        if ((st = update_trailing(n, A, lda, j, b, j + b, interrupted, interrupt_ctx)))
            return st;
    }
    return KM_OK;
}

km_status km_cholesky_inverse(size_t n, const double *L, size_t lda, double *out, km_interrupt_fn interrupted,
                              void *interrupt_ctx)
{
    for (size_t j = 0; j < n;) {
        km_status st = poll(interrupted, interrupt_ctx, n);
        if (st)
            return st;
        size_t m = n - j; /* rows at or below the strip */
        double fit = INVERSE_STRIP_FLOPS / (2.0 * (double)m * (double)m);
        size_t w = smaller(m, fit >= KM_CHOLESKY_PANEL ? KM_CHOLESKY_PANEL
                              : fit <= INVERSE_STRIP_MIN ? INVERSE_STRIP_MIN : (size_t)fit);
        /* X = E (the strip's columns of I, rows j..n-1), then X = L22^-T L22^-1 X: the columns of the
         * inverse from row j on (the rows above follow by symmetry) */
        double *X = out + j + j * n;
        for (size_t c = 0; c < w; c++) {
            memset(X + c * n, 0, m * sizeof *X);
            X[c * n + c] = 1.0;
        }
        const double *L22 = L + j + j * lda;
        cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasNonUnit, (int)m, (int)w, 1.0, L22,
                    (int)lda, X, (int)n);
        cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasTrans, CblasNonUnit, (int)m, (int)w, 1.0, L22,
                    (int)lda, X, (int)n);
        j += w;
    }
    for (size_t c = 0; c < n; c++) /* the strict upper triangle from the lower */
        for (size_t i = c + 1; i < n; i++)
            out[c + i * n] = out[i + c * n];
    return KM_OK;
}
