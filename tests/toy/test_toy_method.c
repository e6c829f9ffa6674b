/* The toy method of method_toy.c, added by its file, the table line (KM_EXTRA_METHODS in
 * tests/CMakeLists.txt) and this test: the library knows it by name, reads and refuses its options as
 * the method table says, trains it, writes and reads its parameters in model files and predicts with
 * it as with the same weights given. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "kernelmix.h"

#define TRAIN KM_TEST_DATA_DIR "/model-v1/heart_train"
#define TEST KM_TEST_DATA_DIR "/model-v1/heart_test"
#define M 3

static km_kernel_set *three_kernels(void)
{
    km_kernel_set *set = NULL;
    CHECK_OK(km_kernel_set_new(&set));
    CHECK_OK(km_kernel_set_add_spec(set, "rbf:gamma=0.05"));
    CHECK_OK(km_kernel_set_add_spec(set, "linear"));
    CHECK_OK(km_kernel_set_add_spec(set, "poly:degree=2:coef0=1:norm=mult"));
    return set;
}

/* The decision values of a model on the test rows (the caller frees them). */
static double *decisions(const km_model *model, const km_dataset *test)
{
    double *d = malloc(km_dataset_rows(test) * sizeof *d);
    CHECK_OK(km_predict(model, test, NULL, NULL, d));
    return d;
}

KM_TEST_CASE(known_by_name)
{
    int toy = 0;
    CHECK_OK(km_enum_value(KM_ENUM_MKL_METHOD, "toy", &toy));
    CHECK(!strcmp(km_enum_name(KM_ENUM_MKL_METHOD, toy), "toy"));
    /* it reads the radius, and no other method's options */
    CHECK(km_param_read_by(KM_PARAM_MKL_RADIUS, KM_TASK_SVC, (km_mkl_method)toy));
    CHECK(!km_param_read_by(KM_PARAM_P, KM_TASK_SVC, (km_mkl_method)toy));
    CHECK(!km_param_read_by(KM_PARAM_MKL_GAP, KM_TASK_SVC, (km_mkl_method)toy));
    CHECK(km_param_read_by(KM_PARAM_C, KM_TASK_SVC, (km_mkl_method)toy));
}

KM_TEST_CASE(trains_saves_and_predicts)
{
    km_dataset *train = NULL, *test = NULL;
    CHECK_OK(km_dataset_read_libsvm(TRAIN, 0, &train));
    CHECK_OK(km_dataset_read_libsvm(TEST, 0, &test));
    km_kernel_set *set = three_kernels();
    km_params *params = NULL, *fixed = NULL;
    CHECK_OK(km_params_new(&params));
    CHECK_OK(km_params_set_text(params, KM_PARAM_MKL_METHOD, "toy"));
    CHECK_OK(km_params_set_text(params, KM_PARAM_MKL_RADIUS, "3"));
    CHECK_OK(km_params_set_double(params, KM_PARAM_TOLERANCE, 1e-10));   /* both solves to the same point */
    km_model *model = NULL, *given = NULL, *loaded = NULL;
    CHECK_OK(km_train(train, set, params, &model));
    /* the same weights given: R/M = 1 each */
    CHECK_OK(km_params_new(&fixed));
    CHECK_OK(km_params_set_kernel_weights(fixed, (const double[M]){1, 1, 1}, M));
    CHECK_OK(km_params_set_double(fixed, KM_PARAM_TOLERANCE, 1e-10));
    CHECK_OK(km_train(train, set, fixed, &given));
    if (model && given && test) {
        const double *theta = km_model_kernel_weights(model, 0);
        for (size_t m = 0; m < M; m++)
            CHECK_NEAR(theta[m], 1.0, 1e-15);
        double *a = decisions(model, test), *b = decisions(given, test);
        for (size_t i = 0; i < km_dataset_rows(test); i++)
            CHECK_NEAR(a[i], b[i], 1e-7 * fmax(1, fabs(b[i])));
        /* its model file names it and keeps its radius; loaded, it predicts the same */
        CHECK_OK(km_model_save(model, "toy.model"));
        FILE *f = fopen("toy.model", "r");
        char line[256];
        int method_line = 0, radius_line = 0;
        while (f && fgets(line, sizeof line, f)) {
            method_line |= !strcmp(line, "method toy\n");
            radius_line |= !strcmp(line, "mkl_radius 3\n");
        }
        if (f)
            fclose(f);
        CHECK(method_line && radius_line);
        CHECK_OK(km_model_load("toy.model", &loaded));
        if (loaded) {
            double *c = decisions(loaded, test);
            CHECK(!memcmp(a, c, km_dataset_rows(test) * sizeof *c));
            free(c);
        }
        free(a);
        free(b);
    }
    km_model_free(model);
    km_model_free(given);
    km_model_free(loaded);
    km_params_free(params);
    km_params_free(fixed);
    km_kernel_set_free(set);
    km_dataset_free(train);
    km_dataset_free(test);
}
