/* Convex localized MKL (Lei, Binder, Dogan & Kloft; docs/clmkl.md) against independent computations:
 *  - kernel k-means with a linear clustering kernel equals Lloyd's k-means in the input space from
 *    the same seeds, recovers three separated regions, and is deterministic under its seed;
 *  - memberships: rows sum to 1, AE(0) = 1, AE decreasing, the bisection meets its target, large tau
 *    approaches the hard memberships;
 *  - the per-cluster step (Eq. 7) attains the Micchelli-Pontil minimum of sum_m |w_m|^2 / beta_m over
 *    ||beta||_p <= 1 (Lemma A.2), which no sampled feasible beta undercuts;
 *  - one cluster is lp-norm MKL; tau = 0 is lp-norm MKL with C/l and beta_j = theta for every j;
 *  - scaling the learned kernels by s equals scaling C by s;
 *  - one kernel: beta = 1 and the SVM on sum_j c_j(x) c_j(x') k(x, x'); duplicated kernels get
 *    2^(-1/p) each, and with one cluster equal the SVM on K_1 with C 2^((p-1)/p);
 *  - hard memberships: the localized kernel is exactly 0 between clusters; without bias the model is
 *    one bias-free lp-norm MKL per cluster (weights to 1e-8, decision values to 1e-6);
 *  - the SVM on the localized kernel at fixed weights has svm-train's objective; warm = cold start;
 *  - with the SVM tolerance fixed, P^ falls at every outer iteration, P^ >= D, ||beta_j||_p = 1;
 *  - km_model_params of a reloaded model gives back its clustering parameters;
 *  - the optimal value equals the maximum of the dual (Problem 2) found by projected-gradient ascent;
 *  - the decision function of §5 recomputed from kernels, memberships, beta and the support vectors,
 *    on training and new rows; save -> load -> predict is bit-identical;
 *  - epsilon-SVR on sin(x) and one-vs-rest on three Gaussian classes;
 *  - LMKL (the gated baseline): the gradient of Eq. (D.2) equals central finite differences of the
 *    SVM's optimal value J in the gating's bias and coefficients; training lowers J, and the model
 *    predicts the same after save and load. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/params.h"
#include "mkl/mkl_params.h"
#include "core/rng.h"
#include "kernelmix.h"
#include "mkl/clmkl.h"
#include "mkl/kernel_kmeans.h"
#include "mkl/lmkl.h"
#include "mkl/memberships.h"
#include "mkl/theta.h"
#include "svm/machine.h"
#include "svm/smo.h"
#include "train/model.h"

/* ---- data ------------------------------------------------------------------------------------- */

/* The localized-relevance layout of docs/clmkl.md, small: z in R^2 around three centres (columns 1-2),
 * three groups of two features (3-4, 5-6, 7-8); group r decides the label in region r. */
enum { D = 8 };
static const double CENTRE[3][2] = {{0, 0}, {6, 0}, {3, 5.196152422706632}};

static km_dataset *localized_data(size_t n, uint64_t seed, double *x, double *y, int *region)
{
    km_rng rng;
    km_rng_seed(&rng, seed);
    for (size_t i = 0; i < n; i++) {
        int r = (int)km_rng_below(&rng, 3);
        double *row = x + i * D;
        row[0] = CENTRE[r][0] + km_rng_normal(&rng);
        row[1] = CENTRE[r][1] + km_rng_normal(&rng);
        for (size_t k = 2; k < D; k++)
            row[k] = km_rng_normal(&rng);
        y[i] = row[2 + 2 * r] + row[3 + 2 * r] >= 0 ? 1.0 : -1.0;
        if (region)
            region[i] = r;
    }
    km_dataset *data = NULL;
    CHECK_OK(km_dataset_from_dense(n, D, x, y, &data));
    return data;
}

/* The kernels of the specs (a NULL-terminated list) on rows of D features. */
static km_kernel_set *kernel_set(const char *spec, ...)
{
    km_kernel_set *set = NULL;
    CHECK_OK(km_kernel_set_new(&set));
    CHECK_OK(km_kernel_set_set_dimension(set, D));
    va_list specs;
    va_start(specs, spec);
    for (; spec; spec = va_arg(specs, const char *))
        CHECK_OK(km_kernel_set_add_spec(set, spec));
    va_end(specs);
    return set;
}

#define GROUP_1 "linear:features=3-4"
#define GROUP_2 "linear:features=5-6"
#define GROUP_3 "linear:features=7-8"
#define LOCATION "linear:features=1-2"

/* Linear kernels on the three groups (multiplicatively normalized), then the clustering-only linear
 * kernel on z (kernel 4) when with_z. */
static km_kernel_set *group_kernels(int with_z)
{
    return kernel_set(GROUP_1 ":norm=mult", GROUP_2 ":norm=mult", GROUP_3 ":norm=mult", with_z ? LOCATION : NULL,
                      NULL);
}

static km_params clmkl_params(double p, long clusters, double tau)
{
    km_params params = km_params_default();
    params.C = 1.0;
    params.tolerance = 1e-9;
    km_params_store(&params, KM_PARAM_MKL_METHOD, KM_MKL_CLMKL);
    km_params_store(&params, KM_PARAM_P, p);
    km_params_store(&params, KM_PARAM_MKL_GAP, 1e-8);
    km_params_store(&params, KM_PARAM_MKL_MAX_OUTER, 5000);
    km_params_store(&params, KM_PARAM_CLUSTERS, clusters);
    km_params_store(&params, KM_PARAM_CLUSTER_TAU, tau);
    km_params_store(&params, KM_PARAM_CLUSTER_KERNEL, 4);
    km_params_store(&params, KM_PARAM_CLUSTER_ONLY, 1);
    return params;
}

static double norm_p(const double *v, size_t M, double p)
{
    double s = 0;
    for (size_t m = 0; m < M; m++)
        s += pow(v[m], p);
    return pow(s, 1.0 / p);
}

/* ---- kernel k-means --------------------------------------------------------------------------- */

static void linear_gram(const double *x, size_t n, size_t d, double *K)
{
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < n; k++) {
            double s = 0;
            for (size_t f = 0; f < d; f++)
                s += x[i * d + f] * x[k * d + f];
            K[i * n + k] = s;
        }
}

/* Lloyd's k-means in R^d from the seed rows as first centres (ties to the smallest cluster). */
static double lloyd(const double *x, size_t n, size_t d, size_t l, const size_t *seeds, size_t *labels)
{
    double centre[8 * 8];
    for (size_t j = 0; j < l; j++)
        memcpy(centre + j * d, x + seeds[j] * d, d * sizeof *x);
    double error = 0;
    for (int sweep = 0; sweep <= KM_KMEANS_MAX_SWEEPS; sweep++) {
        int changed = 0;
        error = 0;
        for (size_t i = 0; i < n; i++) {
            size_t best = 0;
            double best_d = INFINITY;
            for (size_t j = 0; j < l; j++) {
                double s = 0;
                for (size_t f = 0; f < d; f++)
                    s += (x[i * d + f] - centre[j * d + f]) * (x[i * d + f] - centre[j * d + f]);
                if (s < best_d) {
                    best_d = s;
                    best = j;
                }
            }
            changed |= sweep == 0 || labels[i] != best;
            labels[i] = best;
            error += best_d;
        }
        if (!changed)
            break;
        for (size_t j = 0; j < l; j++) {
            double count = 0, sum[8] = {0};
            for (size_t i = 0; i < n; i++)
                if (labels[i] == j) {
                    count++;
                    for (size_t f = 0; f < d; f++)
                        sum[f] += x[i * d + f];
                }
            for (size_t f = 0; f < d; f++)
                centre[j * d + f] = sum[f] / count;
        }
    }
    return error;
}

