/* The kernel provider (provider.h): construction, the feature views of the kernel set, release. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "data/dataset.h"
#include "kernel/kernel_context.h"
#include "kernel/normalization.h"
#include "kernel/provider_internal.h"
#include "kernel/rank1_block.h"

/* The shared source of a KM_INPUT_ROWS kernel: one per family and feature subset (or one per kernel,
 * kernel_family.h source_per_kernel). */
static km_status rows_source(km_provider *p, size_t m, void **source)
{
    const km_kernel *k = &p->fitted->kernels[m];
    const km_kernel_family *family = p->kernels[m].family;
    for (size_t s = 0; s < p->n_rows_sources; s++) {
        const km_provider_rows *r = &p->rows_sources[s];
        if (!family->source_per_kernel && r->family->source_new == family->source_new &&
            km_kernel_same_features(&p->fitted->kernels[r->lead], k)) {
            *source = r->source;
            return KM_OK;
        }
    }
    void *lead = NULL;   /* a per-kernel source may share the rows of the first on its features */
    for (size_t s = 0; family->source_share && !lead && s < p->n_rows_sources; s++)
        if (p->rows_sources[s].family == family && km_kernel_same_features(&p->fitted->kernels[p->rows_sources[s].lead], k))
            lead = p->rows_sources[s].source;
    km_provider_rows *r = &p->rows_sources[p->n_rows_sources];
    km_status st = lead ? family->source_share(k, lead, &r->source)
                        : family->source_new(k, p->data, p->rows, p->n, p->data->d, &r->source);
    if (st)
        return st;
    r->family = family;
    r->lead = m;
    p->n_rows_sources++;
    *source = r->source;
    return KM_OK;
}

/* Each view's dot-product kernels as one run of a single array of M indices (features=each makes M
 * views: an array of M per view would grow with M^2). */
static km_status group_dot_kernels(km_provider *p)
{
    size_t M = p->fitted->size, start = 0;
    if (!(p->dot_kernel_runs = malloc((M ? M : 1) * sizeof *p->dot_kernel_runs)))
        return km_error_nomem("feature views");
    for (size_t v = 0; v < p->n_views; v++) {
        p->views[v].dot_kernels = p->dot_kernel_runs + start;
        start += p->views[v].n_dot_kernels;
        p->views[v].n_dot_kernels = 0;
    }
    for (size_t m = 0; m < M; m++)
        if (p->kernels[m].view != KM_PROVIDER_NONE) {
            km_provider_view *view = &p->views[p->kernels[m].view];
            view->dot_kernels[view->n_dot_kernels++] = m;
        }
    return KM_OK;
}

/* Open addressing from feature subsets to views, so that M kernels find their views in O(M) (one view
 * per feature with features=each). */
typedef struct view_table {
    size_t *slots;   /* view index, SIZE_MAX when empty */
    size_t mask;
} view_table;

static km_status view_table_init(view_table *t, size_t M)
{
    size_t size = 2;
    while (size < 2 * M)
        size *= 2;
    if (!(t->slots = malloc(size * sizeof *t->slots)))
        return km_error_nomem("feature views");
    memset(t->slots, 0xff, size * sizeof *t->slots);
    t->mask = size - 1;
    return KM_OK;
}

/* The table entry of k's feature subset: a view index, or an empty slot to fill with a new one. */
static size_t *view_slot(const km_provider *p, const view_table *t, const km_kernel *k)
{
    size_t at = (size_t)km_kernel_features_hash(k) & t->mask;
    while (t->slots[at] != SIZE_MAX && !km_kernel_same_features(k, &p->fitted->kernels[p->views[t->slots[at]].lead]))
        at = (at + 1) & t->mask;
    return &t->slots[at];
}

/* One feature view per distinct feature subset of the dot-product kernels, one source per family and
 * subset of the KM_INPUT_ROWS kernels. */
