/* The string kernels (spectrum, weighted degree, positional) against direct computations from their
 * definitions on small random strings; normalizations; training and prediction on string rows, and
 * the model file round trip of string support vectors. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "kernel/provider.h"
#include "kernelmix.h"

#define N_STRINGS 9

static char strings[N_STRINGS][40];
static const char *string_ptrs[N_STRINGS];

/* Random strings over ACGT, lengths 14..20 (rows 0..5 all of length 17, for position-wise kernels);
 * two pairs share long stretches so that long matches occur. */
static km_dataset *random_strings(int equal_lengths)
{
    unsigned state = 12345;
    for (size_t i = 0; i < N_STRINGS; i++) {
        size_t len = equal_lengths || i < 6 ? 17 : 14 + (i % 7);
        for (size_t p = 0; p < len; p++) {
            state = state * 1103515245u + 12345u;
            strings[i][p] = "ACGT"[(state >> 16) & 3];
        }
        strings[i][len] = '\0';
        string_ptrs[i] = strings[i];
    }
    memcpy(strings[1] + 2, strings[0] + 2, 12);    /* a long run at equal positions */
    memcpy(strings[3] + 5, strings[2] + 3, 10);    /* a long run shifted by 2 */
    km_dataset *data = NULL;
    double labels[N_STRINGS];
    for (size_t i = 0; i < N_STRINGS; i++)
        labels[i] = i % 2 ? 1 : -1;
    CHECK_OK(km_dataset_from_strings(N_STRINGS, string_ptrs, NULL, labels, &data));
    return data;
}

/* --- direct computations from the definitions --- */

static double brute_spectrum(const char *x, const char *y, size_t k)
{
    size_t lx = strlen(x), ly = strlen(y);
    double total = 0;
    for (size_t i = 0; i + k <= lx; i++)
        for (size_t j = 0; j + k <= ly; j++)
            total += memcmp(x + i, y + j, k) == 0;
    return total;
}

/* 1[x[a..a+d) = y[b..b+d)] where both fit */
static double match(const char *x, size_t a, const char *y, size_t b, size_t d)
{
    return a + d <= strlen(x) && b + d <= strlen(y) && memcmp(x + a, y + b, d) == 0;
}

/* sum_l [1[u_{l,d}(x) = u_{l,d}(y)] + sum_{s=1..S} (1[u_{l+s,d}(x) = u_{l,d}(y)] + 1[u_{l,d}(x) = u_{l+s,d}(y)])
 * / (2 (s + 1))] over the positions l of the shorter string */
static double brute_single_degree(const char *x, const char *y, size_t d, size_t shift)
{
    size_t L = strlen(x) < strlen(y) ? strlen(x) : strlen(y);
    double total = 0;
    for (size_t l = 0; l < L; l++) {
        total += match(x, l, y, l, d);
        for (size_t s = 1; s <= shift; s++)
            total += (match(x, l + s, y, l, d) + match(x, l, y, l + s, d)) / (2.0 * (double)(s + 1));
    }
    return total;
}

static double brute_wd(const char *x, const char *y, size_t D, size_t shift)
{
    double total = 0;
    for (size_t d = 1; d <= D; d++)
        total += 2.0 * (double)(D - d + 1) / ((double)D * (double)(D + 1)) * brute_single_degree(x, y, d, shift);
    return total;
}

/* The N x N matrix of the single kernel of spec on data. */
static km_matrix *kernel_matrix(const char *spec, const km_dataset *data)
{
    km_kernel_set *set = NULL, *fitted = NULL;
    km_matrix *K = NULL;
    CHECK_OK(km_kernel_set_new(&set));
    CHECK_OK(km_kernel_set_add_spec(set, spec));
    CHECK(km_kernel_set_size(set) == 1);
    CHECK_OK(km_kernel_set_fit(set, data, &fitted));
    if (fitted)
        CHECK_OK(km_kernel_matrix(fitted, 0, data, data, &K));
    km_kernel_set_free(fitted);
    km_kernel_set_free(set);
    return K;
}

/* The largest |K - brute| over all pairs, relative to the largest |brute|. */
static double worst_error(const char *spec, const km_dataset *data, double (*brute)(const char *, const char *,
                                                                                      size_t, size_t),
                          size_t a, size_t b)
{
    km_matrix *K = kernel_matrix(spec, data);
    if (!K)
        return INFINITY;
    double worst = 0, largest = 0;
    for (size_t i = 0; i < N_STRINGS; i++)
        for (size_t j = 0; j < N_STRINGS; j++) {
            double want = brute(strings[i], strings[j], a, b);
            if (fabs(want) > largest)
                largest = fabs(want);
            if (fabs(km_matrix_value(K, i, j) - want) > worst)
                worst = fabs(km_matrix_value(K, i, j) - want);
        }
    km_matrix_free(K);
    return largest > 0 ? worst / largest : worst;
}

