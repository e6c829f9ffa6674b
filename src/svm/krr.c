/* Kernel ridge regression on the combined kernel: the dense Cholesky path, the conjugate-gradient path
 * and, on explicit features, the Woodbury path (svm/krr.h). Each solves (K + lambda I) X = B for the
 * right-hand sides z and, with a bias, 1. */
#include "svm/krr.h"

#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/cholesky.h"
#include "core/error.h"
#include "dist/dist.h"

/* Columns of the combination per kernel pass (conjugate gradients, dense fill). */
#define KRR_BLOCK 64

int km_krr_dense_fits(size_t n, size_t budget_bytes)
{
    return n == 0 || (n <= SIZE_MAX / sizeof(double) / n && n * n * sizeof(double) <= budget_bytes);
}

static int interrupted(const km_smo_options *options)
{
    return options->interrupted && options->interrupted(options->interrupt_ctx);
}

/* out[t n + i] = K(i, first + t) of the combination for t < count; KM_EINTERRUPTED when the caller
 * asked to stop (polled before every block: the fill and every conjugate-gradient pass). */
static km_status combined_columns(const km_kernel_access *k, size_t first, size_t count, size_t *cols, double *out,
                                  double *scratch, const km_smo_options *options)
{
    size_t n = k->n_rows;
    if (interrupted(options))
        return km_error(KM_EINTERRUPTED, "interrupted while computing KRR kernel columns");
    for (size_t t = 0; t < count; t++)
        cols[t] = first + t;
    if (k->combined)
        return k->combined(k->column_ctx, k->theta, cols, count, NULL, n, out);
    memset(out, 0, count * n * sizeof *out);
    size_t *rows = malloc(n * sizeof *rows);
    if (!rows)
        return km_error_nomem("kernel rows");
    for (size_t i = 0; i < n; i++)
        rows[i] = i;
    km_status st = KM_OK;
    for (size_t t = 0; !st && t < count; t++)
        for (size_t m = 0; !st && m < k->n_kernels; m++) {
            if (k->theta[m] == 0.0)
                continue;
            st = k->column(k->column_ctx, m, cols[t], rows, n, scratch);
            for (size_t i = 0; !st && i < n; i++)
                out[t * n + i] += k->theta[m] * scratch[i];
        }
    free(rows);
    return st;
}

/* Cholesky of A = K + ridge I, with the jitter 1e-10 tr(K)/n added and multiplied by 10 up to five
 * times when rounding makes A indefinite (Rostamizadeh's thesis leaves this open; a kernelmix safeguard).
 * The fill and the factorization (core/cholesky.h) poll the interrupt. */
static km_status dense_solve(const km_kernel_access *k, double ridge, double *B, int nrhs,
                             const km_smo_options *options)
{
    size_t n = k->n_rows;
    double *K = malloc(n * n * sizeof *K), *A = malloc(n * n * sizeof *A), *scratch = malloc(n * sizeof *scratch);
    size_t *cols = malloc(KRR_BLOCK * sizeof *cols);
    km_status st = K && A && scratch && cols ? KM_OK : km_error_nomem("the KRR kernel matrix");
    for (size_t j = 0; !st && j < n; j += KRR_BLOCK)
        st = combined_columns(k, j, n - j < KRR_BLOCK ? n - j : KRR_BLOCK, cols, K + j * n, scratch, options);
    double trace = 0;
    for (size_t i = 0; !st && i < n; i++)
        trace += K[i * n + i];
    double jitter = 0;
    for (int attempt = 0; !st; attempt++) {
        memcpy(A, K, n * n * sizeof *A);
        for (size_t i = 0; i < n; i++)
            A[i * n + i] += ridge + jitter;
        size_t failed_minor;
        if ((st = km_cholesky(n, A, n, options->interrupted, options->interrupt_ctx, &failed_minor)))
            break;
        if (!failed_minor) {
            lapack_int info = LAPACKE_dpotrs(LAPACK_COL_MAJOR, 'L', (lapack_int)n, nrhs, A, (lapack_int)n, B,
                                             (lapack_int)n);
            if (info)
                st = km_error(KM_ENOTCONV, "KRR: LAPACKE_dpotrs failed (info %d)", (int)info);
            break;
        }
        if (attempt == 5 || !(trace > 0))
            st = km_error(KM_ENOTCONV, "KRR: K + %g I is not positive definite (the kernel is not positive "
                          "semi-definite, or the ridge 1/C is too small)", ridge);
        jitter = jitter > 0 ? 10 * jitter : 1e-10 * trace / (double)n;
    }
    free(K);
    free(A);
    free(scratch);
    free(cols);
    return st;
}