/* Kernel m's family, and its rows source or its feature view (built when m is the first on its subset). */
static km_status assign_view(km_provider *p, const view_table *subsets, size_t m)
{
    const km_kernel *k = &p->fitted->kernels[m];
    km_provider_kernel *pk = &p->kernels[m];
    pk->view = KM_PROVIDER_NONE;
    pk->source = KM_PROVIDER_NONE;
    if (!(pk->family = km_family(k)))
        return km_kernel_error(k, "unknown kernel type %d", (int)k->type);
    if (p->data->text && pk->family->input != KM_INPUT_MATRIX && !pk->family->reads_strings)
        return km_kernel_error(k, "it reads numeric features, but the rows are sequences, which have none: use a "
                                  "string kernel (spectrum, wd, positional)");
    if (pk->family->input == KM_INPUT_ROWS)
        return rows_source(p, m, &pk->rows);
    if (pk->family->input != KM_INPUT_DOT)
        return KM_OK;
    size_t *slot = view_slot(p, subsets, k), v = *slot;
    km_provider_view *view = &p->views[v == SIZE_MAX ? p->n_views : v];
    if (v == SIZE_MAX) {
        *slot = v = p->n_views++;
        view->lead = m;
        view->source = KM_PROVIDER_NONE;
        km_status st = km_view_build(p->data, p->rows, p->n, k->features, k->n_features, p->data->d, &view->view);
        if (st)
            return st;
        if (view->view.sparse && !(view->work = calloc(km_view_width(&view->view) + 1, sizeof *view->work)))
            return km_error_nomem("a sparse-view workspace");
        view->direct = !view->view.sparse && view->view.dim <= KM_DIRECT_DOT_MAX_DIM;
    }
    pk->view = v;
    view->n_dot_kernels++;
    return KM_OK;
}

static km_status build_views(km_provider *p)
{
    size_t M = p->fitted->size;
    p->views = calloc(M, sizeof *p->views);
    p->rows_sources = calloc(M, sizeof *p->rows_sources);
    p->means = calloc(M, sizeof *p->means);
    if (!p->views || !p->rows_sources || !p->means)
        return km_error_nomem("feature views");
    view_table subsets = {NULL, 0};
    km_status st = view_table_init(&subsets, M);
    for (size_t m = 0; !st && m < M; m++)
        st = assign_view(p, &subsets, m);
    free(subsets.slots);
    return st ? st : group_dot_kernels(p);
}

/* What a low-rank kernel holds while fitted, in bytes: its rows' features (n x L values, float where
 * features_float), the landmark rows (L x features), the projection and the landmarks' kernel matrix it
 * comes from (2 L x L doubles), L = min(rank, n). */
static double low_rank_bytes(const km_kernel *k, size_t n, size_t dim_all, int features_float)
{
    double L = (double)(k->rank < n ? k->rank : n);
    double dim = (double)(k->features ? k->n_features : dim_all);
    return L * (double)n * (double)(features_float ? sizeof(float) : sizeof(double)) +
           L * (dim + 2.0 * L) * (double)sizeof(double);
}

static double set_low_rank_bytes(const km_kernel_set *set, size_t n, size_t dim_all, int features_float)
{
    double bytes = 0;
    for (size_t m = 0; m < set->size; m++)
        if (km_family(&set->kernels[m])->features)
            bytes += low_rank_bytes(&set->kernels[m], n, dim_all, features_float);
    return bytes;
}

double km_provider_low_rank_bytes(const km_kernel_set *set, size_t n, size_t dim_all)
{
    return set_low_rank_bytes(set, n, dim_all, 0);
}

static int reserve(km_cache *cache, double bytes)
{
    return bytes <= (double)(SIZE_MAX / 2) && km_cache_reserve(cache, (size_t)bytes);
}

/* The low-rank kernels' fitted values are held in the kernel cache's budget, before any Gram matrix
 * and before their features are computed: as double where they fit so, else (or as the cache's values
 * policy asks) with the features as float, half their n x r values (docs/large-scale.md, "Memory"); a
 * set that does not fit either way is refused, naming the -m that would hold it. */
static km_status reserve_features(km_provider *p)
{
    size_t count = 0;
    for (size_t m = 0; m < p->fitted->size; m++)
        count += km_family(&p->fitted->kernels[m])->features != NULL;
    if (!count)
        return KM_OK;
    km_cache_values policy = km_cache_values_of(p->cache);
    double bytes = set_low_rank_bytes(p->fitted, p->n, p->data->d, 0);
    int as_float = policy == KM_CACHE_FLOAT || (policy == KM_CACHE_AUTO && !reserve(p->cache, bytes));
    for (size_t m = 0; m < p->fitted->size; m++)
        p->fitted->kernels[m].features_float = as_float && km_family(&p->fitted->kernels[m])->features != NULL;
    if (as_float) {
        bytes = set_low_rank_bytes(p->fitted, p->n, p->data->d, 1);
        if (!reserve(p->cache, bytes))
            return km_error(KM_EINVAL, "the features of %zu low-rank kernel%s on %zu training rows take %.0f MiB as "
                            "float, more than the kernel cache holds (-m %.0f): -m %.0f would hold them, or lower the "
                            "rank", count, count > 1 ? "s" : "", p->n, bytes / 1048576.0,
                            (double)km_cache_budget(p->cache) / 1048576.0, ceil(bytes / 1048576.0) + 1);
        km_log(&p->logger, KM_LOG_INFO, "the low-rank kernels' features are held as float (%.0f MiB)",
               bytes / 1048576.0);
    } else if (policy == KM_CACHE_DOUBLE && !reserve(p->cache, bytes)) {
        return km_error(KM_EINVAL, "the features of %zu low-rank kernel%s on %zu training rows take %.0f MiB as "
                        "double values, which this run asks for, more than the kernel cache holds (-m %.0f): -m %.0f "
                        "would hold them (as float values, half of that), or lower the rank", count,
                        count > 1 ? "s" : "", p->n, bytes / 1048576.0, (double)km_cache_budget(p->cache) / 1048576.0,
                        ceil(bytes / 1048576.0) + 1);
    }
    p->features_reserved = (size_t)bytes;
    return KM_OK;
}