KM_TEST_CASE(kmeans_equals_lloyd)
{
    enum { n = 90, l = 4 };
    double x[n * 2], K[n * n];
    km_rng rng;
    km_rng_seed(&rng, 7);
    for (size_t i = 0; i < n * 2; i++)
        x[i] = 3.0 * km_rng_normal(&rng);
    linear_gram(x, n, 2, K);
    const size_t seeds[l] = {3, 17, 40, 71};
    size_t kernel_labels[n], lloyd_labels[n];
    double kernel_error;
    CHECK_OK(km_kernel_kmeans_from_seeds(K, n, l, seeds, NULL, kernel_labels, &kernel_error, NULL));
    double lloyd_error = lloyd(x, n, 2, l, seeds, lloyd_labels);
    for (size_t i = 0; i < n; i++)
        CHECK(kernel_labels[i] == lloyd_labels[i]);
    CHECK_NEAR(kernel_error, lloyd_error, 1e-9);
}

static int always(void *ctx)
{
    (void)ctx;
    return 1;
}

/* An interrupt stops kernel k-means with KM_EINTERRUPTED; a deadline already past keeps the partition
 * before the first sweep (every row at its nearest seed, in the input space for a linear kernel) with
 * its clustering error (the squared distances to the cluster means), and reports that it timed out. */
KM_TEST_CASE(kmeans_limits)
{
    enum { n = 60, l = 3 };
    double x[n * 2], K[n * n];
    km_rng rng;
    km_rng_seed(&rng, 3);
    for (size_t i = 0; i < n * 2; i++)
        x[i] = km_rng_normal(&rng);
    linear_gram(x, n, 2, K);
    const size_t seeds[l] = {5, 20, 44};
    size_t labels[n];
    double error = 0;
    int timed_out = 0;
    km_kmeans_limits stop = {.interrupted = always};
    CHECK_STATUS(km_kernel_kmeans_from_seeds(K, n, l, seeds, &stop, labels, &error, &timed_out), KM_EINTERRUPTED);
    CHECK_STATUS(km_kernel_kmeans(K, n, l, 5, 1, &stop, labels, &error, &timed_out), KM_EINTERRUPTED);
    CHECK(!timed_out);
    km_kmeans_limits past = {.deadline = 1e-300};
    CHECK_OK(km_kernel_kmeans_from_seeds(K, n, l, seeds, &past, labels, &error, &timed_out));
    CHECK(timed_out);
    double mean[l][2] = {{0}}, count[l] = {0}, expected_error = 0;
    for (size_t i = 0; i < n; i++) {
        size_t best = 0;
        double best_d = INFINITY;
        for (size_t j = 0; j < l; j++) {
            double dx = x[2 * i] - x[2 * seeds[j]], dy = x[2 * i + 1] - x[2 * seeds[j] + 1];
            if (dx * dx + dy * dy < best_d) {
                best_d = dx * dx + dy * dy;
                best = j;
            }
        }
        CHECK(labels[i] == best);
        mean[best][0] += x[2 * i];
        mean[best][1] += x[2 * i + 1];
        count[best]++;
    }
    for (size_t i = 0; i < n; i++) {
        double dx = x[2 * i] - mean[labels[i]][0] / count[labels[i]];
        double dy = x[2 * i + 1] - mean[labels[i]][1] / count[labels[i]];
        expected_error += dx * dx + dy * dy;
    }
    CHECK_NEAR(error, expected_error, 1e-9);
    timed_out = 0;
    CHECK_OK(km_kernel_kmeans(K, n, l, 5, 1, &past, labels, &error, &timed_out));
    CHECK(timed_out);
}

KM_TEST_CASE(kmeans_recovers_regions)
{
    enum { n = 300 };
    double x[n * D], y[n], K[n * n], z[n * 2];
    int region[n];
    km_dataset_free(localized_data(n, 11, x, y, region));
    for (size_t i = 0; i < n; i++) {
        z[2 * i] = x[i * D];
        z[2 * i + 1] = x[i * D + 1];
    }
    linear_gram(z, n, 2, K);
    size_t labels[n], again[n];
    double error, error_again;
    CHECK_OK(km_kernel_kmeans(K, n, 3, 10, 5, NULL, labels, &error, NULL));
    CHECK_OK(km_kernel_kmeans(K, n, 3, 10, 5, NULL, again, &error_again, NULL));
    CHECK(!memcmp(labels, again, sizeof labels) && error == error_again);
    /* purity: each cluster's majority region */
    size_t count[3][3] = {{0}}, pure = 0;
    for (size_t i = 0; i < n; i++)
        count[labels[i]][region[i]]++;
    for (size_t j = 0; j < 3; j++) {
        size_t top = 0;
        for (size_t r = 0; r < 3; r++)
            top = count[j][r] > top ? count[j][r] : top;
        pure += top;
    }
    CHECK((double)pure / n >= 0.99);
    /* fewer distinct points than clusters */
    double same[4 * 4] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    CHECK_STATUS(km_kernel_kmeans(same, 4, 2, 3, 1, NULL, labels, &error, NULL), KM_EINVAL);
}

/* ---- memberships ------------------------------------------------------------------------------ */

KM_TEST_CASE(memberships_invariants)
{
    enum { n = 50, l = 3 };
    double delta[n * l], c[n * l];
    km_rng rng;
    km_rng_seed(&rng, 3);
    for (size_t i = 0; i < n * l; i++)
        delta[i] = 5.0 * km_rng_uniform(&rng);
    km_membership_gaps(n, l, delta);
    CHECK_NEAR(km_average_evenness(n, l, delta, 0), 1.0, 1e-15);
    double previous = 1.0;
    for (double tau = 0.01; tau < 100; tau *= 1.5) {
        double ae = km_average_evenness(n, l, delta, tau);
        CHECK(ae < previous);
        previous = ae;
        km_memberships(n, l, delta, tau, c);
        for (size_t i = 0; i < n; i++)
            CHECK_NEAR(c[i * l] + c[i * l + 1] + c[i * l + 2], 1.0, 1e-14);
    }
    for (double target = 0.35; target < 1; target += 0.1) {
        double tau;
        CHECK_OK(km_tau_for_evenness(n, l, delta, target, &tau));
        CHECK_NEAR(km_average_evenness(n, l, delta, tau), target, 1e-8);
    }
    double tau, hard[n * l];
    CHECK_OK(km_tau_for_evenness(n, l, delta, 1.0 / l, &tau));
    CHECK(isinf(tau));
    km_memberships(n, l, delta, INFINITY, hard);
    km_memberships(n, l, delta, 1e4, c);
    for (size_t i = 0; i < n * l; i++)
        CHECK(hard[i] == (delta[i] == 0.0) && fabs(c[i] - hard[i]) < 1e-6);
    CHECK_STATUS(km_tau_for_evenness(n, l, delta, 0.0, &tau), KM_EINVAL);
}

/* ---- Eq. (7) ---------------------------------------------------------------------------------- */

KM_TEST_CASE(beta_step_attains_lemma_minimum)
{
    enum { M = 5 };
    const double ps[] = {1.0, 4.0 / 3.0, 2.0, 3.0};
    km_rng rng;
    km_rng_seed(&rng, 19);
    for (size_t k = 0; k < sizeof ps / sizeof *ps; k++) {
        double p = ps[k], p_block = 2 * p / (p + 1), Q[M], beta[M], s[M];
        km_theta_init(M, p_block, beta);
        for (size_t m = 0; m < M; m++) {
            Q[m] = km_rng_uniform(&rng) * (m + 1);
            s[m] = beta[m] * beta[m] * Q[m]; /* |w_m|^2 at the current beta */
        }
        CHECK(km_theta_lp_step(M, p_block, Q, beta));
        CHECK_NEAR(norm_p(beta, M, p), 1.0, 1e-12);
        /* Lemma A.2: min over ||beta||_p <= 1 of sum s_m / beta_m = (sum s_m^{p/(p+1)})^{(p+1)/p} */
        double value = 0, lemma = 0;
        for (size_t m = 0; m < M; m++) {
            value += s[m] / beta[m];
            lemma += pow(s[m], p / (p + 1));
        }
        lemma = pow(lemma, (p + 1) / p);
        CHECK_NEAR(value, lemma, 1e-10);
        for (int trial = 0; trial < 2000; trial++) {
            double b[M], other = 0;
            for (size_t m = 0; m < M; m++)
                b[m] = km_rng_uniform(&rng) + 1e-3;
            double scale = norm_p(b, M, p);
            for (size_t m = 0; m < M; m++)
                other += s[m] / (b[m] / scale);
            CHECK(other >= value * (1 - 1e-12));
        }
    }
}

