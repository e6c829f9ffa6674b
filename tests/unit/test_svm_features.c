/* C-SVC and epsilon-SVR without bias on explicit features (svm/dcd.c, km_svc_solve_features and
 * km_svr_solve_features) against the SMO without bias (km_svc_solve_without_bias, km_svr_solve_without_bias)
 * on the same kernels: three low-rank kernels (spherical, multiplicative
 * and no normalization, so that the features' row and global scales are exercised), weighted, on a view
 * of half the rows in another order (the feature blocks' row map):
 *  - the two dual objectives agree to 1e-8 relative and the coefficients to 1e-4;
 *  - the coordinate descent's solution meets the KKT conditions, checked from the kernel columns the
 *    provider serves (not from the features): the largest projected gradient (SVR: the largest
 *    violation of the subgradient conditions) is below the tolerance;
 *  - a warm start from the solution stops at once with the same objective;
 *  - with bias (km_svc_solve_features_with_bias, km_svr_solve_features_with_bias: the descent at a fixed
 *    offset and the search for the bias) against the SMO with bias (km_svc_solve, km_svr_solve): the
 *    objectives to 1e-8 relative, the bias and coefficients to 1e-4, sum_i c_i = 0 kept, LIBSVM's
 *    violation from the provider's kernel columns below the tolerance, also from a warm start that
 *    breaks the equality, and with class weights;
 *  - an access whose kernels have no features is refused. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "core/rng.h"
#include "kernel/kernel_view.h"
#include "kernel/provider.h"
#include "kernelmix.h"
#include "svm/svm.h"
#include "svm/view_access.h"

enum { N = 80, D = 4, V = 40, M = 3 };

typedef struct fixture {
    double X[N * D], labels[N], targets[N];
    km_dataset *data;
    km_kernel_set *set;
    km_provider *provider;
    km_kernel_view *view;
    signed char y[V];
    double z[V];
    double theta[M];
    km_kernel_access access;
} fixture;

static void fixture_init(fixture *f, const char *const specs[M])
{
    km_rng rng;
    km_rng_seed(&rng, 17);
    for (size_t i = 0; i < N; i++) {
        for (size_t j = 0; j < D; j++)
            f->X[i * D + j] = km_rng_normal(&rng);
        double t = f->X[i * D] * f->X[i * D + 1] + 0.5 * f->X[i * D + 2] + 0.3 * km_rng_normal(&rng);
        f->labels[i] = t > 0 ? 1 : -1;
        f->targets[i] = t;
    }
    CHECK_OK(km_dataset_from_dense(N, D, f->X, f->labels, &f->data));
    CHECK_OK(km_kernel_set_new(&f->set));
    for (size_t m = 0; m < M; m++)
        CHECK_OK(km_kernel_set_add_spec(f->set, specs[m]));
    CHECK_OK(km_provider_new(f->data, NULL, 0, f->set, 1 << 22, NULL, &f->provider));
    size_t rows[V];
    for (size_t k = 0; k < V; k++) {   /* every second row, from the last */
        rows[k] = N - 2 - 2 * k;
        f->y[k] = f->labels[rows[k]] > 0 ? 1 : -1;
        f->z[k] = f->targets[rows[k]];
    }
    CHECK_OK(km_kernel_view_new(f->provider, rows, V, &f->view));
    f->theta[0] = 0.5;
    f->theta[1] = 0.3;
    f->theta[2] = 0.2;
    f->access = km_kernel_access_from_view(f->view, f->theta);
}

static void fixture_free(fixture *f)
{
    km_kernel_view_free(f->view);
    km_provider_free(f->provider);
    km_kernel_set_free(f->set);
    km_dataset_free(f->data);
}

static const char *const low_rank[M] = {"rbf:gamma=0.5:rank=30:norm=spherical", "poly:degree=2:rank=12:norm=mult",
                                        "linear:rank=4"};

/* g = Q c from the provider's kernel columns. */
static void decision_values(const fixture *f, const double *coef, double *g)
{
    double column[V];
    for (size_t i = 0; i < V; i++) {
        g[i] = 0;
        for (size_t m = 0; m < M; m++) {
            CHECK_OK(f->access.column(f->access.column_ctx, m, i, NULL, V, column));
            for (size_t j = 0; j < V; j++)
                g[i] += f->theta[m] * column[j] * coef[j];
        }
    }
}

