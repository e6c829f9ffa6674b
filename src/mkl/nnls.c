/* Active-set solution of the non-negative quadratic program and the pseudo-inverse solve of alignf
 * (mkl/nnls.h). */
#include "mkl/nnls.h"

#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

/* s_F = M_FF^-1 a_F over the free set (free[k] != 0), 0 elsewhere; a jitter of 1e-13 of the largest
 * diagonal entry is added when rounding leaves M_FF singular (collinear kernels). */
static km_status free_block_solve(size_t M, const double *gram, const double *a, const unsigned char *free_set,
                                  size_t *index, double *block, double *s)
{
    size_t f = 0;
    double largest = 0;
    for (size_t k = 0; k < M; k++) {
        if (free_set[k])
            index[f++] = k;
        largest = fmax(largest, gram[k * M + k]);
    }
    memset(s, 0, M * sizeof *s);
    for (double jitter = 0; jitter <= 1e-6 * largest; jitter = jitter > 0 ? 100 * jitter : 1e-13 * largest) {
        for (size_t p = 0; p < f; p++) {
            for (size_t q = 0; q < f; q++)
                block[p * f + q] = gram[index[p] * M + index[q]];
            block[p * f + p] += jitter;
            block[f * f + p] = a[index[p]];
        }
        if (LAPACKE_dposv(LAPACK_COL_MAJOR, 'L', (lapack_int)f, 1, block, (lapack_int)f, block + f * f,
                          (lapack_int)f) == 0) {
            for (size_t p = 0; p < f; p++)
                s[index[p]] = block[f * f + p];
            return KM_OK;
        }
        if (!(largest > 0))
            break;
    }
    return km_error(KM_ENOTCONV, "alignf: the kernels' alignment matrix is singular on %zu kernels", f);
}

km_status km_nonnegative_qp(size_t M, const double *gram, const double *a, double *v)
{
    unsigned char *free_set = calloc(M, 1);
    size_t *index = malloc(M * sizeof *index);
    double *block = malloc((M * M + M) * sizeof *block), *s = malloc(M * sizeof *s), *w = malloc(M * sizeof *w);
    km_status st = free_set && index && block && s && w ? KM_OK : km_error_nomem("alignf's quadratic program");
    double scale = 0;
    for (size_t k = 0; k < M; k++)
        scale = fmax(scale, fabs(a[k]));
    double tolerance = 1e-12 * (scale > 0 ? scale : 1.0);
    memset(v, 0, M * sizeof *v);
    long changes = 0, limit = 3 * (long)M + 10;
    while (!st) {
        /* w = a - M v, the negative gradient; the most violated bound constraint joins the free set */
        size_t best = M;
        for (size_t k = 0; k < M; k++) {
            double mv = 0;
            for (size_t l = 0; l < M; l++)
                mv += gram[k * M + l] * v[l];
            w[k] = a[k] - mv;
            if (!free_set[k] && w[k] > tolerance && (best == M || w[k] > w[best]))
                best = k;
        }
        if (best == M)
            break;
        free_set[best] = 1;
        for (;;) {
            if (++changes > limit) {
                st = km_error(KM_ENOTCONV, "alignf: the active set did not settle after %ld changes", changes);
                break;
            }
            if ((st = free_block_solve(M, gram, a, free_set, index, block, s)))
                break;
            /* the largest step from v towards s that keeps the free components non-negative */
            double step = 1;
            for (size_t k = 0; k < M; k++)
                if (free_set[k] && s[k] <= 0)
                    step = fmin(step, v[k] / (v[k] - s[k]));
            for (size_t k = 0; k < M; k++)
                v[k] += step * (s[k] - v[k]);
            if (step >= 1)
                break;
            for (size_t k = 0; k < M; k++)
                if (free_set[k] && v[k] <= 0) {
                    free_set[k] = 0;
                    v[k] = 0;
                }
        }
    }
    free(free_set);
    free(index);
    free(block);
    free(s);
    free(w);
    return st;
}

km_status km_alignf_linear_solve(size_t M, const double *gram, const double *a, double *v)
{
    double *U = malloc(M * M * sizeof *U), *lambda = malloc(M * sizeof *lambda);
    km_status st = U && lambda ? KM_OK : km_error_nomem("alignf-linear");
    if (!st) {
        memcpy(U, gram, M * M * sizeof *U);
        if (LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'V', 'U', (lapack_int)M, U, (lapack_int)M, lambda) != 0)
            st = km_error(KM_ENOTCONV, "alignf-linear: the eigendecomposition of the alignment matrix failed");
    }
    if (!st) {
        double largest = lambda[M - 1];
        memset(v, 0, M * sizeof *v);
        for (size_t e = 0; e < M; e++) {
            if (!(lambda[e] > 1e-12 * largest))
                continue;
            const double *u = U + e * M; /* column e: eigenvector */
            double c = 0;
            for (size_t k = 0; k < M; k++)
                c += u[k] * a[k];
            for (size_t k = 0; k < M; k++)
                v[k] += u[k] * c / lambda[e];
        }
    }
    free(U);
    free(lambda);
    return st;
}
