/* Alignment-based and KRR kernel learning (Cortes, Mohri & Rostamizadeh; Rostamizadeh's thesis ch. 2-3)
 * on golden sets whose values were derived independently from the thesis' definitions:
 *  - G-toy (Fig. 2.4) and S8: the alignment statistics a, M, rho, A, eta; rho invariant under K <- cK;
 *  - align, alignf (and its KKT conditions), alignf-linear (a negative weight, refused for training),
 *    the ordering rho(alignf-linear) >= rho(alignf) >= rho(align), rho(unif); align-q with q = 2 on
 *    Frobenius-normalized kernels equals align;
 *  - alignf against scipy's NNLS on generated data;
 *  - l2krr (Algorithm 1) goldens, duality gap, F(mu*) <= F(mu) for random feasible mu, independence of
 *    eta; l1krr golden, gap, and F(mu*) <= F at every Lambda e_k and at the uniform weights. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/rng.h"
#include "kernelmix.h"
#include "mkl/alignment_stats.h"
#include "mkl/nnls.h"
#include "s8_set.h"
#include "test_numpy.h"


/* kernel access over dense n x n matrices */
typedef struct dense_kernels {
    size_t n;
    const double *const *K;
} dense_kernels;

static km_status dense_column(void *ctx, size_t m, size_t i, const size_t *rows, size_t nrows, double *out)
{
    const dense_kernels *d = ctx;
    for (size_t k = 0; k < nrows; k++)
        out[k] = d->K[m][(rows ? rows[k] : k) * d->n + i];
    return KM_OK;
}

static km_alignment_stats stats_of(size_t n, size_t M, const double *const *K, const double *y)
{
    dense_kernels d = {n, K};
    double theta[16] = {0};
    km_kernel_access access = {.n_rows = n, .n_kernels = M, .theta = theta, .column = dense_column, .column_ctx = &d};
    km_alignment_stats s;
    CHECK_OK(km_alignment_stats_compute(&access, y, 1, &s));
    return s;
}


/* The S8 kernels linear, (x.x' + 1)^2, exp(-0.5 d^2), exp(-d^2); centred and scaled to trace 1 when
 * normalized (K_c of the thesis, §3.3.2), scaled to ||K_c||_F = 1 when frobenius. */
static void s8_kernels(double K[KS][S * S], int normalized, int frobenius)
{
    s8_raw_kernels(K);
    if (!normalized)
        return;
    for (int k = 0; k < KS; k++) {
        double r[S], g = 0, trace = 0, frob = 0;
        for (int i = 0; i < S; i++) {
            r[i] = 0;
            for (int j = 0; j < S; j++)
                r[i] += K[k][i * S + j] / S;
            g += r[i] / S;
        }
        for (int i = 0; i < S; i++)
            for (int j = 0; j < S; j++) {
                K[k][i * S + j] -= r[i] + r[j] - g;
                frob += K[k][i * S + j] * K[k][i * S + j];
            }
        for (int i = 0; i < S; i++)
            trace += K[k][i * S + i];
        double scale = frobenius ? sqrt(frob) : trace;
        for (int i = 0; i < S * S; i++)
            K[k][i] /= scale;
    }
}

KM_TEST_CASE(g_toy_alignments)
{
    /* (-1,0) labelled -1 and three copies of (1,0) labelled +1, K = x.x' + 1 */
    static const double x[4] = {-1, 1, 1, 1}, y[4] = {-1, 1, 1, 1};
    double K[16];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            K[i * 4 + j] = x[i] * x[j] + 1;
    const double *Ks[1] = {K};
    km_alignment_stats s = stats_of(4, 1, Ks, y);
    CHECK_NEAR(km_alignment_uncentred(&s, 0), 0.7905694150, 1e-9);
    CHECK_NEAR(km_alignment_rho(&s, 0), 1.0, 1e-12);
    CHECK_NEAR(s.a[0], 9.0, 1e-12);   /* <K_c, K_Yc> (E6: not <K, K_Y> = 20) */
    CHECK_NEAR(s.b[0], 20.0, 1e-12);
    CHECK_NEAR(km_alignment_eta(&s, 0), 0.5625, 1e-12);
    km_alignment_stats_free(&s);
}

