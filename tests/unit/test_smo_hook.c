/* The MKL hook of km_smo_solve (spec/lpmkl.md §3.3): lin and quad_m reported at every call equal
 * -p'a and 1/2 a'Q_m a recomputed from the Gram matrices; a theta changed mid-solve (or at the
 * fixed-theta optimum) ends where a cold solve with the final theta ends; KM_HOOK_STOP stops. */
#include "check.h"
#include "test_svm_support.h"

enum { N = 150, D = 4, M = 3 };

typedef struct hook_state {
    const double *const *gram;   /* M Gram matrices over the n rows */
    const size_t *row_of;        /* NULL: identity */
    const signed char *y;
    const double *p;
    size_t l, n;
    long calls, optimal_calls;
    double worst_quad, worst_lin;
    long change_at;              /* call at which theta is set to new_theta (0: never) */
    int change_at_optimum;       /* set new_theta at the first optimal call (2: at every one) */
    const double *new_theta;
    long stop_at;                /* call answered with KM_HOOK_STOP (0: never) */
    double *last_alpha;          /* a at the last call */
    long last_iteration;
} hook_state;

static km_hook_action recording_hook(void *ctx, const km_smo_step *step, double *theta)
{
    hook_state *hs = ctx;
    hs->calls++;
    CHECK(step->iteration >= hs->last_iteration);
    hs->last_iteration = step->iteration;
    memcpy(hs->last_alpha, step->alpha, hs->l * sizeof *hs->last_alpha);
    double lin = 0;
    for (size_t t = 0; t < hs->l; t++)
        lin -= hs->p[t] * step->alpha[t];
    hs->worst_lin = fmax(hs->worst_lin, fabs(step->lin - lin) / fmax(fabs(lin), 1.0));
    for (size_t m = 0; m < M; m++) {
        double quad = 0;
        for (size_t s = 0; s < hs->l; s++) {
            if (step->alpha[s] == 0.0)
                continue;
            size_t rs = hs->row_of ? hs->row_of[s] : s;
            for (size_t t = 0; t < hs->l; t++) {
                size_t rt = hs->row_of ? hs->row_of[t] : t;
                quad += hs->y[s] * hs->y[t] * step->alpha[s] * step->alpha[t] * hs->gram[m][rs * hs->n + rt];
            }
        }
        quad *= 0.5;
        hs->worst_quad = fmax(hs->worst_quad, fabs(step->quad[m] - quad) / fmax(fabs(quad), 1e-300));
    }
    if (step->optimal) {
        hs->optimal_calls++;
        CHECK(step->violation >= 0);
        if (hs->change_at_optimum == 2 || (hs->change_at_optimum && hs->optimal_calls == 1)) {
            memcpy(theta, hs->new_theta, M * sizeof *theta);
            return KM_HOOK_THETA_CHANGED;
        }
    }
    if (hs->stop_at && hs->calls == hs->stop_at)
        return KM_HOOK_STOP;
    if (hs->change_at && hs->calls == hs->change_at) {
        memcpy(theta, hs->new_theta, M * sizeof *theta);
        return KM_HOOK_THETA_CHANGED;
    }
    return KM_HOOK_CONTINUE;
}

/* f(x_t) = sum_i coef_i K_theta(x_i, x_t) + bias on the training rows. */
static void decision_values(const double *const *gram, const double *theta, const double *coef, double bias,
                            double *f)
{
    for (size_t t = 0; t < N; t++) {
        double s = bias;
        for (size_t i = 0; i < N; i++)
            for (size_t m = 0; m < M; m++)
                s += coef[i] * theta[m] * gram[m][i * N + t];
        f[t] = s;
    }
}

/* the data, kernels and options every case shares */
static double X[N * D], labels[N], R[N * D], z[N];
static test_kernel kx[M], kr[M];
static double *gx[M], *gr[M];
static const double *dx[M], *dr[M];
static signed char y[N];
static double last_alpha[2 * N], coef[N], coef_cold[N], f[N], f_cold[N];
static km_smo_options opt;
static const double final_theta[M] = {0.5, 0.2, 0.9};

static void setup(void)
{
    km_rng rng;
    km_rng_seed(&rng, 99);
    test_two_gaussians(&rng, N, D, X, labels);
    test_regression(&rng, N, D, R, z);
    const double gammas[M] = {0.1, 0.0, 1.5};   /* rbf, linear, rbf */
    for (int m = 0; m < M; m++) {
        test_kernel_init(&kx[m], X, N, D, gammas[m] > 0, gammas[m]);
        test_kernel_init(&kr[m], R, N, D, gammas[m] > 0, gammas[m]);
        gx[m] = test_gram(&kx[m]);
        gr[m] = test_gram(&kr[m]);
        dx[m] = kx[m].diag;
        dr[m] = kr[m].diag;
    }
    for (size_t i = 0; i < N; i++)
        y[i] = labels[i] > 0 ? 1 : -1;
    opt = km_smo_options_default();
    opt.tolerance = 1e-8;
    opt.hook = recording_hook;
    opt.hook_every = 1;
}

