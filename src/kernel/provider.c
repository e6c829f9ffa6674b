/* The kernel provider (provider.h): fits the kernel set on the training rows and serves normalized
 * kernel columns. Dot-product kernels on one feature view share its dot products: a full BLAS Gram
 * matrix when it fits in the cache budget, otherwise dot-product columns computed on demand (dgemv)
 * and kept in an LRU cache (views of a few columns compute just the dot products asked for);
 * chi2/histint columns are computed pair by pair and cached the same way; precomputed kernels are
 * read from their matrices. */
#include "kernel/provider.h"

#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "kernel/dot_products.h"
#include "data/dataset.h"
#include "kernel/column_cache.h"
#include "kernel/feature_view.h"
#include "kernel/kernel_eval.h"
#include "kernel/normalization.h"
#include "kernel/vector_exp.h"

#define NONE ((size_t)-1)
/* Values (rows × n) per block of the fitting pass over the whole training matrix. */
#define KM_FIT_BLOCK_VALUES ((size_t)1 << 22)
/* Pairwise-kernel columns with at least this many feature operations are computed by several threads
 * (below it, starting threads costs more than it saves, and idle threads compete with BLAS). */
#define KM_PARALLEL_MIN_WORK ((size_t)1 << 20)
/* Blocks of combined columns with at least this many kernel values are computed by several threads
 * (about 10 ms of vectorised exp; below it, the threads' start and spin cost more than they save). */
#define KM_PARALLEL_MIN_VALUES ((size_t)1 << 23)
/* Dense views with at most this many columns compute dot products directly for the rows asked for,
 * without Gram matrix or cache. */
#define KM_DIRECT_DOT_MAX_DIM 8
/* Relative tolerance of the symmetry check of precomputed matrices. */
#define KM_SYMMETRY_TOLERANCE 1e-8
/* Relative slack of the positive-semidefiniteness test (float32 matrix files round at 6e-8). */
#define KM_PSD_TOLERANCE 1e-6

typedef struct provider_view {
    const uint32_t *features;    /* the subset (owned by the fitted set), NULL for all features */
    size_t n_features;
    km_view view;
    size_t *dot_kernels;         /* dot-product kernels on this view */
    size_t n_dot_kernels;
    double *gram;                /* full n×n dot products, or NULL */
    size_t source;               /* cache source of dot-product columns when there is no gram */
    double *work;                /* dim zeros for sparse views */
    int direct;                  /* few columns: dot products computed per request */
    double mean_sqdist, mean_chi2;   /* for relative widths; < 0 until computed */
} provider_view;

typedef struct provider_kernel {
    size_t view;                 /* NONE for precomputed kernels */
    size_t source;               /* cache source of chi2/histint columns */
    const double *K;             /* precomputed: K[map(i) * ld + map(j)] (double storage) */
    const float *K32;            /* or K32[map(i) * ld + map(j)] (float storage) */
    size_t ld;
    const size_t *map;           /* provider row -> matrix row, NULL: identity */
    double *owned_K;             /* training block of a kernel precomputed in the dataset rows */
    double *factor;              /* spherical factors, or NULL */
    double mu, global;
    double *diag;                /* normalized diagonal */
} provider_kernel;

struct km_provider {
    const km_dataset *data;
    size_t n;
    size_t *rows;                /* dataset row of every provider row */
    size_t *identity;            /* 0..n-1 */
    int identity_rows;           /* rows[k] = k: provider rows are the first dataset rows, in order */
    km_kernel_set *fitted;
    size_t n_views;
    provider_view *views;
    provider_kernel *kernels;
    km_column_cache cache;
    double *base;                /* scratch columns, n values each */
    double *scratch;
    double *dist;
    km_logger logger;
};

static int same_features(const km_kernel *k, const provider_view *v)
{
    if (!k->features || !v->features)
        return !k->features && !v->features;
    return k->n_features == v->n_features && memcmp(k->features, v->features, k->n_features * sizeof *k->features) == 0;
}

/* One view per distinct feature subset of the non-precomputed kernels. */
static km_status build_views(km_provider *p)
{
    size_t M = p->fitted->size;
    p->views = calloc(M, sizeof *p->views);
    if (!p->views)
        return km_error_nomem("feature views");
    for (size_t m = 0; m < M; m++) {
        const km_kernel *k = &p->fitted->kernels[m];
        provider_kernel *pk = &p->kernels[m];
        pk->view = NONE;
        pk->source = NONE;
        if (k->type == KM_KERNEL_PRECOMPUTED)
            continue;
        size_t v = 0;
        while (v < p->n_views && !same_features(k, &p->views[v]))
            v++;
        provider_view *view = &p->views[v];
        if (v == p->n_views) {
            p->n_views++;
            view->features = k->features;
            view->n_features = k->n_features;
            view->source = NONE;
            view->mean_sqdist = view->mean_chi2 = -1.0;
            km_status st = km_view_build(p->data, p->rows, p->n, k->features, k->n_features, p->data->d, &view->view);
            if (st)
                return st;
            if (view->view.sparse && !(view->work = calloc(view->view.dim, sizeof *view->work)))
                return km_error_nomem("a sparse-view workspace");
            view->direct = !view->view.sparse && view->view.dim <= KM_DIRECT_DOT_MAX_DIM;
        }
        pk->view = v;
        if (km_kernel_uses_dot(k->type)) {
            if (!view->dot_kernels && !(view->dot_kernels = malloc(M * sizeof *view->dot_kernels)))
                return km_error_nomem("feature views");
            view->dot_kernels[view->n_dot_kernels++] = m;
        } else if (km_view_min_value(&view->view) < 0) {
            return km_kernel_error(k, "features must be >= 0 (found %g)", km_view_min_value(&view->view));
        }
    }
    return KM_OK;
}

