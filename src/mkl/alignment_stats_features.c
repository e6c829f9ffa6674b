/* Alignment statistics of kernels given by explicit features (kernel/feature_block.h, low-rank kernels:
 * K_k = Psi_k Psi_k', Psi_k = S Phi_k of n x r_k) from the features alone, never an n x n matrix. With
 * U = I - 11'/n, the centred features Psi_kc = U Psi_k give K_kc = U K_k U = Psi_kc Psi_kc', hence
 *   a_k = ||Psi_kc' y~||^2,   ||K_kc||_F^2 = ||Psi_kc' Psi_kc||_F^2,   <K_kc, K_lc>_F = ||Psi_kc' Psi_lc||_F^2,
 *   b_k = ||Psi_k' y||^2,     ||K_k||_F^2  = ||Psi_k' Psi_k||_F^2,     <K_k, K_l>_F  = ||Psi_k' Psi_l||_F^2,
 * with Psi_k' y = Psi_kc' y + n mean(y) m_k and Psi_k' Psi_l = Psi_kc' Psi_lc + n m_k m_l' (m_k the column
 * means): O(n r_k r_l) a pair of kernels, the rank-1 case (alignment_stats_rank1.c) with r_k = 1. */
#include <cblas.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "mkl/alignment_stats.h"

/* ||B||_F^2 and ||B + n u v'||_F^2 of the r_k x r_l block B. */
static void block_norms(const double *B, size_t rk, size_t rl, double n, const double *u, const double *v,
                        double *centred, double *uncentred)
{
    double c = 0, w = 0;
    for (size_t p = 0; p < rk; p++)
        for (size_t q = 0; q < rl; q++) {
            double x = B[p * rl + q], z = x + n * u[p] * v[q];
            c += x * x;
            w += z * z;
        }
    *centred = c;
    *uncentred = w;
}

/* C (n x d row-major): the centred features of every kernel side by side (kernel k's from column
 * offset[k]); mean: their d column means. */
static void centred_features(const km_feature_block *blocks, size_t M, size_t n, const size_t *offset, size_t d,
                             double *C, double *mean)
{
    memset(mean, 0, d * sizeof *mean);
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < M; k++) {
            const km_feature_block *b = &blocks[k];
            double s = km_feature_row_scale(b, i), *row = C + i * d + offset[k];
            const double *phi = km_feature_row_values(b, i, row);
            for (size_t c = 0; c < b->r; c++) {
                row[c] = s * phi[c];
                mean[offset[k] + c] += row[c] / (double)n;
            }
        }
    for (size_t i = 0; i < n; i++)
        for (size_t c = 0; c < d; c++)
            C[i * d + c] -= mean[c];
}

km_status km_alignment_stats_features(const km_feature_block *blocks, size_t M, size_t n, const double *y,
                                      int with_gram, int (*interrupted)(void *ctx), void *interrupt_ctx,
                                      km_alignment_stats *s)
{
    memset(s, 0, sizeof *s);
    size_t *offset = malloc((M + 1) * sizeof *offset), r_max = 1;
    if (!offset)
        return km_error_nomem("alignment statistics");
    offset[0] = 0;
    for (size_t k = 0; k < M; k++) {
        offset[k + 1] = offset[k] + blocks[k].r;
        r_max = blocks[k].r > r_max ? blocks[k].r : r_max;
    }
    size_t d = offset[M];
    double *C = malloc((n && d ? n * d : 1) * sizeof *C), *mean = malloc((d ? d : 1) * sizeof *mean);
    double *yc = malloc(n * sizeof *yc), *cy = calloc(d ? d : 1, sizeof *cy), *B = malloc(r_max * r_max * sizeof *B);
    km_status st = C && mean && yc && cy && B ? km_alignment_stats_start(s, n, M, with_gram, y, yc)
                                              : km_error_nomem("alignment statistics of low-rank kernels");
    if (!st) {
        centred_features(blocks, M, n, offset, d, C, mean);
        if (d)   /* cy = C' y~ */
            cblas_dgemv(CblasRowMajor, CblasTrans, (int)n, (int)d, 1.0, C, (int)d, yc, 1, 0.0, cy, 1);
    }
    for (size_t k = 0; !st && k < M; k++) {
        for (size_t c = offset[k]; c < offset[k + 1]; c++) {
            double uncentred = cy[c] + (double)n * s->y_mean * mean[c];   /* Psi' y: C'y = C'y~ as 1'C = 0 */
            s->a[k] += cy[c] * cy[c];
            s->b[k] += uncentred * uncentred;
        }
        size_t last = with_gram ? M : k + 1;   /* every pair with the Gram matrices, else the kernel itself */
        for (size_t l = k; !st && l < last; l++) {
            size_t rk = blocks[k].r, rl = blocks[l].r;
            double centred = 0, uncentred = 0;
            if (rk && rl) {   /* B = C_k' C_l */
                cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, (int)rk, (int)rl, (int)n, 1.0, C + offset[k],
                            (int)d, C + offset[l], (int)d, 0.0, B, (int)rl);
                block_norms(B, rk, rl, (double)n, mean + offset[k], mean + offset[l], &centred, &uncentred);
            }
            if (l == k) {
                s->centred_sq[k] = centred;
                s->frobenius_sq[k] = uncentred;
            }
            if (with_gram) {
                s->gram[k * M + l] = s->gram[l * M + k] = centred;
                s->uncentred_gram[k * M + l] = s->uncentred_gram[l * M + k] = uncentred;
            }
            if (interrupted && interrupted(interrupt_ctx))
                st = km_error(KM_EINTERRUPTED, "interrupted while computing the kernel alignments");
        }
    }
    free(offset);
    free(C);
    free(mean);
    free(yc);
    free(cy);
    free(B);
    if (st)
        km_alignment_stats_free(s);
    return st;
}
