/* Probability outputs through the public API (km_train with KM_PARAM_PROBABILITY, km_predict_probability):
 * every row a distribution whose most probable class is the label given, the binary probability the
 * stored sigmoid of the decision value, the model file round trip, the refusals (no probability
 * models, one-class, one-vs-rest), and the fold count of the internal cross-validation. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/libc_rand.h"
#include "core/rng.h"
#include "svm/platt.h"
#include "train/probability.h"

/* Three Gaussian classes (labels 3, 1, 2 in order of appearance) in 2-D, n rows. */
static km_dataset *three_classes(size_t n, uint64_t seed)
{
    km_rng rng;
    km_rng_seed(&rng, seed);
    double *X = malloc(2 * n * sizeof *X), *y = malloc(n * sizeof *y);
    const double centre[3][2] = {{0.0, 0.0}, {1.5, 0.0}, {0.0, 1.5}};
    for (size_t i = 0; i < n; i++) {
        size_t c = i % 3;
        y[i] = c == 0 ? 3.0 : (double)c;
        X[2 * i] = centre[c][0] + km_rng_normal(&rng);
        X[2 * i + 1] = centre[c][1] + km_rng_normal(&rng);
    }
    km_dataset *data = NULL;
    CHECK_OK(km_dataset_from_dense(n, 2, X, y, &data));
    free(X);
    free(y);
    return data;
}

static km_kernel_set *rbf_kernels(int with_linear)
{
    km_kernel_set *set = NULL;
    CHECK_OK(km_kernel_set_new(&set));
    CHECK_OK(km_kernel_set_add_spec(set, "rbf:gamma=0.5"));
    if (with_linear)
        CHECK_OK(km_kernel_set_add_spec(set, "linear"));
    return set;
}

static km_model *train_probability(const km_dataset *data, const km_kernel_set *set, km_task task, km_mkl_method mkl)
{
    km_params *params = NULL;
    km_model *model = NULL;
    CHECK_OK(km_params_new(&params));
    CHECK_OK(km_params_set_int(params, KM_PARAM_TASK, task));
    CHECK_OK(km_params_set_int(params, KM_PARAM_MKL_METHOD, mkl));
    CHECK_OK(km_params_set_int(params, KM_PARAM_PROBABILITY, 1));
    CHECK_OK(km_train(data, set, params, &model));
    km_params_free(params);
    return model;
}

/* Rows are distributions over the model's classes, the label is the most probable class, and the
 * values equal km_probability_from_decision's on km_predict's decision values. */
static void check_distributions(const km_model *model, const km_dataset *test)
{
    size_t n = km_dataset_rows(test), k = km_model_n_classes(model), nd = km_model_n_decision(model);
    double *probability = malloc(n * k * sizeof *probability), *labels = malloc(n * sizeof *labels);
    double *decision = malloc(n * nd * sizeof *decision), *again = malloc(n * k * sizeof *again);
    CHECK_OK(km_predict_probability(model, test, NULL, labels, probability));
    CHECK_OK(km_predict(model, test, NULL, NULL, decision));
    CHECK_OK(km_probability_from_decision(model, n, decision, NULL, again));
    size_t agree = 0;
    for (size_t i = 0; i < n; i++) {
        double sum = 0.0;
        size_t best = 0;
        for (size_t c = 0; c < k; c++) {
            double p = probability[i * k + c];
            CHECK(p >= 0.0 && p <= 1.0);
            sum += p;
            if (p > probability[i * k + best])
                best = c;
        }
        CHECK_NEAR(sum, 1.0, 1e-9);
        CHECK(labels[i] == km_model_labels(model)[best]);
        agree += labels[i] == km_dataset_labels(test)[i];
    }
    CHECK(memcmp(probability, again, n * k * sizeof *again) == 0);
    CHECK((double)agree >= 0.6 * (double)n);   /* three overlapping classes: well above chance */
    free(probability);
    free(labels);
    free(decision);
    free(again);
}

KM_TEST_CASE(multiclass_probabilities_are_distributions)
{
    km_dataset *data = three_classes(240, 1), *test = three_classes(90, 2);
    km_kernel_set *set = rbf_kernels(0);
    km_model *model = train_probability(data, set, KM_TASK_SVC, KM_MKL_FIXED);
    CHECK(km_model_has_probability(model));
    double A, B;
    for (size_t p = 0; p < km_model_n_machines(model); p++) {
        CHECK_OK(km_model_sigmoid(model, p, &A, &B));
        CHECK(A < 0 && isfinite(B));
    }
    check_distributions(model, test);
    km_model_free(model);
    km_kernel_set_free(set);
    km_dataset_free(data);
    km_dataset_free(test);
}

