/* Models from km_train survive save and load: the loaded model gives bit-identical decision values
 * and labels, the same kernel descriptions and accessors, and saves to the same bytes. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "core/params.h"
#include "kernelmix.h"

/* n rows of 3 features in `classes` interleaved groups (labels 1..classes); targets for
 * regression are a smooth function of the features. */
static km_dataset *generated(size_t n, size_t classes, int regression, double phase)
{
    double *X = malloc(n * 3 * sizeof *X), *y = malloc(n * sizeof *y);
    for (size_t i = 0; i < n; i++) {
        double c = (double)(i % classes), t = (double)i + phase;
        X[3 * i] = 1.5 * c + sin(1.7 * t);
        X[3 * i + 1] = c - cos(2.3 * t);
        X[3 * i + 2] = 0.5 * sin(0.37 * t);
        y[i] = regression ? sin(X[3 * i]) + 0.5 * X[3 * i + 1] : c + 1.0;
    }
    km_dataset *data = NULL;
    if (km_dataset_from_dense(n, 3, X, y, &data) != KM_OK)
        exit(2);
    free(X);
    free(y);
    return data;
}

static int same_file(const char *a, const char *b)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    int same = 0;
    if (fa && fb) {
        int ca, cb;
        do {
            ca = fgetc(fa);
            cb = fgetc(fb);
        } while (ca == cb && ca != EOF);
        same = ca == cb;
    }
    if (fa)
        fclose(fa);
    if (fb)
        fclose(fb);
    return same;
}

/* Saves model, loads it back and compares everything observable through the public API. */
static void check_round_trip(const km_model *model, const km_dataset *test, const km_matrix *const *test_kernels,
                             const char *path)
{
    char path2[256];
    snprintf(path2, sizeof path2, "%s.again", path);
    km_model *loaded = NULL;
    CHECK_OK(km_model_save(model, path));
    CHECK_OK(km_model_load(path, &loaded));
    if (!loaded)
        return;
    CHECK_OK(km_model_save(loaded, path2));
    CHECK(same_file(path, path2));

    CHECK(km_model_task(loaded) == km_model_task(model));
    CHECK(km_model_n_kernels(loaded) == km_model_n_kernels(model));
    for (size_t m = 0; m < km_model_n_kernels(model); m++) {
        char a[512], b[512];
        km_model_kernel_describe(model, m, a, sizeof a);
        km_model_kernel_describe(loaded, m, b, sizeof b);
        if (strcmp(a, b)) {
            fprintf(stderr, "kernel %zu: \"%s\" became \"%s\"\n", m, a, b);
            check_failures++;
        }
    }
    CHECK(km_model_n_classes(loaded) == km_model_n_classes(model));
    CHECK(km_model_n_classes(model) == 0 ||
          !memcmp(km_model_labels(loaded), km_model_labels(model), km_model_n_classes(model) * sizeof(double)));
    CHECK(km_model_n_machines(loaded) == km_model_n_machines(model));
    CHECK(km_model_n_sv_total(loaded) == km_model_n_sv_total(model));
    for (size_t p = 0; p < km_model_n_machines(model); p++) {
        CHECK(km_model_n_sv(loaded, p) == km_model_n_sv(model, p));
        CHECK(km_model_bias(loaded, p) == km_model_bias(model, p));
        CHECK(km_model_objective(loaded, p) == km_model_objective(model, p));
        CHECK(!memcmp(km_model_kernel_weights(loaded, p), km_model_kernel_weights(model, p),
                      km_model_n_kernels(model) * sizeof(double)));
    }

    size_t n = km_dataset_rows(test), nd = km_model_n_decision(model);
    double *labels_a = malloc(n * sizeof *labels_a), *labels_b = malloc(n * sizeof *labels_b);
    double *dec_a = malloc(n * nd * sizeof *dec_a), *dec_b = malloc(n * nd * sizeof *dec_b);
    CHECK_OK(km_predict(model, test, test_kernels, labels_a, dec_a));
    CHECK_OK(km_predict(loaded, test, test_kernels, labels_b, dec_b));
    CHECK(!memcmp(labels_a, labels_b, n * sizeof *labels_a));
    CHECK(!memcmp(dec_a, dec_b, n * nd * sizeof *dec_a));
    free(labels_a);
    free(labels_b);
    free(dec_a);
    free(dec_b);
    km_model_free(loaded);
    remove(path);
    remove(path2);
}

