/* The algebra behind the squared-loss block-norm family and its Bayesian reading (Tomioka & Suzuki,
 * "Regularization strategies and empirical Bayesian learning for MKL"), on random PSD kernels (N = 30,
 * M = 8) and random weights:
 *  - (1), finite form: at f_m = d_m K_m K_d^-1 f the sum sum_m f_m'K_m^-1 f_m / d_m (numpy, dense
 *    inverses) equals f'K_d^-1 f and kernelmix's sum_m d_m Q_m (Q_m = alpha'K_m alpha of the evidence,
 *    f = K_d alpha); 500 random splits f_m + e_m (sum e_m = 0) never give less;
 *  - Table 1 backwards (9): -2 g*(1/(2d)) = mu h(d) for every row, g* the concave conjugate computed
 *    by golden-section search over x with kernelmix's g (for block p > 2 the supremum);
 *  - the Ivanov forms (15): at kernelmix's closed-form weights sum_m h(d_m) = 1 and sum_m n_m^2/d_m is
 *    the value of the table of §3 (l_p: (sum n^q)^(2/q); elastic net: (1-l)(sum n)^2 + l sum n^2);
 *    10^4 random feasible d never do better;
 *  - homogeneity (§6): for h(d) = d^p, min_d' (x/d' + c^(p+1) mu h(d'))/c = 2 g(x) with the minimiser
 *    d/c, so (C, mu) -> (C c, mu c^(p+1)) in kernelmix's loss-weight C gives the same f. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/rng.h"
#include "mkl/evidence.h"
#include "mkl/mkl.h"
#include "mkl/theta.h"
#include "test_numpy.h"

enum { N = 30, M = 8 };

static double K[M * N * N], Y[N];

/* K_m = B_m B_m' / N + 0.05 I with a standard normal N x N B_m (invertible); y standard normal. */
static void make_kernels(void)
{
    km_rng rng;
    km_rng_seed(&rng, 404);
    static double B[N * N];
    for (size_t m = 0; m < M; m++) {
        for (size_t i = 0; i < N * N; i++)
            B[i] = km_rng_normal(&rng);
        double *Km = K + m * N * N;
        for (size_t j = 0; j < N; j++)
            for (size_t i = 0; i < N; i++) {
                double s = i == j ? 0.05 : 0.0;
                for (size_t r = 0; r < N; r++)
                    s += B[i * N + r] * B[j * N + r] / N;
                Km[j * N + i] = s;
            }
    }
    for (size_t i = 0; i < N; i++)
        Y[i] = km_rng_normal(&rng);
}

static const char finite_form_script[] =
    "import numpy as np\n"
    "N, M = 30, 8\n"
    "K = np.loadtxt('k.txt').reshape(M, N, N); d = np.loadtxt('d.txt'); a = np.loadtxt('a.txt')\n"
    "Kd = np.tensordot(d, K, 1); f = Kd @ a\n"
    "fm = [d[m] * K[m] @ np.linalg.solve(Kd, f) for m in range(M)]\n"
    "def value(parts): return sum(p @ np.linalg.solve(K[m], p) / d[m] for m, p in enumerate(parts))\n"
    "best = value(fm)\n"
    "rng = np.random.default_rng(1)\n"
    "worst_gain = np.inf\n"
    "for _ in range(500):\n"
    "    e = rng.normal(size=(M, N)) * rng.uniform(1e-3, 1); e -= e.mean(0)\n"
    "    worst_gain = min(worst_gain, value([fm[m] + e[m] for m in range(M)]) - best)\n"
    "print('%.17g %.17g %.17g %.17g' % (best, f @ np.linalg.solve(Kd, f), worst_gain,\n"
    "      max(np.max(np.abs(fm[m] - d[m] * K[m] @ a)) for m in range(M))))\n";

KM_TEST_CASE(finite_form_of_the_combined_norm)
{
    make_kernels();
    const double d[M] = {0.3, 1.7, 0.05, 0.8, 2.5, 0.4, 0.01, 1.1};
    km_evidence ev;
    CHECK_OK(km_evidence_alloc(N, M, K, &ev));
    CHECK_OK(km_evidence_eval(&ev, Y, d, 0.2, 0));
    double library = 0;
    for (size_t m = 0; m < M; m++)
        library += d[m] * ev.Q[m];
    CHECK(numpy_write("k.txt", M * N, N, K) && numpy_write("d.txt", M, 1, d) && numpy_write("a.txt", N, 1, ev.alpha));
    double want[4];
    int got = numpy_run(finite_form_script, want, 4);
    CHECK(got == 4);
    if (got == 4) {
        CHECK_NEAR(want[0], want[1], 1e-9);
        CHECK_NEAR(library, want[1], 1e-9);
        CHECK(want[2] > 0);
        CHECK(want[3] <= 1e-9);
    }
    km_evidence_free(&ev);
}

/* ---- Table 1 read backwards: mu h(d) = -2 g*(1/(2d)) ---------------------------------------------- */

