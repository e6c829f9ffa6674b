/* The evidence (10) of empirical-Bayes MKL on kernels given by explicit features (mkl/evidence.h,
 * km_evidence_alloc_features). With Phi = [Phi_1 ... Phi_M] (n x d, the rows scaled by s_i), D the
 * diagonal of d_m on the r_m dimensions of block m and U = Phi D^1/2, Kbar = sigma^2 I + U U', and by
 * the Woodbury identity and Sylvester's determinant identity, with A = sigma^2 I + D^1/2 G D^1/2 = L L'
 * (d x d) and G = Phi'Phi:
 *   Kbar^-1 = (I - U A^-1 U') / sigma^2,   log|Kbar| = (n - d) log sigma^2 + log|A|,
 *   alpha = Kbar^-1 y = (y - U v) / sigma^2 with v = A^-1 D^1/2 Phi'y,
 *   Q_m = alpha'K_m alpha = ||Phi_m'alpha||^2,
 *   T_m = Tr(Phi_m'Kbar^-1 Phi_m) = (Tr G_mm - sum_{j in m} ||L^-1 D^1/2 G e_j||^2) / sigma^2,
 *   Tr(Kbar^-1) = (n - sum_m d_m T_m) / sigma^2   (from Tr(Kbar^-1 Kbar) = n).
 * alpha, y'alpha, alpha'alpha and Phi'alpha are computed over the rows (O(n d), block by block of
 * rows), the rest in d x d: no n x n matrix. On rows split over processes the sums over the rows (G,
 * Phi'y, Phi'alpha, y'alpha, alpha'alpha) add every part's, after the parts agree that none failed. */
#include "mkl/evidence_features.h"

#include <cblas.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/cholesky.h"
#include "core/error.h"
#include "dist/dist.h"

struct km_evidence_features {
    km_feature_block *blocks;    /* M, copied (their phi borrowed) */
    size_t rows;                 /* this part's rows (ev->n without a partition) */
    const km_row_partition *partition;
    size_t d;
    size_t *block_of;            /* d: the block of each dimension */
    double *gram;                /* d x d, full: G = Phi'Phi (computed at the first evaluation) */
    int gram_ready;
    double *factor;              /* d x d: A, then L (lower triangle) */
    double *solved;              /* d x d: L^-1 D^1/2 G */
    double *rows_buffer;         /* KM_FEATURE_ROWS_AT_ONCE x d: rows of Phi, row-major */
    double *root_weight;         /* d: sqrt(d_m) of each dimension */
    double *v;                   /* d: D^1/2 Phi'y, then v, then D^1/2 v */
    double *phi_alpha;           /* d + 2: Phi'alpha, y'alpha, alpha'alpha */
};

size_t km_evidence_features_bytes(size_t n, size_t d)
{
    if (d > 0 && d > SIZE_MAX / sizeof(double) / 4 / d)
        return SIZE_MAX;
    size_t values = 3 * d * d + (KM_FEATURE_ROWS_AT_ONCE + 4) * d;
    if (values > SIZE_MAX / sizeof(double) - n)
        return SIZE_MAX;
    return (values + n) * sizeof(double);
}

void km_evidence_features_free(km_evidence_features *f)
{
    if (!f)
        return;
    free(f->blocks);
    free(f->block_of);
    free(f->gram);
    free(f->factor);
    free(f->solved);
    free(f->rows_buffer);
    free(f->root_weight);
    free(f->v);
    free(f->phi_alpha);
    free(f);
}

km_status km_evidence_alloc_features(size_t n, size_t M, const km_feature_block *blocks,
                                     const km_row_partition *partition, km_evidence *ev)
{
    memset(ev, 0, sizeof *ev);
    size_t d = 0;
    for (size_t m = 0; m < M; m++)
        d += blocks[m].r;
    if (km_evidence_features_bytes(n, d) == SIZE_MAX)
        return km_error(KM_ENOMEM, "the evidence of %zu feature dimensions needs more memory than can be addressed", d);
    km_evidence_features *f = calloc(1, sizeof *f);
    ev->n = partition ? partition->n_total : n;
    ev->M = M;
    ev->features = f;
    ev->log_2pi_term = 0.5 * (double)ev->n * log(2.0 * 3.14159265358979323846);
    ev->alpha = malloc((n ? n : 1) * sizeof *ev->alpha);
    ev->T = calloc(M ? M : 1, sizeof *ev->T);
    ev->Q = calloc(M ? M : 1, sizeof *ev->Q);
    if (f) {
        size_t dd = d ? d * d : 1, d1 = d ? d : 1;
        f->d = d;
        f->rows = n;
        f->partition = partition;
        f->blocks = malloc((M ? M : 1) * sizeof *f->blocks);
        f->block_of = malloc(d1 * sizeof *f->block_of);
        f->gram = malloc(dd * sizeof *f->gram);
        f->factor = malloc(dd * sizeof *f->factor);
        f->solved = malloc(dd * sizeof *f->solved);
        f->rows_buffer = malloc(KM_FEATURE_ROWS_AT_ONCE * d1 * sizeof *f->rows_buffer);
        f->root_weight = malloc(d1 * sizeof *f->root_weight);
        f->v = malloc(d1 * sizeof *f->v);
        f->phi_alpha = malloc((d + 2) * sizeof *f->phi_alpha);
    }
    if (!f || !ev->alpha || !ev->T || !ev->Q || !f->blocks || !f->block_of || !f->gram || !f->factor || !f->solved ||
        !f->rows_buffer || !f->root_weight || !f->v || !f->phi_alpha) {
        km_evidence_free(ev);
        return km_error_nomem("the evidence on low-rank kernels");
    }
    memcpy(f->blocks, blocks, M * sizeof *blocks);
    for (size_t m = 0, j = 0; m < M; m++)
        for (size_t c = 0; c < blocks[m].r; c++)
            f->block_of[j++] = m;
    return KM_OK;
}

