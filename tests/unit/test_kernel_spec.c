/* Kernel spec language: expansion counts and values, canonical descriptions that read back to the
 * same kernel, spec files, and every parse error. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "kernel/kernel.h"
#include "kernelmix.h"

static km_kernel_set *parse(const char *spec)
{
    km_kernel_set *set;
    CHECK_OK(km_kernel_set_new(&set));
    CHECK_OK(km_kernel_set_add_spec(set, spec));
    return set;
}

static void test_grids(void)
{
    km_kernel_set *set = parse("rbf:gamma=2^-5..2^4");
    CHECK(km_kernel_set_size(set) == 10);
    for (size_t m = 0; m < set->size; m++) {
        CHECK(set->kernels[m].type == KM_KERNEL_RBF);
        CHECK(set->kernels[m].gamma_mode == KM_GAMMA_ABSOLUTE);
        CHECK_NEAR(set->kernels[m].gamma, pow(2.0, -5.0 + (double)m), 1e-15);
    }
    km_kernel_set_free(set);

    set = parse("rbf:gamma=2^-5..2^4/mean");
    CHECK(set->size == 10);
    CHECK(set->kernels[0].gamma_mode == KM_GAMMA_RELATIVE);
    CHECK_NEAR(set->kernels[0].gamma, 1.0 / 32.0, 1e-15);
    CHECK_NEAR(set->kernels[9].gamma, 16.0, 1e-15);
    km_kernel_set_free(set);

    set = parse("rbf");
    CHECK_OK(km_kernel_set_add_spec(set, "rbf:gamma=auto"));
    CHECK(set->size == 2);
    for (size_t m = 0; m < 2; m++) {
        CHECK(set->kernels[m].gamma_mode == KM_GAMMA_RELATIVE);
        CHECK(set->kernels[m].gamma == 1.0);
        CHECK(set->kernels[m].norm == KM_NORM_NONE && !set->kernels[m].center && !set->kernels[m].features);
    }
    km_kernel_set_free(set);

    set = parse("rbf:sigma=0.5,1,2");
    CHECK(set->size == 3);
    CHECK(set->kernels[0].gamma == 2.0 && set->kernels[1].gamma == 0.5 && set->kernels[2].gamma == 0.125);
    km_kernel_set_free(set);

    set = parse("poly:degree=1,2,3:coef0=1");
    CHECK(set->size == 3);
    for (size_t m = 0; m < 3; m++) {
        CHECK(set->kernels[m].type == KM_KERNEL_POLY);
        CHECK(set->kernels[m].degree == (double)(m + 1));
        CHECK(set->kernels[m].coef0 == 1.0);
        CHECK(set->kernels[m].gamma == 0.0);   /* LIBSVM default, resolved when fitted */
    }
    km_kernel_set_free(set);

    /* cross product, first key slowest; a..b in steps of 1 */
    set = parse("poly:degree=2..3:coef0=0,1:gamma=0.25");
    CHECK(set->size == 4);
    double expect[4][2] = {{2, 0}, {2, 1}, {3, 0}, {3, 1}};
    for (size_t m = 0; m < 4; m++) {
        CHECK(set->kernels[m].degree == expect[m][0] && set->kernels[m].coef0 == expect[m][1]);
        CHECK(set->kernels[m].gamma == 0.25);
    }
    km_kernel_set_free(set);

    set = parse("sigmoid:gamma=0.1:coef0=-1");
    CHECK(set->size == 1 && set->kernels[0].gamma == 0.1 && set->kernels[0].coef0 == -1.0);
    km_kernel_set_free(set);

    set = parse("rbf:gamma=0.5:norm=mult:center=1");
    CHECK(set->size == 1 && set->kernels[0].norm == KM_NORM_MULTIPLICATIVE && set->kernels[0].center == 1);
    CHECK(set->kernels[0].gamma == 0.5 && set->kernels[0].gamma_mode == KM_GAMMA_ABSOLUTE);
    km_kernel_set_free(set);

    set = parse("linear:norm=none,mult,spherical,trace");
    CHECK(set->size == 4);
    CHECK(set->kernels[1].norm == KM_NORM_MULTIPLICATIVE && set->kernels[2].norm == KM_NORM_SPHERICAL &&
          set->kernels[3].norm == KM_NORM_TRACE);
    km_kernel_set_free(set);

    set = parse("chi2");
    CHECK_OK(km_kernel_set_add_spec(set, "histint"));
    CHECK_OK(km_kernel_set_add_spec(set, "chi2:gamma=2/mean"));
    CHECK(set->size == 3);
    CHECK(set->kernels[0].type == KM_KERNEL_CHI2 && set->kernels[0].gamma_mode == KM_GAMMA_RELATIVE &&
          set->kernels[0].gamma == 1.0);
    CHECK(set->kernels[1].type == KM_KERNEL_HISTINT);
    CHECK(set->kernels[2].gamma == 2.0 && set->kernels[2].gamma_mode == KM_GAMMA_RELATIVE);
    km_kernel_set_free(set);

    set = parse("precomputed");
    CHECK(set->size == 1 && set->kernels[0].type == KM_KERNEL_PRECOMPUTED && !set->kernels[0].matrix &&
          !set->kernels[0].file);
    km_kernel_set_free(set);
}

