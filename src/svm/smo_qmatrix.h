/* The SMO solver's view of Q_st = y_s y_t sum_m theta_m K_m(row_s, row_t) in the solver's permuted
 * (active-set) order, with a bounded LRU cache (kernel/cache.h).
 *
 * Two layouts, as LIBSVM's SVC_Q and SVR_Q:
 *  - by variable (one variable per training row, no hook): the cache holds Q columns keyed by
 *    permuted position; a column is filled only for the positions asked for (the active ones) and
 *    follows the permutation through km_qmatrix_swap;
 *  - by row (several variables per row, as epsilon-SVR, or a hook): the cache holds whole kernel
 *    columns keyed by training row (the combined kernel, or with a hook the M base kernels, which the
 *    per-kernel gradients need and which stay valid when theta changes; or none, where the kernel layer
 *    holds the base kernels' columns in memory and they are read in place); a Q column is gathered from
 *    them into one of two alternating buffers;
 *  - full (no hook, and the n x n combined kernel matrix fits in the cache bound): the whole matrix,
 *    by training row, computed once at the start in blocks of columns; Q columns are gathered from it
 *    as in the by-row layout.
 * Without a hook the cached kernel values may be floats (km_smo_options.cache_float); columns handed
 * to the solver are always doubles. */
#ifndef KM_SVM_SMO_QMATRIX_H
#define KM_SVM_SMO_QMATRIX_H

#include <stddef.h>

#include "kernel/cache.h"
#include "svm/smo.h"

/* The M base-kernel columns of one training row: kernel m's n values at values[m], as floats (single)
 * or doubles. */
typedef struct km_row_kernels {
    const void *const *values;
    int single;
} km_row_kernels;

static inline double km_row_kernel_value(const km_row_kernels *e, size_t m, size_t k)
{
    return e->single ? (double)((const float *)e->values[m])[k] : ((const double *)e->values[m])[k];
}

/* y[k] += a K_m(k, row) for k in [from, to). */
static inline void km_row_kernel_axpy(const km_row_kernels *e, size_t m, double a, double *y, size_t from, size_t to)
{
    if (e->single) {
        const float *x = e->values[m];
        for (size_t k = from; k < to; k++)
            y[k] += a * (double)x[k];
    } else {
        const double *x = e->values[m];
        for (size_t k = from; k < to; k++)
            y[k] += a * x[k];
    }
}

/* Kernels are summed this many ahead of the one whose values are prefetched: each kernel's column lies
 * elsewhere in memory, a stream the hardware prefetcher would find only after its first misses (in
 * place, 1,000 kernels' columns are read 4-6 times faster so). */
#define KM_ROW_KERNELS_PREFETCH 4

/* Starts loading K_m(from, row) and what follows it, when kernel m exists. */
static inline void km_row_kernels_prefetch(const km_row_kernels *e, size_t M, size_t m, size_t from)
{
#if defined(__GNUC__)
    if (m < M)
        __builtin_prefetch((const char *)e->values[m] + from * (e->single ? sizeof(float) : sizeof(double)));
#else
    (void)e, (void)M, (void)m, (void)from;
#endif
}

typedef struct km_qmatrix {
    const km_qp *qp;
    size_t l;                 /* variables */
    size_t n;                 /* training rows */
    int by_row;               /* layout (see above) */
    int per_kernel;           /* by-row entries hold the M base kernels (M*n values) */
    int in_place;             /* per-kernel columns read where the kernel layer holds them (qp->kernel_rows),
                                 not cached */
    const void **row_values[2]; /* per-kernel layout: the M columns' addresses of the last two rows asked for */
    int next_row_values;
    signed char *y;           /* y at each permuted position */
    size_t *row;              /* training row at each permuted position */
    double *QD;               /* Q_tt at each permuted position */
    size_t value_size;        /* bytes per cached kernel value: sizeof(double) or sizeof(float) */
    void *full;               /* full layout: n×n combined kernel values, or NULL */
    size_t full_bytes;        /* its reservation in the cache */
    km_cache *cache;          /* the budget */
    km_cache *own_cache;      /* the solver's own, when none is shared */
    km_cache_client *columns; /* the Q or kernel columns */
    size_t *all_rows;         /* 0..n-1 (by row) */
    double *scratch;          /* one base-kernel column while summing M > 1 kernels */
    double *fill;             /* float values: a column computed in double before it is stored */
    double *buffer[2];        /* Q columns handed out (by row, full, or float values) */
    double *weighted;         /* per-kernel layout: the combined kernel column of a row, n values */
    int next_buffer;
    km_status failure;        /* status of the last failed column (its message is kept) */
    unsigned long computed;   /* kernel columns computed so far: the solver polls its interrupt by them */
} km_qmatrix;

/* cache: the shared kernel cache, or NULL for one of cache_bytes of its own. cache_float: hold float
 * values (ignored with per_kernel, whose entries stay double). interrupted (NULL: never): polled
 * before every block of the full layout's fill (of KM_COSTLY_BLOCK_VALUES values where qp has
 * costly_values); non-zero stops with KM_EINTERRUPTED. */
km_status km_qmatrix_init(km_qmatrix *qm, const km_qp *qp, km_cache *cache, size_t cache_bytes, int per_kernel,
                          int cache_float, int (*interrupted)(void *ctx), void *interrupt_ctx);
void km_qmatrix_destroy(km_qmatrix *qm);

/* Q column of the variable at permuted position i, entries [0, len). Valid until the second next call.
 * NULL on failure (status in qm->failure). */
const double *km_qmatrix_column(km_qmatrix *qm, size_t i, size_t len);
/* Base-kernel columns of training row r (per-kernel layout): K_m(s, r) at out->values[m][s]. Valid until
 * the second next call of any km_qmatrix access. On failure the status is also in qm->failure. */
km_status km_qmatrix_kernel_columns(km_qmatrix *qm, size_t r, km_row_kernels *out);
/* Exchanges permuted positions i and j. */
void km_qmatrix_swap(km_qmatrix *qm, size_t i, size_t j);
/* Recomputes QD after theta changed (per-kernel layout: nothing cached depends on theta). */
void km_qmatrix_update_diagonal(km_qmatrix *qm);

#endif
