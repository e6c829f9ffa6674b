/* km_smo_solve on C-SVC, epsilon-SVR (2n variables on n rows) and one-class problems: KKT conditions of
 * the returned point recomputed from scratch, equality constraint and bounds, warm starts, shrinking on
 * and off, a cache too small for the problem, duplicated rows (zero-curvature pairs), several fixed kernels,
 * limits and input errors. */
#include "check.h"
#include "core/error.h"
#include "test_svm_support.h"

enum { N = 160, D = 4 };

/* A dual problem with its own arrays; Q from the Gram matrices of the test kernels. */
typedef struct problem {
    km_qp qp;
    signed char y[2 * N];
    double p[2 * N], upper[2 * N], alpha[2 * N];
    size_t row_of[2 * N];
    double theta[3];
    const double *diag[3];
} problem;

static void problem_svc(problem *pb, test_kernel *k, const double *labels, double Cp, double Cn)
{
    memset(pb, 0, sizeof *pb);
    for (size_t i = 0; i < N; i++) {
        pb->y[i] = labels[i] > 0 ? 1 : -1;
        pb->p[i] = -1;
        pb->upper[i] = labels[i] > 0 ? Cp : Cn;
    }
    pb->theta[0] = 1;
    pb->diag[0] = k->diag;
    pb->qp = (km_qp){N, N, NULL, pb->y, pb->p, pb->upper, 1, pb->theta, test_kernel_column, k, pb->diag, NULL, NULL, 0, 0, 0, NULL, 0, 0, NULL};
}

static void problem_svr(problem *pb, test_kernel *k, const double *z, double C, double epsilon)
{
    memset(pb, 0, sizeof *pb);
    for (size_t i = 0; i < N; i++) {
        pb->y[i] = 1;
        pb->y[i + N] = -1;
        pb->p[i] = epsilon - z[i];
        pb->p[i + N] = epsilon + z[i];
        pb->upper[i] = pb->upper[i + N] = C;
        pb->row_of[i] = pb->row_of[i + N] = i;
    }
    pb->theta[0] = 1;
    pb->diag[0] = k->diag;
    pb->qp = (km_qp){2 * N, N, pb->row_of, pb->y, pb->p, pb->upper, 1, pb->theta, test_kernel_column, k, pb->diag,
                     NULL, NULL, 0, 0, 0, NULL, 0, 0, NULL};
}

static void problem_oneclass(problem *pb, test_kernel *k, double nu)
{
    memset(pb, 0, sizeof *pb);
    size_t full = (size_t)(nu * N);
    for (size_t i = 0; i < N; i++) {
        pb->y[i] = 1;
        pb->upper[i] = 1;
        pb->alpha[i] = i < full ? 1.0 : i == full ? nu * N - (double)full : 0.0;
    }
    pb->theta[0] = 1;
    pb->diag[0] = k->diag;
    pb->qp = (km_qp){N, N, NULL, pb->y, pb->p, pb->upper, 1, pb->theta, test_kernel_column, k, pb->diag, NULL, NULL, 0, 0, 0, NULL, 0, 0, NULL};
}

/* Q_st from the Gram matrices of the kernels with their weights. */
static double q_entry(const problem *pb, double *const *gram, size_t s, size_t t)
{
    size_t rs = pb->qp.row_of ? pb->qp.row_of[s] : s, rt = pb->qp.row_of ? pb->qp.row_of[t] : t;
    double k = 0;
    for (size_t m = 0; m < pb->qp.n_kernels; m++)
        k += pb->theta[m] * gram[m][rs * pb->qp.n_rows + rt];
    return pb->y[s] * pb->y[t] * k;
}

/* Checks the KKT conditions of alpha (violation m(a) - M(a) <= tolerance), bounds, y'a = y'start,
 * the objective and rho against values recomputed from the Gram matrices. */
