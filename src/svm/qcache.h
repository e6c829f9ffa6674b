/* LRU cache of solver columns with a memory bound, after LIBSVM's Cache: entries are keyed by an index,
 * hold a prefix data[0, len) of a column, grow on demand, and the least recently used entries are
 * released when the bound would be exceeded. swap_keys follows the solver's active-set permutation.
 * Values are doubles or, to hold twice as many, floats (value_size). */
#ifndef KM_SVM_QCACHE_H
#define KM_SVM_QCACHE_H

#include <stddef.h>

#include "kernelmix.h"

typedef struct km_qcache_entry {
    struct km_qcache_entry *prev, *next;  /* circular LRU list, most recent last */
    void *data;                           /* double or float values */
    size_t len;                           /* data[0, len) is valid; 0: not cached */
} km_qcache_entry;

typedef struct km_qcache {
    size_t n_keys;
    size_t value_size;                    /* sizeof(double) or sizeof(float) */
    size_t available;                     /* values that may still be allocated */
    km_qcache_entry *entries;             /* one per key */
    km_qcache_entry lru;                  /* list head */
} km_qcache;

/* bytes: memory bound; it is raised so that two columns of min_len values always fit (the solver
 * holds two columns at a time). value_size: sizeof(double) or sizeof(float). */
km_status km_qcache_init(km_qcache *cache, size_t n_keys, size_t bytes, size_t min_len, size_t value_size);
void km_qcache_destroy(km_qcache *cache);

/* Makes the entry of key hold at least len values and marks it most recently used. *data receives
 * the entry, *valid the length of its prefix that holds cached values (the caller fills
 * [*valid, len) when *valid < len). */
km_status km_qcache_get(km_qcache *cache, size_t key, size_t len, void **data, size_t *valid);
/* Forgets the entry of key (after a failed fill). */
void km_qcache_drop(km_qcache *cache, size_t key);
/* Exchanges keys i and j and positions i and j inside every cached column (LIBSVM's swap_index):
 * columns long enough hold both positions and swap them; columns covering i but not j are dropped. */
void km_qcache_swap_keys(km_qcache *cache, size_t i, size_t j);

#endif
