/* LRU cache of kernel columns with bounded memory: column i of source s (n doubles), for a fixed
 * number of sources (feature views, pairwise kernels). */
#ifndef KM_KERNEL_COLUMN_CACHE_H
#define KM_KERNEL_COLUMN_CACHE_H

#include <stddef.h>

#include "kernelmix.h"

typedef struct km_cache_slot {
    size_t key;              /* source * n + column */
    size_t prev, next;       /* LRU list, most recent first */
    double *data;
} km_cache_slot;

typedef struct km_column_cache {
    size_t n;                /* column length and columns per source */
    size_t n_sources;
    size_t capacity;         /* most columns held */
    size_t used;
    size_t head, tail;       /* most and least recently used slot */
    size_t *slot_of;         /* n_sources * n: slot + 1, or 0 when not cached */
    km_cache_slot *slots;
} km_column_cache;

/* Room for bytes / (8 n) columns, at least 2. */
km_status km_column_cache_init(km_column_cache *cache, size_t n, size_t n_sources, size_t bytes);
void km_column_cache_free(km_column_cache *cache);
/* Cached column (n values) or NULL; a hit becomes the most recently used. */
const double *km_column_cache_get(km_column_cache *cache, size_t source, size_t column);
/* Storage for a new column (to be filled by the caller), evicting the least recently used one when
 * full; NULL when out of memory. */
double *km_column_cache_insert(km_column_cache *cache, size_t source, size_t column);

#endif
