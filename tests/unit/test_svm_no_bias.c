/* C-SVC without bias (km_svc_solve_without_bias; the SMO without its equality constraint):
 *  - the solution satisfies the KKT conditions of min 1/2 a'Qa - 1'a over 0 <= a <= C, checked from
 *    kernel values computed here: y_i f(x_i) >= 1 at a_i = 0, <= 1 at C_i, = 1 in between, f without
 *    bias; and sum_i y_i a_i is not 0 (the constraint is really gone);
 *  - its objective is below that of the solution with bias (the feasible set is larger);
 *  - a warm start and the hook's per-kernel bookkeeping (two kernels) end where the cold solve does. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "test_svm_support.h"

enum { N = 70, DIM = 2 };

typedef struct problem {
    double X[N * DIM], labels[N], K[N * N];
    signed char y[N];
    test_kernel kernels[2];
    const double *diag[2];
    double theta[2];
    km_kernel_access access;
} problem;

/* Two classes of 2:1 sizes; kernel 0 RBF, kernel 1 linear (used with weight 0 unless asked). */
static void problem_init(problem *pb, double linear_weight)
{
    km_rng rng;
    km_rng_seed(&rng, 31);
    test_two_gaussians(&rng, N, DIM, pb->X, pb->labels);
    test_kernel_init(&pb->kernels[0], pb->X, N, DIM, 1, 0.5);
    test_kernel_init(&pb->kernels[1], pb->X, N, DIM, 0, 0);
    for (size_t i = 0; i < N; i++) {
        pb->y[i] = pb->labels[i] > 0 ? 1 : -1;
        for (size_t k = 0; k < N; k++)
            pb->K[i * N + k] = test_kernel_value(&pb->kernels[0], pb->X + i * DIM, pb->X + k * DIM) +
                               linear_weight * test_kernel_value(&pb->kernels[1], pb->X + i * DIM, pb->X + k * DIM);
    }
    pb->diag[0] = pb->kernels[0].diag;
    pb->diag[1] = pb->kernels[1].diag;
    pb->theta[0] = 1;
    pb->theta[1] = linear_weight;
    pb->access = (km_kernel_access){N, 2, pb->theta, test_kernel_column, pb->kernels, pb->diag, NULL, NULL, NULL, 0, NULL, 0, 0, NULL};
}

static void problem_free(problem *pb)
{
    free(pb->kernels[0].diag);
    free(pb->kernels[1].diag);
}

/* 1/2 c'Kc - sum_i y_i c_i, LIBSVM's objective in c = y a. */
static double objective(const problem *pb, const double *coef)
{
    double lin = 0;
    for (size_t i = 0; i < N; i++)
        lin += pb->y[i] * coef[i];
    return 0.5 * test_quadratic_form(pb->K, coef, N) - lin;
}

KM_TEST_CASE(kkt_conditions_without_bias)
{
    problem pb;
    problem_init(&pb, 0.0);
    const double C = 2.0, weight_neg = 1.5;
    km_smo_options options = km_smo_options_default();
    options.tolerance = 1e-10;
    double coef[N];
    km_svm_solution sol = {.coef = coef};
    CHECK_OK(km_svc_solve_without_bias(&pb.access, pb.y, C, 1.0, weight_neg, &options, NULL, &sol));
    CHECK(sol.bias == 0.0);
    CHECK(sol.converged);
    double sum = 0;
    size_t free_count = 0;
    for (size_t i = 0; i < N; i++) {
        double f = 0, a = pb.y[i] * coef[i], upper = C * (pb.y[i] > 0 ? 1.0 : weight_neg);
        for (size_t k = 0; k < N; k++)
            f += coef[k] * pb.K[k * N + i];
        double margin = pb.y[i] * f - 1.0;
        CHECK(a >= 0 && a <= upper);
        if (a == 0)
            CHECK(margin >= -1e-9);
        else if (a == upper)
            CHECK(margin <= 1e-9);
        else {
            CHECK_NEAR(margin, 0.0, 1e-9);
            free_count++;
        }
        sum += coef[i];
    }
    CHECK(free_count > 0);
    CHECK(fabs(sum) > 1e-3);
    CHECK_NEAR(sol.objective, objective(&pb, coef), 1e-10);
    /* the solution with bias solves the same problem with sum_i y_i a_i = 0 added: no lower objective */
    double with_bias[N];
    km_svm_solution biased = {.coef = with_bias};
    CHECK_OK(km_svc_solve(&pb.access, pb.y, C, 1.0, weight_neg, &options, NULL, &biased));
    CHECK(sol.objective < biased.objective - 1e-6);
    problem_free(&pb);
}

static km_hook_action keep_theta(void *ctx, const km_smo_step *step, double *theta)
{
    (void)step;
    (void)theta;
    (*(long *)ctx)++;
    return KM_HOOK_CONTINUE;
}

KM_TEST_CASE(warm_start_and_hook_without_bias)
{
    problem pb;
    problem_init(&pb, 0.3);
    km_smo_options options = km_smo_options_default();
    options.tolerance = 1e-10;
    double cold[N], warm[N], hooked[N];
    km_svm_solution a = {.coef = cold}, b = {.coef = warm}, c = {.coef = hooked};
    CHECK_OK(km_svc_solve_without_bias(&pb.access, pb.y, 1.0, 1.0, 1.0, &options, NULL, &a));
    /* warm: from the solution at C = 0.5, feasible for C = 1 */
    double half[N], start[N];
    km_svm_solution h = {.coef = half};
    CHECK_OK(km_svc_solve_without_bias(&pb.access, pb.y, 0.5, 1.0, 1.0, &options, NULL, &h));
    for (size_t i = 0; i < N; i++)
        start[i] = pb.y[i] * half[i];
    CHECK_OK(km_svc_solve_without_bias(&pb.access, pb.y, 1.0, 1.0, 1.0, &options, start, &b));
    long calls = 0;
    options.hook = keep_theta;
    options.hook_ctx = &calls;
    CHECK_OK(km_svc_solve_without_bias(&pb.access, pb.y, 1.0, 1.0, 1.0, &options, NULL, &c));
    CHECK(calls > 0);
    CHECK_NEAR(b.objective, a.objective, 1e-10);
    CHECK_NEAR(c.objective, a.objective, 1e-10);
    for (size_t i = 0; i < N; i++) {
        CHECK_NEAR(warm[i], cold[i], 1e-7);
        CHECK_NEAR(hooked[i], cold[i], 1e-7);
    }
    CHECK(b.bias == 0.0 && c.bias == 0.0);
    problem_free(&pb);
}
