/* Bounds of learning kernels (Rostamizadeh's thesis ch. 2): golden values computed independently from
 * the theorems' formulas (in each comment the arithmetic that gives them), the figures of §2.2
 * (m = 36,000, rho/R = 0.2, delta = 0.01, p = 200 and 800), and two properties checked by enumerating
 * all 2^m sign vectors of small samples: Thm 2.5/2.7's bound is at least the exact empirical
 * Rademacher complexity of Prop. 2.5, (1/m) E_sigma sqrt(||u_sigma||_r), u_sigma,k = sigma'K_k sigma;
 * Lemma 2.1, E_sigma[(sigma'K sigma)^r] <= (eta0 r Tr K)^r. */
#include <math.h>

#include "check.h"
#include "core/rng.h"
#include "eval/learning_bounds.h"

static void test_rademacher_traces(void)
{
    /* u = (4,3,2,1), m = 10: sqrt(23/22 r ||u||_r) / 10; ||u||_1 = 10, ||u||_2 = sqrt 30, ... */
    const double u[] = {4, 3, 2, 1}, expected[] = {0.323335, 0.338414, 0.381546, 0.425900};
    for (int r = 1; r <= 4; r++) {
        double value = 0;
        CHECK_OK(km_bound_rademacher(10, 4, u, r, &value));
        CHECK_NEAR(value, expected[r - 1], 1e-6);
    }
    CHECK_NEAR(sqrt(23.0 / 22.0 * 2 * sqrt(30.0)) / 10, expected[1], 1e-6);
    /* q = 1: the minimum over r = 1 .. ceil(ln 4) + 2 = 4 is at r = 1 */
    double best = 0;
    int best_r = 0;
    CHECK_OK(km_bound_rademacher_l1(10, 4, u, &best, &best_r));
    CHECK_NEAR(best, 0.323335, 1e-6);
    CHECK(best_r == 1);
    /* Thm 2.6 with R = 1, p = 4: sqrt(23/22 e 2 / 10); unbounded form sqrt(23/22 e 2 * 4) / 10 */
    double l1 = 0;
    CHECK_OK(km_bound_l1_complexity(10, 4, 1.0, &l1));
    CHECK_NEAR(l1, 0.753902, 1e-6);
    CHECK_OK(km_bound_l1_complexity_traces(10, 4, u, &l1));
    CHECK_NEAR(l1, sqrt(23.0 / 22.0 * exp(1.0) * 2 * 4) / 10, 1e-12);
}

static void test_margin_bounds(void)
{
    /* §2.2's setting: m = 36,000, rho = 0.2 (R = 1), delta = 0.01; q = 1 uses Thm 2.6 with
     * ceil(ln 200) = 6, ceil(ln 800) = 7; confidence 3 sqrt(ln 200 / 72000) */
    const size_t m = 36000;
    const double rho = 0.2, delta = 0.01;
    const size_t ps[] = {200, 800};
    const double l1_complexity[] = {0.217633, 0.235070}, l1_total[] = {0.243368, 0.260805};
    const double l2_total[] = {0.312333, 0.431046}, sbd[] = {14.406479, 14.560209};
    for (int k = 0; k < 2; k++) {
        double rad = 0, value = 0;
        km_margin_bound b;
        CHECK_OK(km_bound_l1_complexity(m, ps[k], 1.0, &rad));
        CHECK_OK(km_bound_margin(m, rho, delta, rad, 0, &b));
        CHECK_NEAR(b.complexity, l1_complexity[k], 1e-6);
        CHECK_NEAR(b.confidence, 0.025735, 1e-6);
        CHECK_NEAR(b.value, l1_total[k], 1e-6);
        CHECK_OK(km_bound_lq_complexity(m, ps[k], 2, 1.0, &rad));
        CHECK_OK(km_bound_margin(m, rho, delta, rad, 0, &b));
        CHECK_NEAR(b.value, l2_total[k], 1e-6);
        CHECK_OK(km_bound_srebro_ben_david(m, ps[k], 1.0, rho, 0, &value));
        CHECK_NEAR(value, sbd[k], 1e-6);
        /* ln(1/delta) inside the bracket changes only the sixth digit */
        double with_delta = 0;
        CHECK_OK(km_bound_srebro_ben_david(m, ps[k], 1.0, rho, delta, &with_delta));
        CHECK(with_delta > value && with_delta - value < 1e-4);
    }
    /* Srebro-Ben-David is still above 1 at m = 1.5e7 (the thesis' Fig. 2.1) */
    double value = 0;
    CHECK_OK(km_bound_srebro_ben_david(15000000, 10, 1.0, rho, 0, &value));
    CHECK_NEAR(value, 1.077827, 1e-6);
    /* m = 1e6, p = 10: q = 1 / q = 2 / Srebro-Ben-David */
    double rad = 0;
    km_margin_bound b;
    CHECK_OK(km_bound_l1_complexity(1000000, 10, 1.0, &rad));
    CHECK_OK(km_bound_margin(1000000, rho, delta, rad, 0, &b));
    CHECK_NEAR(b.value, 0.034081, 1e-6);
    CHECK_OK(km_bound_lq_complexity(1000000, 10, 2, 1.0, &rad));
    CHECK_OK(km_bound_margin(1000000, rho, delta, rad, 0, &b));
    CHECK_NEAR(b.value, 0.030597, 1e-6);
    CHECK_OK(km_bound_srebro_ben_david(1000000, 10, 1.0, rho, 0, &value));
    CHECK_NEAR(value, 3.531601, 1e-6);
    /* the empirical margin loss: y h / rho = 2, 0.5, -1, 0 -> losses 0, 0.5, 1, 1 */
    const double y[] = {1, -1, 1, 1}, h[] = {0.4, -0.1, -0.2, 0};
    double loss = 0;
    CHECK_OK(km_bound_margin_loss(4, y, h, 0.2, &loss));
    CHECK_NEAR(loss, 2.5 / 4, 1e-15);
    CHECK_OK(km_bound_margin(100, 0.2, 0.05, 0.01, loss, &b));
    CHECK_NEAR(b.value, loss + 0.1 + 3 * sqrt(log(40.0) / 200), 1e-15);
}

