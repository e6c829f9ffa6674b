/* The API that can grow, as a binding sees it (only kernelmix.h): parameters set by id and by name
 * within their bounds, copied arrays, the parameters a model reports, structs with a size field,
 * matrices over the caller's memory, and the version. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "kernelmix.h"

static void test_defaults_and_names(void)
{
    km_params *p = NULL;
    CHECK_OK(km_params_new(&p));
    if (!p)
        return;
    double C = 0, p_norm = 0, gap = 0;
    int64_t task = 0, max_outer = 0, seed = -1;
    CHECK_OK(km_params_get_double(p, KM_PARAM_C, &C));
    CHECK_OK(km_params_get_double(p, KM_PARAM_P, &p_norm));
    CHECK_OK(km_params_get_double(p, KM_PARAM_MKL_GAP, &gap));
    CHECK_OK(km_params_get_int(p, KM_PARAM_TASK, &task));
    CHECK_OK(km_params_get_int(p, KM_PARAM_MKL_MAX_OUTER, &max_outer));
    CHECK_OK(km_params_get_int(p, KM_PARAM_SEED, &seed));
    CHECK(C == 1.0 && p_norm == 2.0 && gap == 1e-3 && task == KM_TASK_SVC && max_outer == 10000 && seed == 0);
    /* every id has a name that leads back to it */
    const km_param ids[] = {KM_PARAM_TASK, KM_PARAM_C, KM_PARAM_EPSILON, KM_PARAM_NU, KM_PARAM_TOLERANCE,
                            KM_PARAM_SHRINKING, KM_PARAM_CACHE_MB, KM_PARAM_CACHE_VALUES, KM_PARAM_MULTICLASS,
                            KM_PARAM_MAX_ITER, KM_PARAM_SEED, KM_PARAM_MKL_METHOD, KM_PARAM_P, KM_PARAM_P_BLOCK,
                            KM_PARAM_LAMBDA, KM_PARAM_MKL_SOLVER, KM_PARAM_MKL_GAP, KM_PARAM_MKL_EPS,
                            KM_PARAM_MKL_MAX_OUTER, KM_PARAM_MKL_MAX_TIME, KM_PARAM_SHARED_WEIGHTS,
                            KM_PARAM_REGULARIZER, KM_PARAM_REG_PARAM};
    for (size_t k = 0; k < sizeof ids / sizeof ids[0]; k++) {
        km_param back = (km_param)0;
        const char *name = km_param_name(ids[k]);
        CHECK(name && km_param_from_name(name, &back) == KM_OK && back == ids[k]);
    }
    km_param id = (km_param)0;
    CHECK_OK(km_param_from_name("C", &id));
    CHECK(id == KM_PARAM_C);
    CHECK_OK(km_param_from_name("p_block", &id));
    CHECK(id == KM_PARAM_P_BLOCK);
    CHECK_STATUS(km_param_from_name("gamma", &id), KM_EINVAL);
    CHECK(strstr(km_last_error(), "gamma") != NULL);
    CHECK(km_param_name((km_param)999) == NULL);
    km_params_free(p);
}

