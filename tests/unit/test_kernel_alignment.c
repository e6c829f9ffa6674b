/* km_kernel_alignment, the centred alignment of caller-held kernel matrices (Cortes, Mohri &
 * Rostamizadeh, JMLR 2012, Definitions 1 and 2): on the eight-point set S8 every value against the
 * definition with explicitly centred matrices U K U; the invariances A(K, aK + b) = 1 and A(K, K) = 1;
 * the "same class" target of three classes; float32 storage; and the refusals (not square, different
 * rows, asymmetric, non-finite, undefined alignments), each naming the kernel. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "kernelmix.h"
#include "s8_set.h"

/* <U A U, U B U>_F with U = I - 11'/n formed explicitly. */
static double centred_product(const double *A, const double *B)
{
    double U[S * S], UA[S * S], UB[S * S], Ac[S * S], Bc[S * S];
    for (int i = 0; i < S; i++)
        for (int j = 0; j < S; j++)
            U[i * S + j] = (i == j) - 1.0 / S;
    for (int i = 0; i < S; i++)
        for (int j = 0; j < S; j++) {
            UA[i * S + j] = UB[i * S + j] = 0;
            for (int k = 0; k < S; k++) {
                UA[i * S + j] += U[i * S + k] * A[k * S + j];
                UB[i * S + j] += U[i * S + k] * B[k * S + j];
            }
        }
    double dot = 0;
    for (int i = 0; i < S; i++)
        for (int j = 0; j < S; j++) {
            Ac[i * S + j] = Bc[i * S + j] = 0;
            for (int k = 0; k < S; k++) {
                Ac[i * S + j] += UA[i * S + k] * U[k * S + j];
                Bc[i * S + j] += UB[i * S + k] * U[k * S + j];
            }
            dot += Ac[i * S + j] * Bc[i * S + j];
        }
    return dot;
}

static double definition(const double *A, const double *B)
{
    return centred_product(A, B) / sqrt(centred_product(A, A) * centred_product(B, B));
}

/* The S8 kernels as float64 matrices (freed by free_matrices). */
static void s8_matrices(double K[KS][S * S], km_matrix *matrices[KS])
{
    s8_raw_kernels(K);
    for (int m = 0; m < KS; m++) {
        matrices[m] = NULL;
        CHECK_OK(km_matrix_wrap(S, S, KM_FLOAT64, K[m], &matrices[m]));
    }
}

static void free_matrices(km_matrix **matrices, int count)
{
    for (int m = 0; m < count; m++)
        km_matrix_free(matrices[m]);
}

KM_TEST_CASE(against_the_definition)
{
    double K[KS][S * S], yy[S * S], A[KS * KS], target[KS];
    km_matrix *matrices[KS];
    s8_matrices(K, matrices);
    for (int i = 0; i < S; i++)
        for (int j = 0; j < S; j++)
            yy[i * S + j] = s8_y[i] * s8_y[j];
    CHECK_OK(km_kernel_alignment((const km_matrix *const *)matrices, KS, 1, s8_y, A, target));
    for (int a = 0; a < KS; a++) {
        CHECK_NEAR(target[a], definition(K[a], yy), 1e-12);
        for (int b = 0; b < KS; b++)
            CHECK_NEAR(A[a * KS + b], definition(K[a], K[b]), 1e-12);
    }
    /* either output alone gives the same values */
    double A_only[KS * KS], target_only[KS];
    CHECK_OK(km_kernel_alignment((const km_matrix *const *)matrices, KS, 0, NULL, A_only, NULL));
    CHECK_OK(km_kernel_alignment((const km_matrix *const *)matrices, KS, 1, s8_y, NULL, target_only));
    for (int a = 0; a < KS; a++) {
        CHECK_NEAR(target_only[a], target[a], 1e-14);
        for (int b = 0; b < KS; b++)
            CHECK_NEAR(A_only[a * KS + b], A[a * KS + b], 1e-14);
    }
    free_matrices(matrices, KS);
}

/* Centring removes constants and the normalisation scales: A(K, 3K + 5) = 1; a kernel is aligned with
 * itself; real-valued targets y give A(K, yy') as the definition. */
KM_TEST_CASE(invariances_and_regression_targets)
{
    double K[KS][S * S], shifted[S * S], A[4], target[2], y[S], yy[S * S];
    km_matrix *matrices[KS], *pair[2];
    s8_matrices(K, matrices);
    for (int i = 0; i < S * S; i++)
        shifted[i] = 3 * K[2][i] + 5;
    for (int i = 0; i < S; i++)
        y[i] = 0.3 * i * i - 1.7;
    for (int i = 0; i < S; i++)
        for (int j = 0; j < S; j++)
            yy[i * S + j] = y[i] * y[j];
    pair[0] = matrices[2];
    CHECK_OK(km_matrix_wrap(S, S, KM_FLOAT64, shifted, &pair[1]));
    CHECK_OK(km_kernel_alignment((const km_matrix *const *)pair, 2, 1, y, A, target));
    CHECK_NEAR(A[1], 1.0, 1e-12);
    CHECK_NEAR(A[0], 1.0, 1e-12);
    CHECK_NEAR(A[3], 1.0, 1e-12);
    CHECK_NEAR(target[0], definition(K[2], yy), 1e-12);
    CHECK_NEAR(target[1], target[0], 1e-12);
    km_matrix_free(pair[1]);
    free_matrices(matrices, KS);
}