static void test_other_bounds(void)
{
    /* Thm 2.9, r = 4, m = 1000: sqrt(23/22 * 4 / 2000); Kakade et al. sqrt(3 / 1000) */
    double value = 0, kakade = 0;
    CHECK_OK(km_bound_linear(1000, 4, 1, 1, &value, &kakade));
    CHECK_NEAR(value, 0.045726, 1e-6);
    CHECK_NEAR(kakade, 0.054772, 1e-6);
    /* Thm 2.4 with R = M = Lambda = lambda0 = 1, p = 100, m = 1000, lambda_min = 0, delta = 0.05:
     * C0 = 2 + 4*2 = 10, C1 = 16, beta = 2 (10 + 160) / 1000 = 0.34 */
    km_stability_bound s;
    CHECK_OK(km_bound_stability(1000, 100, 1, 1, 1, 1, 0, 0.05, 1, &s));
    CHECK_NEAR(s.C0, 10, 1e-12);
    CHECK_NEAR(s.C1, 16, 1e-12);
    CHECK_NEAR(s.beta_S, 0.002, 1e-12);
    CHECK_NEAR(s.beta_K, 0.168, 1e-12);
    CHECK_NEAR(s.beta, 0.34, 1e-12);
    CHECK_NEAR(s.term, 53.353797, 1e-6);
    /* M = 2: beta = 4 (20 + 320) / 1000 = 1.36; loss bound M or M^2 */
    CHECK_OK(km_bound_stability(1000, 100, 1, 2, 1, 1, 0, 0.05, 2, &s));
    CHECK_NEAR(s.beta, 1.36, 1e-12);
    CHECK_NEAR(s.term, 213.337784, 1e-6);
    CHECK_OK(km_bound_stability(1000, 100, 1, 2, 1, 1, 0, 0.05, 4, &s));
    CHECK_NEAR(s.term, 213.415188, 1e-6);
    /* Prop 2.6 and Thm 2.10 (beta = 2), R = 1, m = 1000, delta = 0.05 */
    CHECK_OK(km_bound_alignment_eta(1000, 1, 0.05, &value));
    CHECK_NEAR(value, 1.048727, 1e-6);
    CHECK_OK(km_bound_alignment_rho(1000, 2, 0.05, &value));
    CHECK_NEAR(value, 7.153333, 1e-6);
    /* Thm 2.11-2.13 */
    double t211 = 0, t212 = 0, t213 = 0;
    CHECK_OK(km_bound_good_predictor(0.5, 1, 2, 0.25, 1, &t211, &t212, &t213));
    CHECK_NEAR(t211, 0.75, 1e-15);
    CHECK_NEAR(t212, 1.0, 1e-15);
    CHECK_NEAR(t213, 0.75, 1e-15);
}

