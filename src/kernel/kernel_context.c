/* Kernel contexts (kernel_context.h): one Gram matrix per feature subset of the dot-product kernels. */
#include "kernel/kernel_context.h"

#include <stdint.h>
#include <stdlib.h>

#include "core/error.h"
#include "data/dataset.h"
#include "kernel/feature_view.h"
#include "kernel/provider_internal.h"

typedef struct context_gram {
    const km_kernel *lead;       /* first kernel of the set on this feature subset */
    double *gram;                /* N×N, or NULL */
} context_gram;

struct km_kernel_context {
    const km_dataset *data;
    const km_kernel_set *set;
    km_cache *cache;
    size_t reserved;             /* bytes of the Gram matrices */
    size_t n_grams;
    context_gram *grams;
    int owns_grams;              /* 0: a worker's, borrowed from its parent */
};

static const context_gram *find_gram(const km_kernel_context *c, const km_kernel *k)
{
    for (size_t g = 0; g < c->n_grams; g++)
        if (km_kernel_same_features(c->grams[g].lead, k))
            return &c->grams[g];
    return NULL;
}

/* The Gram matrix of the feature subset of kernel k over all rows, when it pays (not for views of a
 * few dense columns, whose dot products are computed per request) and fits in half the budget. */
static km_status add_gram(km_kernel_context *c, const km_kernel *k, size_t gram_bytes, const km_logger *logger)
{
    context_gram *g = &c->grams[c->n_grams++];
    g->lead = k;
    size_t n = c->data->n;
    if (gram_bytes > km_cache_budget(c->cache) / 2 - c->reserved)
        return KM_OK;
    km_view view;
    km_status st = km_view_build(c->data, NULL, n, k->features, k->n_features, c->data->d, &view);
    if (st)
        return st;
    if (!view.sparse && view.dim <= KM_DIRECT_DOT_MAX_DIM) {
        km_view_free(&view);
        return KM_OK;
    }
    if (km_cache_reserve(c->cache, gram_bytes)) {
        if ((g->gram = malloc(gram_bytes))) {
            c->reserved += gram_bytes;
            st = km_view_gram(&view, g->gram);
            km_log(logger, KM_LOG_DEBUG, "kernel context: %zu x %zu Gram matrix shared by the trainings", n, n);
        } else {
            km_cache_unreserve(c->cache, gram_bytes);
        }
    }
    km_view_free(&view);
    return st;
}

km_status km_kernel_context_new(const km_dataset *data, const km_kernel_set *set, size_t cache_bytes,
                                const km_logger *logger, km_kernel_context **out)
{
    *out = NULL;
    km_kernel_context *c = calloc(1, sizeof *c);
    if (!c)
        return km_error_nomem("a kernel context");
    c->data = data;
    c->set = set;
    c->owns_grams = 1;
    km_logger quiet = {0};
    size_t n = data->n;
    size_t gram_bytes = n && n <= SIZE_MAX / n / sizeof(double) ? n * n * sizeof(double) : SIZE_MAX;
    km_status st = km_cache_new(cache_bytes, &c->cache);
    if (!st && !(c->grams = calloc(set->size ? set->size : 1, sizeof *c->grams)))
        st = km_error_nomem("a kernel context");
    for (size_t m = 0; !st && m < set->size; m++) {
        const km_kernel *k = &set->kernels[m];
        if (km_kernel_uses_dot(k) && !find_gram(c, k))
            st = add_gram(c, k, gram_bytes, logger ? logger : &quiet);
    }
    if (st) {
        km_kernel_context_free(c);
        return st;
    }
    *out = c;
    return KM_OK;
}

km_status km_kernel_context_worker(const km_kernel_context *parent, size_t workers, km_kernel_context **out)
{
    *out = NULL;
    size_t budget = km_cache_budget(parent->cache), share = (budget - parent->reserved) / (workers ? workers : 1);
    km_kernel_context *c = calloc(1, sizeof *c);
    if (!c)
        return km_error_nomem("a kernel context");
    *c = *parent;
    c->owns_grams = 0;
    c->cache = NULL;
    km_status st = km_cache_new(parent->reserved + share, &c->cache);
    if (st) {
        km_kernel_context_free(c);
        return st;
    }
    km_cache_reserve(c->cache, c->reserved); /* fits: the budget counts it */
    *out = c;
    return KM_OK;
}

void km_kernel_context_free(km_kernel_context *c)
{
    if (!c)
        return;
    for (size_t g = 0; c->owns_grams && g < c->n_grams; g++)
        free(c->grams[g].gram);
    if (c->cache) {
        km_cache_unreserve(c->cache, c->reserved);
        km_cache_free(c->cache);
    }
    if (c->owns_grams)
        free(c->grams);
    free(c);
}

const km_dataset *km_kernel_context_data(const km_kernel_context *c) { return c->data; }
const km_kernel_set *km_kernel_context_set(const km_kernel_context *c) { return c->set; }
km_cache *km_kernel_context_cache(km_kernel_context *c) { return c->cache; }

const double *km_kernel_context_gram(const km_kernel_context *c, const km_kernel *k)
{
    const context_gram *g = find_gram(c, k);
    return g ? g->gram : NULL;
}