/* Three classes: the indicator columns' Y Y' is the "same class" kernel [y_i = y_j]. */
KM_TEST_CASE(same_class_target)
{
    static const int class_of[S] = {0, 1, 2, 0, 1, 2, 2, 0};
    double K[KS][S * S], Y[S * 3] = {0}, same[S * S], target[KS];
    km_matrix *matrices[KS];
    s8_matrices(K, matrices);
    for (int i = 0; i < S; i++) {
        Y[i * 3 + class_of[i]] = 1;
        for (int j = 0; j < S; j++)
            same[i * S + j] = class_of[i] == class_of[j];
    }
    CHECK_OK(km_kernel_alignment((const km_matrix *const *)matrices, KS, 3, Y, NULL, target));
    for (int m = 0; m < KS; m++)
        CHECK_NEAR(target[m], definition(K[m], same), 1e-12);
    free_matrices(matrices, KS);
}

/* float32 storage: the alignments of the rounded values. */
KM_TEST_CASE(float32_matrices)
{
    double K[KS][S * S], A64[KS * KS], A32[KS * KS];
    float K32[KS][S * S];
    km_matrix *matrices[KS], *floats[KS];
    s8_matrices(K, matrices);
    for (int m = 0; m < KS; m++) {
        for (int i = 0; i < S * S; i++)
            K32[m][i] = (float)K[m][i];
        CHECK_OK(km_matrix_wrap(S, S, KM_FLOAT32, K32[m], &floats[m]));
    }
    CHECK_OK(km_kernel_alignment((const km_matrix *const *)matrices, KS, 0, NULL, A64, NULL));
    CHECK_OK(km_kernel_alignment((const km_matrix *const *)floats, KS, 0, NULL, A32, NULL));
    for (int i = 0; i < KS * KS; i++)
        CHECK_NEAR(A32[i], A64[i], 1e-6);
    free_matrices(floats, KS);
    free_matrices(matrices, KS);
}

/* A refusal: KM_EINVAL with a message holding `words`. */
static void check_refused(const km_matrix *const *kernels, size_t M, size_t T, const double *targets, int matrix,
                          const char *words)
{
    double A[KS * KS] = {0}, target[KS] = {0};
    CHECK_STATUS(km_kernel_alignment(kernels, M, T, targets, matrix ? A : NULL, T ? target : NULL), KM_EINVAL);
    if (!strstr(km_last_error(), words)) {
        fprintf(stderr, "message '%s' lacks '%s'\n", km_last_error(), words);
        CHECK(0);
    }
}

KM_TEST_CASE(refusals)
{
    double K[KS][S * S], wide[S * (S + 1)] = {0}, small[4] = {1, 0, 0, 1}, ones[S * S], asym[S * S], y1[S];
    km_matrix *matrices[KS], *bad = NULL, *two[2];
    s8_matrices(K, matrices);
    check_refused(NULL, 0, 0, NULL, 1, "at least one kernel");
    CHECK_OK(km_matrix_wrap(S, S + 1, KM_FLOAT64, wide, &bad));
    two[0] = matrices[0], two[1] = bad;
    check_refused((const km_matrix *const *)two, 2, 0, NULL, 1, "kernel 2 is 8 x 9, not 8 x 8");
    km_matrix_free(bad);
    CHECK_OK(km_matrix_wrap(2, 2, KM_FLOAT64, small, &bad));
    two[1] = bad;
    check_refused((const km_matrix *const *)two, 2, 0, NULL, 1, "kernel 2 is 2 x 2, not 8 x 8");
    km_matrix_free(bad);
    memcpy(asym, K[1], sizeof asym);
    asym[1 * S + 5] += 1e-3;
    CHECK_OK(km_matrix_wrap(S, S, KM_FLOAT64, asym, &bad));
    two[1] = bad;
    check_refused((const km_matrix *const *)two, 2, 0, NULL, 1, "kernel 2 is not symmetric: K[6][2]");
    asym[1 * S + 5] = NAN;
    check_refused((const km_matrix *const *)two, 2, 0, NULL, 1, "kernel 2 has the value nan");
    km_matrix_free(bad);
    for (int i = 0; i < S * S; i++)
        ones[i] = 2.5;
    CHECK_OK(km_matrix_wrap(S, S, KM_FLOAT64, ones, &bad));
    two[1] = bad;
    check_refused((const km_matrix *const *)two, 2, 0, NULL, 1, "kernel 2 is undefined");
    check_refused((const km_matrix *const *)two, 2, 1, s8_y, 0, "kernel 2 is undefined");
    km_matrix_free(bad);
    for (int i = 0; i < S; i++)
        y1[i] = 0.1;
    check_refused((const km_matrix *const *)matrices, KS, 1, y1, 0, "with the targets is undefined");
    check_refused((const km_matrix *const *)matrices, KS, 1, NULL, 0, "need the targets");
    y1[3] = INFINITY;
    check_refused((const km_matrix *const *)matrices, KS, 1, y1, 0, "target 1 of row 4 is inf");
    free_matrices(matrices, KS);
}
