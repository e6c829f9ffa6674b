#include "core/rng.h"

#include <math.h>

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void km_rng_seed(km_rng *rng, uint64_t seed)
{
    for (int k = 0; k < 4; k++)
        rng->s[k] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t km_rng_next(km_rng *rng)
{
    uint64_t *s = rng->s;
    const uint64_t result = rotl(s[1] * 5, 7) * 9;
    const uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

double km_rng_uniform(km_rng *rng) { return (double)(km_rng_next(rng) >> 11) * 0x1.0p-53; }

uint64_t km_rng_below(km_rng *rng, uint64_t n)
{
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;
    do
        x = km_rng_next(rng);
    while (x >= limit);
    return x % n;
}

double km_rng_normal(km_rng *rng)
{
    double u1 = km_rng_uniform(rng), u2 = km_rng_uniform(rng);
    if (u1 <= 0.0)
        u1 = 0x1.0p-53;
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586476925 * u2);
}

void km_rng_shuffle(km_rng *rng, size_t *items, size_t n)
{
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)km_rng_below(rng, i);
        size_t tmp = items[i - 1];
        items[i - 1] = items[j];
        items[j] = tmp;
    }
}
