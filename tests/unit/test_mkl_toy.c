/* The seed's toy experiment (spec/lpmkl.md §9 "toy", seed §5.2), sparsest scenario, through the public
 * API: two Gaussian classes in d = 50 dimensions with means +-rho w/||w||, rho = 1.75, where w has a
 * single non-zero entry (one informative feature); one linear kernel per input feature,
 * multiplicatively normalised; n = 50 training points, C chosen on 1000 validation points from the
 * seed's grid {10^-4, 10^-3.5, ..., 1}, error measured on 1000 test points.
 *
 * The Bayes error is Phi(-rho) = 4.01 % (the classes differ only along w). The seed reports l1-MKL
 * near the Bayes error in this scenario. Assertions, over 8 seeded repetitions:
 *  - p = 1: mean test error <= 6 % (spec §9 test 9). Each repetition's error has a standard deviation
 *    of at most sqrt(0.25/1000) = 1.6 % from the test sample alone, the mean of 8 about 0.6 %; 6 %
 *    leaves 2 points (over three such deviations) above the Bayes error for learning the single feature
 *    from 50 points (measured: 4.4 % over 25 repetitions with the wrapper; 4.5 % over these 8 with the
 *    default solver).
 *  - the uniform combination (user p = inf, block p = 2): mean test error >= 15 %. It is the linear
 *    SVM on standardised features, which with n = d = 50 cannot single out the informative direction
 *    (measured: 20.8 % over 25 repetitions, 11 standard deviations of the mean above the l1 threshold).
 *    The seed's 43 % belongs to its l-infinity row, which is the block norm p = inf (the toy grid
 *    {1, 4/3, 2, 4, inf} contains the SVM as p = 2, so it is in the block convention of spec §1), not
 *    to the uniform sum. Block p = inf is not part of this test: its weights theta_m ~ 1/sqrt(a_m) span
 *    many orders of magnitude, and each SVM on such a combination is slow. With the §3.6 clamp
 *    a_m >= 1e-12 max a, the wrapper reached the gap 1e-3 only for C <= 0.01 (C = 0.01: 137 steps,
 *    5.7e7 SMO iterations, 18 s), and after 300 steps the gap was still 7e-3 to 1e-2 for C >= 0.03.
 *    A larger clamp (1e-8 to 1e-4) caps the weight ratio and keeps the solves fast, but theta then
 *    stops at the cap with gaps of 4e-3 to 1e-1. These unconverged models err 42.9 % to 43.1 % over
 *    the 8 repetitions (the seed's 43 %). That figure is not certified, so it is not asserted.
 * The p = 1 models are trained with the default solver (interleaved). Before the spec §3.6 safeguards,
 * interleaved p = 1 never converged at C = 1 here (theta and alpha cycled; 10^4 theta steps, gap 0.3
 * to 1.9), and C = 1 was the validation choice of some repetitions.
 *
 * A second check trains C = 1, p = 1 on four further draws with the interleaved, wrapper and SILP
 * solvers: all three report a gap <= 1e-3, so their objectives -D lie within 1e-3 |P| below the common
 * optimum and agree to 2e-3 relative; the interleaved and wrapper weights are exactly sparse (weights
 * below 1e-8 of the largest are switched off: none is left in (0, 1e-8 max)), sum to 1 (||theta||_1 = 1),
 * and switch off at least a third of the 50 kernels (measured: 31 to 41; SILP 33 to 41).
 *
 * Fewer repetitions than the spec's 25 keep the run within a few seconds on a loaded 2-core machine;
 * the draws are seeded, so the result is reproducible. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "core/params.h"
#include "mkl/mkl_params.h"
#include "core/rng.h"
#include "kernelmix.h"

enum { D = 50, N_TRAIN = 50, N_VALID = 1000, N_TEST = 1000, REPETITIONS = 8, N_BAYES = 100000 };
static const double RHO = 1.75;

/* n points: y = +-1 with probability 1/2, x = y rho e_1 + standard normal noise (w = e_1). */
static void draw(km_rng *rng, size_t n, double *X, double *y)
{
    for (size_t i = 0; i < n; i++) {
        y[i] = km_rng_uniform(rng) < 0.5 ? -1.0 : 1.0;
        for (size_t j = 0; j < D; j++)
            X[i * D + j] = km_rng_normal(rng) + (j == 0 ? y[i] * RHO : 0.0);
    }
}

