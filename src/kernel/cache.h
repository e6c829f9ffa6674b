/* The kernel cache: one memory budget (-m) for every kernel value kept between requests, after
 * LIBSVM's Cache. Whole matrices (a feature view's Gram matrix, the solver's whole kernel matrix) are
 * reserved out of the budget; the rest holds columns in least-recently-used order.
 *
 * Columns belong to clients (the provider's dot-product and pairwise columns, each solver's Q or
 * per-kernel columns), each with its own keys and value type (double or float). An entry holds a
 * prefix data[0, len) of a column and grows on demand. When room is needed, the least recently used
 * entry of any client goes first, but never one of the last entries a client was handed (its `hold`
 * entries: a solver works on two columns at a time; when every entry is held the budget is exceeded
 * by them). A client may be limited to fewer bytes than the budget (limit; it may always keep two
 * columns of its min_len), then it evicts its own columns. Not thread-safe. */
#ifndef KM_KERNEL_CACHE_H
#define KM_KERNEL_CACHE_H

#include <stddef.h>

#include "kernelmix.h"

typedef struct km_cache km_cache;
typedef struct km_cache_client km_cache_client;

km_status km_cache_new(size_t bytes, km_cache **out);
/* Frees the cache; its clients must have been freed. */
void km_cache_free(km_cache *cache);
size_t km_cache_budget(const km_cache *cache);
/* How whole sets of values that may be kept either way (the low-rank kernels' features, provider.c) are
 * kept: KM_CACHE_AUTO (the default: double where they fit beside the other reservations, else float),
 * KM_CACHE_DOUBLE or KM_CACHE_FLOAT (--cache-values). */
void km_cache_set_values(km_cache *cache, km_cache_values values);
km_cache_values km_cache_values_of(const km_cache *cache);

/* Takes bytes for a whole matrix out of the budget when they fit beside the other reservations
 * (evicting columns as needed): 1, else 0 (nothing taken). */
int km_cache_reserve(km_cache *cache, size_t bytes);
void km_cache_unreserve(km_cache *cache, size_t bytes);

/* A client with keys 0..n_keys-1 of value_size-byte values (sizeof(double) or sizeof(float)); its key
 * index counts against the budget. limit: most bytes its columns may take (SIZE_MAX: the budget). */
km_status km_cache_client_new(km_cache *cache, size_t n_keys, size_t value_size, size_t min_len, size_t limit,
                              km_cache_client **out);
/* Releases the client's columns back to the budget. */
void km_cache_client_free(km_cache_client *client);

/* Makes the entry of key hold at least len values and marks it most recently used. *data receives
 * the entry, *valid the length of its prefix that holds cached values (the caller fills
 * [*valid, len) when *valid < len). */
km_status km_cache_get(km_cache_client *client, size_t key, size_t len, void **data, size_t *valid);
/* The entry of key when it holds at least len values (then marked most recently used), else NULL. */
const void *km_cache_find(km_cache_client *client, size_t key, size_t len);
/* Forgets the entry of key (after a failed fill). */
void km_cache_drop(km_cache_client *client, size_t key);
/* Exchanges keys i and j and positions i and j inside every column of the client (LIBSVM's
 * swap_index): columns long enough hold both positions and swap them; columns covering i but not j
 * are dropped. */
void km_cache_swap_keys(km_cache_client *client, size_t i, size_t j);

#endif
