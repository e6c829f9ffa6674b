/* Which training rows a low-rank kernel's Nystrom approximation takes as landmarks (family_nystrom.c,
 * docs/kernels.md "Low-rank kernels"): a uniform draw, k-means++ seeding on the rows' features, a draw
 * by approximate ridge leverage scores, or the pivots of an incomplete Cholesky factorization. Each
 * returns the chosen rows in ascending order (free with free()); every draw has a fixed seed, so the
 * same rows give the same landmarks. */
#ifndef KM_KERNEL_LANDMARKS_H
#define KM_KERNEL_LANDMARKS_H

#include <stddef.h>

#include "kernel/feature_view.h"
#include "kernel/kernel.h"

/* L distinct rows of 0..n-1 drawn uniformly without replacement (a partial Fisher-Yates shuffle): a draw
 * of L rows holds every row of a draw of fewer. */
km_status km_landmarks_uniform(size_t n, size_t L, size_t **chosen);

/* At most L rows by k-means++ seeding (Arthur & Vassilvitskii, "k-means++: the advantages of careful
 * seeding", SODA 2007) on the view's features: the first uniformly, each next one with probability
 * proportional to its squared distance to the nearest row chosen. Fewer than L when every remaining
 * row duplicates a chosen one. */
km_status km_landmarks_kmeanspp(const km_view *view, size_t L, size_t **chosen, size_t *count);

/* The L largest keys -log(u_i)/w_i of rows with weight w_i > 0: L rows drawn without replacement with
 * probabilities proportional to w (Efraimidis & Spirakis, "Weighted random sampling with a reservoir",
 * Inf. Process. Lett. 97, 2006). Fewer than L when fewer weights are positive. */
km_status km_landmarks_weighted(const double *w, size_t n, size_t L, size_t **chosen, size_t *count);

/* Approximate ridge leverage scores (El Alaoui & Mahoney, NIPS 2015; Musco & Musco, "Recursive sampling for the Nystrom method",
 * NIPS 2017, Eq. (5) with a uniform sample S of L rows):
 *     l_i = (k(x_i, x_i) - k_S(x_i)' (K_SS + (L/n) lambda I)^-1 k_S(x_i)) / lambda,
 * with lambda = (the residual trace of the Nystrom approximation on S) / L, their choice
 * (1/L) sum_{j > L} sigma_j(K) with the tail estimated by S. From the uniform approximation's features
 * phi_i = Lambda^(-1/2) U' k_S(x_i) (n x r), the eigenvalues Lambda (r) of K_SS it kept and the diagonal
 * k(x_i, x_i): Lambda_c phi_ic^2 / (Lambda_c + mu) sums the middle term. scores: n values. Returns 0
 * with *lambda 0 when S leaves no residual (the approximation on S is already exact). */
void km_landmarks_leverage_scores(const double *phi, size_t n, size_t r, const double *eigenvalues,
                                  const double *diagonal, size_t L, double *lambda, double *scores);

/* The pivots of a pivoted incomplete Cholesky factorization of kernel k on the view (Fine &
 * Scheinberg, "Efficient SVM training using low-rank kernel representations", JMLR 2001; mklaren's
 * ICD): K ~ G G', each step taking as pivot the row of the largest residual diagonal d_p and adding
 * the column g = (k(., x_p) - G G_p') / sqrt(d_p), until the residual trace sum_i d_i falls to
 * k->icd_tolerance of the trace, or k->rank pivots. The Nystrom approximation on the pivots is G G'
 * itself, so its trace error is at most the tolerance. */
km_status km_landmarks_icd(const km_kernel *k, const km_view *view, size_t **chosen, size_t *count);

#endif
