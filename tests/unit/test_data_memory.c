/* Datasets from memory: compressed sparse rows as scipy holds them (checked as the readers check
 * files, used without a copy on 64-bit platforms, and training on them gives the model the LIBSVM file
 * of the same rows gives), and string rows. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/params.h"
#include "kernelmix.h"

/* 4 x 5 matrix:  [0 1.5 0 0 -2; 0 0 0 0 0; 3 0 0 0.25 0; 0 0 7 0 1] */
static const int64_t indptr[] = {0, 2, 2, 4, 6};
static const int32_t indices[] = {1, 4, 0, 3, 2, 4};
static double values[] = {1.5, -2, 3, 0.25, 7, 1};
static const double labels[] = {1, -1, 1, -1};

static void test_csr_values(void)
{
    km_dataset *data = NULL;
    CHECK_OK(km_dataset_from_csr(4, 5, indptr, indices, values, labels, &data));
    if (!data)
        return;
    CHECK(km_dataset_rows(data) == 4 && km_dataset_dim(data) == 5);
    CHECK(km_dataset_value(data, 0, 1) == 1.5 && km_dataset_value(data, 0, 4) == -2);
    CHECK(km_dataset_value(data, 1, 0) == 0 && km_dataset_value(data, 2, 3) == 0.25);
    CHECK(km_dataset_value(data, 3, 2) == 7 && km_dataset_value(data, 3, 3) == 0);
    CHECK(km_dataset_labels(data) != labels && km_dataset_labels(data)[1] == -1);
    /* the values are the caller's where size_t is 64-bit: a change shows */
    if (sizeof(size_t) == sizeof(int64_t)) {
        values[5] = 2;
        CHECK(km_dataset_value(data, 3, 4) == 2);
        values[5] = 1;
    }
    /* a subset owns its rows */
    size_t rows[] = {3, 0};
    km_dataset *sub = NULL;
    CHECK_OK(km_dataset_subset(data, rows, 2, &sub));
    km_dataset_free(data);
    if (sub)
        CHECK(km_dataset_value(sub, 0, 2) == 7 && km_dataset_value(sub, 1, 1) == 1.5 && km_dataset_labels(sub)[0] == -1);
    km_dataset_free(sub);
    /* no stored values at all: indices and values may be NULL */
    const int64_t empty[] = {0, 0, 0};
    CHECK_OK(km_dataset_from_csr(2, 3, empty, NULL, NULL, NULL, &data));
    if (data)
        CHECK(km_dataset_value(data, 1, 2) == 0 && km_dataset_labels(data) == NULL);
    km_dataset_free(data);
}

/* One bad CSR: KM_EINVAL, no dataset, and the message names the fault. */
static void check_bad(size_t n, size_t d, const int64_t *ptr, const int32_t *idx, const double *val,
                      const double *lab, const char *expected)
{
    km_dataset *data = (km_dataset *)&data;
    CHECK_STATUS(km_dataset_from_csr(n, d, ptr, idx, val, lab, &data), KM_EINVAL);
    CHECK(data == NULL);
    if (!strstr(km_last_error(), expected)) {
        fprintf(stderr, "message \"%s\" does not contain \"%s\"\n", km_last_error(), expected);
        check_failures++;
    }
}

static void test_csr_checks(void)
{
    const int64_t ptr[] = {0, 2, 3}, bad_start[] = {1, 2, 3}, decreasing[] = {0, 2, 1};
    const int32_t unsorted[] = {3, 1, 0}, repeated[] = {1, 1, 0}, negative[] = {-1, 1, 0}, wide[] = {1, 5, 0};
    const int32_t fine[] = {1, 3, 0};
    const double val[] = {1, 2, 3}, nan_val[] = {1, 0.0 / 0.0, 3}, nan_label[] = {1, 1.0 / 0.0};
    check_bad(2, 5, ptr, unsorted, val, NULL, "row 1: column indices not strictly ascending (1 after 3");
    check_bad(2, 5, ptr, repeated, val, NULL, "sum_duplicates");
    check_bad(2, 5, ptr, negative, val, NULL, "row 1: column -1 is not within 0..4");
    check_bad(2, 5, ptr, wide, val, NULL, "row 1: column 5 is not within 0..4");
    check_bad(2, 5, bad_start, fine, val, NULL, "indptr[0] is 1, not 0");
    check_bad(2, 5, decreasing, fine, val, NULL, "indptr decreases at row 2");
    check_bad(2, 5, ptr, fine, nan_val, NULL, "row 1, column 4 is not a finite number");
    check_bad(2, 5, ptr, fine, val, nan_label, "the label of row 2 is not a finite number");
    check_bad(0, 5, ptr, fine, val, NULL, "empty matrix");
    check_bad(2, (size_t)1 << 32, ptr, fine, val, NULL, "column indices are 32-bit");
    check_bad(2, 5, ptr, NULL, val, NULL, "without indices or values");
}