static void test_bounds(void)
{
    double lower = 0, upper = 0;
    unsigned flags = 0;
    CHECK_OK(km_param_bounds(KM_PARAM_C, &lower, &upper, &flags));
    CHECK(lower == 0 && isinf(upper) && flags == (KM_PARAM_LOWER_OPEN | KM_PARAM_UPPER_OPEN));
    CHECK_OK(km_param_bounds(KM_PARAM_NU, &lower, &upper, &flags));
    CHECK(lower == 0 && upper == 1 && flags == KM_PARAM_LOWER_OPEN);
    CHECK_OK(km_param_bounds(KM_PARAM_TASK, &lower, &upper, &flags));
    CHECK(lower == KM_TASK_SVC && upper == KM_TASK_KRR && flags == KM_PARAM_INTEGER);
    CHECK_OK(km_param_bounds(KM_PARAM_P, &lower, &upper, NULL));
    CHECK(lower == 1 && isinf(upper));
    CHECK_STATUS(km_param_bounds((km_param)999, &lower, &upper, &flags), KM_EINVAL);

    km_params *p = NULL;
    CHECK_OK(km_params_new(&p));
    if (!p)
        return;
    double value = 0;
    CHECK_OK(km_params_set_double(p, KM_PARAM_C, 10));
    CHECK_STATUS(km_params_set_double(p, KM_PARAM_C, 0), KM_EINVAL);          /* open lower end */
    CHECK(strstr(km_last_error(), "parameter C") != NULL);
    CHECK_STATUS(km_params_set_double(p, KM_PARAM_C, INFINITY), KM_EINVAL);   /* open upper end */
    CHECK_STATUS(km_params_set_double(p, KM_PARAM_C, NAN), KM_EINVAL);
    CHECK_OK(km_params_get_double(p, KM_PARAM_C, &value));
    CHECK(value == 10);                                                       /* unchanged by failures */
    CHECK_OK(km_params_set_double(p, KM_PARAM_NU, 1));
    CHECK_STATUS(km_params_set_double(p, KM_PARAM_NU, 1.5), KM_EINVAL);
    CHECK_OK(km_params_set_double(p, KM_PARAM_P, INFINITY));
    CHECK_STATUS(km_params_set_double(p, KM_PARAM_P, 0.5), KM_EINVAL);
    CHECK_OK(km_params_set_double(p, KM_PARAM_P_BLOCK, 0));
    CHECK_STATUS(km_params_set_double(p, KM_PARAM_P_BLOCK, 0.5), KM_EINVAL);
    CHECK_OK(km_params_set_double(p, KM_PARAM_P_BLOCK, 4.0 / 3.0));
    CHECK_OK(km_params_get_double(p, KM_PARAM_P_BLOCK, &value));
    CHECK(value == 4.0 / 3.0);
    CHECK_OK(km_params_set_int(p, KM_PARAM_TASK, KM_TASK_SVR));
    CHECK_STATUS(km_params_set_int(p, KM_PARAM_TASK, 0), KM_EINVAL);
    CHECK_STATUS(km_params_set_int(p, KM_PARAM_MKL_MAX_OUTER, 0), KM_EINVAL);
    CHECK_OK(km_params_set_int(p, KM_PARAM_SEED, INT64_MAX));
    /* the wrong type */
    CHECK_STATUS(km_params_set_double(p, KM_PARAM_TASK, 2.0), KM_EINVAL);
    CHECK_STATUS(km_params_set_int(p, KM_PARAM_C, 2), KM_EINVAL);
    int64_t integer = 0;
    CHECK_STATUS(km_params_get_int(p, KM_PARAM_C, &integer), KM_EINVAL);
    CHECK_OK(km_params_get_int(p, KM_PARAM_TASK, &integer));
    CHECK(integer == KM_TASK_SVR);
    CHECK_STATUS(km_params_set_double(p, (km_param)999, 1.0), KM_EINVAL);
    km_params_free(p);
}

static void test_arrays_and_copy(void)
{
    km_params *p = NULL, *copy = NULL;
    CHECK_OK(km_params_new(&p));
    if (!p)
        return;
    double weights[3] = {1, 0, 2}, labels[2] = {-1, 1}, class_weights[2] = {2, 0.5};
    size_t n = 0;
    CHECK(km_params_kernel_weights(p, &n) == NULL && n == 0);
    CHECK_OK(km_params_set_kernel_weights(p, weights, 3));
    weights[0] = 7; /* the parameters hold a copy */
    const double *held = km_params_kernel_weights(p, &n);
    CHECK(held && n == 3 && held[0] == 1 && held[2] == 2);
    const double zero[2] = {0, 0}, negative[2] = {1, -1};
    CHECK_STATUS(km_params_set_kernel_weights(p, zero, 2), KM_EINVAL);
    CHECK_STATUS(km_params_set_kernel_weights(p, negative, 2), KM_EINVAL);
    CHECK(km_params_kernel_weights(p, &n) == held && n == 3);
    CHECK_OK(km_params_set_class_weights(p, labels, class_weights, 2));
    const double bad[2] = {1, 0};
    CHECK_STATUS(km_params_set_class_weights(p, labels, bad, 2), KM_EINVAL);

    CHECK_OK(km_params_set_double(p, KM_PARAM_C, 3));
    CHECK_OK(km_params_copy(p, &copy));
    km_params_free(p);
    if (!copy)
        return;
    const double *copied_labels = NULL, *copied_weights = NULL;
    double C = 0;
    CHECK_OK(km_params_get_double(copy, KM_PARAM_C, &C));
    CHECK(C == 3);
    const double *w = km_params_kernel_weights(copy, &n);
    CHECK(w && n == 3 && w[0] == 1 && w[1] == 0 && w[2] == 2);
    CHECK(km_params_class_weights(copy, &copied_labels, &copied_weights) == 2);
    CHECK(copied_labels && copied_labels[0] == -1 && copied_weights && copied_weights[1] == 0.5);
    CHECK_OK(km_params_set_kernel_weights(copy, NULL, 0));
    CHECK(km_params_kernel_weights(copy, &n) == NULL && n == 0);
    km_params_free(copy);
}