/* Mean chi^2 distance over the training pairs i < j (per-row partial sums keep it reproducible). */
static km_status mean_chi2_distance(const km_view *v, double *mean)
{
    size_t n = v->n;
    if (n < 2)
        return km_error(KM_EINVAL, "a mean chi2 distance needs at least 2 training rows (got %zu)", n);
    double *partial = malloc(n * sizeof *partial);
    if (!partial)
        return km_error_nomem("chi2 distances");
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 16)
#endif
    for (size_t i = 0; i < n; i++) {
        km_view_row a = km_view_get_row(v, i);
        double s = 0.0;
        for (size_t j = i + 1; j < n; j++)
            s += km_chi2_distance(a, km_view_get_row(v, j));
        partial[i] = s;
    }
    double total = 0.0;
    for (size_t i = 0; i < n; i++)
        total += partial[i];
    free(partial);
    *mean = total / ((double)n * (double)(n - 1) / 2.0);
    return KM_OK;
}

/* gamma of rbf/chi2 relative to the mean training distance, LIBSVM's 1/features for poly/sigmoid. */
static km_status resolve_gamma(km_provider *p, km_kernel *k, provider_view *view)
{
    if ((k->type == KM_KERNEL_POLY || k->type == KM_KERNEL_SIGMOID) && !(k->gamma > 0)) {
        if (view->view.dim == 0)
            return km_kernel_error(k, "no features for the default gamma");
        k->gamma = 1.0 / (double)view->view.dim;
    }
    if (k->gamma_mode == KM_GAMMA_RELATIVE && (k->type == KM_KERNEL_RBF || k->type == KM_KERNEL_CHI2)) {
        double *mean = k->type == KM_KERNEL_RBF ? &view->mean_sqdist : &view->mean_chi2;
        km_status st = KM_OK;
        if (*mean < 0)
            st = k->type == KM_KERNEL_RBF ? km_view_mean_sqdist(&view->view, mean) : mean_chi2_distance(&view->view, mean);
        if (st)
            return st;
        if (!isfinite(*mean))
            return km_kernel_error(k, "the mean distance between training rows overflows double precision (%g): "
                                   "scale the features", *mean);
        if (!(*mean > 0))
            return km_kernel_error(k, "the training rows are all equal, so the mean distance is 0");
        k->gamma /= *mean;
        km_log(&p->logger, KM_LOG_DEBUG, "kernel %zu: mean training distance %.6g, gamma %.6g",
               (size_t)(k - p->fitted->kernels) + 1, *mean, k->gamma);
    }
    k->gamma_mode = KM_GAMMA_ABSOLUTE;
    return KM_OK;
}

/* Stored value of a precomputed kernel at provider rows i, j. */
static inline double stored_value(const provider_kernel *pk, size_t i, size_t j)
{
    size_t at = (pk->map ? pk->map[i] : i) * pk->ld + (pk->map ? pk->map[j] : j);
    return pk->K ? pk->K[at] : (double)pk->K32[at];
}

/* Rows of the tiles in which the checks compare K[i][j] with K[j][i] (both tiles stay in the
 * processor cache). */
#define KM_CHECK_TILE 64

static void warn_not_psd(const km_provider *p, const km_kernel *k, const provider_kernel *pk, size_t i, size_t j,
                         const char *source)
{
    char name[256];
    size_t ri = pk->map ? pk->map[i] : i, rj = pk->map ? pk->map[j] : j;
    km_kernel_describe(k, name, sizeof name);
    km_log(&p->logger, KM_LOG_WARNING,
           "kernel %s: %s is not positive semidefinite (K[%zu][%zu] = %.6g, K[%zu][%zu] = %.6g, K[%zu][%zu] = %.6g); "
           "the solver may not reach the optimum",
           name, source, ri + 1, rj + 1, stored_value(pk, i, j), ri + 1, ri + 1, stored_value(pk, i, i), rj + 1,
           rj + 1, stored_value(pk, j, j));
}

/* The two tests of check_precomputed on a pair a = K[i][j], b = K[j][i] (written without branches,
 * for the float pass below): a and b differ by more than KM_SYMMETRY_TOLERANCE relative and more
 * than floor_slack (1e-14 of the largest diagonal entry); a^2 exceeds K[i][i] K[j][j]. */
static inline int asymmetric(double a, double b, double floor_slack)
{
    double scale = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
    return !((fabs(a - b) <= KM_SYMMETRY_TOLERANCE * scale) | (fabs(a - b) <= floor_slack));
}

