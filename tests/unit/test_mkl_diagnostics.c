/* MKL diagnostics against spec/lpmkl.md §9: test 7 (centred alignments of the T10 kernels with each
 * other and with the labels) and test 8 (global and local bound factors and the p they suggest). */
#include <math.h>
#include <string.h>

#include "check.h"
#include "kernelmix.h"
#include "mkl/diagnostics.h"

#define N 10
static const double X[N][2] = {{1.0, 0.5},   {2.0, -0.3}, {0.4, 1.5},   {1.2, 1.1},  {-0.2, 0.3},
                               {-1.0, -0.4}, {-1.6, 0.8}, {-0.5, -1.3}, {0.3, -0.8}, {-0.9, 0.2}};
static const double Y[N] = {1, 1, 1, 1, 1, -1, -1, -1, -1, -1};

/* T10: K1 linear on feature 1, K2 linear on feature 2, K3 = exp(-|x - x'|^2 / 2); kernel 3 of the
 * four-kernel variant is constant (its centred matrix is zero). */
static double t10_kernel(size_t m, size_t i, size_t j)
{
    double dx = X[i][0] - X[j][0], dy = X[i][1] - X[j][1];
    switch (m) {
    case 0: return X[i][0] * X[j][0];
    case 1: return X[i][1] * X[j][1];
    case 2: return exp(-(dx * dx + dy * dy) / 2);
    default: return 2.5;
    }
}

static km_status t10_column(void *ctx, size_t m, size_t i, const size_t *rows, size_t nrows, double *out)
{
    (void)ctx;
    for (size_t k = 0; k < nrows; k++)
        out[k] = t10_kernel(m, rows[k], i);
    return KM_OK;
}

static km_kernel_access t10_access(size_t M)
{
    km_kernel_access access = {.n_rows = N, .n_kernels = M, .column = t10_column};
    return access;
}

/* The definition, on explicit matrices: <HAH, HBH> / (|HAH| |HBH|). */
static void centre(double K[N][N])
{
    double row[N] = {0}, total = 0;
    for (size_t i = 0; i < N; i++)
        for (size_t j = 0; j < N; j++) {
            row[i] += K[i][j] / N;
            total += K[i][j] / (N * N);
        }
    for (size_t i = 0; i < N; i++)
        for (size_t j = 0; j < N; j++)
            K[i][j] += total - row[i] - row[j];
}

static double frobenius(double A[N][N], double B[N][N])
{
    double s = 0;
    for (size_t i = 0; i < N; i++)
        for (size_t j = 0; j < N; j++)
            s += A[i][j] * B[i][j];
    return s;
}

static void check_alignments(void)
{
    km_kernel_access access = t10_access(3);
    double matrix[9], target[3];
    CHECK_OK(km_alignments(&access, 1, Y, matrix, target));
    for (size_t m = 0; m < 3; m++) {
        CHECK_NEAR(matrix[m * 3 + m], 1.0, 1e-12);
        for (size_t k = 0; k < 3; k++)
            CHECK(matrix[m * 3 + k] == matrix[k * 3 + m]);
    }
    CHECK_NEAR(matrix[0 * 3 + 1], 0.012953, 1e-6);
    CHECK_NEAR(matrix[0 * 3 + 2], 0.644835, 1e-6);
    CHECK_NEAR(matrix[1 * 3 + 2], 0.545786, 1e-6);
    CHECK_NEAR(target[0], 0.580568, 1e-6);
    CHECK_NEAR(target[1], 0.310994, 1e-6);
    CHECK_NEAR(target[2], 0.604306, 1e-6);

    /* the class-indicator target (one column per class: YY' = "same class") has the same alignment,
     * since "same class" = (yy' + 11')/2 and H1 = 0 */
    double indicator[2 * N];
    for (size_t i = 0; i < N; i++) {
        indicator[2 * i] = Y[i] > 0;
        indicator[2 * i + 1] = Y[i] < 0;
    }
    double target2[3];
    CHECK_OK(km_alignments(&access, 2, indicator, NULL, target2));
    for (size_t m = 0; m < 3; m++)
        CHECK_NEAR(target2[m], target[m], 1e-12);

    /* against the definition for K3 and the real-valued SVR targets t = x1 + 0.5 x2 */
    double K[N][N], T[N][N], t[N];
    for (size_t i = 0; i < N; i++)
        t[i] = X[i][0] + 0.5 * X[i][1];
    for (size_t i = 0; i < N; i++)
        for (size_t j = 0; j < N; j++) {
            K[i][j] = t10_kernel(2, i, j);
            T[i][j] = t[i] * t[j];
        }
    centre(K);
    centre(T);
    double expected = frobenius(K, T) / sqrt(frobenius(K, K) * frobenius(T, T));
    double target3[3];
    CHECK_OK(km_alignments(&access, 1, t, NULL, target3));
    CHECK_NEAR(target3[2], expected, 1e-12);

    /* a constant kernel: centred matrix zero, alignment 0 with everything (itself included) */
    km_kernel_access four = t10_access(4);
    double m4[16], t4[4];
    CHECK_OK(km_alignments(&four, 1, Y, m4, t4));
    for (size_t k = 0; k < 4; k++)
        CHECK(m4[3 * 4 + k] == 0.0 && m4[k * 4 + 3] == 0.0);
    CHECK(t4[3] == 0.0);
    CHECK_NEAR(m4[0 * 4 + 2], 0.644835, 1e-6);
}

