/* Kernel-target alignment statistics of M base kernels on the training rows (Cortes, Mohri &
 * Rostamizadeh; Rostamizadeh's thesis Def. 2.4, Eq. 2.41, Def. 2.6), what the alignment-based methods
 * and the alignment diagnostics start from:
 *   a_k    = <K_kc, y y'>_F = y~' K_k y~   (y~ = y - mean y; centring one side suffices, Lemma A.3 as
 *            corrected: <K_c, K'_c> = <K_c, K'>)
 *   M_kl   = <K_kc, K_lc>_F                 (K_c = U K U, U = I - 11'/n)
 *   b_k    = y' K_k y,  f_k = ||K_k||_F     (the uncentred alignment of Cristianini et al.)
 * from which rho_k = a_k / (||K_kc||_F ||y~||^2), A_k = b_k / (f_k ||y||^2), eta_k = a_k / n^2. */
#ifndef KM_MKL_ALIGNMENT_STATS_H
#define KM_MKL_ALIGNMENT_STATS_H

#include <stddef.h>

#include "svm/svm.h"

typedef struct km_alignment_stats {
    size_t n, M;
    double y_mean, y_centred_sq, y_sq;   /* mean y, ||y~||^2, ||y||^2 */
    double *a;                           /* M values y~'K_k y~ */
    double *centred_sq;                  /* M values ||K_kc||_F^2 */
    double *b;                           /* M values y'K_k y */
    double *frobenius_sq;                /* M values ||K_k||_F^2 */
    double *gram;                        /* M x M <K_kc, K_lc>_F (with_gram), else NULL */
    double *uncentred_gram;              /* M x M <K_k, K_l>_F (with_gram), else NULL */
    int rank1;                           /* 1: of rank-1 kernels, where rho(K_k, yy') = corr(x_k, y)^2 */
} km_alignment_stats;

/* Two passes over the kernels' columns (row means first, then the centred columns), O(M^2 n^2) with
 * the Gram matrices, O(M n^2) without. The uncentred Gram matrix comes from the centred one:
 * K = K_c + r1' + 1r' - g11' (r the row means, g the grand mean) and K_c 1 = 0 give
 * <K, K'>_F = <K_c, K'_c>_F + 2n r'r' - n^2 g g'. y: n targets (labels +-1 or regression values). */
km_status km_alignment_stats_compute(const km_kernel_access *kernel, const double *y, int with_gram,
                                     km_alignment_stats *out);
/* The same statistics for the d rank-1 kernels K_j = x_j x_j' of the columns of the row-major n x d
 * matrix X (alignment_stats_rank1.c), from the columns alone: O(nd), O(nd^2) with the Gram matrix. */
km_status km_alignment_stats_rank1(const double *X, size_t n, size_t d, const double *y, int with_gram,
                                   km_alignment_stats *out);
/* The same statistics for M kernels given by explicit features (blocks, n rows each;
 * alignment_stats_features.c), from the features alone: O(n d) and O(n r_k^2) per kernel, O(n r_k r_l)
 * per pair with the Gram matrices (d = sum r_k), n d doubles, never an n x n matrix. Polls interrupted
 * (may be NULL) between pairs. */
km_status km_alignment_stats_features(const km_feature_block *blocks, size_t M, size_t n, const double *y,
                                      int with_gram, int (*interrupted)(void *ctx), void *interrupt_ctx,
                                      km_alignment_stats *out);
void km_alignment_stats_free(km_alignment_stats *stats);
/* The start of every computation above: out for n rows and M kernels with its per-kernel arrays (and the
 * M x M Gram matrices with with_gram) zeroed, and the targets' mean, ||y~||^2 and ||y||^2; yc (n values,
 * may be NULL) receives y~ = y - mean y. Frees what it allocated on failure. */
km_status km_alignment_stats_start(km_alignment_stats *out, size_t n, size_t M, int with_gram, const double *y,
                                   double *yc);

/* Centred alignment rho(K_k, yy'), uncentred A(K_k, yy') and eta(K_k, yy') = a_k / n^2; NAN where a
 * norm is 0 (the alignment is undefined: a kernel constant after centring, constant labels). */
double km_alignment_rho(const km_alignment_stats *s, size_t k);
double km_alignment_uncentred(const km_alignment_stats *s, size_t k);
double km_alignment_eta(const km_alignment_stats *s, size_t k);
/* The centred alignment of the combination sum_k mu_k K_k: mu'a / (sqrt(mu'M mu) ||y~||^2) (needs the
 * Gram matrix; the proof of Prop. 3.2). */
double km_alignment_rho_combined(const km_alignment_stats *s, const double *mu);

#endif