static void test_classification(km_multiclass scheme)
{
    km_dataset *train = generated(60, 3, 0, 0.0), *test = generated(25, 3, 0, 0.5);
    km_kernel_set *set = NULL;
    CHECK_OK(km_kernel_set_new(&set));
    CHECK_OK(km_kernel_set_add_spec(set, "rbf:gamma=0.5"));
    CHECK_OK(km_kernel_set_add_spec(set, "poly:degree=2:coef0=1:norm=mult"));
    CHECK_OK(km_kernel_set_add_spec(set, "linear:features=1-2:center=1"));
    km_params params = km_params_default();
    params.C = 2.0;
    params.multiclass = scheme;
    km_model *model = NULL;
    CHECK_OK(km_train(train, set, &params, &model));
    if (model) {
        CHECK(km_model_n_decision(model) == 3);
        check_round_trip(model, test, NULL, "test_model_trained_svc.km");
    }
    km_model_free(model);
    km_kernel_set_free(set);
    km_dataset_free(train);
    km_dataset_free(test);
}

/* Linear Gram block between the rows of a and b (values of a precomputed kernel). */
static km_matrix *linear_gram(const km_dataset *a, const km_dataset *b)
{
    km_matrix *K = NULL;
    if (km_matrix_new(km_dataset_rows(a), km_dataset_rows(b), &K) != KM_OK)
        exit(2);
    double *values = km_matrix_data(K);
    for (size_t i = 0; i < km_matrix_rows(K); i++)
        for (size_t j = 0; j < km_matrix_cols(K); j++)
            for (size_t f = 0; f < km_dataset_dim(a); f++)
                values[i * km_matrix_cols(K) + j] += km_dataset_value(a, i, f) * km_dataset_value(b, j, f);
    return K;
}

static void test_regression_with_precomputed_kernel(void)
{
    km_dataset *train = generated(40, 1, 1, 0.0), *test = generated(15, 1, 1, 0.25);
    km_matrix *K_train = linear_gram(train, train), *K_test = linear_gram(test, train);
    km_kernel_set *set = NULL;
    CHECK_OK(km_kernel_set_new(&set));
    CHECK_OK(km_kernel_set_add_matrix(set, K_train, KM_NORM_NONE, 0));
    CHECK_OK(km_kernel_set_add_spec(set, "rbf:gamma=1"));
    km_params params = km_params_default();
    params.task = KM_TASK_SVR;
    km_model *model = NULL;
    CHECK_OK(km_train(train, set, &params, &model));
    const km_matrix *test_kernels[] = {K_test, NULL};
    if (model)
        check_round_trip(model, test, test_kernels, "test_model_trained_svr.km");
    km_model_free(model);
    km_kernel_set_free(set);
    km_matrix_free(K_train);
    km_matrix_free(K_test);
    km_dataset_free(train);
    km_dataset_free(test);
}

static void test_one_class(void)
{
    km_dataset *train = generated(50, 1, 0, 0.0), *test = generated(20, 1, 0, 0.75);
    km_kernel_set *set = NULL;
    CHECK_OK(km_kernel_set_new(&set));
    CHECK_OK(km_kernel_set_add_spec(set, "rbf"));
    km_params params = km_params_default();
    params.task = KM_TASK_ONECLASS;
    params.nu = 0.2;
    km_model *model = NULL;
    CHECK_OK(km_train(train, set, &params, &model));
    if (model)
        check_round_trip(model, test, NULL, "test_model_trained_oneclass.km");
    km_model_free(model);
    km_kernel_set_free(set);
    km_dataset_free(train);
    km_dataset_free(test);
}

KM_TEST_CASE(classification_ovo) { test_classification(KM_MULTICLASS_OVO); }
KM_TEST_CASE(classification_ovr) { test_classification(KM_MULTICLASS_OVR); }
KM_TEST_CASE(regression_with_precomputed_kernel) { test_regression_with_precomputed_kernel(); }
KM_TEST_CASE(one_class) { test_one_class(); }