static void test_invalid_arguments(void)
{
    const double u[] = {1, -1};
    double value = 0, kakade = 0;
    km_margin_bound b;
    km_stability_bound s;
    CHECK_STATUS(km_bound_rademacher(0, 1, u, 1, &value), KM_EINVAL);
    CHECK_STATUS(km_bound_rademacher(10, 2, u, 1, &value), KM_EINVAL);
    CHECK_STATUS(km_bound_rademacher(10, 1, u, 0, &value), KM_EINVAL);
    CHECK_STATUS(km_bound_l1_complexity(10, 0, 1, &value), KM_EINVAL);
    CHECK_STATUS(km_bound_lq_complexity(10, 2, 2, -1, &value), KM_EINVAL);
    CHECK_STATUS(km_bound_margin(10, 0, 0.05, 0.1, 0, &b), KM_EINVAL);
    CHECK_STATUS(km_bound_margin(10, 0.1, 1, 0.1, 0, &b), KM_EINVAL);
    CHECK_STATUS(km_bound_margin(10, 0.1, 0.05, NAN, 0, &b), KM_EINVAL);
    CHECK_STATUS(km_bound_srebro_ben_david(2, 10, 1, 0.2, 0, &value), KM_EINVAL);
    CHECK_STATUS(km_bound_linear(100, 3, 1, 1, &value, &kakade), KM_EINVAL);
    CHECK_STATUS(km_bound_stability(100, 2, 1, 1, 1, 1, -1, 0.05, 1, &s), KM_EINVAL);
    CHECK_STATUS(km_bound_alignment_rho(100, 0, 0.05, &value), KM_EINVAL);
    double a, c, d;
    CHECK_STATUS(km_bound_good_predictor(0.5, 1, 0.5, 0.1, 1, &a, &c, &d), KM_EINVAL);
    CHECK(strlen(km_last_error()) > 0);
}

enum { SMALL_M = 10, SMALL_P = 3 };

/* random PSD kernels K_k = G_k G_k' (G_k: m x 3 uniform in [-1, 1]) */
static void random_kernels(double K[SMALL_P][SMALL_M * SMALL_M], double traces[SMALL_P])
{
    km_rng rng;
    km_rng_seed(&rng, 12);
    for (int k = 0; k < SMALL_P; k++) {
        double G[SMALL_M][3];
        for (int i = 0; i < SMALL_M; i++)
            for (int j = 0; j < 3; j++)
                G[i][j] = 2 * km_rng_uniform(&rng) - 1;
        traces[k] = 0;
        for (int i = 0; i < SMALL_M; i++)
            for (int j = 0; j < SMALL_M; j++) {
                double dot = 0;
                for (int c = 0; c < 3; c++)
                    dot += G[i][c] * G[j][c];
                K[k][i * SMALL_M + j] = dot;
            }
        for (int i = 0; i < SMALL_M; i++)
            traces[k] += K[k][i * SMALL_M + i];
    }
}

static double quadratic_form(const double *K, const double *sigma)
{
    double sum = 0;
    for (int i = 0; i < SMALL_M; i++)
        for (int j = 0; j < SMALL_M; j++)
            sum += sigma[i] * K[i * SMALL_M + j] * sigma[j];
    return sum;
}

static void test_enumeration(void)
{
    static double K[SMALL_P][SMALL_M * SMALL_M];
    double traces[SMALL_P];
    random_kernels(K, traces);
    enum { R_MAX = 4 };
    double exact[R_MAX + 1] = {0}, exact_inf = 0, moment[SMALL_P][R_MAX + 1] = {{0}};
    const double count = (double)(1u << SMALL_M);
    for (unsigned bits = 0; bits < (1u << SMALL_M); bits++) {
        double sigma[SMALL_M], u[SMALL_P], top = 0;
        for (int i = 0; i < SMALL_M; i++)
            sigma[i] = (bits >> i) & 1 ? 1.0 : -1.0;
        for (int k = 0; k < SMALL_P; k++) {
            u[k] = quadratic_form(K[k], sigma);
            top = u[k] > top ? u[k] : top;
            for (int r = 1; r <= R_MAX; r++)
                moment[k][r] += pow(u[k], r) / count;
        }
        for (int r = 1; r <= R_MAX; r++) {
            double norm = 0;
            for (int k = 0; k < SMALL_P; k++)
                norm += pow(u[k], r);
            exact[r] += sqrt(pow(norm, 1.0 / r)) / SMALL_M / count;
        }
        exact_inf += sqrt(top) / SMALL_M / count;
    }
    for (int r = 1; r <= R_MAX; r++) {
        double bound = 0;
        CHECK_OK(km_bound_rademacher(SMALL_M, SMALL_P, traces, r, &bound));
        CHECK(bound >= exact[r]);
        /* not vacuous: within a small factor of the exact value */
        CHECK(bound < 4 * exact[r]);
        for (int k = 0; k < SMALL_P; k++)
            CHECK(moment[k][r] <= pow(KM_BOUND_ETA0 * r * traces[k], r));
    }
    double best = 0;
    CHECK_OK(km_bound_rademacher_l1(SMALL_M, SMALL_P, traces, &best, NULL));
    CHECK(best >= exact_inf);
}

KM_TEST_CASE(rademacher_traces) { test_rademacher_traces(); }
KM_TEST_CASE(margin_bounds) { test_margin_bounds(); }
KM_TEST_CASE(other_bounds) { test_other_bounds(); }
KM_TEST_CASE(invalid_arguments) { test_invalid_arguments(); }
KM_TEST_CASE(enumeration) { test_enumeration(); }