static double error_rate(const km_model *model, const km_dataset *data, const double *y, size_t n, double *pred)
{
    if (km_predict(model, data, NULL, pred, NULL) != KM_OK)
        return 1.0;
    size_t wrong = 0;
    for (size_t i = 0; i < n; i++)
        wrong += pred[i] != y[i];
    return (double)wrong / (double)n;
}

/* Test error of the model whose C has the lowest validation error (first of ties). */
static double select_and_test(const km_dataset *train, const km_dataset *valid, const double *yv,
                              const km_dataset *test, const double *yt, const km_kernel_set *set, double p,
                              double *pred)
{
    double best_valid = INFINITY, test_error = 1.0;
    for (int k = -8; k <= 0; k++) {
        km_params params = km_params_default();
        params.C = pow(10.0, 0.5 * k);
        km_params_store(&params, KM_PARAM_MKL_METHOD, KM_MKL_LP);
        km_params_store(&params, KM_PARAM_P, p); /* the default solver (interleaved) */
        km_params_store(&params, KM_PARAM_MKL_GAP, 1e-3); /* the seed's relative duality gap (§4) */
        km_model *model = NULL;
        CHECK_OK(km_train(train, set, &params, &model));
        if (!model)
            continue;
        double e = error_rate(model, valid, yv, N_VALID, pred);
        if (e < best_valid) {
            best_valid = e;
            test_error = error_rate(model, test, yt, N_TEST, pred);
        }
        km_model_free(model);
    }
    return test_error;
}

/* What a p = 1 training at C = 1 reports. */
typedef struct p1_run {
    km_status status;
    double objective, gap, theta_sum, smallest_ratio; /* smallest non-zero weight / largest */
    size_t zeros;
    int converged;
} p1_run;

static p1_run train_p1(const km_dataset *train, const km_kernel_set *set, km_mkl_solver solver)
{
    p1_run r = {.status = KM_EINVAL};
    km_params params = km_params_default();
    params.C = 1.0;
    km_params_store(&params, KM_PARAM_MKL_METHOD, KM_MKL_LP);
    km_params_store(&params, KM_PARAM_P, 1.0);
    km_params_store(&params, KM_PARAM_MKL_SOLVER, solver);
    km_model *model = NULL;
    r.status = km_train(train, set, &params, &model);
    if (r.status)
        return r;
    km_machine_info info = KM_MACHINE_INFO_INIT;
    CHECK_OK(km_model_machine_info(model, 0, &info));
    r.objective = info.objective;
    r.gap = info.gap;
    r.converged = info.converged;
    const double *theta = km_model_kernel_weights(model, 0);
    double top = 0, smallest = INFINITY;
    for (size_t m = 0; m < D; m++) {
        top = fmax(top, theta[m]);
        r.theta_sum += theta[m];
        r.zeros += theta[m] == 0.0;
        if (theta[m] > 0)
            smallest = fmin(smallest, theta[m]);
    }
    r.smallest_ratio = smallest / top;
    km_model_free(model);
    return r;
}

/* p = 1 at C = 1 on four draws: interleaved and wrapper converge to the SILP optimum, exactly sparse. */
static void check_p1_solvers(km_rng *rng, const km_kernel_set *set, double *X, double *y)
{
    static const char *const names[] = {"interleaved", "wrapper"};
    for (int r = 0; r < 4; r++) {
        km_dataset *train = NULL;
        draw(rng, N_TRAIN, X, y);
        CHECK_OK(km_dataset_from_dense(N_TRAIN, D, X, y, &train));
        if (!train)
            continue;
        p1_run silp = train_p1(train, set, KM_MKL_SILP);
        int with_silp = silp.status == KM_OK; /* SILP at p = 1 needs GLPK */
        if (with_silp)
            CHECK(silp.converged && silp.gap <= 1e-3);
        for (int s = 0; s < 2; s++) {
            p1_run run = train_p1(train, set, s ? KM_MKL_WRAPPER : KM_MKL_INTERLEAVED);
            CHECK_OK(run.status);
            fprintf(stderr, "toy draw %d C = 1 p = 1 %-11s objective %.8f gap %.2e zeros %zu (silp %.8f, %zu zeros)\n",
                    r, names[s], run.objective, run.gap, run.zeros, silp.objective, silp.zeros);
            CHECK(run.converged && run.gap <= 1e-3);
            if (with_silp)
                CHECK(fabs(run.objective - silp.objective) <= 2e-3 * fabs(silp.objective));
            CHECK_NEAR(run.theta_sum, 1.0, 1e-12);
            CHECK(run.smallest_ratio >= 1e-8);
            CHECK(run.zeros >= D / 3);
        }
        km_dataset_free(train);
    }
}

