/* Public fold assignment: km_folds is what km_cross_validate uses (training on each fold's complement
 * reproduces its predictions), stratified with labels, balanced without, the same for the same seed. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/params.h"
#include "kernelmix.h"

enum { N = 47 };

static void test_stratified(void)
{
    double labels[N];
    int fold[N], again[N], other[N];
    for (size_t i = 0; i < N; i++)
        labels[i] = i % 5 == 0 ? 3 : i % 2 ? -1 : 2.5;   /* classes of 10, 18 and 19 rows */
    CHECK_OK(km_folds(labels, N, 4, 7, fold));
    CHECK_OK(km_folds(labels, N, 4, 7, again));
    CHECK_OK(km_folds(labels, N, 4, 8, other));
    CHECK(!memcmp(fold, again, sizeof fold));
    CHECK(memcmp(fold, other, sizeof fold) != 0);
    /* per class, the folds' counts differ by at most one; fold sizes too */
    const double classes[] = {3, -1, 2.5};
    size_t size[4] = {0};
    for (size_t c = 0; c < 3; c++) {
        size_t count[4] = {0};
        for (size_t i = 0; i < N; i++)
            if (labels[i] == classes[c]) {
                CHECK(fold[i] >= 0 && fold[i] < 4);
                count[fold[i]]++;
            }
        for (int f = 0; f < 4; f++)
            CHECK(count[f] + 1 >= count[0] && count[f] <= count[0] + 1);
    }
    for (size_t i = 0; i < N; i++)
        size[fold[i]]++;
    for (int f = 0; f < 4; f++)
        CHECK(size[f] == 11 || size[f] == 12);
}

static void test_unlabelled(void)
{
    int fold[N];
    size_t size[5] = {0};
    CHECK_OK(km_folds(NULL, N, 5, 1, fold));
    for (size_t i = 0; i < N; i++) {
        CHECK(fold[i] >= 0 && fold[i] < 5);
        size[fold[i]]++;
    }
    for (int f = 0; f < 5; f++)
        CHECK(size[f] == 9 || size[f] == 10);
    CHECK_STATUS(km_folds(NULL, N, 1, 1, fold), KM_EINVAL);
    CHECK_STATUS(km_folds(NULL, 3, 4, 1, fold), KM_EINVAL);
    CHECK(strstr(km_last_error(), "2 <= folds <= rows (got 4 folds, 3 rows)"));
    const double nan_label[] = {1, 0.0 / 0.0, 1};
    CHECK_STATUS(km_folds(nan_label, 3, 2, 1, fold), KM_EINVAL);
    CHECK(strstr(km_last_error(), "the label of row 2 is not a finite number"));
}

/* km_cross_validate's predictions are those of models trained on each fold's complement. */
static void test_cross_validation_uses_folds(void)
{
    double X[N * 2], y[N], predicted[N];
    for (size_t i = 0; i < N; i++) {
        y[i] = i % 3 == 0 ? 1 : -1;
        X[2 * i] = y[i] + (double)((i * 7) % 11) / 11 - 0.5;
        X[2 * i + 1] = (double)((i * 5) % 13) / 13;
    }
    km_dataset *data = NULL;
    km_kernel_set *set = NULL;
    km_params params = km_params_default();
    params.seed = 11;
    CHECK_OK(km_dataset_from_dense(N, 2, X, y, &data));
    CHECK_OK(km_kernel_set_new(&set));
    CHECK_OK(km_kernel_set_add_spec(set, "rbf:gamma=1"));
    CHECK_OK(km_cross_validate(data, set, &params, 3, predicted));
    int fold[N];
    CHECK_OK(km_folds(y, N, 3, params.seed, fold));
    for (int f = 0; f < 3; f++) {
        size_t train[N], test[N], n_train = 0, n_test = 0;
        for (size_t i = 0; i < N; i++) {
            if (fold[i] == f)
                test[n_test++] = i;
            else
                train[n_train++] = i;
        }
        km_dataset *a = NULL, *b = NULL;
        km_model *model = NULL;
        double out[N];
        CHECK_OK(km_dataset_subset(data, train, n_train, &a));
        CHECK_OK(km_dataset_subset(data, test, n_test, &b));
        CHECK_OK(km_train(a, set, &params, &model));
        if (model)
            CHECK_OK(km_predict(model, b, NULL, out, NULL));
        for (size_t k = 0; model && k < n_test; k++)
            CHECK(out[k] == predicted[test[k]]);
        km_model_free(model);
        km_dataset_free(a);
        km_dataset_free(b);
    }
    km_kernel_set_free(set);
    km_dataset_free(data);
}

KM_TEST_CASE(stratified) { test_stratified(); }
KM_TEST_CASE(unlabelled) { test_unlabelled(); }
KM_TEST_CASE(cross_validation_uses_folds) { test_cross_validation_uses_folds(); }