static void teardown(void)
{
    for (int m = 0; m < M; m++) {
        free(gx[m]);
        free(gr[m]);
        free(kx[m].diag);
        free(kr[m].diag);
    }
}

KM_TEST_FIXTURE(setup, teardown)

/* C-SVC through km_svc_solve, reports checked every `every` steps; theta 0 for one kernel still reports
 * its quad */
static void check_reports(int every)
{
    double theta[M] = {1.0, 0.0, 0.5};
    double p[N];
    for (size_t i = 0; i < N; i++)
        p[i] = -1;
    hook_state hs = {(const double *const *)gx, NULL, y, p, N, N, 0, 0, 0, 0, 0, 0, NULL, 0, last_alpha, 0};
    opt.hook_ctx = &hs;
    opt.hook_every = every;
    km_kernel_access access = {N, M, theta, test_kernel_column, kx, dx, NULL, NULL, NULL, 0, NULL, 0, 0, NULL};
    km_svm_solution sol = {.coef = coef};
    CHECK_OK(km_svc_solve(&access, y, 1.0, 1.0, 1.0, &opt, NULL, &sol));
    CHECK(sol.converged);
    CHECK(hs.calls >= sol.iterations / every);
    CHECK(hs.optimal_calls == 1);
    CHECK(hs.worst_quad <= 1e-9);
    CHECK(hs.worst_lin <= 1e-12);
    /* the hook solve matches the plain solve on the same combination */
    km_smo_options plain = opt;
    plain.hook = NULL;
    km_svm_solution cold = {.coef = coef_cold};
    CHECK_OK(km_svc_solve(&access, y, 1.0, 1.0, 1.0, &plain, NULL, &cold));
    CHECK_NEAR(sol.objective, cold.objective, 1e-9);
    printf("hook every %d: %ld calls over %ld iterations, worst quad error %.2e, objective %.12g (plain %.12g)\n",
           every, hs.calls, sol.iterations, hs.worst_quad, sol.objective, cold.objective);
}

/* C-SVC with the recording hook through two accesses to the same kernels: the same steps and the same
 * solution, bit for bit, and quad_m exact at every report of both. */
static void check_same_solution(hook_state *hs, const km_kernel_access *first, const km_kernel_access *second)
{
    double coef_second[N];
    opt.hook_ctx = hs;
    km_svm_solution a = {.coef = coef}, b = {.coef = coef_second};
    CHECK_OK(km_svc_solve(first, y, 1.0, 1.0, 1.0, &opt, NULL, &a));
    long calls = hs->calls;
    hs->last_iteration = 0;
    CHECK_OK(km_svc_solve(second, y, 1.0, 1.0, 1.0, &opt, NULL, &b));
    CHECK(a.converged && b.converged);
    CHECK(a.iterations == b.iterations && hs->calls == 2 * calls);
    CHECK(a.bias == b.bias && a.objective == b.objective);
    for (size_t i = 0; i < N; i++)
        CHECK(coef[i] == coef_second[i]);
    CHECK(hs->worst_quad <= 1e-9);
}

/* Kernel columns the access marks as derived (cheap to recompute) are kept in a few slots instead of
 * the cache: the same steps, the same solution, bit for bit. */
KM_TEST_CASE(derived_columns_same_solution)
{
    double theta[M] = {1.0, 0.3, 0.5};
    double p[N];
    for (size_t i = 0; i < N; i++)
        p[i] = -1;
    hook_state hs = {(const double *const *)gx, NULL, y, p, N, N, 0, 0, 0, 0, 0, 0, NULL, 0, last_alpha, 0};
    km_kernel_access cached = {N, M, theta, test_kernel_column, kx, dx, NULL, NULL, NULL, 0, NULL, 0, 0, NULL};
    km_kernel_access derived = cached;
    derived.columns_derived = 1;
    check_same_solution(&hs, &cached, &derived);
}

/* Gram matrices stored as doubles or floats, served as copied columns (column) or in place (rows). */
typedef struct stored_grams {
    const double *const *gram;
    const float *const *gram32;   /* NULL: gram */
} stored_grams;

