/* The Tikhonov form of the block-norm family (spec/lpmkl.md §5, Tomioka & Suzuki Table 1):
 *  - every row's closed-form weight d = 1/(2 g'(x)) is the numerical minimiser of 1/2 (x/d + mu h(d))
 *    and the minimum is g(x) (block p > 2: the maximum);
 *  - the objective never increases over the alternation, and the duality gap closes;
 *  - uniform equals the plain SVM on the sum (T10 golden objective); elastic net lambda = 0 equals
 *    block 1 and lambda = 1 the uniform solution;
 *  - the Ivanov conversion: training lp-norm MKL (or SHOGUN's elastic net) with the converted p, C
 *    gives the converted theta (1e-4) and the same decision values, for C-SVC and SVR;
 *  - models keep the regularizer through save and load (byte-identical), and bad parameters fail. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "test_tikhonov_log.h"
#include "core/params.h"
#include "kernelmix.h"
#include "mkl/mkl.h"
#include "mkl/theta.h"

/* ---- Table 1 rows against numerical minimisation ---------------------------------------------- */

typedef struct row {
    km_mkl_regularizer reg;
    double param;  /* q, p or lambda */
} row;

/* mu h(d) of the row (lpmkl.md §5 table); +inf outside the domain. */
static double mu_h(const row *r, double d)
{
    switch (r->reg) {
    case KM_REG_BLOCK1: return d;
    case KM_REG_LQ: return pow(d, r->param) / r->param;
    case KM_REG_UNIFORM: return d <= 1 ? 0.0 : INFINITY;
    case KM_REG_ELASTICNET:
        return d < 1 / r->param ? (1 - r->param) * (1 - r->param) * d / (1 - r->param * d) : INFINITY;
    case KM_REG_BLOCKP: return -(r->param - 2) / r->param * pow(d, -r->param / (r->param - 2));
    }
    return NAN;
}

static double half_bound(const row *r, double x, double d) { return 0.5 * (x / d + mu_h(r, d)); }

/* Golden-section search of the minimum (sign = 1) or maximum (sign = -1) over log d in [lo, hi]. */
static double golden(const row *r, double x, double lo, double hi, double sign)
{
    const double phi = (sqrt(5.0) - 1) / 2;
    double a = lo, b = hi;
    for (int k = 0; k < 200; k++) {
        double c = b - phi * (b - a), d = a + phi * (b - a);
        if (sign * half_bound(r, x, exp(c)) < sign * half_bound(r, x, exp(d)))
            b = d;
        else
            a = c;
    }
    return exp(0.5 * (a + b));
}

static km_block_regularizer theta_row(km_mkl_regularizer reg)
{
    return reg == KM_REG_BLOCK1       ? KM_BLOCK_ONE
           : reg == KM_REG_UNIFORM    ? KM_BLOCK_UNIFORM
           : reg == KM_REG_ELASTICNET ? KM_BLOCK_ELASTICNET
           : reg == KM_REG_BLOCKP     ? KM_BLOCK_P_ABOVE_2
                                      : KM_BLOCK_LQ;
}

static void check_table_rows(void)
{
    const row rows[] = {{KM_REG_BLOCK1, 0},       {KM_REG_LQ, 1.5},         {KM_REG_LQ, 2},
                        {KM_REG_LQ, 3},           {KM_REG_UNIFORM, 0},      {KM_REG_ELASTICNET, 0.3},
                        {KM_REG_ELASTICNET, 0.7}, {KM_REG_BLOCKP, 3},       {KM_REG_BLOCKP, 4}};
    const double xs[] = {0.05, 0.7, 2.5, 9.0};
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
        const row *r = &rows[k];
        km_mkl_params mkl = {.method = KM_MKL_TIKHONOV, .regularizer = r->reg, .gap = 1e-3, .eps_mkl = 1e-5,
                             .max_outer = 10, .lambda = r->param,
                             .reg_param = r->reg == KM_REG_LQ || r->reg == KM_REG_BLOCKP ? r->param : 0};
        km_mkl_params resolved;
        CHECK_OK(km_tikhonov_resolve(&mkl, &resolved));
        for (size_t j = 0; j < sizeof xs / sizeof xs[0]; j++) {
            double x = xs[j], n = sqrt(x), closed;
            km_block_weights(theta_row(r->reg), r->param, 1, &n, &closed);
            /* block p > 2: the stationary point is a maximum (bayes-blocknorm.md §4) */
            double sign = r->reg == KM_REG_BLOCKP ? -1.0 : 1.0;
            double hi = r->reg == KM_REG_UNIFORM ? 0.0 : r->reg == KM_REG_ELASTICNET ? log(1 / r->param) - 1e-12 : 8.0;
            double d = golden(r, x, -12.0, hi, sign);
            double g = km_tikhonov_penalty(&resolved, 1, &n);
            CHECK_NEAR(d, closed, 1e-6);
            CHECK_NEAR(half_bound(r, x, d), g, 1e-9);
            CHECK_NEAR(half_bound(r, x, closed), g, 1e-12);
        }
    }
}

