/* The block-norm family in Tikhonov form with the squared loss (kernel ridge regression, -s krr;
 * Tomioka & Suzuki eqs. (3)-(6), Table 1), solved by the alternating loop of tikhonov.c with its
 * closed-form weight step:
 *  - J = sum_m g(||f_m||^2) + C/2 sum_i r_i^2 and the weights d equal an independent minimisation in
 *    scipy (L-BFGS-B) of the same convex problem written in d alone,
 *      J(d) = 1/2 t'(U K_d U + I/C)^-1 t + 1/2 sum_m mu h(d_m),  t = U y, U = I - 11'/n
 *    (the unregularized bias centres kernel and targets), for block 1, l_q (q = 2, 4/3) and the
 *    elastic net (lambda = 0.5), and the duality gap closes;
 *  - elastic net with lambda = 0 gives block 1 and lambda = 1 the uniform sum (plain KRR on sum K_m);
 *  - the learned f is KRR at the fixed weights d, and the homogeneity of §3: KRR on c d with loss
 *    weight C/c predicts the same;
 *  - the LS-SVM solve of §2: the coefficients sum to 0 and the training residual y - f(x_i) is
 *    coef_i / C (the seed's C alpha~ with its C = 1/C here);
 *  - the alternating solver on KRR: J never increases from step to step (SQUAREM's extrapolated points,
 *    kept only where J is at most the last step's, left out), and at convergence the Tikhonov objective (3) at
 *    the learned d, 1/2 sum_m (||f_m||^2/d_m + mu h(d_m)) + C/2 ||r||^2, equals J = (6) (1e-5). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/rng.h"
#include "kernelmix.h"
#include "test_numpy.h"
#include "test_tikhonov_log.h"
#include "train/model.h"

enum { N = 40, NT = 15, D = 3, MK = 4 };

static double X[N * D], Y[N], XT[NT * D];
static const char *const SPECS[MK] = {"rbf:gamma=0.1", "rbf:gamma=1", "rbf:gamma=10", "linear"};

static void make_data(void)
{
    km_rng rng;
    km_rng_seed(&rng, 11);
    for (size_t i = 0; i < N + NT; i++) {
        double *x = i < N ? X + i * D : XT + (i - N) * D;
        for (size_t j = 0; j < D; j++)
            x[j] = km_rng_normal(&rng);
        if (i < N)
            Y[i] = 1 + sin(2 * x[0]) + 0.5 * x[1] + 0.1 * km_rng_normal(&rng);
    }
}

/* The Tikhonov form with regularizer reg (param: its lambda or parameter), solved to a gap of 1e-9. */
static void set_tikhonov(km_params *params, km_mkl_regularizer reg, double param)
{
    CHECK_OK(km_params_set_int(params, KM_PARAM_MKL_METHOD, KM_MKL_TIKHONOV));
    CHECK_OK(km_params_set_int(params, KM_PARAM_REGULARIZER, reg));
    CHECK_OK(km_params_set_double(params, reg == KM_REG_ELASTICNET ? KM_PARAM_LAMBDA : KM_PARAM_REG_PARAM, param));
    CHECK_OK(km_params_set_double(params, KM_PARAM_MKL_GAP, 1e-9));
    CHECK_OK(km_params_set_double(params, KM_PARAM_MKL_EPS, 1e-13));
    CHECK_OK(km_params_set_int(params, KM_PARAM_MKL_MAX_OUTER, 20000));
}

/* Trains KRR (C, bias) with the given MKL setup; f: predictions at XT (may be NULL). */
static km_model *train(double C, km_mkl_method method, km_mkl_regularizer reg, double param, const double *weights,
                       double *f)
{
    km_dataset *data = NULL, *test = NULL;
    km_kernel_set *set = NULL;
    km_params *params = NULL;
    km_model *model = NULL;
    CHECK_OK(km_dataset_from_dense(N, D, X, Y, &data));
    CHECK_OK(km_dataset_from_dense(NT, D, XT, NULL, &test));
    CHECK_OK(km_kernel_set_new(&set));
    for (size_t m = 0; m < MK; m++)
        CHECK_OK(km_kernel_set_add_spec(set, SPECS[m]));
    CHECK_OK(km_params_new(&params));
    CHECK_OK(km_params_set_int(params, KM_PARAM_TASK, KM_TASK_KRR));
    CHECK_OK(km_params_set_double(params, KM_PARAM_C, C));
    CHECK_OK(km_params_set_int(params, KM_PARAM_MKL_METHOD, method));
    if (method == KM_MKL_TIKHONOV)
        set_tikhonov(params, reg, param);
    if (weights)
        CHECK_OK(km_params_set_kernel_weights(params, weights, MK));
    CHECK_OK(km_train(data, set, params, &model));
    if (model && f)
        CHECK_OK(km_predict(model, test, NULL, f, NULL));
    km_params_free(params);
    km_kernel_set_free(set);
    km_dataset_free(data);
    km_dataset_free(test);
    return model;
}