/* Y = (K + ridge I) X for r columns X (n x r, column-major), one pass over the kernel columns. */
static km_status apply(const km_kernel_access *k, double ridge, const double *X, int r, double *Y, double *block,
                       size_t *cols, double *scratch, const km_smo_options *options)
{
    size_t n = k->n_rows;
    for (size_t i = 0; i < n * (size_t)r; i++)
        Y[i] = ridge * X[i];
    for (size_t j = 0; j < n; j += KRR_BLOCK) {
        size_t count = n - j < KRR_BLOCK ? n - j : KRR_BLOCK;
        km_status st = combined_columns(k, j, count, cols, block, scratch, options);
        if (st)
            return st;
        for (int c = 0; c < r; c++)
            for (size_t t = 0; t < count; t++) {
                double x = X[c * n + j + t];
                if (x == 0.0)
                    continue;
                const double *column = block + t * n;
                double *y = Y + c * n;
                for (size_t i = 0; i < n; i++)
                    y[i] += x * column[i];
            }
    }
    return KM_OK;
}

static double dot(size_t n, const double *a, const double *b)
{
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += a[i] * b[i];
    return s;
}

/* Preconditioned conjugate gradients (Jacobi: the diagonal of K + ridge I) on the r right-hand sides
 * B, which receive the solutions; the columns share each pass over the kernel. */
static km_status cg_solve(const km_kernel_access *k, double ridge, double *B, int r, const km_smo_options *options,
                          long *iterations, int *converged)
{
    size_t n = k->n_rows, nr = n * (size_t)r;
    long max_iter = options->max_iter > 0 ? options->max_iter : (long)(10 * n > 1000 ? 10 * n : 1000);
    double *X = calloc(nr, sizeof *X), *R = malloc(nr * sizeof *R), *Z = malloc(nr * sizeof *Z),
           *P = malloc(nr * sizeof *P), *AP = malloc(nr * sizeof *AP), *diag = malloc(n * sizeof *diag),
           *block = malloc(KRR_BLOCK * n * sizeof *block), *scratch = malloc(n * sizeof *scratch);
    size_t *cols = malloc(KRR_BLOCK * sizeof *cols);
    double rz[2], target[2];
    int done[2] = {0, 0};
    km_status st = X && R && Z && P && AP && diag && block && scratch && cols ? KM_OK
                                                                             : km_error_nomem("conjugate gradients");
    for (size_t i = 0; !st && i < n; i++) {
        double d = ridge;
        for (size_t m = 0; m < k->n_kernels; m++)
            d += k->theta[m] * k->diag[m][i];
        diag[i] = d > 0 ? d : 1.0;
    }
    for (int c = 0; !st && c < r; c++) {
        memcpy(R + c * n, B + c * n, n * sizeof *R);
        for (size_t i = 0; i < n; i++)
            P[c * n + i] = Z[c * n + i] = R[c * n + i] / diag[i];
        rz[c] = dot(n, R + c * n, Z + c * n);
        target[c] = KM_KRR_CG_TOLERANCE * sqrt(dot(n, B + c * n, B + c * n));
        done[c] = sqrt(dot(n, R + c * n, R + c * n)) <= target[c];
    }
    long t = 0;
    *converged = 0;
    for (; !st && t < max_iter; t++) {
        if ((r == 1 || done[1]) && done[0]) {
            *converged = 1;
            break;
        }
        if (interrupted(options)) {
            st = km_error(KM_EINTERRUPTED, "interrupted after %ld conjugate-gradient steps", t);
            break;
        }
        if ((st = apply(k, ridge, P, r, AP, block, cols, scratch, options)))
            break;
        for (int c = 0; c < r; c++) {
            if (done[c])
                continue;
            double *x = X + c * n, *res = R + c * n, *z = Z + c * n, *p = P + c * n, *ap = AP + c * n;
            double step = rz[c] / dot(n, p, ap);
            for (size_t i = 0; i < n; i++) {
                x[i] += step * p[i];
                res[i] -= step * ap[i];
                z[i] = res[i] / diag[i];
            }
            double rz_next = dot(n, res, z);
            for (size_t i = 0; i < n; i++)
                p[i] = z[i] + rz_next / rz[c] * p[i];
            rz[c] = rz_next;
            done[c] = sqrt(dot(n, res, res)) <= target[c];
        }
    }
    if (!st && (r == 1 || done[1]) && done[0])
        *converged = 1;
    *iterations = t;
    if (!st)
        memcpy(B, X, nr * sizeof *B);
    free(X);
    free(R);
    free(Z);
    free(P);
    free(AP);
    free(diag);
    free(block);
    free(scratch);
    free(cols);
    return st;
}

