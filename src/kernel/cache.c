/* The kernel cache (cache.h), following LIBSVM 3.24's Cache class, with several clients on one
 * budget: each client keeps its entries in a circular list, least recently used first, stamped with
 * a cache-wide clock, so the globally least recently used entry is the oldest of the clients' first
 * entries. */
#include "kernel/cache.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

/* Entries a client was handed last and that stay cached (a solver holds two columns at a time). */
#define KM_CACHE_HOLD 2

typedef struct cache_entry {
    struct cache_entry *prev, *next;   /* the client's circular list, most recent last */
    void *data;                        /* double or float values */
    size_t len;                        /* data[0, len) is valid; 0: not cached */
    unsigned long long stamp;          /* cache clock when last used */
    int pins;                          /* times among its client's held entries */
} cache_entry;

struct km_cache_client {
    km_cache *cache;
    km_cache_client *next_client;
    size_t n_keys;
    size_t value_size;
    size_t used;                       /* bytes of its columns */
    size_t limit;                      /* most bytes of its columns (at least floor) */
    size_t floor;                      /* bytes of two columns of min_len, allowed beyond limit */
    cache_entry *entries;              /* one per key */
    cache_entry lru;                   /* list head */
    cache_entry *held[KM_CACHE_HOLD];  /* the entries handed out last */
    size_t next_held;
};

struct km_cache {
    size_t budget;
    size_t used;                       /* bytes of columns and key indexes */
    size_t reserved;                   /* bytes of whole matrices */
    km_cache_values values;            /* km_cache_set_values */
    unsigned long long clock;
    km_cache_client *clients;
};

km_status km_cache_new(size_t bytes, km_cache **out)
{
    if (!(*out = calloc(1, sizeof **out)))
        return km_error_nomem("the kernel cache");
    (*out)->budget = bytes;
    return KM_OK;
}

void km_cache_free(km_cache *cache) { free(cache); }

size_t km_cache_budget(const km_cache *cache) { return cache->budget; }

void km_cache_set_values(km_cache *cache, km_cache_values values) { cache->values = values; }

km_cache_values km_cache_values_of(const km_cache *cache) { return cache->values; }

static void lru_unlink(cache_entry *e)
{
    e->prev->next = e->next;
    e->next->prev = e->prev;
}

static void lru_append(km_cache_client *c, cache_entry *e)
{
    e->next = &c->lru;
    e->prev = c->lru.prev;
    e->prev->next = e;
    e->next->prev = e;
    e->stamp = ++c->cache->clock;
}

static void release(km_cache_client *c, cache_entry *e)
{
    size_t bytes = e->len * c->value_size;
    lru_unlink(e);
    free(e->data);
    c->used -= bytes;
    c->cache->used -= bytes;
    e->data = NULL;
    e->len = 0;
}

/* e becomes one of the client's held entries, the oldest held one is let go. */
static void hold(km_cache_client *c, cache_entry *e)
{
    cache_entry **slot = &c->held[c->next_held];
    if (*slot)
        (*slot)->pins--;
    *slot = e;
    e->pins++;
    c->next_held = (c->next_held + 1) % KM_CACHE_HOLD;
}

/* The client's least recently used entry that is not held, or NULL. */
static cache_entry *oldest_free(km_cache_client *c)
{
    for (cache_entry *e = c->lru.next; e != &c->lru; e = e->next)
        if (!e->pins)
            return e;
    return NULL;
}

/* The least recently used entry of any client that is not held; *owner receives its client. */
static cache_entry *oldest_free_anywhere(km_cache *cache, km_cache_client **owner)
{
    cache_entry *best = NULL;
    for (km_cache_client *c = cache->clients; c; c = c->next_client) {
        cache_entry *e = oldest_free(c);
        if (e && (!best || e->stamp < best->stamp)) {
            best = e;
            *owner = c;
        }
    }
    return best;
}

static int over_budget(const km_cache *cache, size_t more)
{
    return cache->used + cache->reserved + more > cache->budget || cache->used + cache->reserved + more < more;
}

/* Evicts until client c can take `more` bytes within its limit and within the budget; stops when
 * nothing can be evicted (every entry held: the budget is then exceeded by at most the held ones). */
static void make_room(km_cache_client *c, size_t more)
{
    for (;;) {
        int over_limit = c->used + more > c->limit;
        int over_cache = over_budget(c->cache, more);
        km_cache_client *owner = c;
        cache_entry *victim = over_limit ? oldest_free(c) : over_cache ? oldest_free_anywhere(c->cache, &owner) : NULL;
        if (!victim)
            return;
        release(owner, victim);
    }
}

