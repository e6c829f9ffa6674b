/* Kernel k-means on a Gram matrix K0 (n x n, row-major) of a clustering kernel k_0: the partition
 * localized MKL learns one weight vector per cluster of (Lei, Binder, Dogan & Kloft, "Localized
 * Multiple Kernel Learning - A Convex Approach", §5.1). Lloyd sweeps in feature space with centroids
 * mu_j = |S_j|^-1 sum_{i in S_j} phi_0(x_i):
 *     d^2(x_i, S_j) = K0[i,i] - 2 B_j(x_i) + A_j,
 *     B_j(x_i) = |S_j|^-1 sum_{i' in S_j} K0[i,i'],   A_j = |S_j|^-2 sum_{i,i' in S_j} K0[i,i'],
 * from seeds drawn k-means++ style (Arthur & Vassilvitskii: each next seed with probability
 * proportional to its squared distance to the nearest seed) in feature space; the restart with the
 * smallest clustering error sum_i d^2(x_i, S_label(i)) is kept. */
#ifndef KM_MKL_KERNEL_KMEANS_H
#define KM_MKL_KERNEL_KMEANS_H

#include <stddef.h>
#include <stdint.h>

#include "kernelmix.h"

/* Sweeps at most this many times per restart. */
#define KM_KMEANS_MAX_SWEEPS 100

/* What ends k-means early, checked before every sweep (about 2 n^2 kernel values read): the caller's
 * interrupt (KM_EINTERRUPTED), and a deadline, at which the partition reached so far is kept as at
 * KM_KMEANS_MAX_SWEEPS and no further restart begins. */
typedef struct km_kmeans_limits {
    int (*interrupted)(void *ctx);  /* NULL: never */
    void *interrupt_ctx;
    double deadline;                /* km_monotonic_seconds(); 0: none */
} km_kmeans_limits;

/* Lloyd sweeps from the given seed rows (l distinct rows): labels[i] in 0..l-1 (ties: the smallest
 * cluster), no cluster left empty (an empty cluster takes the row farthest from its own centre);
 * *error = the clustering error of the result. limits: NULL, or as above (*timed_out set to 1 when
 * the deadline ended the sweeps; timed_out may be NULL). */
km_status km_kernel_kmeans_from_seeds(const double *K0, size_t n, size_t l, const size_t *seeds,
                                      const km_kmeans_limits *limits, size_t *labels, double *error, int *timed_out);

/* restarts runs of km_kernel_kmeans_from_seeds from k-means++ seeds drawn with seed; labels of the run
 * with the smallest error (ties: the earliest). KM_EINVAL when fewer than l training points are
 * distinct in feature space. limits and timed_out: as above (a deadline ends the restarts too). */
km_status km_kernel_kmeans(const double *K0, size_t n, size_t l, size_t restarts, uint64_t seed,
                           const km_kmeans_limits *limits, size_t *labels, double *error, int *timed_out);

/* A_j and |S_j| of a partition (A_j = 0 for an empty cluster). */
void km_kernel_kmeans_centres(const double *K0, size_t n, size_t l, const size_t *labels, double *A, double *sizes);

/* e[t l + j] = A_j - 2 B_j(x_t) for nt rows whose kernel values with the n clustered rows are
 * cross[t n + i] = k_0(x_t, x_i): d^2(x_t, S_j) up to k_0(x_t, x_t), which does not depend on j. */
void km_kernel_kmeans_scores(const double *cross, size_t nt, size_t n, size_t l, const size_t *labels,
                             const double *A, const double *sizes, double *e);

#endif