static inline int beyond_cauchy_schwarz(double a, double dii, double djj)
{
    return a * a > dii * djj * (1 + KM_PSD_TOLERANCE) + 1e-300;
}

/* Whether every pair of a float matrix without row map passes both tests: a branch-free pass over
 * the tiles (the common case, and most of a thousand kernels' set-up time); check_precomputed then
 * only runs its reporting pass when something is to be reported. */
static int float_block_passes(const provider_kernel *pk, size_t n, const double *diag, double floor_slack)
{
    int bad = 0;
    for (size_t i = 0; i < n; i++)
        bad |= diag[i] < 0;
    for (size_t i0 = 0; i0 < n; i0 += KM_CHECK_TILE) {
        size_t i1 = i0 + KM_CHECK_TILE < n ? i0 + KM_CHECK_TILE : n;
        for (size_t j0 = 0; j0 <= i0; j0 += KM_CHECK_TILE) {
            for (size_t i = i0; i < i1; i++) {
                size_t j1 = j0 + KM_CHECK_TILE < i ? j0 + KM_CHECK_TILE : i;
                for (size_t j = j0; j < j1; j++) {
                    double a = pk->K32[i * pk->ld + j], b = pk->K32[j * pk->ld + i];
                    bad |= asymmetric(a, b, floor_slack) | beyond_cauchy_schwarz(a, diag[i], diag[j]);
                }
            }
        }
    }
    return !bad;
}

/* One pass over the training block of a precomputed kernel: it must be symmetric (to
 * KM_SYMMETRY_TOLERANCE relative), else an error; and a positive semidefinite matrix has K[i][i] >= 0
 * and K[i][j]^2 <= K[i][i] K[j][j] (Cauchy-Schwarz on every 2 x 2 principal minor). A matrix failing
 * this necessary test gives the solver negative curvature, so it may stop away from the optimum:
 * warn once, naming an offending entry. diag: n values of workspace. */
static km_status check_precomputed(const km_provider *p, const km_kernel *k, const provider_kernel *pk, size_t n,
                                   const char *source, double *diag)
{
    double largest = 0.0;
    int warned = 0;
    for (size_t i = 0; i < n; i++) {
        diag[i] = stored_value(pk, i, i);
        largest = fabs(diag[i]) > largest ? fabs(diag[i]) : largest;
    }
    double floor_slack = 1e-14 * largest;
    if (pk->K32 && !pk->map && float_block_passes(pk, n, diag, floor_slack))
        return KM_OK;
    for (size_t i = 0; i < n && !warned; i++) {
        if (diag[i] < 0) {
            warn_not_psd(p, k, pk, i, i, source);
            warned = 1;
        }
    }
    for (size_t i0 = 0; i0 < n; i0 += KM_CHECK_TILE) {
        size_t i1 = i0 + KM_CHECK_TILE < n ? i0 + KM_CHECK_TILE : n;
        for (size_t j0 = 0; j0 <= i0; j0 += KM_CHECK_TILE) {
            for (size_t i = i0; i < i1; i++) {
                size_t j1 = j0 + KM_CHECK_TILE < i ? j0 + KM_CHECK_TILE : i;
                for (size_t j = j0; j < j1; j++) {
                    double a, b;
                    if (pk->map) {
                        a = stored_value(pk, i, j);
                        b = stored_value(pk, j, i);
                    } else if (pk->K32) {   /* the common cases without indirection */
                        a = pk->K32[i * pk->ld + j];
                        b = pk->K32[j * pk->ld + i];
                    } else {
                        a = pk->K[i * pk->ld + j];
                        b = pk->K[j * pk->ld + i];
                    }
                    if (asymmetric(a, b, floor_slack)) {
                        size_t ri = pk->map ? pk->map[i] : i, rj = pk->map ? pk->map[j] : j;
                        return km_kernel_error(k, "%s is not symmetric: K[%zu][%zu] = %.17g but K[%zu][%zu] = %.17g",
                                               source, ri + 1, rj + 1, a, rj + 1, ri + 1, b);
                    }
                    if (!warned && beyond_cauchy_schwarz(a, diag[i], diag[j])) {
                        warn_not_psd(p, k, pk, i, j, source);
                        warned = 1;
                    }
                }
            }
        }
    }
    return KM_OK;
}

/* Precomputed kernels: a matrix over all dataset rows, or the training block of the dataset's own
 * kernel rows (K(i,j) = row i at column id_j - 1, LIBSVM's -t 4). */