/* The same alignments from the alignment statistics (one pass pair for both), labels and real targets,
 * the constant kernel included; without the statistics' Gram matrix, the matrix is left alone. */
static void check_alignments_of_stats(void)
{
    km_kernel_access four = t10_access(4);
    double t[N];
    for (size_t i = 0; i < N; i++)
        t[i] = X[i][0] + 0.5 * X[i][1];
    const double *targets[2] = {Y, t};
    for (size_t v = 0; v < 2; v++) {
        double matrix[16], target[4], from_stats[16], target_from_stats[4];
        CHECK_OK(km_alignments(&four, 1, targets[v], matrix, target));
        km_alignment_stats stats;
        CHECK_OK(km_alignment_stats_compute(&four, targets[v], 1, &stats));
        km_alignments_of_stats(&stats, from_stats, target_from_stats);
        for (size_t k = 0; k < 16; k++)
            CHECK_NEAR(from_stats[k], matrix[k], 1e-12);
        for (size_t m = 0; m < 4; m++)
            CHECK_NEAR(target_from_stats[m], target[m], 1e-12);
        CHECK(target_from_stats[3] == 0.0 && from_stats[3 * 4 + 3] == 0.0);
        km_alignment_stats_free(&stats);
        CHECK_OK(km_alignment_stats_compute(&four, targets[v], 0, &stats));
        from_stats[1] = -7.0;
        km_alignments_of_stats(&stats, from_stats, target_from_stats);
        CHECK(from_stats[1] == -7.0);
        for (size_t m = 0; m < 4; m++)
            CHECK_NEAR(target_from_stats[m], target[m], 1e-12);
        km_alignment_stats_free(&stats);
    }
}

/* Toy of the seed (M = 50): k informative kernels of equal block norm. */
static void check_global_bound(void)
{
    double w[50];
    const size_t k_values[] = {4, 9, 18};
    const double p_opt[] = {1.2468, 1.4116, 1.9585};
    for (size_t c = 0; c < 3; c++) {
        size_t k = k_values[c];
        for (size_t m = 0; m < 50; m++)
            w[m] = m < k ? 1.0 : 0.0;
        km_bound_choice choice;
        km_bound_choose(50, w, 0.0, &choice);
        CHECK_NEAR(choice.p_block, p_opt[c], 1e-4);
        /* closed form of spec §8: p_opt = 2 ln(M/k) / (2 ln(M/k) - 1) */
        double l = 2 * log(50.0 / (double)k);
        CHECK_NEAR(choice.p_block, l / (l - 1), 1e-6);
        CHECK_NEAR(choice.p, choice.p_block / (2 - choice.p_block), 1e-12);
        CHECK(choice.flat_low == choice.p_block && choice.flat_high == choice.p_block);
        CHECK_NEAR(choice.factor, km_bound_global(50, choice.p_block, w), 1e-15);
        CHECK(choice.factor <= km_bound_global(50, choice.p_block + 1e-3, w));
        CHECK(choice.factor <= km_bound_global(50, choice.p_block - 1e-3, w));
    }
    /* k = 1: |w|_p = 1 for every p, flat minimum sqrt(2 e ln 50) on p in [1, 2 ln 50 / (2 ln 50 - 1)] */
    for (size_t m = 0; m < 50; m++)
        w[m] = m == 0 ? 3.0 : 0.0;
    km_bound_choice flat;
    km_bound_choose(50, w, 0.0, &flat);
    CHECK(flat.flat_low == 1.0);
    CHECK_NEAR(flat.flat_high, 1.14654, 1e-5);
    CHECK_NEAR(flat.flat_high, 2 * log(50.0) / (2 * log(50.0) - 1), 1e-6);
    CHECK(flat.p_block == flat.flat_high);
    CHECK_NEAR(flat.factor, 3 * 4.611720, 1e-6);
    CHECK_NEAR(flat.factor, 3 * sqrt(2 * exp(1.0) * log(50.0)), 1e-12);
    CHECK_NEAR(km_bound_global(50, 1.0, w), flat.factor, 1e-12);
    CHECK_NEAR(km_bound_global(50, flat.p_block, w), flat.factor, 1e-10);
    /* beyond the flat part the factor grows */
    CHECK(km_bound_global(50, 1.3, w) > flat.factor * (1 + 1e-6));

    /* M = 1: s = 1, nu = |w| */
    double one = 2.0;
    CHECK_NEAR(km_bound_global(1, 1.5, &one), 2.0, 1e-15);
}

/* Seed §4.4: alpha = 2, M = 1000, |w*_m| = m^-beta. */
static void check_local_bound(void)
{
    static double w[1000];
    const double betas[] = {2.0, 1.0, 0.5, 0.25};
    const double p_opt[] = {1.2077, 1.3910, 2.0, 2.0};
    for (size_t c = 0; c < 4; c++) {
        for (size_t m = 0; m < 1000; m++)
            w[m] = pow((double)(m + 1), -betas[c]);
        km_bound_choice choice;
        km_bound_choose(1000, w, 2.0, &choice);
        CHECK_NEAR(choice.p_block, p_opt[c], 1e-4);
        CHECK_NEAR(choice.factor, km_bound_local(1000, choice.p_block, 2.0, w), 1e-15);
    }
}

KM_TEST_CASE(alignments) { check_alignments(); }
KM_TEST_CASE(alignments_of_stats) { check_alignments_of_stats(); }
KM_TEST_CASE(global_bound) { check_global_bound(); }
KM_TEST_CASE(local_bound) { check_local_bound(); }