typedef struct table_row {
    km_mkl_regularizer reg;
    double param;   /* q (l_q), p (block p > 2) or lambda */
} table_row;

/* The row's kernelmix parameters, resolved. */
static km_mkl_params row_params(const table_row *r)
{
    km_mkl_params in = {.method = KM_MKL_TIKHONOV, .regularizer = r->reg, .gap = 1e-3, .eps_mkl = 1e-5,
                        .max_outer = 10},
                  out;
    if (r->reg == KM_REG_ELASTICNET)
        in.lambda = r->param;
    else if (r->reg == KM_REG_LQ || r->reg == KM_REG_BLOCKP)
        in.reg_param = r->param;
    CHECK_OK(km_tikhonov_resolve(&in, &out));
    return out;
}

/* g(x) of the row, from kernelmix's penalty at block norm sqrt(x). */
static double g_of(const km_mkl_params *mkl, double x)
{
    double n = sqrt(x);
    return km_tikhonov_penalty(mkl, 1, &n);
}

/* mu h(d) of [TS] Table 1, written out independently of kernelmix. */
static double table_mu_h(const table_row *r, double d)
{
    double l = r->param;
    switch (r->reg) {
    case KM_REG_BLOCK1: return d;
    case KM_REG_LQ: return pow(d, l) / l;
    case KM_REG_UNIFORM: return 0.0;   /* d <= 1 here */
    case KM_REG_ELASTICNET: return (1 - l) * (1 - l) * d / (1 - l * d);
    case KM_REG_BLOCKP: return -((l - 2) / l) * pow(d, -l / (l - 2));
    }
    return NAN;
}

/* inf over x > 0 (sign 1) or sup (sign -1) of x y - g(x), by golden-section search on log x. */
static double conjugate(const km_mkl_params *mkl, double y, double sign)
{
    const double phi = (sqrt(5.0) - 1) / 2;
    double a = -40, b = 40;
    for (int k = 0; k < 300; k++) {
        double u = b - phi * (b - a), v = a + phi * (b - a);
        double fu = sign * (exp(u) * y - g_of(mkl, exp(u))), fv = sign * (exp(v) * y - g_of(mkl, exp(v)));
        if (fu < fv)
            b = v;
        else
            a = u;
    }
    double x = exp(0.5 * (a + b));
    return x * y - g_of(mkl, x);
}

KM_TEST_CASE(table_one_conjugates)
{
    const table_row rows[] = {{KM_REG_BLOCK1, 0},      {KM_REG_LQ, 1.5},         {KM_REG_LQ, 3},
                              {KM_REG_UNIFORM, 0},     {KM_REG_ELASTICNET, 0.3}, {KM_REG_ELASTICNET, 0.8},
                              {KM_REG_BLOCKP, 3},      {KM_REG_BLOCKP, 5}};
    const double ds[] = {0.02, 0.3, 0.9, 1.0};
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
        km_mkl_params mkl = row_params(&rows[k]);
        double sign = rows[k].reg == KM_REG_BLOCKP ? -1.0 : 1.0;
        for (size_t j = 0; j < sizeof ds / sizeof ds[0]; j++) {
            double d = ds[j] * (rows[k].reg == KM_REG_ELASTICNET ? 1.0 : 1.5);
            if (rows[k].reg == KM_REG_UNIFORM && d > 1)
                continue;
            CHECK_NEAR(-2 * conjugate(&mkl, 1 / (2 * d), sign), table_mu_h(&rows[k], d), 1e-7);
        }
    }
    /* uniform: beyond d = 1 the infimum is unbounded below (h = +inf there) */
    km_mkl_params uniform = row_params(&(table_row){KM_REG_UNIFORM, 0});
    CHECK(1e6 / (2 * 1.2) - g_of(&uniform, 1e6) < -1e4);
}

/* ---- Ivanov forms (15): closed-form d under sum h(d) <= 1 ---------------------------------------- */

static double sum_ratio(const double *n, const double *d)
{
    double s = 0;
    for (size_t m = 0; m < M; m++)
        s += n[m] * n[m] / d[m];
    return s;
}

/* Block norms n_m > 0 of widely different sizes. */
static void random_norms(km_rng *rng, double *n)
{
    for (size_t m = 0; m < M; m++)
        n[m] = exp(2 * km_rng_normal(rng));
}

