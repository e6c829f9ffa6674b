/* The provider's memory (provider_internal.h): full Gram matrices where they fit in the budget, the
 * column cache in the rest. */
#include <math.h>
#include <stdlib.h>

#include "core/error.h"
#include "kernel/kernel_context.h"
#include "kernel/provider_internal.h"

/* Kernel-weight learning reads every base kernel's column at every step: without the Gram matrices
 * they are recomputed from the features each time (at N = 10,000 with -m 100, most of the training
 * time). Says so once, with the -m that would hold them, when a column is computed a second time (the
 * machines of a multiclass split may each find the Gram of their own rows, km_provider_focus). */
void km_provider_dots_computed(km_provider *p, size_t source, size_t i)
{
    if (!p->gram_views_missing)
        return;
    unsigned char *seen = &p->dots_computed[source * p->n + i];
    if (!*seen) {
        *seen = 1;
        return;
    }
    size_t n = p->n, gram_views = p->gram_views_missing, budget = km_cache_budget(p->cache);
    p->gram_views_missing = 0;
    double mib = 1048576.0, share = p->owns_cache ? 1 : 2;
    double gram_bytes = (double)n * (double)n * sizeof(double), needed = share * (double)gram_views * gram_bytes / mib;
    km_log(&p->logger, KM_LOG_WARNING,
           "the %zu x %zu dot products of %zu feature view%s (%.0f MiB each) do not fit in the kernel cache "
           "(-m %.0f): kernel columns are recomputed whenever the solver needs them, which can make kernel-weight "
           "learning several times slower; -m %.0f would hold them",
           n, n, gram_views, gram_views == 1 ? "" : "s", gram_bytes / mib, (double)budget / mib, ceil(needed) + 1);
}

/* The first kernel before m that caches its distance columns in the same source as m: another width of
 * the same distance on the same rows source (kernel_family.h distance_column); NULL: none. */
static const km_provider_kernel *distance_sharer(const km_provider *p, size_t m)
{
    const km_provider_kernel *pk = &p->kernels[m];
    for (size_t earlier = 0; pk->family->distance_column && earlier < m; earlier++)
        if (p->kernels[earlier].rows == pk->rows && p->kernels[earlier].family == pk->family)
            return &p->kernels[earlier];
    return NULL;
}

/* Columns of kernels the family computes in one pass (kernel_family.h columns) are computed together
 * at most this many bytes at a time. */
#define KM_TOGETHER_BYTES ((size_t)8 << 20)

/* The first kernel before m that the family computes in one pass with m, or m. */
static size_t together_lead(const km_provider *p, size_t m)
{
    const km_provider_kernel *pk = &p->kernels[m];
    for (size_t earlier = 0; earlier < m; earlier++)
        if (p->kernels[earlier].together == earlier && p->kernels[earlier].rows == pk->rows &&
            p->kernels[earlier].family == pk->family &&
            pk->family->together(&p->fitted->kernels[earlier], &p->fitted->kernels[m]))
            return earlier;
    return m;
}

/* Each kernel's together (provider_internal.h) and the work buffers of the largest set computed in one
 * pass, at most KM_TOGETHER_BYTES of columns. */
static km_status setup_together(km_provider *p)
{
    size_t M = p->fitted->size, most = 1;
    for (size_t m = 0; m < M; m++) {   /* only the families with columns take the loops below */
        const km_kernel_family *family = p->kernels[m].family;
        int computed_together = family->input == KM_INPUT_ROWS && family->columns;
        p->kernels[m].together = computed_together ? together_lead(p, m) : KM_PROVIDER_NONE;
    }
    for (size_t m = 0; m < M; m++) {   /* each set's size, counted at its lead */
        size_t members = 0;
        for (size_t o = m; p->kernels[m].together == m && o < M; o++)
            members += p->kernels[o].together == m;
        most = members > most ? members : most;
    }
    for (size_t m = M; m-- > 0;) {   /* a kernel computed alone: none (leads last, their partners first) */
        size_t lead = p->kernels[m].together, partners = 0;
        for (size_t o = lead; lead != KM_PROVIDER_NONE && o < M; o++)
            partners += o != m && p->kernels[o].together == lead;
        if (lead != KM_PROVIDER_NONE && !partners)
            p->kernels[m].together = KM_PROVIDER_NONE;
    }
    size_t fit = KM_TOGETHER_BYTES / (p->n ? p->n : 1) / sizeof(double);
    p->together_most = most < fit ? most : fit > 1 ? fit : 1;
    if (p->together_most < 2)
        return KM_OK;
    p->together_work = malloc(p->together_most * p->n * sizeof *p->together_work);
    p->together_kernels = malloc(p->together_most * sizeof *p->together_kernels);
    p->together_members = malloc(p->together_most * sizeof *p->together_members);
    return p->together_work && p->together_kernels && p->together_members
               ? KM_OK
               : km_error_nomem("the kernel columns computed together");
}

/* The Gram matrices of the views whose n×n dot products fit in the cache (when the solver shares it,
 * in half of its budget: the other half stays for the solver's per-kernel columns); the dot-product
 * columns of the other views and the pairwise columns (or distance columns, one for all widths) in the
 * cache, held only while used when the
 * caller caches combined columns itself. */
