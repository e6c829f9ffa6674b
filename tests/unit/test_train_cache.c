/* The fixed combination's kernel cache (km_params.cache_values, cache_mb) changes speed, not results:
 *  - double values: the objective with -m 1 (an LRU cache of a few hundred columns) equals the one
 *    with -m 100 (the whole N×N matrix computed once, in blocks) to 1e-7 relative (the solver stops
 *    within its tolerance, and kernel values that differ in the last bits between the two paths can
 *    move where: 1e-16 here, 3e-8 measured under valgrind, whose CPU has no AVX-512), for C-SVC (columns
 *    by variable), epsilon-SVR (columns by training row) and three classes one-vs-one (machines on
 *    subsets of the rows);
 *  - float values: the objective is within 1e-5 relative of the double cache's and the predictions
 *    are the same;
 *  - the default takes double when the N×N matrix fits in -m as double, float otherwise. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "core/params.h"
#include "core/rng.h"
#include "kernelmix.h"

enum { N = 700, D = 6, NT = 200 };

/* RBF widths (one with a global normalization factor, one with per-row factors) and a polynomial kernel */
static const char *const kernel_specs[] = {"rbf:gamma=0.02", "rbf:gamma=0.1:norm=trace", "rbf:gamma=0.5",
                                           "rbf:gamma=2:norm=spherical", "poly:degree=2:gamma=0.1:coef0=1"};

/* n rows whose class c (of n_classes) shifts feature c; y: +-1 (2 classes), class numbers, or a noisy
 * smooth target (regression). */
static void make_data(km_rng *rng, size_t n, int n_classes, int regression, double *X, double *y)
{
    for (size_t i = 0; i < n; i++) {
        int c = (int)km_rng_below(rng, (uint64_t)n_classes);
        for (size_t j = 0; j < D; j++)
            X[i * D + j] = km_rng_normal(rng) + (j == (size_t)c ? 1.2 : 0.0);
        if (regression)
            y[i] = sin(X[i * D]) + 0.5 * X[i * D + 1] + 0.1 * km_rng_normal(rng);
        else
            y[i] = n_classes == 2 ? (c ? 1.0 : -1.0) : (double)(c + 1);
    }
}

typedef struct trained {
    double objective;        /* summed over the machines */
    double labels[NT];
} trained;

static trained train(const km_dataset *data, const km_dataset *test, km_task task, km_cache_values values,
                     double cache_mb)
{
    km_kernel_set *set;
    CHECK_OK(km_kernel_set_new(&set));
    for (size_t k = 0; k < sizeof kernel_specs / sizeof *kernel_specs; k++)
        CHECK_OK(km_kernel_set_add_spec(set, kernel_specs[k]));
    km_params params = km_params_default();
    params.task = task;
    params.cache_values = values;
    params.cache_mb = cache_mb;
    trained out = {0};
    km_model *model = NULL;
    CHECK_OK(km_train(data, set, &params, &model));
    if (model) {
        for (size_t k = 0; k < km_model_n_machines(model); k++)
            out.objective += km_model_objective(model, k);
        CHECK_OK(km_predict(model, test, NULL, out.labels, NULL));
    }
    km_model_free(model);
    km_kernel_set_free(set);
    return out;
}

static int same_labels(const trained *a, const trained *b)
{
    for (size_t t = 0; t < NT; t++)
        if (a->labels[t] != b->labels[t])
            return 0;
    return 1;
}

static double largest_difference(const trained *a, const trained *b)
{
    double worst = 0.0;
    for (size_t t = 0; t < NT; t++)
        worst = fmax(worst, fabs(a->labels[t] - b->labels[t]));
    return worst;
}

static void check_problem(km_rng *rng, km_task task, int n_classes)
{
    static double X[N * D], y[N], Xt[NT * D], yt[NT];
    int regression = task == KM_TASK_SVR;
    make_data(rng, N, n_classes, regression, X, y);
    make_data(rng, NT, n_classes, regression, Xt, yt);
    km_dataset *data, *test;
    CHECK_OK(km_dataset_from_dense(N, D, X, y, &data));
    CHECK_OK(km_dataset_from_dense(NT, D, Xt, NULL, &test));

    trained full = train(data, test, task, KM_CACHE_DOUBLE, 100);
    trained lru = train(data, test, task, KM_CACHE_DOUBLE, 1);
    trained full_float = train(data, test, task, KM_CACHE_FLOAT, 100);
    trained lru_float = train(data, test, task, KM_CACHE_FLOAT, 1);
    trained auto_large = train(data, test, task, KM_CACHE_AUTO, 100);
    trained auto_small = train(data, test, task, KM_CACHE_AUTO, 1);

    CHECK(full.objective < 0);
    CHECK(fabs(lru.objective - full.objective) <= 1e-7 * fabs(full.objective));
    CHECK(fabs(full_float.objective - full.objective) <= 1e-5 * fabs(full.objective));
    CHECK(fabs(lru_float.objective - full.objective) <= 1e-5 * fabs(full.objective));
    if (regression) {
        CHECK(largest_difference(&lru, &full) <= 1e-6);
        CHECK(largest_difference(&full_float, &full) <= 1e-4);
        CHECK(largest_difference(&lru_float, &full) <= 1e-4);
    } else {
        CHECK(same_labels(&lru, &full));
        CHECK(same_labels(&full_float, &full));
        CHECK(same_labels(&lru_float, &full));
    }
    /* N = 700: the double matrix (3.7 MiB) fits in 100 MiB, not in 1 MiB */
    CHECK(auto_large.objective == full.objective);
    CHECK(auto_small.objective == lru_float.objective);
    km_dataset_free(data);
    km_dataset_free(test);
}

/* The problems draw their data from one stream, seeded once, in this order. A case replays the draws
 * of the problems before its own (make_data is all check_problem draws), so each case sees the data
 * it saw when the problems ran in one sequence. */
static const km_task problem_task[] = {KM_TASK_SVC, KM_TASK_SVR, KM_TASK_SVC};
static const int problem_classes[] = {2, 1, 3};

static void check_problem_in_sequence(int problem)
{
    static double X[N * D], y[N], Xt[NT * D], yt[NT];
    km_rng rng;
    km_rng_seed(&rng, 2024);
    for (int p = 0; p < problem; p++) {
        make_data(&rng, N, problem_classes[p], problem_task[p] == KM_TASK_SVR, X, y);
        make_data(&rng, NT, problem_classes[p], problem_task[p] == KM_TASK_SVR, Xt, yt);
    }
    check_problem(&rng, problem_task[problem], problem_classes[problem]);
}

KM_TEST_CASE(svc_two_classes) { check_problem_in_sequence(0); }
KM_TEST_CASE(svr) { check_problem_in_sequence(1); }
KM_TEST_CASE(svc_three_classes) { check_problem_in_sequence(2); }