/* Two linear kernels on one feature each (y = sign of x1 + x2), trained through the handle. */
static void test_training_through_handle(void)
{
    const double X[8][2] = {{1, 2}, {2, 1}, {1.5, 1.5}, {2, 2.5}, {-1, -2}, {-2, -1}, {-1.5, -1}, {-2, -2.5}};
    const double y[8] = {1, 1, 1, 1, -1, -1, -1, -1};
    km_dataset *data = NULL;
    km_kernel_set *set = NULL;
    km_params *p = NULL, *reported = NULL;
    km_model *model = NULL;
    CHECK_OK(km_dataset_from_dense(8, 2, &X[0][0], y, &data));
    CHECK_OK(km_kernel_set_new(&set));
    CHECK_OK(km_params_new(&p));
    if (!data || !set || !p)
        goto done;
    CHECK_OK(km_kernel_set_add_spec(set, "linear:features=1"));
    CHECK_OK(km_kernel_set_add_spec(set, "linear:features=2"));
    const double three[3] = {1, 1, 1}, two[2] = {1, 3};
    CHECK_OK(km_params_set_kernel_weights(p, three, 3));
    CHECK_STATUS(km_train(data, set, p, &model), KM_EINVAL);
    CHECK(strstr(km_last_error(), "3 kernel weights given for 2 kernels") != NULL);
    CHECK_OK(km_params_set_kernel_weights(p, two, 2));
    CHECK_OK(km_params_set_double(p, KM_PARAM_C, 5));
    CHECK_OK(km_train(data, set, p, &model));
    if (!model)
        goto done;
    const double *theta = km_model_kernel_weights(model, 0);
    CHECK(theta && theta[0] == 1 && theta[1] == 3);
    CHECK_OK(km_model_params(model, &reported));
    double C = 0;
    int64_t task = 0, method = -1;
    if (reported) {
        CHECK_OK(km_params_get_double(reported, KM_PARAM_C, &C));
        CHECK_OK(km_params_get_int(reported, KM_PARAM_TASK, &task));
        CHECK_OK(km_params_get_int(reported, KM_PARAM_MKL_METHOD, &method));
    }
    CHECK(C == 5 && task == KM_TASK_SVC && method == KM_MKL_FIXED);
    km_params *ivanov = NULL;
    double ivanov_theta[2];
    CHECK_STATUS(km_model_ivanov(model, 0, &ivanov, ivanov_theta), KM_EINVAL); /* not a Tikhonov model */
    CHECK(ivanov == NULL);

    /* a kernel index out of range is an error, not a read past the kernels */
    km_kernel_type type = KM_KERNEL_RBF;
    CHECK_OK(km_model_kernel_type(model, 1, &type));
    CHECK(type == KM_KERNEL_LINEAR);
    CHECK_STATUS(km_model_kernel_type(model, 2, &type), KM_EINVAL);
    CHECK(km_model_kernel_file(model, 2) == NULL);

    /* sized structs: an unset size is refused; a newer caller's longer struct keeps its tail */
    km_machine_info unset;
    memset(&unset, 0, sizeof unset);
    CHECK_STATUS(km_model_machine_info(model, 0, &unset), KM_EINVAL);
    struct {
        km_machine_info info;
        double field_of_a_later_release;
    } newer;
    memset(&newer, 0, sizeof newer);
    newer.info.size = sizeof newer;
    newer.field_of_a_later_release = 42;
    km_machine_info info = KM_MACHINE_INFO_INIT;
    CHECK_OK(km_model_machine_info(model, 0, &info));
    CHECK_OK(km_model_machine_info(model, 0, &newer.info));
    CHECK(newer.info.size == sizeof newer && newer.field_of_a_later_release == 42);
    CHECK(newer.info.objective == info.objective && newer.info.n_sv == info.n_sv && info.n_sv > 0);
    CHECK(newer.info.positive_label == info.positive_label && isnan(info.negative_label) == 0);
done:
    km_params_free(reported);
    km_model_free(model);
    km_params_free(p);
    km_kernel_set_free(set);
    km_dataset_free(data);
}

