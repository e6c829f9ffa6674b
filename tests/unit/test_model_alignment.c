/* The alignment diagnostics a model keeps (km_model_alignment) and the alignment methods' parameters
 * in model files: on the eight-point set S8 with the raw kernels linear, (x.x' + 1)^2, exp(-0.5 d^2),
 * exp(-d^2) given as precomputed matrices, the per-kernel centred and uncentred alignments against
 * golden values derived independently from Rostamizadeh's thesis Def. 2.4 and Eq. 2.41, and every
 * value (per kernel and of the learned combination sum_k theta_k K_k) against direct computations
 * with explicitly centred matrices; the same values after a save/load round trip; the fixed-weight
 * and multiclass refusals; radius, q, eta and mu0 returned by km_model_params after reloading. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "kernelmix.h"
#include "s8_set.h"

/* rho, A and eta of K with y by the definitions: K_c = U K U formed explicitly. */
static void direct_alignment(const double *K, const double *y, double *rho, double *A, double *eta)
{
    double r[S] = {0}, g = 0, ymean = 0;
    for (int i = 0; i < S; i++) {
        ymean += y[i] / S;
        for (int j = 0; j < S; j++)
            r[i] += K[i * S + j] / S;
        g += r[i] / S;
    }
    double kc_yy = 0, kc_kc = 0, yc_sq = 0, k_yy = 0, k_k = 0, y_sq = 0;
    for (int i = 0; i < S; i++) {
        yc_sq += (y[i] - ymean) * (y[i] - ymean);
        y_sq += y[i] * y[i];
        for (int j = 0; j < S; j++) {
            double kc = K[i * S + j] - r[i] - r[j] + g;
            /* <K_c, K_Y c>_F with K_Y c = U yy' U */
            kc_yy += kc * (y[i] - ymean) * (y[j] - ymean);
            kc_kc += kc * kc;
            k_yy += K[i * S + j] * y[i] * y[j];
            k_k += K[i * S + j] * K[i * S + j];
        }
    }
    *rho = kc_yy / (sqrt(kc_kc) * yc_sq);
    *A = k_yy / (sqrt(k_k) * y_sq);
    *eta = kc_yy / (S * S);
}

typedef struct fixture {
    double K[KS][S * S];
    km_matrix *matrices[KS];
    km_dataset *data;
    km_kernel_set *set;
} fixture;

static void setup(fixture *f, const double *y)
{
    double ids[S];
    s8_raw_kernels(f->K);
    for (int i = 0; i < S; i++)
        ids[i] = i;
    CHECK_OK(km_dataset_from_dense(S, 1, ids, y, &f->data));
    CHECK_OK(km_kernel_set_new(&f->set));
    for (int k = 0; k < KS; k++) {
        CHECK_OK(km_matrix_wrap(S, S, KM_FLOAT64, f->K[k], &f->matrices[k]));
        CHECK_OK(km_kernel_set_add_matrix(f->set, f->matrices[k], KM_NORM_NONE, 0));
    }
}

static void teardown(fixture *f)
{
    km_kernel_set_free(f->set);
    km_dataset_free(f->data);
    for (int k = 0; k < KS; k++)
        km_matrix_free(f->matrices[k]);
}

static km_model *train(fixture *f, km_task task, km_mkl_method method)
{
    km_params *params = NULL;
    km_model *model = NULL;
    CHECK_OK(km_params_new(&params));
    CHECK_OK(km_params_set_int(params, KM_PARAM_TASK, task));
    CHECK_OK(km_params_set_int(params, KM_PARAM_MKL_METHOD, method));
    CHECK_OK(km_train(f->data, f->set, params, &model));
    km_params_free(params);
    return model;
}

/* Every value of km_model_alignment against the direct computation. */
static void check_against_direct(const km_model *model, const fixture *f, const double *y)
{
    double rho, A, eta, drho, dA, deta;
    for (int k = 0; k < KS; k++) {
        CHECK_OK(km_model_alignment(model, 0, (size_t)k, &rho, &A, &eta));
        direct_alignment(f->K[k], y, &drho, &dA, &deta);
        CHECK_NEAR(rho, drho, 1e-12);
        CHECK_NEAR(A, dA, 1e-12);
        CHECK_NEAR(eta, deta, 1e-12);
    }
    const double *theta = km_model_kernel_weights(model, 0);
    double combined[S * S] = {0};
    for (int k = 0; k < KS; k++)
        for (int i = 0; i < S * S; i++)
            combined[i] += theta[k] * f->K[k][i];
    CHECK_OK(km_model_alignment(model, 0, KS, &rho, &A, &eta));
    direct_alignment(combined, y, &drho, &dA, &deta);
    CHECK_NEAR(rho, drho, 1e-12);
    CHECK_NEAR(A, dA, 1e-12);
    CHECK_NEAR(eta, deta, 1e-12);
}