static void test_features(void)
{
    km_kernel_set *set = parse("linear:features=1-10");
    CHECK(set->size == 1 && set->kernels[0].n_features == 10);
    for (uint32_t j = 0; j < 10; j++)
        CHECK(set->kernels[0].features[j] == j);
    km_kernel_set_free(set);

    set = parse("linear:features=1-5,8,10-12");
    uint32_t expect[] = {0, 1, 2, 3, 4, 7, 9, 10, 11};
    CHECK(set->kernels[0].n_features == 9);
    for (size_t j = 0; j < 9; j++)
        CHECK(set->kernels[0].features[j] == expect[j]);
    km_kernel_set_free(set);

    CHECK_OK(km_kernel_set_new(&set));
    CHECK_STATUS(km_kernel_set_add_spec(set, "linear:features=each"), KM_EINVAL);
    CHECK(strstr(km_last_error(), "features=each") != NULL);
    CHECK_OK(km_kernel_set_set_dimension(set, 4));
    CHECK_OK(km_kernel_set_add_spec(set, "linear:features=each:norm=mult"));
    CHECK(set->size == 4);
    for (size_t m = 0; m < 4; m++)
        CHECK(set->kernels[m].n_features == 1 && set->kernels[m].features[0] == m &&
              set->kernels[m].norm == KM_NORM_MULTIPLICATIVE);
    CHECK_STATUS(km_kernel_set_add_spec(set, "linear:features=2-5"), KM_EINVAL);
    CHECK(strstr(km_last_error(), "feature 5") != NULL);
    CHECK_OK(km_kernel_set_add_spec(set, "rbf:features=2,4:gamma=1,2"));
    CHECK(set->size == 6);
    /* a smaller dimension than a feature in use is refused */
    CHECK_STATUS(km_kernel_set_set_dimension(set, 3), KM_EINVAL);
    km_kernel_set_free(set);
}

/* Every parse error: KM_EINVAL, one line naming the spec and the problem, and the set unchanged. */
static void test_errors(void)
{
    static const struct { const char *spec, *problem; } cases[] = {
        {"foo", "unknown kernel type 'foo'"},
        {"", "empty kernel spec"},
        {"rbf:width=1", "unknown key 'width'"},
        {"rbf:degree=2", "'degree' is not valid for rbf"},
        {"linear:gamma=1", "'gamma' is not valid for linear"},
        {"precomputed:features=1", "'features' is not valid for precomputed"},
        {"rbf:gamma", "not KEY=VALUES"},
        {"rbf:gamma=", "has no value"},
        {"rbf:gamma=abc", "bad value 'abc'"},
        {"rbf:gamma=1,,2", "bad value ''"},
        {"rbf:gamma=0", "gamma must be positive"},
        {"rbf:gamma=-1", "gamma must be positive"},
        {"rbf:gamma=2^-1..2^-3", "empty grid"},
        {"poly:degree=3..1", "empty grid"},
        {"rbf:gamma=1..2^3", "mixes forms"},
        {"rbf:sigma=0", "sigma must be positive"},
        {"poly:degree=0", "degree must be a positive integer"},
        {"poly:degree=1.5", "degree must be a positive integer"},
        {"rbf:gamma=1:gamma=2", "'gamma' is given twice"},
        {"rbf:gamma=1:sigma=2", "either gamma or sigma"},
        {"linear:features=3,2", "ascending order"},
        {"linear:features=1-3,3", "ascending order"},
        {"linear:features=0", "numbered from 1"},
        {"linear:features=2-1", "bad feature range"},
        {"linear:features=a", "bad feature list"},
        {"linear:features=1-100000000", "more than 4194304 features"},
        {"linear:norm=unit", "unknown normalization 'unit'"},
        {"linear:center=2", "center must be 0 or 1"},
        {"linear:scale=2", "scale= needs norm=mult or norm=trace"},
        {"linear:norm=spherical:scale=2", "scale= needs norm=mult or norm=trace"},
        {"linear:norm=mult:scale=-1", "scale must be positive"},
        {"poly:gamma=1/mean", "'/mean') needs rbf or chi2"},
        {"precomputed:file=", "key 'file' has no value"},
    };
    km_kernel_set *set = parse("linear");
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        km_status st = km_kernel_set_add_spec(set, cases[c].spec);
        const char *message = km_last_error();
        if (st != KM_EINVAL || !strstr(message, cases[c].problem) || !strstr(message, cases[c].spec) ||
            strchr(message, '\n')) {
            fprintf(stderr, "spec '%s': status %d, message '%s', expected '%s'\n", cases[c].spec, (int)st, message,
                    cases[c].problem);
            check_failures++;
        }
        CHECK(set->size == 1);
    }
    km_kernel_set_free(set);
}