/* The solution from X = (K + lambda I)^-1 B divisor (B: z, then 1 with a bias): with a bias,
 * coef = u - b v from u = X_z, v = X_1, b = 1'u / 1'v (the divisor cancels in b). With a partition the
 * sums run over every part's rows. */
static void finish(const double *z, size_t n, int bias, const double *X, double divisor, long iterations,
                   int converged, const km_row_partition *partition, km_svm_solution *solution)
{
    double b = 0;
    if (bias) {
        double sums[2] = {0, 0};
        for (size_t i = 0; i < n; i++) {
            sums[0] += X[i];
            sums[1] += X[n + i];
        }
        if (partition)
            partition->sum(sums, 2);
        b = sums[0] / sums[1];
    }
    double zc = 0;
    for (size_t i = 0; i < n; i++) {
        solution->coef[i] = (X[i] - (bias ? b * X[n + i] : 0.0)) / divisor;
        zc += z[i] * solution->coef[i];
    }
    if (partition)
        partition->sum(&zc, 1);
    solution->bias = b;
    solution->objective = -0.5 * zc;
    solution->iterations = iterations;
    solution->converged = converged;
}

/* The right-hand sides z and, with a bias, 1 (column-major n x (bias ? 2 : 1)); NULL when out of memory. */
static double *right_hand_sides(const double *z, size_t n, int bias)
{
    double *B = malloc(n * (bias ? 2 : 1) * sizeof *B);
    if (!B)
        return NULL;
    memcpy(B, z, n * sizeof *B);
    for (size_t i = 0; bias && i < n; i++)
        B[n + i] = 1.0;
    return B;
}

/* The combined features Z = [sqrt(w_m) s phi_m] over the blocks with w_m > 0 (krr.h km_krr_solve_features). */
typedef struct combined_features {
    const km_feature_block *blocks;
    const double *weights;
    size_t M, d;
    double *buffer;          /* KM_FEATURE_ROWS_AT_ONCE x d, or NULL: one block used in place */
} combined_features;

/* Rows first..first+count of Z, row-major with d values a row. */
static const double *feature_rows(const combined_features *f, size_t first, size_t count)
{
    if (!f->buffer)
        return f->blocks[0].phi + first * f->d;
    km_feature_rows_combine(f->blocks, f->weights, f->M, first, count, f->buffer);
    return f->buffer;
}