/* A model trained on the CSR rows is the model of the LIBSVM file of the same rows. */
static void test_csr_training(void)
{
    enum { N = 40, D = 6 };
    int64_t ptr[N + 1] = {0};
    int32_t idx[N * D];
    double val[N * D], y[N];
    FILE *f = fopen("test_data_memory.svm", "w");
    for (size_t i = 0; i < N; i++) {
        y[i] = i % 3 ? 1 : -1;
        fprintf(f, "%g", y[i]);
        ptr[i + 1] = ptr[i];
        for (int j = 0; j < D; j++)
            if ((i * 7 + (size_t)j * 3) % 4 != 0) {
                double v = ((double)((i * 13 + (size_t)j * 5) % 17) - 8) / 8 + y[i] * (j == 0);
                idx[ptr[i + 1]] = j;
                val[ptr[i + 1]++] = v;
                fprintf(f, " %d:%.17g", j + 1, v);
            }
        fprintf(f, "\n");
    }
    fclose(f);
    km_dataset *csr = NULL, *file = NULL;
    km_kernel_set *set = NULL;
    km_model *a = NULL, *b = NULL;
    km_params params = km_params_default();
    CHECK_OK(km_dataset_from_csr(N, D, ptr, idx, val, y, &csr));
    CHECK_OK(km_dataset_read_libsvm("test_data_memory.svm", 0, &file));
    CHECK_OK(km_kernel_set_new(&set));
    CHECK_OK(km_kernel_set_add_spec(set, "rbf:gamma=0.5"));
    CHECK_OK(km_kernel_set_add_spec(set, "linear"));
    if (csr && file && set) {
        CHECK_OK(km_train(csr, set, &params, &a));
        CHECK_OK(km_train(file, set, &params, &b));
    }
    if (a && b) {
        double da[N], db[N];
        CHECK_OK(km_predict(a, file, NULL, NULL, da));
        CHECK_OK(km_predict(b, csr, NULL, NULL, db));
        CHECK(!memcmp(da, db, sizeof da));
        CHECK(km_model_bias(a, 0) == km_model_bias(b, 0) && km_model_n_sv(a, 0) == km_model_n_sv(b, 0));
    }
    remove("test_data_memory.svm");
    km_model_free(a);
    km_model_free(b);
    km_kernel_set_free(set);
    km_dataset_free(csr);
    km_dataset_free(file);
}

static void test_strings(void)
{
    const char *const seqs[] = {"ACGT", "", "GATTACA", "A\0C"};
    const size_t lengths[] = {4, 0, 7, 3};
    const double y[] = {1, -1, 1, 2};
    km_dataset *data = NULL, *terminated = NULL, *sub = NULL;
    CHECK_OK(km_dataset_from_strings(4, seqs, lengths, y, &data));
    if (!data)
        return;
    size_t len = 99;
    CHECK(km_dataset_rows(data) == 4 && km_dataset_dim(data) == 0);
    CHECK(!strcmp(km_dataset_string(data, 0, &len), "ACGT") && len == 4);
    CHECK(!strcmp(km_dataset_string(data, 1, &len), "") && len == 0);
    CHECK(!memcmp(km_dataset_string(data, 3, &len), "A\0C", 4) && len == 3);
    CHECK(km_dataset_string(data, 4, &len) == NULL && km_dataset_labels(data)[3] == 2);
    CHECK(km_dataset_string(data, 2, NULL) != seqs[2]);   /* copied */
    size_t rows[] = {2, 2, 0};
    CHECK_OK(km_dataset_subset(data, rows, 3, &sub));
    if (sub) {
        CHECK(!strcmp(km_dataset_string(sub, 1, &len), "GATTACA") && len == 7);
        CHECK(!strcmp(km_dataset_string(sub, 2, NULL), "ACGT") && km_dataset_labels(sub)[2] == 1);
    }
    CHECK_OK(km_dataset_from_strings(3, seqs, NULL, NULL, &terminated));
    if (terminated)
        CHECK(!strcmp(km_dataset_string(terminated, 2, &len), "GATTACA") && len == 7 &&
              km_dataset_labels(terminated) == NULL);
    km_dataset *dense = NULL;
    const double X[] = {1, 2};
    CHECK_OK(km_dataset_from_dense(1, 2, X, NULL, &dense));
    CHECK(dense && km_dataset_string(dense, 0, NULL) == NULL);
    const char *const with_null[] = {"A", NULL};
    const double bad_label[] = {1, 1.0 / 0.0};
    km_dataset *none = (km_dataset *)&none;
    CHECK_STATUS(km_dataset_from_strings(2, with_null, NULL, NULL, &none), KM_EINVAL);
    CHECK(none == NULL && strstr(km_last_error(), "string 2 is NULL"));
    CHECK_STATUS(km_dataset_from_strings(2, seqs, NULL, bad_label, &none), KM_EINVAL);
    CHECK_STATUS(km_dataset_from_strings(0, seqs, NULL, NULL, &none), KM_EINVAL);
    km_dataset_free(dense);
    km_dataset_free(terminated);
    km_dataset_free(sub);
    km_dataset_free(data);
}

KM_TEST_CASE(csr_values) { test_csr_values(); }
KM_TEST_CASE(csr_checks) { test_csr_checks(); }
KM_TEST_CASE(csr_training) { test_csr_training(); }
KM_TEST_CASE(strings) { test_strings(); }