static km_status setup_precomputed(km_provider *p, const km_kernel *k, provider_kernel *pk)
{
    const km_dataset *data = p->data;
    size_t n = p->n;
    if (k->matrix) {
        const char *name = k->file ? k->file : "the kernel matrix";
        if (k->matrix->rows != data->n || k->matrix->cols != data->n)
            return km_kernel_error(k, "%s is %zu x %zu but the data has %zu rows", name, k->matrix->rows,
                                k->matrix->cols, data->n);
        pk->K = k->matrix->data;
        pk->K32 = k->matrix->data32;
        pk->ld = data->n;
        pk->map = p->identity_rows ? NULL : p->rows;
        return check_precomputed(p, k, pk, n, name, p->scratch);
    }
    const char *name = data->source ? data->source : "the training data";
    if (!data->ids)
        return km_kernel_error(k, "%s has no precomputed-kernel rows (0:id); give file= or read the data as precomputed",
                            name);
    if (n > SIZE_MAX / n / sizeof(double) || !(pk->owned_K = malloc(n * n * sizeof *pk->owned_K)))
        return km_error_nomem("a precomputed training kernel");
    for (size_t j = 0; j < n; j++) {
        double id = data->ids[p->rows[j]];
        if (!(id >= 1 && id <= (double)data->d && id == floor(id)))
            return km_kernel_error(k, "%s: row %zu: id 0:%g is not one of the kernel columns 1..%zu", name,
                                p->rows[j] + 1, id, data->d);
        for (size_t i = 0; i < n; i++)
            pk->owned_K[i * n + j] = km_dataset_value(data, p->rows[i], (size_t)id - 1);
    }
    pk->K = pk->owned_K;
    pk->ld = n;
    pk->map = NULL;
    return check_precomputed(p, k, pk, n, name, p->scratch);
}

/* Full Gram matrices for the views whose n×n dot products fit in the budget; the rest of the budget
 * is the LRU cache for dot-product and pairwise columns. */
static km_status setup_storage(km_provider *p, size_t cache_bytes)
{
    size_t n = p->n, budget = cache_bytes, sources = 0;
    size_t gram_bytes = (n <= SIZE_MAX / n / sizeof(double)) ? n * n * sizeof(double) : SIZE_MAX;
    for (size_t v = 0; v < p->n_views; v++) {
        provider_view *view = &p->views[v];
        if (!view->n_dot_kernels || view->direct)
            continue;
        if (gram_bytes <= budget && (view->gram = malloc(gram_bytes))) {
            budget -= gram_bytes;
            km_status st = km_view_gram(&view->view, view->gram);
            if (st)
                return st;
            km_log(&p->logger, KM_LOG_DEBUG, "feature view %zu: full %zu x %zu Gram matrix", v + 1, n, n);
        } else {
            view->source = sources++;
        }
    }
    for (size_t m = 0; m < p->fitted->size; m++) {
        km_kernel_type type = p->fitted->kernels[m].type;
        if (type == KM_KERNEL_CHI2 || type == KM_KERNEL_HISTINT)
            p->kernels[m].source = sources++;
    }
    return km_column_cache_init(&p->cache, n, sources, budget);
}

/* Raw values of a pairwise kernel: out[k] = k(x_rows[k], x_i); chi2 as the distances, then one
 * vectorised exp pass. */
static void pair_values(const km_kernel *k, const km_view *v, size_t i, const size_t *rows, size_t nrows, double *out)
{
    km_view_row xi = km_view_get_row(v, i);
    int chi2 = k->type == KM_KERNEL_CHI2;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) if (nrows * (v->dim + 1) > KM_PARALLEL_MIN_WORK)
#endif
    for (size_t r = 0; r < nrows; r++) {
        km_view_row xr = km_view_get_row(v, rows ? rows[r] : r);
        out[r] = chi2 ? km_chi2_distance(xr, xi) : km_kernel_pair(k, xr, xi);
    }
    if (chi2)
        km_vexp(out, -k->gamma, nrows, out);
}

static void gather(const double *column, const size_t *rows, size_t nrows, double *out)
{
    for (size_t k = 0; k < nrows; k++)
        out[k] = column[rows[k]];
}

/* out[k] = <x_rows[k], x_i> on view v. */
static km_status fetch_dots(km_provider *p, provider_view *v, size_t i, const size_t *rows, size_t nrows, double *out)
{
    if (v->gram) {
        gather(v->gram + i * p->n, rows, nrows, out);
        return KM_OK;
    }
    if (v->direct) {
        km_view_dots_direct(&v->view, i, rows, nrows, out);
        return KM_OK;
    }
    /* always whole columns (one dgemv), so that values never depend on what the cache held */
    const double *cached = km_column_cache_get(&p->cache, v->source, i);
    if (!cached) {
        double *column = km_column_cache_insert(&p->cache, v->source, i);
        if (!column)
            return km_error_nomem("a kernel cache column");
        km_view_dot_column(&v->view, i, v->work, column);
        cached = column;
    }
    gather(cached, rows, nrows, out);
    return KM_OK;
}