/* scipy's minimum of J(d) for the row named in p.txt: prints J, then d. */
static const char scipy_script[] =
    "import numpy as np\n"
    "from scipy.optimize import minimize\n"
    "X = np.loadtxt('x.txt'); y = np.loadtxt('y.txt'); C, row, par = np.loadtxt('p.txt')\n"
    "sq = lambda A, B: (A * A).sum(1)[:, None] + (B * B).sum(1)[None, :] - 2 * A @ B.T\n"
    "Ks = [np.exp(-g * sq(X, X)) for g in (0.1, 1, 10)] + [X @ X.T]\n"
    "n = len(y); U = np.eye(n) - 1.0 / n; t = U @ y; Kc = [U @ K @ U for K in Ks]\n"
    "def muh(d):\n"
    "    if row == 1: return d, np.ones_like(d)\n"
    "    if row == 0: return d ** par / par, d ** (par - 1)\n"
    "    lam = par; return (1 - lam) ** 2 * d / (1 - lam * d), (1 - lam) ** 2 / (1 - lam * d) ** 2\n"
    "def J(d):\n"
    "    A = sum(dm * K for dm, K in zip(d, Kc)) + np.eye(n) / C\n"
    "    a = np.linalg.solve(A, t); h, dh = muh(d)\n"
    "    return 0.5 * t @ a + 0.5 * h.sum(), np.array([-0.5 * a @ K @ a for K in Kc]) + 0.5 * dh\n"
    "hi = 1 / par - 1e-9 if row == 3 else None\n"
    "best = None\n"
    "for start in (0.5, 0.05, 1.0):\n"
    "    d0 = np.full(len(Ks), start if hi is None else min(start, 0.5 * hi))\n"
    "    r = minimize(J, d0, jac=True, method='L-BFGS-B', bounds=[(0, hi)] * len(Ks),\n"
    "                 options={'ftol': 1e-15, 'gtol': 1e-11, 'maxiter': 20000})\n"
    "    if best is None or r.fun < best.fun: best = r\n"
    "for v in np.r_[best.fun, best.x]: print('%.17g' % v)\n";

static void check_against_scipy(km_mkl_regularizer reg, double param, double C)
{
    make_data();
    double p[3] = {C, reg, param};
    CHECK(numpy_write("x.txt", N, D, X) && numpy_write("y.txt", N, 1, Y) && numpy_write("p.txt", 1, 3, p));
    double want[1 + MK];
    int got = numpy_run(scipy_script, want, 1 + MK);
    CHECK(got == 1 + MK);
    km_model *model = train(C, KM_MKL_TIKHONOV, reg, param, NULL, NULL);
    if (!model || got != 1 + MK) {
        km_model_free(model);
        return;
    }
    km_machine_info info = KM_MACHINE_INFO_INIT;
    CHECK_OK(km_model_machine_info(model, 0, &info));
    const double *d = km_model_kernel_weights(model, 0);
    /* min over f of 1/2 sum ||f_m||^2/d_m + C/2 ||t - sum f_m||^2 is 1/2 t'(K_d + I/C)^-1 t */
    CHECK_NEAR(info.primal, want[0], 1e-6);
    CHECK(info.gap <= 1e-6);
    for (size_t m = 0; m < MK; m++)
        CHECK_NEAR(d[m], want[1 + m], 2e-3);
    km_model_free(model);
}