km_status km_provider_setup_storage(km_provider *p, km_provider_use use)
{
    size_t n = p->n, sources = 0, budget = km_cache_budget(p->cache), gram_views = 0, columns_only = 0;
    size_t gram_limit = use == KM_PROVIDER_COMBINED ? 0 : p->owns_cache ? budget : budget / 2;
    p->gram_limit = gram_limit;
    size_t gram_bytes = (n <= SIZE_MAX / n / sizeof(double)) ? n * n * sizeof(double) : SIZE_MAX;
    for (size_t v = 0; v < p->n_views; v++) {
        km_provider_view *view = &p->views[v];
        if (!view->n_dot_kernels || view->direct)
            continue;
        const double *shared = p->context ? km_kernel_context_gram(p->context, &p->fitted->kernels[view->lead]) : NULL;
        if (shared) {   /* the context's dot products over all dataset rows */
            view->gram = shared;
            view->gram_ld = p->data->n;
            view->gram_rows = p->identity_rows ? NULL : p->rows;
            continue;
        }
        gram_views++;
        if (gram_bytes <= gram_limit - p->gram_reserved && km_cache_reserve(p->cache, gram_bytes)) {
            if (!(view->own_gram = malloc(gram_bytes))) {
                km_cache_unreserve(p->cache, gram_bytes);
                view->source = sources++;
                continue;
            }
            p->gram_reserved += gram_bytes;
            view->gram = view->own_gram;
            view->gram_ld = n;
            km_status st = km_view_gram(&view->view, view->own_gram);
            if (st)
                return st;
            km_log(&p->logger, KM_LOG_DEBUG, "feature view %zu: full %zu x %zu Gram matrix", v + 1, n, n);
        } else {
            view->source = sources++;
            columns_only++;
        }
    }
    if (columns_only && use != KM_PROVIDER_COMBINED) {
        p->gram_views_missing = gram_views;
        if (!(p->dots_computed = calloc(sources * n, 1)))
            return km_error_nomem("the dot-product column index");
    }
    for (size_t m = 0; m < p->fitted->size; m++) {
        if (p->kernels[m].family->input != KM_INPUT_ROWS)
            continue;
        const km_provider_kernel *sharer = distance_sharer(p, m);
        p->kernels[m].source = sharer ? sharer->source : sources++;
    }
    km_status st = setup_together(p);
    if (st || !sources)
        return st;
    size_t limit = use == KM_PROVIDER_COMBINED ? 0 : SIZE_MAX;
    return km_cache_client_new(p->cache, n * sources, sizeof(double), n, limit, &p->columns);
}

km_status km_provider_cached_column(km_provider *p, size_t source, size_t i, double **column, int *fresh)
{
    void *data;
    size_t valid;
    km_status st = km_cache_get(p->columns, source * p->n + i, p->n, &data, &valid);
    if (st)
        return st;
    *column = data;
    *fresh = valid < p->n;
    return KM_OK;
}

/* The views that compute dot-product columns from dense features: a Gram matrix of the focus rows
 * each, n×n values where N×N did not fit, within what the Gram matrices may take of the budget (the
 * rows gathered for the product counted while it runs). */
void km_provider_focus(km_provider *p, const size_t *rows, size_t n)
{
    km_provider_unfocus(p);
    if (!rows || n == 0 || n >= p->n || n > SIZE_MAX / n / sizeof(double))
        return;
    size_t gram_bytes = n * n * sizeof(double);
    for (size_t v = 0; v < p->n_views; v++) {
        km_provider_view *view = &p->views[v];
        if (!view->n_dot_kernels || view->direct || view->gram || view->view.sparse || view->view.dim == 0 ||
            n > SIZE_MAX / view->view.dim / sizeof(double))
            continue;
        size_t work_bytes = n * view->view.dim * sizeof(double), reserved = p->gram_reserved + p->focus_reserved;
        if (p->gram_limit < reserved || gram_bytes > SIZE_MAX - work_bytes ||
            gram_bytes + work_bytes > p->gram_limit - reserved || !km_cache_reserve(p->cache, gram_bytes + work_bytes))
            continue;
        double *work = malloc(work_bytes);
        if (!p->focus_position)
            p->focus_position = malloc(p->n * sizeof *p->focus_position);
        if (work && p->focus_position && (view->focus_gram = malloc(gram_bytes))) {
            km_view_gram_of_rows(&view->view, rows, n, work, view->focus_gram);
            p->focus_reserved += gram_bytes;
            view->gram = view->focus_gram;
            view->gram_ld = n;
            view->gram_rows = p->focus_position;
        }
        free(work);
        km_cache_unreserve(p->cache, view->focus_gram ? work_bytes : gram_bytes + work_bytes);
    }
    if (p->focus_reserved) {
        for (size_t k = 0; k < n; k++)
            p->focus_position[rows[k]] = k;
        km_log(&p->logger, KM_LOG_DEBUG, "dot products of the %zu focus rows from their %zu x %zu Gram matrix", n, n, n);
    }
}

void km_provider_unfocus(km_provider *p)
{
    for (size_t v = 0; v < p->n_views; v++) {
        km_provider_view *view = &p->views[v];
        if (!view->focus_gram)
            continue;
        free(view->focus_gram);
        view->focus_gram = NULL;
        view->gram = NULL;
        view->gram_rows = NULL;
    }
    km_cache_unreserve(p->cache, p->focus_reserved);
    p->focus_reserved = 0;
}