static double spectrum_of(const char *x, const char *y, size_t k, size_t unused)
{
    (void)unused;
    return brute_spectrum(x, y, k);
}

KM_TEST_CASE(spectrum_equals_kmer_pair_count)
{
    km_dataset *data = random_strings(0);
    char spec[64];
    for (size_t k = 1; k <= 6; k++) {
        snprintf(spec, sizeof spec, "spectrum:k=%zu", k);
        CHECK(worst_error(spec, data, spectrum_of, k, 0) == 0.0);
    }
    /* "AAAA" has 3 AA's, "AAC" 1: 3; k longer than a string: no k-mers */
    const char *const s[] = {"AAAA", "AAC", "AC"};
    km_dataset *small = NULL;
    CHECK_OK(km_dataset_from_strings(3, s, NULL, NULL, &small));
    km_matrix *K = kernel_matrix("spectrum:k=2", small);
    if (K)
        CHECK(km_matrix_value(K, 0, 1) == 3 && km_matrix_value(K, 0, 0) == 9 && km_matrix_value(K, 2, 2) == 1 &&
              km_matrix_value(K, 0, 2) == 0);
    km_matrix_free(K);
    K = kernel_matrix("spectrum:k=3", small);
    if (K)
        CHECK(km_matrix_value(K, 2, 2) == 0 && km_matrix_value(K, 0, 0) == 4);
    km_matrix_free(K);
    km_dataset_free(small);
    km_dataset_free(data);
}

KM_TEST_CASE(positional_run_length_equals_brute_force)
{
    km_dataset *data = random_strings(0);
    char spec[64];
    for (size_t shift = 0; shift <= 3; shift += 3)
        for (size_t d = 1; d <= 8; d++) {
            snprintf(spec, sizeof spec, "positional:degree=%zu:shift=%zu", d, shift);
            CHECK(worst_error(spec, data, brute_single_degree, d, shift) < 1e-14);
        }
    km_dataset_free(data);
}

/* The positional kernels of one shift come from one pass over each pair (the provider computes their
 * columns together, any cache size): the same values, to the last bit, as each kernel alone, and the
 * definition's. The kernels of two shifts and a wd kernel interleave, so that each set has gaps. */
KM_TEST_CASE(positional_degrees_together_equal_each_alone)
{
    km_dataset *data = random_strings(0);
    const char *const specs[] = {"positional:degree=1..3", "positional:degree=2:shift=3", "wd:degree=3:shift=1",
                                 "positional:degree=7..9", "positional:degree=5:shift=3", "positional:degree=12"};
    km_kernel_set *set = NULL;
    CHECK_OK(km_kernel_set_new(&set));
    for (size_t t = 0; t < sizeof specs / sizeof specs[0]; t++)
        CHECK_OK(km_kernel_set_add_spec(set, specs[t]));
    size_t M = km_kernel_set_size(set), n = N_STRINGS, column_bytes = n * sizeof(double);
    double col[N_STRINGS];
    size_t rows[N_STRINGS];
    for (size_t r = 0; r < n; r++)
        rows[r] = (r * 4 + 1) % n;   /* a permutation */
    for (size_t cache = 0; cache < 3; cache++) {
        km_provider *p = NULL;
        size_t bytes[] = {1, 3 * column_bytes, 1u << 20};
        CHECK_OK(km_provider_new(data, NULL, 0, set, bytes[cache], NULL, &p));
        if (!p)
            break;
        const km_kernel_set *fitted = km_provider_fitted_set(p);
        km_matrix *K[16] = {NULL};   /* each kernel alone: its values by the family's value */
        CHECK(M <= 16);
        for (size_t m = 0; m < M && m < 16; m++)
            CHECK_OK(km_kernel_matrix(fitted, m, data, data, &K[m]));
        for (size_t i = 0; i < n; i++)
            for (size_t m = (i * 5) % M, t = 0; t < M; t++, m = (m + 1) % M) {   /* every kernel, from a different one */
                const km_kernel *k = &fitted->kernels[m];
                CHECK_OK(km_provider_column(p, m, i, rows, n, col));
                for (size_t r = 0; K[m] && r < n; r++) {
                    CHECK(col[r] == km_matrix_value(K[m], rows[r], i));
                    double want = brute_single_degree(strings[rows[r]], strings[i], (size_t)k->degree, k->shift);
                    if (k->type == KM_KERNEL_POSITIONAL)
                        CHECK(fabs(col[r] - want) <= 1e-14 * fmax(1.0, want));
                }
            }
        for (size_t m = 0; m < M && m < 16; m++)
            km_matrix_free(K[m]);
        km_provider_free(p);
    }
    km_kernel_set_free(set);
    km_dataset_free(data);
}