/* The largest projected gradient of min 1/2 a'Qa - 1'a over 0 <= a <= C at c = y a. */
static double largest_violation(const fixture *f, const double *coef, double C)
{
    double worst = 0, g[V];
    decision_values(f, coef, g);
    for (size_t i = 0; i < V; i++) {
        double G = f->y[i] * g[i] - 1, a = f->y[i] * coef[i];
        double PG = a <= 0 ? fmin(G, 0) : a >= C ? fmax(G, 0) : G;
        worst = fmax(worst, fabs(PG));
    }
    return worst;
}

/* The largest violation of 0 in G + epsilon d|b_i| + N_[-C, C](b_i), G = Qb - z, for
 * min 1/2 b'Qb - z'b + epsilon |b|_1 over -C <= b <= C. */
static double largest_svr_violation(const fixture *f, const double *b, double C, double epsilon)
{
    double worst = 0, g[V];
    decision_values(f, b, g);
    for (size_t i = 0; i < V; i++) {
        double Gp = g[i] - f->z[i] + epsilon, Gn = g[i] - f->z[i] - epsilon, v;
        if (b[i] == 0)
            v = Gp < 0 ? -Gp : Gn > 0 ? Gn : 0.0;
        else if (b[i] >= C)
            v = fmax(Gp, 0);
        else if (b[i] <= -C)
            v = fmax(-Gn, 0);
        else
            v = fabs(b[i] > 0 ? Gp : Gn);
        worst = fmax(worst, v);
    }
    return worst;
}

KM_TEST_CASE(coordinate_descent_solves_the_smo_problem)
{
    fixture f;
    fixture_init(&f, low_rank);
    km_feature_block blocks[M];
    CHECK(km_kernel_access_features(&f.access, blocks));
    km_smo_options options = km_smo_options_default();
    options.tolerance = 1e-8;
    double smo_coef[V], dcd_coef[V], C = 2.0;
    km_svm_solution smo = {.coef = smo_coef}, dcd = {.coef = dcd_coef};
    CHECK_OK(km_svc_solve_without_bias(&f.access, f.y, C, 1.0, 1.0, &options, NULL, &smo));
    CHECK_OK(km_svc_solve_features(&f.access, f.y, C, 1.0, 1.0, &options, NULL, &dcd));
    CHECK(dcd.converged && dcd.bias == 0.0);
    CHECK_NEAR(dcd.objective, smo.objective, 1e-8 * fabs(smo.objective));
    size_t bounded = 0;
    for (size_t i = 0; i < V; i++) {
        CHECK_NEAR(dcd_coef[i], smo_coef[i], 1e-4);
        bounded += fabs(dcd_coef[i]) == C;
    }
    CHECK(bounded > 0 && bounded < V);   /* a problem with free and bounded variables */
    CHECK(largest_violation(&f, dcd_coef, C) <= 1e-6);

    /* warm start from the solution: no step moves it */
    double warm_coef[V], alpha[V];
    for (size_t i = 0; i < V; i++)
        alpha[i] = f.y[i] * dcd_coef[i];
    km_svm_solution warm = {.coef = warm_coef};
    CHECK_OK(km_svc_solve_features(&f.access, f.y, C, 1.0, 1.0, &options, alpha, &warm));
    CHECK(warm.converged && warm.iterations <= 2 * V);
    CHECK_NEAR(warm.objective, dcd.objective, 1e-10 * fabs(dcd.objective));
    fixture_free(&f);
}

