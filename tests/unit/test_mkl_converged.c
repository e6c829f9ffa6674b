/* "converged" means one thing for every kernel-weight method with a duality certificate: the certified
 * relative gap met its target (--mkl-eps; OBSCURE: --tol), whichever rule or limit ended the run. And
 * an alternating or interleaved solver whose gap stops falling ends with one warning and a usable model;
 * with shared multiclass weights it first tightens the machines' SVM tolerance, which reaches the
 * target. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/params.h"
#include "mkl/mkl_params.h"
#include "core/rng.h"
#include "kernelmix.h"

enum { N = 90, D = 4 };

/* Rows uniform in [-1, 1]^D; labels of `classes` classes by sectors of a noisy boundary, or a noisy
 * smooth target (classes 0). */
static km_dataset *generate(size_t classes, uint64_t seed, double feature_scale)
{
    km_rng rng;
    km_rng_seed(&rng, seed);
    double X[N * D], y[N];
    for (size_t i = 0; i < N; i++) {
        for (size_t j = 0; j < D; j++)
            X[i * D + j] = 2.0 * km_rng_uniform(&rng) - 1.0;
        double noise = 0.4 * (km_rng_uniform(&rng) - 0.5);
        double s = X[i * D] + 0.8 * X[i * D + 1] * X[i * D + 1] - 0.3 + noise;
        if (classes == 0)
            y[i] = sin(2.0 * X[i * D]) + 0.5 * X[i * D + 2] + noise;
        else if (classes == 2)
            y[i] = s > 0 ? 1.0 : -1.0;
        else
            y[i] = s < -0.3 ? 0.0 : s < 0.4 ? 1.0 : 2.0;
        for (size_t j = 0; j < D; j++)
            X[i * D + j] *= feature_scale;
    }
    km_dataset *data = NULL;
    CHECK_OK(km_dataset_from_dense(N, D, X, y, &data));
    return data;
}

static km_kernel_set *kernels_of(const char *const *specs, size_t count)
{
    km_kernel_set *kernels = NULL;
    CHECK_OK(km_kernel_set_new(&kernels));
    for (size_t k = 0; k < count; k++)
        CHECK_OK(km_kernel_set_add_spec(kernels, specs[k]));
    return kernels;
}

/* How many of data's rows the model predicts right. */
static size_t rows_predicted_right(const km_model *model, const km_dataset *data)
{
    double labels[N];
    CHECK_OK(km_predict(model, data, NULL, labels, NULL));
    size_t right = 0;
    for (size_t i = 0; i < N; i++)
        right += labels[i] == km_dataset_labels(data)[i];
    return right;
}

typedef struct log_count {
    int warnings, tightened;
} log_count;

static void count_log(void *user, km_log_level level, const char *message)
{
    log_count *c = user;
    c->warnings += level == KM_LOG_WARNING;
    c->tightened += strstr(message, "mkl: SVM tolerance") != NULL;
}

/* Trains with params, counting the log in *log; the model (NULL when training failed, which CHECK_OK
 * has reported) and its first machine's info in *info. */
static km_model *train_counting_log(const km_dataset *data, const km_kernel_set *kernels, km_params *params,
                                    log_count *log, km_machine_info *info)
{
    params->log = count_log;
    params->log_user = log;
    km_model *model = NULL;
    CHECK_OK(km_train(data, kernels, params, &model));
    if (model)
        CHECK_OK(km_model_machine_info(model, 0, info));
    return model;
}

typedef struct setting {
    const char *what;
    km_task task;
    km_mkl_method method;
    km_mkl_solver solver;
    double p;
} setting;

