/* Platt scaling and pairwise coupling (svm/platt.h, svm/pairwise_coupling.h), and the C library's
 * rand() sequence the probability folds are drawn from (core/libc_rand.h): the sigmoid fit against
 * scipy.optimize minimising the same regularised cross-entropy, the coupling against a direct solve
 * of its optimality system, the generator against rand() itself. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "core/libc_rand.h"
#include "core/rng.h"
#include "svm/pairwise_coupling.h"
#include "svm/platt.h"

#define PYTHON "/usr/bin/python3"

/* Overlapping decision values: positives N(0.8, 1), negatives N(-0.6, 1.2), every third row negative. */
static void decision_values(uint64_t seed, size_t n, double *f, unsigned char *positive)
{
    km_rng rng;
    km_rng_seed(&rng, seed);
    for (size_t i = 0; i < n; i++) {
        positive[i] = i % 3 != 1;
        f[i] = positive[i] ? 0.8 + km_rng_normal(&rng) : -0.6 + 1.2 * km_rng_normal(&rng);
    }
}

/* A and B minimising sum_i t_i z_i + log(1 + e^{-z_i}), z_i = A f_i + B, with Platt's targets, found
 * by scipy.optimize.minimize (BFGS from A = B = 0) on the values written to a file; 0 on success. */
static int scipy_sigmoid(size_t n, const double *f, const unsigned char *positive, double *A, double *B)
{
    char path[] = "/tmp/km_platt_XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return -1;
    FILE *out = fdopen(fd, "w");
    for (size_t i = 0; i < n; i++)
        fprintf(out, "%.17g %d\n", f[i], positive[i] ? 1 : 0);
    fclose(out);
    char cmd[2048];
    snprintf(cmd, sizeof cmd, PYTHON " -c '\n"
             "import numpy as np, scipy.optimize as so, sys\n"
             "d = np.loadtxt(\"%s\"); f, y = d[:, 0], d[:, 1] > 0\n"
             "npos, nneg = y.sum(), (~y).sum()\n"
             "t = np.where(y, (npos + 1.0) / (npos + 2.0), 1.0 / (nneg + 2.0))\n"
             "def F(v):\n"
             "    z = v[0] * f + v[1]\n"
             "    return np.sum(t * z + np.logaddexp(0.0, -z))\n"
             "def G(v):\n"
             "    z = v[0] * f + v[1]; r = t - 1.0 / (1.0 + np.exp(z))\n"
             "    return np.array([np.sum(f * r), np.sum(r)])\n"
             "s = so.minimize(F, [0.0, 0.0], jac=G, method=\"BFGS\", options={\"gtol\": 1e-11, \"maxiter\": 10000})\n"
             "print(\"%%.17g %%.17g\" %% (s.x[0], s.x[1]))'", path);
    FILE *in = popen(cmd, "r");
    int ok = in && fscanf(in, "%lf %lf", A, B) == 2;
    int rc = in ? pclose(in) : -1;
    unlink(path);
    return ok && rc == 0 ? 0 : -1;
}

static void check_against_scipy(uint64_t seed, size_t n, double scale)
{
    if (access(PYTHON, X_OK) != 0)
        KM_TEST_SKIP(PYTHON " (Debian's python3 with scipy) is not installed");
    double *f = malloc(n * sizeof *f);
    unsigned char *positive = malloc(n);
    decision_values(seed, n, f, positive);
    for (size_t i = 0; i < n; i++)
        f[i] *= scale;
    double A, B, sA, sB;
    CHECK(km_sigmoid_fit(n, f, positive, &A, &B) == KM_SIGMOID_CONVERGED);
    CHECK(scipy_sigmoid(n, f, positive, &sA, &sB) == 0);
    /* the Newton method stops at gradient components below 1e-5: A and B agree to about that over the
     * Hessian, and the objective to far less */
    CHECK_NEAR(A, sA, 1e-5);
    CHECK_NEAR(B, sB, 1e-5);
    double value = km_sigmoid_objective(n, f, positive, A, B), best = km_sigmoid_objective(n, f, positive, sA, sB);
    CHECK(value <= best + 1e-9 * fabs(best));
    CHECK(A < 0);   /* larger decision values, more probably positive */
    free(f);
    free(positive);
}