int km_cache_reserve(km_cache *cache, size_t bytes)
{
    if (bytes > cache->budget || cache->reserved > cache->budget - bytes)
        return 0;
    km_cache_client *owner = NULL;
    cache_entry *victim;
    while (over_budget(cache, bytes) && (victim = oldest_free_anywhere(cache, &owner)))
        release(owner, victim);
    cache->reserved += bytes;
    return 1;
}

void km_cache_unreserve(km_cache *cache, size_t bytes) { cache->reserved -= bytes < cache->reserved ? bytes : cache->reserved; }

km_status km_cache_client_new(km_cache *cache, size_t n_keys, size_t value_size, size_t min_len, size_t limit,
                              km_cache_client **out)
{
    km_cache_client *c = calloc(1, sizeof *c);
    if (!c || !(c->entries = calloc(n_keys ? n_keys : 1, sizeof *c->entries))) {
        free(c);
        return km_error_nomem("the kernel column cache index");
    }
    c->cache = cache;
    c->n_keys = n_keys;
    c->value_size = value_size;
    c->floor = min_len > SIZE_MAX / 2 / value_size ? SIZE_MAX : 2 * min_len * value_size;
    c->limit = limit > c->floor ? limit : c->floor;
    c->lru.next = c->lru.prev = &c->lru;
    cache->used += n_keys * sizeof *c->entries;
    c->next_client = cache->clients;
    cache->clients = c;
    *out = c;
    return KM_OK;
}

void km_cache_client_free(km_cache_client *c)
{
    if (!c)
        return;
    while (c->lru.next != &c->lru)
        release(c, c->lru.next);
    km_cache *cache = c->cache;
    cache->used -= c->n_keys * sizeof *c->entries;
    km_cache_client **link = &cache->clients;
    while (*link != c)
        link = &(*link)->next_client;
    *link = c->next_client;
    free(c->entries);
    free(c);
}

km_status km_cache_get(km_cache_client *c, size_t key, size_t len, void **data, size_t *valid)
{
    cache_entry *e = &c->entries[key];
    if (e->len)
        lru_unlink(e);
    size_t have = e->len;
    hold(c, e);   /* the client lets go of its oldest held entry and is not evicted itself */
    if (len > have) {
        size_t more = len - have;
        make_room(c, more * c->value_size);
        void *grown = len <= SIZE_MAX / c->value_size ? realloc(e->data, len * c->value_size) : NULL;
        if (!grown) {
            if (e->len)
                lru_append(c, e);
            return km_error_nomem("a kernel cache column");
        }
        e->data = grown;
        e->len = len;
        c->used += more * c->value_size;
        c->cache->used += more * c->value_size;
    }
    lru_append(c, e);
    *data = e->data;
    *valid = have;
    return KM_OK;
}

const void *km_cache_find(km_cache_client *c, size_t key, size_t len)
{
    cache_entry *e = &c->entries[key];
    if (e->len < len || !e->len)
        return NULL;
    lru_unlink(e);
    lru_append(c, e);
    hold(c, e);
    return e->data;
}

void km_cache_drop(km_cache_client *c, size_t key)
{
    cache_entry *e = &c->entries[key];
    if (e->len)
        release(c, e);
}

void km_cache_swap_keys(km_cache_client *c, size_t i, size_t j)
{
    if (i == j)
        return;
    cache_entry *a = &c->entries[i], *b = &c->entries[j];
    if (a->len)
        lru_unlink(a);
    if (b->len)
        lru_unlink(b);
    void *data = a->data;
    a->data = b->data;
    b->data = data;
    size_t len = a->len;
    a->len = b->len;
    b->len = len;
    if (a->len)
        lru_append(c, a);
    if (b->len)
        lru_append(c, b);

    if (i > j) {
        size_t t = i;
        i = j;
        j = t;
    }
    cache_entry *e = c->lru.next;
    while (e != &c->lru) {
        cache_entry *next = e->next;
        if (e->len > i) {
            if (e->len > j && c->value_size == sizeof(float)) {
                float *v = e->data, t = v[i];
                v[i] = v[j];
                v[j] = t;
            } else if (e->len > j) {
                double *v = e->data, t = v[i];
                v[i] = v[j];
                v[j] = t;
            } else {
                release(c, e);
            }
        }
        e = next;
    }
}