/* B := (Z Z' + lambda I)^-1 B lambda by the Woodbury identity (Rostamizadeh's thesis §3.2):
 * (Z Z' + lambda I)^-1 B = (B - Z (lambda I + Z'Z)^-1 Z'B) / lambda; G = lambda I + Z'Z and T = Z'B
 * accumulated over blocks of rows, one d x d Cholesky factorisation, then B -= Z T block by block.
 * With a partition, Z'Z and Z'B are sums over every part's rows: the parts add theirs (the normal
 * equations of data-parallel training), and each factorizes the same G. */
static km_status woodbury_solve(const combined_features *f, size_t n, double ridge, double *B, int nrhs,
                                const km_smo_options *options)
{
    size_t d = f->d, step = f->buffer ? KM_FEATURE_ROWS_AT_ONCE : n;
    double *G = malloc((d ? d * d : 1) * sizeof *G), *T = calloc(d ? d * (size_t)nrhs : 1, sizeof *T);
    km_status st = G && T ? KM_OK : km_error_nomem("the Woodbury solve");
    /* G (lower triangle, column-major = row-major upper) and T, in column-major d x nrhs */
    for (size_t first = 0; !st && d && first < n; first += step) {
        size_t count = n - first < step ? n - first : step;
        const double *Z = feature_rows(f, first, count);
        cblas_dsyrk(CblasColMajor, CblasLower, CblasNoTrans, (int)d, (int)count, 1.0, Z, (int)d, first ? 1.0 : 0.0, G,
                    (int)d);
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)d, nrhs, (int)count, 1.0, Z, (int)d, B + first,
                    (int)n, first ? 1.0 : 0.0, T, (int)d);
        if (interrupted(options))
            st = km_error(KM_EINTERRUPTED, "interrupted while solving kernel ridge regression");
    }
    const km_row_partition *partition = options->partition;
    if (partition && km_row_partition_failed(partition, st != KM_OK) && !st)
        st = km_error(KM_EINVAL, KM_DIST_FAILED_ELSEWHERE " while solving kernel ridge regression");
    if (!st && partition && d) {
        partition->sum(G, d * d);
        partition->sum(T, d * (size_t)nrhs);
    }
    if (!st && d) {
        for (size_t c = 0; c < d; c++)
            G[c * d + c] += ridge;
        size_t failed_minor = 0;
        st = km_cholesky(d, G, d, options->interrupted, options->interrupt_ctx, &failed_minor);
        if (!st && failed_minor)
            st = km_error(KM_ENOTCONV, "KRR on explicit features: the Woodbury system is not positive definite "
                          "(leading minor %zu)", failed_minor);
        if (!st)   /* T = G^-1 T from the factor */
            LAPACKE_dpotrs(LAPACK_COL_MAJOR, 'L', (lapack_int)d, nrhs, G, (lapack_int)d, T, (lapack_int)d);
    }
    for (size_t first = 0; !st && d && first < n; first += step) {   /* B -= Z T */
        size_t count = n - first < step ? n - first : step;
        const double *Z = feature_rows(f, first, count);
        cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, (int)count, nrhs, (int)d, -1.0, Z, (int)d, T, (int)d, 1.0,
                    B + first, (int)n);
    }
    free(G);
    free(T);
    return st;
}

size_t km_krr_feature_dimension(const km_feature_block *blocks, const double *weights, size_t M)
{
    size_t d = 0;
    for (size_t m = 0; m < M; m++)
        d += weights[m] > 0 ? blocks[m].r : 0;
    return d;
}