KM_TEST_CASE(s8_statistics)
{
    static double K[KS][S * S];
    s8_kernels(K, 0, 0);
    const double *Ks[KS] = {K[0], K[1], K[2], K[3]};
    static const double rho[KS] = {0.223258, 0.150668, 0.315253, 0.354230};
    static const double A[KS] = {0.069338, 0.065464, 0.181897, 0.267650};
    km_alignment_stats raw = stats_of(S, KS, Ks, s8_y);
    for (int k = 0; k < KS; k++) {
        CHECK_NEAR(km_alignment_rho(&raw, k), rho[k], 1e-6);
        CHECK_NEAR(km_alignment_uncentred(&raw, k), A[k], 1e-6);
    }
    /* the centred, trace-1 kernels: a and M of the spec; rho unchanged (invariant under K <- cK) */
    s8_kernels(K, 1, 0);
    static const double a[KS] = {1.39130435, 0.94964029, 1.25017398, 1.18454957};
    static const double M[KS][KS] = {{0.60680529, 0.57835471, 0.33369579, 0.23659671},
                                     {0.57835471, 0.62072357, 0.32397485, 0.23125341},
                                     {0.33369579, 0.32397485, 0.24572060, 0.19863945},
                                     {0.23659671, 0.23125341, 0.19863945, 0.17472501}};
    km_alignment_stats s = stats_of(S, KS, Ks, s8_y);
    for (int k = 0; k < KS; k++) {
        CHECK_NEAR(s.a[k], a[k], 1e-8);
        CHECK_NEAR(km_alignment_rho(&s, k), km_alignment_rho(&raw, k), 1e-12);
        for (int l = 0; l < KS; l++)
            CHECK_NEAR(s.gram[k * KS + l], M[k][l], 1e-8);
    }
    km_alignment_stats_free(&raw);
    km_alignment_stats_free(&s);
}

/* alignf: v* = (0, 0, 0, 6.77950784) on S8, a KKT point; alignf-linear M^-1 a has a negative weight;
 * rho(alignf-linear) >= rho(alignf) >= rho(align) = 0.282812 >= rho(unif) = 0.255638. */
KM_TEST_CASE(s8_alignf_and_ordering)
{
    static double K[KS][S * S];
    s8_kernels(K, 1, 0);
    const double *Ks[KS] = {K[0], K[1], K[2], K[3]};
    km_alignment_stats s = stats_of(S, KS, Ks, s8_y);
    double v[KS], lin[KS], align[KS], unif[KS] = {1, 1, 1, 1};
    CHECK_OK(km_nonnegative_qp(KS, s.gram, s.a, v));
    static const double v_star[KS] = {0, 0, 0, 6.77950784};
    for (int k = 0; k < KS; k++) {
        CHECK_NEAR(v[k], v_star[k], 1e-7);
        double grad = -s.a[k];
        for (int l = 0; l < KS; l++)
            grad += s.gram[k * KS + l] * v[l];
        CHECK(v[k] >= 0 && grad >= -1e-10 && fabs(v[k] * grad) <= 1e-10);
    }
    CHECK_NEAR(km_alignment_rho_combined(&s, v), 0.354230, 1e-6);
    CHECK_OK(km_alignf_linear_solve(KS, s.gram, s.a, lin));
    double norm = 0;
    for (int k = 0; k < KS; k++)
        norm += lin[k] * lin[k];
    static const double mu_lin[KS] = {0.346562, -0.314957, -0.416649, 0.779167};
    for (int k = 0; k < KS; k++)
        CHECK_NEAR(lin[k] / sqrt(norm), mu_lin[k], 1e-6);
    CHECK_NEAR(km_alignment_rho_combined(&s, lin), 0.416152, 1e-6);
    double sum = 0;
    for (int k = 0; k < KS; k++)
        sum += align[k] = km_alignment_rho(&s, k);
    static const double mu_align[KS] = {0.213970, 0.144399, 0.302138, 0.339493};
    for (int k = 0; k < KS; k++)
        CHECK_NEAR(align[k] / sum, mu_align[k], 1e-6);
    double r_lin = km_alignment_rho_combined(&s, lin), r_f = km_alignment_rho_combined(&s, v);
    double r_align = km_alignment_rho_combined(&s, align), r_unif = km_alignment_rho_combined(&s, unif);
    CHECK_NEAR(r_align, 0.282812, 1e-6);
    CHECK_NEAR(r_unif, 0.255638, 1e-6);
    CHECK(r_lin >= r_f && r_f >= r_align && r_f >= r_unif);
    km_alignment_stats_free(&s);
}

