/* Convex localized MKL (Lei, Binder, Dogan & Kloft, "Localized Multiple Kernel Learning - A Convex
 * Approach"; docs/clmkl.md): the record the method leaves in the model, the memberships of new rows
 * from it, and the localized kernel access the solver trains on.
 *
 * With memberships c_ij of the n training rows in l clusters and M learned kernels, the localized
 * access serves V = M l kernels, kernel u = j M + m being
 *     K_u(x_i, x_i') = c_ij c_i'j K_m(x_i, x_i'),
 * so that its combination with weights beta_jm (theta[u]) is the kernel of Eq. (6),
 *     k~(x, x') = sum_j sum_m beta_jm c_j(x) c_j(x') k_m(x, x'),
 * and c'K_u c = Q_jm(c) of the dual (Problem 2). */
#ifndef KM_MKL_CLMKL_H
#define KM_MKL_CLMKL_H

#include <stddef.h>

#include "core/log.h"
#include "core/params.h"
#include "core/record.h"
#include "kernelmix.h"
#include "mkl/mkl.h"
#include "svm/svm.h"

/* The record section and its entries (per training row in training order; l clusters):
 *   labels n x 1 (cluster of each row), centres l x 2 (A_j, |S_j|), memberships n x l, tau (finite),
 *   hard (1: tau = infinity), evenness (AE of the training memberships), cluster_kernel (0: the mean
 *   of the learned kernels; k: kernel k), cluster_only, error (the k-means error).
 * A gated model (LMKL, lmkl.c) has l = M groups, one per kernel, and instead of labels, centres, tau,
 * hard and evenness the gating: gating n x M (r), gating_bias M x 1 (v_0), gated M x 1 (1: kernel m
 * is gated, 0: it only clusters). */
#define KM_CLMKL_SECTION "clusters"

/* The clustering kept in a model's record, as prediction reads it. */
typedef struct km_clustering {
    size_t n, l;                 /* training rows, clusters */
    const double *labels;        /* n (cluster indices as doubles) */
    const double *centres;       /* l x 2: A_j, |S_j| */
    const double *memberships;   /* n x l */
    double tau;                  /* INFINITY: hard */
    double evenness;
    size_t cluster_kernel;       /* 0: the mean of the learned kernels; k: kernel k (1-based) */
    int cluster_only;            /* kernel cluster_kernel is not learned */
    const double *gating;        /* gated model: n x l gating coefficients r; NULL: k-means clusters */
    const double *gating_bias;   /* l */
    const double *gated;         /* l: 1 for a gated kernel, 0 for the clustering-only one */
} km_clustering;

/* Clusters the rows of k (kernel k-means on the clustering kernel of mkl: clusters, cluster_kernel,
 * cluster_only, restarts and seed), chooses tau (mkl->cluster_tau, or by bisection to the evenness
 * mkl->cluster_ae) and writes partition and memberships into the record, which *out then points
 * into. A record that holds a clustering already is only read. */
km_status km_clmkl_cluster(const km_kernel_access *k, const km_mkl_params *mkl, const km_logger *logger,
                           km_record *record, km_clustering *out);

/* KM_EINVAL naming source when the clusters of mkl (clmkl, hlmkl) are more than the n rows kernel
 * k-means partitions: checked before anything of their size is allocated. */
km_status km_clusters_check(const km_mkl_params *mkl, size_t n, const char *source);

/* The Gram matrix K0 (n x n) of the clustering kernel of mkl over the rows of k (kernel cluster_kernel,
 * or the mean of all when 0); column: n values of scratch. */
km_status km_clustering_gram(const km_kernel_access *k, const km_mkl_params *mkl, double *K0, double *column);

/* Reads the clustering from a record for a model of M kernels with l weight groups trained on n rows
 * (KM_EFORMAT naming what is missing or inconsistent). */
km_status km_clustering_read(const km_record *record, size_t n, size_t l, size_t M, km_clustering *out);

/* Whether kernel m (0-based) of M is learned (not the clustering-only kernel). */
int km_clustering_learns(const km_clustering *clustering, size_t m);

/* Gates of rows from their clustering-kernel values z0 (nt x n, z0[t n + i] = k_0(x_t, x_i)) and a gated
 * clustering's r and v_0 (Gonen & Alpaydin's softmax gating, kernelized): c[t l + m] =
 * softmax_m(sum_i r_im z0[t n + i] + v_m) over the gated kernels m, 0 for the others. */
void km_gates(const double *z0, size_t nt, size_t n, size_t l, const double *r, const double *v,
              const double *gated, double *c);

/* Memberships c (nt x l) of nt rows from their values under the M kernels with the n training rows,
 * K[(m nt + t) n + i] (kernel-major blocks, as prediction's cross blocks): the clustering kernel is
 * kernel cluster_kernel or the mean of the learned ones. scratch: n + l values. */
void km_clustering_memberships(const km_clustering *clustering, size_t M, const double *K, size_t nt,
                               double *scratch, double *c);

/* Algorithm 1 on localized kernels (M learned kernels, l clusters; kernels->theta holds the start beta,
 * M l values, and receives the result) for the machine of pr: SVM solves with tolerances from
 * first_tolerance tightening tenfold per outer iteration down to min(machine tolerance, 1e-5)
 * (first_tolerance = the machine's tolerance: fixed), alternating with Eq. (7) per cluster, until the
 * relative gap of §4 reaches pr->mkl.gap or max_outer steps. */
km_status km_clmkl_solve(const km_mkl_problem *pr, const km_kernel_access *kernels, size_t M, size_t l,
                         double first_tolerance, km_mkl_result *result);

/* The localized kernel access (see above) over base, the M_all kernels of the machine; learned[m]
 * (M values) are the base kernels learned, gamma (n x l) the memberships. theta (M l values) is the
 * weight array the access's combination uses (theta[j M + m] = beta_jm). */
typedef struct km_localized_access km_localized_access;
km_status km_localized_access_new(const km_kernel_access *base, const size_t *learned, size_t M, size_t l,
                                  const double *gamma, double *theta, km_localized_access **out);
const km_kernel_access *km_localized_access_kernels(const km_localized_access *access);
/* Replaces the memberships (n x l). */
void km_localized_access_set_memberships(km_localized_access *access, const double *gamma);
void km_localized_access_free(km_localized_access *access);

#endif