KM_TEST_CASE(coordinate_descent_solves_the_svr_without_bias)
{
    fixture f;
    fixture_init(&f, low_rank);
    km_smo_options options = km_smo_options_default();
    options.tolerance = 1e-8;
    double smo_coef[V], dcd_coef[V], C = 0.5, epsilon = 0.2;
    km_svm_solution smo = {.coef = smo_coef}, dcd = {.coef = dcd_coef};
    CHECK_OK(km_svr_solve_without_bias(&f.access, f.z, C, epsilon, &options, NULL, &smo));
    CHECK_OK(km_svr_solve_features(&f.access, f.z, C, epsilon, &options, NULL, &dcd));
    CHECK(dcd.converged && dcd.bias == 0.0 && smo.bias == 0.0);
    CHECK_NEAR(dcd.objective, smo.objective, 1e-8 * fabs(smo.objective));
    size_t bounded = 0, zero = 0;
    for (size_t i = 0; i < V; i++) {
        CHECK_NEAR(dcd_coef[i], smo_coef[i], 1e-4);
        bounded += fabs(dcd_coef[i]) == C;
        zero += dcd_coef[i] == 0;
    }
    CHECK(bounded > 0 && zero > 0 && bounded + zero < V);   /* bounded, free and zero variables */
    CHECK(largest_svr_violation(&f, dcd_coef, C, epsilon) <= 1e-6);
    CHECK(largest_svr_violation(&f, smo_coef, C, epsilon) <= 1e-6);

    /* warm start from the solution: no step moves it */
    double warm_coef[V];
    km_svm_solution warm = {.coef = warm_coef};
    CHECK_OK(km_svr_solve_features(&f.access, f.z, C, epsilon, &options, dcd_coef, &warm));
    CHECK(warm.converged && warm.iterations <= 2 * V);
    CHECK_NEAR(warm.objective, dcd.objective, 1e-10 * fabs(dcd.objective));
    fixture_free(&f);
}

/* LIBSVM's violation max_{I_up} v - min_{I_low} v of the dual with bias at c (v = -y G over its variables,
 * G the gradient with g = Q c): SVC when y is given (a_i = y_i c_i, v = y_i - g_i, bound C_i), else SVR
 * (a_i = max(c_i, 0) with v = z_i - epsilon - g_i, a*_i = max(-c_i, 0) with v = z_i + epsilon - g_i). */
static double libsvm_violation(const fixture *f, const signed char *y, const double *coef, const double *C,
                               double epsilon)
{
    double g[V], up = -INFINITY, low = INFINITY;
    decision_values(f, coef, g);
    for (size_t i = 0; i < V; i++) {
        int labels[2] = {y ? y[i] : 1, -1};
        double a[2] = {y ? y[i] * coef[i] : fmax(coef[i], 0), fmax(-coef[i], 0)};
        double v[2] = {y ? y[i] - g[i] : f->z[i] - epsilon - g[i], f->z[i] + epsilon - g[i]};
        for (int k = 0; k < (y ? 1 : 2); k++) {
            if ((labels[k] > 0 && a[k] < C[i]) || (labels[k] < 0 && a[k] > 0))
                up = fmax(up, v[k]);
            if ((labels[k] > 0 && a[k] > 0) || (labels[k] < 0 && a[k] < C[i]))
                low = fmin(low, v[k]);
        }
    }
    return up - low;
}

KM_TEST_CASE(search_for_the_bias_solves_the_smo_problem_with_bias)
{
    fixture f;
    fixture_init(&f, low_rank);
    km_smo_options options = km_smo_options_default();
    options.tolerance = 1e-8;
    const double weights[2][2] = {{1.0, 1.0}, {1.0, 3.0}};
    for (int w = 0; w < 2; w++) {
        double smo_coef[V], dcd_coef[V], C = 2.0, upper[V], sum = 0, scale = 0;
        km_svm_solution smo = {.coef = smo_coef}, dcd = {.coef = dcd_coef};
        CHECK_OK(km_svc_solve(&f.access, f.y, C, weights[w][0], weights[w][1], &options, NULL, &smo));
        CHECK_OK(km_svc_solve_features_with_bias(&f.access, f.y, C, weights[w][0], weights[w][1], &options, NULL,
                                                 &dcd));
        CHECK(dcd.converged);
        CHECK_NEAR(dcd.objective, smo.objective, 1e-8 * fabs(smo.objective));
        CHECK_NEAR(dcd.bias, smo.bias, 1e-4);
        size_t bounded = 0;
        for (size_t i = 0; i < V; i++) {
            upper[i] = C * (f.y[i] > 0 ? weights[w][0] : weights[w][1]);
            CHECK_NEAR(dcd_coef[i], smo_coef[i], 1e-4);
            bounded += fabs(dcd_coef[i]) == upper[i];
            sum += dcd_coef[i];
            scale += fabs(dcd_coef[i]);
        }
        CHECK(bounded > 0 && bounded < V);
        CHECK(fabs(sum) <= 1e-12 * scale);
        CHECK(libsvm_violation(&f, f.y, dcd_coef, upper, 0) <= 1e-8);

        /* a warm start in the box that breaks sum_i y_i alpha_i = 0: the same optimum */
        double start[V], warm_coef[V];
        for (size_t i = 0; i < V; i++)
            start[i] = upper[i] / 2;
        km_svm_solution warm = {.coef = warm_coef};
        CHECK_OK(km_svc_solve_features_with_bias(&f.access, f.y, C, weights[w][0], weights[w][1], &options, start,
                                                 &warm));
        CHECK(warm.converged);
        CHECK_NEAR(warm.objective, smo.objective, 1e-8 * fabs(smo.objective));
        CHECK(libsvm_violation(&f, f.y, warm_coef, upper, 0) <= 1e-8);
    }
    fixture_free(&f);
}