/* l_p: h(d) = d^p with the block exponent q = 2p/(1+p) (p = 1: block 1). */
static void check_ivanov_lp(double p)
{
    km_rng rng;
    km_rng_seed(&rng, 7 + (uint64_t)(10 * p));
    double n[M], a[M], d[M], q = 2 * p / (1 + p);
    random_norms(&rng, n);
    for (size_t m = 0; m < M; m++) {
        a[m] = n[m] * n[m];
        d[m] = 1.0;   /* |w_m| = d_m sqrt(a_m) = n_m */
    }
    CHECK(km_theta_lp_step(M, q, a, d) == 1);
    double constraint = 0, norm_q = 0;
    for (size_t m = 0; m < M; m++) {
        constraint += pow(d[m], p);
        norm_q += pow(n[m], q);
    }
    double best = sum_ratio(n, d);
    CHECK_NEAR(constraint, 1.0, 1e-12);
    CHECK_NEAR(best, pow(norm_q, 2 / q), 1e-10);
    double smallest = INFINITY;
    for (int t = 0; t < 10000; t++) {
        double e[M], s = 0;
        for (size_t m = 0; m < M; m++) {
            e[m] = pow(km_rng_uniform(&rng), 3) + 1e-9;
            s += pow(e[m], p);
        }
        for (size_t m = 0; m < M; m++)
            e[m] /= pow(s, 1 / p);
        smallest = fmin(smallest, sum_ratio(n, e));
    }
    CHECK(smallest >= best * (1 - 1e-12));
}

KM_TEST_CASE(ivanov_block1) { check_ivanov_lp(1.0); }
KM_TEST_CASE(ivanov_lp_2) { check_ivanov_lp(2.0); }
KM_TEST_CASE(ivanov_lp_1_5) { check_ivanov_lp(1.5); }

/* Elastic net (App. C): h(d) = (1-l) d / (1-l d) on [0, 1/l). */
static void check_ivanov_elasticnet(double l)
{
    km_rng rng;
    km_rng_seed(&rng, 99);
    double n[M], a[M], d[M], sum_n = 0, sum_n2 = 0;
    random_norms(&rng, n);
    for (size_t m = 0; m < M; m++) {
        a[m] = n[m] * n[m];
        d[m] = 1.0;
        sum_n += n[m];
        sum_n2 += a[m];
    }
    CHECK(km_theta_elasticnet_step(M, l, a, d) == 1);
    double constraint = 0;
    for (size_t m = 0; m < M; m++)
        constraint += (1 - l) * d[m] / (1 - l * d[m]);
    double best = sum_ratio(n, d);
    CHECK_NEAR(constraint, 1.0, 1e-12);
    CHECK_NEAR(best, (1 - l) * sum_n * sum_n + l * sum_n2, 1e-10);
    /* feasible points on the boundary: h-values u on the simplex, d = h^-1(u) = u/((1-l) + l u) */
    double smallest = INFINITY;
    for (int t = 0; t < 10000; t++) {
        double u[M], e[M], s = 0;
        for (size_t m = 0; m < M; m++) {
            u[m] = -log(km_rng_uniform(&rng) + 1e-300) * (t % 2 ? 1.0 : n[m]);
            s += u[m];
        }
        for (size_t m = 0; m < M; m++)
            e[m] = (u[m] / s) / ((1 - l) + l * u[m] / s);
        smallest = fmin(smallest, sum_ratio(n, e));
    }
    CHECK(smallest >= best * (1 - 1e-12));
}

KM_TEST_CASE(ivanov_elasticnet_0_5) { check_ivanov_elasticnet(0.5); }
KM_TEST_CASE(ivanov_elasticnet_0_2) { check_ivanov_elasticnet(0.2); }

/* ---- Homogeneity: the mu of Table 1 can be fixed -------------------------------------------------- */

/* (x/d' + kappa mu h(d'))/c at d' = e^t, with h(d') = d'^p, mu = 1/p, kappa = c^(p+1). */
static double scaled_bound(double p, double x, double c, double t)
{
    return (x / exp(t) + pow(c, p + 1) * pow(exp(t), p) / p) / c;
}

/* Its minimum over t in [-30, 30] by golden-section search; the minimiser d' in *at. */
static double scaled_minimum(double p, double x, double c, double *at)
{
    const double phi = (sqrt(5.0) - 1) / 2;
    double a = -30, b = 30;
    for (int k = 0; k < 300; k++) {
        double u = b - phi * (b - a), v = a + phi * (b - a);
        if (scaled_bound(p, x, c, u) < scaled_bound(p, x, c, v))
            b = v;
        else
            a = u;
    }
    *at = exp(0.5 * (a + b));
    return scaled_bound(p, x, c, 0.5 * (a + b));
}

KM_TEST_CASE(homogeneity_of_mu)
{
    const double ps[] = {1.0, 1.5, 2.0, 4.0}, xs[] = {0.01, 0.6, 7.0}, cs[] = {0.1, 3.0};
    for (size_t i = 0; i < 4; i++) {
        table_row r = {ps[i] == 1.0 ? KM_REG_BLOCK1 : KM_REG_LQ, ps[i]};
        km_mkl_params mkl = row_params(&r);
        for (size_t j = 0; j < 3; j++)
            for (size_t k = 0; k < 2; k++) {
                double x = xs[j], n = sqrt(x), closed, at;
                km_block_weights(ps[i] == 1.0 ? KM_BLOCK_ONE : KM_BLOCK_LQ, ps[i], 1, &n, &closed);
                double value = scaled_minimum(ps[i], x, cs[k], &at);
                CHECK_NEAR(value, 2 * g_of(&mkl, x), 1e-9);
                CHECK_NEAR(at, closed / cs[k], 1e-6);
            }
    }
}
