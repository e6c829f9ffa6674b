/* Models written in format version 1 by an earlier kernelmix (tests/data/model-v1, generate.sh) keep
 * loading, and predict bit for bit the decision values that kernelmix printed when it wrote them:
 * a binary C-SVC with fixed weights (sparse basis), one-vs-one MKL on dense CSV rows, epsilon-SVR,
 * one-class with centring, and LIBSVM precomputed-kernel rows. Saved again, each model is a current
 * version file that predicts the same. */
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

/* Compares predictions and decision values with the file "LABEL D_1 .. D_nd" per row; returns the
 * number of rows compared. */
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
        CHECK(strtod(cursor, &cursor) == labels[row]);
        for (size_t k = 0; k < nd; k++) {
            double expected = strtod(cursor, &cursor);
            if (decision[row * nd + k] != expected) {
                fprintf(stderr, "%s row %zu value %zu: %.17g, stored %.17g\n", name, row, k, decision[row * nd + k],
                        expected);
                check_failures++;
            }
        }
        row++;
    }
    CHECK(!fgets(line, sizeof line, f));
    fclose(f);
    return row;
}

/* Predicts the test rows with the model and compares with the stored predictions. */
static void check_predictions(const km_model *model, const char *name, const km_dataset *test)
{
    size_t n = km_dataset_rows(test), nd = km_model_n_decision(model);
    double *labels = malloc(n * sizeof *labels), *decision = malloc(n * nd * sizeof *decision);
    CHECK_OK(km_predict(model, test, NULL, labels, decision));
    CHECK(compare_with_file(name, labels, decision, n, nd) == n);
    free(labels);
    free(decision);
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
    if (test)
        check_predictions(model, g->model, test);
    /* the current writer's file of the same model predicts the same */
    snprintf(resaved, sizeof resaved, "v1_%s.model", g->model);
    CHECK_OK(km_model_save(model, resaved));
    km_model *again = NULL;
    CHECK_OK(km_model_load(resaved, &again));
    if (again && test)
        check_predictions(again, g->model, test);
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