/* ---- Training on the T10 set of spec §9 ----------------------------------------------------------- */

enum { N = 10, M = 3 };
static const double X[N * 2] = {1.0, 0.5,  2.0,  -0.3, 0.4,  1.5,  1.2, 1.1,  -0.2, 0.3,
                                -1.0, -0.4, -1.6, 0.8, -0.5, -1.3, 0.3, -0.8, -0.9, 0.2};
static const double Y[N] = {1, 1, 1, 1, 1, -1, -1, -1, -1, -1};
static const double XT[4 * 2] = {0.5, 0.5, -0.7, 0.1, 1.5, -1.0, 0.0, 0.0};

typedef struct objective_log {
    double values[100000];
    unsigned char extrapolated[100000];   /* the point was SQUAREM's extrapolation (tikhonov.c) */
    size_t count;
} objective_log;

static void record_objective(void *user, km_log_level level, const char *message)
{
    objective_log *log = user;
    double J;
    int extrapolated;
    (void)level;
    if (log->count < 100000 && tikhonov_log_objective(message, &J, &extrapolated)) {
        log->extrapolated[log->count] = (unsigned char)extrapolated;
        log->values[log->count++] = J;
    }
}

typedef struct trained {
    km_model *model;
    double weights[M];
    double decision[N + 4];
    km_machine_info info;
} trained;

static km_params tight_params(km_task task, double C)
{
    km_params p = km_params_default();
    p.task = task;
    p.C = C;
    p.tolerance = 1e-9;
    km_params_store(&p, KM_PARAM_MKL_SOLVER, KM_MKL_WRAPPER);
    km_params_store(&p, KM_PARAM_MKL_GAP, 1e-10);
    km_params_store(&p, KM_PARAM_MKL_EPS, 1e-15);
    km_params_store(&p, KM_PARAM_MKL_MAX_OUTER, 20000);
    return p;
}

/* Trains on T10 (labels: classes or the SVR targets x1 + 0.5 x2) and predicts the training and test
 * rows. Returns 0 when training failed. */
static int train_t10(const km_params *params, trained *out)
{
    double targets[N], all[(N + 4) * 2], labels[N + 4];
    for (size_t i = 0; i < N; i++)
        targets[i] = params->task == KM_TASK_SVR ? X[2 * i] + 0.5 * X[2 * i + 1] : Y[i];
    memcpy(all, X, sizeof X);
    memcpy(all + 2 * N, XT, sizeof XT);
    km_dataset *train = NULL, *test = NULL;
    km_kernel_set *set = NULL;
    int ok = km_dataset_from_dense(N, 2, X, targets, &train) == KM_OK &&
             km_dataset_from_dense(N + 4, 2, all, NULL, &test) == KM_OK && km_kernel_set_new(&set) == KM_OK &&
             km_kernel_set_add_spec(set, "linear:features=1") == KM_OK &&
             km_kernel_set_add_spec(set, "linear:features=2") == KM_OK &&
             km_kernel_set_add_spec(set, "rbf:gamma=0.5") == KM_OK;
    out->model = NULL;
    out->info.size = sizeof out->info;
    if (ok)
        ok = km_train(train, set, params, &out->model) == KM_OK &&
             km_predict(out->model, test, NULL, labels, out->decision) == KM_OK &&
             km_model_machine_info(out->model, 0, &out->info) == KM_OK;
    if (ok)
        memcpy(out->weights, km_model_kernel_weights(out->model, 0), sizeof out->weights);
    else
        fprintf(stderr, "training failed: %s\n", km_last_error());
    km_dataset_free(train);
    km_dataset_free(test);
    km_kernel_set_free(set);
    return ok;
}

