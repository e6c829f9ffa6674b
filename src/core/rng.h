/* Seeded, reproducible random numbers: splitmix64 (seeding) + xoshiro256** (stream). */
#ifndef KM_CORE_RNG_H
#define KM_CORE_RNG_H

#include <stddef.h>
#include <stdint.h>

typedef struct km_rng { uint64_t s[4]; } km_rng;

void km_rng_seed(km_rng *rng, uint64_t seed);
uint64_t km_rng_next(km_rng *rng);
/* Uniform double in [0, 1). */
double km_rng_uniform(km_rng *rng);
/* Uniform integer in [0, n), n > 0, without modulo bias. */
uint64_t km_rng_below(km_rng *rng, uint64_t n);
/* Standard normal deviate (Box-Muller). */
double km_rng_normal(km_rng *rng);
/* Fisher-Yates shuffle of n indices. */
void km_rng_shuffle(km_rng *rng, size_t *items, size_t n);

#endif
