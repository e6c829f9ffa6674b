/* OBSCURE (Orabona, Jie & Caputo, "Multi Kernel Learning with Online-Batch Optimization", JMLR 2012):
 * p-norm MKL, min_w f(w) = lambda/2 ||w||_{2,p}^2 + 1/N sum_i loss(w, x_i, y_i), 1 < p <= 2, by an
 * online pass (Algorithm 1) and stochastic proximal projected mirror descent (Algorithm 2), through
 * the link function of Lemma 1 with q = p/(p-1).
 *
 * Kernelized form: every subgradient puts the same coefficient on every kernel block, so
 * theta^{j,r} = sum_i c_{i,r} phi^j(x_i) with one coefficient matrix c (n x K) for all kernels, and
 * w^j = beta_j theta^j with beta_j = d_j / q, d_j = (||theta^j|| / ||theta||_{2,q})^{q-2} (Lemma 1).
 * The learner keeps c = kappa c~ (lazy scaling), the squared block norms S_j = ||theta^j||^2 updated
 * incrementally in O(F) per step, and the rows with non-zero coefficients; scores come from kernel
 * values against those rows only, through the kernel access layer, for blocks of the rows visited
 * next at once (the per-kernel, per-class products of a row, P_{j,r} = theta^{j,r} . phi^j(x) / kappa,
 * are linear in c~: those of a block at its start come from one matrix product, and a change of c~
 * within the block adds its kernel values against the later rows). Where every kernel has explicit
 * features (low-rank kernels), the learner keeps the blocks of theta themselves instead
 * (obscure_features.c): a step costs O(sum_j r_j K), not a pass over the support. */
#ifndef KM_MKL_OBSCURE_H
#define KM_MKL_OBSCURE_H

#include <stddef.h>
#include <stdint.h>

#include "core/log.h"
#include "mkl/describe.h"
#include "svm/svm.h"

/* The three exponents: OBSCURE's block exponent p in (1, 2], its dual q = p/(p-1) in [2, inf), and
 * the exponent p_K = p/(2-p) of the equivalent constraint ||d||_{p_K} <= 1 on kernel weights (Orabona et al.
 * §5). */
double km_obscure_q_of_p(double p);
double km_obscure_p_of_q(double q);
double km_obscure_pk_of_p(double p);
double km_obscure_p_of_pk(double pk);

/* ||(a_1, ..., a_F)||_r of block norms a_j >= 0, as m (sum_j (a_j/m)^r)^(1/r) with m = max_j a_j: no
 * power of a_j is formed, so r up to 1e4 and norms from 1e-300 to 1e300 neither overflow nor lose
 * the largest block (a stable evaluation of Lemma 1's link function). */
double km_obscure_group_norm(const double *a, size_t F, double r);
/* d_j = (a_j / ||a||_q)^{q-2} from the block norms a_j = ||theta^j|| (Lemma 1), stably (a ratio <= 1
 * raised to q - 2: it may underflow to 0, never overflow); all 1 when q = 2 or theta = 0. */
void km_obscure_link_weights(const double *a, size_t F, double q, double *d);

/* Algorithm 2's step: xi_t, the positive root of xi^2 + D xi = q L^2 / (4 R^2), in a form without
 * cancellation; 0 for R = infinity. */
double km_obscure_xi(double D, double q, double L, double R);

/* The learner: one machine on n rows and F kernels; K outputs (K > 1: Crammer-Singer loss on the
 * classes class_of; K = 1: hinge loss on labels y = +-1). */