/* A precomputed kernel over the caller's float32 memory gives the model of the computed kernel. */
static void test_wrapped_matrix(void)
{
    const double X[6] = {0.5, 1.0, 2.0, -0.5, -1.0, -2.0};
    const double y[6] = {1, 1, 1, -1, -1, -1};
    float gram[36];
    for (size_t i = 0; i < 6; i++)
        for (size_t j = 0; j < 6; j++)
            gram[i * 6 + j] = (float)(X[i] * X[j]);
    km_matrix *wrapped = NULL, *owned = NULL;
    CHECK_STATUS(km_matrix_wrap(6, 6, (km_dtype)7, gram, &wrapped), KM_EINVAL);
    CHECK_OK(km_matrix_wrap(6, 6, KM_FLOAT32, gram, &wrapped));
    CHECK_OK(km_matrix_new(2, 3, &owned));
    if (!wrapped || !owned)
        return;
    CHECK(km_matrix_rows(wrapped) == 6 && km_matrix_cols(wrapped) == 6 && km_matrix_dtype(wrapped) == KM_FLOAT32);
    CHECK(km_matrix_value(wrapped, 2, 1) == 2.0 && km_matrix_data(wrapped) == NULL);
    double *values = km_matrix_data(owned);
    CHECK(values && values[5] == 0 && km_matrix_dtype(owned) == KM_FLOAT64);
    if (values)
        values[5] = 1.5;
    CHECK(km_matrix_value(owned, 1, 2) == 1.5);

    km_dataset *data = NULL;
    km_kernel_set *precomputed = NULL, *linear = NULL;
    km_params *p = NULL;
    km_model *a = NULL, *b = NULL;
    CHECK_OK(km_dataset_from_dense(6, 1, X, y, &data));
    CHECK_OK(km_kernel_set_new(&precomputed));
    CHECK_OK(km_kernel_set_new(&linear));
    CHECK_OK(km_params_new(&p));
    if (data && precomputed && linear && p) {
        CHECK_OK(km_kernel_set_add_matrix(precomputed, wrapped, KM_NORM_NONE, 0));
        CHECK_OK(km_kernel_set_add_spec(linear, "linear"));
        CHECK_OK(km_train(data, precomputed, p, &a));
        CHECK_OK(km_train(data, linear, p, &b));
        if (a && b)
            CHECK_NEAR(km_model_objective(a, 0), km_model_objective(b, 0), 1e-12);
    }
    km_model_free(a);
    km_model_free(b);
    km_params_free(p);
    km_kernel_set_free(precomputed);
    km_kernel_set_free(linear);
    km_dataset_free(data);
    km_matrix_free(wrapped);   /* leaves the caller's gram alone */
    km_matrix_free(owned);
    CHECK(gram[1] == 0.5f);
}

static void test_version_and_values(void)
{
    char expected[32];
    snprintf(expected, sizeof expected, "%d.%d.%d", KM_VERSION_MAJOR, KM_VERSION_MINOR, KM_VERSION_PATCH);
    CHECK(!strcmp(km_version(), expected));
    CHECK(km_version_number() == KM_VERSION_NUMBER);
    CHECK(KM_VERSION_NUMBER == KM_VERSION_MAJOR * 10000 + KM_VERSION_MINOR * 100 + KM_VERSION_PATCH);
    /* the ABI's numbers, fixed once released */
    CHECK(KM_TASK_SVC == 1 && KM_TASK_SVR == 2 && KM_TASK_ONECLASS == 3);
    CHECK(KM_PARAM_C == 2 && KM_PARAM_MKL_METHOD == 20 && KM_PARAM_REG_PARAM == 31);
    CHECK(offsetof(km_machine_info, size) == 0 && offsetof(km_bound_choice, size) == 0 &&
          offsetof(km_csv_options, size) == 0);
}

KM_TEST_CASE(defaults_and_names) { test_defaults_and_names(); }
KM_TEST_CASE(bounds) { test_bounds(); }
KM_TEST_CASE(arrays_and_copy) { test_arrays_and_copy(); }
KM_TEST_CASE(training_through_handle) { test_training_through_handle(); }
KM_TEST_CASE(wrapped_matrix) { test_wrapped_matrix(); }
KM_TEST_CASE(version_and_values) { test_version_and_values(); }