KM_TEST_CASE(scipy_block1) { check_against_scipy(KM_REG_BLOCK1, 0, 4.0); }
KM_TEST_CASE(scipy_lq_2) { check_against_scipy(KM_REG_LQ, 2.0, 4.0); }
KM_TEST_CASE(scipy_lq_4_3) { check_against_scipy(KM_REG_LQ, 4.0 / 3.0, 1.0); }
KM_TEST_CASE(scipy_elasticnet) { check_against_scipy(KM_REG_ELASTICNET, 0.5, 4.0); }

/* The elastic net on twelve kernels, rbf of three widths and linear on each feature alone (the third
 * feature does not enter y): the working set (tikhonov.c) drops kernels, the result is scipy's minimum
 * over all twelve weights, and the certified gap is over all of them. */
enum { MW = 12 };
static const double WIDTHS[3] = {0.1, 1, 10};

static const char scipy_features_script[] =
    "import numpy as np\n"
    "from scipy.optimize import minimize\n"
    "X = np.loadtxt('x.txt'); y = np.loadtxt('y.txt'); C, lam = np.loadtxt('p.txt')\n"
    "Ks = []\n"
    "for j in range(3):\n"
    "    x = X[:, j]\n"
    "    Ks += [np.exp(-g * (x[:, None] - x[None, :]) ** 2) for g in (0.1, 1, 10)] + [np.outer(x, x)]\n"
    "n = len(y); U = np.eye(n) - 1.0 / n; t = U @ y; Kc = [U @ K @ U for K in Ks]\n"
    "def J(d):\n"
    "    A = sum(dm * K for dm, K in zip(d, Kc)) + np.eye(n) / C\n"
    "    a = np.linalg.solve(A, t)\n"
    "    h = (1 - lam) ** 2 * d / (1 - lam * d); dh = (1 - lam) ** 2 / (1 - lam * d) ** 2\n"
    "    return 0.5 * t @ a + 0.5 * h.sum(), np.array([-0.5 * a @ K @ a for K in Kc]) + 0.5 * dh\n"
    "best = None\n"
    "for start in (0.5, 0.05, 1.0):\n"
    "    r = minimize(J, np.full(len(Ks), start), jac=True, method='L-BFGS-B', bounds=[(0, 1 / lam - 1e-9)] * len(Ks),\n"
    "                 options={'ftol': 1e-15, 'gtol': 1e-11, 'maxiter': 20000})\n"
    "    if best is None or r.fun < best.fun: best = r\n"
    "for v in np.r_[best.fun, best.x]: print('%.17g' % v)\n";

typedef struct working_set_trace {
    size_t smallest;             /* the smallest working set a step reported */
} working_set_trace;

static void trace_working_set(void *user, km_log_level level, const char *message)
{
    working_set_trace *trace = user;
    size_t working, M;
    (void)level;
    const char *at = strchr(message, ',');
    if (at && strstr(at, " kernels in the working set") && sscanf(at, ", %zu of %zu", &working, &M) == 2 &&
        working < trace->smallest)
        trace->smallest = working;
}

KM_TEST_CASE(working_set_elasticnet)
{
    make_data();
    const double C = 4.0, lambda = 0.5;
    double p[2] = {C, lambda};
    CHECK(numpy_write("x.txt", N, D, X) && numpy_write("y.txt", N, 1, Y) && numpy_write("p.txt", 1, 2, p));
    double want[1 + MW];
    int got = numpy_run(scipy_features_script, want, 1 + MW);
    CHECK(got == 1 + MW);
    km_dataset *data = NULL;
    km_kernel_set *set = NULL;
    km_params *params = NULL;
    km_model *model = NULL;
    CHECK_OK(km_dataset_from_dense(N, D, X, Y, &data));
    CHECK_OK(km_kernel_set_new(&set));
    for (int j = 1; j <= D; j++) {
        char spec[64];
        for (size_t w = 0; w < 3; w++) {
            snprintf(spec, sizeof spec, "rbf:gamma=%g:features=%d", WIDTHS[w], j);
            CHECK_OK(km_kernel_set_add_spec(set, spec));
        }
        snprintf(spec, sizeof spec, "linear:features=%d", j);
        CHECK_OK(km_kernel_set_add_spec(set, spec));
    }
    CHECK_OK(km_params_new(&params));
    CHECK_OK(km_params_set_int(params, KM_PARAM_TASK, KM_TASK_KRR));
    CHECK_OK(km_params_set_double(params, KM_PARAM_C, C));
    set_tikhonov(params, KM_REG_ELASTICNET, lambda);
    working_set_trace trace = {.smallest = MW};
    km_params_set_log(params, trace_working_set, &trace);
    CHECK_OK(km_train(data, set, params, &model));
    if (model && got == 1 + MW) {
        km_machine_info info = KM_MACHINE_INFO_INIT;
        CHECK_OK(km_model_machine_info(model, 0, &info));
        const double *d = km_model_kernel_weights(model, 0);
        CHECK_NEAR(info.primal, want[0], 1e-6 * fabs(want[0]));
        CHECK(info.gap <= 1e-6);
        size_t zero = 0;
        for (size_t m = 0; m < MW; m++) {
            CHECK_NEAR(d[m], want[1 + m], 2e-3);
            zero += d[m] == 0;
        }
        CHECK(zero > 0);                  /* the elastic net is sparse here */
        CHECK(trace.smallest < MW);       /* and steps ran on a working set */
        /* prediction, which computes only the kernels with d_m > 0: the KRR residual at d is coef / C */
        double f[N];
        CHECK_OK(km_predict(model, data, NULL, f, NULL));
        const km_machine *machine = &model->machines[0];
        for (size_t j = 0; j < machine->n_sv; j++)
            CHECK_NEAR(Y[machine->sv[j]] - f[machine->sv[j]], machine->coef[j] / C, 1e-9);
    }
    km_model_free(model);
    km_params_free(params);
    km_kernel_set_free(set);
    km_dataset_free(data);
}

