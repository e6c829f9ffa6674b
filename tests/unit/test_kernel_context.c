/* Kernel contexts: a provider on some rows made from a context (Gram matrices over all rows) fits its
 * widths and normalization on its own rows and serves the columns of a provider made on those rows
 * alone; a budget too small for the Gram matrices leaves the context without them. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "core/rng.h"
#include "data/dataset.h"
#include "kernel/kernel_context.h"
#include "kernel/provider.h"
#include "kernelmix.h"

#define N 40
#define D 12
#define FOLD 25

KM_TEST_CASE(fold_providers_match_own_providers)
{
    double X[N * D];
    km_rng rng;
    km_rng_seed(&rng, 5);
    for (size_t k = 0; k < N * D; k++)
        X[k] = km_rng_uniform(&rng);
    km_dataset *data = NULL;
    km_kernel_set *set = NULL;
    CHECK_OK(km_dataset_from_dense(N, D, X, NULL, &data));
    CHECK_OK(km_kernel_set_new(&set));
    CHECK_OK(km_kernel_set_add_spec(set, "rbf:gamma=1/mean:center=1"));
    CHECK_OK(km_kernel_set_add_spec(set, "poly:degree=2:gamma=1:coef0=1:norm=spherical"));
    CHECK_OK(km_kernel_set_add_spec(set, "linear:features=1-10:norm=mult"));

    km_kernel_context *context = NULL;
    CHECK_OK(km_kernel_context_new(data, set, 1u << 20, NULL, &context));
    CHECK(km_kernel_context_gram(context, &set->kernels[0]) != NULL);
    CHECK(km_kernel_context_gram(context, &set->kernels[2]) != NULL &&
          km_kernel_context_gram(context, &set->kernels[2]) != km_kernel_context_gram(context, &set->kernels[1]));
    /* the Gram matrix is X X' over all rows */
    const double *gram = km_kernel_context_gram(context, &set->kernels[0]);
    double dot = 0.0;
    for (size_t j = 0; j < D; j++)
        dot += X[3 * D + j] * X[17 * D + j];
    CHECK_NEAR(gram[3 * N + 17], dot, 1e-12);

    /* a fold: every other row, then the last ones, not in dataset order */
    size_t rows[FOLD];
    for (size_t k = 0; k < FOLD; k++)
        rows[k] = k < 20 ? 2 * (19 - k) : N - 1 - (k - 20) * 2;
    const km_provider_use uses[2] = {KM_PROVIDER_PER_KERNEL, KM_PROVIDER_COMBINED};
    for (size_t u = 0; u < 2; u++) {
        km_provider *shared = NULL, *alone = NULL;
        CHECK_OK(km_provider_new_in_context(context, rows, FOLD, uses[u], NULL, &shared));
        CHECK_OK(km_provider_new(data, rows, FOLD, set, 1u << 20, NULL, &alone));
        const km_kernel_set *fa = km_provider_fitted_set(shared), *fb = km_provider_fitted_set(alone);
        CHECK_NEAR(fa->kernels[0].gamma, fb->kernels[0].gamma, 1e-14);
        CHECK_NEAR(fa->kernels[2].scale, fb->kernels[2].scale, 1e-12);
        for (size_t i = 0; i < FOLD; i++) {
            double a[FOLD], b[FOLD];
            for (size_t m = 0; m < set->size; m++) {
                CHECK_OK(km_provider_column(shared, m, i, NULL, FOLD, a));
                CHECK_OK(km_provider_column(alone, m, i, NULL, FOLD, b));
                for (size_t k = 0; k < FOLD; k++)
                    CHECK_NEAR(a[k], b[k], 1e-12);
                CHECK_NEAR(km_provider_diag(shared, m)[i], km_provider_diag(alone, m)[i], 1e-12);
            }
            const double weights[3] = {0.5, 1.0, 2.0};
            CHECK_OK(km_provider_combined_column(shared, weights, i, NULL, FOLD, a));
            CHECK_OK(km_provider_combined_column(alone, weights, i, NULL, FOLD, b));
            for (size_t k = 0; k < FOLD; k++)
                CHECK_NEAR(a[k], b[k], 1e-12);
        }
        km_provider_free(shared);
        km_provider_free(alone);
    }
    km_kernel_context_free(context);

    /* N x N doubles do not fit in half of 20 KB: no Gram matrix, providers compute their own dots */
    CHECK_OK(km_kernel_context_new(data, set, 20000, NULL, &context));
    CHECK(km_kernel_context_gram(context, &set->kernels[0]) == NULL);
    km_provider *p = NULL;
    CHECK_OK(km_provider_new_in_context(context, rows, FOLD, KM_PROVIDER_PER_KERNEL, NULL, &p));
    CHECK(km_provider_n_rows(p) == FOLD);
    km_provider_free(p);
    km_kernel_context_free(context);

    km_kernel_set_free(set);
    km_dataset_free(data);
}
