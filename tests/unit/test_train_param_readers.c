/* The parameters a run reads (km_param_read_by, from the tasks' and methods' lists): a parameter the
 * lists say a task or method ignores does not change what it learns (the kernel weights and the
 * decision values on the training rows are identical, or training refuses the value); a parameter a
 * method lists changes it for some value; parameters read by every task and method (the SMO tolerance,
 * the cache, the seed) are never reported unread. */
#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "check.h"
#include "kernelmix.h"

/* Some 200 small trainings: one thread each, which a busy machine does not make wait. */
static void one_thread(void)
{
    openblas_set_num_threads(1);
#ifdef _OPENMP
    omp_set_num_threads(1);
#endif
}
KM_TEST_FIXTURE(one_thread, NULL)

#define N 24

/* 24 rows, 4 features, classes 1, 2 (and 3 when three) by the sign pattern of two features. */
static km_dataset *classes(int three)
{
    double X[N * 4], y[N];
    for (size_t i = 0; i < N; i++) {
        for (size_t j = 0; j < 4; j++)
            X[i * 4 + j] = sin(1.3 * (double)(i * 4 + j) + 0.7);
        y[i] = X[i * 4] > 0.3 ? 1.0 : X[i * 4 + 1] > 0 || !three ? 2.0 : 3.0;
    }
    km_dataset *data = NULL;
    CHECK_OK(km_dataset_from_dense(N, 4, X, y, &data));
    return data;
}

/* A value other than the default for every parameter some task or method lists (valid on its own). */
typedef struct alternative {
    km_param id;
    int integer;
    double value;
} alternative;

static const alternative alternatives[] = {
    {KM_PARAM_C, 0, 7.0},
    {KM_PARAM_EPSILON, 0, 0.4},
    {KM_PARAM_NU, 0, 0.35},
    {KM_PARAM_KRR_BIAS, 1, 0},
    {KM_PARAM_MULTICLASS, 1, KM_MULTICLASS_OVO},
    {KM_PARAM_CACHE_VALUES, 1, KM_CACHE_FLOAT},
    {KM_PARAM_P, 0, 3.0},
    {KM_PARAM_P_BLOCK, 0, 1.5},
    {KM_PARAM_LAMBDA, 0, 0.2},
    {KM_PARAM_MKL_SOLVER, 1, KM_MKL_WRAPPER},
    {KM_PARAM_MKL_GAP, 0, 0.2},
    {KM_PARAM_MKL_EPS, 0, 0.2},
    {KM_PARAM_MKL_THETA_TOL, 0, 0.9},
    {KM_PARAM_MKL_MAX_OUTER, 1, 3},
    {KM_PARAM_SHARED_WEIGHTS, 1, 1},
    {KM_PARAM_REGULARIZER, 1, KM_REG_BLOCK1},
    {KM_PARAM_REG_PARAM, 0, 3.0},
    {KM_PARAM_ALIGN_Q, 0, 4.0},
    {KM_PARAM_MKL_RADIUS, 0, 3.0},
    {KM_PARAM_L2KRR_ETA, 0, 0.6},
    {KM_PARAM_MU0, 1, KM_MU0_UNIFORM},
    {KM_PARAM_RANK1_WEIGHT, 1, KM_RANK1_WEIGHT_CORR},
    {KM_PARAM_EB_NOISE, 0, 0.7},
    {KM_PARAM_EB_LEARN_NOISE, 1, 1},
    {KM_PARAM_EB_INNER, 1, 1},
    {KM_PARAM_EB_TOL, 0, 0.1},
    {KM_PARAM_OBSCURE_EPOCHS, 1, 1},
    {KM_PARAM_OBSCURE_ONLINE_EPOCHS, 1, 1},
    {KM_PARAM_OBSCURE_ETA, 0, 0.05},
    {KM_PARAM_OBSCURE_RADIUS, 0, 0.5},
    {KM_PARAM_OBSCURE_T0, 1, 50},
    {KM_PARAM_OBSCURE_TOL, 0, 0.5},
    {KM_PARAM_CLUSTERS, 1, 2},
    {KM_PARAM_CLUSTER_AE, 0, 0.95},
    {KM_PARAM_CLUSTER_TAU, 0, 3.0},
    {KM_PARAM_CLUSTER_KERNEL, 1, 2},
    {KM_PARAM_CLUSTER_RESTARTS, 1, 1},
};
#define N_ALTERNATIVES (sizeof alternatives / sizeof *alternatives)

typedef struct learned {
    km_status status;
    double weights[64];
    double decision[N * 8];
    size_t n_weights, n_decision;
} learned;

/* Trains task and method (one-vs-rest for more than two classes) with one parameter changed (alt NULL:
 * none) and keeps the first machine's kernel weights and the decision values of the training rows. */