static km_params tikhonov_params(km_task task, double C, km_mkl_regularizer reg, double param)
{
    km_params p = tight_params(task, C);
    km_params_store(&p, KM_PARAM_MKL_METHOD, KM_MKL_TIKHONOV);
    km_params_store(&p, KM_PARAM_REGULARIZER, reg);
    if (reg == KM_REG_ELASTICNET)
        km_params_store(&p, KM_PARAM_LAMBDA, param);
    else
        km_params_store(&p, KM_PARAM_REG_PARAM, param);
    return p;
}

/* The objective never increases from one step to the next (an extrapolated point may be refused, and is
 * left out), the run ends with a (non-negative) small gap, and it reports converged exactly when that gap
 * meets its target. */
static void check_monotone(km_mkl_regularizer reg, double param, double C)
{
    static objective_log log;
    log.count = 0;
    km_params p = tikhonov_params(KM_TASK_SVC, C, reg, param);
    p.log = record_objective;
    p.log_user = &log;
    trained t;
    if (!train_t10(&p, &t)) {
        CHECK(0);
        return;
    }
    CHECK(log.count >= 1);
    size_t increases = 0, stepped = 0;
    double before = INFINITY;
    for (size_t k = 0; k < log.count; k++) {
        if (log.extrapolated[k])
            continue;
        increases += log.values[k] > before * (1 + 1e-9) + 1e-12;
        before = log.values[k];
        stepped++;
    }
    CHECK(increases == 0 && stepped >= 1);
    CHECK(t.info.converged == (t.info.gap <= km_mkl_params_of(&p).gap));
    CHECK(t.info.gap >= -1e-9 && t.info.gap <= 1e-6);
    CHECK_NEAR(t.info.primal, log.values[log.count - 1], 1e-15);
    km_model_free(t.model);
}

static void check_same(const trained *a, const trained *b, double tol)
{
    for (size_t m = 0; m < M; m++)
        CHECK_NEAR(a->weights[m], b->weights[m], tol);
    for (size_t i = 0; i < N + 4; i++)
        CHECK_NEAR(a->decision[i], b->decision[i], tol);
}

/* km_model_ivanov's parameter handle as the parameter block and C it holds. */
static km_status model_ivanov(const km_model *model, size_t machine, km_mkl_params *ivanov, double *C, double *theta)
{
    km_params *form;
    km_status st = km_model_ivanov(model, machine, &form, theta);
    *ivanov = km_mkl_params_default(); /* defined values when the conversion fails */
    *C = NAN;
    if (!st) {
        *ivanov = km_mkl_params_of(form);
        *C = form->C;
        km_params_free(form);
    }
    return st;
}

/* The kernel-weight learning of a model (km_model_params). */
static km_mkl_params model_learning(const km_model *model)
{
    km_params *params;
    km_mkl_params mkl = km_mkl_params_default();
    if (km_model_params(model, &params) == KM_OK) {
        mkl = km_mkl_params_of(params);
        km_params_free(params);
    }
    return mkl;
}

/* Tikhonov solution -> Ivanov parameters -> lp-norm MKL (or elastic net) reproduces theta and f. */
static void check_ivanov(km_task task, km_mkl_regularizer reg, double param, double C)
{
    trained tik, iv;
    km_params p = tikhonov_params(task, C, reg, param);
    if (!train_t10(&p, &tik)) {
        CHECK(0);
        return;
    }
    km_mkl_params ivanov;
    double C_ivanov, theta[M];
    CHECK_OK(model_ivanov(tik.model, 0, &ivanov, &C_ivanov, theta));
    km_params q = tight_params(task, C_ivanov);
    km_params_store(&q, KM_PARAM_MKL_METHOD, ivanov.method);
    km_params_store(&q, KM_PARAM_LAMBDA, ivanov.lambda);
    if (isnan(ivanov.p))
        km_params_store(&q, KM_PARAM_P_BLOCK, ivanov.p_block);
    else
        km_params_store(&q, KM_PARAM_P, ivanov.p);
    if (reg == KM_REG_ELASTICNET)
        CHECK(ivanov.method == KM_MKL_ELASTICNET);
    else
        CHECK(ivanov.method == KM_MKL_LP);
    if (train_t10(&q, &iv)) {
        for (size_t m = 0; m < M; m++)
            CHECK_NEAR(iv.weights[m], theta[m], 1e-4);
        for (size_t i = 0; i < N + 4; i++)
            CHECK_NEAR(iv.decision[i], tik.decision[i], 1e-4);
        km_model_free(iv.model);
    } else
        CHECK(0);
    km_model_free(tik.model);
}