static int interrupted(const km_evidence *ev)
{
    return ev->interrupted && ev->interrupted(ev->interrupt_ctx);
}

/* On split rows: st where this part failed, an error where another did (every part calls it at the same
 * points of an evaluation, before the sums that follow). */
static km_status agree(const km_evidence_features *f, km_status st)
{
    if (f->partition && km_row_partition_failed(f->partition, st != KM_OK) && !st)
        st = km_error(KM_EINVAL, KM_DIST_FAILED_ELSEWHERE " while evaluating the evidence");
    return st;
}

static void sum_over_parts(const km_evidence_features *f, double *values, size_t count)
{
    if (f->partition)
        f->partition->sum(values, count);
}

/* G = Phi'Phi over blocks of rows (the lower triangle by dsyrk, then mirrored). */
static km_status compute_gram(km_evidence *ev)
{
    km_evidence_features *f = ev->features;
    size_t n = f->rows, d = f->d;
    km_status st = KM_OK;
    memset(f->gram, 0, d * d * sizeof *f->gram);
    for (size_t first = 0; !st && first < n; first += KM_FEATURE_ROWS_AT_ONCE) {
        size_t count = n - first < KM_FEATURE_ROWS_AT_ONCE ? n - first : KM_FEATURE_ROWS_AT_ONCE;
        km_feature_rows_combine(f->blocks, NULL, ev->M, first, count, f->rows_buffer);
        cblas_dsyrk(CblasColMajor, CblasLower, CblasNoTrans, (int)d, (int)count, 1.0, f->rows_buffer, (int)d, 1.0,
                    f->gram, (int)d);
        if (interrupted(ev))
            st = km_error(KM_EINTERRUPTED, "interrupted while computing the features' Gram matrix");
    }
    if ((st = agree(f, st)))
        return st;
    sum_over_parts(f, f->gram, d * d);
    for (size_t j = 0; j < d; j++)
        for (size_t i = j + 1; i < d; i++)
            f->gram[i * d + j] = f->gram[j * d + i];
    f->gram_ready = 1;
    return KM_OK;
}

/* alpha = (y - Phi w) / sigma^2 on this part's rows, then Phi'alpha, y'alpha and alpha'alpha summed over
 * the parts (w = D^1/2 v, in f->v). */
static void residual_pass(km_evidence *ev, const double *y, double noise)
{
    km_evidence_features *f = ev->features;
    size_t n = f->rows, d = f->d;
    memset(f->phi_alpha, 0, d * sizeof *f->phi_alpha);
    for (size_t first = 0; first < n; first += KM_FEATURE_ROWS_AT_ONCE) {
        size_t count = n - first < KM_FEATURE_ROWS_AT_ONCE ? n - first : KM_FEATURE_ROWS_AT_ONCE;
        double *alpha = ev->alpha + first;
        km_feature_rows_combine(f->blocks, NULL, ev->M, first, count, f->rows_buffer);
        memcpy(alpha, y + first, count * sizeof *alpha);
        cblas_dgemv(CblasColMajor, CblasTrans, (int)d, (int)count, -1.0, f->rows_buffer, (int)d, f->v, 1, 1.0, alpha,
                    1);
        cblas_dscal((int)count, 1.0 / noise, alpha, 1);
        cblas_dgemv(CblasColMajor, CblasNoTrans, (int)d, (int)count, 1.0, f->rows_buffer, (int)d, alpha, 1, 1.0,
                    f->phi_alpha, 1);
    }
    f->phi_alpha[d] = cblas_ddot((int)n, y, 1, ev->alpha, 1);
    f->phi_alpha[d + 1] = cblas_ddot((int)n, ev->alpha, 1, ev->alpha, 1);
    sum_over_parts(f, f->phi_alpha, d + 2);
}