/* ---- training equivalences -------------------------------------------------------------------- */

typedef struct fit {
    km_model *model;
    km_machine_info info;
    double decision[200];
} fit;

static fit train_and_predict(km_dataset *data, km_kernel_set *set, const km_params *params, km_dataset *test)
{
    fit f = {.info = KM_MACHINE_INFO_INIT};
    CHECK_OK(km_train(data, set, params, &f.model));
    if (f.model) {
        CHECK_OK(km_model_machine_info(f.model, 0, &f.info));
        CHECK_OK(km_predict(f.model, test, NULL, NULL, f.decision));
    }
    return f;
}

KM_TEST_CASE(one_cluster_is_lp_mkl)
{
    enum { n = 60, nt = 40 };
    double x[n * D], y[n], xt[nt * D], yt[nt];
    km_dataset *data = localized_data(n, 1, x, y, NULL), *test = localized_data(nt, 2, xt, yt, NULL);
    km_kernel_set *set = group_kernels(0);
    const double ps[] = {1.0, 4.0 / 3.0, 2.0};
    for (size_t k = 0; k < 3; k++) {
        km_params params = clmkl_params(ps[k], 1, -1);
        km_params_store(&params, KM_PARAM_CLUSTER_KERNEL, 0);
        km_params_store(&params, KM_PARAM_CLUSTER_ONLY, 0);
        fit local = train_and_predict(data, set, &params, test);
        km_params_store(&params, KM_PARAM_MKL_METHOD, KM_MKL_LP);
        km_params_store(&params, KM_PARAM_MKL_SOLVER, KM_MKL_WRAPPER);
        fit global = train_and_predict(data, set, &params, test);
        const double *beta = km_model_kernel_weights(local.model, 0), *theta = km_model_kernel_weights(global.model, 0);
        CHECK(km_model_weight_groups(local.model) == 1);
        /* both certified to a relative gap of 1e-8: the optimal values agree to it; weights and decisions
         * to its square root (the objective is quadratic around the optimum) */
        for (size_t m = 0; m < 3; m++)
            CHECK_NEAR(beta[m], theta[m], 1e-3);
        CHECK_NEAR(local.info.primal, global.info.primal, 2e-8);
        for (size_t t = 0; t < nt; t++)
            CHECK_NEAR(local.decision[t], global.decision[t], 1e-3);
        km_model_free(local.model);
        km_model_free(global.model);
    }
    km_kernel_set_free(set);
    km_dataset_free(data);
    km_dataset_free(test);
}

/* tau = 0: c = 1/l everywhere, D_CLMKL(a; C) = l D_MKL(a/l; C/l): the same decisions as lp-MKL with
 * C/l, beta_j = theta for every cluster, P_CLMKL = l P_MKL. */
KM_TEST_CASE(tau_zero_is_lp_mkl_with_C_over_l)
{
    enum { n = 60, nt = 40, l = 3 };
    double x[n * D], y[n], xt[nt * D], yt[nt];
    km_dataset *data = localized_data(n, 3, x, y, NULL), *test = localized_data(nt, 4, xt, yt, NULL);
    km_kernel_set *set = group_kernels(1);
    km_params params = clmkl_params(4.0 / 3.0, l, 0.0);
    params.C = 3.0;
    fit local = train_and_predict(data, set, &params, test);
    km_kernel_set *plain = group_kernels(0);
    km_params_store(&params, KM_PARAM_MKL_METHOD, KM_MKL_LP);
    km_params_store(&params, KM_PARAM_MKL_SOLVER, KM_MKL_WRAPPER);
    params.C = 1.0;
    fit global = train_and_predict(data, plain, &params, test);
    const double *beta = km_model_kernel_weights(local.model, 0), *theta = km_model_kernel_weights(global.model, 0);
    for (size_t j = 0; j < l; j++) {
        for (size_t m = 0; m < 3; m++)
            CHECK_NEAR(beta[j * 4 + m], theta[m], 1e-5);
        CHECK(beta[j * 4 + 3] == 0.0); /* the clustering-only kernel */
    }
    CHECK_NEAR(local.info.primal, l * global.info.primal, 1e-7);
    for (size_t t = 0; t < nt; t++)
        CHECK_NEAR(local.decision[t], global.decision[t], 1e-5);
    km_model_free(local.model);
    km_model_free(global.model);
    km_kernel_set_free(set);
    km_kernel_set_free(plain);
    km_dataset_free(data);
    km_dataset_free(test);
}

/* The localized combination of one kernel as a precomputed matrix: sum_j c_ij c_kj K(x_i, x_k). */
static km_matrix *localized_matrix(const double *K, const double *c, size_t n, size_t l)
{
    km_matrix *out = NULL;
    CHECK_OK(km_matrix_new(n, n, &out));
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < n; k++) {
            double w = 0;
            for (size_t j = 0; j < l; j++)
                w += c[i * l + j] * c[k * l + j];
            out->data[i * n + k] = w * K[i * n + k];
        }
    return out;
}

/* M = 1: beta = 1 (Eq. 7 on one kernel), and the model is the SVM on sum_j c_j(x) c_j(x') k(x, x'). */
KM_TEST_CASE(one_kernel_is_localized_svm)
{
    enum { n = 60, l = 3 };
    double x[n * D], y[n];
    km_dataset *data = localized_data(n, 5, x, y, NULL);
    km_kernel_set *set = kernel_set("linear:features=3-8", LOCATION, NULL);
    km_params params = clmkl_params(4.0 / 3.0, l, -1);
    km_params_store(&params, KM_PARAM_CLUSTER_KERNEL, 2);
    km_model *model = NULL;
    CHECK_OK(km_train(data, set, &params, &model));
    const double *beta = km_model_kernel_weights(model, 0);
    for (size_t j = 0; j < l; j++) {
        CHECK_NEAR(beta[2 * j], 1.0, 1e-15);
        CHECK(beta[2 * j + 1] == 0.0);
    }
    size_t labels[n];
    double c[n * l], tau, K[n * n], z[n * 6];
    CHECK_OK(km_cluster(data, set, &params, labels, c, &tau));
    for (size_t i = 0; i < n; i++)
        memcpy(z + 6 * i, x + i * D + 2, 6 * sizeof *x);
    linear_gram(z, n, 6, K);
    km_matrix *Kc = localized_matrix(K, c, n, l);
    km_kernel_set *pre = NULL;
    CHECK_OK(km_kernel_set_new(&pre));
    CHECK_OK(km_kernel_set_add_matrix(pre, Kc, KM_NORM_NONE, 0));
    km_params svm = km_params_default();
    svm.tolerance = 1e-9;
    km_model *plain = NULL;
    CHECK_OK(km_train(data, pre, &svm, &plain));
    km_machine_info a = KM_MACHINE_INFO_INIT, b = KM_MACHINE_INFO_INIT;
    CHECK_OK(km_model_machine_info(model, 0, &a));
    CHECK_OK(km_model_machine_info(plain, 0, &b));
    CHECK_NEAR(a.objective, b.objective, 1e-7);
    km_model_free(model);
    km_model_free(plain);
    km_matrix_free(Kc);
    km_kernel_set_free(set);
    km_kernel_set_free(pre);
    km_dataset_free(data);
}

