/* What the alignment-based kernel-learning methods share (Cortes, Mohri & Rostamizadeh; Rostamizadeh's
 * thesis §3.3): stage 1 computes weights mu >= 0 from the alignment statistics of the kernels with
 * the machine's targets on its training rows; stage 2 scales them to sum_k mu_k = radius (the
 * convention of the uniform combination, Eq. 3.4) and trains the machine once on sum_k mu_k K_k. */
#ifndef KM_MKL_TWO_STAGE_H
#define KM_MKL_TWO_STAGE_H

#include "mkl/alignment_stats.h"
#include "mkl/mkl.h"

/* Validates the parameters of the alignment and KRR methods (radius, q, eta, mu0, tolerances). */
km_status km_alignment_methods_resolve(const km_mkl_params *in, km_mkl_params *out);
/* y: the machine's n targets: the labels +-1 of a classifier, the values of a regression; KM_EINVAL
 * for a task without targets (one-class). */
km_status km_machine_targets(const km_machine_problem *machine, double *y);
/* The statistics of the problem's kernels with its targets; kept[k] (M values, caller-allocated) the
 * problem kernel of statistic k. Rank-1 kernels (kernel/family_rank1.c) take their statistics from the
 * feature columns (km_alignment_stats_rank1) and leave out kernels that are 0 (stats->M may be less
 * than M); otherwise stats->M = M and kept is the identity. */
km_status km_two_stage_stats(const km_mkl_problem *problem, int with_gram, km_alignment_stats *stats,
                             size_t *kept);
/* 1 when the kernels are rank-1 kernels of a provider (kernel/family_rank1.c) seen through a kernel
 * view: their statistics and products then come from the feature columns. */
int km_rank1_access(const km_kernel_access *kernel);
/* The d non-zero rank-1 kernels K_k = x~_k x~_k' of such an access as the columns of X~ (n x d
 * row-major; X: n x M values), up to their signs; kept[c] (M values) the kernel of column c. Kernels
 * that are 0 (a feature constant on the training rows) are left out. */
km_status km_rank1_features(const km_kernel_access *kernel, double *X, size_t *kept, size_t *d);
/* The statistics of every kernel of the access (stats->M = M): when rank1 (km_rank1_access of the access
 * before any wrapping, such as an interruptible one) from their feature columns, O(nM) (O(nM^2) with
 * the Gram matrix), zeros for kernels that are 0; otherwise km_alignment_stats_compute. */
km_status km_kernel_alignment_stats(const km_kernel_access *kernel, int rank1, const double *y, int with_gram,
                                    km_alignment_stats *stats);
/* h[k n + i] = (K_k coef)_i for every kernel: O(Mn) on rank-1 kernels, K_k coef = x~_k (x~_k'coef);
 * otherwise km_mkl_products. */
km_status km_kernel_products(const km_mkl_problem *problem, const double *coef, double *h);
/* Stage 1 of a method: mu (stats->M values >= 0) from the statistics. */
typedef km_status (*km_two_stage_weights_fn)(const km_mkl_params *mkl, const km_alignment_stats *stats, double *mu);
/* Both stages: the statistics (with the Gram matrix M_kl when with_gram), the weights, the training;
 * kernels left out of the statistics get weight 0, a negative weight is refused (KM_EINVAL). */
km_status km_two_stage_learn(const km_mkl_problem *problem, int with_gram, km_two_stage_weights_fn weights,
                             km_mkl_result *result);
/* Stage 2 from the direction mu (M values >= 0, not all 0): theta = radius mu / sum mu, one solve. */
km_status km_two_stage_train(const km_mkl_problem *problem, const double *mu, km_mkl_result *result);

#endif
