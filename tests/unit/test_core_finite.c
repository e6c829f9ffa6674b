/* km_all_finite and km_all_finite_float against isfinite, element by element: one infinity or NaN at
 * any position (the first, the last, past the vector width, in a threaded array) is found; extreme
 * finite values (largest, smallest subnormal, negative zero) pass. */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "core/finite.h"

static void test_doubles(void)
{
    size_t sizes[] = {1, 7, 33, ((size_t)1 << 19) + 5};   /* the last is split among threads, its last run short */
    double specials[] = {INFINITY, -INFINITY, NAN};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        size_t n = sizes[s];
        double *v = malloc(n * sizeof *v);
        CHECK(v != NULL);
        for (size_t k = 0; k < n; k++)
            v[k] = k % 3 == 0 ? DBL_MAX : k % 3 == 1 ? -4.9e-324 : -0.0;
        CHECK(km_all_finite(v, n));
        size_t positions[] = {0, n / 2, n - 1};
        for (size_t p = 0; p < 3; p++) {
            for (size_t x = 0; x < 3; x++) {
                double kept = v[positions[p]];
                v[positions[p]] = specials[x];
                CHECK(!km_all_finite(v, n));
                v[positions[p]] = kept;
            }
        }
        CHECK(km_all_finite(v, n));
        free(v);
    }
    CHECK(km_all_finite(NULL, 0));
}

static void test_floats(void)
{
    size_t n = (size_t)1 << 19;
    float *v = malloc(n * sizeof *v);
    CHECK(v != NULL);
    for (size_t k = 0; k < n; k++)
        v[k] = k % 2 ? FLT_MAX : -1.4e-45f;
    CHECK(km_all_finite_float(v, n));
    size_t positions[] = {0, 5, n - 1};
    for (size_t p = 0; p < 3; p++) {
        float kept = v[positions[p]];
        v[positions[p]] = NAN;
        CHECK(!km_all_finite_float(v, n));
        v[positions[p]] = -INFINITY;
        CHECK(!km_all_finite_float(v, n));
        v[positions[p]] = kept;
    }
    CHECK(km_all_finite_float(v, 5));
    free(v);
}

KM_TEST_CASE(doubles) { test_doubles(); }
KM_TEST_CASE(floats) { test_floats(); }