static void check_special_rows(void)
{
    trained block1, en0, uniform, en1, svm;
    km_params p = tikhonov_params(KM_TASK_SVC, 1.0, KM_REG_BLOCK1, 0);
    if (train_t10(&p, &block1)) {
        p = tikhonov_params(KM_TASK_SVC, 1.0, KM_REG_ELASTICNET, 0.0);
        if (train_t10(&p, &en0)) {
            check_same(&en0, &block1, 1e-9);
            km_model_free(en0.model);
        }
        km_model_free(block1.model);
    }
    p = tikhonov_params(KM_TASK_SVC, 1.0, KM_REG_UNIFORM, 0);
    if (train_t10(&p, &uniform)) {
        /* T10, C-SVC, p = 2: the SVM on K1 + K2 + K3 (spec §9) */
        CHECK_NEAR(uniform.info.objective, -1.868793970, 1e-8);
        for (size_t m = 0; m < M; m++)
            CHECK(uniform.weights[m] == 1.0);
        km_params fixed = tight_params(KM_TASK_SVC, 1.0);
        if (train_t10(&fixed, &svm)) {
            check_same(&uniform, &svm, 1e-9);
            km_model_free(svm.model);
        }
        p = tikhonov_params(KM_TASK_SVC, 1.0, KM_REG_ELASTICNET, 1.0);
        if (train_t10(&p, &en1)) {
            check_same(&en1, &uniform, 1e-6);
            km_model_free(en1.model);
        }
        km_model_free(uniform.model);
    }
}

static int same_file(const char *a, const char *b)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    int same = fa && fb;
    while (same) {
        int ca = fgetc(fa), cb = fgetc(fb);
        same = ca == cb;
        if (ca == EOF)
            break;
    }
    if (fa)
        fclose(fa);
    if (fb)
        fclose(fb);
    return same;
}

static void check_model_file(void)
{
    trained t;
    km_params p = tikhonov_params(KM_TASK_SVC, 2.0, KM_REG_LQ, 4.0 / 3.0);
    if (!train_t10(&p, &t)) {
        CHECK(0);
        return;
    }
    km_model *loaded = NULL;
    CHECK_OK(km_model_save(t.model, "blocknorm_a.km"));
    CHECK_OK(km_model_load("blocknorm_a.km", &loaded));
    if (loaded) {
        CHECK_OK(km_model_save(loaded, "blocknorm_b.km"));
        CHECK(same_file("blocknorm_a.km", "blocknorm_b.km"));
        km_mkl_params mkl = model_learning(loaded);
        CHECK(mkl.method == KM_MKL_TIKHONOV && mkl.regularizer == KM_REG_LQ);
        CHECK_NEAR(mkl.reg_param, 4.0 / 3.0, 1e-15);
        km_mkl_params a, b;
        double Ca, Cb, ta[M], tb[M];
        CHECK_OK(model_ivanov(t.model, 0, &a, &Ca, ta));
        CHECK_OK(model_ivanov(loaded, 0, &b, &Cb, tb));
        CHECK(Ca == Cb && ta[0] == tb[0] && ta[2] == tb[2]);
        CHECK_NEAR(a.p, 4.0 / 3.0, 1e-15);
        km_model_free(loaded);
    }
    remove("blocknorm_a.km");
    remove("blocknorm_b.km");
    km_model_free(t.model);
}

