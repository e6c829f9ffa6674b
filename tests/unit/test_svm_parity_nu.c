/* Parity of nu-SVC and nu-SVR (LIBSVM's Solver_NU) with Debian's LIBSVM 3.24 on generated data
 * (tests/cli/test_libsvm_parity.sh adds packaged data and multiclass): same dual objective (1e-6
 * relative), same bias (rho; nu-SVC after the scaling by 1/r), same predictions; shrinking on and off.
 * Then the warm start: a solve started from its own solution needs (almost) no step, and one started
 * from another nu's solution reaches the same optimum. */
#include "check.h"
#include "test_svm_support.h"

enum { N = 200, NT = 200, D = 5 };

static double X[N * D], y[N], Xt[NT * D], yt[NT];
static double R[N * D], z[N], Rt[NT * D], zt[NT];

static void setup(void)
{
    km_rng rng;
    km_rng_seed(&rng, 20260309);
    test_two_gaussians(&rng, N, D, X, y);
    test_two_gaussians(&rng, NT, D, Xt, yt);
    test_regression(&rng, N, D, R, z);
    test_regression(&rng, NT, D, Rt, zt);
}

KM_TEST_FIXTURE(setup, NULL)

static void parity(const char *name, test_task task, int rbf, double gamma, double C, double nu, int shrinking,
                   int generated_regression)
{
    if (!test_have_libsvm())
        KM_TEST_SKIP(KM_SVM_TRAIN " / " KM_SVM_PREDICT " not installed (Debian package libsvm-tools)");
    const double *train = generated_regression ? R : X, *target = generated_regression ? z : y;
    const double *test = generated_regression ? Rt : Xt, *target_t = generated_regression ? zt : yt;
    test_parity_case pc = {name, task, rbf, gamma, C, 0, nu, 1e-7, shrinking, train, target, N, D, test, target_t, NT};
    test_parity(&pc);
}

KM_TEST_CASE(nu_svc_linear) { parity("nu-SVC linear", TEST_NU_SVC, 0, 0, 0, 0.3, 0, 0); }
KM_TEST_CASE(nu_svc_linear_shrinking) { parity("nu-SVC linear", TEST_NU_SVC, 0, 0, 0, 0.3, 1, 0); }
KM_TEST_CASE(nu_svc_rbf) { parity("nu-SVC rbf", TEST_NU_SVC, 1, 0.2, 0, 0.5, 0, 0); }
KM_TEST_CASE(nu_svc_rbf_shrinking) { parity("nu-SVC rbf", TEST_NU_SVC, 1, 0.2, 0, 0.5, 1, 0); }
KM_TEST_CASE(nu_svc_rbf_small_nu) { parity("nu-SVC rbf nu 0.05", TEST_NU_SVC, 1, 1.0, 0, 0.05, 1, 0); }
KM_TEST_CASE(nu_svr_linear) { parity("nu-SVR linear", TEST_NU_SVR, 0, 0, 1.0, 0.4, 0, 1); }
KM_TEST_CASE(nu_svr_linear_shrinking) { parity("nu-SVR linear", TEST_NU_SVR, 0, 0, 1.0, 0.4, 1, 1); }
KM_TEST_CASE(nu_svr_rbf) { parity("nu-SVR rbf", TEST_NU_SVR, 1, 0.5, 10.0, 0.2, 0, 1); }
KM_TEST_CASE(nu_svr_rbf_shrinking) { parity("nu-SVR rbf", TEST_NU_SVR, 1, 0.5, 10.0, 0.2, 1, 1); }

/* nu beyond the smaller class: LIBSVM's "specified nu is infeasible", here KM_EINVAL with the bound */
KM_TEST_CASE(nu_svc_infeasible)
{
    double Xs[6] = {0, 1, 2, 3, 4, 5};
    signed char ys[6] = {1, 1, 1, 1, -1, -1};
    test_kernel k;
    test_kernel_init(&k, Xs, 6, 1, 0, 0);
    double theta = 1.0, coef[6];
    const double *diag[1] = {k.diag};
    km_kernel_access access = {6, 1, &theta, test_kernel_column, &k, diag, NULL, NULL, NULL, 0, NULL, 0, 0, NULL};
    km_svm_solution sol = {.coef = coef};
    km_smo_options options = km_smo_options_default();
    CHECK(km_nu_svc_solve(&access, ys, 0.7, &options, NULL, &sol) == KM_EINVAL);  /* 0.7 * 6 / 2 = 2.1 > 2 */
    CHECK(strstr(km_last_error(), "infeasible") != NULL);
    CHECK(strstr(km_last_error(), "at most 0.666667") != NULL);
    CHECK_OK(km_nu_svc_solve(&access, ys, 0.6, &options, NULL, &sol));
    free(k.diag);
}

/* Warm starts: from the solution itself (no step needed), and from the solution of another nu. */
static void warm_start(test_task task)
{
    const double *train = task == TEST_NU_SVC ? X : R;
    test_kernel k;
    test_kernel_init(&k, train, N, D, 1, 0.3);
    double theta = 1.0;
    const double *diag[1] = {k.diag};
    km_kernel_access access = {N, 1, &theta, test_kernel_column, &k, diag, NULL, NULL, NULL, 0, NULL, 0, 0, NULL};
    km_smo_options options = km_smo_options_default();
    options.tolerance = 1e-8;
    signed char labels[N];
    for (size_t i = 0; i < N; i++)
        labels[i] = y[i] > 0 ? 1 : -1;
    double cold[N], warm[N], other[N];
    km_svm_solution a = {.coef = cold}, b = {.coef = warm}, c = {.coef = other};
#define SOLVE(nu, start, sol)                                                                                    \
    (task == TEST_NU_SVC ? km_nu_svc_solve(&access, labels, nu, &options, start, sol)                             \
                         : km_nu_svr_solve(&access, z, 2.0, nu, &options, start, sol))
    CHECK_OK(SOLVE(0.4, NULL, &a));
    CHECK_OK(SOLVE(0.4, cold, &b));
    CHECK(b.iterations * 100 < a.iterations);   /* nu-SVC: none; nu-SVR: a few (a and a* from c) */
    CHECK_NEAR(b.objective, a.objective, 1e-9 * fabs(a.objective));
    CHECK_NEAR(b.bias, a.bias, 1e-6);
    CHECK_OK(SOLVE(0.6, NULL, &c));
    CHECK_OK(SOLVE(0.4, other, &c));   /* warm from nu = 0.6's coefficients */
    CHECK_NEAR(c.objective, a.objective, 1e-7 * fabs(a.objective));
    CHECK_NEAR(c.bias, a.bias, 1e-4);
#undef SOLVE
    free(k.diag);
}

KM_TEST_CASE(nu_svc_warm_start) { warm_start(TEST_NU_SVC); }
KM_TEST_CASE(nu_svr_warm_start) { warm_start(TEST_NU_SVR); }