static km_status stored_column(void *ctx, size_t m, size_t i, const size_t *rows, size_t nrows, double *out)
{
    const stored_grams *g = ctx;
    for (size_t k = 0; k < nrows; k++) {
        size_t r = rows ? rows[k] : k;
        out[k] = g->gram32 ? (double)g->gram32[m][i * N + r] : g->gram[m][i * N + r];
    }
    return KM_OK;
}

static km_status stored_rows(void *ctx, size_t i, const void **values)
{
    const stored_grams *g = ctx;
    for (size_t m = 0; m < M; m++)
        values[m] = g->gram32 ? (const void *)(g->gram32[m] + i * N) : (const void *)(g->gram[m] + i * N);
    return KM_OK;
}

/* Kernel columns read in place (kernel_rows, no per-kernel cache) give the solve of copied columns, bit
 * for bit, with float and with double storage; the reported quad_m stay exact for the stored values. */
static void check_in_place(int single)
{
    double theta[M] = {1.0, 0.3, 0.5};
    double p[N];
    float *g32[M];
    double *rounded[M];   /* the float values as doubles, for the hook's check of quad_m */
    for (size_t i = 0; i < N; i++)
        p[i] = -1;
    for (int m = 0; m < M; m++) {
        g32[m] = malloc(N * N * sizeof *g32[m]);
        rounded[m] = malloc(N * N * sizeof *rounded[m]);
        for (size_t k = 0; k < N * N; k++)
            rounded[m][k] = (double)(g32[m][k] = (float)gx[m][k]);
    }
    const double *diag32[M];
    double *diag_values = malloc(M * N * sizeof *diag_values);
    for (int m = 0; m < M; m++) {
        for (size_t i = 0; i < N; i++)
            diag_values[m * N + i] = rounded[m][i * N + i];
        diag32[m] = diag_values + m * N;
    }
    stored_grams grams = {(const double *const *)gx, single ? (const float *const *)g32 : NULL};
    hook_state hs = {single ? (const double *const *)rounded : (const double *const *)gx, NULL, y, p, N, N, 0, 0, 0,
                     0, 0, 0, NULL, 0, last_alpha, 0};
    const double *const *diag = single ? diag32 : dx;
    km_kernel_access copied = {N, M, theta, stored_column, &grams, diag, NULL, NULL, NULL, 0, NULL, 0, 0, NULL};
    km_kernel_access in_place = copied;
    in_place.kernel_rows = stored_rows;
    in_place.kernel_rows_size = single ? sizeof(float) : sizeof(double);
    check_same_solution(&hs, &copied, &in_place);
    for (int m = 0; m < M; m++) {
        free(g32[m]);
        free(rounded[m]);
    }
    free(diag_values);
}

KM_TEST_CASE(in_place_float_columns_same_solution) { check_in_place(1); }
KM_TEST_CASE(in_place_double_columns_same_solution) { check_in_place(0); }

KM_TEST_CASE(reports_every_step) { check_reports(1); }
KM_TEST_CASE(reports_every_7_steps) { check_reports(7); }

/* theta changed mid-solve (at_optimum 0) and at the first optimum (1): same objective and decision
 * values as cold */
static void check_theta_change(int at_optimum)
{
    double theta[M] = {1.0, 1.0, 1.0};
    double p[N];
    for (size_t i = 0; i < N; i++)
        p[i] = -1;
    hook_state hs = {(const double *const *)gx, NULL, y, p, N, N, 0, 0, 0, 0,
                     at_optimum ? 0 : 40, at_optimum, final_theta, 0, last_alpha, 0};
    opt.hook_ctx = &hs;
    km_kernel_access access = {N, M, theta, test_kernel_column, kx, dx, NULL, NULL, NULL, 0, NULL, 0, 0, NULL};
    km_svm_solution sol = {.coef = coef};
    CHECK_OK(km_svc_solve(&access, y, 2.0, 1.0, 1.0, &opt, NULL, &sol));
    for (int m = 0; m < M; m++)
        CHECK(theta[m] == final_theta[m]);
    CHECK(hs.worst_quad <= 1e-9);
    km_smo_options plain = opt;
    plain.hook = NULL;
    km_svm_solution cold = {.coef = coef_cold};
    CHECK_OK(km_svc_solve(&access, y, 2.0, 1.0, 1.0, &plain, NULL, &cold));
    CHECK_NEAR(sol.objective, cold.objective, 1e-8);
    decision_values((const double *const *)gx, final_theta, coef, sol.bias, f);
    decision_values((const double *const *)gx, final_theta, coef_cold, cold.bias, f_cold);
    double worst = 0;
    for (size_t t = 0; t < N; t++)
        worst = fmax(worst, fabs(f[t] - f_cold[t]));
    CHECK(worst <= 1e-5);
    printf("theta change %s: objective %.12g (cold %.12g), decision values within %.2e\n",
           at_optimum ? "at the optimum" : "after 40 steps", sol.objective, cold.objective, worst);
}