/* Raw (unnormalized) values k_m(x_rows[k], x_i) of a pairwise or precomputed kernel. */
static km_status fetch_raw(km_provider *p, size_t m, size_t i, const size_t *rows, size_t nrows, double *out)
{
    const km_kernel *k = &p->fitted->kernels[m];
    provider_kernel *pk = &p->kernels[m];
    if (k->type == KM_KERNEL_PRECOMPUTED) {
        /* symmetric: column i is row i */
        size_t at = (pk->map ? pk->map[i] : i) * pk->ld;
        if (rows == p->identity && !pk->map && pk->K32) {   /* whole columns: contiguous */
            for (size_t r = 0; r < nrows; r++)
                out[r] = pk->K32[at + r];
        } else if (rows == p->identity && !pk->map) {
            memcpy(out, pk->K + at, nrows * sizeof *out);
        } else if (pk->K32 && pk->map) {
            for (size_t r = 0; r < nrows; r++)
                out[r] = pk->K32[at + pk->map[rows[r]]];
        } else if (pk->K32) {
            for (size_t r = 0; r < nrows; r++)
                out[r] = pk->K32[at + rows[r]];
        } else if (pk->map) {
            for (size_t r = 0; r < nrows; r++)
                out[r] = pk->K[at + pk->map[rows[r]]];
        } else {
            gather(pk->K + at, rows, nrows, out);
        }
        return KM_OK;
    }
    const km_view *view = &p->views[pk->view].view;
    const double *cached = km_column_cache_get(&p->cache, pk->source, i);
    if (!cached && 2 * nrows < p->n) {
        pair_values(k, view, i, rows, nrows, out);
        return KM_OK;
    }
    if (!cached) {
        double *column = km_column_cache_insert(&p->cache, pk->source, i);
        if (!column)
            return km_error_nomem("a kernel cache column");
        pair_values(k, view, i, NULL, p->n, column);
        cached = column;
    }
    gather(cached, rows, nrows, out);
    return KM_OK;
}

/* values[k] (raw k(x_rows[k], x_i)) -> normalized (normalization.h). */
static void normalize(const km_provider *p, size_t m, size_t i, const size_t *rows, size_t nrows, double *values)
{
    const km_kernel *k = &p->fitted->kernels[m];
    const provider_kernel *pk = &p->kernels[m];
    if (k->center) {
        const double *shift = k->col_mean;
        double offset = shift[i] - pk->mu;
        for (size_t r = 0; r < nrows; r++)
            values[r] -= shift[rows[r]] + offset;
    }
    if (pk->factor) {
        double fi = pk->factor[i] * pk->global;
        for (size_t r = 0; r < nrows; r++)
            values[r] *= pk->factor[rows[r]] * fi;
    } else if (pk->global != 1.0) {
        cblas_dscal((int)nrows, pk->global, values, 1);
    }
}

/* Normalized column of one kernel; dots: the view's dot products for these rows when already fetched. */
static km_status kernel_column(km_provider *p, size_t m, size_t i, const size_t *rows, size_t nrows,
                               const double *dots, double *out)
{
    const km_kernel *k = &p->fitted->kernels[m];
    km_status st = KM_OK;
    if (km_kernel_uses_dot(k->type)) {
        const provider_view *v = &p->views[p->kernels[m].view];
        if (!dots) {
            st = fetch_dots(p, &p->views[p->kernels[m].view], i, rows, nrows, out);
            dots = out;
        }
        if (!st)
            km_kernel_from_dots(k, dots, v->view.sqnorm, rows, v->view.sqnorm[i], nrows, out);
    } else {
        st = fetch_raw(p, m, i, rows, nrows, out);
    }
    if (!st)
        normalize(p, m, i, rows, nrows, out);
    return st;
}

static km_status check_request(const km_provider *p, size_t i)
{
    if (i >= p->n)
        return km_error(KM_EINVAL, "kernel column %zu requested from a provider of %zu rows", i, p->n);
    return KM_OK;
}

km_status km_provider_column(km_provider *p, size_t m, size_t i, const size_t *rows, size_t nrows, double *out)
{
    if (m >= p->fitted->size)
        return km_error(KM_EINVAL, "kernel %zu requested from a provider of %zu kernels", m + 1, p->fitted->size);
    if (!rows)
        rows = p->identity;
    km_status st = check_request(p, i);
    return st ? st : kernel_column(p, m, i, rows, nrows, NULL, out);
}

/* An RBF kernel normalized by at most a global factor: its values come straight from squared distances. */
static int plain_rbf(const km_kernel *k, const provider_kernel *pk)
{
    return k->type == KM_KERNEL_RBF && !k->center && !pk->factor;
}

/* out[k] += sum_m weights[m] K_m(rows[k], i) over the dot-product kernels of view v, from the view's dot
 * products dots[k] = <x_rows[k], x_i>; dist and scratch hold nrows values. The squared distances are
 * computed once for all RBF widths, each width is one vectorised exp pass. Reads the provider only, so
 * several threads may call it with their own buffers. */
static void add_dot_kernels(const km_provider *p, const provider_view *v, const double *weights, size_t i,
                            const size_t *rows, size_t nrows, const double *dots, double *dist, double *scratch,
                            double *out)
{
    int have_dist = 0;
    for (size_t t = 0; t < v->n_dot_kernels; t++) {
        size_t m = v->dot_kernels[t];
        const km_kernel *k = &p->fitted->kernels[m];
        const provider_kernel *pk = &p->kernels[m];
        if (weights[m] == 0.0)
            continue;
        if (plain_rbf(k, pk)) {
            if (!have_dist)
                km_squared_distances(dots, v->view.sqnorm, rows, v->view.sqnorm[i], nrows, dist);
            have_dist = 1;
            km_vexp_add(dist, -k->gamma, weights[m] * pk->global, nrows, out);
        } else {
            km_kernel_from_dots(k, dots, v->view.sqnorm, rows, v->view.sqnorm[i], nrows, scratch);
            normalize(p, m, i, rows, nrows, scratch);
            cblas_daxpy((int)nrows, weights[m], scratch, 1, out, 1);
        }
    }
}