static void check_errors(void)
{
    km_mkl_params in = km_mkl_params_default(), out;
    in.method = KM_MKL_TIKHONOV;
    in.regularizer = KM_REG_BLOCK1;
    in.reg_param = 2;
    CHECK_STATUS(km_tikhonov_resolve(&in, &out), KM_EINVAL);
    in.regularizer = KM_REG_BLOCKP;
    in.reg_param = 1.5;
    CHECK_STATUS(km_tikhonov_resolve(&in, &out), KM_EINVAL);
    in.regularizer = KM_REG_LQ;
    in.reg_param = 0.5;
    CHECK_STATUS(km_tikhonov_resolve(&in, &out), KM_EINVAL);
    in.reg_param = 0;
    CHECK_OK(km_tikhonov_resolve(&in, &out));
    CHECK(out.reg_param == 2.0 && out.p == 2.0 && fabs(out.p_block - 4.0 / 3.0) < 1e-15);
    double d[M] = {1, 2, 3}, theta[M], C;
    km_mkl_params lp = in;
    lp.method = KM_MKL_LP;
    CHECK_STATUS(km_mkl_ivanov_form(&lp, 1.0, M, d, &out, &C, theta), KM_EINVAL);
    trained t;
    km_params p = tikhonov_params(KM_TASK_ONECLASS, 1.0, KM_REG_LQ, 2);
    double labels[N] = {0};
    km_dataset *data = NULL;
    km_kernel_set *set = NULL;
    km_model *model = NULL;
    CHECK_OK(km_dataset_from_dense(N, 2, X, labels, &data));
    CHECK_OK(km_kernel_set_new(&set));
    CHECK_OK(km_kernel_set_add_spec(set, "linear"));
    CHECK_STATUS(km_train(data, set, &p, &model), KM_EINVAL);
    CHECK(model == NULL);
    (void)t;
    km_dataset_free(data);
    km_kernel_set_free(set);
}

KM_TEST_CASE(table_rows) { check_table_rows(); }
KM_TEST_CASE(monotone_lq_p2) { check_monotone(KM_REG_LQ, 2.0, 1.0); }
KM_TEST_CASE(monotone_lq_p4_3) { check_monotone(KM_REG_LQ, 4.0 / 3.0, 0.5); }
KM_TEST_CASE(monotone_block1) { check_monotone(KM_REG_BLOCK1, 0, 1.0); }
KM_TEST_CASE(monotone_elasticnet) { check_monotone(KM_REG_ELASTICNET, 0.5, 2.0); }
KM_TEST_CASE(monotone_uniform) { check_monotone(KM_REG_UNIFORM, 0, 1.0); }
KM_TEST_CASE(special_rows) { check_special_rows(); }
KM_TEST_CASE(ivanov_svc_lq_p2) { check_ivanov(KM_TASK_SVC, KM_REG_LQ, 2.0, 1.0); }
KM_TEST_CASE(ivanov_svc_lq_p4_3) { check_ivanov(KM_TASK_SVC, KM_REG_LQ, 4.0 / 3.0, 0.5); }
KM_TEST_CASE(ivanov_svc_lq_p4) { check_ivanov(KM_TASK_SVC, KM_REG_LQ, 4.0, 3.0); }
KM_TEST_CASE(ivanov_svc_block1) { check_ivanov(KM_TASK_SVC, KM_REG_BLOCK1, 0, 1.0); }
KM_TEST_CASE(ivanov_svc_elasticnet) { check_ivanov(KM_TASK_SVC, KM_REG_ELASTICNET, 0.5, 1.0); }
KM_TEST_CASE(ivanov_svc_blockp_p3) { check_ivanov(KM_TASK_SVC, KM_REG_BLOCKP, 3.0, 1.0); }
KM_TEST_CASE(ivanov_svr_lq_p4_3) { check_ivanov(KM_TASK_SVR, KM_REG_LQ, 4.0 / 3.0, 1.0); }
KM_TEST_CASE(ivanov_svr_elasticnet) { check_ivanov(KM_TASK_SVR, KM_REG_ELASTICNET, 0.3, 2.0); }
KM_TEST_CASE(model_file) { check_model_file(); }
KM_TEST_CASE(errors) { check_errors(); }
