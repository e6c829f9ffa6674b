/* Diagnostics of multiple kernel learning (Kloft's thesis "lp-Norm Multiple Kernel Learning", eq. 5.1,
 * §5.1.1): centred kernel alignment between the kernels and with the labels, and the bound factors that
 * suggest p from the block norms |w_m|. */
#ifndef KM_MKL_DIAGNOSTICS_H
#define KM_MKL_DIAGNOSTICS_H

#include <stddef.h>

#include "kernelmix.h"
#include "mkl/alignment_stats.h"
#include "mkl/mkl.h"
#include "svm/svm.h"

/* Centred alignment A(K, L) = <HKH, HLH>_F / (|HKH|_F |HLH|_F), H = I - 11'/n (thesis eq. 5.1 with
 * centering), of the kernels of the access over its n rows (theta is not used):
 *   matrix  M x M, row-major (NULL: not computed): A(K_a, K_b);
 *   target  M values (NULL or n_targets = 0: not computed): A(K_m, Y Y') for the target kernel of the
 *           n x n_targets row-major matrix Y (one column of +-1 labels or real targets, or one
 *           indicator column per class, whose Y Y' is 1 for rows of the same class).
 * A kernel whose centred matrix is zero (a constant kernel) has alignment 0 with everything.
 * Two passes over the kernel columns: the column means first, then products of centred columns; the
 * matrix costs O(M^2 n^2), the target alignments alone O(M n^2). */
km_status km_alignments(const km_kernel_access *kernel, size_t n_targets, const double *targets, double *matrix,
                        double *target);
/* The same, but an alignment asked for that is undefined (a kernel, or Y Y', constant after centring)
 * fails with KM_EINVAL naming the kernel (1-based) instead of being 0: km_kernel_alignment's rule. */
km_status km_alignments_defined(const km_kernel_access *kernel, size_t n_targets, const double *targets,
                                double *matrix, double *target);

/* The alignments of km_alignments from the statistics of mkl/alignment_stats.h, with the one target
 * vector y they were computed on (Y = y), without a pass over the kernels: target[m] = A(K_m, y y')
 * (rho_m; 0 where the centred kernel or target vanishes, as in km_alignments); matrix (NULL: not
 * computed) needs the statistics' Gram matrix and is left alone without it. Two classes' indicator
 * columns have the alignments of their difference y = +-1: their centred columns are y~/2, -y~/2. */
void km_alignments_of_stats(const km_alignment_stats *stats, double *matrix, double *target);

/* Block norms |w_m| = theta_m sqrt(c'K_m c) (M values) of the solution coef of a problem at its
 * theta, from the products h = K_m c (thesis eq. II.5; one-class in the certificate's scaling c/(nu n)). */
void km_mkl_block_norms(const km_mkl_problem *problem, const double *coef, const double *h, double *block_norm);

/* Global bound factor (thesis §5.1.1): nu(p) = |(|w_m|)_m|_p sqrt(s) M^{1/s}, s = max(1, min(p*, 2 ln M)),
 * p* = p/(p-1), for block-norm p >= 1 (the closed form of min_{t >= p} sqrt(t*) M^{1/t*}). */
double km_bound_global(size_t M, double p, const double *block_norm);

/* Local bound factor for eigenvalue decay alpha > 0 (thesis §4.4):
 * nu(p) = |w|_p^{2/(1+alpha)} s^{2/(1+alpha)} M^{1 + (2/(1+alpha))(1/s - 1)}, s = max(2, min(p*, ln M)). */
double km_bound_local(size_t M, double p, double alpha, const double *block_norm);

/* Minimiser of a bound factor over block-norm p in [1, 2] (alpha <= 0: the global factor, else the
 * local one with that decay); see km_bound_choice in kernelmix.h. */
void km_bound_choose(size_t M, const double *block_norm, double alpha, km_bound_choice *out);

#endif
