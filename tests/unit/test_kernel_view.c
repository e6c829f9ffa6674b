/* Kernel views: a subset of provider rows in its own order, kernels repeated and scaled per row
 * (localized MKL's beta_c(x_i) beta_c(x_j) K_m(x_i, x_j)), against the provider's columns and against
 * direct evaluation; diagonals, combined columns, bad arguments; every kernel's column at once, of one
 * row and of several. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/rng.h"
#include "data/dataset.h"
#include "kernel/kernel_view.h"
#include "kernel/provider.h"
#include "kernelmix.h"

#define N 12
#define D 3
#define ROWS 6
#define KERNELS 4

static double sqdist(const double *x, const double *y)
{
    double s = 0.0;
    for (size_t j = 0; j < D; j++)
        s += (x[j] - y[j]) * (x[j] - y[j]);
    return s;
}

/* km_provider_kernel_columns (shared dot-product and squared-distance columns) gives every kernel's
 * km_provider_column exactly, with a Gram matrix and with the column cache, on all rows and a few. */
static void test_kernel_columns(const km_dataset *data)
{
    static const char *specs[] = {"rbf:gamma=0.5", "linear", "rbf:gamma=2:norm=spherical", "poly:degree=3:gamma=1:coef0=1",
                                  "chi2:gamma=1", "rbf:gamma=1:center=1"};
    const size_t M = sizeof specs / sizeof *specs;
    km_kernel_set *set = NULL;
    CHECK_OK(km_kernel_set_new(&set));
    for (size_t m = 0; m < M; m++)
        CHECK_OK(km_kernel_set_add_spec(set, specs[m]));
    const size_t budgets[2] = {0, 1u << 20};
    const size_t some[4] = {3, 0, 11, 5};
    for (size_t b = 0; b < 2; b++) {
        km_provider *p = NULL;
        CHECK_OK(km_provider_new(data, NULL, 0, set, budgets[b], NULL, &p));
        for (size_t i = 0; i < N; i += 5) {
            double all[6 * N], one[N];
            CHECK_OK(km_provider_kernel_columns(p, i, NULL, N, all));
            for (size_t m = 0; m < M; m++) {
                CHECK_OK(km_provider_column(p, m, i, NULL, N, one));
                CHECK(memcmp(one, all + m * N, sizeof one) == 0);
            }
            CHECK_OK(km_provider_kernel_columns(p, i, some, 4, all));
            for (size_t m = 0; m < M; m++) {
                CHECK_OK(km_provider_column(p, m, i, some, 4, one));
                CHECK(memcmp(one, all + m * 4, 4 * sizeof *one) == 0);
            }
        }
        /* several columns at once (dot products from one matrix product: the last bits may differ) */
        const size_t cols[3] = {3, 0, 11};
        double blocks[3 * 6 * N], all[6 * N];
        for (size_t pass = 0; pass < 2; pass++) {
            const size_t *rows = pass ? some : NULL;
            size_t nrows = pass ? 4 : N;
            CHECK_OK(km_provider_kernel_blocks(p, cols, 3, rows, nrows, blocks));
            for (size_t t = 0; t < 3; t++) {
                CHECK_OK(km_provider_kernel_columns(p, cols[t], rows, nrows, all));
                for (size_t k = 0; k < M * nrows; k++)
                    CHECK_NEAR(blocks[t * M * nrows + k], all[k], 1e-13 * (1.0 + fabs(all[k])));
            }
        }
        const size_t beyond[2] = {1, N};
        CHECK_STATUS(km_provider_kernel_blocks(p, beyond, 2, NULL, N, blocks), KM_EINVAL);
        CHECK_STATUS(km_provider_kernel_columns(p, N, NULL, N, all), KM_EINVAL);
        km_provider_free(p);
    }
    km_kernel_set_free(set);
}

