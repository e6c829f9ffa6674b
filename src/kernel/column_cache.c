/* LRU column cache: slots in a doubly linked list, most recently used first. */
#include "kernel/column_cache.h"

#include <stdlib.h>
#include <string.h>

#include "core/error.h"

#define NONE ((size_t)-1)

km_status km_column_cache_init(km_column_cache *cache, size_t n, size_t n_sources, size_t bytes)
{
    memset(cache, 0, sizeof *cache);
    cache->n = n;
    cache->n_sources = n_sources;
    cache->head = cache->tail = NONE;
    if (n_sources == 0)
        return KM_OK;
    size_t capacity = bytes / (n * sizeof(double));
    if (capacity < 2)
        capacity = 2;
    if (capacity > n * n_sources)
        capacity = n * n_sources;
    cache->capacity = capacity;
    cache->slot_of = calloc(n * n_sources, sizeof *cache->slot_of);
    cache->slots = calloc(capacity, sizeof *cache->slots);
    if (!cache->slot_of || !cache->slots) {
        km_column_cache_free(cache);
        return km_error_nomem("a kernel column cache");
    }
    return KM_OK;
}

void km_column_cache_free(km_column_cache *cache)
{
    for (size_t s = 0; cache->slots && s < cache->used; s++)
        free(cache->slots[s].data);
    free(cache->slots);
    free(cache->slot_of);
    memset(cache, 0, sizeof *cache);
}

static void unlink_slot(km_column_cache *c, size_t s)
{
    km_cache_slot *slot = &c->slots[s];
    if (slot->prev != NONE)
        c->slots[slot->prev].next = slot->next;
    else
        c->head = slot->next;
    if (slot->next != NONE)
        c->slots[slot->next].prev = slot->prev;
    else
        c->tail = slot->prev;
}

static void push_front(km_column_cache *c, size_t s)
{
    c->slots[s].prev = NONE;
    c->slots[s].next = c->head;
    if (c->head != NONE)
        c->slots[c->head].prev = s;
    c->head = s;
    if (c->tail == NONE)
        c->tail = s;
}

const double *km_column_cache_get(km_column_cache *cache, size_t source, size_t column)
{
    size_t s = cache->slot_of[source * cache->n + column];
    if (!s--)
        return NULL;
    if (cache->head != s) {
        unlink_slot(cache, s);
        push_front(cache, s);
    }
    return cache->slots[s].data;
}

double *km_column_cache_insert(km_column_cache *cache, size_t source, size_t column)
{
    size_t s;
    if (cache->used < cache->capacity) {
        s = cache->used;
        if (!(cache->slots[s].data = malloc(cache->n * sizeof(double))))
            return NULL;
        cache->used++;
    } else {
        s = cache->tail;
        unlink_slot(cache, s);
        cache->slot_of[cache->slots[s].key] = 0;
    }
    size_t key = source * cache->n + column;
    cache->slots[s].key = key;
    cache->slot_of[key] = s + 1;
    push_front(cache, s);
    return cache->slots[s].data;
}
