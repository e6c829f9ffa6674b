/* Kernels constant on the training rows (mkl/degenerate.c): a constant kernel adds only a constant to the
 * decision function, which the bias absorbs, and a zero kernel nothing, so every learned-weight method
 * leaves them out with one warning each and weight exactly 0. The weights of the other kernels and the
 * decision values then equal those of training without the constant kernels in the set: the methods see
 * the same kernels. The localized methods weigh beta(x) beta(x') k(x,x'), where a constant k is the
 * memberships' own kernel: they keep every kernel, and a zero one gets weight 0 by itself. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/params.h"
#include "mkl/mkl_params.h"
#include "core/rng.h"
#include "kernelmix.h"

enum { N = 40, D = 2 };

typedef struct problem {
    double X[N * D], labels[N], ternary[N], targets[N];
    km_matrix *zero;             /* a precomputed all-zero kernel, N x N */
} problem;

static void problem_init(problem *p)
{
    km_rng rng;
    km_rng_seed(&rng, 20261127);
    for (size_t i = 0; i < N; i++) {
        double x0 = 2 * km_rng_uniform(&rng) - 1, x1 = 2 * km_rng_uniform(&rng) - 1, noise = 0.3 * km_rng_normal(&rng);
        p->X[i * D] = x0;
        p->X[i * D + 1] = x1;
        p->labels[i] = x0 + 0.5 * x1 + noise > 0 ? 1.0 : -1.0;
        p->ternary[i] = x0 + noise < -0.3 ? 0.0 : x0 + noise < 0.3 ? 1.0 : 2.0;
        p->targets[i] = x0 + 0.5 * x1 * x1 + 0.1 * noise;
    }
    CHECK_OK(km_matrix_new(N, N, &p->zero));
    memset(km_matrix_data(p->zero), 0, N * N * sizeof(double));
}

/* Warnings that a kernel is left out, and the kernels they name. */
typedef struct warnings {
    int count;
    char text[4][256];
} warnings;

static void collect(void *user, km_log_level level, const char *message)
{
    warnings *w = user;
    if (level != KM_LOG_WARNING || !strstr(message, "is constant on the training rows: weight 0"))
        return;
    if (w->count < 4)
        strncpy(w->text[w->count], message, sizeof w->text[0] - 1);
    w->count++;
}

typedef struct method_case {
    const char *name;
    km_task task;
    km_mkl_method method;
    km_mkl_solver solver;
    double p_block;              /* 0: the method's default */
    int shared;                  /* three classes, one theta for the one-vs-one machines */
} method_case;

static km_params case_params(const method_case *c, warnings *w)
{
    km_params params = km_params_default();
    params.task = c->task;
    params.C = 1.0;
    params.tolerance = 1e-8;
    km_params_store(&params, KM_PARAM_MKL_METHOD, c->method);
    km_params_store(&params, KM_PARAM_MKL_SOLVER, c->solver);
    if (c->p_block > 0)
        km_params_store(&params, KM_PARAM_P_BLOCK, c->p_block);
    km_params_store(&params, KM_PARAM_SHARED_WEIGHTS, c->shared);
    km_params_set_log(&params, collect, w);
    return params;
}

/* Kernels rbf:gamma=0.5 and linear, with (full) the constant rbf:gamma=1e-15 as kernel 2 and the zero
 * matrix as kernel 3 between them. */
static km_kernel_set *kernels(const problem *p, int full)
{
    km_kernel_set *set = NULL;
    CHECK_OK(km_kernel_set_new(&set));
    CHECK_OK(km_kernel_set_add_spec(set, "rbf:gamma=0.5"));
    if (full) {
        CHECK_OK(km_kernel_set_add_spec(set, "rbf:gamma=1e-15"));
        CHECK_OK(km_kernel_set_add_matrix(set, p->zero, KM_NORM_NONE, 0));
    }
    CHECK_OK(km_kernel_set_add_spec(set, "linear"));
    return set;
}

static const double *case_labels(const problem *p, const method_case *c)
{
    return c->task == KM_TASK_KRR ? p->targets : c->shared ? p->ternary : p->labels;
}