static void check_kkt(const problem *pb, double *const *gram, const double *alpha, double start_sum,
                      const km_smo_result *res, double tolerance)
{
    size_t l = pb->qp.n_vars;
    double up = -INFINITY, low = INFINITY, ya = 0, obj = 0, free_sum = 0;
    size_t n_free = 0;
    for (size_t s = 0; s < l; s++) {
        double G = pb->p[s];
        for (size_t t = 0; t < l; t++)
            if (alpha[t] != 0.0)
                G += q_entry(pb, gram, s, t) * alpha[t];
        obj += alpha[s] * (0.5 * (G - pb->p[s]) + pb->p[s]);
        CHECK(alpha[s] >= 0 && alpha[s] <= pb->upper[s]);
        ya += pb->y[s] * alpha[s];
        double myG = -pb->y[s] * G;
        int in_up = (pb->y[s] > 0 && alpha[s] < pb->upper[s]) || (pb->y[s] < 0 && alpha[s] > 0);
        int in_low = (pb->y[s] > 0 && alpha[s] > 0) || (pb->y[s] < 0 && alpha[s] < pb->upper[s]);
        if (in_up)
            up = fmax(up, myG);
        if (in_low)
            low = fmin(low, myG);
        if (alpha[s] > 0 && alpha[s] < pb->upper[s]) {
            free_sum += pb->y[s] * G;
            n_free++;
        }
    }
    CHECK(up - low <= tolerance * (1 + 1e-6) + 1e-10);
    CHECK(res->violation <= tolerance);
    CHECK_NEAR(ya, start_sum, 1e-10 * l);
    CHECK_NEAR(res->objective, obj, 1e-10);
    if (n_free)
        CHECK_NEAR(res->rho, free_sum / n_free, 1e-9);
}

static double y_sum(const problem *pb)
{
    double s = 0;
    for (size_t t = 0; t < pb->qp.n_vars; t++)
        s += pb->y[t] * pb->alpha[t];
    return s;
}

/* Solves pb from pb->alpha and checks KKT; returns the result. */
static km_smo_result solve_checked(problem *pb, double *const *gram, const km_smo_options *options)
{
    double start = y_sum(pb);
    km_smo_result res = {0};
    CHECK_OK(km_smo_solve(&pb->qp, options, pb->alpha, &res));
    CHECK(res.converged);
    check_kkt(pb, gram, pb->alpha, start, &res, options->tolerance);
    return res;
}

static int failing_calls;
/* A kernel that fails after a number of columns. */
static km_status failing_column(void *ctx, size_t m, size_t i, const size_t *rows, size_t nrows, double *out)
{
    if (failing_calls-- <= 0)
        return km_error(KM_EIO, "test kernel: column %zu unavailable", i);
    return test_kernel_column(ctx, m, i, rows, nrows, out);
}

/* the data, kernels, options and problems every case shares */
static double X[N * D], labels[N], R[N * D], z[N];
static test_kernel kx[3], kr;
static double *gx[3], *gr[1];
static km_smo_options opt;
static problem pb, pb2;

static void setup(void)
{
    km_rng rng;
    km_rng_seed(&rng, 7);
    test_two_gaussians(&rng, N, D, X, labels);
    test_regression(&rng, N, D, R, z);
    test_kernel_init(&kx[0], X, N, D, 1, 0.3);
    test_kernel_init(&kx[1], X, N, D, 0, 0.0);
    test_kernel_init(&kx[2], X, N, D, 1, 2.0);
    test_kernel_init(&kr, R, N, D, 1, 0.5);
    for (int m = 0; m < 3; m++)
        gx[m] = test_gram(&kx[m]);
    gr[0] = test_gram(&kr);
    opt = km_smo_options_default();
    opt.tolerance = 1e-8;
}

static void teardown(void)
{
    for (int m = 0; m < 3; m++) {
        free(gx[m]);
        free(kx[m].diag);
    }
    free(gr[0]);
    free(kr.diag);
}

KM_TEST_FIXTURE(setup, teardown)