typedef struct km_obscure {
    const km_kernel_access *kernel;
    size_t n, F, K;
    const signed char *y;         /* K = 1 */
    const size_t *class_of;       /* K > 1 */
    double q, lambda;
    double *c;                    /* n x K, scaled: the coefficients are kappa c */
    double kappa;
    double *S;                    /* F squared block norms ||theta^j||^2 */
    double *d, *beta;             /* F link weights and beta = d / q */
    double theta_norm;            /* ||theta||_{2,q} */
    size_t *support;              /* rows that were updated, in order of their first update */
    size_t n_support;
    unsigned char *in_support;
    double *P;                    /* F x K: P_{j,r} = theta^{j,r} . phi^j(x_i) / kappa at the current row */
    double *scores;               /* K scratch */
    double *norms;                /* F scratch: block norms sqrt(S_j) */
    /* The rows visited next (km_obscure_prefetch) with what their steps need, so that a step computes
     * no kernel value: the products P of each at prefetch time, and the kernel values among them for
     * the changes of c~ made within the block. */
    size_t block_bytes;           /* memory for the kernel values of a prefetch or of a block of an
                                     objective pass (at least one row's) */
    size_t *block;                /* its rows, in visiting order */
    size_t block_len, block_next, block_cap;
    int block_base;               /* 0 once theta was set to 0 within the block: the products are void */
    double *block_products;       /* block_len x F x K: P at prefetch time */
    double *block_kernels;        /* K^j(x_{block[b']}, x_{block[b]}) at [(b F + j) block_len + b'] */
    double *block_delta;          /* block_len x K: the change of c~ at each step of the block */
    unsigned char *block_updated; /* block_len: the step changed c~ */
    double *block_values;         /* scratch: the block's kernel values against the support */
    double *block_coef;           /* scratch: the support's c~ */
    size_t block_values_cap, block_coef_cap;
    /* Explicit features (obscure_features.c; NULL: the kernelized form): F blocks, and theta^{j,r} =
     * kappa V~_{j,r}, V[j] of r_j x K values (row-major) in the units of c~ */
    km_feature_block *features;
    double **V;
    double *step_delta;           /* K: a step's change of c~ */
    double *row_values;           /* the largest r_j: a row's features converted to double (float blocks) */
    /* Algorithm 2 */
    double radius;                /* R; INFINITY: no projection (Pegasos-MKL) */
    long t;                       /* step counter */
    double s;                     /* running sum of xi */
    double fold_low, fold_high;   /* kappa is folded into c when it leaves [fold_low, fold_high] */
} km_obscure;

km_status km_obscure_init(km_obscure *o, const km_kernel_access *kernel, size_t K, const signed char *y,
                          const size_t *class_of, double q, double lambda);
void km_obscure_free(km_obscure *o);

/* Prefetches the first of the count rows to be visited next (as many as block_bytes of kernel values
 * allow, at least one) and returns how many: one matrix product of their kernel values against the
 * support instead of one pass over the support per step. Steps on these rows, in this order, then
 * use it; a step on another row prefetches that row alone. The steps' results do not depend on the
 * block (up to rounding). */
km_status km_obscure_prefetch(km_obscure *o, const size_t *rows, size_t count, size_t *taken);

/* One step at row i: Algorithm 1's with fixed step eta (stage 1), or Algorithm 2's (stage 2: counter
 * t + 1, shrink, step, projection on ||w||_{2,p} <= radius). *updated: 1 when the loss was positive. */
km_status km_obscure_online_step(km_obscure *o, size_t i, double eta, int *updated);
km_status km_obscure_stochastic_step(km_obscure *o, size_t i, int *updated);
/* ||w||_{2,p} = ||theta||_{2,q} / q (Lemma 1). */
double km_obscure_w_norm(const km_obscure *o);
/* The objective f(w) and training error (fraction of rows misclassified) by one pass over the rows. */
km_status km_obscure_objective(km_obscure *o, double *objective, double *error);
/* A duality certificate of the current iterate (obscure_certificate.c), given its objective f(w) from
 * km_obscure_objective: *primal = f(w) with the block norms recomputed exactly from the coefficients,
 * and *dual = D(alpha) of the Fenchel dual of problem (5) at a feasible alpha built from the
 * coefficients, so that f(w*) lies in [*dual, *primal]. Costs the kernel values among the support rows. */
km_status km_obscure_certify(const km_obscure *o, double objective, double *primal, double *dual);
/* Folds kappa into c (c~ <- kappa c~, kappa <- 1). */
void km_obscure_fold(km_obscure *o);
/* The coefficients kappa c (n x K) into coef. */
void km_obscure_coefficients(const km_obscure *o, double *coef);

/* The explicit-feature form (obscure_features.c). open: sets features, V and step_delta where every
 * kernel of the access has features (leaves them NULL otherwise); close frees them. */
km_status km_obscure_features_open(km_obscure *o);
void km_obscure_features_close(km_obscure *o);
/* P at row i from V~. */
void km_obscure_features_products(km_obscure *o, size_t i);
/* V~_j += s_ji phi_ji delta' (delta: K changes of c~ at row i). */
void km_obscure_features_add(km_obscure *o, size_t i, const double *delta);
/* V~ <- a V~ (a = 0: zero). */
void km_obscure_features_scale(km_obscure *o, double a);
/* f (K values) = the scores of row i, kappa sum_j beta_j P_{j,r}. */
void km_obscure_features_scores(const km_obscure *o, size_t i, double *f);
/* S_j = sum_r ||sum_s c_sr s_js phi_js||^2 and Q_j likewise with gamma, coef_gamma holding [c_s | gamma_s]
 * (2K values) per support row: the certificate's quadratic terms without kernel values. */
km_status km_obscure_features_quadratic(const km_obscure *o, const double *coef_gamma, double *S, double *Q);

/* The entry's describe (mkl/method.h; obscure_describe.c). */
void km_obscure_describe(const km_mkl_description *d);

#endif
