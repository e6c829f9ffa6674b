/* The provider's internals (provider.h), shared by the files that implement it: construction
 * (provider.c), fitting (provider_fit.c), precomputed matrices (precomputed.c), the memory budget
 * (provider_storage.c), single columns (provider_column.c) and blocks of combined columns
 * (provider_block.c). */
#ifndef KM_KERNEL_PROVIDER_INTERNAL_H
#define KM_KERNEL_PROVIDER_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "core/log.h"
#include "kernel/cache.h"
#include "kernel/feature_view.h"
#include "kernel/kernel_family.h"
#include "kernel/provider.h"

#define KM_PROVIDER_NONE ((size_t)-1)
/* Dense views with at most this many columns compute dot products directly for the rows asked for,
 * without Gram matrix or cache. */
#define KM_DIRECT_DOT_MAX_DIM 8

typedef struct km_provider_view {
    size_t lead;                 /* first kernel on this feature subset */
    km_view view;
    size_t *dot_kernels;         /* dot-product kernels on this view (a run of the provider's dot_kernel_runs);
                                    once fitted, the exp kernels first, by increasing gamma */
    size_t n_dot_kernels;
    const double *gram;          /* all dot products: gram[map(i) * gram_ld + map(j)], or NULL */
    double *own_gram;            /* the provider's own n×n Gram matrix (map: identity) */
    double *focus_gram;          /* the Gram matrix of the focus rows (km_provider_focus; map: focus_position) */
    size_t gram_ld;
    const size_t *gram_rows;     /* map: provider row -> row of a kernel context's Gram matrix, or NULL */
    size_t source;               /* cache source of dot-product columns when there is no gram */
    double *work;                /* dim zeros for sparse views */
    int direct;                  /* few columns: dot products computed per request */
    /* rows of a dense view gathered for block products, kept from one block to the next (grow-only) */
    size_t *gathered_rows;
    double *gathered_X;          /* n_gathered × dim */
    size_t n_gathered, gathered_rows_capacity, gathered_X_capacity;   /* km_grow's capacities */
} km_provider_view;

/* The source of KM_INPUT_ROWS kernels of one family on one feature subset (kernel_family.h). */
typedef struct km_provider_rows {
    const km_kernel_family *family;
    size_t lead;                 /* first kernel on it */
    void *source;
} km_provider_rows;

/* A mean training distance (relative widths), computed once per input and distance. */
typedef struct km_provider_mean {
    const void *rows;            /* the km_view or rows source it is computed on */
    km_status (*mean_of)(const void *rows, double *mean);
    double value;
} km_provider_mean;

typedef struct km_provider_kernel {
    const km_kernel_family *family;
    size_t view;                 /* dot-product kernels: their feature view, else KM_PROVIDER_NONE */
    void *rows;                  /* KM_INPUT_ROWS kernels: their source */
    size_t source;               /* cache source of KM_INPUT_ROWS columns */
    size_t together;             /* the first of the kernels whose columns the family computes in one pass
                                    with this one's (kernel_family.h columns); KM_PROVIDER_NONE: none */
    const double *K;             /* precomputed: K[map(i) * ld + map(j)] (double storage) */
    const float *K32;            /* or K32[map(i) * ld + map(j)] (float storage) */
    size_t ld;
    const size_t *map;           /* provider row -> matrix row, NULL: identity */
    double *owned_K;             /* training block of a kernel precomputed in the dataset rows */
    double *factor;              /* spherical factors, or NULL */
    unsigned exp_squares;        /* s > 0: the raw values are exp(-(gamma / 2^s) d) squared s times, the
                                    square of the values of the kernel before it in its view's order
                                    (km_provider_plan_squares); 0: exp(-gamma d) */
    double mu, global;
    double *diag;                /* normalized diagonal */
} km_provider_kernel;

