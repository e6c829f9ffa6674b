/* The provider's memory (provider_internal.h): full Gram matrices where they fit in the budget, the
 * column cache in the rest. */
#include <stdlib.h>

#include "core/error.h"
#include "kernel/provider_internal.h"

/* Full Gram matrices for the views whose n×n dot products fit in the budget; the rest of the budget
 * is the LRU cache for dot-product and pairwise columns. */
km_status km_provider_setup_storage(km_provider *p, size_t cache_bytes)
{
    size_t n = p->n, budget = cache_bytes, sources = 0;
    size_t gram_bytes = (n <= SIZE_MAX / n / sizeof(double)) ? n * n * sizeof(double) : SIZE_MAX;
    for (size_t v = 0; v < p->n_views; v++) {
        km_provider_view *view = &p->views[v];
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