KM_TEST_CASE(rows_scales_and_combinations)
{
    double X[N * D];
    km_rng rng;
    km_rng_seed(&rng, 7);
    for (size_t k = 0; k < N * D; k++)
        X[k] = km_rng_uniform(&rng);
    km_dataset *data = NULL;
    km_kernel_set *set = NULL;
    km_provider *p = NULL;
    CHECK_OK(km_dataset_from_dense(N, D, X, NULL, &data));
    CHECK_OK(km_kernel_set_new(&set));
    CHECK_OK(km_kernel_set_add_spec(set, "rbf:gamma=0.5"));
    CHECK_OK(km_kernel_set_add_spec(set, "poly:degree=2:gamma=1:coef0=1"));
    CHECK_OK(km_provider_new(data, NULL, 0, set, 1u << 20, NULL, &p));

    /* view rows 0..5 are provider rows 10, 1, 7, 3, 8, 4; view kernels: rbf, rbf * beta1, rbf * beta2,
     * poly * beta1 (two clusters' memberships, as localized MKL serves them) */
    const size_t rows[ROWS] = {10, 1, 7, 3, 8, 4};
    double beta1[ROWS], beta2[ROWS];
    for (size_t i = 0; i < ROWS; i++) {
        beta1[i] = 0.2 + 0.1 * (double)i;
        beta2[i] = 1.0 - beta1[i];
    }
    const size_t base[KERNELS] = {0, 0, 0, 1};
    const double *scale[KERNELS] = {NULL, beta1, beta2, beta1};
    km_kernel_view *view = NULL;
    CHECK_OK(km_kernel_view_new_scaled(p, rows, ROWS, KERNELS, base, scale, &view));
    CHECK(km_kernel_view_n_rows(view) == ROWS && km_kernel_view_n_kernels(view) == KERNELS);

    /* every column against the provider's column on the mapped rows, scaled, and rbf against its formula */
    const double *const *diag = km_kernel_view_diag(view);
    const double *provider_diag[2] = {km_provider_diag(p, 0), km_provider_diag(p, 1)};
    size_t mapped[ROWS];
    for (size_t k = 0; k < ROWS; k++)
        mapped[k] = rows[k];
    for (size_t v = 0; v < KERNELS; v++) {
        for (size_t i = 0; i < ROWS; i++) {
            double col[ROWS], plain[ROWS];
            CHECK_OK(km_kernel_view_column(view, v, i, NULL, ROWS, col));
            CHECK_OK(km_provider_column(p, base[v], rows[i], mapped, ROWS, plain));
            for (size_t k = 0; k < ROWS; k++) {
                double s = scale[v] ? scale[v][k] * scale[v][i] : 1.0;
                CHECK_NEAR(col[k], s * plain[k], 1e-15);
                if (base[v] == 0)
                    CHECK_NEAR(col[k], s * exp(-0.5 * sqdist(X + rows[k] * D, X + rows[i] * D)), 1e-14);
            }
            double si = scale[v] ? scale[v][i] : 1.0;
            CHECK_NEAR(diag[v][i], si * si * provider_diag[base[v]][rows[i]], 1e-15);
        }
    }
    /* every view kernel's columns of several view rows at once */
    const size_t block_cols[2] = {5, 2};
    double block[2 * KERNELS * ROWS];
    CHECK_OK(km_kernel_view_kernel_blocks(view, block_cols, 2, NULL, ROWS, block));
    for (size_t t = 0; t < 2; t++)
        for (size_t v = 0; v < KERNELS; v++) {
            double col[ROWS];
            CHECK_OK(km_kernel_view_column(view, v, block_cols[t], NULL, ROWS, col));
            for (size_t k = 0; k < ROWS; k++)
                CHECK(block[(t * KERNELS + v) * ROWS + k] == col[k]);
        }
    /* a column on a few view rows (in their own order) */
    const size_t some[3] = {5, 0, 2};
    double few[3], all[ROWS];
    CHECK_OK(km_kernel_view_column(view, 2, 3, some, 3, few));
    CHECK_OK(km_kernel_view_column(view, 2, 3, NULL, ROWS, all));
    for (size_t k = 0; k < 3; k++)
        CHECK_NEAR(few[k], all[some[k]], 1e-15);
    /* the two memberships' kernels add up to (beta1_i beta1_j + beta2_i beta2_j) K */
    const double theta[KERNELS] = {0.0, 1.0, 1.0, 0.0};
    const size_t cols[2] = {4, 1};
    double combined[2 * ROWS];
    CHECK_OK(km_kernel_view_combined(view, theta, cols, 2, NULL, ROWS, combined));
    for (size_t t = 0; t < 2; t++) {
        double rbf[ROWS];
        CHECK_OK(km_kernel_view_column(view, 0, cols[t], NULL, ROWS, rbf));
        for (size_t k = 0; k < ROWS; k++)
            CHECK_NEAR(combined[t * ROWS + k],
                       (beta1[k] * beta1[cols[t]] + beta2[k] * beta2[cols[t]]) * rbf[k], 1e-14);
    }
    km_kernel_view_free(view);

    /* a plain view: combined columns are the provider's on the mapped rows */
    CHECK_OK(km_kernel_view_new(p, rows, ROWS, &view));
    const double weights[2] = {0.3, 0.7};
    double a[ROWS], b[ROWS];
    CHECK_OK(km_kernel_view_combined(view, weights, &cols[0], 1, NULL, ROWS, a));
    CHECK_OK(km_provider_combined_column(p, weights, rows[cols[0]], mapped, ROWS, b));
    for (size_t k = 0; k < ROWS; k++)
        CHECK_NEAR(a[k], b[k], 1e-15);
    CHECK(km_kernel_view_diag(view)[1][2] == provider_diag[1][rows[2]]);
    double plain_block[2 * 2 * ROWS], plain_columns[2 * ROWS];
    CHECK_OK(km_kernel_view_kernel_blocks(view, block_cols, 2, NULL, ROWS, plain_block));
    for (size_t t = 0; t < 2; t++) {
        CHECK_OK(km_kernel_view_kernel_columns(view, block_cols[t], NULL, ROWS, plain_columns));
        for (size_t k = 0; k < 2 * ROWS; k++)
            CHECK_NEAR(plain_block[t * 2 * ROWS + k], plain_columns[k], 1e-13);
    }
    const size_t past_end[1] = {ROWS};
    CHECK_STATUS(km_kernel_view_kernel_blocks(view, past_end, 1, NULL, ROWS, plain_block), KM_EINVAL);
    CHECK_STATUS(km_kernel_view_column(view, 2, 0, NULL, ROWS, a), KM_EINVAL);
    CHECK_STATUS(km_kernel_view_column(view, 0, ROWS, NULL, ROWS, a), KM_EINVAL);
    km_kernel_view_free(view);

    /* bad views: a row or a kernel beyond the provider, all rows with the wrong count */
    const size_t beyond[2] = {0, N};
    const size_t bad_base[1] = {2};
    CHECK_STATUS(km_kernel_view_new(p, beyond, 2, &view), KM_EINVAL);
    CHECK_STATUS(km_kernel_view_new_scaled(p, NULL, N, 1, bad_base, NULL, &view), KM_EINVAL);
    CHECK_STATUS(km_kernel_view_new(p, NULL, N - 1, &view), KM_EINVAL);
    CHECK(view == NULL);

    km_provider_free(p);
    km_kernel_set_free(set);
    test_kernel_columns(data);
    km_dataset_free(data);
}