KM_TEST_CASE(sigmoid_fit_matches_scipy)
{
    check_against_scipy(11, 300, 1.0);
}

/* Wide decision values (|f| up to ~40): A f + B reaches the range where exp overflows without the
 * stable form of the objective */
KM_TEST_CASE(sigmoid_fit_matches_scipy_wide_values)
{
    check_against_scipy(12, 500, 10.0);
}

/* Separable values: without Platt's targets A would run to -infinity; with them it stays finite and
 * the probabilities stay within (0, 1). */
KM_TEST_CASE(sigmoid_fit_separable_stays_finite)
{
    enum { N = 40 };
    double f[N], A, B;
    unsigned char positive[N];
    for (size_t i = 0; i < N; i++) {
        positive[i] = i % 2;
        f[i] = positive[i] ? 1.0 + (double)i / N : -1.0 - (double)i / N;
    }
    km_sigmoid_outcome outcome = km_sigmoid_fit(N, f, positive, &A, &B);
    CHECK(outcome == KM_SIGMOID_CONVERGED);
    CHECK(isfinite(A) && isfinite(B) && A < 0);
    /* stationarity with targets (N+ + 1)/(N+ + 2) and 1/(N- + 2): sum_i (t_i - p_i) = 0 */
    double t_pos, t_neg, g = 0.0;
    km_sigmoid_targets(N / 2, N / 2, &t_pos, &t_neg);
    for (size_t i = 0; i < N; i++)
        g += (positive[i] ? t_pos : t_neg) - km_sigmoid_probability(f[i], A, B);
    CHECK(fabs(g) < 1e-5);
}

KM_TEST_CASE(sigmoid_probability_without_overflow)
{
    /* P(f; A, B) + P(f; -A, -B) = 1 exactly in the stable form, also where e^z overflows */
    const double z[] = {-800.0, -30.0, -1.0, 0.0, 1e-300, 0.5, 30.0, 800.0};
    for (size_t k = 0; k < sizeof z / sizeof z[0]; k++) {
        double p = km_sigmoid_probability(1.0, z[k], 0.0), q = km_sigmoid_probability(1.0, -z[k], 0.0);
        CHECK(p >= 0.0 && p <= 1.0 && q >= 0.0 && q <= 1.0);
        CHECK_NEAR(p + q, 1.0, 1e-15);
        CHECK_NEAR(p, 1.0 / (1.0 + exp(z[k])), 1e-15);
    }
    CHECK(km_sigmoid_probability(1.0, 800.0, 0.0) == 0.0);
    CHECK(km_sigmoid_probability(1.0, -800.0, 0.0) == 1.0);
}

/* The coupling's optimum solves [Q e; e' 0] [p; -b] = [0; 1] (Wu, Lin & Weng 2004, eq. 21), here by
 * Gaussian elimination with partial pivoting. */