/* sign(mu'x) on 10^5 points errs with the Bayes rate Phi(-1.75) = 4.006 %; the standard deviation
 * of the estimate is sqrt(0.04 * 0.96 / 10^5) = 0.06 %, so +-0.2 % is over three of them. */
static void check_bayes_error(km_rng *rng)
{
    size_t wrong = 0;
    for (size_t i = 0; i < N_BAYES; i++) {
        double y = km_rng_uniform(rng) < 0.5 ? -1.0 : 1.0;
        double projection = km_rng_normal(rng) + y * RHO; /* mu'x / ||mu|| */
        for (size_t j = 1; j < D; j++)
            km_rng_normal(rng); /* the other coordinates, drawn as in the experiment, do not matter */
        wrong += (projection > 0 ? 1.0 : -1.0) != y;
    }
    double rate = (double)wrong / N_BAYES, bayes = 0.5 * erfc(RHO / sqrt(2.0));
    CHECK_NEAR(bayes, 0.0400592, 1e-6);
    CHECK_NEAR(rate, bayes, 0.002);
}

/* The three cases draw from one stream, seeded once, in this order: the Bayes-error sample, the
 * REPETITIONS model selections, the p = 1 draws. A case first replays the draws of the cases before
 * it (check_bayes_error draws what draw() draws per row), so each sees the data of the sequence. */
static km_kernel_set *set;
static km_rng rng;

static void replay_bayes_sample(void)
{
    double x[D], label;
    for (size_t i = 0; i < N_BAYES; i++)
        draw(&rng, 1, x, &label);
}

static void replay_selections(double *X, double *y)
{
    for (int r = 0; r < REPETITIONS; r++) {
        draw(&rng, N_TRAIN, X, y);
        draw(&rng, N_VALID, X, y);
        draw(&rng, N_TEST, X, y);
    }
}

static void setup(void)
{
    km_rng_seed(&rng, 5200);
    CHECK_OK(km_kernel_set_new(&set));
    CHECK_OK(km_kernel_set_set_dimension(set, D));
    CHECK_OK(km_kernel_set_add_spec(set, "linear:features=each:norm=mult"));
    CHECK(km_kernel_set_size(set) == D);
}

static void teardown(void) { km_kernel_set_free(set); }

KM_TEST_FIXTURE(setup, teardown)

KM_TEST_CASE(bayes_error) { check_bayes_error(&rng); }

KM_TEST_CASE(l1_beats_uniform)
{
    replay_bayes_sample();
    double *X = malloc(N_TEST * D * sizeof *X), *y = malloc(N_TEST * sizeof *y), *pred = malloc(N_TEST * sizeof *pred);
    double yv[N_VALID], yt[N_TEST], ytrain[N_TRAIN];
    double sum_l1 = 0, sum_uniform = 0;
    for (int r = 0; r < REPETITIONS && X && y && pred; r++) {
        km_dataset *train = NULL, *valid = NULL, *test = NULL;
        draw(&rng, N_TRAIN, X, ytrain);
        CHECK_OK(km_dataset_from_dense(N_TRAIN, D, X, ytrain, &train));
        draw(&rng, N_VALID, X, yv);
        CHECK_OK(km_dataset_from_dense(N_VALID, D, X, yv, &valid));
        draw(&rng, N_TEST, X, yt);
        CHECK_OK(km_dataset_from_dense(N_TEST, D, X, yt, &test));
        if (train && valid && test) {
            sum_l1 += select_and_test(train, valid, yv, test, yt, set, 1.0, pred);
            sum_uniform += select_and_test(train, valid, yv, test, yt, set, INFINITY, pred);
        }
        km_dataset_free(train);
        km_dataset_free(valid);
        km_dataset_free(test);
    }
    double mean_l1 = sum_l1 / REPETITIONS, mean_uniform = sum_uniform / REPETITIONS;
    fprintf(stderr, "mean test error: p = 1 %.4f, uniform %.4f\n", mean_l1, mean_uniform);
    CHECK(mean_l1 <= 0.06);
    CHECK(mean_uniform >= 0.15);
    free(X);
    free(y);
    free(pred);
}

KM_TEST_CASE(p1_solvers)
{
    replay_bayes_sample();
    double *X = malloc(N_TEST * D * sizeof *X), *y = malloc(N_TEST * sizeof *y);
    if (X && y) {
        replay_selections(X, y);
        check_p1_solvers(&rng, set, X, y);
    }
    free(X);
    free(y);
}