static void learn(const km_dataset *data, km_task task, km_mkl_method method, const alternative *alt, learned *out)
{
    km_kernel_set *set = NULL;
    km_params *params = NULL;
    km_model *model = NULL;
    CHECK_OK(km_kernel_set_new(&set));
    CHECK_OK(km_kernel_set_add_spec(set, "linear:features=1-2"));
    CHECK_OK(km_kernel_set_add_spec(set, "rbf:gamma=0.5:features=3-4"));
    CHECK_OK(km_params_new(&params));
    CHECK_OK(km_params_set_int(params, KM_PARAM_TASK, task));
    CHECK_OK(km_params_set_int(params, KM_PARAM_MKL_METHOD, method));
    CHECK_OK(km_params_set_int(params, KM_PARAM_MULTICLASS, method == KM_MKL_OBSCURE ? KM_MULTICLASS_JOINT
                                                                                     : KM_MULTICLASS_OVR));
    /* short runs: few outer steps (the alternative is fewer still), a small nu every class pair admits */
    CHECK_OK(km_params_set_int(params, KM_PARAM_MKL_MAX_OUTER, 30));
    CHECK_OK(km_params_set_double(params, KM_PARAM_NU, 0.2));
    if (alt)
        CHECK_OK(alt->integer ? km_params_set_int(params, alt->id, (int64_t)alt->value)
                              : km_params_set_double(params, alt->id, alt->value));
    memset(out, 0, sizeof *out);
    out->status = km_train(data, set, params, &model);
    if (!out->status) {
        const double *w = km_model_kernel_weights(model, 0);
        out->n_weights = km_model_n_kernels(model) * km_model_weight_groups(model);
        CHECK(out->n_weights <= 64);
        memcpy(out->weights, w, out->n_weights * sizeof *w);
        out->n_decision = N * km_model_n_decision(model);
        CHECK(out->n_decision <= N * 8);
        double labels[N];
        CHECK_OK(km_predict(model, data, NULL, labels, out->decision));
    }
    km_model_free(model);
    km_params_free(params);
    km_kernel_set_free(set);
}

static int same(const learned *a, const learned *b)
{
    return a->n_weights == b->n_weights && a->n_decision == b->n_decision &&
           !memcmp(a->weights, b->weights, a->n_weights * sizeof *a->weights) &&
           !memcmp(a->decision, b->decision, a->n_decision * sizeof *a->decision);
}

/* The data of a method: three classes, two for the one-machine lmkl. */
static km_dataset *data_for(km_mkl_method method) { return classes(method != KM_MKL_LMKL); }

/* Every listed parameter the run does not read leaves what it learns as it was (or is refused). */
static void check_ignored(km_task task, km_mkl_method method)
{
    km_dataset *data = data_for(method);
    learned base, changed;
    learn(data, task, method, NULL, &base);
    CHECK_OK(base.status);
    for (size_t k = 0; k < N_ALTERNATIVES; k++) {
        if (km_param_read_by(alternatives[k].id, task, method))
            continue;
        learn(data, task, method, &alternatives[k], &changed);
        if (changed.status == KM_OK && !same(&base, &changed)) {
            fprintf(stderr, "%s with --mkl %s: parameter %s is said to be unread but changed the model\n",
                    km_enum_name(KM_ENUM_TASK, task), km_enum_name(KM_ENUM_MKL_METHOD, method),
                    km_param_name(alternatives[k].id));
            CHECK(0);
        }
    }
    km_dataset_free(data);
}

/* The parameter changes what task and method learn. */
static void check_read(km_task task, km_mkl_method method, km_param id)
{
    CHECK(km_param_read_by(id, task, method));
    km_dataset *data = data_for(method);
    learned base, changed;
    learn(data, task, method, NULL, &base);
    const alternative *alt = NULL;
    for (size_t k = 0; k < N_ALTERNATIVES; k++)
        if (alternatives[k].id == id)
            alt = &alternatives[k];
    CHECK(alt != NULL);
    learn(data, task, method, alt, &changed);
    CHECK_OK(base.status);
    CHECK_OK(changed.status);
    if (!base.status && !changed.status && same(&base, &changed)) {
        fprintf(stderr, "%s with --mkl %s: parameter %s is read but changed nothing\n",
                km_enum_name(KM_ENUM_TASK, task), km_enum_name(KM_ENUM_MKL_METHOD, method), km_param_name(id));
        CHECK(0);
    }
    km_dataset_free(data);
}

KM_TEST_CASE(svc_methods_ignore_what_they_do_not_list)
{
    static const km_mkl_method methods[] = {KM_MKL_FIXED, KM_MKL_LP, KM_MKL_ELASTICNET, KM_MKL_TIKHONOV,
                                            KM_MKL_ALIGN, KM_MKL_ALIGN_Q, KM_MKL_ALIGNF,
                                            KM_MKL_OBSCURE, KM_MKL_CLMKL, KM_MKL_HLMKL, KM_MKL_LMKL};
    for (size_t k = 0; k < sizeof methods / sizeof *methods; k++)
        check_ignored(KM_TASK_SVC, methods[k]);
}