/* Training through the public API on precomputed S8 kernels (centred, trace 1 or Frobenius 1). */
typedef struct s8_run {
    km_task task;
    km_mkl_method method;
    double C, radius;
    const double *weights;       /* fixed weights, or l2krr's given mu0 */
    int frobenius;
    km_mu0 mu0;
    double eta;
} s8_run;

static km_model *train_s8(s8_run r)
{
    static double K[KS][S * S];
    s8_kernels(K, 1, r.frobenius);
    km_matrix *matrix[KS] = {0};
    km_dataset *data = NULL;
    km_kernel_set *set = NULL;
    km_params *params = NULL;
    km_model *model = NULL;
    double ids[S];
    for (int i = 0; i < S; i++)
        ids[i] = i;
    CHECK_OK(km_dataset_from_dense(S, 1, ids, s8_y, &data));
    CHECK_OK(km_kernel_set_new(&set));
    for (int k = 0; k < KS; k++) {
        CHECK_OK(km_matrix_wrap(S, S, KM_FLOAT64, K[k], &matrix[k]));
        CHECK_OK(km_kernel_set_add_matrix(set, matrix[k], KM_NORM_NONE, 0));
    }
    CHECK_OK(km_params_new(&params));
    CHECK_OK(km_params_set_int(params, KM_PARAM_TASK, r.task));
    CHECK_OK(km_params_set_int(params, KM_PARAM_MKL_METHOD, r.method));
    CHECK_OK(km_params_set_double(params, KM_PARAM_C, r.C));
    CHECK_OK(km_params_set_double(params, KM_PARAM_MKL_RADIUS, r.radius));
    CHECK_OK(km_params_set_double(params, KM_PARAM_MKL_EPS, 1e-13));
    CHECK_OK(km_params_set_double(params, KM_PARAM_MKL_GAP, 1e-9));
    CHECK_OK(km_params_set_int(params, KM_PARAM_MU0, r.mu0));
    CHECK_OK(km_params_set_double(params, KM_PARAM_L2KRR_ETA, r.eta));
    if (r.weights)
        CHECK_OK(km_params_set_kernel_weights(params, r.weights, KS));
    if (km_train(data, set, params, &model))
        fprintf(stderr, "km_train: %s\n", km_last_error());
    km_params_free(params);
    km_kernel_set_free(set);
    km_dataset_free(data);
    for (int k = 0; k < KS; k++)
        km_matrix_free(matrix[k]);
    return model;
}

/* F(mu) = y~'(K_mu + lambda I)^-1 y~ from KRR at fixed weights mu: its objective is -F/2. */
static double krr_F(const double *mu, double lambda)
{
    km_model *model = train_s8((s8_run){KM_TASK_KRR, KM_MKL_FIXED, 1.0 / lambda, 1, mu, 0, 0, 0.25});
    double F = model ? -2 * km_model_objective(model, 0) : NAN;
    km_model_free(model);
    return F;
}

KM_TEST_CASE(s8_two_stage_weights)
{
    static const double mu_align[KS] = {0.213970, 0.144399, 0.302138, 0.339493};
    km_model *model = train_s8((s8_run){KM_TASK_SVC, KM_MKL_ALIGN, 1, 1, NULL, 0, 0, 0.25});
    CHECK(model != NULL);
    for (int k = 0; model && k < KS; k++)
        CHECK_NEAR(km_model_kernel_weights(model, 0)[k], mu_align[k], 1e-6);
    km_model_free(model);
    model = train_s8((s8_run){KM_TASK_KRR, KM_MKL_ALIGNF, 10, 2, NULL, 0, 0, 0.25});
    CHECK(model != NULL);
    for (int k = 0; model && k < KS; k++)
        CHECK_NEAR(km_model_kernel_weights(model, 0)[k], k == 3 ? 2.0 : 0.0, 1e-9);
    km_model_free(model);
    /* alignf-linear's negative weight is refused */
    km_model *refused = train_s8((s8_run){KM_TASK_SVC, KM_MKL_ALIGNF_LINEAR, 1, 1, NULL, 0, 0, 0.25});
    CHECK(refused == NULL && strstr(km_last_error(), "negative weight"));
    km_model_free(refused);
    /* align-q, q = 2, on Frobenius-normalized kernels is align */
    km_model *a = train_s8((s8_run){KM_TASK_SVC, KM_MKL_ALIGN, 1, 1, NULL, 1, 0, 0.25});
    km_model *q = train_s8((s8_run){KM_TASK_SVC, KM_MKL_ALIGN_Q, 1, 1, NULL, 1, 0, 0.25});
    CHECK(a && q);
    for (int k = 0; a && q && k < KS; k++)
        CHECK_NEAR(km_model_kernel_weights(q, 0)[k], km_model_kernel_weights(a, 0)[k], 1e-12);
    km_model_free(a);
    km_model_free(q);
}

