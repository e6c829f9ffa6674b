/* The interruptible Cholesky factorization and inverse (core/cholesky.h) against LAPACK's dpotrf and
 * dpotri on random symmetric positive definite matrices, of sizes below, at and across the panel
 * width (1, 2, 255, 256, 257, 520 rows) and with a leading dimension larger than n: the same factor and
 * inverse to 1e-12 relative; a matrix that is not positive definite reports dpotrf's minor; an
 * interrupt stops within one step. */
#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/cholesky.h"
#include "core/rng.h"

/* A = G G' / k + I with G n x k Gaussian (k = n / 2 + 1: a spread of eigenvalues), column-major, lda. */
static double *random_spd(size_t n, size_t lda, uint64_t seed)
{
    size_t k = n / 2 + 1;
    double *G = malloc(n * k * sizeof *G), *A = malloc(lda * n * sizeof *A);
    CHECK(G && A);
    km_rng rng;
    km_rng_seed(&rng, seed);
    for (size_t i = 0; i < n * k; i++)
        G[i] = km_rng_normal(&rng);
    for (size_t i = 0; i < lda * n; i++)
        A[i] = NAN; /* the strict upper triangle and the padding: never read */
    for (size_t c = 0; c < n; c++)
        for (size_t i = c; i < n; i++)
            A[i + c * lda] = i == c;
    cblas_dsyrk(CblasColMajor, CblasLower, CblasNoTrans, (int)n, (int)k, 1.0 / (double)k, G, (int)n, 1.0, A, (int)lda);
    free(G);
    return A;
}

/* Largest |x - y| over the lower triangle, relative to the largest |y| there. */
static double lower_difference(size_t n, const double *x, size_t ldx, const double *y, size_t ldy)
{
    double diff = 0, scale = 0;
    for (size_t c = 0; c < n; c++)
        for (size_t i = c; i < n; i++) {
            diff = fmax(diff, fabs(x[i + c * ldx] - y[i + c * ldy]));
            scale = fmax(scale, fabs(y[i + c * ldy]));
        }
    return diff / scale;
}

static int polls_left;
static int interrupt_after(void *ctx)
{
    (void)ctx;
    return polls_left-- <= 0;
}

KM_TEST_CASE(factor_equals_dpotrf)
{
    const size_t sizes[] = {1, 2, 255, 256, 257, 520};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        size_t n = sizes[s], lda = n + 3;
        double *A = random_spd(n, lda, 11 + s), *ref = malloc(lda * n * sizeof *ref);
        CHECK(ref != NULL);
        memcpy(ref, A, lda * n * sizeof *A);
        CHECK(LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', (lapack_int)n, ref, (lapack_int)lda) == 0);
        size_t failed = 99;
        CHECK_OK(km_cholesky(n, A, lda, NULL, NULL, &failed));
        CHECK(failed == 0);
        CHECK(lower_difference(n, A, lda, ref, lda) <= 1e-12);
        for (size_t c = 0; c < n; c++) /* the strict upper triangle and the padding are not written */
            for (size_t i = 0; i < lda; i++)
                if (i < c || i >= n)
                    CHECK(isnan(A[i + c * lda]));
        free(A);
        free(ref);
    }
}

KM_TEST_CASE(inverse_equals_dpotri)
{
    const size_t sizes[] = {1, 255, 257, 520};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        size_t n = sizes[s], lda = n + 1;
        double *A = random_spd(n, lda, 29 + s), *inverse = malloc(n * n * sizeof *inverse);
        CHECK(inverse != NULL);
        size_t failed = 1;
        CHECK_OK(km_cholesky(n, A, lda, NULL, NULL, &failed));
        CHECK(failed == 0);
        CHECK_OK(km_cholesky_inverse(n, A, lda, inverse, NULL, NULL));
        CHECK(LAPACKE_dpotri(LAPACK_COL_MAJOR, 'L', (lapack_int)n, A, (lapack_int)lda) == 0);
        CHECK(lower_difference(n, inverse, n, A, lda) <= 1e-12);
        for (size_t c = 0; c < n; c++) /* symmetric, both triangles written */
            for (size_t i = c + 1; i < n; i++)
                CHECK(inverse[c + i * n] == inverse[i + c * n]);
        free(A);
        free(inverse);
    }
}

/* A[300][300] made negative: the leading minor of order 301 fails, in the second panel, as in dpotrf. */
KM_TEST_CASE(not_positive_definite)
{
    size_t n = 400;
    double *A = random_spd(n, n, 5), *ref = malloc(n * n * sizeof *ref);
    CHECK(ref != NULL);
    A[300 + 300 * n] = -1.0;
    memcpy(ref, A, n * n * sizeof *A);
    lapack_int info = LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', (lapack_int)n, ref, (lapack_int)n);
    size_t failed = 0;
    CHECK_OK(km_cholesky(n, A, n, NULL, NULL, &failed));
    CHECK(info == 301 && failed == 301);
    free(A);
    free(ref);
}

/* 600 rows: 3 panels; the factorization polls before every panel and every strip of its trailing
 * updates (2 after the first panel, 1 after the second): 6 polls; the inverse before every strip. */
KM_TEST_CASE(interrupt_stops_between_steps)
{
    size_t n = 600;
    double *A = random_spd(n, n, 3), *inverse = malloc(n * n * sizeof *inverse);
    CHECK(inverse != NULL);
    size_t failed = 0;
    for (int allowed = 0; allowed < 6; allowed++) {
        double *B = malloc(n * n * sizeof *B);
        CHECK(B != NULL);
        memcpy(B, A, n * n * sizeof *A);
        polls_left = allowed;
        CHECK_STATUS(km_cholesky(n, B, n, interrupt_after, NULL, &failed), KM_EINTERRUPTED);
        free(B);
    }
    polls_left = 6; /* exactly the polls of a whole factorization */
    CHECK_OK(km_cholesky(n, A, n, interrupt_after, NULL, &failed));
    CHECK(failed == 0);
    polls_left = 1;
    CHECK_STATUS(km_cholesky_inverse(n, A, n, inverse, interrupt_after, NULL), KM_EINTERRUPTED);
    free(A);
    free(inverse);
}