static int view_used(const provider_view *v, const double *weights)
{
    for (size_t t = 0; t < v->n_dot_kernels; t++)
        if (weights[v->dot_kernels[t]] != 0.0)
            return 1;
    return 0;
}

/* dots[t*nrows + k] = <x_rows[k], x_cols[t]> on a dense view: the rows gathered, one matrix product. */
static km_status gathered_dots(const km_view *v, const size_t *cols, size_t ncols, const size_t *rows, size_t nrows,
                               double *dots)
{
    size_t dim = v->dim;
    if (dim == 0) {
        memset(dots, 0, ncols * nrows * sizeof *dots);
        return KM_OK;
    }
    double *a = malloc(ncols * dim * sizeof *a), *b = malloc(nrows * dim * sizeof *b);
    if (!a || !b) {
        free(a);
        free(b);
        return km_error_nomem("a block of dot products");
    }
    for (size_t t = 0; t < ncols; t++)
        memcpy(a + t * dim, v->X + cols[t] * dim, dim * sizeof *a);
    for (size_t k = 0; k < nrows; k++)
        memcpy(b + k * dim, v->X + rows[k] * dim, dim * sizeof *b);
    km_dots_block(a, ncols, b, nrows, dim, dots);
    free(a);
    free(b);
    return KM_OK;
}

/* dots[t*nrows + k] = <x_rows[k], x_cols[t]> on view v: for several columns one matrix product (on
 * the view itself when the columns are consecutive and every row is asked for, else on the gathered
 * rows of a dense view), otherwise column by column. */
static km_status block_dots(km_provider *p, provider_view *v, const size_t *cols, size_t ncols, const size_t *rows,
                            size_t nrows, double *dots)
{
    int product = ncols > 1 && !v->gram && !v->direct;
    int consecutive = product && rows == p->identity && nrows == p->n;
    for (size_t t = 1; consecutive && t < ncols; t++)
        consecutive = cols[t] == cols[0] + t;
    if (consecutive)
        return km_view_dots(&v->view, cols[0], ncols, &v->view, dots);
    if (product && !v->view.sparse)
        return gathered_dots(&v->view, cols, ncols, rows, nrows, dots);
    km_status st = KM_OK;
    for (size_t t = 0; !st && t < ncols; t++)
        st = fetch_dots(p, v, cols[t], rows, nrows, dots + t * nrows);
    return st;
}

/* The dot-product kernels' part of combined columns, the columns shared out among threads. */
static km_status add_dot_kernel_block(km_provider *p, const double *weights, const size_t *cols, size_t ncols,
                                      const size_t *rows, size_t nrows, double *dots, double *out)
{
    for (size_t v = 0; v < p->n_views; v++) {
        provider_view *view = &p->views[v];
        if (!view_used(view, weights))
            continue;
        km_status st = block_dots(p, view, cols, ncols, rows, nrows, dots);
        if (st)
            return st;
        if (ncols == 1) {
            add_dot_kernels(p, view, weights, cols[0], rows, nrows, dots, p->dist, p->scratch, out);
            continue;
        }
        int failed = 0;
#ifdef _OPENMP
#pragma omp parallel if (ncols * nrows * view->n_dot_kernels > KM_PARALLEL_MIN_VALUES) reduction(+ : failed)
#endif
        {
            double *dist = malloc(2 * nrows * sizeof *dist);   /* squared distances, then scratch */
            failed += !dist;
#ifdef _OPENMP
#pragma omp for schedule(static)
#endif
            for (size_t t = 0; t < ncols; t++)
                if (dist)
                    add_dot_kernels(p, view, weights, cols[t], rows, nrows, dots + t * nrows, dist, dist + nrows,
                                    out + t * nrows);
            free(dist);
        }
        if (failed)
            return km_error_nomem("kernel column buffers");
    }
    return KM_OK;
}

km_status km_provider_combined_columns(km_provider *p, const double *weights, const size_t *cols, size_t ncols,
                                       const size_t *rows, size_t nrows, double *out)
{
    if (!rows)
        rows = p->identity;
    km_status st = KM_OK;
    for (size_t t = 0; !st && t < ncols; t++)
        st = check_request(p, cols[t]);
    if (st || ncols == 0)
        return st;
    memset(out, 0, ncols * nrows * sizeof *out);
    double *dots = ncols == 1 ? p->base : malloc(ncols * nrows * sizeof *dots);
    if (!dots)
        return km_error_nomem("a block of dot products");
    st = add_dot_kernel_block(p, weights, cols, ncols, rows, nrows, dots, out);
    if (dots != p->base)
        free(dots);
    for (size_t m = 0; !st && m < p->fitted->size; m++) {
        if (weights[m] == 0.0 || km_kernel_uses_dot(p->fitted->kernels[m].type))
            continue;
        for (size_t t = 0; !st && t < ncols; t++) {
            st = kernel_column(p, m, cols[t], rows, nrows, NULL, p->scratch);
            if (!st)
                cblas_daxpy((int)nrows, weights[m], p->scratch, 1, out + t * nrows, 1);
        }
    }
    return st;
}

