/* Models written in earlier format versions by an earlier kernelmix keep loading, and predict the labels
 * and decision values that kernelmix printed when it wrote them. Version 1 (tests/data/model-v1,
 * generate.sh): a binary C-SVC with fixed weights (sparse basis), one-vs-one MKL on dense CSV rows,
 * epsilon-SVR, one-class with centring, and LIBSVM precomputed-kernel rows. Version 2
 * (tests/data/model-v2): every family of kernel-weight methods, whose [mkl] section had fixed keys;
 * their parameters are also those they were trained with. The decision values agree to 1e-12
 * relative (bit for bit with the GCC build that wrote them; other compilers' exp and summation
 * orders differ in the last digits). Saved again, each model is a current-version file that
 * predicts bit for bit what the old file predicts and holds the same parameters. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "kernelmix.h"

#define V1 KM_TEST_DATA_DIR "/model-v1/"
#define V2 KM_TEST_DATA_DIR "/model-v2/"

typedef struct golden {
    const char *dir;        /* V1 or V2 */
    const char *model;
    const char *test;
    unsigned flags;         /* KM_READ_PRECOMPUTED for precomputed-kernel rows */
} golden;

static km_dataset *read_test(const golden *g)
{
    km_dataset *data = NULL;
    char path[256];
    snprintf(path, sizeof path, V1 "%s", g->test);   /* the data of both versions */
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
    const char *name = g->model;
    char path[256], line[4096];
    snprintf(path, sizeof path, "%s%s.predictions", g->dir, name);
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

/* The value of parameter id of the model's km_model_params. */
static double model_param(const km_model *model, km_param id)
{
    km_params *params = NULL;
    double value = NAN;
    unsigned flags = 0;
    int64_t integer = 0;
    CHECK_OK(km_model_params(model, &params));
    CHECK_OK(km_param_bounds(id, NULL, NULL, &flags));
    if (params && (flags & KM_PARAM_INTEGER) && km_params_get_int(params, id, &integer) == KM_OK)
        value = (double)integer;
    else if (params)
        CHECK_OK(km_params_get_double(params, id, &value));
    km_params_free(params);
    return value;
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
    snprintf(resaved, sizeof resaved, "v1_%s.model", g->model);
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

KM_TEST_CASE(svc) { check_golden(&(golden){V1, "svc", "heart_test", 0}); }
KM_TEST_CASE(ovo_mkl) { check_golden(&(golden){V1, "ovo_mkl", "iris_test.csv", 0}); }
KM_TEST_CASE(svr) { check_golden(&(golden){V1, "svr", "regression_test", 0}); }
KM_TEST_CASE(oneclass) { check_golden(&(golden){V1, "oneclass", "heart_test", 0}); }
KM_TEST_CASE(precomputed) { check_golden(&(golden){V1, "precomputed", "precomputed_test", KM_READ_PRECOMPUTED}); }

/* Version 2: the predictions, and the parameters of generate.sh's command lines. */
static km_model *golden_v2(const char *name, const char *test)
{
    check_golden(&(golden){V2, name, test, 0});
    char path[256];
    snprintf(path, sizeof path, V2 "%s.model", name);
    km_model *model = NULL;
    CHECK_OK(km_model_load(path, &model));
    return model;
}

KM_TEST_CASE(v2_lp)
{
    km_model *m = golden_v2("lp", "heart_test");
    CHECK(m && fabs(model_param(m, KM_PARAM_P_BLOCK) - 8.0 / 7) < 1e-15);
    CHECK(m && model_param(m, KM_PARAM_MKL_SOLVER) == KM_MKL_WRAPPER && model_param(m, KM_PARAM_MKL_GAP) == 1e-4);
    km_model_free(m);
}

KM_TEST_CASE(v2_tikhonov)
{
    km_model *m = golden_v2("tikhonov", "heart_test");
    CHECK(m && model_param(m, KM_PARAM_REGULARIZER) == KM_REG_ELASTICNET && model_param(m, KM_PARAM_LAMBDA) == 0.3);
    km_model_free(m);
}

KM_TEST_CASE(v2_align_q)
{
    km_model *m = golden_v2("align_q", "heart_test");
    CHECK(m && model_param(m, KM_PARAM_ALIGN_Q) == 3 && model_param(m, KM_PARAM_MKL_RADIUS) == 2);
    km_model_free(m);
}

KM_TEST_CASE(v2_l2krr)
{
    km_model *m = golden_v2("l2krr", "regression_test");
    CHECK(m && model_param(m, KM_PARAM_L2KRR_ETA) == 0.5 && model_param(m, KM_PARAM_MU0) == KM_MU0_UNIFORM &&
          model_param(m, KM_PARAM_MKL_RADIUS) == 3);
    km_model_free(m);
}

KM_TEST_CASE(v2_clmkl)
{
    km_model *m = golden_v2("clmkl", "heart_test");
    CHECK(m && model_param(m, KM_PARAM_CLUSTERS) == 2);
    km_model_free(m);
}

KM_TEST_CASE(v2_obscure) { km_model_free(golden_v2("obscure", "heart_test")); }
KM_TEST_CASE(v2_eb_rw) { km_model_free(golden_v2("eb_rw", "regression_test")); }
