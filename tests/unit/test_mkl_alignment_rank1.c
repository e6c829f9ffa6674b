/* Alignment statistics of rank-1 kernels K_j = x_j x_j' from the feature columns
 * (mkl/alignment_stats_rank1.c) against the dense path (mkl/alignment_stats.c on the explicit n x n
 * matrices): a, ||K_c||_F^2, b, ||K||_F^2, both Gram matrices and the alignf weights agree to 1e-10
 * relative (CHECK_NEAR's tolerance is relative above 1), on features with non-zero means (so that
 * centring matters), with labels and with regression targets. */
#include <stdlib.h>

#include "check.h"
#include "core/rng.h"
#include "mkl/alignment_stats.h"
#include "mkl/nnls.h"

enum { N = 11, D = 6 };

typedef struct rank1_columns {
    const double *X;
} rank1_columns;

/* K_m(rows[k], i) = x_{rows[k], m} x_{i, m}, the dense path's view of the same kernels */
static km_status rank1_column(void *ctx, size_t m, size_t i, const size_t *rows, size_t nrows, double *out)
{
    const rank1_columns *c = ctx;
    for (size_t k = 0; k < nrows; k++)
        out[k] = c->X[(rows ? rows[k] : k) * D + m] * c->X[i * D + m];
    return KM_OK;
}

static void compare(const double *X, const double *y)
{
    rank1_columns c = {X};
    double theta[D] = {0};
    km_kernel_access access = {.n_rows = N, .n_kernels = D, .theta = theta, .column = rank1_column, .column_ctx = &c};
    km_alignment_stats dense, columns;
    CHECK_OK(km_alignment_stats_compute(&access, y, 1, &dense));
    CHECK_OK(km_alignment_stats_rank1(X, N, D, y, 1, &columns));
    CHECK_NEAR(columns.y_mean, dense.y_mean, 1e-14);
    CHECK_NEAR(columns.y_centred_sq, dense.y_centred_sq, 1e-10);
    for (size_t j = 0; j < D; j++) {
        CHECK_NEAR(columns.a[j], dense.a[j], 1e-10);
        CHECK_NEAR(columns.centred_sq[j], dense.centred_sq[j], 1e-10);
        CHECK_NEAR(columns.b[j], dense.b[j], 1e-10);
        CHECK_NEAR(columns.frobenius_sq[j], dense.frobenius_sq[j], 1e-10);
        CHECK_NEAR(km_alignment_rho(&columns, j), km_alignment_rho(&dense, j), 1e-10);
        for (size_t l = 0; l < D; l++) {
            CHECK_NEAR(columns.gram[j * D + l], dense.gram[j * D + l], 1e-10);
            CHECK_NEAR(columns.uncentred_gram[j * D + l], dense.uncentred_gram[j * D + l], 1e-10);
        }
    }
    /* the same alignf weights (Prop. 3.3) from either */
    double v_dense[D], v_columns[D];
    CHECK_OK(km_nonnegative_qp(D, dense.gram, dense.a, v_dense));
    CHECK_OK(km_nonnegative_qp(D, columns.gram, columns.a, v_columns));
    for (size_t j = 0; j < D; j++)
        CHECK_NEAR(v_columns[j], v_dense[j], 1e-10);
    /* without the Gram matrices: the same per-kernel values */
    km_alignment_stats light;
    CHECK_OK(km_alignment_stats_rank1(X, N, D, y, 0, &light));
    CHECK(light.gram == NULL);
    for (size_t j = 0; j < D; j++)
        CHECK_NEAR(light.a[j], columns.a[j], 0);
    km_alignment_stats_free(&light);
    km_alignment_stats_free(&columns);
    km_alignment_stats_free(&dense);
}

static void random_features(uint64_t seed, double *X, double *y, int labels)
{
    km_rng rng;
    km_rng_seed(&rng, seed);
    for (size_t i = 0; i < N; i++) {
        for (size_t j = 0; j < D; j++)
            X[i * D + j] = (double)j - 2.0 + 3.0 * km_rng_uniform(&rng);
        double t = X[i * D] - X[i * D + 3] + km_rng_uniform(&rng);
        y[i] = labels ? (t > 0 ? 1.0 : -1.0) : t;
    }
}

KM_TEST_CASE(rank1_stats_match_dense_labels)
{
    double X[N * D], y[N];
    random_features(12, X, y, 1);
    compare(X, y);
}

KM_TEST_CASE(rank1_stats_match_dense_regression)
{
    double X[N * D], y[N];
    random_features(34, X, y, 0);
    compare(X, y);
}

/* the identity <K_jc, K_lc>_F = (x_jc'x_lc)^2 on a hand example: x_1 = (1, 2, 3), x_2 = (0, 1, 5);
 * centred (-1, 0, 1) and (-2, -1, 3): x_1c'x_2c = 5, so M_12 = 25; ||x_1c||^2 = 2, M_11 = 4 */
KM_TEST_CASE(rank1_gram_hand_example)
{
    const double X[] = {1, 0, 2, 1, 3, 5}, y[] = {1, -1, 1};
    km_alignment_stats s;
    CHECK_OK(km_alignment_stats_rank1(X, 3, 2, y, 1, &s));
    CHECK_NEAR(s.gram[1], 25, 1e-12);
    CHECK_NEAR(s.gram[0], 4, 1e-12);
    /* y~ = (2/3, -4/3, 2/3): x_1c'y~ = 0, x_2c'y~ = -4/3 + 4/3 + 2 = 2 */
    CHECK_NEAR(s.a[0], 0, 1e-12);
    CHECK_NEAR(s.a[1], 4, 1e-12);
    km_alignment_stats_free(&s);
}