/* l2krr at (Lambda, lambda, mu0, eta): the golden weights (and F when given), the duality gap below
 * 1e-10; returns F(mu*). */
static double check_l2krr(double Lambda, double lambda, km_mu0 mu0, const double *given, double eta,
                          const double *want, double F_want)
{
    km_model *model = train_s8((s8_run){KM_TASK_KRR, KM_MKL_L2KRR, 1.0 / lambda, Lambda, given, 0, mu0, eta});
    CHECK(model != NULL);
    if (!model)
        return NAN;
    km_machine_info info = KM_MACHINE_INFO_INIT;
    CHECK_OK(km_model_machine_info(model, 0, &info));
    for (int k = 0; k < KS; k++)
        CHECK_NEAR(km_model_kernel_weights(model, 0)[k], want[k], 1e-6);
    double F = 2 * info.primal;
    if (F_want > 0)
        CHECK_NEAR(F, F_want, 1e-7);
    CHECK(info.converged && info.gap * F < 1e-10);
    CHECK_NEAR(krr_F(km_model_kernel_weights(model, 0), lambda), F, 1e-10);
    km_model_free(model);
    return F;
}

KM_TEST_CASE(s8_l2krr_goldens)
{
    static const double a[KS] = {0.362628, 0.232659, 0.467630, 0.771811};
    static const double b[KS] = {0.541154, 0.357184, 0.516143, 0.559614};
    static const double c[KS] = {1.063505, 0.749656, 1.710076, 3.373813};
    static const double d[KS] = {0.759561, 0.664230, 0.938084, 1.344831};
    static const double half[KS] = {0.5, 0.5, 0.5, 0.5};
    double F = check_l2krr(1, 0.1, KM_MU0_ZERO, NULL, 0.25, a, 29.82710220);
    check_l2krr(1, 1, KM_MU0_ZERO, NULL, 0.25, b, 6.36815654);
    check_l2krr(4, 0.1, KM_MU0_ZERO, NULL, 0.25, c, 12.26394063);
    check_l2krr(1, 0.1, KM_MU0_GIVEN, half, 0.25, d, 0);
    /* the optimum does not depend on eta */
    check_l2krr(1, 0.1, KM_MU0_ZERO, NULL, 0.0, a, F);
    check_l2krr(1, 0.1, KM_MU0_ZERO, NULL, 0.75, a, F);
    /* F(mu*) <= F(mu) for random mu in {mu >= 0, ||mu||_2 <= 1} */
    km_rng rng;
    km_rng_seed(&rng, 11);
    for (int trial = 0; trial < 10; trial++) {
        double mu[KS], norm = 0;
        for (int k = 0; k < KS; k++) {
            mu[k] = km_rng_uniform(&rng);
            norm += mu[k] * mu[k];
        }
        double radius = km_rng_uniform(&rng) / sqrt(norm);
        for (int k = 0; k < KS; k++)
            mu[k] *= radius;
        CHECK(F <= krr_F(mu, 0.1) + 1e-10);
    }
}

/* l1krr on S8, Lambda = 1, lambda = 0.1: mu = e_4, F = 35.93587195; the gap within 1e-6 of F, and F at
 * mu* at most F at every vertex Lambda e_k and at the uniform weights. */