/* While the low-rank kernels' features are computed, the kernels on one feature subset share the rows'
 * dot products with their landmarks (n x L doubles a subset, L = min(rank, n) at most) where those fit
 * in what -m has left beside the features: reserved until the kernels are fitted, else each kernel
 * computes them block by block. */
static void reserve_shared_dots(km_provider *p)
{
    const km_kernel_set *set = p->fitted;
    double bytes = 0;
    for (size_t m = 0; m < set->size; m++) {
        const km_kernel *k = &set->kernels[m];
        int lead = km_family(k)->features != NULL;   /* the first low-rank kernel on its subset */
        for (size_t e = 0; lead && e < m; e++)
            lead = !(km_family(&set->kernels[e])->features && km_kernel_same_features(&set->kernels[e], k));
        double most = 0;   /* the subset's largest block */
        for (size_t e = m; lead && e < set->size; e++)
            if (km_family(&set->kernels[e])->features && km_kernel_same_features(&set->kernels[e], k))
                most = fmax(most, (double)p->n * (double)(set->kernels[e].rank < p->n ? set->kernels[e].rank : p->n));
        bytes += most * sizeof(double);
    }
    int share = bytes > 0 && reserve(p->cache, bytes);
    for (size_t m = 0; m < set->size; m++)
        set->kernels[m].share_dots = share;
    p->dots_reserved = share ? (size_t)bytes : 0;
}

static void release_shared_dots(km_provider *p)
{
    km_cache_unreserve(p->cache, p->dots_reserved);
    p->dots_reserved = 0;
}

/* A provider on cache (owned when cache_bytes is given instead: cache NULL), reading the Gram
 * matrices of context when given. */
static km_status provider_new(const km_dataset *data, const size_t *rows, size_t n, const km_kernel_set *set,
                              km_cache *cache, size_t cache_bytes, const km_kernel_context *context,
                              km_provider_use use, const km_logger *logger, km_provider **out)
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
    p->cache = cache;
    p->owns_cache = !cache;
    p->context = context;
    km_status st = cache ? KM_OK : km_cache_new(cache_bytes, &p->cache);
    if (!st)
        st = km_kernel_set_copy(set, &p->fitted);
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
    /* the shared dot products come after the Gram matrices of exact kernels (their storage) where there
     * are any; a set of low-rank kernels only has none, and a kernel fitted before (data-parallel
     * training) computes its features with its view */
    int low_rank_only = 1;
    for (size_t m = 0; m < set->size; m++)
        low_rank_only &= km_family(&set->kernels[m])->features != NULL;
    if (!st)
        st = reserve_features(p);
    if (!st && low_rank_only)
        reserve_shared_dots(p);
    if (!st)
        st = build_views(p);
    if (!st)
        st = km_provider_setup_storage(p, use);
    if (!st && !low_rank_only)
        reserve_shared_dots(p);
    if (!st)
        st = km_provider_fit(p);
    if (p->cache)
        release_shared_dots(p);
    if (!st)
        km_provider_plan_squares(p);
    if (!st)
        st = km_rank1_block_new(data, p->rows, n, p->fitted, &p->rank1);
    if (st) {
        km_provider_free(p);
        return st;
    }
    *out = p;
    return KM_OK;
}

km_status km_provider_new(const km_dataset *data, const size_t *rows, size_t n, const km_kernel_set *set,
                          size_t cache_bytes, const km_logger *logger, km_provider **out)
{
    return provider_new(data, rows, n, set, NULL, cache_bytes, NULL, KM_PROVIDER_PER_KERNEL, logger, out);
}

