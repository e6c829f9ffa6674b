/* The provider's memory (provider_internal.h): full Gram matrices where they fit in the budget, the
 * column cache in the rest. */
#include <math.h>
#include <stdlib.h>

#include "core/error.h"
#include "kernel/kernel_context.h"
#include "kernel/provider_internal.h"

/* Kernel-weight learning reads every base kernel's column at every step: without the Gram matrices
 * they are recomputed from the features each time (at N = 10,000 with -m 100, most of the training
 * time). Says so once, with the -m that would hold them. */
static void warn_columns_only(const km_provider *p, size_t gram_views, size_t gram_bytes, size_t budget)
{
    double mib = 1048576.0, share = p->owns_cache ? 1 : 2;
    double needed = gram_bytes == SIZE_MAX ? INFINITY : share * (double)gram_views * (double)gram_bytes / mib;
    if (!isfinite(needed))
        return;
    km_log(&p->logger, KM_LOG_WARNING,
           "the %zu x %zu dot products of %zu feature view%s (%.0f MiB each) do not fit in the kernel cache "
           "(-m %.0f): kernel columns are recomputed whenever the solver needs them, which can make kernel-weight "
           "learning several times slower; -m %.0f would hold them",
           p->n, p->n, gram_views, gram_views == 1 ? "" : "s", (double)gram_bytes / mib, (double)budget / mib,
           ceil(needed) + 1);
}

/* The Gram matrices of the views whose n×n dot products fit in the cache (when the solver shares it,
 * in half of its budget: the other half stays for the solver's per-kernel columns); the dot-product
 * columns of the other views and the pairwise columns in the cache, held only while used when the
 * caller caches combined columns itself. */
km_status km_provider_setup_storage(km_provider *p, km_provider_use use)
{
    size_t n = p->n, sources = 0, budget = km_cache_budget(p->cache), gram_views = 0, columns_only = 0;
    size_t gram_limit = use == KM_PROVIDER_COMBINED ? 0 : p->owns_cache ? budget : budget / 2;
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
    if (columns_only && use != KM_PROVIDER_COMBINED)
        warn_columns_only(p, gram_views, gram_bytes, budget);
    for (size_t m = 0; m < p->fitted->size; m++) {
        if (p->kernels[m].family->input == KM_INPUT_ROWS)
            p->kernels[m].source = sources++;
    }
    if (!sources)
        return KM_OK;
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