/* RBF widths twice apart (a range of base 2, in a shuffled order, with one width off the chain): the
 * values of the wider kernels come from squares of the narrower ones' (km_provider_plan_squares). Each
 * kernel's column is the same, bit for bit, from km_provider_column, km_provider_kernel_columns and
 * km_provider_kernel_blocks' neighbour km_provider_combined_column (one weight 1, the rest 0); every value
 * is within 1e-13 (relative) of exp(-gamma ||x - x'||^2) from libm; and a weighted combination equals
 * the weighted sum of the columns. */
KM_TEST_CASE(widths_twice_apart_from_squares)
{
    enum { M = 9 };
    static const char *specs[M] = {"rbf:gamma=2^0", "rbf:gamma=2^-3", "rbf:gamma=2^3", "rbf:gamma=2^-1",
                                   "rbf:gamma=2^2", "rbf:gamma=2^-2", "rbf:gamma=2^1", "rbf:gamma=3",
                                   "linear"};
    double X[N * D];
    km_rng rng;
    km_rng_seed(&rng, 11);
    for (size_t k = 0; k < N * D; k++)
        X[k] = 2.0 * km_rng_uniform(&rng);
    km_dataset *data = NULL;
    km_kernel_set *set = NULL;
    CHECK_OK(km_dataset_from_dense(N, D, X, NULL, &data));
    CHECK_OK(km_kernel_set_new(&set));
    for (size_t m = 0; m < M; m++)
        CHECK_OK(km_kernel_set_add_spec(set, specs[m]));
    const size_t budgets[2] = {0, 1u << 20};
    for (size_t b = 0; b < 2; b++) {
        km_provider *p = NULL;
        CHECK_OK(km_provider_new(data, NULL, 0, set, budgets[b], NULL, &p));
        double all[M * N], one[N], combined[N], weights[M], sum[N];
        double worst = 0.0;
        for (size_t i = 0; i < N; i++) {
            CHECK_OK(km_provider_kernel_columns(p, i, NULL, N, all));
            memset(sum, 0, sizeof sum);
            for (size_t m = 0; m < M; m++) {
                CHECK_OK(km_provider_column(p, m, i, NULL, N, one));
                CHECK(memcmp(one, all + m * N, sizeof one) == 0);
                for (size_t u = 0; u < M; u++)
                    weights[u] = u == m;
                CHECK_OK(km_provider_combined_column(p, weights, i, NULL, N, combined));
                CHECK(memcmp(one, combined, sizeof one) == 0);
                const km_kernel *k = &km_provider_fitted_set(p)->kernels[m];
                for (size_t r = 0; m + 1 < M && r < N; r++) {
                    double exact = exp(-k->gamma * sqdist(X + r * D, X + i * D));
                    worst = fmax(worst, fabs(one[r] - exact) / exact);
                }
                weights[m] = 0.0;
                for (size_t r = 0; r < N; r++)
                    sum[r] += (0.1 + 0.1 * (double)m) * one[r];
            }
            for (size_t m = 0; m < M; m++)
                weights[m] = 0.1 + 0.1 * (double)m;
            CHECK_OK(km_provider_combined_column(p, weights, i, NULL, N, combined));
            for (size_t r = 0; r < N; r++)
                CHECK_NEAR(combined[r], sum[r], 1e-14 * (1.0 + fabs(sum[r])));
        }
        printf("largest relative difference from libm's exp: %.3g\n", worst);
        CHECK(worst <= 1e-13);
        km_provider_free(p);
    }
    km_kernel_set_free(set);
    km_dataset_free(data);
}