KM_TEST_CASE(elasticnet_ends)
{
    make_data();
    double f_en0[NT], f_b1[NT], f_en1[NT], f_uniform[NT];
    km_model *en0 = train(4.0, KM_MKL_TIKHONOV, KM_REG_ELASTICNET, 0.0, NULL, f_en0);
    km_model *b1 = train(4.0, KM_MKL_TIKHONOV, KM_REG_BLOCK1, 0.0, NULL, f_b1);
    km_model *en1 = train(4.0, KM_MKL_TIKHONOV, KM_REG_ELASTICNET, 1.0, NULL, f_en1);
    km_model *uniform = train(4.0, KM_MKL_FIXED, KM_REG_LQ, 0, NULL, f_uniform);
    CHECK(en0 && b1 && en1 && uniform);
    if (en0 && b1 && en1 && uniform) {
        const double *d0 = km_model_kernel_weights(en0, 0), *d1 = km_model_kernel_weights(b1, 0);
        const double *du = km_model_kernel_weights(en1, 0);
        for (size_t m = 0; m < MK; m++) {
            CHECK_NEAR(d0[m], d1[m], 1e-4);
            CHECK_NEAR(du[m], 1.0, 1e-6);
        }
        for (size_t i = 0; i < NT; i++) {
            CHECK_NEAR(f_en0[i], f_b1[i], 1e-4);
            CHECK_NEAR(f_en1[i], f_uniform[i], 1e-6);
        }
    }
    km_model_free(en0);
    km_model_free(b1);
    km_model_free(en1);
    km_model_free(uniform);
}

/* The learned f is KRR with the fixed weights d (the d step does not move it), and the homogeneity of
 * §3: KRR on c d with loss weight C / c gives the same predictions. */
KM_TEST_CASE(fixed_point_and_homogeneity)
{
    make_data();
    double f[NT], f_fixed[NT], f_scaled[NT], scaled[MK];
    km_model *learned = train(4.0, KM_MKL_TIKHONOV, KM_REG_BLOCK1, 0.0, NULL, f);
    CHECK(learned != NULL);
    if (!learned)
        return;
    const double *d = km_model_kernel_weights(learned, 0);
    km_model *fixed = train(4.0, KM_MKL_FIXED, KM_REG_LQ, 0, d, f_fixed);
    for (size_t m = 0; m < MK; m++)
        scaled[m] = 3.0 * d[m];
    km_model *rescaled = train(4.0 / 3.0, KM_MKL_FIXED, KM_REG_LQ, 0, scaled, f_scaled);
    for (size_t i = 0; i < NT; i++) {
        CHECK_NEAR(f_fixed[i], f[i], 1e-9);
        CHECK_NEAR(f_scaled[i], f[i], 1e-9);
    }
    km_model_free(learned);
    km_model_free(fixed);
    km_model_free(rescaled);
}