static const setting SETTINGS[] = {
    {"lp interleaved", KM_TASK_SVC, KM_MKL_LP, KM_MKL_INTERLEAVED, 4.0 / 3.0},
    {"lp wrapper", KM_TASK_SVC, KM_MKL_LP, KM_MKL_WRAPPER, 4.0 / 3.0},
    {"lp silp", KM_TASK_SVC, KM_MKL_LP, KM_MKL_SILP, 4.0 / 3.0},
    {"lp simplemkl", KM_TASK_SVC, KM_MKL_LP, KM_MKL_SIMPLEMKL, 1.0},
    {"elasticnet", KM_TASK_SVC, KM_MKL_ELASTICNET, KM_MKL_INTERLEAVED, 2.0},
    {"tikhonov svc", KM_TASK_SVC, KM_MKL_TIKHONOV, KM_MKL_INTERLEAVED, 2.0},
    {"tikhonov krr", KM_TASK_KRR, KM_MKL_TIKHONOV, KM_MKL_INTERLEAVED, 2.0},
    {"l2krr", KM_TASK_KRR, KM_MKL_L2KRR, KM_MKL_INTERLEAVED, 2.0},
    {"l1krr", KM_TASK_KRR, KM_MKL_L1KRR, KM_MKL_INTERLEAVED, 2.0},
    {"clmkl", KM_TASK_SVC, KM_MKL_CLMKL, KM_MKL_INTERLEAVED, 2.0},
    {"obscure", KM_TASK_SVC, KM_MKL_OBSCURE, KM_MKL_INTERLEAVED, 2.0},
};

/* Every method, run to its default target, starved of outer steps, and with a tight target but a loose
 * step rule (Tikhonov's objective-change stop): converged == (gap <= target) each time. */
KM_TEST_CASE(converged_means_gap_met)
{
    static const char *const specs[] = {"linear", "rbf:gamma=0.5", "rbf:gamma=2"};
    km_kernel_set *kernels = kernels_of(specs, 3);
    km_dataset *classes = generate(2, 11, 1.0), *targets = generate(0, 12, 1.0);
    int seen_converged = 0, seen_open = 0;
    for (size_t k = 0; k < sizeof SETTINGS / sizeof *SETTINGS; k++) {
        const setting *s = &SETTINGS[k];
        for (int variant = 0; variant < 3; variant++) {
            km_params params = km_params_default();
            log_count log = {0};
            params.log = count_log;
            params.log_user = &log;
            params.task = s->task;
            params.C = 10.0;
            km_params_store(&params, KM_PARAM_MKL_METHOD, s->method);
            km_params_store(&params, KM_PARAM_MKL_SOLVER, s->solver);
            km_params_store(&params, KM_PARAM_P, s->p);
            if (s->method == KM_MKL_OBSCURE)
                km_params_store(&params, KM_PARAM_OBSCURE_EPOCHS, variant == 1 ? 1 : 5);
            if (variant == 1)
                km_params_store(&params, KM_PARAM_MKL_MAX_OUTER, 2);
            if (variant == 2) {
                km_params_store(&params, KM_PARAM_MKL_GAP, 1e-9);
                km_params_store(&params, KM_PARAM_MKL_EPS, 1e-2);
                km_params_store(&params, KM_PARAM_MKL_MAX_OUTER, 30);
                km_params_store(&params, KM_PARAM_OBSCURE_TOL, 1e-9);
            }
            km_model *model = NULL;
            km_status st = km_train(s->task == KM_TASK_KRR ? targets : classes, kernels, &params, &model);
            if (st == KM_EINVAL && strstr(km_last_error(), "built without GLPK"))
                continue;
            CHECK_OK(st);
            if (!model)
                continue;
            km_machine_info info = KM_MACHINE_INFO_INIT;
            CHECK_OK(km_model_machine_info(model, 0, &info));
            double target = s->method == KM_MKL_OBSCURE ? km_mkl_params_of(&params).obscure_tol : km_mkl_params_of(&params).gap;
            printf("%-15s variant %d: gap %.3e (target %g), converged %d\n", s->what, variant, info.gap, target,
                   info.converged);
            CHECK(!isnan(info.gap));
            CHECK(info.converged == (info.gap <= target));
            seen_converged += info.converged;
            seen_open += !info.converged;
            km_model_free(model);
        }
    }
    CHECK(seen_converged > 0 && seen_open > 0);
    km_dataset_free(classes);
    km_dataset_free(targets);
    km_kernel_set_free(kernels);
}

/* Features of 1e2 (kernel values of 1e4) and a coarse SVM tolerance: the warm-started solves stop
 * changing while theta moves and the gap stays flat. The wrapper and shared multiclass weights tighten
 * the machines' tolerance, and stop converged or with one warning well before max_outer, with a model
 * that predicts. */
