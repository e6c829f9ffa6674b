/* Closed-form kernel-weight updates of lp-norm MKL and its regularizer family
 * (Kloft's thesis "lp-Norm Multiple Kernel Learning", Prop. 3.1, Alg. 3.1 and §3.2.2; Tomioka & Suzuki,
 * "Regularization Strategies and Empirical Bayesian Learning for MKL", eq. (3) and Table 1). All exponents
 * are in the block-norm convention p on w; the kernel-weight norm is q = p/(2-p) (thesis Problem II.4). */
#ifndef KM_MKL_THETA_H
#define KM_MKL_THETA_H

#include <stddef.h>

/* Relative floor of the weights before a primal-form or elastic-net step (a kernelmix safeguard against the
 * absorbing zero). */
#define KM_THETA_FLOOR 1e-12

/* theta_m = M^{-(2-p)/p} (= M^{-1/q}; p = inf gives M), the thesis's starting point (Alg. 3.1, line 2). */
void km_theta_init(size_t M, double p, double *theta);

/* One theta step from a_m = c'K_m c (>= 0) and the current theta, in place (thesis Prop. 3.1):
 *   p < 2  primal form   theta_m = |w_m|^{2-p} / (sum_k |w_k|^p)^{(2-p)/p},  |w_m| = theta_m sqrt(a_m)
 *   p = 2  theta_m = 1
 *   p > 2  dual form     theta_m = a_m^{(2-p)/(2(p-1))} / (sum_k a_k^{p/(2(p-1))})^{(2-p)/p}
 * evaluated in log space so that exponents near p = 1 do not overflow. Kernels with a_m <= 0 get
 * theta_m = 0 (thesis §3.2.2); for p < 2, theta is first raised to >= KM_THETA_FLOOR max theta, so that no
 * weight stays at 0 for good (at p = 1 the step is a power iteration); for p > 2, a_m is clamped to
 * >= 1e-12 max a. Returns 0 and leaves theta
 * unchanged when every a_m <= 0 (nothing to learn from yet), 1 otherwise. */
int km_theta_lp_step(size_t M, double p, const double *a, double *theta);

/* Elastic net in SHOGUN's parametrisation (lambda in [0,1]: 0 = l1 MKL, 1 = uniform):
 * eta_m = |w_m| / sum_k |w_k|, theta_m = eta_m / ((1-lambda) + lambda eta_m), with the same floor
 * as for p < 2. Same return as above. */
int km_theta_elasticnet_step(size_t M, double lambda, const double *a, double *theta);

/* Whether some weight moved from before to after by more than 1e-12 of the largest weight: a smaller move
 * is the rounding of a step at its fixed point. */
int km_theta_moved(size_t M, const double *before, const double *after);
/* The largest |after_m - before_m|: the size of a weight step. */
double km_theta_largest_change(size_t M, const double *before, const double *after);

/* The Tikhonov family of Tomioka & Suzuki (Table 1, eqs. (5)-(6)): d_m = 1/(2 g'(|f_m|^2)) from the block
 * norms |f_m| = d_m sqrt(a_m). */
typedef enum km_block_regularizer {
    KM_BLOCK_ONE,          /* g = sqrt(x):                 d = |f| */
    KM_BLOCK_LQ,           /* l_q kernel weights, q >= 1:   d = |f|^{2/(1+q)} */
    KM_BLOCK_UNIFORM,      /* block 2:                      d = 1 */
    KM_BLOCK_P_ABOVE_2,    /* block p > 2:                  d = |f|^{2-p} */
    KM_BLOCK_ELASTICNET    /* lambda in [0,1]:              d = |f| / ((1-lambda) + lambda |f|) */
} km_block_regularizer;
void km_block_weights(km_block_regularizer reg, double param, size_t M, const double *block_norm, double *d);

/* ||x||_e = (sum x_m^e)^{1/e} over the positive x_m (the others count as 0), e > 0 finite,
 * computed as top (sum (x_m/top)^e)^{1/e} with top = max x so that large e does not overflow. */
double km_mkl_norm(size_t M, double e, const double *x);

/* theta scaled onto ||theta||_p = 1 (an all-zero theta stays). */
void km_theta_onto_lp_sphere(size_t M, double p, double *theta);

/* ||a||_r with r = p/(2(p-1)), half the dual exponent of p (p = 1: max; p = 2: sum;
 * p = inf: (sum sqrt a)^2): the kernel part of the MKL dual D = lin - 1/2 ||a||_r (thesis Problem 2.2).
 * Negative a_m count as 0. */
double km_mkl_dual_norm(size_t M, double p, const double *a);

/* ||w||_{2,p}^2 = (sum_m |w_m|^p)^{2/p} (p = inf: max |w_m|^2), the regularizer of the
 * primal (thesis Problem II.3). */
double km_block_norm_squared(size_t M, double p, const double *block_norm);

#endif