km_status km_krr_solve_features(size_t n, const km_feature_block *blocks, const double *weights, size_t M,
                                const double *z, double ridge, int bias, const km_smo_options *options,
                                km_svm_solution *solution)
{
    if (!(ridge > 0) || !isfinite(ridge))
        return km_error(KM_EINVAL, "KRR: the ridge 1/C must be positive and finite (got %g)", ridge);
    combined_features f = {blocks, weights, M, km_krr_feature_dimension(blocks, weights, M), NULL};
    int in_place = M == 1 && blocks[0].phi && weights[0] == 1.0 && !blocks[0].rows && !blocks[0].factor &&
                   blocks[0].root_scale == 1.0;
    double *B = right_hand_sides(z, n, bias);
    if (!in_place && B)
        f.buffer = malloc(KM_FEATURE_ROWS_AT_ONCE * (f.d ? f.d : 1) * sizeof *f.buffer);
    km_status st = B && (in_place || f.buffer) ? KM_OK : km_error_nomem("KRR on explicit features");
    if (!st)
        st = woodbury_solve(&f, n, ridge, B, bias ? 2 : 1, options);
    if (!st)
        finish(z, n, bias, B, ridge, 0, 1, options->partition, solution);
    free(f.buffer);
    free(B);
    return st;
}

/* The Woodbury path is taken where the kernels have explicit features of fewer dimensions than rows, no
 * weight is negative (Z holds their square roots) and its d x d matrix fits in the budget. */
static km_status features_solve(const km_kernel_access *kernel, const double *z, double ridge, int bias,
                                size_t budget_bytes, const km_smo_options *options, km_svm_solution *solution,
                                int *solved)
{
    size_t M = kernel->n_kernels;
    km_feature_block *blocks = malloc((M ? M : 1) * sizeof *blocks);
    if (!blocks)
        return km_error_nomem("KRR on explicit features");
    *solved = 0;
    km_status st = KM_OK;
    int nonnegative = 1;
    for (size_t m = 0; m < M; m++)
        nonnegative &= kernel->theta[m] >= 0;
    if (nonnegative && km_kernel_access_features(kernel, blocks)) {
        size_t d = km_krr_feature_dimension(blocks, kernel->theta, M);
        size_t rows = options->partition ? options->partition->n_total : kernel->n_rows;
        if ((d < rows || options->partition) && km_krr_dense_fits(d, budget_bytes)) {
            st = km_krr_solve_features(kernel->n_rows, blocks, kernel->theta, M, z, ridge, bias, options, solution);
            *solved = 1;
        }
    }
    free(blocks);
    return st;
}

km_status km_krr_solve(const km_kernel_access *kernel, const double *z, double ridge, int bias, size_t budget_bytes,
                       const km_smo_options *options, km_svm_solution *solution)
{
    if (!kernel || !kernel->theta || kernel->n_rows == 0 || (!kernel->combined && !kernel->column))
        return km_error(KM_EINVAL, "KRR: incomplete kernel access (columns, theta and rows required)");
    if (!(ridge > 0) || !isfinite(ridge))
        return km_error(KM_EINVAL, "KRR: the ridge 1/C must be positive and finite (got %g)", ridge);
    int solved;
    km_status st = features_solve(kernel, z, ridge, bias, budget_bytes, options, solution, &solved);
    if (st || solved)
        return st;
    if (options->partition)   /* every part takes the same path: the features and the budget are alike */
        return km_error(KM_EINVAL, "KRR on rows split over processes needs every kernel low-rank, no negative "
                        "weight, and the d x d matrix of their d dimensions within the kernel cache's budget");
    size_t n = kernel->n_rows;
    int r = bias ? 2 : 1;
    double *B = right_hand_sides(z, n, bias);
    if (!B)
        return km_error_nomem("KRR right-hand sides");
    long iterations = 0;
    int converged = 1;
    st = km_krr_dense_fits(n, budget_bytes) ? dense_solve(kernel, ridge, B, r, options)
                                            : cg_solve(kernel, ridge, B, r, options, &iterations, &converged);
    if (!st)
        finish(z, n, bias, B, 1.0, iterations, converged, NULL, solution);
    free(B);
    return st;
}