/* K_2 = K_1: beta_j1 = beta_j2 = 2^(-1/p); with one cluster the SVM on K_1 with C 2^((p-1)/p). */
KM_TEST_CASE(duplicated_kernel)
{
    enum { n = 60, l = 3 };
    double x[n * D], y[n];
    km_dataset *data = localized_data(n, 6, x, y, NULL);
    const double p = 4.0 / 3.0;
    for (long clusters = 1; clusters <= l; clusters += l - 1) {
        km_kernel_set *set = kernel_set("linear:features=3-8", "linear:features=3-8", LOCATION, NULL);
        km_params params = clmkl_params(p, clusters, -1);
        km_params_store(&params, KM_PARAM_CLUSTER_KERNEL, 3);
        km_model *model = NULL;
        CHECK_OK(km_train(data, set, &params, &model));
        const double *beta = km_model_kernel_weights(model, 0);
        for (long j = 0; j < clusters; j++) {
            CHECK_NEAR(beta[3 * j], pow(2.0, -1.0 / p), 1e-8);
            CHECK_NEAR(beta[3 * j + 1], pow(2.0, -1.0 / p), 1e-8);
        }
        if (clusters == 1) {
            km_kernel_set *one = kernel_set("linear:features=3-8", NULL);
            km_params svm = km_params_default();
            svm.tolerance = 1e-9;
            svm.C = pow(2.0, (p - 1) / p);
            km_model *plain = NULL;
            CHECK_OK(km_train(data, one, &svm, &plain));
            double f[n], g[n];
            CHECK_OK(km_predict(model, data, NULL, NULL, f));
            CHECK_OK(km_predict(plain, data, NULL, NULL, g));
            for (size_t i = 0; i < n; i++)
                CHECK_NEAR(f[i], g[i], 1e-6);
            km_model_free(plain);
            km_kernel_set_free(one);
        }
        km_model_free(model);
        km_kernel_set_free(set);
    }
    km_dataset_free(data);
}

/* ---- the localized kernel access -------------------------------------------------------------- */

static double toy_K[4][4] = {{2, 1, 0.5, 0.3}, {1, 2, 0.4, 0.2}, {0.5, 0.4, 2, 1}, {0.3, 0.2, 1, 2}};
static const double *toy_diag[1];

static km_status toy_column(void *ctx, size_t m, size_t i, const size_t *rows, size_t nrows, double *out)
{
    (void)ctx;
    (void)m;
    for (size_t k = 0; k < nrows; k++)
        out[k] = toy_K[rows ? rows[k] : k][i];
    return KM_OK;
}

KM_TEST_CASE(hard_memberships_block_diagonal)
{
    static const double diag[4] = {2, 2, 2, 2};
    toy_diag[0] = diag;
    double theta[1] = {1};
    km_kernel_access base = {.n_rows = 4, .n_kernels = 1, .theta = theta, .column = toy_column, .diag = toy_diag};
    const double hard[4 * 2] = {1, 0, 1, 0, 0, 1, 0, 1};
    const size_t learned[1] = {0};
    double beta[2] = {0.7, 0.4};
    km_localized_access *access = NULL;
    CHECK_OK(km_localized_access_new(&base, learned, 1, 2, hard, beta, &access));
    const km_kernel_access *k = km_localized_access_kernels(access);
    double out[4 * 4];
    const size_t cols[4] = {0, 1, 2, 3};
    CHECK_OK(k->combined(k->column_ctx, k->theta, cols, 4, NULL, 4, out));
    for (size_t i = 0; i < 4; i++)
        for (size_t r = 0; r < 4; r++) {
            int same = (i < 2) == (r < 2);
            CHECK(out[i * 4 + r] == (same ? (i < 2 ? 0.7 : 0.4) * toy_K[r][i] : 0.0));
        }
    km_localized_access_free(access);
}

/* ---- the optimal value against projected-gradient ascent on the dual -------------------------- */

/* Projection onto {0 <= a_i <= C, sum a_i y_i = 0}: a_i = clip(v_i - mu y_i), mu by bisection. */
static void project(const double *v, const double *y, size_t n, double C, double *a)
{
    double lo = -1e6, hi = 1e6;
    for (int it = 0; it < 200; it++) {
        double mu = 0.5 * (lo + hi), s = 0;
        for (size_t i = 0; i < n; i++)
            s += y[i] * fmin(C, fmax(0.0, v[i] - mu * y[i]));
        if (s > 0)
            lo = mu;
        else
            hi = mu;
    }
    for (size_t i = 0; i < n; i++)
        a[i] = fmin(C, fmax(0.0, v[i] - 0.5 * (lo + hi) * y[i]));
}

/* max D(alpha) = sum alpha - 1/2 sum_j ||Q_j(alpha y)||_2 (p = 2: p* = 2) by projected gradient. */
static double dual_maximum(const double *K /* M n n */, size_t M, const double *c, size_t l, const double *y,
                           size_t n, double C)
{
    double *alpha = calloc(n, sizeof *alpha), *grad = malloc(n * sizeof *grad), *v = malloc(n * sizeof *v);
    double *u = malloc(n * sizeof *u), *Ku = malloc(M * n * sizeof *Ku), best = -INFINITY;
    double step = 0.02;
    for (int it = 0; it < 40000; it++) {
        double value = 0;
        for (size_t i = 0; i < n; i++) {
            value += alpha[i];
            grad[i] = 1.0;
        }
        for (size_t j = 0; j < l; j++) {
            double Q[8], q = 0;
            for (size_t i = 0; i < n; i++)
                u[i] = alpha[i] * y[i] * c[i * l + j];
            for (size_t m = 0; m < M; m++) {
                Q[m] = 0;
                for (size_t i = 0; i < n; i++) {
                    double s = 0;
                    for (size_t k = 0; k < n; k++)
                        s += K[(m * n + i) * n + k] * u[k];
                    Ku[m * n + i] = s;
                    Q[m] += u[i] * s;
                }
                q += Q[m] * Q[m];
            }
            q = sqrt(q);
            value -= 0.5 * q;
            for (size_t i = 0; q > 0 && i < n; i++) {
                double g = 0;
                for (size_t m = 0; m < M; m++)
                    g += Q[m] / q * 2.0 * Ku[m * n + i];
                grad[i] -= 0.5 * g * y[i] * c[i * l + j];
            }
        }
        best = fmax(best, value);
        for (size_t i = 0; i < n; i++)
            v[i] = alpha[i] + step * grad[i];
        project(v, y, n, C, alpha);
    }
    free(alpha);
    free(grad);
    free(v);
    free(u);
    free(Ku);
    return best;
}

KM_TEST_CASE(optimal_value_is_dual_maximum)
{
    enum { n = 40, M = 3 };
    double x[n * D], y[n];
    km_dataset *data = localized_data(n, 8, x, y, NULL);
    km_kernel_set *set = kernel_set(GROUP_1, GROUP_2, GROUP_3, LOCATION, NULL);
    double K[M * n * n], g[n * 2];
    for (size_t m = 0; m < M; m++) {
        for (size_t i = 0; i < n; i++) {
            g[2 * i] = x[i * D + 2 + 2 * m];
            g[2 * i + 1] = x[i * D + 3 + 2 * m];
        }
        linear_gram(g, n, 2, K + m * n * n);
    }
    for (long l = 1; l <= 3; l += 2) {
        km_params params = clmkl_params(2.0, l, -1);
        km_params_store(&params, KM_PARAM_CLUSTER_AE, 0.6);
        km_model *model = NULL;
        CHECK_OK(km_train(data, set, &params, &model));
        km_machine_info info = KM_MACHINE_INFO_INIT;
        CHECK_OK(km_model_machine_info(model, 0, &info));
        size_t labels[n];
        double c[n * 3], tau;
        CHECK_OK(km_cluster(data, set, &params, labels, c, &tau));
        double best = dual_maximum(K, M, c, (size_t)l, y, n, params.C);
        CHECK(info.gap >= 0 && info.gap <= 1e-8);
        CHECK_NEAR(info.primal, best, 1e-4);
        const double *beta = km_model_kernel_weights(model, 0);
        for (long j = 0; j < l; j++)
            CHECK_NEAR(norm_p(beta + 4 * j, 3, 2.0), 1.0, 1e-12);
        km_model_free(model);
    }
    km_kernel_set_free(set);
    km_dataset_free(data);
}

/* ---- the decision function and model files ---------------------------------------------------- */

/* f(x) of §5 from the model's parts: test memberships from the clustering kernel on z, linear group
 * kernels normalized by their fitted scales (read back from the kernel descriptions). */