KM_TEST_CASE(wd_equals_weighted_sum_of_degrees)
{
    km_dataset *data = random_strings(0);
    char spec[64];
    const size_t degrees[] = {1, 2, 5, 20};
    for (size_t shift = 0; shift <= 2; shift += 2)
        for (size_t t = 0; t < 4; t++) {
            snprintf(spec, sizeof spec, "wd:degree=%zu:shift=%zu", degrees[t], shift);
            CHECK(worst_error(spec, data, brute_wd, degrees[t], shift) < 1e-13);
        }
    /* identical strings of length L: sum_d w_d (L - d + 1) = L - (D - 1)/3 (closed form of the weights) */
    const char *const same[] = {"ACGTACGTACGT", "ACGTACGTACGT"};
    km_dataset *two = NULL;
    CHECK_OK(km_dataset_from_strings(2, same, NULL, NULL, &two));
    km_matrix *K = kernel_matrix("wd:degree=4", two);
    if (K)
        CHECK_NEAR(km_matrix_value(K, 0, 1), 12.0 - 3.0 / 3.0, 1e-12);
    km_matrix_free(K);
    km_dataset_free(two);
    km_dataset_free(data);
}

KM_TEST_CASE(degree_range_gives_one_kernel_per_degree)
{
    km_kernel_set *set = NULL;
    CHECK_OK(km_kernel_set_new(&set));
    CHECK_OK(km_kernel_set_add_spec(set, "pos:degree=1..20:norm=mult"));
    CHECK_OK(km_kernel_set_add_spec(set, "spectrum:k=2,4"));
    CHECK(km_kernel_set_size(set) == 22);
    char text[128];
    km_kernel_set_describe(set, 19, text, sizeof text);
    CHECK(!strcmp(text, "positional:degree=20:norm=mult"));
    km_kernel_set_describe(set, 21, text, sizeof text);
    CHECK(!strcmp(text, "spectrum:k=4"));
    CHECK_OK(km_kernel_set_add_spec(set, "wd:degree=3:shift=2"));
    km_kernel_set_describe(set, 22, text, sizeof text);
    CHECK(!strcmp(text, "wd:degree=3:shift=2"));
    CHECK_STATUS(km_kernel_set_add_spec(set, "spectrum:k=0"), KM_EINVAL);
    CHECK(strstr(km_last_error(), "k must be a positive integer"));
    CHECK_STATUS(km_kernel_set_add_spec(set, "wd:shift=-1"), KM_EINVAL);
    CHECK_STATUS(km_kernel_set_add_spec(set, "spectrum:degree=2"), KM_EINVAL);
    CHECK(strstr(km_last_error(), "key 'degree' is not valid for spectrum kernels"));
    CHECK_STATUS(km_kernel_set_add_spec(set, "rbf:k=2"), KM_EINVAL);
    CHECK(km_kernel_set_size(set) == 23);
    km_kernel_set_free(set);
}

/* Spherical: K_ij / sqrt(K_ii K_jj); multiplicative: (1/n) sum K_ii - (1/n^2) sum K = 1 on the training rows. */
KM_TEST_CASE(normalizations_of_string_kernels)
{
    km_dataset *data = random_strings(0);
    km_matrix *raw = kernel_matrix("spectrum:k=3", data), *sph = kernel_matrix("spectrum:k=3:norm=spherical", data);
    double worst = 0;
    for (size_t i = 0; raw && sph && i < N_STRINGS; i++)
        for (size_t j = 0; j < N_STRINGS; j++) {
            double want = km_matrix_value(raw, i, j) / sqrt(km_matrix_value(raw, i, i) * km_matrix_value(raw, j, j));
            worst = fmax(worst, fabs(km_matrix_value(sph, i, j) - want));
        }
    CHECK(raw && sph && worst < 1e-15);
    km_matrix_free(raw);
    km_matrix_free(sph);
    const char *const specs[] = {"pos:degree=3:norm=mult", "wd:degree=20:shift=1:norm=mult", "spectrum:k=2:norm=mult"};
    for (size_t t = 0; t < 3; t++) {
        km_matrix *K = kernel_matrix(specs[t], data);
        double trace = 0, total = 0;
        for (size_t i = 0; K && i < N_STRINGS; i++) {
            trace += km_matrix_value(K, i, i);
            for (size_t j = 0; j < N_STRINGS; j++)
                total += km_matrix_value(K, i, j);
        }
        CHECK(K != NULL);
        CHECK_NEAR(trace / N_STRINGS - total / (N_STRINGS * N_STRINGS), 1.0, 1e-12);
        km_matrix_free(K);
    }
    km_dataset_free(data);
}

