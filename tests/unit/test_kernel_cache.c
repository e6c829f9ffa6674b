/* The kernel cache: two clients on one budget evict the least recently used column of either, never
 * the two a client was handed last; whole-matrix reservations; a limited client evicts its own; the
 * solver's key swaps. */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "kernel/cache.h"
#include "kernelmix.h"

#define LEN 1000
#define COLUMN ((size_t)LEN * sizeof(double))

/* Gets key of client and writes value into its LEN values when they are new. */
static void fill(km_cache_client *client, size_t key, double value)
{
    void *data;
    size_t valid = 99;
    CHECK_OK(km_cache_get(client, key, LEN, &data, &valid));
    CHECK(valid == 0);
    for (size_t k = 0; k < LEN; k++)
        ((double *)data)[k] = value + (double)k;
}

static int cached(km_cache_client *client, size_t key) { return km_cache_find(client, key, LEN) != NULL; }

KM_TEST_CASE(lru_clients_reservations_swaps)
{
    /* room for four columns (the slack covers the two key indexes) */
    km_cache *cache = NULL;
    km_cache_client *a = NULL, *b = NULL, *limited = NULL;
    CHECK_OK(km_cache_new(4 * COLUMN + 4000, &cache));
    CHECK_OK(km_cache_client_new(cache, 8, sizeof(double), LEN, SIZE_MAX, &a));
    CHECK_OK(km_cache_client_new(cache, 8, sizeof(double), LEN, SIZE_MAX, &b));
    for (size_t key = 0; key < 4; key++)
        fill(a, key, 100.0 * (double)key);
    /* b's column evicts a's least recently used one (key 0), not a's last two (2, 3) */
    fill(b, 0, -1.0);
    CHECK(!cached(a, 0));
    /* finding key 1 makes it recent and held: the next eviction takes key 2 */
    const double *one = km_cache_find(a, 1, LEN);
    CHECK(one && one[0] == 100.0 && one[LEN - 1] == 100.0 + LEN - 1);
    fill(b, 1, -2.0);
    CHECK(!cached(a, 2));
    CHECK(cached(a, 3) && cached(a, 1) && cached(b, 0) && cached(b, 1));
    /* a value found again is the one stored; a longer request keeps the cached prefix */
    void *data;
    size_t valid;
    CHECK_OK(km_cache_get(b, 0, LEN / 2, &data, &valid));
    CHECK(valid == LEN && ((double *)data)[3] == 2.0);

    /* a whole matrix of two columns evicts the two oldest columns that are not held; one beyond the
     * budget is refused */
    km_cache_client_free(b);
    fill(a, 0, 0.0);
    fill(a, 2, 200.0);
    CHECK(km_cache_reserve(cache, 2 * COLUMN) == 1);
    CHECK(!cached(a, 1) && !cached(a, 3) && cached(a, 0) && cached(a, 2));
    CHECK(km_cache_reserve(cache, 3 * COLUMN) == 0);
    km_cache_unreserve(cache, 2 * COLUMN);

    /* a client limited to its floor (two columns) evicts its own columns, never the others' */
    CHECK_OK(km_cache_client_new(cache, 8, sizeof(double), LEN, 0, &limited));
    fill(limited, 0, 0.0);
    fill(limited, 1, 1.0);
    fill(limited, 2, 2.0);
    CHECK(!cached(limited, 0) && cached(limited, 1) && cached(limited, 2));
    CHECK(cached(a, 0) && cached(a, 2));
    km_cache_client_free(limited);

    /* swapping keys 0 and 2 exchanges the columns and positions 0 and 2 inside every column */
    km_cache_swap_keys(a, 0, 2);
    const double *now0 = km_cache_find(a, 0, LEN), *now2 = km_cache_find(a, 2, LEN);
    CHECK(now0 && now0[0] == 202.0 && now0[1] == 201.0 && now0[2] == 200.0);
    CHECK(now2 && now2[0] == 2.0 && now2[2] == 0.0);
    km_cache_drop(a, 0);
    CHECK(!cached(a, 0) && cached(a, 2));

    km_cache_client_free(a);
    km_cache_free(cache);
}
