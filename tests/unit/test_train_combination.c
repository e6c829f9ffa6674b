/* Training on fixed kernel combinations through the public API:
 *  - the uniform sum of base kernels equals one precomputed kernel holding that sum (same objective,
 *    same decision values), and fixed weights d equal the precomputed weighted sum;
 *  - scaling: weights s*d with C/s give the same decision function (SVM(sK, C/s) = SVM(K, C));
 *  - a zero weight removes a kernel exactly;
 *  - one-vs-one and one-vs-rest produce k(k-1)/2 and k machines and predict by vote / argmax;
 *  - cross-validation is deterministic for a seed. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/params.h"
#include "core/rng.h"
#include "kernelmix.h"

enum { N = 60, D = 4, NT = 30 };

static void make_data(km_rng *rng, size_t n, double *X, double *y, int n_classes)
{
    for (size_t i = 0; i < n; i++) {
        int c = (int)km_rng_below(rng, (uint64_t)n_classes);
        y[i] = n_classes == 2 ? (c ? 1.0 : -1.0) : (double)(c + 1);
        for (size_t j = 0; j < D; j++)
            X[i * D + j] = km_rng_normal(rng) + (j == (size_t)c % D ? 1.5 : 0.0);
    }
}

static double rbf(const double *a, const double *b, double gamma)
{
    double d2 = 0;
    for (size_t j = 0; j < D; j++)
        d2 += (a[j] - b[j]) * (a[j] - b[j]);
    return exp(-gamma * d2);
}

static double dot(const double *a, const double *b)
{
    double s = 0;
    for (size_t j = 0; j < D; j++)
        s += a[j] * b[j];
    return s;
}

/* K[i][j] = w0 * rbf(gamma 0.5) + w1 * linear between rows of A (na) and B (nb). */
static km_matrix *combined(const double *A, size_t na, const double *B, size_t nb, double w0, double w1)
{
    km_matrix *K;
    if (km_matrix_new(na, nb, &K) != KM_OK)
        return NULL;
    double *values = km_matrix_data(K);
    for (size_t i = 0; i < na; i++)
        for (size_t j = 0; j < nb; j++)
            values[i * nb + j] = w0 * rbf(A + i * D, B + j * D, 0.5) + w1 * dot(A + i * D, B + j * D);
    return K;
}

/* Trains (X,y) with the two feature kernels and weights w (NULL: uniform) and with the precomputed
 * combination, and compares objectives and test decision values. */
static void check_combination(const double *X, const double *y, const double *Xt, const double *w, double C)
{
    km_dataset *train, *test;
    CHECK_OK(km_dataset_from_dense(N, D, X, y, &train));
    CHECK_OK(km_dataset_from_dense(NT, D, Xt, NULL, &test));
    km_kernel_set *features, *pre;
    CHECK_OK(km_kernel_set_new(&features));
    CHECK_OK(km_kernel_set_add_spec(features, "rbf:gamma=0.5"));
    CHECK_OK(km_kernel_set_add_spec(features, "linear"));
    double w0 = w ? w[0] : 1.0, w1 = w ? w[1] : 1.0;
    km_matrix *K = combined(X, N, X, N, w0, w1), *Kt = combined(Xt, NT, X, N, w0, w1);
    CHECK_OK(km_kernel_set_new(&pre));
    CHECK_OK(km_kernel_set_add_matrix(pre, K, KM_NORM_NONE, 0));

    km_params params = km_params_default();
    params.C = C;
    params.tolerance = 1e-8;
    params.kernel_weights = w;
    km_model *mf = NULL, *mp = NULL;
    CHECK_OK(km_train(train, features, &params, &mf));
    params.kernel_weights = NULL;
    CHECK_OK(km_train(train, pre, &params, &mp));
    if (mf && mp) {
        CHECK_NEAR(km_model_objective(mf, 0), km_model_objective(mp, 0), 1e-8);
        double df[NT], dp[NT];
        const km_matrix *none[2] = {NULL, NULL}, *tk[1] = {Kt};
        CHECK_OK(km_predict(mf, test, none, NULL, df));
        CHECK_OK(km_predict(mp, test, tk, NULL, dp));
        for (size_t t = 0; t < NT; t++)
            CHECK_NEAR(df[t], dp[t], 1e-6);
        const double *theta = km_model_kernel_weights(mf, 0);
        CHECK(theta[0] == w0 && theta[1] == w1);
    }
    km_model_free(mf);
    km_model_free(mp);
    km_kernel_set_free(features);
    km_kernel_set_free(pre);
    km_matrix_free(K);
    km_matrix_free(Kt);
    km_dataset_free(train);
    km_dataset_free(test);
}

