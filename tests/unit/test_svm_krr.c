/* Kernel ridge regression (KM_TASK_KRR) through the public API:
 *  - the closed form against an independent numpy solve, with the bias (the bordered system
 *    [K + lambda I, 1; 1', 0]) and without (K + lambda I)^-1 y), on an RBF + linear combination;
 *  - the conjugate-gradient path (N x N beyond -m) equals the Cholesky path;
 *  - the golden values of Rostamizadeh's S8 set (centred, trace-1 kernels, mu = 1/4, lambda = 0.1);
 *  - a saved and loaded model predicts the same;
 *  - lp-norm MKL on KRR (wrapper) reaches its duality gap. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/rng.h"
#include "kernelmix.h"
#include "test_numpy.h"
#include "train/model.h"

enum { N = 50, NT = 20, D = 3 };

static double X[N * D], Y[N], XT[NT * D];

static void make_data(void)
{
    km_rng rng;
    km_rng_seed(&rng, 7);
    for (size_t i = 0; i < N + NT; i++) {
        double *x = i < N ? X + i * D : XT + (i - N) * D;
        for (size_t j = 0; j < D; j++)
            x[j] = km_rng_normal(&rng);
        if (i < N)
            Y[i] = 3 + x[0] - 2 * x[1] * x[1] + 0.1 * km_rng_normal(&rng);
    }
}

/* Trains KRR with ridge lambda on rbf(gamma 0.5) + linear, predicts XT into f. */
static km_model *train_predict(double lambda, int bias, double cache_mb, double *f)
{
    km_dataset *train = NULL, *test = NULL;
    km_kernel_set *set = NULL;
    km_params *params = NULL;
    km_model *model = NULL;
    CHECK_OK(km_dataset_from_dense(N, D, X, Y, &train));
    CHECK_OK(km_dataset_from_dense(NT, D, XT, NULL, &test));
    CHECK_OK(km_kernel_set_new(&set));
    CHECK_OK(km_kernel_set_add_spec(set, "rbf:gamma=0.5"));
    CHECK_OK(km_kernel_set_add_spec(set, "linear"));
    CHECK_OK(km_params_new(&params));
    CHECK_OK(km_params_set_int(params, KM_PARAM_TASK, KM_TASK_KRR));
    CHECK_OK(km_params_set_double(params, KM_PARAM_C, 1.0 / lambda));
    CHECK_OK(km_params_set_int(params, KM_PARAM_KRR_BIAS, bias));
    CHECK_OK(km_params_set_double(params, KM_PARAM_CACHE_MB, cache_mb));
    CHECK_OK(km_train(train, set, params, &model));
    if (model)
        CHECK_OK(km_predict(model, test, NULL, f, NULL));
    km_params_free(params);
    km_kernel_set_free(set);
    km_dataset_free(train);
    km_dataset_free(test);
    return model;
}

static const char closed_form_script[] =
    "import numpy as np\n"
    "X = np.loadtxt('x.txt'); y = np.loadtxt('y.txt'); T = np.loadtxt('t.txt'); lam, bias = np.loadtxt('p.txt')\n"
    "def k(A, B):\n"
    "    d = (A * A).sum(1)[:, None] + (B * B).sum(1)[None, :] - 2 * A @ B.T\n"
    "    return np.exp(-0.5 * d) + A @ B.T\n"
    "K = k(X, X); n = len(y)\n"
    "if bias:\n"
    "    A = np.zeros((n + 1, n + 1)); A[:n, :n] = K + lam * np.eye(n); A[:n, n] = 1; A[n, :n] = 1\n"
    "    s = np.linalg.solve(A, np.r_[y, 0]); a, b = s[:n], s[n]\n"
    "else:\n"
    "    a = np.linalg.solve(K + lam * np.eye(n), y); b = 0.0\n"
    "for v in np.r_[b, a, k(T, X) @ a + b]: print('%.17g' % v)\n";

