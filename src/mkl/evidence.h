/* The evidence of empirical-Bayes MKL (Tomioka & Suzuki, "Regularization strategies and empirical
 * Bayesian learning for MKL", §4, eq. (10)): with f_m ~ GP(0, d_m k_m) and Gaussian noise of variance
 * sigma^2, integrating out f gives
 *   -log p(y | d, sigma^2) = 1/2 y'Kbar^-1 y + 1/2 log|Kbar| + n/2 log(2 pi),  Kbar = sigma^2 I + sum_m d_m K_m,
 * of which value holds the first two terms (the constant is log_2pi_term). One Cholesky factorisation
 * Kbar = L L' gives the value, alpha = Kbar^-1 y, Q_m = alpha'K_m alpha and, from Kbar^-1,
 * T_m = Tr(Kbar^-1 K_m) as an elementwise sum in O(n^2) per kernel (both for all kernels in one
 * matrix-vector product). The gradient is
 * d(value)/d d_m = 1/2 (T_m - Q_m), and the noise, a kernel I with weight sigma^2, has T = Tr(Kbar^-1)
 * and Q = alpha'alpha. The factorization and the inverse are computed in steps that poll the caller's
 * interrupt (core/cholesky.h).
 * On kernels given by explicit features (low-rank kernels, kernel/feature_block.h) of d < n dimensions
 * in all, the same quantities come from d x d matrices through the Woodbury identity
 * (km_evidence_alloc_features, evidence_features.c): no n x n matrix. */
#ifndef KM_MKL_EVIDENCE_H
#define KM_MKL_EVIDENCE_H

#include <stddef.h>

#include "kernel/feature_block.h"
#include "kernelmix.h"
#include "svm/svm.h"

typedef struct km_evidence_features km_evidence_features;

typedef struct km_evidence {
    size_t n, M;                 /* rows (with features on split rows: of every part) and kernels */
    const double *K;             /* M symmetric n x n Gram matrices, column-major, one after the other
                                    (NULL with features) */
    km_evidence_features *features; /* the Woodbury path's state, or NULL */
    double *factor;              /* n x n: L (lower triangle); NULL with features */
    double *alpha;               /* n values Kbar^-1 y */
    double *T, *Q;               /* M values Tr(Kbar^-1 K_m) (with traces) and alpha'K_m alpha */
    double trace_inverse;        /* Tr(Kbar^-1) (with traces) */
    double alpha_sq;             /* alpha'alpha */
    double data_fit;             /* 1/2 y'Kbar^-1 y */
    double half_log_det;         /* 1/2 log|Kbar| */
    double value;                /* data_fit + half_log_det: eq. (10) without its constant */
    double log_2pi_term;         /* n/2 log(2 pi) */
    double *outer;               /* n x n: alpha alpha', then Kbar^-1 (full, with traces); NULL with features */
    int (*interrupted)(void *ctx); /* polled between the steps of an evaluation (NULL: never); non-zero
                                    stops it with KM_EINTERRUPTED */
    void *interrupt_ctx;
} km_evidence;

/* Allocates the buffers for n rows and M kernels; K (M n^2 values) is borrowed. */
km_status km_evidence_alloc(size_t n, size_t M, const double *K, km_evidence *ev);
/* Allocates the evidence of the M kernels K_m(i, j) = s_i s_j <phi_m(i), phi_m(j)> of the feature blocks
 * (borrowed; n rows each) through their d = sum_m r_m dimensions: 3 d^2 + 1024 d + n doubles
 * (km_evidence_features_bytes). The first evaluation computes Phi'Phi, O(n d^2); each evaluation then
 * costs O(d^3 + n d), Kbar = sigma^2 I + Phi D Phi' (D: d_m on block m) never formed. The noise must be
 * positive. partition (NULL: none): the rows are this part's of partition->n_total split over processes
 * (data-parallel training); Phi'Phi, Phi'y, Phi'alpha, y'alpha and alpha'alpha are summed over the parts,
 * every part evaluates alike and holds alpha on its own rows, and ev->n is the total. */
km_status km_evidence_alloc_features(size_t n, size_t M, const km_feature_block *blocks,
                                     const km_row_partition *partition, km_evidence *ev);
/* The memory km_evidence_alloc_features takes for n rows and d dimensions (SIZE_MAX: not addressable). */
size_t km_evidence_features_bytes(size_t n, size_t d);
void km_evidence_free(km_evidence *ev);
/* Evaluates at weights d (M values >= 0) and noise variance >= 0; with_traces: also T and
 * trace_inverse. KM_EINVAL (no NaN) when Kbar is not positive definite, KM_EINTERRUPTED when
 * interrupted. */
km_status km_evidence_eval(km_evidence *ev, const double *y, const double *d, double noise, int with_traces);
/* The gradient of value at the last evaluation with traces: grad[m] = 1/2 (T_m - Q_m), and
 * *noise_grad = 1/2 (Tr(Kbar^-1) - alpha'alpha) (NULL: not wanted). */
void km_evidence_gradient(const km_evidence *ev, double *grad, double *noise_grad);

/* The n x n Gram matrix of every base kernel on the training rows (M n^2 values, column-major). */
km_status km_evidence_gram(const km_kernel_access *kernel, double *K);

#endif
