/* Generalization and concentration bounds of learning kernels (A. Rostamizadeh, "Learning Kernels",
 * PhD thesis, NYU 2010, ch. 2; Cortes, Mohri & Rostamizadeh, "Generalization Bounds for Learning
 * Kernels", ICML 2010), as numbers for given m, p, delta, margin rho, radius R^2 and kernel traces.
 * Notation: m sample size, p base kernels, eta0 = 23/22 (Lemma 2.1), q the kernel-weight norm and r
 * its conjugate, 1/q + 1/r = 1. Every function checks its arguments (KM_EINVAL naming the one that is
 * out of range) and never answers NaN. */
#ifndef KM_EVAL_LEARNING_BOUNDS_H
#define KM_EVAL_LEARNING_BOUNDS_H

#include <stddef.h>

#include "kernelmix.h"

#define KM_BOUND_ETA0 (23.0 / 22.0)

/* The inputs the bounds take from data (thesis §2.2): R2 = max_k max_i K_k(x_i, x_i) and
 * traces[k] = Tr K_k (km_kernel_set_size(set) values) of the kernels of set as used (normalized and
 * centred as their specs say) on all rows of data. */
km_status km_bound_kernel_inputs(const km_dataset *data, const km_kernel_set *set, double *R2, double *traces);

/* Thm 2.5/2.7: empirical Rademacher complexity of H_p^q, sqrt(eta0 r ||u||_r) / m, u the p kernel
 * traces, for the integer r >= 1. */
km_status km_bound_rademacher(size_t m, size_t p, const double *traces, int r, double *out);
/* The same for q = 1, where it holds for every integer r >= 1: the minimum over r in
 * [1, ceil(ln p) + 2], and the r that attains it (best_r may be NULL). */
km_status km_bound_rademacher_l1(size_t m, size_t p, const double *traces, double *out, int *best_r);
/* Thm 2.6 (q = 1, p > 1, K_k(x,x) <= R^2): sqrt(eta0 e ceil(ln p) R^2 / m); p = 1 counts as
 * ceil(ln p) = 1. */
km_status km_bound_l1_complexity(size_t m, size_t p, double R2, double *out);
/* Its variant for unbounded kernels, sqrt(eta0 e ceil(ln p) ||u||_inf) / m (the remark after Thm 2.6
 * puts m inside the root; the proof gives it outside). */
km_status km_bound_l1_complexity_traces(size_t m, size_t p, const double *traces, double *out);
/* Thm 2.8 (q > 1, integer r): sqrt(eta0 r p^(1/r) R^2 / m). */
km_status km_bound_lq_complexity(size_t m, size_t p, int r, double R2, double *out);

/* Cor. 2.1/2.2: R(h) <= R_rho(h) + (2/rho) complexity + 3 sqrt(ln(2/delta) / (2m)). */
typedef struct km_margin_bound {
    double complexity;   /* (2/rho) times the Rademacher complexity */
    double confidence;   /* 3 sqrt(ln(2/delta) / (2m)) */
    double value;        /* empirical margin loss + complexity + confidence */
} km_margin_bound;
km_status km_bound_margin(size_t m, double rho, double delta, double rademacher, double empirical_margin_loss,
                          km_margin_bound *out);
/* The empirical margin loss (1/m) sum_i min(1, max(0, 1 - y_i h(x_i) / rho)). */
km_status km_bound_margin_loss(size_t m, const double *y, const double *h, double rho, double *out);

/* Srebro & Ben-David's bound for learning kernels (thesis §2.2), for comparison:
 * sqrt(8 [2 + p ln(128 e m^3 R^2 / (rho^2 p)) + 256 (R^2/rho^2) ln(rho e m / (8R)) ln(128 m R^2 / rho^2)] / m),
 * plus ln(1/delta) inside the bracket when delta > 0 (the printed form has no delta term; delta = 0
 * omits it). KM_EINVAL where a logarithm's argument is not above 1 (m too small for the bound). */
km_status km_bound_srebro_ben_david(size_t m, size_t p, double R2, double rho, double delta, double *out);

/* Thm 2.9 (linear functions x -> w.x with ||x||_r <= X, ||w||_q <= W, r an even integer >= 2):
 * X W sqrt(eta0 r / (2m)); kakade receives Kakade, Sridharan & Tewari's X W sqrt((r - 1) / m). */
km_status km_bound_linear(size_t m, int r, double X, double W, double *out, double *kakade);

/* Stability of L2-regularized KRR kernel learning (Prop. 2.4, Thm 2.4): kernels bounded by R^2,
 * |y| <= M, ball radius Lambda, ridge lambda0 m, smallest eigenvalue lambda_min >= 0 of the learned
 * kernel matrix (0 is always valid). */
typedef struct km_stability_bound {
    double C0;           /* 2 R^2 M + 4 Lambda R M (R^2/lambda0 + 1) */
    double C1;           /* 16 Lambda^2 M R^3 / lambda0 */
    double beta_S;       /* the part of beta/2 from the fixed kernel, M 2R^2 M / (lambda_min + lambda0 m) */
    double beta_K;       /* the part from the kernel change, M (C0 - 2R^2 M + C1 sqrt(p)) / (...) */
    double beta;         /* 2 M (C0 + C1 sqrt(p)) / (lambda_min + lambda0 m) = 2 (beta_S + beta_K) */
    double term;         /* 2 beta + (4 m beta + B) sqrt(ln(1/delta) / (2m)) */
} km_stability_bound;
/* loss_bound: B of the term, M as Thm 2.4 prints it or M^2 (the squared loss is bounded by M^2 when
 * |h - y| <= M). */
km_status km_bound_stability(size_t m, size_t p, double R, double M, double Lambda, double lambda0, double lambda_min,
                             double delta, double loss_bound, km_stability_bound *out);

/* Concentration of the alignment: Prop. 2.6, |eta - eta_hat| <= 18 R^4/m + 24 R^4 sqrt(ln(2/delta)/(2m)),
 * and Thm 2.10, |rho - rho_hat| <= 18 beta [3/m + 4 sqrt(ln(6/delta)/(2m))] with
 * beta = max(R^4 / E[K_c^2], R^4 / E[K'_c^2]). */
km_status km_bound_alignment_eta(size_t m, double R, double delta, double *out);
km_status km_bound_alignment_rho(size_t m, double beta, double delta, double *out);

/* Good predictors from a well-aligned kernel (Thm 2.11-2.13): Thm 2.11, classification error of h*,
 * 1 - rho Var(y) / Gamma (Gamma >= max_x sqrt(E_x'[K_c^2(x,x')] / E[K_c^2]) >= 1); Thm 2.12, squared
 * error of h*, 2 (1 - rho Var(y)); Thm 2.13, classification error of g*, 1 - eta / R^2 (K_c(x,x) <= R^2). The factor Var(y) corrects the theorems' use of
 * E[y h*(x)] = rho, which holds for centred labels only (= 1 for centred labels of variance 1). */
km_status km_bound_good_predictor(double rho, double var_y, double gamma, double eta, double R2,
                                  double *thm211, double *thm212, double *thm213);

#endif