KM_TEST_CASE(decision_function_and_model_file)
{
    enum { n = 80, nt = 50, l = 3 };
    double x[n * D], y[n], xt[nt * D], yt[nt];
    km_dataset *data = localized_data(n, 9, x, y, NULL), *test = localized_data(nt, 10, xt, yt, NULL);
    km_kernel_set *set = group_kernels(1);
    km_params params = clmkl_params(4.0 / 3.0, l, -1);
    km_params_store(&params, KM_PARAM_CLUSTER_AE, 0.45);
    km_model *model = NULL;
    CHECK_OK(km_train(data, set, &params, &model));
    CHECK(km_model_weight_groups(model) == l);
    double tau, evenness;
    CHECK_OK(km_model_cluster_tau(model, &tau, &evenness));
    CHECK_NEAR(evenness, 0.45, 1e-8);
    km_clustering cl;
    CHECK_OK(km_clustering_read(&model->data, n, l, 4, &cl));
    CHECK(km_model_n_basis(model) == n);
    double scale[3];
    for (size_t m = 0; m < 3; m++) {
        char spec[256];
        km_model_kernel_describe(model, m, spec, sizeof spec);
        const char *s = strstr(spec, "scale=");
        CHECK(s != NULL);
        scale[m] = s ? atof(s + 6) : 1;
    }
    const km_machine *machine = &model->machines[0];
    double f[nt + n];
    CHECK_OK(km_predict(model, test, NULL, NULL, f));
    CHECK_OK(km_predict(model, data, NULL, NULL, f + nt));
    for (size_t t = 0; t < nt + n; t++) {
        const double *row = t < nt ? xt + t * D : x + (t - nt) * D;
        /* memberships: e_j = A_j - 2 mean_{i in S_j} <z, z_i> */
        double e[l] = {0}, c[l];
        for (size_t i = 0; i < n; i++)
            e[(size_t)cl.labels[i]] += row[0] * x[i * D] + row[1] * x[i * D + 1];
        for (size_t j = 0; j < l; j++)
            e[j] = cl.centres[2 * j] - 2 * e[j] / cl.centres[2 * j + 1];
        km_membership_gaps(1, l, e);
        km_memberships(1, l, e, cl.tau, c);
        double value = machine->bias;
        for (size_t s = 0; s < machine->n_sv; s++) {
            const double *xs = x + machine->sv[s] * D;
            for (size_t m = 0; m < 3; m++) {
                double k = (row[2 + 2 * m] * xs[2 + 2 * m] + row[3 + 2 * m] * xs[3 + 2 * m]) / scale[m];
                for (size_t j = 0; j < l; j++)
                    value += machine->coef[s] * machine->theta[j * 4 + m] * c[j] * cl.memberships[machine->sv[s] * l + j] * k;
            }
        }
        CHECK_NEAR(f[t], value, 1e-6);
    }
    CHECK_OK(km_model_save(model, "clmkl.km"));
    km_model *loaded = NULL;
    CHECK_OK(km_model_load("clmkl.km", &loaded));
    double g[nt];
    CHECK_OK(km_predict(loaded, test, NULL, NULL, g));
    CHECK(!memcmp(f, g, sizeof g));
    km_model_free(loaded);
    km_model_free(model);
    km_kernel_set_free(set);
    km_dataset_free(data);
    km_dataset_free(test);
}

/* ---- variants --------------------------------------------------------------------------------- */

KM_TEST_CASE(svr_on_sine)
{
    enum { n = 100 };
    double x[n], y[n];
    for (size_t i = 0; i < n; i++) {
        x[i] = 2 * 3.141592653589793 * i / (n - 1);
        y[i] = sin(x[i]);
    }
    km_dataset *data = NULL;
    CHECK_OK(km_dataset_from_dense(n, 1, x, y, &data));
    km_kernel_set *set = NULL;
    CHECK_OK(km_kernel_set_new(&set));
    CHECK_OK(km_kernel_set_add_spec(set, "rbf:gamma=0.1,1,10"));
    km_params params = clmkl_params(4.0 / 3.0, 2, -1);
    params.task = KM_TASK_SVR;
    params.C = 100;
    params.epsilon = 0.1;
    km_params_store(&params, KM_PARAM_MKL_GAP, 1e-4);
    params.tolerance = 1e-6;
    km_params_store(&params, KM_PARAM_CLUSTER_KERNEL, 0);
    km_params_store(&params, KM_PARAM_CLUSTER_ONLY, 0);
    km_model *model = NULL;
    CHECK_OK(km_train(data, set, &params, &model));
    double f[n];
    CHECK_OK(km_predict(model, data, NULL, NULL, f));
    size_t inside = 0;
    for (size_t i = 0; i < n; i++)
        inside += fabs(f[i] - y[i]) <= 0.1 + 1e-3;
    CHECK(inside >= 0.9 * n);
    km_model_free(model);
    km_kernel_set_free(set);
    km_dataset_free(data);
}

KM_TEST_CASE(one_vs_rest_three_classes)
{
    enum { n = 150 };
    double x[n * 2], y[n];
    km_rng rng;
    km_rng_seed(&rng, 12);
    for (size_t i = 0; i < n; i++) {
        int k = (int)(i % 3);
        x[2 * i] = CENTRE[k][0] + km_rng_normal(&rng);
        x[2 * i + 1] = CENTRE[k][1] + km_rng_normal(&rng);
        y[i] = k;
    }
    km_dataset *data = NULL;
    CHECK_OK(km_dataset_from_dense(n, 2, x, y, &data));
    km_kernel_set *set = NULL;
    CHECK_OK(km_kernel_set_new(&set));
    CHECK_OK(km_kernel_set_add_spec(set, "rbf:gamma=0.1,1"));
    CHECK_OK(km_kernel_set_add_spec(set, "linear"));
    km_params params = clmkl_params(4.0 / 3.0, 3, -1);
    km_params_store(&params, KM_PARAM_CLUSTER_KERNEL, 3);
    km_params_store(&params, KM_PARAM_CLUSTER_ONLY, 0);
    km_params_store(&params, KM_PARAM_MKL_GAP, 1e-4);
    km_model *model = NULL;
    CHECK_STATUS(km_train(data, set, &params, &model), KM_EINVAL); /* one-vs-one is refused */
    params.multiclass = KM_MULTICLASS_OVR;
    CHECK_OK(km_train(data, set, &params, &model));
    double labels[n];
    CHECK_OK(km_predict(model, data, NULL, labels, NULL));
    size_t right = 0;
    for (size_t i = 0; i < n; i++)
        right += labels[i] == y[i];
    CHECK(right >= 0.95 * n);
    CHECK(km_model_n_machines(model) == 3);
    km_model_free(model);
    km_kernel_set_free(set);
    km_dataset_free(data);
}

/* ---- LMKL -------------------------------------------------------------------------------------- */

enum { GN = 30, GM = 3 };
static double gate_K[GM][GN * GN], gate_diag_values[GM][GN];
static const double *gate_diag[GM];

static km_status gate_column(void *ctx, size_t m, size_t i, const size_t *rows, size_t nrows, double *out)
{
    (void)ctx;
    for (size_t k = 0; k < nrows; k++)
        out[k] = gate_K[m][(rows ? rows[k] : k) * GN + i];
    return KM_OK;
}

/* The access to the GM kernels of gate_K (filled by the case) with weights theta; sets their diagonals. */
static km_kernel_access gate_access(double *theta)
{
    for (size_t m = 0; m < GM; m++) {
        for (size_t i = 0; i < GN; i++)
            gate_diag_values[m][i] = gate_K[m][i * GN + i];
        gate_diag[m] = gate_diag_values[m];
    }
    return (km_kernel_access){.n_rows = GN, .n_kernels = GM, .theta = theta, .column = gate_column, .diag = gate_diag};
}