static void solve_coupling_system(size_t k, const double *r, double *p)
{
    size_t n = k + 1;
    double *a = calloc(n * (n + 1), sizeof *a);
    for (size_t t = 0; t < k; t++) {
        for (size_t j = 0; j < k; j++)
            if (j != t) {
                a[t * (n + 1) + t] += r[j * k + t] * r[j * k + t];
                a[t * (n + 1) + j] = -r[j * k + t] * r[t * k + j];
            }
        a[t * (n + 1) + k] = 1.0;
        a[k * (n + 1) + t] = 1.0;
    }
    a[k * (n + 1) + n] = 1.0;
    for (size_t c = 0; c < n; c++) {
        size_t pivot = c;
        for (size_t i = c + 1; i < n; i++)
            if (fabs(a[i * (n + 1) + c]) > fabs(a[pivot * (n + 1) + c]))
                pivot = i;
        for (size_t j = 0; j <= n; j++) {
            double swap = a[c * (n + 1) + j];
            a[c * (n + 1) + j] = a[pivot * (n + 1) + j];
            a[pivot * (n + 1) + j] = swap;
        }
        for (size_t i = 0; i < n; i++) {
            if (i == c)
                continue;
            double factor = a[i * (n + 1) + c] / a[c * (n + 1) + c];
            for (size_t j = c; j <= n; j++)
                a[i * (n + 1) + j] -= factor * a[c * (n + 1) + j];
        }
    }
    for (size_t t = 0; t < k; t++)
        p[t] = a[t * (n + 1) + n] / a[t * (n + 1) + t];
    free(a);
}

static void check_coupling(size_t k, uint64_t seed)
{
    km_rng rng;
    km_rng_seed(&rng, seed);
    double *r = calloc(k * k, sizeof *r), *p = malloc(k * sizeof *p), *exact = malloc(k * sizeof *exact);
    double *work = malloc(k * (k + 1) * sizeof *work);
    for (size_t i = 0; i < k; i++)
        for (size_t j = i + 1; j < k; j++) {
            r[i * k + j] = 0.05 + 0.9 * km_rng_uniform(&rng);
            r[j * k + i] = 1.0 - r[i * k + j];
        }
    CHECK(km_pairwise_coupling(k, r, p, work) == 1);
    solve_coupling_system(k, r, exact);
    double sum = 0.0;
    for (size_t t = 0; t < k; t++) {
        sum += p[t];
        CHECK(p[t] >= 0.0 && p[t] <= 1.0);
        /* the iteration stops at max_t |(Qp)_t - p'Qp| < 0.005/k */
        CHECK_NEAR(p[t], exact[t], 2e-3);
    }
    CHECK_NEAR(sum, 1.0, 1e-12);
    free(r);
    free(p);
    free(exact);
    free(work);
}

KM_TEST_CASE(pairwise_coupling_solves_its_system)
{
    check_coupling(3, 1);
    check_coupling(4, 2);
    check_coupling(7, 3);
    check_coupling(12, 4);
}

/* Pairwise probabilities consistent with a distribution, r_ij = p_i / (p_i + p_j), make it the exact
 * optimum (the direct solve gives it back to rounding); the iteration reaches it within its stopping
 * tolerance. */
KM_TEST_CASE(pairwise_coupling_recovers_consistent_probabilities)
{
    enum { K = 5 };
    const double truth[K] = {0.4, 0.25, 0.2, 0.1, 0.05};
    double r[K * K] = {0}, p[K], exact[K], work[K * (K + 1)];
    for (size_t i = 0; i < K; i++)
        for (size_t j = 0; j < K; j++)
            if (i != j)
                r[i * K + j] = truth[i] / (truth[i] + truth[j]);
    CHECK(km_pairwise_coupling(K, r, p, work) == 1);
    solve_coupling_system(K, r, exact);
    for (size_t t = 0; t < K; t++) {
        CHECK_NEAR(exact[t], truth[t], 1e-12);
        CHECK_NEAR(p[t], truth[t], 1e-3);
    }
}

/* The fold shuffle's numbers are those of the C library's rand() after srand(seed). */
KM_TEST_CASE(libc_rand_is_rand)
{
    const unsigned seeds[] = {0u, 1u, 2u, 12345u, 2147483647u, 2147483648u, 4294967295u};
    for (size_t s = 0; s < sizeof seeds / sizeof seeds[0]; s++) {
        km_libc_rand ours;
        km_libc_rand_seed(&ours, seeds[s]);
        srand(seeds[s]);
        int same = 1;
        for (int i = 0; i < 20000; i++)
            same &= (uint32_t)rand() == km_libc_rand_next(&ours);
        CHECK(same);
    }
}