static void check_closed_form(double lambda, int bias)
{
    make_data();
    double params[2] = {lambda, bias};
    CHECK(numpy_write("x.txt", N, D, X) && numpy_write("y.txt", N, 1, Y) && numpy_write("t.txt", NT, D, XT) &&
          numpy_write("p.txt", 1, 2, params));
    double expected[1 + N + NT], f[NT];
    int got = numpy_run(closed_form_script, expected, 1 + N + NT);
    CHECK(got == 1 + N + NT);
    km_model *model = train_predict(lambda, bias, 100, f);
    CHECK(model != NULL);
    if (!model || got != 1 + N + NT)
        return;
    const km_machine *machine = &model->machines[0];
    CHECK_NEAR(machine->bias, expected[0], 1e-9);
    CHECK(machine->n_sv == N);
    double sum = 0;
    for (size_t j = 0; j < machine->n_sv; j++) {
        CHECK_NEAR(machine->coef[j], expected[1 + machine->sv[j]], 1e-9);
        sum += machine->coef[j];
    }
    if (bias)
        CHECK_NEAR(sum, 0.0, 1e-9);
    else
        CHECK(machine->bias == 0.0);
    for (size_t i = 0; i < NT; i++)
        CHECK_NEAR(f[i], expected[1 + N + i], 1e-9);
    km_model_free(model);
}

KM_TEST_CASE(numpy_closed_form_bias) { check_closed_form(0.5, 1); }
KM_TEST_CASE(numpy_closed_form_no_bias) { check_closed_form(0.05, 0); }

/* -m 0.01 MiB holds no 50 x 50 matrix: conjugate gradients on kernel columns. */
KM_TEST_CASE(conjugate_gradients_match_cholesky)
{
    make_data();
    for (int bias = 0; bias <= 1; bias++) {
        double dense[NT], cg[NT];
        km_model *a = train_predict(0.1, bias, 100, dense), *b = train_predict(0.1, bias, 0.01, cg);
        CHECK(a && b);
        if (!a || !b)
            return;
        km_machine_info ia = KM_MACHINE_INFO_INIT, ib = KM_MACHINE_INFO_INIT;
        CHECK_OK(km_model_machine_info(a, 0, &ia));
        CHECK_OK(km_model_machine_info(b, 0, &ib));
        CHECK(ia.iterations == 0 && ib.iterations > 0 && ib.converged);
        CHECK_NEAR(ib.objective, ia.objective, 1e-8);
        CHECK_NEAR(ib.bias, ia.bias, 1e-8);
        for (size_t i = 0; i < NT; i++)
            CHECK_NEAR(cg[i], dense[i], 1e-8);
        km_model_free(a);
        km_model_free(b);
    }
}

/* Rostamizadeh's S8 points with the kernels linear, (x.x' + 1)^2, exp(-0.5 d^2), exp(-d^2), each
 * centred and scaled to trace 1, combined with weights 1/4; lambda = 0.1 (golden values derived
 * independently from the thesis' Eq. 2.8-2.9). */
