/* Kernel k-means with seeded k-means++ restarts (kernel_kmeans.h). */
#include "mkl/kernel_kmeans.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/error.h"
#include "core/rng.h"

void km_kernel_kmeans_centres(const double *K0, size_t n, size_t l, const size_t *labels, double *A, double *sizes)
{
    memset(A, 0, l * sizeof *A);
    memset(sizes, 0, l * sizeof *sizes);
    for (size_t i = 0; i < n; i++) {
        sizes[labels[i]] += 1;
        for (size_t k = 0; k < n; k++)
            if (labels[k] == labels[i])
                A[labels[i]] += K0[i * n + k];
    }
    for (size_t j = 0; j < l; j++)
        A[j] = sizes[j] > 0 ? A[j] / (sizes[j] * sizes[j]) : 0.0;
}

void km_kernel_kmeans_scores(const double *cross, size_t nt, size_t n, size_t l, const size_t *labels,
                             const double *A, const double *sizes, double *e)
{
    for (size_t t = 0; t < nt; t++) {
        double *row = e + t * l;
        memset(row, 0, l * sizeof *row);
        for (size_t i = 0; i < n; i++)
            row[labels[i]] += cross[t * n + i];
        for (size_t j = 0; j < l; j++)
            row[j] = sizes[j] > 0 ? A[j] - 2.0 * row[j] / sizes[j] : INFINITY;
    }
}

/* The cluster of the smallest score, ties to the smallest index. */
static size_t nearest(const double *e, size_t l)
{
    size_t best = 0;
    for (size_t j = 1; j < l; j++)
        if (e[j] < e[best])
            best = j;
    return best;
}

/* Every empty cluster takes the row farthest from its own centre (d^2 from the scores e and K0's
 * diagonal) among clusters of two or more rows; returns whether a label changed. */
static int fill_empty_clusters(const double *K0, size_t n, size_t l, const double *e, double *sizes, size_t *labels)
{
    int moved = 0;
    for (size_t j = 0; j < l; j++) {
        if (sizes[j] > 0)
            continue;
        size_t far = n;
        double far_d2 = -INFINITY;
        for (size_t i = 0; i < n; i++) {
            double d2 = K0[i * n + i] + e[i * l + labels[i]];
            if (sizes[labels[i]] > 1 && d2 > far_d2) {
                far_d2 = d2;
                far = i;
            }
        }
        if (far == n)
            break;
        sizes[labels[far]] -= 1;
        labels[far] = j;
        sizes[j] = 1;
        moved = 1;
    }
    return moved;
}

/* KM_EINTERRUPTED when the caller asked to stop; *at_deadline = 1 when the deadline has passed. */
static km_status check_limits(const km_kmeans_limits *limits, int *at_deadline)
{
    if (!limits)
        return KM_OK;
    if (limits->interrupted && limits->interrupted(limits->interrupt_ctx))
        return km_error(KM_EINTERRUPTED, "interrupted in kernel k-means");
    if (limits->deadline > 0 && km_monotonic_seconds() >= limits->deadline)
        *at_deadline = 1;
    return KM_OK;
}