km_status km_evidence_features_eval(km_evidence *ev, const double *y, const double *weights, double noise,
                                    int with_traces)
{
    km_evidence_features *f = ev->features;
    size_t n = ev->n, M = ev->M, d = f->d;
    if (!(noise > 0))
        return km_error(KM_EINVAL, "the evidence on low-rank kernels needs a positive noise variance (got %g)", noise);
    km_status st = f->gram_ready ? KM_OK : compute_gram(ev);
    if (st)
        return st;
    for (size_t j = 0; j < d; j++)
        f->root_weight[j] = sqrt(weights[f->block_of[j]]);
    /* A = sigma^2 I + D^1/2 G D^1/2, lower triangle */
    for (size_t j = 0; j < d; j++) {
        for (size_t i = j; i < d; i++)
            f->factor[j * d + i] = f->root_weight[i] * f->root_weight[j] * f->gram[j * d + i];
        f->factor[j * d + j] += noise;
    }
    size_t failed_minor = 0;
    st = km_cholesky(d, f->factor, d, ev->interrupted, ev->interrupt_ctx, &failed_minor);
    if (!st && failed_minor)
        st = km_error(KM_EINVAL, "the evidence's covariance sigma^2 I + sum_m d_m K_m is not positive definite "
                                 "(noise %g; leading minor %zu of the %zu feature dimensions): give a larger --noise",
                      noise, failed_minor, d);
    /* v = A^-1 D^1/2 Phi'y, Phi'y over the rows */
    memset(f->v, 0, d * sizeof *f->v);
    for (size_t first = 0; !st && first < f->rows; first += KM_FEATURE_ROWS_AT_ONCE) {
        size_t count = f->rows - first < KM_FEATURE_ROWS_AT_ONCE ? f->rows - first : KM_FEATURE_ROWS_AT_ONCE;
        km_feature_rows_combine(f->blocks, NULL, M, first, count, f->rows_buffer);
        cblas_dgemv(CblasColMajor, CblasNoTrans, (int)d, (int)count, 1.0, f->rows_buffer, (int)d, y + first, 1, 1.0,
                    f->v, 1);
    }
    if ((st = agree(f, st)))
        return st;
    sum_over_parts(f, f->v, d);
    for (size_t j = 0; j < d; j++)
        f->v[j] *= f->root_weight[j];
    cblas_dtrsv(CblasColMajor, CblasLower, CblasNoTrans, CblasNonUnit, (int)d, f->factor, (int)d, f->v, 1);
    cblas_dtrsv(CblasColMajor, CblasLower, CblasTrans, CblasNonUnit, (int)d, f->factor, (int)d, f->v, 1);
    for (size_t j = 0; j < d; j++)
        f->v[j] *= f->root_weight[j];
    residual_pass(ev, y, noise);
    ev->data_fit = 0.5 * f->phi_alpha[d];
    ev->half_log_det = 0.5 * ((double)n - (double)d) * log(noise);
    for (size_t j = 0; j < d; j++)
        ev->half_log_det += log(f->factor[j * d + j]);
    ev->value = ev->data_fit + ev->half_log_det;
    ev->alpha_sq = f->phi_alpha[d + 1];
    memset(ev->Q, 0, M * sizeof *ev->Q);
    for (size_t j = 0; j < d; j++)
        ev->Q[f->block_of[j]] += f->phi_alpha[j] * f->phi_alpha[j];
    if (!with_traces)
        return KM_OK;
    /* solved = L^-1 D^1/2 G; T_m from its columns of block m */
    for (size_t j = 0; j < d; j++)
        for (size_t i = 0; i < d; i++)
            f->solved[j * d + i] = f->root_weight[i] * f->gram[j * d + i];
    cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasNonUnit, (int)d, (int)d, 1.0, f->factor,
                (int)d, f->solved, (int)d);
    st = interrupted(ev) ? km_error(KM_EINTERRUPTED, "interrupted while computing the evidence's traces") : KM_OK;
    if ((st = agree(f, st)))
        return st;
    memset(ev->T, 0, M * sizeof *ev->T);
    for (size_t j = 0; j < d; j++) {
        const double *column = f->solved + j * d;
        ev->T[f->block_of[j]] += (f->gram[j * d + j] - cblas_ddot((int)d, column, 1, column, 1)) / noise;
    }
    double explained = 0;
    for (size_t m = 0; m < M; m++)
        explained += weights[m] * ev->T[m];
    ev->trace_inverse = ((double)n - explained) / noise;
    return KM_OK;
}