KM_TEST_CASE(stalled_gap)
{
    static const char *const specs[] = {"linear", "rbf:gamma=0.5/mean", "rbf:gamma=2/mean"};
    km_kernel_set *kernels = kernels_of(specs, 3);
    for (int shared = 0; shared < 2; shared++) {
        km_dataset *data = generate(shared ? 3 : 2, 21, 100.0);
        km_params params = km_params_default();
        params.C = 10.0;
        params.tolerance = 1e-1;
        km_params_store(&params, KM_PARAM_MKL_METHOD, KM_MKL_LP);
        km_params_store(&params, KM_PARAM_P, 1.5);
        km_params_store(&params, KM_PARAM_MKL_GAP, 1e-6);
        km_params_store(&params, KM_PARAM_MKL_SOLVER, KM_MKL_WRAPPER);
        km_params_store(&params, KM_PARAM_SHARED_WEIGHTS, shared);
        log_count log = {0};
        km_machine_info info = KM_MACHINE_INFO_INIT;
        km_model *model = train_counting_log(data, kernels, &params, &log, &info);
        if (!model)
            continue;
        printf("%s: gap %.3e after %ld outer steps, converged %d, %d warnings, %d tightenings\n",
               shared ? "shared" : "wrapper", info.gap, info.mkl_iterations, info.converged, log.warnings,
               log.tightened);
        CHECK(info.converged == (info.gap <= km_mkl_params_of(&params).gap));
        /* the stall tightens the SVM tolerance (down to 1e-4 times -e); what that floor cannot certify
         * ends with one warning, long before max_outer */
        CHECK(log.tightened >= 1 && info.mkl_iterations < 200);
        CHECK(log.warnings == (info.converged ? 0 : 1));
        CHECK(rows_predicted_right(model, data) >= N * 7 / 10);
        km_model_free(model);
        km_dataset_free(data);
    }
    km_kernel_set_free(kernels);
}

/* p = 1, C = 100 and a target of 1e-6 over nine RBF widths: the interleaved solver tightens the SVM
 * tolerance to its floor, after which its gap mostly wanders around 1-4e-6 (weights that the loose early
 * solves drove to the 1e-12 floor come back by factors near 1 a step). Each run ends before max_outer
 * (10,000 theta steps, where all five ran without the stall stop): certified, or with one warning once
 * the smallest gap has not fallen over as many steps as it took to reach it (so a run whose smallest gap
 * came late may take up to twice that), keeping the certified point, which predicts.
 * Where a run certifies depends on rounding (the sanitizer build's certifies seed 5), so the test asks
 * for both outcomes to follow the rule and for at least one stall among the five. */
KM_TEST_CASE(interleaved_stalled_gap)
{
    static const char *const specs[] = {"rbf:gamma=2^-4..2^4/mean"};
    km_kernel_set *kernels = kernels_of(specs, 1);
    static const uint64_t seeds[] = {4, 5, 6, 9, 28};
    int stalled = 0;
    for (size_t k = 0; k < sizeof seeds / sizeof *seeds; k++) {
        uint64_t seed = seeds[k];
        km_dataset *data = generate(2, seed, 1.0);
        km_params params = km_params_default();
        params.C = 100.0;
        km_params_store(&params, KM_PARAM_MKL_METHOD, KM_MKL_LP);
        km_params_store(&params, KM_PARAM_MKL_SOLVER, KM_MKL_INTERLEAVED);
        km_params_store(&params, KM_PARAM_P, 1.0);
        km_params_store(&params, KM_PARAM_MKL_GAP, 1e-6);
        log_count log = {0};
        km_machine_info info = KM_MACHINE_INFO_INIT;
        km_model *model = train_counting_log(data, kernels, &params, &log, &info);
        if (!model)
            continue;
        printf("seed %d: gap %.3e after %ld theta steps, converged %d, %d warnings, %d tightenings\n", (int)seed,
               info.gap, info.mkl_iterations, info.converged, log.warnings, log.tightened);
        CHECK(info.converged == (info.gap <= 1e-6) && info.gap < 1e-5);
        CHECK(log.tightened >= 1 && log.warnings == !info.converged);
        CHECK(info.mkl_iterations < km_mkl_params_of(&params).max_outer);
        stalled += !info.converged;
        CHECK(rows_predicted_right(model, data) >= N * 8 / 10);
        km_model_free(model);
        km_dataset_free(data);
    }
    CHECK(stalled >= 1);
    km_kernel_set_free(kernels);
}