km_status km_provider_new_shared(const km_dataset *data, const size_t *rows, size_t n, const km_kernel_set *set,
                                 km_cache *cache, km_provider_use use, const km_logger *logger, km_provider **out)
{
    return provider_new(data, rows, n, set, cache, 0, NULL, use, logger, out);
}

km_status km_provider_new_in_context(km_kernel_context *context, const size_t *rows, size_t n, km_provider_use use,
                                     const km_logger *logger, km_provider **out)
{
    return provider_new(km_kernel_context_data(context), rows, n, km_kernel_context_set(context),
                        km_kernel_context_cache(context), 0, context, use, logger, out);
}

void km_provider_free(km_provider *p)
{
    if (!p)
        return;
    for (size_t v = 0; p->views && v < p->n_views; v++) {
        km_view_free(&p->views[v].view);
        free(p->views[v].own_gram);
        free(p->views[v].focus_gram);
        free(p->views[v].work);
        free(p->views[v].gathered_rows);
        free(p->views[v].gathered_X);
    }
    for (size_t m = 0; p->kernels && p->fitted && m < p->fitted->size; m++) {
        free(p->kernels[m].owned_K);
        free(p->kernels[m].factor);
        free(p->kernels[m].diag);
    }
    for (size_t s = 0; p->rows_sources && s < p->n_rows_sources; s++)
        p->rows_sources[s].family->source_free(p->rows_sources[s].source);
    free(p->rows_sources);
    free(p->dot_kernel_runs);
    free(p->means);
    km_rank1_block_free(p->rank1);
    km_cache_client_free(p->columns);
    if (p->cache)
        km_cache_unreserve(p->cache, p->gram_reserved + p->focus_reserved + p->features_reserved);
    if (p->owns_cache)
        km_cache_free(p->cache);
    km_kernel_set_free(p->fitted);
    free(p->views);
    free(p->kernels);
    free(p->rows);
    free(p->identity);
    free(p->focus_position);
    free(p->dots_computed);
    free(p->base);
    free(p->scratch);
    free(p->dist);
    free(p->together_work);
    free(p->together_kernels);
    free(p->together_members);
    free(p);
}

size_t km_provider_n_rows(const km_provider *p) { return p->n; }
size_t km_provider_n_kernels(const km_provider *p) { return p->fitted->size; }

int km_provider_costly_values(const km_provider *p)
{
    for (size_t m = 0; m < p->fitted->size; m++)
        if (p->kernels[m].family->input == KM_INPUT_ROWS && !p->kernels[m].family->features &&
            p->fitted->kernels[m].type != KM_KERNEL_RANK1)
            return 1;
    return 0;
}

int km_provider_columns_from_dots(const km_provider *p)
{
    size_t M = p->fitted->size;
    for (size_t m = 0; m < M; m++)
        if (!km_kernel_uses_dot(&p->fitted->kernels[m]))
            return 0;
    return M > 0 && 2 * p->n_views <= M;
}

/* Element size of kernel m's values when they can be read in place (provider.h), else 0. */
static size_t in_place_size(const km_provider *p, size_t m)
{
    const km_kernel *k = &p->fitted->kernels[m];
    const km_provider_kernel *pk = &p->kernels[m];
    if (pk->family->input != KM_INPUT_MATRIX || pk->map || k->center || pk->factor || km_norm_global(k) != 1.0)
        return 0;
    return pk->K32 ? sizeof(float) : pk->K ? sizeof(double) : 0;
}

size_t km_provider_in_place_size(const km_provider *p)
{
    size_t M = p->fitted->size, size = M ? in_place_size(p, 0) : 0;
    for (size_t m = 1; m < M && size; m++)
        if (in_place_size(p, m) != size)
            return 0;
    return size;
}

void km_provider_columns_in_place(const km_provider *p, size_t i, const void **values)
{
    for (size_t m = 0; m < p->fitted->size; m++) {
        const km_provider_kernel *pk = &p->kernels[m];
        values[m] = pk->K32 ? (const void *)(pk->K32 + i * pk->ld) : (const void *)(pk->K + i * pk->ld);
    }
}

const km_kernel_set *km_provider_fitted_set(const km_provider *p) { return p->fitted; }

void km_provider_feature_block(const km_provider *p, size_t m, km_feature_block *out)
{
    const km_provider_kernel *pk = &p->kernels[m];
    *out = (km_feature_block){0};
    if (!pk->family->features || p->fitted->kernels[m].center)
        return;
    pk->family->features(pk->rows, out);
    out->factor = pk->factor;
    out->root_scale = sqrt(pk->global);
}
const double *km_provider_diag(const km_provider *p, size_t m) { return m < p->fitted->size ? p->kernels[m].diag : NULL; }