static void check_round_trip(const km_kernel_set *set)
{
    char first[512], second[512];
    for (size_t m = 0; m < set->size; m++) {
        size_t len = km_kernel_set_describe(set, m, first, sizeof first);
        CHECK(len == strlen(first));
        km_kernel_set *back = parse(first);
        CHECK(back->size == 1);
        km_kernel_set_describe(back, 0, second, sizeof second);
        if (strcmp(first, second) != 0) {
            fprintf(stderr, "describe round trip: '%s' -> '%s'\n", first, second);
            check_failures++;
        }
        const km_kernel *a = &set->kernels[m], *b = &back->kernels[0];
        CHECK(a->type == b->type && a->gamma == b->gamma && a->gamma_mode == b->gamma_mode);
        CHECK(a->coef0 == b->coef0 && a->norm == b->norm && a->center == b->center);
        CHECK(a->n_features == b->n_features);
        for (size_t j = 0; j < a->n_features && j < b->n_features; j++)
            CHECK(a->features[j] == b->features[j]);
        km_kernel_set_free(back);
    }
}

static void test_describe(void)
{
    km_kernel_set *set = parse("rbf:gamma=2^-5..2^-3:features=1-5,8,10-12:norm=mult");
    char buf[256];
    km_kernel_set_describe(set, 0, buf, sizeof buf);
    CHECK(strcmp(buf, "rbf:gamma=0.03125:features=1-5,8,10-12:norm=mult") == 0);
    /* truncation behaves like snprintf */
    size_t full = km_kernel_set_describe(set, 0, buf, 8);
    CHECK(full == strlen("rbf:gamma=0.03125:features=1-5,8,10-12:norm=mult") && strcmp(buf, "rbf:gam") == 0);
    check_round_trip(set);
    km_kernel_set_free(set);

    set = parse("rbf");
    CHECK_OK(km_kernel_set_add_spec(set, "poly:degree=2:coef0=1"));
    CHECK_OK(km_kernel_set_add_spec(set, "sigmoid:gamma=0.1:coef0=-0.3:norm=spherical:center=1"));
    CHECK_OK(km_kernel_set_add_spec(set, "chi2:gamma=0.5/mean:features=2"));
    CHECK_OK(km_kernel_set_add_spec(set, "histint:norm=trace:scale=2.5"));
    CHECK_OK(km_kernel_set_add_spec(set, "linear:norm=mult:scale=0.1"));
    CHECK_OK(km_kernel_set_add_spec(set, "rbf:sigma=3"));
    km_kernel_set_describe(set, 0, buf, sizeof buf);
    CHECK(strcmp(buf, "rbf:gamma=1/mean") == 0);
    km_kernel_set_describe(set, 1, buf, sizeof buf);
    CHECK(strcmp(buf, "poly:gamma=auto:degree=2:coef0=1") == 0);
    km_kernel_set_describe(set, 2, buf, sizeof buf);
    CHECK(strcmp(buf, "sigmoid:gamma=0.1:coef0=-0.29999999999999999:norm=spherical:center=1") == 0 ||
          strcmp(buf, "sigmoid:gamma=0.10000000000000001:coef0=-0.29999999999999999:norm=spherical:center=1") == 0 ||
          strcmp(buf, "sigmoid:gamma=0.1:coef0=-0.3:norm=spherical:center=1") == 0);
    km_kernel_set_describe(set, 4, buf, sizeof buf);
    CHECK(strcmp(buf, "histint:norm=trace:scale=2.5") == 0);
    CHECK(set->kernels[4].scale == 2.5 && !set->kernels[4].fitted);
    check_round_trip(set);
    CHECK(km_kernel_set_describe(set, 99, buf, sizeof buf) == 0 && buf[0] == '\0');
    km_kernel_set_free(set);
}