KM_TEST_CASE(s8_l1krr)
{
    km_model *model = train_s8((s8_run){KM_TASK_KRR, KM_MKL_L1KRR, 10, 1, NULL, 0, 0, 0.25});
    CHECK(model != NULL);
    if (!model)
        return;
    km_machine_info info = KM_MACHINE_INFO_INIT;
    CHECK_OK(km_model_machine_info(model, 0, &info));
    for (int k = 0; k < KS; k++)
        CHECK_NEAR(km_model_kernel_weights(model, 0)[k], k == 3 ? 1.0 : 0.0, 1e-9);
    double F = 2 * info.primal;
    CHECK_NEAR(F, 35.93587195, 1e-7);
    CHECK(info.converged && info.gap <= 1e-6);
    static const double unif[KS] = {0.25, 0.25, 0.25, 0.25};
    CHECK(F <= krr_F(unif, 0.1) + 1e-10);
    for (int k = 0; k < KS; k++) {
        double e[KS] = {0};
        e[k] = 1;
        CHECK(F <= krr_F(e, 0.1) + 1e-10);
    }
    km_model_free(model);
}

/* alignf against scipy.optimize.nnls on 60 generated points with 5 RBF widths and the linear kernel
 * (uncentred, unnormalized: the method centres): min v'Mv - 2v'a over v >= 0 is the least-squares
 * problem ||L'v - L^-1 a||^2 with M = LL'. */
static const char nnls_script[] =
    "import numpy as np\n"
    "from scipy.optimize import nnls\n"
    "X = np.loadtxt('x.txt'); y = np.loadtxt('y.txt'); n = len(y)\n"
    "G = X @ X.T; q = np.diag(G); D = q[:, None] + q[None, :] - 2 * G\n"
    "Ks = [np.exp(-g * D) for g in (0.05, 0.2, 1, 5, 20)] + [G]\n"
    "U = np.eye(n) - 1.0 / n; Kc = [U @ K @ U for K in Ks]; yc = y - y.mean()\n"
    "a = np.array([yc @ K @ yc for K in Kc]); M = np.array([[np.sum(A * B) for B in Kc] for A in Kc])\n"
    "w, V = np.linalg.eigh(M); R = V @ np.diag(np.sqrt(np.maximum(w, 0))) @ V.T\n"
    "v, _ = nnls(R, np.linalg.pinv(R) @ a)\n"
    "for x in np.r_[v / v.sum(), a]: print('%.17g' % x)\n";

KM_TEST_CASE(alignf_matches_scipy_nnls)
{
    enum { n = 60, d = 2, M = 6 };
    double X[n * d], y[n];
    km_rng rng;
    km_rng_seed(&rng, 5);
    for (int i = 0; i < n; i++) {
        X[i * d] = km_rng_normal(&rng);
        X[i * d + 1] = km_rng_normal(&rng);
        y[i] = X[i * d] * X[i * d] + 0.5 * X[i * d + 1] > 0.8 ? 1 : -1;
    }
    CHECK(numpy_write("x.txt", n, d, X) && numpy_write("y.txt", n, 1, y));
    double expected[2 * M];
    int got = numpy_run(nnls_script, expected, 2 * M);
    CHECK(got == 2 * M);
    km_dataset *data = NULL;
    km_kernel_set *set = NULL;
    km_params *params = NULL;
    km_model *model = NULL;
    CHECK_OK(km_dataset_from_dense(n, d, X, y, &data));
    CHECK_OK(km_kernel_set_new(&set));
    CHECK_OK(km_kernel_set_add_spec(set, "rbf:gamma=0.05,0.2,1,5,20"));
    CHECK_OK(km_kernel_set_add_spec(set, "linear"));
    CHECK_OK(km_params_new(&params));
    CHECK_OK(km_params_set_int(params, KM_PARAM_MKL_METHOD, KM_MKL_ALIGNF));
    CHECK_OK(km_train(data, set, params, &model));
    int positive = 0;
    for (int k = 0; model && got == 2 * M && k < M; k++) {
        double w = km_model_kernel_weights(model, 0)[k];
        CHECK(w >= 0);
        CHECK_NEAR(w, expected[k], 1e-7);
        positive += w > 0;
    }
    CHECK(positive >= 2); /* a combination, not a single kernel: the test can tell a wrong solver */
    km_model_free(model);
    km_params_free(params);
    km_kernel_set_free(set);
    km_dataset_free(data);
}