static void check_method(const problem *p, const method_case *c)
{
    km_dataset *data = NULL;
    CHECK_OK(km_dataset_from_dense(N, D, p->X, case_labels(p, c), &data));
    km_kernel_set *with = kernels(p, 1), *without = kernels(p, 0);
    warnings w = {0}, w_ref = {0};
    km_params params = case_params(c, &w), ref_params = case_params(c, &w_ref);
    km_model *model = NULL, *ref = NULL;
    CHECK_OK(km_train(data, with, &params, &model));
    CHECK_OK(km_train(data, without, &ref_params, &ref));
    if (!model || !ref) {
        fprintf(stderr, "  method %s\n", c->name);
        goto done;
    }
    /* one warning per constant kernel, naming it */
    CHECK(w.count == 2 && w_ref.count == 0);
    CHECK(strstr(w.text[0], "kernel 2 (rbf:gamma=1e-15)") != NULL);
    CHECK(strstr(w.text[1], "kernel 3 (") != NULL);
    CHECK(km_model_n_kernels(model) == 4);
    for (size_t k = 0; k < km_model_n_machines(model); k++) {
        const double *theta = km_model_kernel_weights(model, k), *theta_ref = km_model_kernel_weights(ref, k);
        CHECK(theta[1] == 0.0 && theta[2] == 0.0);
        CHECK_NEAR(theta[0], theta_ref[0], 1e-6);
        CHECK_NEAR(theta[3], theta_ref[1], 1e-6);
    }
    /* predictions (the zero kernel's test matrix is zero as well) equal the reference's */
    size_t K = km_model_n_decision(model);
    double *labels = malloc(N * sizeof *labels), *labels_ref = malloc(N * sizeof *labels_ref);
    double *decision = malloc(N * K * sizeof *decision), *decision_ref = malloc(N * K * sizeof *decision_ref);
    const km_matrix *test_kernels[4] = {NULL, NULL, p->zero, NULL};
    CHECK(K == km_model_n_decision(ref));
    CHECK_OK(km_predict(model, data, test_kernels, labels, decision));
    CHECK_OK(km_predict(ref, data, NULL, labels_ref, decision_ref));
    for (size_t i = 0; i < N * K; i++)
        CHECK_NEAR(decision[i], decision_ref[i], 1e-6);
    for (size_t i = 0; i < N; i++)
        CHECK(labels[i] == labels_ref[i]);
    free(labels);
    free(labels_ref);
    free(decision);
    free(decision_ref);
done:
    km_model_free(model);
    km_model_free(ref);
    km_kernel_set_free(with);
    km_kernel_set_free(without);
    km_dataset_free(data);
}

static const method_case cases[] = {
    {"lp interleaved", KM_TASK_SVC, KM_MKL_LP, KM_MKL_INTERLEAVED, 4.0 / 3.0, 0},
    {"lp wrapper", KM_TASK_SVC, KM_MKL_LP, KM_MKL_WRAPPER, 4.0 / 3.0, 0},
    {"lp silp", KM_TASK_SVC, KM_MKL_LP, KM_MKL_SILP, 1.0, 0},
    {"lp simplemkl", KM_TASK_SVC, KM_MKL_LP, KM_MKL_SIMPLEMKL, 1.0, 0},
    {"lp shared", KM_TASK_SVC, KM_MKL_LP, KM_MKL_WRAPPER, 4.0 / 3.0, 1},
    {"elasticnet", KM_TASK_SVC, KM_MKL_ELASTICNET, KM_MKL_INTERLEAVED, 0, 0},
    {"tikhonov", KM_TASK_SVC, KM_MKL_TIKHONOV, KM_MKL_INTERLEAVED, 0, 0},
    {"align", KM_TASK_SVC, KM_MKL_ALIGN, KM_MKL_INTERLEAVED, 0, 0},
    {"align-q", KM_TASK_SVC, KM_MKL_ALIGN_Q, KM_MKL_INTERLEAVED, 0, 0},
    {"alignf", KM_TASK_SVC, KM_MKL_ALIGNF, KM_MKL_INTERLEAVED, 0, 0},
    {"alignf-linear", KM_TASK_SVC, KM_MKL_ALIGNF_LINEAR, KM_MKL_INTERLEAVED, 0, 0},
    {"obscure", KM_TASK_SVC, KM_MKL_OBSCURE, KM_MKL_INTERLEAVED, 0, 0},
    {"l2krr", KM_TASK_KRR, KM_MKL_L2KRR, KM_MKL_INTERLEAVED, 0, 0},
    {"l1krr", KM_TASK_KRR, KM_MKL_L1KRR, KM_MKL_INTERLEAVED, 0, 0},
    {"eb-rw", KM_TASK_KRR, KM_MKL_EB_RW, KM_MKL_INTERLEAVED, 0, 0},
    {"eb-mackay", KM_TASK_KRR, KM_MKL_EB_MACKAY, KM_MKL_INTERLEAVED, 0, 0},
};