km_status km_provider_combined_column(km_provider *p, const double *weights, size_t i, const size_t *rows,
                                      size_t nrows, double *out)
{
    return km_provider_combined_columns(p, weights, &i, 1, rows, nrows, out);
}

/* Row sums of a linear kernel: sum_j <x_i, x_j> = <x_i, sum_j x_j>. */
static km_status linear_row_sums(const km_view *view, double *sums)
{
    double *column_sum;
    km_status st = km_view_column_sums(view, &column_sum);
    if (st)
        return st;
    km_view_dot_vector(view, column_sum, sums);
    free(column_sum);
    return KM_OK;
}

/* Raw diagonal and, when the normalization needs them, raw row sums of every kernel. */
static km_status raw_statistics(km_provider *p, double *const *diag, double *const *sums)
{
    size_t n = p->n, M = p->fitted->size;
    for (size_t m = 0; m < M; m++) {
        const km_kernel *k = &p->fitted->kernels[m];
        provider_kernel *pk = &p->kernels[m];
        if (k->type == KM_KERNEL_PRECOMPUTED) {
            for (size_t i = 0; i < n; i++) {
                diag[m][i] = stored_value(pk, i, i);
                if (sums[m]) {
                    double s = 0.0;
                    for (size_t j = 0; j < n; j++)
                        s += stored_value(pk, i, j);
                    sums[m][i] = s;
                }
            }
            continue;
        }
        const km_view *v = &p->views[pk->view].view;
        for (size_t i = 0; i < n; i++) {
            km_view_row x = km_view_get_row(v, i);
            diag[m][i] = km_kernel_uses_dot(k->type) ? km_kernel_from_dot(k, v->sqnorm[i], v->sqnorm[i], v->sqnorm[i])
                                                     : km_kernel_pair(k, x, x);
        }
        if (sums[m] && !km_kernel_uses_dot(k->type)) {
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 16)
#endif
            for (size_t i = 0; i < n; i++) {
                km_view_row x = km_view_get_row(v, i);
                double s = 0.0;
                for (size_t j = 0; j < n; j++)
                    s += km_kernel_pair(k, km_view_get_row(v, j), x);
                sums[m][i] = s;
            }
        }
    }
    /* dot-product kernels: one pass over the dot products of each view, in blocks of rows */
    size_t block = KM_FIT_BLOCK_VALUES / n ? KM_FIT_BLOCK_VALUES / n : 1;
    double *dots = NULL, *values = NULL;
    km_status st = KM_OK;
    for (size_t v = 0; !st && v < p->n_views; v++) {
        const provider_view *view = &p->views[v];
        int needed = 0;
        for (size_t t = 0; !st && t < view->n_dot_kernels; t++) {
            size_t m = view->dot_kernels[t];
            if (sums[m] && p->fitted->kernels[m].type == KM_KERNEL_LINEAR)
                st = linear_row_sums(&view->view, sums[m]);
            else
                needed |= sums[m] != NULL;
        }
        if (st || !needed)
            continue;
        if (!values && !(values = malloc(block * n * sizeof *values))) {
            st = km_error_nomem("the normalization pass");
            break;
        }
        if (!view->gram && !dots && !(dots = malloc(block * n * sizeof *dots))) {
            st = km_error_nomem("the normalization pass");
            break;
        }
        for (size_t r0 = 0; !st && r0 < n; r0 += block) {
            size_t len = n - r0 < block ? n - r0 : block;
            const double *d = view->gram ? view->gram + r0 * n : dots;
            if (!view->gram)
                st = km_view_dots(&view->view, r0, len, &view->view, dots);
            for (size_t t = 0; !st && t < view->n_dot_kernels; t++) {
                size_t m = view->dot_kernels[t];
                const km_kernel *k = &p->fitted->kernels[m];
                if (!sums[m] || k->type == KM_KERNEL_LINEAR)   /* linear: done above */
                    continue;
#ifdef _OPENMP
#pragma omp parallel for schedule(static)
#endif
                for (size_t r = 0; r < len; r++) {
                    double *row = values + r * n;
                    km_kernel_from_dots(k, d + r * n, view->view.sqnorm, NULL, view->view.sqnorm[r0 + r], n, row);
                    double s = 0.0;
                    for (size_t j = 0; j < n; j++)
                        s += row[j];
                    sums[m][r0 + r] = s;
                }
            }
        }
    }
    free(dots);
    free(values);
    return st;
}

