/* Kernel ridge regression on one combined kernel K = sum_m theta_m K_m (Saunders, Gammerman & Vovk;
 * Rostamizadeh's thesis Eq. 2.8-2.9): min 1/2 ||w||^2 + C/2 sum_i (z_i - f(x_i))^2, ridge lambda = 1/C.
 *  - without a bias: coef = (K + lambda I)^-1 z;
 *  - with an unregularized bias b: (K + lambda I) coef + b 1 = z and sum_i coef_i = 0. Minimising over b
 *    first centres the features and the targets, so coef equals (K_c + lambda I)^-1 (z - mean z) with the
 *    centred kernel K_c = U K U, U = I - 11'/n, and f(x) = sum_i coef_i K(x_i, x) + b.
 * Where every kernel has explicit features (a low-rank kernel, kernel/feature_block.h) of d < n dimensions
 * in all, by the Woodbury identity on those features (km_krr_solve_features) when its d x d matrix fits in
 * the budget; otherwise by Cholesky (core/cholesky.h, in steps that poll the interrupt; then LAPACKE's
 * dpotrs) when the n x n matrix fits in the budget, by conjugate gradients on kernel columns (Jacobi
 * preconditioned, several right-hand sides per pass) otherwise. */
#ifndef KM_SVM_KRR_H
#define KM_SVM_KRR_H

#include "svm/svm.h"

/* Relative residual ||r|| <= this ||rhs|| ends the conjugate-gradient path. */
#define KM_KRR_CG_TOLERANCE 1e-10

/* Fills solution->coef (n values), bias (0 without), objective (-1/2 z'coef: minus the dual optimum
 * 1/2 z'(K + lambda I)^-1 z of the C-scaled dual, which also holds with a bias since sum coef = 0),
 * iterations (conjugate-gradient steps, 0 for Cholesky) and converged. budget_bytes: the -m budget;
 * the dense path needs n^2 doubles of it. options: max_iter (CG steps; <= 0: 10 n, at least 1000) and
 * the interrupt poll. */
km_status km_krr_solve(const km_kernel_access *kernel, const double *z, double ridge, int bias, size_t budget_bytes,
                       const km_smo_options *options, km_svm_solution *solution);

/* KRR on explicit features: K = sum_m w_m K_m over the M blocks with w_m > 0, K_m(i, j) = s_i s_j
 * <phi_m(i), phi_m(j)> on the n rows of the blocks, solved through Z = [sqrt(w_m) s phi_m] (n x d) by the
 * Woodbury identity (Z Z' + lambda I)^-1 = (I - Z (lambda I + Z'Z)^-1 Z') / lambda: O(n d^2 + d^3) time,
 * d^2 + 1024 d doubles, no n x n matrix. The solution as km_krr_solve's (iterations 0). */
km_status km_krr_solve_features(size_t n, const km_feature_block *blocks, const double *weights, size_t M,
                                const double *z, double ridge, int bias, const km_smo_options *options,
                                km_svm_solution *solution);
/* d of km_krr_solve_features: the features' dimensions over the blocks with w_m > 0. */
size_t km_krr_feature_dimension(const km_feature_block *blocks, const double *weights, size_t M);

/* 1 when the dense path is taken for n rows within budget_bytes. */
int km_krr_dense_fits(size_t n, size_t budget_bytes);

#endif