static void test_files(void)
{
    const char *path = "test_kernel_spec_kernels.txt";
    FILE *f = fopen(path, "w");
    fputs("# kernels for a test\n\n  rbf:gamma=2^-1..2^1\n\tlinear:features=1-2:norm=mult\n", f);
    fclose(f);
    km_kernel_set *set;
    CHECK_OK(km_kernel_set_new(&set));
    CHECK_OK(km_kernel_set_add_file(set, path));
    CHECK(set->size == 4);
    CHECK(set->kernels[3].type == KM_KERNEL_LINEAR && set->kernels[3].n_features == 2);

    f = fopen(path, "w");
    fputs("linear\n# comment\nrbf:gamma=-2\n", f);
    fclose(f);
    CHECK_STATUS(km_kernel_set_add_file(set, path), KM_EINVAL);
    char prefix[256];
    snprintf(prefix, sizeof prefix, "%s:3: kernel spec 'rbf:gamma=-2': gamma must be positive (got -2)", path);
    if (strcmp(km_last_error(), prefix) != 0) {
        fprintf(stderr, "spec file error: '%s', expected '%s'\n", km_last_error(), prefix);
        check_failures++;
    }
    CHECK(set->size == 4);   /* the file's first line is not kept either */
    unlink(path);
    CHECK_STATUS(km_kernel_set_add_file(set, path), KM_EIO);
    CHECK(strstr(km_last_error(), path) != NULL);
    km_kernel_set_free(set);
}

static void test_matrix_files(void)
{
    km_matrix *K;
    CHECK_OK(km_matrix_new(3, 3, &K));
    double values[9] = {2, 1, 0, 1, 3, 1, 0, 1, 4};
    memcpy(K->data, values, sizeof values);
    CHECK_OK(km_matrix_write(K, "test_kernel_spec_K1.bin", KM_FLOAT64));
    km_matrix_free(K);
    CHECK_OK(km_matrix_new(2, 3, &K));
    CHECK_OK(km_matrix_write(K, "test_kernel_spec_K2.bin", KM_FLOAT64));
    km_matrix_free(K);

    km_kernel_set *set = parse("precomputed:file=test_kernel_spec_K1.bin:norm=none,spherical");
    CHECK(set->size == 2);
    for (size_t m = 0; m < 2; m++) {
        CHECK(set->kernels[m].matrix && set->kernels[m].matrix->rows == 3);
        CHECK(set->kernels[m].matrix->data[4] == 3.0);
        CHECK(strcmp(set->kernels[m].file, "test_kernel_spec_K1.bin") == 0);
    }
    CHECK(set->kernels[0].owned_matrix && !set->kernels[1].owned_matrix);   /* read once, shared */
    char buf[256];
    km_kernel_set_describe(set, 1, buf, sizeof buf);
    CHECK(strcmp(buf, "precomputed:norm=spherical:file=test_kernel_spec_K1.bin") == 0);
    check_round_trip(set);
    CHECK_STATUS(km_kernel_set_add_spec(set, "precomputed:file=test_kernel_spec_K2.bin"), KM_EINVAL);
    CHECK(strstr(km_last_error(), "must be square") != NULL);
    CHECK(km_kernel_set_add_spec(set, "precomputed:file=test_kernel_spec_missing.bin") != KM_OK);
    CHECK(set->size == 2);
    km_kernel_set_free(set);

    /* in-memory matrices */
    CHECK_OK(km_kernel_set_new(&set));
    CHECK_OK(km_matrix_new(2, 3, &K));
    CHECK_STATUS(km_kernel_set_add_matrix(set, K, KM_NORM_NONE, 0), KM_EINVAL);
    km_matrix_free(K);
    CHECK_OK(km_matrix_new(3, 3, &K));
    CHECK_OK(km_kernel_set_add_matrix(set, K, KM_NORM_TRACE, 1));
    CHECK(set->size == 1 && set->kernels[0].matrix == K && !set->kernels[0].owned_matrix &&
          set->kernels[0].norm == KM_NORM_TRACE && set->kernels[0].center == 1);
    km_kernel_set_free(set);
    km_matrix_free(K);
    unlink("test_kernel_spec_K1.bin");
    unlink("test_kernel_spec_K2.bin");
}

KM_TEST_CASE(grids) { test_grids(); }
KM_TEST_CASE(features) { test_features(); }
KM_TEST_CASE(errors) { test_errors(); }
KM_TEST_CASE(describe) { test_describe(); }
KM_TEST_CASE(files) { test_files(); }
KM_TEST_CASE(matrix_files) { test_matrix_files(); }