static void test_regression_goldens(void)
{
    fixture f;
    setup(&f, s8_y);
    km_model *model = train(&f, KM_TASK_KRR, KM_MKL_ALIGNF);
    /* golden (rho, A) of the raw kernels */
    static const double golden[KS][2] = {
        {0.223258, 0.069338}, {0.150668, 0.065464}, {0.315253, 0.181897}, {0.354230, 0.267650}};
    for (int k = 0; k < KS; k++) {
        double rho, A;
        CHECK_OK(km_model_alignment(model, 0, (size_t)k, &rho, &A, NULL));
        CHECK_NEAR(rho, golden[k][0], 1e-6);
        CHECK_NEAR(A, golden[k][1], 1e-6);
        /* the diagnostics' centred alignment of the labels is the same quantity */
        CHECK_NEAR(rho, km_model_target_alignment(model)[k], 1e-12);
    }
    check_against_direct(model, &f, s8_y);
    /* alignf maximises the centred alignment over mu >= 0: at least every single kernel's */
    double combined = 0;
    CHECK_OK(km_model_alignment(model, 0, KS, &combined, NULL, NULL));
    for (int k = 0; k < KS; k++)
        CHECK(combined >= km_model_target_alignment(model)[k] - 1e-12);
    /* a save/load round trip keeps every value */
    void *buffer = NULL;
    size_t size = 0;
    km_model *loaded = NULL;
    CHECK_OK(km_model_save_buffer(model, &buffer, &size));
    CHECK_OK(km_model_load_buffer(buffer, size, &loaded));
    for (size_t k = 0; k <= KS; k++) {
        double a[3], b[3];
        CHECK_OK(km_model_alignment(model, 0, k, &a[0], &a[1], &a[2]));
        CHECK_OK(km_model_alignment(loaded, 0, k, &b[0], &b[1], &b[2]));
        for (int i = 0; i < 3; i++)
            CHECK(a[i] == b[i]);
    }
    CHECK_STATUS(km_model_alignment(loaded, 0, KS + 1, NULL, NULL, NULL), KM_EINVAL);
    CHECK_STATUS(km_model_alignment(loaded, 1, 0, NULL, NULL, NULL), KM_EINVAL);
    km_free(buffer);
    km_model_free(loaded);
    km_model_free(model);
    teardown(&f);
}

static void test_classification(void)
{
    fixture f;
    setup(&f, s8_y);
    km_model *model = train(&f, KM_TASK_SVC, KM_MKL_ALIGN);
    /* two classes: the targets are +-1 in the model's class order; every value is even in y */
    check_against_direct(model, &f, s8_y);
    km_model_free(model);
    /* fixed weights store no alignments */
    model = train(&f, KM_TASK_SVC, KM_MKL_FIXED);
    CHECK_STATUS(km_model_alignment(model, 0, 0, NULL, NULL, NULL), KM_EINVAL);
    km_model_free(model);
    teardown(&f);
    /* three classes have no single target vector */
    const double y3[S] = {1, 1, 2, 2, 3, 3, 1, 2};
    setup(&f, y3);
    model = train(&f, KM_TASK_SVC, KM_MKL_ALIGN);
    CHECK(km_model_target_alignment(model) != NULL);
    CHECK_STATUS(km_model_alignment(model, 0, 0, NULL, NULL, NULL), KM_EINVAL);
    km_model_free(model);
    teardown(&f);
}

/* radius, align-q's q, l2krr's eta and mu0 survive a save/load round trip in km_model_params. */
static void check_params_round_trip(fixture *f, km_mkl_method method, double radius, double q, double eta,
                                    km_mu0 mu0)
{
    km_params *params = NULL, *back = NULL;
    km_model *model = NULL, *loaded = NULL;
    CHECK_OK(km_params_new(&params));
    CHECK_OK(km_params_set_int(params, KM_PARAM_TASK, KM_TASK_KRR));
    CHECK_OK(km_params_set_int(params, KM_PARAM_MKL_METHOD, method));
    CHECK_OK(km_params_set_double(params, KM_PARAM_MKL_RADIUS, radius));
    CHECK_OK(km_params_set_double(params, KM_PARAM_ALIGN_Q, q));
    CHECK_OK(km_params_set_double(params, KM_PARAM_L2KRR_ETA, eta));
    CHECK_OK(km_params_set_int(params, KM_PARAM_MU0, mu0));
    CHECK_OK(km_train(f->data, f->set, params, &model));
    void *buffer = NULL;
    size_t size = 0;
    CHECK_OK(km_model_save_buffer(model, &buffer, &size));
    CHECK_OK(km_model_load_buffer(buffer, size, &loaded));
    CHECK_OK(km_model_params(loaded, &back));
    double got_radius = 0, got_q = 0, got_eta = 0;
    int64_t got_method = -1, got_mu0 = -1;
    km_params_get_int(back, KM_PARAM_MKL_METHOD, &got_method);
    km_params_get_double(back, KM_PARAM_MKL_RADIUS, &got_radius);
    km_params_get_double(back, KM_PARAM_ALIGN_Q, &got_q);
    km_params_get_double(back, KM_PARAM_L2KRR_ETA, &got_eta);
    km_params_get_int(back, KM_PARAM_MU0, &got_mu0);
    CHECK(got_method == method);
    CHECK(got_radius == radius);
    /* written only for the method that uses it; the others read back as km_params_new's defaults */
    CHECK(got_q == (method == KM_MKL_ALIGN_Q ? q : 2.0));
    CHECK(got_eta == (method == KM_MKL_L2KRR ? eta : 0.25));
    CHECK(got_mu0 == (method == KM_MKL_L2KRR ? mu0 : KM_MU0_ZERO));
    km_free(buffer);
    km_params_free(back);
    km_params_free(params);
    km_model_free(loaded);
    km_model_free(model);
}

static void test_params_round_trip(void)
{
    fixture f;
    setup(&f, s8_y);
    check_params_round_trip(&f, KM_MKL_L2KRR, 3.5, 3.0, 0.5, KM_MU0_UNIFORM);
    check_params_round_trip(&f, KM_MKL_ALIGN_Q, 0.75, 3.0, 0.5, KM_MU0_UNIFORM);
    check_params_round_trip(&f, KM_MKL_L1KRR, 2.0, 3.0, 0.5, KM_MU0_UNIFORM);
    teardown(&f);
}

KM_TEST_CASE(regression_goldens) { test_regression_goldens(); }
KM_TEST_CASE(classification) { test_classification(); }
KM_TEST_CASE(params_round_trip) { test_params_round_trip(); }