/* A learned combination: the cross-validation runs on it with the weights fixed. */
KM_TEST_CASE(mkl_probabilities_are_distributions)
{
    km_dataset *data = three_classes(180, 3), *test = three_classes(60, 4);
    km_kernel_set *set = rbf_kernels(1);
    km_model *model = train_probability(data, set, KM_TASK_SVC, KM_MKL_LP);
    check_distributions(model, test);
    km_model_free(model);
    km_kernel_set_free(set);
    km_dataset_free(data);
    km_dataset_free(test);
}

/* Two classes: column 0 is the sigmoid of the decision value (clipped to [1e-7, 1 - 1e-7]), for the
 * model's first label; and the probabilities survive a model file round trip bit for bit. */
KM_TEST_CASE(binary_probability_is_the_sigmoid_and_survives_saving)
{
    km_dataset *all = three_classes(300, 5), *data = NULL;
    size_t rows[200], n = 0;
    for (size_t i = 0; i < 300 && n < 200; i++)
        if (km_dataset_labels(all)[i] != 2.0)
            rows[n++] = i;
    CHECK_OK(km_dataset_subset(all, rows, n, &data));
    km_kernel_set *set = rbf_kernels(0);
    km_model *model = train_probability(data, set, KM_TASK_SVC, KM_MKL_FIXED), *loaded = NULL;
    double decision[200], probability[400], reloaded[400], A, B;
    CHECK_OK(km_predict(model, data, NULL, NULL, decision));
    CHECK_OK(km_predict_probability(model, data, NULL, NULL, probability));
    CHECK_OK(km_model_sigmoid(model, 0, &A, &B));
    for (size_t i = 0; i < n; i++) {
        double p = fmin(fmax(km_sigmoid_probability(decision[i], A, B), 1e-7), 1 - 1e-7);
        CHECK(probability[2 * i] == p);
        CHECK(probability[2 * i + 1] == 1.0 - p);
    }
    void *bytes = NULL;
    size_t size = 0;
    CHECK_OK(km_model_save_buffer(model, &bytes, &size));
    CHECK_OK(km_model_load_buffer(bytes, size, &loaded));
    CHECK_OK(km_predict_probability(loaded, data, NULL, NULL, reloaded));
    CHECK(memcmp(probability, reloaded, sizeof probability) == 0);
    km_free(bytes);
    km_model_free(loaded);
    km_model_free(model);
    km_kernel_set_free(set);
    km_dataset_free(data);
    km_dataset_free(all);
}

KM_TEST_CASE(regression_has_a_laplace_width_and_no_class_probabilities)
{
    km_rng rng;
    km_rng_seed(&rng, 9);
    enum { N = 150 };
    double X[N], z[N], sigma, p[N];
    for (size_t i = 0; i < N; i++) {
        X[i] = 4.0 * km_rng_uniform(&rng) - 2.0;
        z[i] = sin(X[i]) + 0.2 * km_rng_normal(&rng);
    }
    km_dataset *data = NULL;
    CHECK_OK(km_dataset_from_dense(N, 1, X, z, &data));
    km_kernel_set *set = rbf_kernels(0);
    km_model *model = train_probability(data, set, KM_TASK_SVR, KM_MKL_FIXED);
    CHECK_OK(km_model_laplace_sigma(model, &sigma));
    /* noise N(0, 0.2^2) has mean |z| = 0.2 sqrt(2/pi) = 0.16; the fit adds its own error */
    CHECK(sigma > 0.1 && sigma < 0.3);
    CHECK_STATUS(km_predict_probability(model, data, NULL, NULL, p), KM_EINVAL);
    CHECK(strstr(km_last_error(), "Laplace") != NULL);
    double A, B;
    CHECK_STATUS(km_model_sigmoid(model, 0, &A, &B), KM_EINVAL);
    km_model_free(model);
    km_kernel_set_free(set);
    km_dataset_free(data);
}