/* Fits gamma and normalization of every kernel and prepares its normalized diagonal. */
static km_status fit_kernels(km_provider *p)
{
    size_t n = p->n, M = p->fitted->size;
    km_status st = KM_OK;
    for (size_t m = 0; !st && m < M; m++) {
        km_kernel *k = &p->fitted->kernels[m];
        if (k->type == KM_KERNEL_PRECOMPUTED)
            st = setup_precomputed(p, k, &p->kernels[m]);
        else
            st = resolve_gamma(p, k, &p->views[p->kernels[m].view]);
    }
    double **diag = calloc(M, sizeof *diag), **sums = calloc(M, sizeof *sums);
    if (!st && (!diag || !sums))
        st = km_error_nomem("normalization statistics");
    for (size_t m = 0; !st && m < M; m++) {
        if (!(diag[m] = malloc(n * sizeof **diag)) ||
            (km_norm_needs_row_sums(&p->fitted->kernels[m]) && !(sums[m] = malloc(n * sizeof **sums))))
            st = km_error_nomem("normalization statistics");
    }
    if (!st)
        st = raw_statistics(p, diag, sums);
    for (size_t m = 0; !st && m < M; m++) {
        km_kernel *k = &p->fitted->kernels[m];
        provider_kernel *pk = &p->kernels[m];
        st = km_norm_fit(k, diag[m], sums[m], n);
        if (!st && k->norm == KM_NORM_SPHERICAL) {
            if (!(pk->factor = malloc(n * sizeof *pk->factor)))
                st = km_error_nomem("spherical normalization");
            else
                st = km_norm_factors(k, diag[m], k->col_mean, n, pk->factor);
        }
        if (st)
            break;
        pk->mu = km_norm_mu(k);
        pk->global = km_norm_global(k);
        /* normalized diagonal: (k_ii - 2 m_i + mu) f_i^2 g */
        pk->diag = diag[m];
        diag[m] = NULL;
        for (size_t i = 0; i < n; i++) {
            double v = pk->diag[i] - (k->center ? 2.0 * k->col_mean[i] - pk->mu : 0.0);
            double f = pk->factor ? pk->factor[i] : 1.0;
            pk->diag[i] = v * f * f * pk->global;
        }
    }
    for (size_t m = 0; m < M && diag && sums; m++) {
        free(diag[m]);
        free(sums[m]);
    }
    free(diag);
    free(sums);
    return st;
}

km_status km_provider_new(const km_dataset *data, const size_t *rows, size_t n, const km_kernel_set *set,
                          size_t cache_bytes, const km_logger *logger, km_provider **out)
{
    *out = NULL;
    if (!rows)
        n = data->n;
    if (n == 0)
        return km_error(KM_EINVAL, "a kernel provider needs at least one training row");
    if (!set || set->size == 0)
        return km_error(KM_EINVAL, "a kernel provider needs at least one kernel");
    for (size_t k = 0; rows && k < n; k++)
        if (rows[k] >= data->n)
            return km_error(KM_EINVAL, "training row %zu is out of range (%zu rows)", rows[k] + 1, data->n);
    km_provider *p = calloc(1, sizeof *p);
    if (!p)
        return km_error_nomem("a kernel provider");
    p->data = data;
    p->n = n;
    if (logger)
        p->logger = *logger;
    km_status st = km_kernel_set_copy(set, &p->fitted);
    if (!st) {
        p->rows = malloc(n * sizeof *p->rows);
        p->identity = malloc(n * sizeof *p->identity);
        p->base = malloc(n * sizeof *p->base);
        p->scratch = malloc(n * sizeof *p->scratch);
        p->dist = malloc(n * sizeof *p->dist);
        p->kernels = calloc(set->size, sizeof *p->kernels);
        if (!p->rows || !p->identity || !p->base || !p->scratch || !p->dist || !p->kernels)
            st = km_error_nomem("a kernel provider");
    }
    p->identity_rows = 1;
    for (size_t k = 0; !st && k < n; k++) {
        p->rows[k] = rows ? rows[k] : k;
        p->identity[k] = k;
        p->identity_rows &= p->rows[k] == k;
    }
    if (!st)
        st = build_views(p);
    if (!st)
        st = setup_storage(p, cache_bytes);
    if (!st)
        st = fit_kernels(p);
    if (st) {
        km_provider_free(p);
        return st;
    }
    *out = p;
    return KM_OK;
}

void km_provider_free(km_provider *p)
{
    if (!p)
        return;
    for (size_t v = 0; p->views && v < p->n_views; v++) {
        km_view_free(&p->views[v].view);
        free(p->views[v].dot_kernels);
        free(p->views[v].gram);
        free(p->views[v].work);
    }
    for (size_t m = 0; p->kernels && p->fitted && m < p->fitted->size; m++) {
        free(p->kernels[m].owned_K);
        free(p->kernels[m].factor);
        free(p->kernels[m].diag);
    }
    km_column_cache_free(&p->cache);
    km_kernel_set_free(p->fitted);
    free(p->views);
    free(p->kernels);
    free(p->rows);
    free(p->identity);
    free(p->base);
    free(p->scratch);
    free(p->dist);
    free(p);
}

size_t km_provider_n_rows(const km_provider *p) { return p->n; }
size_t km_provider_n_kernels(const km_provider *p) { return p->fitted->size; }
const km_kernel_set *km_provider_fitted_set(const km_provider *p) { return p->fitted; }
const double *km_provider_diag(const km_provider *p, size_t m) { return m < p->fitted->size ? p->kernels[m].diag : NULL; }