KM_TEST_CASE(left_out_with_weight_zero)
{
    problem p;
    problem_init(&p);
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++)
        check_method(&p, &cases[k]);
    km_matrix_free(p.zero);
}

/* The localized methods keep a constant kernel (under the memberships or gates it is not constant): they
 * train on every kernel without a warning, the zero kernel gets weight 0 in every cluster of clmkl and
 * hlmkl, and the model classifies its training rows. */
KM_TEST_CASE(localized_methods_keep_constant_kernels)
{
    problem p;
    problem_init(&p);
    km_dataset *data = NULL;
    CHECK_OK(km_dataset_from_dense(N, D, p.X, p.labels, &data));
    km_kernel_set *with = kernels(&p, 1);
    const km_mkl_method localized[] = {KM_MKL_CLMKL, KM_MKL_HLMKL, KM_MKL_LMKL};
    for (size_t k = 0; k < 3; k++) {
        km_params params = km_params_default();
        warnings w = {0};
        params.log = collect;
        params.log_user = &w;
        km_params_store(&params, KM_PARAM_MKL_METHOD, localized[k]);
        km_model *model = NULL;
        CHECK_OK(km_train(data, with, &params, &model));
        if (!model)
            continue;
        CHECK(w.count == 0);
        CHECK(km_model_n_kernels(model) == 4);
        const double *theta = km_model_kernel_weights(model, 0);
        size_t groups = km_model_weight_groups(model);
        for (size_t g = 0; localized[k] != KM_MKL_LMKL && g < groups; g++)
            CHECK(theta[g * 4 + 2] == 0.0);   /* the zero kernel */
        double labels[N];
        const km_matrix *test_kernels[4] = {NULL, NULL, p.zero, NULL};
        CHECK_OK(km_predict(model, data, test_kernels, labels, NULL));
        size_t right = 0;
        for (size_t i = 0; i < N; i++)
            right += labels[i] == p.labels[i];
        CHECK(right >= N * 3 / 4);
        km_model_free(model);
    }
    km_kernel_set_free(with);
    km_dataset_free(data);
    km_matrix_free(p.zero);
}

/* Nothing is left to learn when every kernel is constant. */
KM_TEST_CASE(all_constant_refused)
{
    problem p;
    problem_init(&p);
    km_dataset *data = NULL;
    km_kernel_set *set = NULL;
    CHECK_OK(km_dataset_from_dense(N, D, p.X, p.labels, &data));
    CHECK_OK(km_kernel_set_new(&set));
    CHECK_OK(km_kernel_set_add_spec(set, "rbf:gamma=1e-15"));
    CHECK_OK(km_kernel_set_add_matrix(set, p.zero, KM_NORM_NONE, 0));
    km_params params = km_params_default();
    km_params_store(&params, KM_PARAM_MKL_METHOD, KM_MKL_LP);
    km_model *model = NULL;
    CHECK_STATUS(km_train(data, set, &params, &model), KM_EINVAL);
    CHECK(model == NULL && strstr(km_last_error(), "every kernel is constant on the training rows") != NULL);
    km_kernel_set_free(set);
    km_dataset_free(data);
    km_matrix_free(p.zero);
}