/* SVM(s K, C / s) has the same decision function as SVM(K, C). */
static void check_scaling(const double *X, const double *y, const double *Xt)
{
    km_dataset *train, *test;
    CHECK_OK(km_dataset_from_dense(N, D, X, y, &train));
    CHECK_OK(km_dataset_from_dense(NT, D, Xt, NULL, &test));
    km_kernel_set *set;
    CHECK_OK(km_kernel_set_new(&set));
    CHECK_OK(km_kernel_set_add_spec(set, "rbf:gamma=0.5"));
    CHECK_OK(km_kernel_set_add_spec(set, "linear"));
    double w1[2] = {1.0, 0.5}, w4[2] = {4.0, 2.0};
    km_params params = km_params_default();
    params.tolerance = 1e-9;
    params.C = 2.0;
    params.kernel_weights = w1;
    km_model *a = NULL, *b = NULL;
    CHECK_OK(km_train(train, set, &params, &a));
    params.C = 0.5;
    params.kernel_weights = w4;
    CHECK_OK(km_train(train, set, &params, &b));
    if (a && b) {
        double da[NT], db[NT];
        CHECK_OK(km_predict(a, test, NULL, NULL, da));
        CHECK_OK(km_predict(b, test, NULL, NULL, db));
        for (size_t t = 0; t < NT; t++)
            CHECK_NEAR(da[t], db[t], 1e-5);
        /* the dual objective scales as 1/s: OPT(sK, C/s) = OPT(K, C)/s */
        CHECK_NEAR(km_model_objective(b, 0), km_model_objective(a, 0) / 4.0, 1e-7);
    }
    km_model_free(a);
    km_model_free(b);
    km_kernel_set_free(set);
    km_dataset_free(train);
    km_dataset_free(test);
}

