/* A kernel context: what the providers of several trainings on rows of one dataset can share — the
 * cross-validation folds, the points of a grid search. It holds the -m budget (cache.h) and the Gram
 * matrix of every feature subset of the dot-product kernels over all rows of the dataset, computed
 * once when they fit in half of the budget (the rest stays for the folds' solvers). A provider made
 * from it (km_provider_new_in_context) fits widths and normalization on its own rows, as any provider,
 * and reads its dot products from those Gram matrices instead of computing its own. */
#ifndef KM_KERNEL_KERNEL_CONTEXT_H
#define KM_KERNEL_KERNEL_CONTEXT_H

#include <stddef.h>

#include "core/log.h"
#include "kernel/cache.h"
#include "kernel/kernel.h"
#include "kernel/provider.h"

typedef struct km_kernel_context km_kernel_context;

/* data and set must outlive the context. */
km_status km_kernel_context_new(const km_dataset *data, const km_kernel_set *set, size_t cache_bytes,
                                const km_logger *logger, km_kernel_context **out);
/* A context for one of `workers` threads that train at once on the parent's rows: the parent's Gram
 * matrices (borrowed: the parent must outlive it) and a budget of its own, the parent's Gram bytes
 * (reserved) plus its share 1/workers of the rest, so that the workers together stay within the parent's
 * budget; with one worker its budget is the parent's. */
km_status km_kernel_context_worker(const km_kernel_context *parent, size_t workers, km_kernel_context **out);
void km_kernel_context_free(km_kernel_context *context);

const km_dataset *km_kernel_context_data(const km_kernel_context *context);
const km_kernel_set *km_kernel_context_set(const km_kernel_context *context);
/* The budget, shared with the providers and solvers of the trainings. */
km_cache *km_kernel_context_cache(km_kernel_context *context);
/* The N×N dot products over all dataset rows on the feature subset of kernel (row-major), or NULL. */
const double *km_kernel_context_gram(const km_kernel_context *context, const km_kernel *kernel);

/* km_provider_new_shared on rows[0..n) of the context's dataset and kernel set, in its cache. */
km_status km_provider_new_in_context(km_kernel_context *context, const size_t *rows, size_t n, km_provider_use use,
                                     const km_logger *logger, km_provider **out);

#endif