/* The C-SVC with class weights solved with the default options: pb holds its optimum. */
static km_smo_result solve_weighted_svc(void)
{
    problem_svc(&pb, &kx[0], labels, 1.0, 2.5);
    return solve_checked(&pb, gx, &opt);
}

/* The epsilon-SVR solved with the default options: pb holds its optimum. */
static km_smo_result solve_svr(void)
{
    problem_svr(&pb, &kr, z, 2.0, 0.1);
    return solve_checked(&pb, gr, &opt);
}

/* C-SVC with class weights: KKT, shrinking on/off, tiny cache */
KM_TEST_CASE(svc_shrinking_and_cache)
{
    km_smo_result shrunk = solve_weighted_svc();
    CHECK(shrunk.iterations > 0);
    opt.shrinking = 0;
    problem_svc(&pb, &kx[0], labels, 1.0, 2.5);
    km_smo_result plain = solve_checked(&pb, gx, &opt);
    CHECK_NEAR(plain.objective, shrunk.objective, 1e-6);
    opt.shrinking = 1;
    opt.cache_bytes = 1;   /* room for two columns only: every other access recomputes */
    problem_svc(&pb, &kx[0], labels, 1.0, 2.5);
    km_smo_result tiny = solve_checked(&pb, gx, &opt);
    CHECK(tiny.iterations == shrunk.iterations);
    CHECK(tiny.objective == shrunk.objective);
    opt.cache_bytes = km_smo_options_default().cache_bytes;
    printf("C-SVC %ld iterations (%ld without shrinking), objective %.12g\n", shrunk.iterations, plain.iterations,
           shrunk.objective);
}

/* warm start from the optimum: no step, same objective */
KM_TEST_CASE(svc_warm_start_at_optimum)
{
    km_smo_result shrunk = solve_weighted_svc();
    km_smo_result again = solve_checked(&pb, gx, &opt);
    CHECK(again.iterations == 0);
    CHECK_NEAR(again.objective, shrunk.objective, 1e-12);
}

/* h_m = K_m c at pb's start from the Gram matrices, c_r = y_r a_r (what an MKL caller has from its
 * certificate). */
static void exact_products(const problem *pb, double *const *gram, double *h)
{
    size_t n = pb->qp.n_rows;
    for (size_t m = 0; m < pb->qp.n_kernels; m++)
        for (size_t i = 0; i < n; i++) {
            h[m * n + i] = 0;
            for (size_t j = 0; j < n; j++)
                h[m * n + i] += gram[m][i * n + j] * pb->y[j] * pb->alpha[j];
        }
}

/* warm start after changing C (larger: the old point stays feasible; smaller: scaled) equals cold, with
 * the start gradient computed from kernel columns or from the products given with the start (G_bar then
 * computed only where a reconstruction after shrinking needs it, as it does from the scaled start) */
KM_TEST_CASE(svc_warm_start_after_c_change)
{
    solve_weighted_svc();
    const double factors[2] = {1.7, 0.6};
    double h[N];
    for (int f = 0; f < 2; f++) {
        double factor = factors[f];
        problem_svc(&pb2, &kx[0], labels, factor, 2.5 * factor);
        km_smo_result cold = solve_checked(&pb2, gx, &opt);
        for (int given = 0; given < 2; given++) {
            problem_svc(&pb2, &kx[0], labels, factor, 2.5 * factor);
            for (size_t i = 0; i < N; i++)
                pb2.alpha[i] = factor < 1 ? pb.alpha[i] * factor : pb.alpha[i];
            exact_products(&pb2, gx, h);
            pb2.qp.start_products = given ? h : NULL;
            km_smo_result warm = solve_checked(&pb2, gx, &opt);
            CHECK_NEAR(warm.objective, cold.objective, 1e-8);
            CHECK(warm.iterations < cold.iterations);
        }
    }
    problem_svc(&pb2, &kx[0], labels, 1.0, 2.5);
    h[3] = NAN;
    pb2.qp.start_products = h;
    km_smo_result res;
    CHECK_STATUS(km_smo_solve(&pb2.qp, &opt, pb2.alpha, &res), KM_EINVAL);
}