KM_TEST_CASE(krr_methods_ignore_what_they_do_not_list)
{
    static const km_mkl_method methods[] = {KM_MKL_FIXED, KM_MKL_L2KRR, KM_MKL_L1KRR, KM_MKL_EB_RW,
                                            KM_MKL_EB_MACKAY, KM_MKL_ALIGNF_LINEAR};
    for (size_t k = 0; k < sizeof methods / sizeof *methods; k++)
        check_ignored(KM_TASK_KRR, methods[k]);
}

KM_TEST_CASE(tasks_ignore_what_they_do_not_list)
{
    static const km_task tasks[] = {KM_TASK_SVC, KM_TASK_NU_SVC, KM_TASK_ONECLASS, KM_TASK_SVR, KM_TASK_NU_SVR,
                                    KM_TASK_KRR};
    for (size_t k = 0; k < sizeof tasks / sizeof *tasks; k++)
        check_ignored(tasks[k], KM_MKL_FIXED);
}

KM_TEST_CASE(listed_parameters_are_read)
{
    check_read(KM_TASK_SVC, KM_MKL_LP, KM_PARAM_SHARED_WEIGHTS);
    check_read(KM_TASK_SVC, KM_MKL_LP, KM_PARAM_P);
    check_read(KM_TASK_SVC, KM_MKL_ELASTICNET, KM_PARAM_LAMBDA);
    check_read(KM_TASK_SVC, KM_MKL_TIKHONOV, KM_PARAM_REGULARIZER);
    check_read(KM_TASK_SVC, KM_MKL_ALIGN_Q, KM_PARAM_ALIGN_Q);
    check_read(KM_TASK_SVC, KM_MKL_OBSCURE, KM_PARAM_OBSCURE_EPOCHS);
    check_read(KM_TASK_SVC, KM_MKL_CLMKL, KM_PARAM_CLUSTERS);
    check_read(KM_TASK_SVC, KM_MKL_CLMKL, KM_PARAM_CLUSTER_AE);
    check_read(KM_TASK_SVC, KM_MKL_LMKL, KM_PARAM_CLUSTER_KERNEL);
    check_read(KM_TASK_KRR, KM_MKL_L2KRR, KM_PARAM_L2KRR_ETA);
    check_read(KM_TASK_KRR, KM_MKL_EB_RW, KM_PARAM_EB_NOISE);
    check_read(KM_TASK_SVC, KM_MKL_FIXED, KM_PARAM_C);
    check_read(KM_TASK_SVR, KM_MKL_FIXED, KM_PARAM_EPSILON);
    check_read(KM_TASK_NU_SVC, KM_MKL_FIXED, KM_PARAM_NU);
    check_read(KM_TASK_KRR, KM_MKL_FIXED, KM_PARAM_KRR_BIAS);
}

KM_TEST_CASE(generic_parameters_are_read_by_all)
{
    static const km_param generic[] = {KM_PARAM_TASK, KM_PARAM_TOLERANCE, KM_PARAM_SHRINKING, KM_PARAM_CACHE_MB,
                                       KM_PARAM_MAX_ITER, KM_PARAM_SEED, KM_PARAM_PROBABILITY, KM_PARAM_MKL_METHOD};
    int value;
    for (size_t t = 0; km_enum_name_at(KM_ENUM_TASK, t, &value); t++) {
        int method;
        for (size_t m = 0; km_enum_name_at(KM_ENUM_MKL_METHOD, m, &method); m++)
            for (size_t k = 0; k < sizeof generic / sizeof *generic; k++)
                CHECK(km_param_read_by(generic[k], (km_task)value, (km_mkl_method)method));
    }
    /* unknown ids, tasks and methods read nothing */
    CHECK(!km_param_read_by((km_param)9999, KM_TASK_SVC, KM_MKL_FIXED));
    CHECK(!km_param_read_by(KM_PARAM_C, (km_task)99, KM_MKL_FIXED));
    CHECK(!km_param_read_by(KM_PARAM_C, KM_TASK_SVC, (km_mkl_method)99));
    /* C is the krr task's, but the empirical-Bayes methods do not pass it on */
    CHECK(km_param_read_by(KM_PARAM_C, KM_TASK_KRR, KM_MKL_L2KRR));
    CHECK(!km_param_read_by(KM_PARAM_C, KM_TASK_KRR, KM_MKL_EB_RW));
    CHECK(!km_param_read_by(KM_PARAM_C, KM_TASK_KRR, KM_MKL_EB_MACKAY));
    /* the example of the CLI: shared weights are lp's only */
    CHECK(km_param_read_by(KM_PARAM_SHARED_WEIGHTS, KM_TASK_SVC, KM_MKL_LP));
    CHECK(!km_param_read_by(KM_PARAM_SHARED_WEIGHTS, KM_TASK_SVC, KM_MKL_FIXED));
    CHECK(!km_param_read_by(KM_PARAM_SHARED_WEIGHTS, KM_TASK_SVC, KM_MKL_ELASTICNET));
}