KM_TEST_CASE(theta_change_mid_solve) { check_theta_change(0); }
KM_TEST_CASE(theta_change_at_optimum) { check_theta_change(1); }

/* epsilon-SVR (2n variables on n rows): reports and a theta change mid-solve */
KM_TEST_CASE(svr)
{
    double theta[M] = {0.3, 0.3, 0.3};
    double p[2 * N];
    signed char ysvr[2 * N];
    size_t row_of[2 * N];
    const double epsilon = 0.1;
    for (size_t i = 0; i < N; i++) {
        p[i] = epsilon - z[i];
        p[i + N] = epsilon + z[i];
        ysvr[i] = 1;
        ysvr[i + N] = -1;
        row_of[i] = row_of[i + N] = i;
    }
    hook_state hs = {(const double *const *)gr, row_of, ysvr, p, 2 * N, N, 0, 0, 0, 0, 25, 0, final_theta, 0,
                     last_alpha, 0};
    opt.hook_ctx = &hs;
    km_kernel_access access = {N, M, theta, test_kernel_column, kr, dr, NULL, NULL, NULL, 0, NULL, 0, 0, NULL};
    km_svm_solution sol = {.coef = coef};
    CHECK_OK(km_svr_solve(&access, z, 1.0, epsilon, &opt, NULL, &sol));
    CHECK(hs.calls > 25);
    CHECK(hs.worst_quad <= 1e-9);
    CHECK(hs.worst_lin <= 1e-12);
    km_smo_options plain = opt;
    plain.hook = NULL;
    km_svm_solution cold = {.coef = coef_cold};
    CHECK_OK(km_svr_solve(&access, z, 1.0, epsilon, &plain, NULL, &cold));
    CHECK_NEAR(sol.objective, cold.objective, 1e-8);
    decision_values((const double *const *)gr, final_theta, coef, sol.bias, f);
    decision_values((const double *const *)gr, final_theta, coef_cold, cold.bias, f_cold);
    double worst = 0;
    for (size_t t = 0; t < N; t++)
        worst = fmax(worst, fabs(f[t] - f_cold[t]));
    CHECK(worst <= 1e-5);
    printf("SVR: %ld hook calls, worst quad error %.2e, objective %.12g (cold %.12g)\n", hs.calls,
           hs.worst_quad, sol.objective, cold.objective);
}

/* KM_HOOK_STOP: the solver returns at once with the point the hook saw */
KM_TEST_CASE(hook_stop)
{
    double theta[M] = {1.0, 1.0, 1.0};
    signed char yy[N];
    double p[N], upper[N], alpha[N] = {0};
    for (size_t i = 0; i < N; i++) {
        yy[i] = y[i];
        p[i] = -1;
        upper[i] = 1;
    }
    hook_state hs = {(const double *const *)gx, NULL, y, p, N, N, 0, 0, 0, 0, 0, 0, NULL, 10, last_alpha, 0};
    opt.hook_ctx = &hs;
    km_qp qp = {N, N, NULL, yy, p, upper, M, theta, test_kernel_column, kx, dx, NULL, NULL, 0, 0, 0, NULL, 0, 0, NULL};
    km_smo_result res;
    CHECK_OK(km_smo_solve(&qp, &opt, alpha, &res));
    CHECK(hs.calls == 10);
    CHECK(res.iterations == 10);
    CHECK(memcmp(alpha, last_alpha, sizeof alpha) == 0);
    CHECK(res.violation > opt.tolerance);
}

/* a hook that changes theta at every optimum without end is stopped by the iteration limit */
KM_TEST_CASE(endless_theta_changes)
{
    double theta[M] = {1.0, 1.0, 1.0};
    double p[N];
    for (size_t i = 0; i < N; i++)
        p[i] = -1;
    hook_state hs = {(const double *const *)gx, NULL, y, p, N, N, 0, 0, 0, 0, 0, 2, final_theta, 0, last_alpha, 0};
    opt.hook_ctx = &hs;
    opt.max_iter = 1000;
    km_kernel_access access = {N, M, theta, test_kernel_column, kx, dx, NULL, NULL, NULL, 0, NULL, 0, 0, NULL};
    km_svm_solution sol = {.coef = coef};
    CHECK_OK(km_svc_solve(&access, y, 1.0, 1.0, 1.0, &opt, NULL, &sol));
    CHECK(!sol.converged);
    CHECK(hs.optimal_calls > 1 && hs.optimal_calls + sol.iterations == 1000);
    opt.max_iter = 0;
}