/* km_svc_solve with the products K c of its warm start: no step at the optimum, and the same solution
 * as from kernel columns after a change of the kernel weights */
KM_TEST_CASE(svc_start_products)
{
    signed char y[N];
    double theta[2] = {0.5, 0.5}, alpha_start[N], coef[N], cold_coef[N], products[2 * N];
    const double *diag[2] = {kx[0].diag, kx[2].diag};
    for (size_t i = 0; i < N; i++)
        y[i] = labels[i] > 0 ? 1 : -1;
    test_kernel pair[2] = {kx[0], kx[2]};
    km_kernel_access access = {N, 2, theta, test_kernel_column, pair, diag, NULL, NULL, NULL, 0, NULL, 0, 0, NULL};
    km_svm_solution first = {.coef = coef};
    CHECK_OK(km_svc_solve(&access, y, 1.0, 1.0, 1.0, &opt, NULL, &first));
    for (size_t m = 0; m < 2; m++)
        for (size_t i = 0; i < N; i++) {
            products[m * N + i] = 0;
            for (size_t j = 0; j < N; j++)
                products[m * N + i] += gx[2 * m][i * N + j] * coef[j];
        }
    for (size_t i = 0; i < N; i++)
        alpha_start[i] = y[i] * coef[i];
    km_svm_solution again = {.coef = coef, .start_products = products};
    CHECK_OK(km_svc_solve(&access, y, 1.0, 1.0, 1.0, &opt, alpha_start, &again));
    CHECK(again.iterations == 0);
    CHECK_NEAR(again.objective, first.objective, 1e-12);
    theta[0] = 0.8;   /* a weight step: the products stay those of the start */
    theta[1] = 0.2;
    km_svm_solution cold = {.coef = cold_coef};
    CHECK_OK(km_svc_solve(&access, y, 1.0, 1.0, 1.0, &opt, alpha_start, &cold));
    km_svm_solution warm = {.coef = coef, .start_products = products};
    CHECK_OK(km_svc_solve(&access, y, 1.0, 1.0, 1.0, &opt, alpha_start, &warm));
    CHECK_NEAR(warm.objective, cold.objective, 1e-10);
    CHECK_NEAR(warm.bias, cold.bias, 1e-6);
    for (size_t i = 0; i < N; i++)
        CHECK_NEAR(coef[i], cold_coef[i], 1e-5);
}

/* the same through km_svc_solve's alpha_start */
KM_TEST_CASE(svc_alpha_start)
{
    km_smo_result shrunk = solve_weighted_svc();
    signed char y[N];
    double theta = 1, alpha_start[N], coef[N];
    for (size_t i = 0; i < N; i++) {
        y[i] = pb.y[i];
        alpha_start[i] = pb.alpha[i];
    }
    const double *diag[1] = {kx[0].diag};
    km_kernel_access access = {N, 1, &theta, test_kernel_column, &kx[0], diag, NULL, NULL, NULL, 0, NULL, 0, 0, NULL};
    km_svm_solution sol = {.coef = coef};
    CHECK_OK(km_svc_solve(&access, y, 1.0, 1.0, 2.5, &opt, alpha_start, &sol));
    CHECK(sol.iterations == 0);
    CHECK_NEAR(sol.objective, shrunk.objective, 1e-12);
    CHECK_NEAR(sol.bias, -shrunk.rho, 1e-12);
    for (size_t i = 0; i < N; i++)
        CHECK(coef[i] == y[i] * pb.alpha[i]);
    signed char one_class[N];
    memset(one_class, 1, sizeof one_class);
    CHECK_STATUS(km_svc_solve(&access, one_class, 1.0, 1.0, 1.0, &opt, NULL, &sol), KM_EINVAL);
    CHECK_STATUS(km_svc_solve(&access, y, -1.0, 1.0, 1.0, &opt, NULL, &sol), KM_EINVAL);
}