KM_TEST_CASE(string_kernel_on_numeric_rows_is_refused)
{
    const double X[] = {1, 2, 3, 4};
    km_dataset *dense = NULL;
    km_kernel_set *set = NULL, *fitted = NULL;
    CHECK_OK(km_dataset_from_dense(2, 2, X, NULL, &dense));
    CHECK_OK(km_kernel_set_new(&set));
    CHECK_OK(km_kernel_set_add_spec(set, "wd:degree=2"));
    CHECK_STATUS(km_kernel_set_fit(set, dense, &fitted), KM_EINVAL);
    CHECK(strstr(km_last_error(), "kernel wd:degree=2: the data has no string rows"));
    km_kernel_set_free(set);
    km_dataset_free(dense);
}

/* Two classes told apart by a motif at a fixed position: the WD and spectrum kernels learn it; the
 * model file keeps the string support vectors, and a saved and reloaded model predicts the same. */
KM_TEST_CASE(train_predict_and_model_file_on_strings)
{
    enum { N = 60, L = 30 };
    char text[N][L + 1];
    const char *rows[N];
    double y[N];
    unsigned state = 99;
    for (size_t i = 0; i < N; i++) {
        for (size_t p = 0; p < L; p++) {
            state = state * 1103515245u + 12345u;
            text[i][p] = "ACGT"[(state >> 16) & 3];
        }
        text[i][L] = '\0';
        y[i] = i % 2 ? 1 : -1;
        if (y[i] > 0)
            memcpy(text[i] + 12, "GATTACA", 7);
        rows[i] = text[i];
    }
    km_dataset *data = NULL;
    km_kernel_set *set = NULL;
    km_params *params = NULL;
    km_model *model = NULL, *loaded = NULL;
    CHECK_OK(km_dataset_from_strings(N, rows, NULL, y, &data));
    CHECK_OK(km_kernel_set_new(&set));
    CHECK_OK(km_kernel_set_add_spec(set, "wd:degree=8:norm=spherical"));
    CHECK_OK(km_kernel_set_add_spec(set, "spectrum:k=4:norm=spherical"));
    CHECK_OK(km_params_new(&params));
    CHECK_OK(km_params_set_double(params, KM_PARAM_C, 10));
    CHECK_OK(km_train(data, set, params, &model));
    if (model) {
        double predicted[N], decision[N], again[N], decision_again[N];
        CHECK_OK(km_predict(model, data, NULL, predicted, decision));
        CHECK(km_accuracy(y, predicted, N) == 1.0);
        CHECK_OK(km_model_save(model, "strings.model"));
        CHECK_OK(km_model_load("strings.model", &loaded));
        if (loaded) {
            CHECK_OK(km_predict(loaded, data, NULL, again, decision_again));
            CHECK(!memcmp(decision, decision_again, sizeof decision));
            char spec[64];
            km_model_kernel_describe(loaded, 1, spec, sizeof spec);
            CHECK(!strncmp(spec, "spectrum:k=4:norm=spherical", 27));
        }
        /* fresh strings with and without the motif */
        char fresh[2][L + 1];
        memcpy(fresh[0], text[0], L + 1);
        memcpy(fresh[1], text[2], L + 1);
        memcpy(fresh[1] + 12, "GATTACA", 7);
        const char *fresh_rows[] = {fresh[0], fresh[1]};
        km_dataset *test = NULL;
        CHECK_OK(km_dataset_from_strings(2, fresh_rows, NULL, NULL, &test));
        double labels[2];
        if (test)
            CHECK_OK(km_predict(model, test, NULL, labels, NULL));
        CHECK(test && labels[0] == -1 && labels[1] == 1);
        km_dataset_free(test);
    }
    remove("strings.model");
    km_model_free(loaded);
    km_model_free(model);
    km_params_free(params);
    km_kernel_set_free(set);
    km_dataset_free(data);
}