KM_TEST_CASE(refusals)
{
    km_dataset *data = three_classes(60, 6);
    km_kernel_set *set = rbf_kernels(0);
    km_params *params = NULL;
    km_model *model = NULL;
    double p[3 * 60], sigma;
    CHECK_OK(km_params_new(&params));
    /* a model trained without probability models: an error, and nothing written */
    CHECK_OK(km_train(data, set, params, &model));
    CHECK(!km_model_has_probability(model));
    for (size_t i = 0; i < 3 * 60; i++)
        p[i] = -1.0;
    CHECK_STATUS(km_predict_probability(model, data, NULL, NULL, p), KM_EINVAL);
    CHECK(strstr(km_last_error(), "-b 1") != NULL);
    CHECK(p[0] == -1.0 && p[3 * 60 - 1] == -1.0);
    CHECK_STATUS(km_model_laplace_sigma(model, &sigma), KM_EINVAL);
    km_model_free(model);
    model = NULL;
    CHECK_OK(km_params_set_int(params, KM_PARAM_PROBABILITY, 1));
    CHECK_OK(km_params_set_int(params, KM_PARAM_MULTICLASS, KM_MULTICLASS_OVR));
    CHECK_STATUS(km_train(data, set, params, &model), KM_EINVAL);
    CHECK(model == NULL && strstr(km_last_error(), "one-vs-one") != NULL);
    CHECK_OK(km_params_set_int(params, KM_PARAM_MULTICLASS, KM_MULTICLASS_OVO));
    CHECK_OK(km_params_set_int(params, KM_PARAM_TASK, KM_TASK_ONECLASS));
    CHECK_STATUS(km_train(data, set, params, &model), KM_EINVAL);
    CHECK(model == NULL && strstr(km_last_error(), "one-class") != NULL);
    CHECK_STATUS(km_params_set_int(params, KM_PARAM_PROBABILITY, 2), KM_EINVAL);
    km_params_free(params);
    km_kernel_set_free(set);
    km_dataset_free(data);
}

/* The cross-validation driver alone: 5 folds of LIBSVM's shuffle, each row held out exactly once and
 * trained on in the 4 other folds; a fold whose training rows are of one class predicts its side. */
typedef struct fold_log {
    size_t n, calls, held_count[64], trained_count[64];
} fold_log;

static km_status logged_decisions(void *ctx, const size_t *train, size_t n_train, const size_t *held, size_t n_held,
                                  double *decision)
{
    fold_log *log = ctx;
    log->calls++;
    for (size_t k = 0; k < n_train; k++)
        log->trained_count[train[k]]++;
    for (size_t k = 0; k < n_held; k++) {
        log->held_count[held[k]]++;
        decision[k] = held[k] % 2 ? 1.0 : -1.0;
    }
    return KM_OK;
}

KM_TEST_CASE(cross_validation_folds)
{
    enum { N = 37 };
    unsigned char positive[N];
    for (size_t i = 0; i < N; i++)
        positive[i] = i % 2;
    fold_log log = {.n = N};
    km_libc_rand rand;
    km_libc_rand_seed(&rand, 0);
    km_probability_cv cv = {.n = N, .positive = positive, .decisions = logged_decisions, .decisions_ctx = &log,
                            .rand = &rand};
    double A, B;
    CHECK_OK(km_probability_fit_sigmoid(&cv, &A, &B));
    CHECK(log.calls == KM_PROBABILITY_FOLDS);
    for (size_t i = 0; i < N; i++) {
        CHECK(log.held_count[i] == 1);
        CHECK(log.trained_count[i] == KM_PROBABILITY_FOLDS - 1);
    }
    /* decision values +-1 on the right side for every row: a steep sigmoid, P(+1 | f = 1) > 0.9 */
    CHECK(A < 0 && km_sigmoid_probability(1.0, A, B) > 0.9 && km_sigmoid_probability(-1.0, A, B) < 0.1);

    /* one positive row: the fold holding it out trains on negatives only and is not asked */
    unsigned char lonely[N] = {0};
    lonely[5] = 1;
    fold_log single = {.n = N};
    km_libc_rand_seed(&rand, 0);
    cv.positive = lonely;
    cv.decisions_ctx = &single;
    CHECK_OK(km_probability_fit_sigmoid(&cv, &A, &B));
    CHECK(single.calls == KM_PROBABILITY_FOLDS - 1 && single.held_count[5] == 0);
}
