/* Models written in format version 1 by an earlier kernelmix (tests/data/model-v1, generate.sh) keep
 * loading, and predict the labels and decision values that kernelmix printed when it wrote them: a
 * binary C-SVC with fixed weights (sparse basis), one-vs-one MKL on dense CSV rows, epsilon-SVR,
 * one-class with centring, and LIBSVM precomputed-kernel rows. The decision values agree to 1e-12
 * relative (bit for bit with the GCC build that wrote them; other compilers' exp and summation
 * orders differ in the last digits). Saved again, each model is a current-version file that
 * predicts bit for bit what the version-1 file predicts. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "kernelmix.h"

#define DIR KM_TEST_DATA_DIR "/model-v1/"

typedef struct golden {
    const char *model;
    const char *test;
    unsigned flags;         /* KM_READ_PRECOMPUTED for precomputed-kernel rows */
} golden;

static km_dataset *read_test(const golden *g)
{
    km_dataset *data = NULL;
    char path[256];
    snprintf(path, sizeof path, DIR "%s", g->test);
    if (strstr(g->test, ".csv")) {
        km_csv_options options = KM_CSV_OPTIONS_INIT;
        CHECK_OK(km_dataset_read_csv(path, &options, &data));
    } else {
        CHECK_OK(km_dataset_read_libsvm(path, g->flags, &data));
    }
    return data;
}

/* Compares predictions and decision values with the file "LABEL D_1 .. D_nd" per row (1e-12
 * relative); returns the number of rows compared. */
static size_t compare_with_file(const char *name, const double *labels, const double *decision, size_t n,
                                size_t nd)
{
    char path[256], line[4096];
    snprintf(path, sizeof path, DIR "%s.predictions", name);
    FILE *f = fopen(path, "r");
    CHECK(f != NULL);
    if (!f)
        return 0;
    size_t row = 0;
    while (row < n && fgets(line, sizeof line, f)) {
        char *cursor = line;
        /* the label (a regression value for SVR), then the decision values */
        for (size_t k = 0; k <= nd; k++) {
            double value = k ? decision[row * nd + k - 1] : labels[row];
            double expected = strtod(cursor, &cursor), scale = fabs(expected) > 1 ? fabs(expected) : 1;
            if (!(fabs(value - expected) <= 1e-12 * scale)) {
                fprintf(stderr, "%s row %zu value %zu: %.17g, stored %.17g\n", name, row, k, value, expected);
                check_failures++;
            }
        }
        row++;
    }
    CHECK(!fgets(line, sizeof line, f));
    fclose(f);
    return row;
}

/* Predicts the test rows with the model into new arrays (the caller frees them). */
static void predict(const km_model *model, const km_dataset *test, double **labels, double **decision)
{
    size_t n = km_dataset_rows(test), nd = km_model_n_decision(model);
    *labels = malloc(n * sizeof **labels);
    *decision = malloc(n * nd * sizeof **decision);
    CHECK_OK(km_predict(model, test, NULL, *labels, *decision));
}

static void check_golden(const golden *g)
{
    char path[256], resaved[256];
    snprintf(path, sizeof path, DIR "%s.model", g->model);
    km_model *model = NULL;
    CHECK_OK(km_model_load(path, &model));
    if (!model)
        return;
    km_dataset *test = read_test(g);
    double *labels = NULL, *decision = NULL, *labels2 = NULL, *decision2 = NULL;
    size_t n = test ? km_dataset_rows(test) : 0, nd = km_model_n_decision(model);
    if (test) {
        predict(model, test, &labels, &decision);
        CHECK(compare_with_file(g->model, labels, decision, n, nd) == n);
    }
    /* the current writer's file of the same model predicts the same */
    snprintf(resaved, sizeof resaved, "v1_%s.model", g->model);
    CHECK_OK(km_model_save(model, resaved));
    km_model *again = NULL;
    CHECK_OK(km_model_load(resaved, &again));
    if (again && test) {
        predict(again, test, &labels2, &decision2);
        CHECK(!memcmp(labels, labels2, n * sizeof *labels) && !memcmp(decision, decision2, n * nd * sizeof *decision));
    }
    free(labels);
    free(decision);
    free(labels2);
    free(decision2);
    remove(resaved);
    km_model_free(again);
    km_model_free(model);
    km_dataset_free(test);
}

KM_TEST_CASE(svc) { check_golden(&(golden){"svc", "heart_test", 0}); }
KM_TEST_CASE(ovo_mkl) { check_golden(&(golden){"ovo_mkl", "iris_test.csv", 0}); }
KM_TEST_CASE(svr) { check_golden(&(golden){"svr", "regression_test", 0}); }
KM_TEST_CASE(oneclass) { check_golden(&(golden){"oneclass", "heart_test", 0}); }
KM_TEST_CASE(precomputed) { check_golden(&(golden){"precomputed", "precomputed_test", KM_READ_PRECOMPUTED}); }