/* duplicated rows (a singular Q: pairs with zero curvature take LIBSVM's tau step) */
KM_TEST_CASE(duplicated_rows)
{
    static double Xdup[N * D];
    memcpy(Xdup, X, N / 2 * D * sizeof *X);
    memcpy(Xdup + N / 2 * D, X, N / 2 * D * sizeof *X);
    double labels_dup[N];
    for (size_t i = 0; i < N; i++)
        labels_dup[i] = labels[i % (N / 2)];
    test_kernel kd;
    test_kernel_init(&kd, Xdup, N, D, 0, 0.0);
    double *gd[1] = {test_gram(&kd)};
    problem_svc(&pb, &kd, labels_dup, 0.8, 0.8);
    km_smo_result dup = solve_checked(&pb, gd, &opt);
    opt.shrinking = 0;
    problem_svc(&pb, &kd, labels_dup, 0.8, 0.8);
    km_smo_result dup_plain = solve_checked(&pb, gd, &opt);
    opt.shrinking = 1;
    CHECK_NEAR(dup_plain.objective, dup.objective, 1e-6);
    /* the same machine as the undoubled problem with twice the C */
    test_kernel kh;
    test_kernel_init(&kh, X, N / 2, D, 0, 0.0);
    double *gh[1] = {test_gram(&kh)};
    problem_svc(&pb2, &kh, labels, 1.6, 1.6);
    pb2.qp.n_vars = pb2.qp.n_rows = N / 2;
    km_smo_result half = solve_checked(&pb2, gh, &opt);
    CHECK_NEAR(dup.objective, half.objective, 1e-7);
    free(gd[0]);
    free(gh[0]);
    free(kd.diag);
    free(kh.diag);
}

/* several fixed kernels, one of weight 0: same as the weighted sum computed by hand */
KM_TEST_CASE(fixed_kernels_combined)
{
    problem_svc(&pb, &kx[0], labels, 1.0, 1.0);
    pb.qp.n_kernels = 3;
    pb.qp.column_ctx = kx;
    pb.theta[0] = 0.25;
    pb.theta[1] = 0.0;
    pb.theta[2] = 0.75;
    pb.diag[1] = kx[1].diag;
    pb.diag[2] = kx[2].diag;
    km_smo_result combined = solve_checked(&pb, gx, &opt);
    CHECK(combined.iterations > 0);
}

/* epsilon-SVR: 2n variables on n rows */
KM_TEST_CASE(svr)
{
    km_smo_result svr = solve_svr();
    opt.shrinking = 0;
    problem_svr(&pb, &kr, z, 2.0, 0.1);
    km_smo_result svr_plain = solve_checked(&pb, gr, &opt);
    CHECK_NEAR(svr_plain.objective, svr.objective, 1e-6);
    opt.shrinking = 1;
    for (size_t i = 0; i < N; i++)   /* alpha_i alpha*_i = 0 at the optimum for epsilon > 0 */
        CHECK(pb.alpha[i] == 0.0 || pb.alpha[i + N] == 0.0);
    km_smo_result svr_again = solve_checked(&pb, gr, &opt);
    CHECK(svr_again.iterations == 0);
    printf("SVR %ld iterations\n", svr.iterations);
}

