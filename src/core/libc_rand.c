/* km_libc_rand: the GNU C library's rand() sequence (core/libc_rand.h). */
#include "core/libc_rand.h"

uint32_t km_libc_rand_next(km_libc_rand *rand)
{
    uint32_t value = rand->word[rand->front] += rand->word[rand->rear];
    rand->front = rand->front == 30 ? 0 : rand->front + 1;
    rand->rear = rand->rear == 30 ? 0 : rand->rear + 1;
    return value >> 1;
}

void km_libc_rand_seed(km_libc_rand *rand, uint32_t seed)
{
    if (seed == 0)
        seed = 1;
    /* x_i = 16807 x_{i-1} mod (2^31 - 1) by Schrage's method, on the seed as a signed 32-bit word */
    int32_t x = (int32_t)seed;
    rand->word[0] = seed;
    for (int i = 1; i < 31; i++) {
        int32_t hi = x / 127773, lo = x % 127773;
        x = 16807 * lo - 2836 * hi;
        if (x < 0)
            x += 2147483647;
        rand->word[i] = (uint32_t)x;
    }
    rand->front = 3;
    rand->rear = 0;
    for (int i = 0; i < 310; i++)
        km_libc_rand_next(rand);
}