/* The objective lines of the alternation ("tikhonov T: objective J ..."). */
typedef struct objective_trace {
    double values[20000];
    unsigned char extrapolated[20000];   /* the point was SQUAREM's extrapolation (tikhonov.c) */
    size_t count;
} objective_trace;

static void trace_objective(void *user, km_log_level level, const char *message)
{
    objective_trace *trace = user;
    double J;
    int extrapolated;
    (void)level;
    if (trace->count < 20000 && tikhonov_log_objective(message, &J, &extrapolated)) {
        trace->extrapolated[trace->count] = (unsigned char)extrapolated;
        trace->values[trace->count++] = J;
    }
}

/* mu h(d) of Table 1 for the rows trained here. */
static double penalty_of_weight(km_mkl_regularizer reg, double param, double d)
{
    switch (reg) {
    case KM_REG_BLOCK1: return d;
    case KM_REG_LQ: return pow(d, param) / param;
    case KM_REG_ELASTICNET: return (1 - param) * (1 - param) * d / (1 - param * d);
    default: return NAN;
    }
}

static void check_solver(km_mkl_regularizer reg, double param, double C)
{
    make_data();
    static objective_trace trace;
    trace.count = 0;
    km_dataset *data = NULL;
    km_kernel_set *set = NULL;
    km_params *params = NULL;
    km_model *model = NULL;
    CHECK_OK(km_dataset_from_dense(N, D, X, Y, &data));
    CHECK_OK(km_kernel_set_new(&set));
    for (size_t m = 0; m < MK; m++)
        CHECK_OK(km_kernel_set_add_spec(set, SPECS[m]));
    CHECK_OK(km_params_new(&params));
    CHECK_OK(km_params_set_int(params, KM_PARAM_TASK, KM_TASK_KRR));
    CHECK_OK(km_params_set_double(params, KM_PARAM_C, C));
    set_tikhonov(params, reg, param);
    km_params_set_log(params, trace_objective, &trace);
    CHECK_OK(km_train(data, set, params, &model));
    double f[N];
    if (model)
        CHECK_OK(km_predict(model, data, NULL, f, NULL));
    CHECK(model != NULL && trace.count >= 2);
    if (model && trace.count >= 2) {
        double before = INFINITY;   /* J never increases from step to step (a refused extrapolation left out) */
        for (size_t k = 0; k < trace.count; k++) {
            if (trace.extrapolated[k])
                continue;
            CHECK(trace.values[k] <= before * (1 + 1e-12) + 1e-15);
            before = trace.values[k];
        }
        const km_machine *machine = &model->machines[0];
        CHECK(machine->n_sv == N);
        double sum = 0, residual_sq = 0;
        for (size_t j = 0; j < machine->n_sv; j++) {
            size_t i = machine->sv[j];
            CHECK_NEAR(Y[i] - f[i], machine->coef[j] / C, 1e-9);
            sum += machine->coef[j];
            residual_sq += (Y[i] - f[i]) * (Y[i] - f[i]);
        }
        CHECK_NEAR(sum, 0.0, 1e-9);
        const double *d = km_model_kernel_weights(model, 0), *norms = km_model_block_norms(model, 0);
        CHECK(norms != NULL);
        double tikhonov = 0.5 * C * residual_sq;
        for (size_t m = 0; norms && m < MK; m++)
            if (d[m] > 0)
                tikhonov += 0.5 * (norms[m] * norms[m] / d[m] + penalty_of_weight(reg, param, d[m]));
        km_machine_info info = KM_MACHINE_INFO_INIT;
        CHECK_OK(km_model_machine_info(model, 0, &info));
        CHECK(fabs(tikhonov - info.primal) <= 1e-5 * fabs(info.primal));
        CHECK_NEAR(info.primal, trace.values[trace.count - 1], 1e-15);
    }
    km_model_free(model);
    km_params_free(params);
    km_kernel_set_free(set);
    km_dataset_free(data);
}

KM_TEST_CASE(solver_block1) { check_solver(KM_REG_BLOCK1, 0, 4.0); }
KM_TEST_CASE(solver_lq_4_3) { check_solver(KM_REG_LQ, 4.0 / 3.0, 1.0); }
KM_TEST_CASE(solver_elasticnet) { check_solver(KM_REG_ELASTICNET, 0.5, 4.0); }
