/* The sequence of the GNU C library's rand(): its default additive feedback generator (TYPE_3,
 * x_i = x_{i-3} + x_{i-31} mod 2^32 over 31 words seeded by the Park-Miller generator, 310 outputs
 * discarded, each output the word shifted right by one). LIBSVM draws the folds of its probability
 * cross-validation with rand() from the initial state (seed 1), so drawing ours from the same sequence
 * gives the same folds as Debian's svm-train -b 1. It is a fold shuffler, not a generator for
 * statistics (its low bits are weak); everything else uses core/rng.h. */
#ifndef KM_CORE_LIBC_RAND_H
#define KM_CORE_LIBC_RAND_H

#include <stdint.h>

typedef struct km_libc_rand {
    uint32_t word[31];
    int front, rear;             /* the taps x_{i-3} and x_{i-31} in the ring of words */
} km_libc_rand;

/* The state of srand(seed); seed 0 is seed 1, as in the C library. */
void km_libc_rand_seed(km_libc_rand *rand, uint32_t seed);
/* The next value of rand(), in [0, 2^31). */
uint32_t km_libc_rand_next(km_libc_rand *rand);

#endif
