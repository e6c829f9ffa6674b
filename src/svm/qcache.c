/* LRU column cache (see qcache.h), following LIBSVM 3.24's Cache class. */
#include "svm/qcache.h"

#include <stdint.h>
#include <stdlib.h>

#include "core/error.h"

static void lru_unlink(km_qcache_entry *e)
{
    e->prev->next = e->next;
    e->next->prev = e->prev;
}

static void lru_append(km_qcache *cache, km_qcache_entry *e)
{
    e->next = &cache->lru;
    e->prev = cache->lru.prev;
    e->prev->next = e;
    e->next->prev = e;
}

static void release(km_qcache *cache, km_qcache_entry *e)
{
    lru_unlink(e);
    free(e->data);
    cache->available += e->len;
    e->data = NULL;
    e->len = 0;
}

km_status km_qcache_init(km_qcache *cache, size_t n_keys, size_t bytes, size_t min_len, size_t value_size)
{
    cache->n_keys = n_keys;
    cache->value_size = value_size;
    cache->entries = calloc(n_keys ? n_keys : 1, sizeof *cache->entries);
    if (!cache->entries)
        return km_error_nomem("the kernel column cache index");
    size_t overhead = n_keys * sizeof *cache->entries;
    size_t values = bytes > overhead ? (bytes - overhead) / value_size : 0;
    size_t floor = min_len > SIZE_MAX / 2 ? SIZE_MAX : 2 * min_len;
    cache->available = values > floor ? values : floor;
    cache->lru.next = cache->lru.prev = &cache->lru;
    return KM_OK;
}

void km_qcache_destroy(km_qcache *cache)
{
    if (!cache->entries)
        return;
    for (km_qcache_entry *e = cache->lru.next; e != &cache->lru; e = e->next)
        free(e->data);
    free(cache->entries);
    cache->entries = NULL;
}

km_status km_qcache_get(km_qcache *cache, size_t key, size_t len, void **data, size_t *valid)
{
    km_qcache_entry *e = &cache->entries[key];
    if (e->len)
        lru_unlink(e);
    size_t have = e->len;
    if (len > have) {
        size_t more = len - have;
        while (cache->available < more && cache->lru.next != &cache->lru)
            release(cache, cache->lru.next);
        void *grown = len <= SIZE_MAX / cache->value_size ? realloc(e->data, len * cache->value_size) : NULL;
        if (!grown) {
            if (e->len)
                lru_append(cache, e);
            return km_error_nomem("a kernel cache column");
        }
        e->data = grown;
        cache->available -= more < cache->available ? more : cache->available;
        e->len = len;
    }
    lru_append(cache, e);
    *data = e->data;
    *valid = have;
    return KM_OK;
}

void km_qcache_drop(km_qcache *cache, size_t key)
{
    km_qcache_entry *e = &cache->entries[key];
    if (e->len)
        release(cache, e);
}

void km_qcache_swap_keys(km_qcache *cache, size_t i, size_t j)
{
    if (i == j)
        return;
    km_qcache_entry *a = &cache->entries[i], *b = &cache->entries[j];
    if (a->len)
        lru_unlink(a);
    if (b->len)
        lru_unlink(b);
    double *data = a->data;
    a->data = b->data;
    b->data = data;
    size_t len = a->len;
    a->len = b->len;
    b->len = len;
    if (a->len)
        lru_append(cache, a);
    if (b->len)
        lru_append(cache, b);

    if (i > j) {
        size_t t = i;
        i = j;
        j = t;
    }
    km_qcache_entry *e = cache->lru.next;
    while (e != &cache->lru) {
        km_qcache_entry *next = e->next;
        if (e->len > i) {
            if (e->len > j && cache->value_size == sizeof(float)) {
                float *v = e->data, t = v[i];
                v[i] = v[j];
                v[j] = t;
            } else if (e->len > j) {
                double *v = e->data, t = v[i];
                v[i] = v[j];
                v[j] = t;
            } else {
                release(cache, e);
            }
        }
        e = next;
    }
}