KM_TEST_CASE(search_for_the_bias_solves_the_svr_with_bias)
{
    fixture f;
    fixture_init(&f, low_rank);
    km_smo_options options = km_smo_options_default();
    options.tolerance = 1e-8;
    double smo_coef[V], dcd_coef[V], C = 0.5, epsilon = 0.2, upper[V], sum = 0, scale = 0;
    km_svm_solution smo = {.coef = smo_coef}, dcd = {.coef = dcd_coef};
    CHECK_OK(km_svr_solve(&f.access, f.z, C, epsilon, &options, NULL, &smo));
    CHECK_OK(km_svr_solve_features_with_bias(&f.access, f.z, C, epsilon, &options, NULL, &dcd));
    CHECK(dcd.converged);
    CHECK_NEAR(dcd.objective, smo.objective, 1e-8 * fabs(smo.objective));
    CHECK_NEAR(dcd.bias, smo.bias, 1e-4);
    CHECK(fabs(smo.bias) > 1e-3);   /* a problem whose bias is not the first offset tried */
    size_t bounded = 0, zero = 0;
    for (size_t i = 0; i < V; i++) {
        upper[i] = C;
        CHECK_NEAR(dcd_coef[i], smo_coef[i], 1e-4);
        bounded += fabs(dcd_coef[i]) == C;
        zero += dcd_coef[i] == 0;
        sum += dcd_coef[i];
        scale += fabs(dcd_coef[i]);
    }
    CHECK(bounded > 0 && zero > 0 && bounded + zero < V);
    CHECK(fabs(sum) <= 1e-12 * scale);
    CHECK(libsvm_violation(&f, NULL, dcd_coef, upper, epsilon) <= 1e-8);

    double start[V], warm_coef[V];
    for (size_t i = 0; i < V; i++)
        start[i] = C;   /* sum_i c_i = V C */
    km_svm_solution warm = {.coef = warm_coef};
    CHECK_OK(km_svr_solve_features_with_bias(&f.access, f.z, C, epsilon, &options, start, &warm));
    CHECK(warm.converged);
    CHECK_NEAR(warm.objective, smo.objective, 1e-8 * fabs(smo.objective));
    fixture_free(&f);
}

KM_TEST_CASE(exact_kernels_have_no_features)
{
    static const char *const exact[M] = {"rbf:gamma=0.5", "poly:degree=2:rank=12", "linear:rank=4"};
    fixture f;
    fixture_init(&f, exact);
    km_feature_block blocks[M];
    CHECK(!km_kernel_access_features(&f.access, blocks));
    double coef[V];
    km_svm_solution solution = {.coef = coef};
    km_smo_options options = km_smo_options_default();
    CHECK_STATUS(km_svc_solve_features(&f.access, f.y, 1.0, 1.0, 1.0, &options, NULL, &solution), KM_EINVAL);
    CHECK_STATUS(km_svr_solve_features(&f.access, f.z, 1.0, 0.1, &options, NULL, &solution), KM_EINVAL);
    CHECK_STATUS(km_svc_solve_features_with_bias(&f.access, f.y, 1.0, 1.0, 1.0, &options, NULL, &solution),
                 KM_EINVAL);
    CHECK_STATUS(km_svr_solve_features_with_bias(&f.access, f.z, 1.0, 0.1, &options, NULL, &solution), KM_EINVAL);
    fixture_free(&f);
}
