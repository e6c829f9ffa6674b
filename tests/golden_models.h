/* Golden model files (tests/data/model-*): a model written by an earlier kernelmix keeps loading and
 * predicts the labels and decision values stored beside it ("NAME.predictions", one row per test row:
 * LABEL D_1 .. D_nd), to 1e-12 relative (bit for bit with the GCC build that wrote them; other
 * compilers' exp and summation orders differ in the last digits). Saved again, each model is a
 * current-version file that predicts bit for bit what the golden file predicts and holds the same
 * parameters (those its task and method read, km_model_params). A test file includes
 * this after check.h and calls check_golden for each of its models. */
#ifndef KM_TEST_GOLDEN_MODELS_H
#define KM_TEST_GOLDEN_MODELS_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "kernelmix.h"

typedef struct golden {
    const char *dir;        /* the folder of the model, its predictions and its test rows, with a '/' */
    const char *model;
    const char *test;
    unsigned flags;         /* KM_READ_PRECOMPUTED for precomputed-kernel rows */
} golden;

static km_dataset *read_test(const golden *g)
{
    km_dataset *data = NULL;
    char path[256];
    snprintf(path, sizeof path, "%s%s", g->dir, g->test);
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
static size_t compare_with_file(const golden *g, const double *labels, const double *decision, size_t n,
                                size_t nd)
{
    char path[256], line[4096];
    snprintf(path, sizeof path, "%s%s.predictions", g->dir, g->model);
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
                fprintf(stderr, "%s row %zu value %zu: %.17g, stored %.17g\n", g->model, row, k, value, expected);
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

/* Every parameter the first model's task and method read is the same in the two models' km_model_params. */
static void check_same_params(const km_model *a, const km_model *b)
{
    km_params *pa = NULL, *pb = NULL;
    CHECK_OK(km_model_params(a, &pa));
    CHECK_OK(km_model_params(b, &pb));
    int64_t task = 0, method = 0;
    if (pa) {
        CHECK_OK(km_params_get_int(pa, KM_PARAM_TASK, &task));
        CHECK_OK(km_params_get_int(pa, KM_PARAM_MKL_METHOD, &method));
    }
    km_param id;
    for (size_t k = 0; pa && pb && (id = km_param_at(k)); k++) {
        if (!km_param_read_by(id, (km_task)task, (km_mkl_method)method))
            continue;
        unsigned flags = 0;
        CHECK_OK(km_param_bounds(id, NULL, NULL, &flags));
        if (flags & KM_PARAM_INTEGER) {
            int64_t x = -1, y = -2;
            km_params_get_int(pa, id, &x);
            km_params_get_int(pb, id, &y);
            CHECK(x == y);
        } else {
            double x = NAN, y = NAN;
            km_params_get_double(pa, id, &x);
            km_params_get_double(pb, id, &y);
            if (!(x == y || (isnan(x) && isnan(y))))
                fprintf(stderr, "parameter %s: %.17g, then %.17g\n", km_param_name(id), x, y);
            CHECK(x == y || (isnan(x) && isnan(y)));
        }
    }
    km_params_free(pa);
    km_params_free(pb);
}

static void check_golden(const golden *g)
{
    char path[256], resaved[256];
    snprintf(path, sizeof path, "%s%s.model", g->dir, g->model);
    km_model *model = NULL;
    CHECK_OK(km_model_load(path, &model));
    if (!model)
        return;
    km_dataset *test = read_test(g);
    double *labels = NULL, *decision = NULL, *labels2 = NULL, *decision2 = NULL;
    size_t n = test ? km_dataset_rows(test) : 0, nd = km_model_n_decision(model);
    if (test) {
        predict(model, test, &labels, &decision);
        CHECK(compare_with_file(g, labels, decision, n, nd) == n);
    }
    /* the current writer's file of the same model predicts the same */
    snprintf(resaved, sizeof resaved, "resaved_%s.model", g->model);
    CHECK_OK(km_model_save(model, resaved));
    km_model *again = NULL;
    CHECK_OK(km_model_load(resaved, &again));
    if (again && test) {
        predict(again, test, &labels2, &decision2);
        CHECK(!memcmp(labels, labels2, n * sizeof *labels) && !memcmp(decision, decision2, n * nd * sizeof *decision));
    }
    if (again)
        check_same_params(model, again);
    free(labels);
    free(decision);
    free(labels2);
    free(decision2);
    remove(resaved);
    km_model_free(again);
    km_model_free(model);
    km_dataset_free(test);
}

#endif