/* J = the SVM's optimal dual value on k_eta at the gating (r, v), and its coefficients a. */
static double gated_J(const km_kernel_access *base, const double *K0, const double *r, const double *v,
                      const signed char *y, double *eta, double *a)
{
    static const double gated[GM] = {1, 1, 1};
    double identity[GM * GM] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    const size_t all[GM] = {0, 1, 2};
    km_gates(K0, GN, GN, GM, r, v, gated, eta);
    km_localized_access *access = NULL;
    CHECK_OK(km_localized_access_new(base, all, GM, GM, eta, identity, &access));
    km_smo_options options = km_smo_options_default();
    options.tolerance = 1e-12;
    km_svm_solution solution = {.coef = a};
    CHECK_OK(km_svc_solve(km_localized_access_kernels(access), y, 1.0, 1.0, 1.0, &options, NULL, &solution));
    km_localized_access_free(access);
    return -solution.objective;
}

KM_TEST_CASE(lmkl_gradient_matches_finite_differences)
{
    double x[GN * 3], K0[GN * GN], r[GN * GM], v[GM], eta[GN * GM], a[GN], g[GN * GM];
    signed char y[GN];
    km_rng rng;
    km_rng_seed(&rng, 21);
    for (size_t i = 0; i < GN * 3; i++)
        x[i] = km_rng_normal(&rng);
    for (size_t i = 0; i < GN; i++)
        y[i] = x[i * 3] + 0.5 * km_rng_normal(&rng) > 0 ? 1 : -1;
    for (size_t i = 0; i < GN; i++)
        for (size_t k = 0; k < GN; k++) {
            const double *p = x + i * 3, *q = x + k * 3;
            double d2 = (p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1]) + (p[2] - q[2]) * (p[2] - q[2]);
            gate_K[0][i * GN + k] = p[0] * q[0];
            gate_K[1][i * GN + k] = p[1] * q[1] + p[2] * q[2];
            gate_K[2][i * GN + k] = exp(-0.5 * d2);
            K0[i * GN + k] = exp(-0.2 * d2);
        }
    for (size_t m = 0; m < GM; m++)
        v[m] = 0.3 * km_rng_normal(&rng);
    for (size_t i = 0; i < GN * GM; i++)
        r[i] = 0.2 * km_rng_normal(&rng);
    double theta[GM] = {1, 1, 1};
    km_kernel_access base = gate_access(theta);
    static const double gated[GM] = {1, 1, 1};
    gated_J(&base, K0, r, v, y, eta, a);
    CHECK_OK(km_lmkl_gradient(&base, gated, eta, a, g));
    const double h = 1e-6;
    for (size_t m = 0; m < GM; m++) {
        /* dJ/dv_m = sum_i g_im */
        double want = 0, vp[GM], vm[GM], scratch_a[GN];
        for (size_t i = 0; i < GN; i++)
            want += g[i * GM + m];
        memcpy(vp, v, sizeof vp);
        memcpy(vm, v, sizeof vm);
        vp[m] += h;
        vm[m] -= h;
        double fd = (gated_J(&base, K0, r, vp, y, eta, scratch_a) - gated_J(&base, K0, r, vm, y, eta, scratch_a)) / (2 * h);
        CHECK_NEAR(fd, want, 1e-4);
        /* dJ/dr_km = sum_i g_im k_0(x_k, x_i), for a few k */
        for (size_t k = 0; k < GN; k += 7) {
            double rp[GN * GM], rm[GN * GM], w = 0;
            for (size_t i = 0; i < GN; i++)
                w += g[i * GM + m] * K0[k * GN + i];
            memcpy(rp, r, sizeof rp);
            memcpy(rm, r, sizeof rm);
            rp[k * GM + m] += h;
            rm[k * GM + m] -= h;
            fd = (gated_J(&base, K0, rp, v, y, eta, scratch_a) - gated_J(&base, K0, rm, v, y, eta, scratch_a)) / (2 * h);
            CHECK_NEAR(fd, w, 1e-4);
        }
    }
}

/* LMKL trains, lowers J below the uniform gates' value, and predicts from its gates. */
KM_TEST_CASE(lmkl_trains_and_predicts)
{
    enum { n = 120, nt = 100 };
    double x[n * D], y[n], xt[nt * D], yt[nt];
    km_dataset *data = localized_data(n, 13, x, y, NULL), *test = localized_data(nt, 14, xt, yt, NULL);
    km_kernel_set *set = group_kernels(1);
    km_params params = clmkl_params(2, 3, -1);
    km_params_store(&params, KM_PARAM_MKL_METHOD, KM_MKL_LMKL);
    km_model *model = NULL;
    CHECK_OK(km_train(data, set, &params, &model));
    CHECK(km_model_weight_groups(model) == 4);
    km_machine_info info = KM_MACHINE_INFO_INIT;
    CHECK_OK(km_model_machine_info(model, 0, &info));
    km_params_store(&params, KM_PARAM_MKL_MAX_OUTER, 1); /* stops at the first step: nearly the uniform gates */
    km_model *first = NULL;
    CHECK_OK(km_train(data, set, &params, &first));
    km_machine_info start = KM_MACHINE_INFO_INIT;
    CHECK_OK(km_model_machine_info(first, 0, &start));
    CHECK(info.objective > start.objective); /* -J: J went down */
    double labels[nt];
    CHECK_OK(km_predict(model, test, NULL, labels, NULL));
    size_t right = 0;
    for (size_t t = 0; t < nt; t++)
        right += labels[t] == yt[t];
    CHECK(right >= 0.75 * nt);
    CHECK_OK(km_model_save(model, "lmkl.km"));
    km_model *loaded = NULL;
    CHECK_OK(km_model_load("lmkl.km", &loaded));
    double again[nt];
    CHECK_OK(km_predict(loaded, test, NULL, again, NULL));
    CHECK(!memcmp(labels, again, sizeof again));
    km_model_free(loaded);
    km_model_free(first);
    km_model_free(model);
    km_kernel_set_free(set);
    km_dataset_free(data);
    km_dataset_free(test);
}

/* Scale (normalization off, memberships fixed by the unscaled clustering kernel): the learned kernels
 * times s with C equal the original kernels with C s. D_s(alpha; C) = (1/s) D(s alpha; C s), and the
 * SMO's gradients are invariant, so the iterates coincide up to rounding (a warm start's gradient comes
 * from the kernel products, summed in another order than the columns): the same weights and decision
 * values to 1e-6, where a wrong scaling of C or of the kernels moves them by orders of magnitude more. */
KM_TEST_CASE(kernel_scale_is_C_scale)
{
    enum { n = 60, nt = 30, l = 3 };
    const double s = 4.0;
    double x[n * D], y[n], xt[nt * D], yt[nt];
    km_dataset *data = localized_data(n, 15, x, y, NULL), *test = localized_data(nt, 16, xt, yt, NULL);
    double xs[n * D], xts[nt * D];
    for (size_t i = 0; i < n * D; i++)
        xs[i] = i % D < 2 ? x[i] : sqrt(s) * x[i];
    for (size_t i = 0; i < nt * D; i++)
        xts[i] = i % D < 2 ? xt[i] : sqrt(s) * xt[i];
    km_dataset *scaled = NULL, *scaled_test = NULL;
    CHECK_OK(km_dataset_from_dense(n, D, xs, y, &scaled));
    CHECK_OK(km_dataset_from_dense(nt, D, xts, yt, &scaled_test));
    km_kernel_set *set = kernel_set(GROUP_1, GROUP_2, GROUP_3, LOCATION, NULL);
    km_params params = clmkl_params(4.0 / 3.0, l, -1);
    params.C = 0.5;
    fit big = train_and_predict(scaled, set, &params, scaled_test);
    params.C = 0.5 * s;
    fit original = train_and_predict(data, set, &params, test);
    const double *a = km_model_kernel_weights(big.model, 0), *b = km_model_kernel_weights(original.model, 0);
    for (size_t k = 0; k < 4 * l; k++)
        CHECK_NEAR(a[k], b[k], 1e-6);
    for (size_t t = 0; t < nt; t++)
        CHECK_NEAR(big.decision[t], original.decision[t], 1e-6);
    km_model_free(big.model);
    km_model_free(original.model);
    km_kernel_set_free(set);
    km_dataset_free(data);
    km_dataset_free(test);
    km_dataset_free(scaled);
    km_dataset_free(scaled_test);
}