KM_TEST_CASE(s8_golden)
{
    static const double P[8][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}, {2, 1}, {1, 2}, {2, 2}, {3, 1}};
    static const double y[8] = {-1, -1, 1, -1, 1, 1, 1, -1};
    static const double alpha[8] = {-4.321761, -2.272108, 7.342945, -8.665730, 8.384805, 2.621707, 2.450687, -5.540544};
    static const double fit[8] = {-0.567824, -0.772789, 0.265706, -0.133427, 0.161519, 0.737829, 0.754931, -0.445946};
    enum { m = 8 };
    double K[4][m * m], combined[m * m] = {0};
    for (int i = 0; i < m; i++)
        for (int j = 0; j < m; j++) {
            double dot = P[i][0] * P[j][0] + P[i][1] * P[j][1];
            double d2 = (P[i][0] - P[j][0]) * (P[i][0] - P[j][0]) + (P[i][1] - P[j][1]) * (P[i][1] - P[j][1]);
            K[0][i * m + j] = dot;
            K[1][i * m + j] = (dot + 1) * (dot + 1);
            K[2][i * m + j] = exp(-0.5 * d2);
            K[3][i * m + j] = exp(-d2);
        }
    for (int k = 0; k < 4; k++) {
        double r[m], g = 0, trace = 0;
        for (int i = 0; i < m; i++) {
            r[i] = 0;
            for (int j = 0; j < m; j++)
                r[i] += K[k][i * m + j] / m;
            g += r[i] / m;
        }
        for (int i = 0; i < m; i++)
            trace += K[k][i * m + i] - 2 * r[i] + g;
        for (int i = 0; i < m; i++)
            for (int j = 0; j < m; j++)
                combined[i * m + j] += 0.25 * (K[k][i * m + j] - r[i] - r[j] + g) / trace;
    }
    km_matrix *matrix = NULL;
    km_dataset *data = NULL;
    km_kernel_set *set = NULL;
    km_params *params = NULL;
    km_model *model = NULL;
    double ids[m];
    for (int i = 0; i < m; i++)
        ids[i] = i;
    CHECK_OK(km_matrix_wrap(m, m, KM_FLOAT64, combined, &matrix));
    CHECK_OK(km_dataset_from_dense(m, 1, ids, y, &data));
    CHECK_OK(km_kernel_set_new(&set));
    CHECK_OK(km_kernel_set_add_matrix(set, matrix, KM_NORM_NONE, 0));
    CHECK_OK(km_params_new(&params));
    CHECK_OK(km_params_set_int(params, KM_PARAM_TASK, KM_TASK_KRR));
    CHECK_OK(km_params_set_double(params, KM_PARAM_C, 10.0));
    CHECK_OK(km_train(data, set, params, &model));
    CHECK(model != NULL);
    if (model) {
        const km_machine *machine = &model->machines[0];
        CHECK_NEAR(machine->bias, 0.0, 1e-12); /* centred kernels, mean label 0 */
        CHECK(machine->n_sv == m);
        for (size_t j = 0; j < machine->n_sv && j < m; j++) {
            CHECK_NEAR(machine->coef[j], alpha[machine->sv[j]], 1e-6);
            double f = 0;
            for (int i = 0; i < m; i++)
                f += combined[machine->sv[j] * m + i] * machine->coef[i];
            CHECK_NEAR(f, fit[machine->sv[j]], 1e-6);
        }
    }
    km_model_free(model);
    km_params_free(params);
    km_kernel_set_free(set);
    km_dataset_free(data);
    km_matrix_free(matrix);
}

KM_TEST_CASE(saved_model_predicts_the_same)
{
    make_data();
    double f[NT], g[NT];
    km_model *model = train_predict(0.3, 1, 100, f), *loaded = NULL;
    km_dataset *test = NULL;
    CHECK(model != NULL);
    if (!model)
        return;
    CHECK_OK(km_model_save(model, "krr.model"));
    CHECK_OK(km_model_load("krr.model", &loaded));
    CHECK_OK(km_dataset_from_dense(NT, D, XT, NULL, &test));
    if (loaded) {
        CHECK(km_model_task(loaded) == KM_TASK_KRR);
        CHECK_OK(km_predict(loaded, test, NULL, g, NULL));
        for (size_t i = 0; i < NT; i++)
            CHECK(f[i] == g[i]);
    }
    km_dataset_free(test);
    km_model_free(model);
    km_model_free(loaded);
}

/* lp-norm MKL (p = 2) learns KRR weights with the wrapper and certifies them: relative gap <= 1e-3. */
KM_TEST_CASE(lp_mkl_certified)
{
    make_data();
    km_dataset *train = NULL;
    km_kernel_set *set = NULL;
    km_params *params = NULL;
    km_model *model = NULL;
    CHECK_OK(km_dataset_from_dense(N, D, X, Y, &train));
    CHECK_OK(km_kernel_set_new(&set));
    CHECK_OK(km_kernel_set_add_spec(set, "rbf:gamma=0.1,1,10"));
    CHECK_OK(km_kernel_set_add_spec(set, "linear"));
    CHECK_OK(km_params_new(&params));
    CHECK_OK(km_params_set_int(params, KM_PARAM_TASK, KM_TASK_KRR));
    CHECK_OK(km_params_set_int(params, KM_PARAM_MKL_METHOD, KM_MKL_LP));
    CHECK_OK(km_train(train, set, params, &model));
    CHECK(model != NULL);
    if (model) {
        km_machine_info info = KM_MACHINE_INFO_INIT;
        CHECK_OK(km_model_machine_info(model, 0, &info));
        CHECK(info.converged && info.gap <= 1e-3 && info.gap >= -1e-9);
        CHECK(info.mkl_iterations > 1);
    }
    km_model_free(model);
    km_params_free(params);
    km_kernel_set_free(set);
    km_dataset_free(train);
}