km_status km_kernel_kmeans_from_seeds(const double *K0, size_t n, size_t l, const size_t *seeds,
                                      const km_kmeans_limits *limits, size_t *labels, double *error, int *timed_out)
{
    double *e = malloc(n * l * sizeof *e), *A = malloc(l * sizeof *A), *sizes = malloc(l * sizeof *sizes);
    if (!e || !A || !sizes) {
        free(e);
        free(A);
        free(sizes);
        return km_error_nomem("kernel k-means");
    }
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < l; j++)
            e[i * l + j] = K0[seeds[j] * n + seeds[j]] - 2.0 * K0[i * n + seeds[j]];
        labels[i] = nearest(e + i * l, l);
    }
    km_status st = KM_OK;
    int at_deadline = 0;
    for (int sweep = 0, changed = 1; changed && sweep < KM_KMEANS_MAX_SWEEPS; sweep++) {
        if ((st = check_limits(limits, &at_deadline)) || at_deadline)
            break;
        km_kernel_kmeans_centres(K0, n, l, labels, A, sizes);
        km_kernel_kmeans_scores(K0, n, n, l, labels, A, sizes, e);
        changed = 0;
        for (size_t i = 0; i < n; i++) {
            size_t j = nearest(e + i * l, l);
            if (j != labels[i] && e[i * l + j] < e[i * l + labels[i]]) {
                sizes[labels[i]] -= 1;
                sizes[j] += 1;
                labels[i] = j;
                changed = 1;
            }
        }
        changed |= fill_empty_clusters(K0, n, l, e, sizes, labels);
    }
    if (!st) {
        km_kernel_kmeans_centres(K0, n, l, labels, A, sizes);
        km_kernel_kmeans_scores(K0, n, n, l, labels, A, sizes, e);
        double sum = 0;
        for (size_t i = 0; i < n; i++)
            sum += fmax(0.0, K0[i * n + i] + e[i * l + labels[i]]);
        *error = sum;
    }
    if (timed_out && at_deadline)
        *timed_out = 1;
    free(e);
    free(A);
    free(sizes);
    return st;
}

/* k-means++ seeds: the first uniform, each next one with probability proportional to its squared
 * feature-space distance to the nearest seed so far (rows at distance 0 are never drawn).
 * KM_EINVAL when fewer than l rows are distinct. */
static km_status draw_seeds(const double *K0, size_t n, size_t l, km_rng *rng, double *nearest_d2, size_t *seeds)
{
    seeds[0] = (size_t)km_rng_below(rng, n);
    for (size_t i = 0; i < n; i++)
        nearest_d2[i] = INFINITY;
    for (size_t j = 1; j < l; j++) {
        size_t s = seeds[j - 1];
        double total = 0;
        for (size_t i = 0; i < n; i++) {
            double d2 = fmax(0.0, K0[i * n + i] - 2.0 * K0[i * n + s] + K0[s * n + s]);
            nearest_d2[i] = fmin(nearest_d2[i], d2);
            total += nearest_d2[i];
        }
        if (!(total > 0))
            return km_error(KM_EINVAL, "kernel k-means: %zu clusters, but the training rows have only %zu distinct "
                            "points under the clustering kernel", l, j);
        double u = km_rng_uniform(rng) * total, run = 0;
        size_t pick = n;
        for (size_t i = 0; i < n && pick == n; i++) {
            run += nearest_d2[i];
            if (nearest_d2[i] > 0 && run > u)
                pick = i;
        }
        for (size_t i = n; pick == n && i-- > 0;) /* rounding left u at the end: the last distinct row */
            if (nearest_d2[i] > 0)
                pick = i;
        seeds[j] = pick;
    }
    return KM_OK;
}

km_status km_kernel_kmeans(const double *K0, size_t n, size_t l, size_t restarts, uint64_t seed,
                           const km_kmeans_limits *limits, size_t *labels, double *error, int *timed_out)
{
    if (l == 0 || l > n)
        return km_error(KM_EINVAL, "kernel k-means: %zu clusters for %zu training rows", l, n);
    size_t *seeds = malloc(l * sizeof *seeds), *trial = malloc(n * sizeof *trial);
    double *nearest_d2 = malloc(n * sizeof *nearest_d2);
    km_status st = seeds && trial && nearest_d2 ? KM_OK : km_error_nomem("kernel k-means");
    km_rng rng;
    km_rng_seed(&rng, seed);
    *error = INFINITY;
    int at_deadline = 0;
    for (size_t r = 0; !st && r < restarts && !at_deadline; r++) {
        double e;
        if ((st = draw_seeds(K0, n, l, &rng, nearest_d2, seeds)) ||
            (st = km_kernel_kmeans_from_seeds(K0, n, l, seeds, limits, trial, &e, &at_deadline)))
            break;
        if (e < *error) {
            *error = e;
            memcpy(labels, trial, n * sizeof *labels);
        }
    }
    if (timed_out && at_deadline)
        *timed_out = 1;
    free(seeds);
    free(trial);
    free(nearest_d2);
    return st;
}