/* ---- hard memberships without bias ------------------------------------------------------------ */

/* Rows of x (n x D) and y in cluster j of labels, as a dataset; their indices go to rows. */
static km_dataset *cluster_rows(const double *x, const double *y, size_t n, const size_t *labels, size_t j,
                                size_t *rows, size_t *count)
{
    double *xs = malloc(n * D * sizeof *xs), *ys = malloc(n * sizeof *ys);
    *count = 0;
    for (size_t i = 0; i < n; i++)
        if (labels[i] == j) {
            memcpy(xs + *count * D, x + i * D, D * sizeof *x);
            ys[*count] = y[i];
            rows[(*count)++] = i;
        }
    km_dataset *data = NULL;
    CHECK_OK(km_dataset_from_dense(*count, D, xs, ys, &data));
    free(xs);
    free(ys);
    return data;
}

/* Hard memberships and no bias: K~ is block-diagonal and the dual has no equality constraint, so the
 * problem splits into one bias-free lp-norm MKL per cluster: beta_j is that run's theta, and f on the
 * rows of cluster j is that run's decision function. Kernels unnormalized (a per-cluster
 * normalization would differ from the whole set's). */
KM_TEST_CASE(hard_memberships_without_bias_are_per_cluster_mkl)
{
    enum { n = 90, l = 3 };
    double x[n * D], y[n];
    km_dataset *data = localized_data(n, 17, x, y, NULL);
    km_kernel_set *set = kernel_set(GROUP_1, GROUP_2, GROUP_3, NULL);
    km_kernel_set *with_z = kernel_set(GROUP_1, GROUP_2, GROUP_3, LOCATION, NULL);
    for (int k = 0; k < 2; k++) {
        const double p = k == 0 ? 2.0 : 4.0 / 3.0;
        km_params params = clmkl_params(p, l, INFINITY);
        params.krr_bias = 0;
        /* a relative gap of g leaves the weights sqrt(g) from the optimum (the objective is quadratic
         * around it), so both runs go on to a fixed count of steps at a tight SVM tolerance instead, where
         * the weights have stopped moving (fewer than CLMKL's 20 steps without progress at p = 4/3) */
        params.tolerance = 1e-12;
        km_params_store(&params, KM_PARAM_MKL_GAP, 1e-15);
        km_params_store(&params, KM_PARAM_MKL_MAX_OUTER, k == 0 ? 40 : 90);
        fit local = train_and_predict(data, with_z, &params, data);
        CHECK(local.info.bias == 0.0);
        const double *beta = km_model_kernel_weights(local.model, 0);
        size_t labels[n], rows[n], count;
        double c[n * l], tau;
        CHECK_OK(km_cluster(data, with_z, &params, labels, c, &tau));
        CHECK(isinf(tau));
        km_params mkl = params;
        km_params_store(&mkl, KM_PARAM_MKL_METHOD, KM_MKL_LP);
        km_params_store(&mkl, KM_PARAM_MKL_SOLVER, KM_MKL_WRAPPER);
        for (size_t j = 0; j < l; j++) {
            km_dataset *part = cluster_rows(x, y, n, labels, j, rows, &count);
            fit own = train_and_predict(part, set, &mkl, part);
            const double *theta = km_model_kernel_weights(own.model, 0);
            for (size_t m = 0; m < 3; m++)
                CHECK_NEAR(beta[j * 4 + m], theta[m], 1e-8);
            for (size_t t = 0; t < count; t++)
                CHECK_NEAR(local.decision[rows[t]], own.decision[t], 1e-6 * fmax(1.0, fabs(own.decision[t])));
            km_model_free(own.model);
            km_dataset_free(part);
        }
        km_model_free(local.model);
    }
    km_kernel_set_free(with_z);
    km_kernel_set_free(set);
    km_dataset_free(data);
}

/* km_model_params of a reloaded localized model gives back its clustering parameters: clusters (2, not
 * the default 3), tau, average evenness and the clustering kernel; for hard memberships tau = inf. */
KM_TEST_CASE(model_params_after_reload)
{
    enum { n = 60 };
    double x[n * D], y[n];
    km_dataset *data = localized_data(n, 18, x, y, NULL);
    km_kernel_set *set = group_kernels(1);
    for (int hard = 0; hard < 2; hard++) {
        km_params params = clmkl_params(4.0 / 3.0, 2, -1);
        km_params_store(&params, KM_PARAM_MKL_METHOD, hard ? KM_MKL_HLMKL : KM_MKL_CLMKL);
        km_params_store(&params, KM_PARAM_CLUSTER_AE, 0.7);
        km_params_store(&params, KM_PARAM_MKL_GAP, 1e-4);
        km_model *model = NULL, *loaded = NULL;
        CHECK_OK(km_train(data, set, &params, &model));
        CHECK_OK(km_model_save(model, "reload.km"));
        CHECK_OK(km_model_load("reload.km", &loaded));
        km_params *back = NULL;
        CHECK_OK(km_model_params(loaded, &back));
        int64_t clusters = 0, kernel = 0, only = 0;
        double tau = 0, ae = 0;
        CHECK_OK(km_params_get_int(back, KM_PARAM_CLUSTERS, &clusters));
        CHECK_OK(km_params_get_int(back, KM_PARAM_CLUSTER_KERNEL, &kernel));
        CHECK_OK(km_params_get_int(back, KM_PARAM_CLUSTER_ONLY, &only));
        CHECK_OK(km_params_get_double(back, KM_PARAM_CLUSTER_TAU, &tau));
        CHECK_OK(km_params_get_double(back, KM_PARAM_CLUSTER_AE, &ae));
        CHECK(clusters == 2 && kernel == 4 && only == 1);
        if (hard) {
            CHECK(isinf(tau));
            CHECK_NEAR(ae, 0.5, 1e-12); /* AE(inf) = 1/l without ties */
        } else {
            double model_tau, evenness;
            CHECK_OK(km_model_cluster_tau(model, &model_tau, &evenness));
            CHECK(tau == model_tau);
            CHECK_NEAR(ae, 0.7, 1e-8);
        }
        km_params_free(back);
        km_model_free(loaded);
        km_model_free(model);
    }
    km_kernel_set_free(set);
    km_dataset_free(data);
}

/* ---- the inner SVM against LIBSVM ---------------------------------------------------------------- */

/* LIBSVM's dual objective ("obj = ") of svm-train -t 4 (precomputed kernel K, n x n) with C and -e 1e-8;
 * NAN when svm-train is not installed. */
static double libsvm_objective(const double *K, const signed char *y, size_t n, double C)
{
    if (system("command -v " KM_SVM_TRAIN " >/dev/null 2>&1") != 0)
        return NAN;
    FILE *f = fopen("combined.txt", "w");
    CHECK(f != NULL);
    for (size_t i = 0; f && i < n; i++) {
        fprintf(f, "%d 0:%zu", y[i], i + 1);
        for (size_t k = 0; k < n; k++)
            fprintf(f, " %zu:%.17g", k + 1, K[i * n + k]);
        fputc('\n', f);
    }
    CHECK(f && fclose(f) == 0);
    char command[256];
    snprintf(command, sizeof command, KM_SVM_TRAIN " -s 0 -t 4 -c %.17g -e 1e-8 combined.txt combined.model", C);
    FILE *out = popen(command, "r");
    CHECK(out != NULL);
    char line[512];
    double objective = NAN;
    while (out && fgets(line, sizeof line, out)) {
        const char *at = strstr(line, "obj = ");
        if (at)
            objective = strtod(at + 6, NULL);
    }
    CHECK(out && pclose(out) == 0);
    return objective;
}

/* At fixed memberships and beta the SVM of Problem C.3 on the localized kernel of Eq. (6), computed here
 * entry by entry, has LIBSVM's optimal objective; a solve warm-started from the solution at other
 * weights ends at the cold solve's objective. */