struct km_provider {
    const km_dataset *data;
    size_t n;
    size_t *rows;                /* dataset row of every provider row */
    size_t *identity;            /* 0..n-1 */
    int identity_rows;           /* rows[k] = k: provider rows are the first dataset rows, in order */
    km_kernel_set *fitted;
    size_t n_views;
    km_provider_view *views;
    size_t *dot_kernel_runs;     /* the dot-product kernels grouped by view: M entries, not M per view */
    size_t n_rows_sources;
    km_provider_rows *rows_sources;
    size_t n_means;
    km_provider_mean *means;
    km_provider_kernel *kernels;
    km_cache *cache;             /* the budget (owned when owns_cache) */
    int owns_cache;
    km_cache_client *columns;    /* dot-product and pairwise columns, key source * n + column */
    size_t gram_reserved;        /* bytes of the Gram matrices reserved in the cache */
    size_t features_reserved;    /* bytes of the low-rank kernels' features reserved in the cache */
    size_t dots_reserved;        /* bytes of their shared dot products with the landmarks, while fitted */
    size_t gram_limit;           /* bytes of the cache Gram matrices may take */
    size_t gram_views_missing;   /* views that need a Gram matrix the budget could not hold, until warned */
    unsigned char *dots_computed; /* while gram_views_missing: source * n + i, dot-product column i computed */
    size_t *focus_position;      /* provider row -> position among the focus rows (km_provider_focus) */
    size_t focus_reserved;       /* bytes of the focus rows' Gram matrices reserved in the cache */
    const struct km_kernel_context *context;   /* Gram matrices over all dataset rows, or NULL */
    struct km_rank1_block *rank1;  /* the rank-1 kernels' combinations (rank1_block.h), or NULL */
    double *base;                /* scratch columns, n values each */
    double *scratch;
    double *dist;
    size_t together_most;        /* kernels computed in one pass at most (together_work: that many columns) */
    double *together_work;
    const km_kernel **together_kernels;
    size_t *together_members;
    km_logger logger;
};

/* Stored value of a precomputed kernel at provider rows i, j. */
static inline double km_provider_stored_value(const km_provider_kernel *pk, size_t i, size_t j)
{
    size_t at = (pk->map ? pk->map[i] : i) * pk->ld + (pk->map ? pk->map[j] : j);
    return pk->K ? pk->K[at] : (double)pk->K32[at];
}

/* Precomputed kernel m: its matrix (or the training block of the dataset's kernel rows), checked
 * (precomputed.c). */
km_status km_provider_setup_precomputed(km_provider *p, const km_kernel *k, km_provider_kernel *pk);
/* Full Gram matrices within gram_limit bytes of the cache, the column cache client (provider_storage.c). */
km_status km_provider_setup_storage(km_provider *p, km_provider_use use);
/* The solver's dot-product column i of source is being computed from the features, to be cached: the
 * second time, warns once, for kernel-weight learning, that columns are recomputed for want of -m
 * (provider_storage.c). */
void km_provider_dots_computed(km_provider *p, size_t source, size_t i);
/* The cached column of source (n values), computed by the caller when *fresh is set (provider_storage.c). */
km_status km_provider_cached_column(km_provider *p, size_t source, size_t i, double **column, int *fresh);
/* Widths and normalization constants of every kernel, normalized diagonals (provider_fit.c). */
km_status km_provider_fit(km_provider *p);

/* provider_column.c: */
/* out[k] = <x_rows[k], x_i> on view v. */
km_status km_provider_fetch_dots(km_provider *p, km_provider_view *v, size_t i, const size_t *rows, size_t nrows,
                                 double *out);
/* out[k] = K_m(rows[k], i), normalized, of a precomputed kernel m: reads the provider only, so threads
 * may share it. */
void km_provider_matrix_column(const km_provider *p, size_t m, size_t i, const size_t *rows, size_t nrows,
                               double *out);
/* values[k] (raw k_m(x_rows[k], x_i)) -> normalized (normalization.h). */
void km_provider_normalize(const km_provider *p, size_t m, size_t i, const size_t *rows, size_t nrows,
                           double *values);
/* Normalized column of kernel m; dots: the view's dot products for these rows when already fetched. */
km_status km_provider_kernel_column(km_provider *p, size_t m, size_t i, const size_t *rows, size_t nrows,
                                    const double *dots, double *out);
/* KM_EINVAL unless i is a provider row. */
km_status km_provider_check_request(const km_provider *p, size_t i);

/* Orders each view's dot-product kernels (provider_block.c): the exp kernels of squared distances first,
 * by increasing gamma, and sets exp_squares where a kernel's values are the squares of the one before. */
void km_provider_plan_squares(km_provider *p);
/* Raw values exp(-gamma d) of exp kernel m from squared distances d (out may be d), computed as every
 * path of the provider computes them (exp_squares). */
void km_provider_exp_values(const km_provider *p, size_t m, const double *d, size_t n, double *out);

#endif