/* warm starts through km_svr_solve (2n variables split from coef) and km_oneclass_solve */
KM_TEST_CASE(svr_and_oneclass_warm_starts)
{
    km_smo_result svr = solve_svr();
    double theta = 1, coef[N], start[2 * N];
    const double *diag[1] = {kr.diag};
    km_kernel_access access = {N, 1, &theta, test_kernel_column, &kr, diag, NULL, NULL, NULL, 0, NULL, 0, 0, NULL};
    km_svm_solution sol = {.coef = coef};
    CHECK_OK(km_svr_solve(&access, z, 2.0, 0.1, &opt, NULL, &sol));
    CHECK_NEAR(sol.objective, svr.objective, 1e-9);
    for (size_t i = 0; i < N; i++) {
        start[i] = fmax(coef[i], 0.0);
        start[i + N] = fmax(-coef[i], 0.0);
    }
    CHECK_OK(km_svr_solve(&access, z, 2.0, 0.1, &opt, start, &sol));
    CHECK(sol.iterations == 0);
    CHECK_NEAR(sol.objective, svr.objective, 1e-9);
    CHECK_STATUS(km_svr_solve(&access, z, 2.0, -0.1, &opt, NULL, &sol), KM_EINVAL);

    const double *diag_x[1] = {kx[0].diag};
    km_kernel_access access_x = {N, 1, &theta, test_kernel_column, &kx[0], diag_x, NULL, NULL, NULL, 0, NULL, 0, 0, NULL};
    CHECK_OK(km_oneclass_solve(&access_x, 0.37, &opt, NULL, &sol));
    double total = 0;
    for (size_t i = 0; i < N; i++) {
        CHECK(coef[i] >= 0 && coef[i] <= 1);
        total += coef[i];
        start[i] = coef[i];
    }
    CHECK_NEAR(total, 0.37 * N, 1e-10);
    double cold_objective = sol.objective;
    CHECK_OK(km_oneclass_solve(&access_x, 0.37, &opt, start, &sol));
    CHECK(sol.iterations == 0);
    CHECK_NEAR(sol.objective, cold_objective, 1e-12);
    CHECK_STATUS(km_oneclass_solve(&access_x, 1.5, &opt, NULL, &sol), KM_EINVAL);
}

/* one-class: sum a = nu n is kept */
KM_TEST_CASE(oneclass)
{
    problem_oneclass(&pb, &kx[0], 0.37);
    km_smo_result oc = solve_checked(&pb, gx, &opt);
    double sum = 0;
    for (size_t i = 0; i < N; i++)
        sum += pb.alpha[i];
    CHECK_NEAR(sum, 0.37 * N, 1e-10);
    opt.shrinking = 0;
    problem_oneclass(&pb, &kx[0], 0.37);
    km_smo_result oc_plain = solve_checked(&pb, gx, &opt);
    CHECK_NEAR(oc_plain.objective, oc.objective, 1e-6);
    opt.shrinking = 1;
    printf("one-class %ld iterations\n", oc.iterations);
}

/* iteration limit: stops, says so, and still returns a feasible point with its objective */
KM_TEST_CASE(iteration_limit)
{
    opt.max_iter = 5;
    problem_svc(&pb, &kx[0], labels, 1.0, 1.0);
    km_smo_result limited = {0};
    CHECK_OK(km_smo_solve(&pb.qp, &opt, pb.alpha, &limited));
    CHECK(!limited.converged && limited.iterations == 5);
    CHECK(limited.violation > opt.tolerance);
    opt.max_iter = 0;
}

/* input errors and a failing kernel */
KM_TEST_CASE(input_errors)
{
    problem_svc(&pb, &kx[0], labels, 1.0, 1.0);
    km_smo_result res;
    pb.alpha[3] = 2.0;
    CHECK_STATUS(km_smo_solve(&pb.qp, &opt, pb.alpha, &res), KM_EINVAL);
    pb.alpha[3] = 0.0;
    pb.y[5] = 0;
    CHECK_STATUS(km_smo_solve(&pb.qp, &opt, pb.alpha, &res), KM_EINVAL);
    pb.y[5] = 1;
    pb.theta[0] = -1;
    CHECK_STATUS(km_smo_solve(&pb.qp, &opt, pb.alpha, &res), KM_EINVAL);
    pb.theta[0] = 1;
    pb.qp.column = failing_column;
    failing_calls = 3;
    CHECK_STATUS(km_smo_solve(&pb.qp, &opt, pb.alpha, &res), KM_EIO);
    CHECK(strstr(km_last_error(), "unavailable") != NULL);
}
