/* Dot-product blocks are bit-identical for every number of threads (the shape of heart_scale, 270 rows
 * of 13 features, is one where a single dgemm over the block differs between 1 and 2 threads), agree
 * with a plain sum, and a linear-kernel model (LIBSVM's -t 0, which the other determinism tests did not
 * catch) trains to the same bytes with 1, 2 and 3 threads. */
#include <cblas.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "check.h"
#include "core/rng.h"
#include "kernel/dot_products.h"
#include "kernelmix.h"

enum { N = 270, D = 13 };

static void set_threads(int threads)
{
    openblas_set_num_threads(threads);
#ifdef _OPENMP
    omp_set_num_threads(threads);
#endif
}

static double X[N * D];

static void fill(void)
{
    km_rng rng;
    km_rng_seed(&rng, 7);
    for (size_t k = 0; k < N * D; k++)
        X[k] = 2.0 * km_rng_uniform(&rng) - 1.0;
}

KM_TEST_CASE(block_and_vector_independent_of_threads)
{
    fill();
    double *one = malloc(N * N * sizeof *one), *two = malloc(N * N * sizeof *two), v1[N], v2[N];
    set_threads(1);
    km_dots_block(X, N, X, N, D, one);
    km_dots_vector(X, N, D, X + 5 * D, v1);
    set_threads(2);
    km_dots_block(X, N, X, N, D, two);
    km_dots_vector(X, N, D, X + 5 * D, v2);
    CHECK(memcmp(one, two, N * N * sizeof *one) == 0);
    CHECK(memcmp(v1, v2, sizeof v1) == 0);
    for (size_t i = 0; i < N; i++)
        for (size_t j = 0; j < N; j += 17) {
            double s = 0.0;
            for (size_t k = 0; k < D; k++)
                s += X[i * D + k] * X[j * D + k];
            CHECK_NEAR(one[i * N + j], s, 1e-13);
        }
    CHECK_NEAR(v1[7], one[7 * N + 5], 1e-13);
    free(one);
    free(two);
}

/* A vector longer than OpenBLAS sums on one thread (10,000 values). */
KM_TEST_CASE(long_dot_independent_of_threads)
{
    enum { LONG = 25001 };
    double *x = malloc(LONG * sizeof *x), exact = 0.0;
    km_rng rng;
    km_rng_seed(&rng, 11);
    for (size_t k = 0; k < LONG; k++) {
        x[k] = km_rng_uniform(&rng) - 0.5;
        exact += x[k] * x[k];
    }
    set_threads(1);
    double one = km_dot(x, x, LONG);
    set_threads(2);
    CHECK(km_dot(x, x, LONG) == one);
    set_threads(4);
    CHECK(km_dot(x, x, LONG) == one);
    CHECK_NEAR(one, exact, 1e-10);
    free(x);
}

static char *linear_model_bytes(const km_dataset *data, int threads, size_t *size)
{
    set_threads(threads);
    km_kernel_set *set = NULL;
    km_params *params = NULL;
    km_model *model = NULL;
    void *bytes = NULL;
    CHECK_OK(km_kernel_set_new(&set));
    CHECK_OK(km_kernel_set_add_spec(set, "linear"));
    CHECK_OK(km_params_new(&params));
    CHECK_OK(km_train(data, set, params, &model));
    if (model)
        CHECK_OK(km_model_save_buffer(model, &bytes, size));
    km_model_free(model);
    km_params_free(params);
    km_kernel_set_free(set);
    return bytes;
}

KM_TEST_CASE(linear_model_independent_of_threads)
{
    fill();
    double y[N];
    for (size_t i = 0; i < N; i++)
        y[i] = X[i * D] + 0.5 * X[i * D + 1] + 0.3 * X[i * D + 12] > 0 ? 1.0 : -1.0;
    km_dataset *data = NULL;
    CHECK_OK(km_dataset_from_dense(N, D, X, y, &data));
    size_t size1 = 0, size = 0;
    char *first = linear_model_bytes(data, 1, &size1);
    for (int threads = 2; first && threads <= 3; threads++) {
        char *bytes = linear_model_bytes(data, threads, &size);
        CHECK(bytes && size == size1 && memcmp(bytes, first, size) == 0);
        km_free(bytes);
    }
    km_free(first);
    km_dataset_free(data);
}