static void check_multiclass(km_rng *rng)
{
    enum { K = 4, NM = 120 };
    double X[NM * D], y[NM];
    make_data(rng, NM, X, y, K);
    km_dataset *data;
    CHECK_OK(km_dataset_from_dense(NM, D, X, y, &data));
    km_kernel_set *set;
    CHECK_OK(km_kernel_set_new(&set));
    CHECK_OK(km_kernel_set_add_spec(set, "rbf:gamma=0.3"));
    km_params params = km_params_default();
    for (int scheme = 0; scheme < 2; scheme++) {
        params.multiclass = scheme ? KM_MULTICLASS_OVR : KM_MULTICLASS_OVO;
        km_model *model = NULL;
        CHECK_OK(km_train(data, set, &params, &model));
        if (!model)
            continue;
        size_t nd = km_model_n_decision(model);
        CHECK(km_model_n_classes(model) == K);
        CHECK(nd == (scheme ? (size_t)K : (size_t)K * (K - 1) / 2));
        CHECK(km_model_n_machines(model) == nd);
        double labels[NM], dec[NM * K * K];
        CHECK_OK(km_predict(model, data, NULL, labels, dec));
        const double *classes = km_model_labels(model);
        size_t correct = 0;
        for (size_t i = 0; i < NM; i++) {
            /* recompute the rule from the decision values */
            size_t best = 0;
            if (scheme) {
                for (size_t c = 1; c < K; c++)
                    if (dec[i * nd + c] > dec[i * nd + best])
                        best = c;
            } else {
                size_t votes[K] = {0}, p = 0;
                for (size_t a = 0; a < K; a++)
                    for (size_t b = a + 1; b < K; b++, p++)
                        votes[dec[i * nd + p] > 0 ? a : b]++;
                for (size_t c = 1; c < K; c++)
                    if (votes[c] > votes[best])
                        best = c;
            }
            CHECK(labels[i] == classes[best]);
            correct += labels[i] == y[i];
        }
        CHECK(correct >= NM * 3 / 4); /* well-separated classes: training accuracy is high */
        for (size_t k = 0; k < nd; k++) {
            km_machine_info info = KM_MACHINE_INFO_INIT;
            CHECK_OK(km_model_machine_info(model, k, &info));
            CHECK(info.converged);
            CHECK(scheme ? isnan(info.negative_label) : !isnan(info.negative_label));
        }
        km_model_free(model);
    }
    /* cross-validation: deterministic for a seed */
    double p1[NM], p2[NM];
    params.seed = 11;
    CHECK_OK(km_cross_validate(data, set, &params, 5, p1));
    CHECK_OK(km_cross_validate(data, set, &params, 5, p2));
    CHECK(memcmp(p1, p2, sizeof p1) == 0);
    CHECK(km_accuracy(y, p1, NM) >= 0.6);
    CHECK_STATUS(km_cross_validate(data, set, &params, 1, p1), KM_EINVAL);
    km_kernel_set_free(set);
    km_dataset_free(data);
}

static void check_bad_params(const double *X, const double *y)
{
    km_dataset *data;
    CHECK_OK(km_dataset_from_dense(N, D, X, y, &data));
    km_kernel_set *set;
    CHECK_OK(km_kernel_set_new(&set));
    CHECK_OK(km_kernel_set_add_spec(set, "linear"));
    km_model *model = NULL;
    km_params p = km_params_default();
    p.C = 0;
    CHECK_STATUS(km_train(data, set, &p, &model), KM_EINVAL);
    p = km_params_default();
    p.nu = 1.5;
    CHECK_STATUS(km_train(data, set, &p, &model), KM_EINVAL);
    p = km_params_default();
    double zero[1] = {0.0};
    p.kernel_weights = zero;
    CHECK_STATUS(km_train(data, set, &p, &model), KM_EINVAL);
    CHECK(model == NULL);
    /* one class only */
    double ones[N];
    for (size_t i = 0; i < N; i++)
        ones[i] = 1.0;
    km_dataset *single;
    CHECK_OK(km_dataset_from_dense(N, D, X, ones, &single));
    p = km_params_default();
    CHECK_STATUS(km_train(single, set, &p, &model), KM_EINVAL);
    CHECK(strstr(km_last_error(), "two classes") != NULL);
    km_dataset_free(single);
    km_kernel_set_free(set);
    km_dataset_free(data);
}

/* two-class training and test data, and the random stream after them (the multiclass case goes on
 * drawing from it) */
static km_rng rng;
static double X[N * D], y[N], Xt[NT * D], yt[NT];

static void setup(void)
{
    km_rng_seed(&rng, 2024);
    make_data(&rng, N, X, y, 2);
    make_data(&rng, NT, Xt, yt, 2);
}

KM_TEST_FIXTURE(setup, NULL)

KM_TEST_CASE(uniform_c1) { check_combination(X, y, Xt, NULL, 1.0); }

KM_TEST_CASE(weighted_c3)
{
    double w[2] = {0.7, 0.2};
    check_combination(X, y, Xt, w, 3.0);
}

KM_TEST_CASE(one_kernel_off)
{
    double off[2] = {1.0, 0.0};
    check_combination(X, y, Xt, off, 1.0);
}

KM_TEST_CASE(scaling) { check_scaling(X, y, Xt); }
KM_TEST_CASE(multiclass) { check_multiclass(&rng); }
KM_TEST_CASE(bad_params) { check_bad_params(X, y); }