KM_TEST_CASE(inner_svm_matches_libsvm)
{
    enum { l = 2 };
    double x[GN * 2], c[GN * l], beta[l * GM], other[l * GM], Kt[GN * GN];
    signed char y[GN];
    km_rng rng;
    km_rng_seed(&rng, 23);
    for (size_t i = 0; i < GN; i++) {
        x[2 * i] = km_rng_normal(&rng);
        x[2 * i + 1] = km_rng_normal(&rng);
        y[i] = x[2 * i] * x[2 * i + 1] + 0.3 * km_rng_normal(&rng) > 0 ? 1 : -1;
        c[i * l] = km_rng_uniform(&rng);
        c[i * l + 1] = 1 - c[i * l];
    }
    for (size_t i = 0; i < GN; i++)
        for (size_t k = 0; k < GN; k++) {
            const double *p = x + 2 * i, *q = x + 2 * k;
            double d2 = (p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1]);
            gate_K[0][i * GN + k] = p[0] * q[0] + p[1] * q[1];
            gate_K[1][i * GN + k] = exp(-0.5 * d2);
            gate_K[2][i * GN + k] = pow(1 + p[0] * q[0] + p[1] * q[1], 2);
        }
    for (size_t u = 0; u < l * GM; u++) {
        beta[u] = 0.1 + km_rng_uniform(&rng);
        other[u] = 0.1 + km_rng_uniform(&rng);
    }
    /* K~[i,k] = sum_j sum_m beta_jm c_ij c_kj K_m[i,k] */
    for (size_t i = 0; i < GN; i++)
        for (size_t k = 0; k < GN; k++) {
            double v = 0;
            for (size_t j = 0; j < l; j++)
                for (size_t m = 0; m < GM; m++)
                    v += beta[j * GM + m] * c[i * l + j] * c[k * l + j] * gate_K[m][i * GN + k];
            Kt[i * GN + k] = v;
        }
    const double C = 2.0;
    double want = libsvm_objective(Kt, y, GN, C);
    if (isnan(want))
        KM_TEST_SKIP("svm-train (Debian libsvm-tools) is not installed");
    double theta[GM] = {1, 1, 1}, weights[l * GM];
    km_kernel_access base = gate_access(theta);
    const size_t all[GM] = {0, 1, 2};
    km_localized_access *access = NULL;
    CHECK_OK(km_localized_access_new(&base, all, GM, l, c, weights, &access));
    const km_kernel_access *k = km_localized_access_kernels(access);
    km_smo_options options = km_smo_options_default();
    options.tolerance = 1e-8;
    double cold[GN], warm[GN];
    km_svm_solution a = {.coef = cold}, b = {.coef = warm};
    memcpy(weights, beta, sizeof weights);
    CHECK_OK(km_svc_solve(k, y, C, 1.0, 1.0, &options, NULL, &a));
    CHECK_NEAR(a.objective, want, 1e-6 * fabs(want));
    /* warm: the solution at the other weights as the start */
    memcpy(weights, other, sizeof weights);
    CHECK_OK(km_svc_solve(k, y, C, 1.0, 1.0, &options, NULL, &b));
    double start[GN];
    for (size_t i = 0; i < GN; i++)
        start[i] = y[i] * warm[i];
    memcpy(weights, beta, sizeof weights);
    CHECK_OK(km_svc_solve(k, y, C, 1.0, 1.0, &options, start, &b));
    CHECK_NEAR(b.objective, a.objective, 1e-8 * fabs(a.objective));
    CHECK_NEAR(b.objective, want, 1e-6 * fabs(want));
    km_localized_access_free(access);
}

/* ---- invariants along the wrapper's iterations -------------------------------------------------- */

/* Algorithm 1 with the SVM tolerance fixed at 1e-8 (no crude-to-fine schedule) on soft memberships,
 * stopped after t = 1, 2, ... outer iterations (deterministic, so run t repeats the first t - 1 steps of
 * run t + 1): each run's certified P^ is at most the previous one's (block coordinate descent on the
 * objective of Problem 1, Lei et al. §3) unless the last weights were a SQUAREM extrapolation the loop
 * then refuses: P^ rises at most once in a row, and the next run, a step from the point before the
 * rise, is at most that point's P^ again (each to 1e-9 relative, the solves' accuracy at -e 1e-8).
 * P^ - D >= -1e-9 |P^|, and every beta_j it returns (the weights after t - 1 updates of Eq. 7 or
 * extrapolations) has ||beta_j||_p = 1. */
KM_TEST_CASE(primal_non_increasing_at_fixed_tolerance)
{
    enum { l = 3, T = 15 };
    double x[GN * 2], c[GN * l];
    signed char y[GN];
    km_rng rng;
    km_rng_seed(&rng, 29);
    for (size_t i = 0; i < GN; i++) {
        x[2 * i] = km_rng_normal(&rng);
        x[2 * i + 1] = km_rng_normal(&rng);
        y[i] = x[2 * i] + 0.5 * x[2 * i] * x[2 * i + 1] + 0.4 * km_rng_normal(&rng) > 0 ? 1 : -1;
        double sum = 0;
        for (size_t j = 0; j < l; j++)
            sum += c[i * l + j] = 0.05 + km_rng_uniform(&rng);
        for (size_t j = 0; j < l; j++)
            c[i * l + j] /= sum;
    }
    for (size_t i = 0; i < GN; i++)
        for (size_t k = 0; k < GN; k++) {
            const double *p = x + 2 * i, *q = x + 2 * k;
            double d2 = (p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1]);
            gate_K[0][i * GN + k] = p[0] * q[0];
            gate_K[1][i * GN + k] = p[1] * q[1];
            gate_K[2][i * GN + k] = exp(-d2);
        }
    double theta[GM] = {1, 1, 1};
    km_kernel_access base = gate_access(theta);
    const size_t all[GM] = {0, 1, 2};
    const double ps[] = {1.0, 4.0 / 3.0, 2.0};
    for (size_t k = 0; k < 3; k++) {
        double p = ps[k], beta[l * GM], previous = INFINITY, before_rise = NAN;
        long rises = 0;
        km_localized_access *access = NULL;
        CHECK_OK(km_localized_access_new(&base, all, GM, l, c, beta, &access));
        km_machine_problem machine = {.ops = km_machine_ops_of(KM_TASK_SVC), .kernel = km_localized_access_kernels(access),
                                      .y = y, .C = 2.0, .weight_pos = 1, .weight_neg = 1, .bias = 1,
                                      .solver = km_smo_options_default()};
        machine.solver.tolerance = 1e-8;
        km_mkl_problem pr = {.machine = &machine, .mkl = km_mkl_params_default(), .n_outputs = 1};
        pr.mkl.p = p;
        pr.mkl.p_block = 2 * p / (p + 1);
        pr.mkl.gap = 1e-12;
        long steps = 0;
        for (long t = 1; t <= T; t++) {
            for (size_t j = 0; j < l; j++)
                km_theta_init(GM, pr.mkl.p_block, beta + j * GM);
            double coef[GN] = {0};
            km_mkl_result result = {.coef = coef};
            pr.mkl.max_outer = t;
            CHECK_OK(km_clmkl_solve(&pr, machine.kernel, GM, l, 1e-8, &result));
            if (isnan(before_rise) && result.primal > previous * (1 + 1e-9)) {
                before_rise = previous;
                rises++;
            } else {
                CHECK(result.primal <= (isnan(before_rise) ? previous : before_rise) * (1 + 1e-9));
                before_rise = NAN;
            }
            CHECK(result.primal - result.dual >= -1e-9 * fabs(result.primal));
            for (size_t j = 0; j < l; j++)
                CHECK_NEAR(norm_p(beta + j * GM, GM, p), 1.0, 1e-12);
            previous = result.primal;
            steps = result.mkl_iterations;
            if (result.converged)
                break;
        }
        CHECK(steps >= 3 && rises < steps / 2); /* the sequence has steps to compare, most of them descents */
        km_localized_access_free(access);
    }
}
