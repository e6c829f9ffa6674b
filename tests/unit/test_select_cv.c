/* Cross-validation of a grid (km_cv_run): every (setting, split) result equals a cold training of that
 * setting on a dataset holding only the split's training rows (so widths and normalization fitted per
 * split see no test row), repeated folds, leave-one-out and a validation set split as documented, the
 * splits stratified, and nested cross-validation choosing on each outer split what a grid search of
 * its training rows alone chooses; the caller's folds (fold_of) split as given and are checked. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "kernelmix.h"
#include "select/splits.h"

enum { N = 60, D = 3 };

static km_dataset *data;
static km_kernel_set *kernels;

/* Rows of a noisy linear rule with features of different scales (widths relative to the data). */
static void setup(void)
{
    double x[N * D], y[N];
    for (int i = 0; i < N; i++) {
        x[i * D] = sin(1.3 * i);
        x[i * D + 1] = 3.0 * cos(0.7 * i);
        x[i * D + 2] = (double)((i * 37) % 11) / 11.0;
        y[i] = x[i * D] + 0.2 * x[i * D + 1] + 0.3 * (double)((i * 53) % 7 - 3) > 0 ? 1 : -1;
    }
    CHECK_OK(km_dataset_from_dense(N, D, x, y, &data));
    CHECK_OK(km_kernel_set_new(&kernels));
    CHECK_OK(km_kernel_set_add_spec(kernels, "rbf:gamma=2^-1..2^1/mean:norm=spherical"));
    CHECK_OK(km_kernel_set_add_spec(kernels, "poly:degree=2:norm=trace"));
}

static void teardown(void)
{
    km_kernel_set_free(kernels);
    km_dataset_free(data);
}

KM_TEST_FIXTURE(setup, teardown)

/* lp-norm MKL settings, one per C, with p. */
static km_grid *grid_of(const double *c, size_t n, double p)
{
    km_grid *grid;
    km_params *params;
    CHECK_OK(km_grid_new(&grid));
    CHECK_OK(km_params_new(&params));
    CHECK_OK(km_params_set_text(params, KM_PARAM_MKL_METHOD, "lp"));
    CHECK_OK(km_params_set_double(params, KM_PARAM_P, p));
    CHECK_OK(km_params_set_double(params, KM_PARAM_TOLERANCE, 1e-6));
    for (size_t k = 0; k < n; k++) {
        CHECK_OK(km_params_set_double(params, KM_PARAM_C, c[k]));
        CHECK_OK(km_grid_add(grid, params, kernels, ""));
    }
    km_params_free(params);
    return grid;
}

/* The score of setting params trained cold on train_rows of source and scored on test_rows of test. */
static double cold_score_with(const km_kernel_set *set, const km_params *params, const km_dataset *source, const size_t *train_rows, size_t n_train,
                         const km_dataset *test, const size_t *test_rows, size_t n_test, km_score score)
{
    km_dataset *train_part, *test_part;
    km_model *model;
    double *labels = malloc(n_test * sizeof *labels), *decision = malloc(n_test * sizeof *decision), value = NAN;
    CHECK_OK(km_dataset_subset(source, train_rows, n_train, &train_part));
    CHECK_OK(km_dataset_subset(test, test_rows, n_test, &test_part));
    CHECK_OK(km_train(train_part, set, params, &model));
    CHECK_OK(km_predict(model, test_part, NULL, labels, decision));
    if (km_model_labels(model)[0] < km_model_labels(model)[1])
        for (size_t i = 0; i < n_test; i++)
            decision[i] = -decision[i];
    CHECK_OK(km_score_of(score, km_dataset_labels(test_part), labels, decision, n_test, &value));
    km_model_free(model);
    km_dataset_free(train_part);
    km_dataset_free(test_part);
    free(labels);
    free(decision);
    return value;
}

static double cold_score(const km_params *params, const km_dataset *source, const size_t *train_rows, size_t n_train,
                         const km_dataset *test, const size_t *test_rows, size_t n_test, km_score score)
{
    return cold_score_with(kernels, params, source, train_rows, n_train, test, test_rows, n_test, score);
}

/* The k folds of seed as train / test rows of fold f. */
static void fold_rows(const int *fold, int f, size_t *train, size_t *n_train, size_t *test, size_t *n_test)
{
    *n_train = *n_test = 0;
    for (size_t i = 0; i < N; i++) {
        if (fold[i] == f)
            test[(*n_test)++] = i;
        else
            train[(*n_train)++] = i;
    }
}

static void check_matches_cold_training(km_score score)
{
    const double c[] = {0.25, 4};
    km_grid *grid = grid_of(c, 2, 4.0 / 3.0);
    km_cv_options options = KM_CV_OPTIONS_INIT;
    options.folds = 3;
    options.seed = 5;
    options.score = score;
    km_cv_results *results;
    CHECK_OK(km_cv_run(data, grid, &options, &results));
    CHECK(km_cv_n_splits(results) == 3 && km_cv_score(results) == score);
    int fold[N];
    size_t train[N], test[N], n_train, n_test;
    CHECK_OK(km_folds(km_dataset_labels(data), N, 3, 5, fold));
    /* the control: widths and normalization fitted on all rows (leaking the test rows) score otherwise */
    km_kernel_set *leaky;
    CHECK_OK(km_kernel_set_fit(kernels, data, &leaky));
    size_t differences = 0;
    for (size_t s = 0; s < 2; s++) {
        double sum = 0;
        for (int f = 0; f < 3; f++) {
            fold_rows(fold, f, train, &n_train, test, &n_test);
            double cold = cold_score(km_grid_params(grid, s), data, train, n_train, data, test, n_test, score);
            CHECK_NEAR(km_cv_scores(results, s)[f], cold, 1e-9);
            sum += cold;
            double leaked = cold_score_with(leaky, km_grid_params(grid, s), data, train, n_train, data, test, n_test,
                                            score);
            differences += fabs(leaked - cold) > 1e-9;
        }
        CHECK_NEAR(km_cv_mean(results, s), sum / 3, 1e-9);
        size_t n_kernels;
        const double *w = km_cv_mean_weights(results, s, &n_kernels);
        CHECK(n_kernels == 4 && w[0] >= 0 && km_cv_mean_sv(results, s) > 0 && km_cv_fit_seconds(results, s) >= 0);
    }
    if (score == KM_SCORE_AUC)
        CHECK(differences > 0);
    km_kernel_set_free(leaky);
    km_cv_results_free(results);
    km_grid_free(grid);
}

KM_TEST_CASE(results_equal_cold_training_per_fold_accuracy) { check_matches_cold_training(KM_SCORE_ACCURACY); }
KM_TEST_CASE(results_equal_cold_training_per_fold_auc) { check_matches_cold_training(KM_SCORE_AUC); }

KM_TEST_CASE(validation_set_is_one_split)
{
    const double c[] = {1};
    km_grid *grid = grid_of(c, 1, 2);
    size_t first[40], last[20];
    for (size_t i = 0; i < 40; i++)
        first[i] = i;
    for (size_t i = 0; i < 20; i++)
        last[i] = 40 + i;
    km_dataset *train, *validation;
    CHECK_OK(km_dataset_subset(data, first, 40, &train));
    CHECK_OK(km_dataset_subset(data, last, 20, &validation));
    km_cv_options options = KM_CV_OPTIONS_INIT;
    options.validation = validation;
    options.score = KM_SCORE_MCC;
    km_cv_results *results;
    CHECK_OK(km_cv_run(train, grid, &options, &results));
    CHECK(km_cv_n_splits(results) == 1 && km_cv_std(results, 0) == 0);
    size_t all[20];
    for (size_t i = 0; i < 20; i++)
        all[i] = i;
    CHECK_NEAR(km_cv_scores(results, 0)[0],
               cold_score(km_grid_params(grid, 0), train, first, 40, validation, all, 20, KM_SCORE_MCC), 1e-12);
    km_cv_results_free(results);
    options.nested_folds = 3;
    CHECK_STATUS(km_cv_run(train, grid, &options, &results), KM_EINVAL);
    km_dataset_free(train);
    km_dataset_free(validation);
    km_grid_free(grid);
}

KM_TEST_CASE(repeats_and_leave_one_out)
{
    const double c[] = {1};
    km_grid *grid = grid_of(c, 1, 2);
    km_cv_options options = KM_CV_OPTIONS_INIT;
    options.folds = 4;
    options.repeats = 3;
    options.seed = 9;
    km_cv_results *results;
    CHECK_OK(km_cv_run(data, grid, &options, &results));
    CHECK(km_cv_n_splits(results) == 12);
    /* repeat 2 (seed 10), fold 3: the cold training on km_folds' rows of that seed */
    int fold[N];
    size_t train[N], test[N], n_train, n_test;
    CHECK_OK(km_folds(km_dataset_labels(data), N, 4, 10, fold));
    fold_rows(fold, 3, train, &n_train, test, &n_test);
    CHECK_NEAR(km_cv_scores(results, 0)[4 + 3],
               cold_score(km_grid_params(grid, 0), data, train, n_train, data, test, n_test, KM_SCORE_ACCURACY), 1e-12);
    double sum = 0, squares = 0;
    for (size_t f = 0; f < 12; f++)
        sum += km_cv_scores(results, 0)[f];
    for (size_t f = 0; f < 12; f++)
        squares += pow(km_cv_scores(results, 0)[f] - sum / 12, 2);
    CHECK_NEAR(km_cv_mean(results, 0), sum / 12, 1e-12);
    CHECK_NEAR(km_cv_std(results, 0), sqrt(squares / 11), 1e-12);
    km_cv_results_free(results);
    /* leave-one-out: one split per row, each scoring one row (accuracy 0 or 1) */
    options.folds = 0;
    options.repeats = 1;
    CHECK_OK(km_cv_run(data, grid, &options, &results));
    CHECK(km_cv_n_splits(results) == N);
    for (size_t f = 0; f < N; f++)
        CHECK(km_cv_scores(results, 0)[f] == 0 || km_cv_scores(results, 0)[f] == 1);
    km_cv_results_free(results);
    km_grid_free(grid);
}

KM_TEST_CASE(splits_are_stratified_and_partition_the_rows)
{
    size_t rows[N / 2];
    for (size_t i = 0; i < N / 2; i++)
        rows[i] = 2 * i + 1;   /* a subset, as the outer training rows of nested cross-validation */
    km_splits splits;
    CHECK_OK(km_splits_kfold(data, rows, N / 2, 4, 2, 3, 1, &splits));
    CHECK(splits.n == 8);
    const double *y = km_dataset_labels(data);
    size_t positives = 0;
    for (size_t i = 0; i < N / 2; i++)
        positives += y[rows[i]] > 0;
    for (int r = 0; r < 2; r++) {
        int seen[N] = {0};
        for (int f = 0; f < 4; f++) {
            const km_split *s = &splits.items[r * 4 + f];
            CHECK(s->n_train + s->n_test == N / 2);
            size_t pos = 0;
            for (size_t i = 0; i < s->n_test; i++) {
                seen[s->test[i]]++;
                pos += y[s->test[i]] > 0;
            }
            /* each class dealt round-robin: a fold holds floor or ceil of its share */
            CHECK(pos * 4 + 4 > positives && pos * 4 < positives + 4);
            CHECK(s->n_test == 7 || s->n_test == 8);
        }
        for (size_t i = 0; i < N / 2; i++)
            CHECK(seen[rows[i]] == 1);   /* every row scored once per repeat */
    }
    km_splits_clear(&splits);
}

KM_TEST_CASE(nested_chooses_as_a_search_on_the_outer_training_rows)
{
    const double c[] = {0.01, 1, 100};
    km_grid *grid = grid_of(c, 3, 2);
    km_cv_options options = KM_CV_OPTIONS_INIT;
    options.folds = 3;
    options.nested_folds = 3;
    options.seed = 2;
    km_cv_results *results;
    CHECK_OK(km_cv_run(data, grid, &options, &results));
    CHECK(km_cv_n_outer(results) == 3);
    int fold[N];
    size_t train[N], test[N], n_train, n_test;
    CHECK_OK(km_folds(km_dataset_labels(data), N, 3, 2, fold));
    for (int o = 0; o < 3; o++) {
        /* a grid search on a dataset of the outer training rows alone, its folds from the same seed */
        fold_rows(fold, o, train, &n_train, test, &n_test);
        km_dataset *outer_train;
        CHECK_OK(km_dataset_subset(data, train, n_train, &outer_train));
        km_cv_options inner = KM_CV_OPTIONS_INIT;
        inner.folds = 3;
        inner.seed = 2;
        km_cv_results *search;
        CHECK_OK(km_cv_run(outer_train, grid, &inner, &search));
        size_t chosen = km_cv_outer_choices(results)[o];
        CHECK(chosen == km_cv_best(search));
        CHECK(km_cv_outer_scores(results)[o] == km_cv_scores(results, chosen)[o]);
        km_cv_results_free(search);
        km_dataset_free(outer_train);
    }
    km_cv_results_free(results);
    km_grid_free(grid);
}

KM_TEST_CASE(bad_runs_are_refused)
{
    km_grid *grid;
    km_cv_options options = KM_CV_OPTIONS_INIT;
    km_cv_results *results = NULL;
    CHECK_OK(km_grid_new(&grid));
    CHECK_STATUS(km_cv_run(data, grid, &options, &results), KM_EINVAL);
    CHECK(strstr(km_last_error(), "no setting"));
    km_grid_free(grid);
    const double c[] = {1};
    grid = grid_of(c, 1, 2);
    km_cv_options unsized = {0};   /* a caller that did not set the size */
    CHECK_STATUS(km_cv_run(data, grid, &unsized, &results), KM_EINVAL);
    CHECK_STATUS(km_cv_run(data, grid, NULL, &results), KM_EINVAL);
    options.folds = N + 1;
    CHECK_STATUS(km_cv_run(data, grid, &options, &results), KM_EINVAL);
    options.folds = 3;
    options.nested_folds = 1;
    CHECK_STATUS(km_cv_run(data, grid, &options, &results), KM_EINVAL);
    options.nested_folds = 0;
    options.score = (km_score)99;
    CHECK_STATUS(km_cv_run(data, grid, &options, &results), KM_EINVAL);
    CHECK(results == NULL);
    km_grid_free(grid);
}

/* heart_scale, 8 kernels, C = 2^-2..2^4:2, p = 1, 4/3, 2, 4, inf, 5 folds: with warm starts along C
 * every (setting, split) scores as the cold run does (its solutions differ only within the certified
 * duality gap, too little to move a test row across the decision threshold here), and a grid of
 * settings that differ in more than C and p (the tolerance) runs each family alike. */
KM_TEST_CASE(warm_starts_score_as_cold_runs)
{
    km_dataset *heart;
    km_kernel_set *bank;
    km_grid *grid;
    km_params *params;
    CHECK_OK(km_dataset_read_libsvm(KM_EXAMPLES_DATA_DIR "/heart_scale", 0, &heart));
    CHECK_OK(km_kernel_set_new(&bank));
    CHECK_OK(km_kernel_set_add_spec(bank, "rbf:gamma=2^-3..2^3/mean"));
    CHECK_OK(km_kernel_set_add_spec(bank, "linear"));
    CHECK_OK(km_grid_new(&grid));
    CHECK_OK(km_params_new(&params));
    CHECK_OK(km_params_set_text(params, KM_PARAM_MKL_METHOD, "lp"));
    const char *p_values[] = {"1", "4/3", "2", "4", "inf"};
    for (size_t i = 0; i < 5; i++)
        for (int c = -2; c <= 4; c += 2) {
            CHECK_OK(km_params_set_text(params, KM_PARAM_P, p_values[i]));
            CHECK_OK(km_params_set_double(params, KM_PARAM_C, ldexp(1, c)));
            CHECK_OK(km_grid_add(grid, params, bank, ""));
        }
    CHECK_OK(km_params_set_double(params, KM_PARAM_TOLERANCE, 1e-2)); /* a family of its own */
    for (size_t i = 0; i < 2; i++) {
        CHECK_OK(km_params_set_text(params, KM_PARAM_P, p_values[i]));
        CHECK_OK(km_grid_add(grid, params, bank, ""));
    }
    km_cv_options warm = KM_CV_OPTIONS_INIT, cold = KM_CV_OPTIONS_INIT;
    cold.cold_starts = 1;
    km_cv_results *warm_results, *cold_results;
    CHECK_OK(km_cv_run(heart, grid, &warm, &warm_results));
    CHECK_OK(km_cv_run(heart, grid, &cold, &cold_results));
    for (size_t s = 0; s < km_grid_size(grid); s++)
        for (size_t f = 0; f < 5; f++)
            CHECK(km_cv_scores(warm_results, s)[f] == km_cv_scores(cold_results, s)[f]);
    CHECK(km_cv_best(warm_results) == km_cv_best(cold_results));
    km_cv_results_free(warm_results);
    km_cv_results_free(cold_results);
    km_params_free(params);
    km_grid_free(grid);
    km_kernel_set_free(bank);
    km_dataset_free(heart);
}

/* Stops the run at the third setting done. */
static int stop_at_third(void *user, size_t done, size_t total, size_t best, double best_mean)
{
    (void)user;
    (void)total;
    (void)best;
    (void)best_mean;
    return done >= 3;
}

/* Chains trained on 2 and 3 threads at once give what one thread gives, to the last bit (this grid's
 * budget shares hold what one thread's budget holds), and a stop asked for on a thread reaches the
 * caller as KM_EINTERRUPTED with its message. */
KM_TEST_CASE(threads_give_the_results_of_one)
{
    const double c[] = {0.25, 1, 4};
    km_grid *grid = grid_of(c, 3, 4.0 / 3.0);
    km_params *params;
    CHECK_OK(km_params_new(&params));
    CHECK_OK(km_params_set_text(params, KM_PARAM_MKL_METHOD, "lp"));
    const char *p_values[] = {"1", "2", "inf"};
    for (size_t i = 0; i < 3; i++)
        for (size_t k = 0; k < 3; k++) {
            CHECK_OK(km_params_set_text(params, KM_PARAM_P, p_values[i]));
            CHECK_OK(km_params_set_double(params, KM_PARAM_C, c[k]));
            CHECK_OK(km_grid_add(grid, params, kernels, ""));
        }
    km_cv_options options = KM_CV_OPTIONS_INIT;
    options.folds = 4;
    options.nested_folds = 2;
    options.threads = 1;
    km_cv_results *one, *many;
    CHECK_OK(km_cv_run(data, grid, &options, &one));
    for (int threads = 2; threads <= 3; threads++) {
        options.threads = threads;
        CHECK_OK(km_cv_run(data, grid, &options, &many));
        for (size_t s = 0; s < km_grid_size(grid); s++) {
            size_t n_one, n_many;
            const double *w_one = km_cv_mean_weights(one, s, &n_one), *w_many = km_cv_mean_weights(many, s, &n_many);
            CHECK(n_one == n_many && memcmp(w_one, w_many, n_one * sizeof *w_one) == 0);
            CHECK(memcmp(km_cv_scores(one, s), km_cv_scores(many, s), 4 * sizeof(double)) == 0);
            CHECK(km_cv_mean_sv(one, s) == km_cv_mean_sv(many, s));
        }
        CHECK(memcmp(km_cv_outer_choices(one), km_cv_outer_choices(many), 4 * sizeof(size_t)) == 0);
        CHECK(km_cv_best(one) == km_cv_best(many));
        km_cv_results_free(many);
    }
    km_cv_results_free(one);
    options.progress = stop_at_third;
    km_cv_results *stopped = NULL;
    CHECK_STATUS(km_cv_run(data, grid, &options, &stopped), KM_EINTERRUPTED);
    CHECK(stopped == NULL && strstr(km_last_error(), "interrupted"));
    km_params_free(params);
    km_grid_free(grid);
}

/* Unequal folds, not stratified: fold 0 the first 10 rows, the others dealt over folds 1..3. */
static void uneven_folds(int *fold)
{
    for (size_t i = 0; i < N; i++)
        fold[i] = i < 10 ? 0 : (int)(i % 3) + 1;
}

KM_TEST_CASE(caller_folds_equal_cold_training_per_fold)
{
    const double c[] = {0.25, 4};
    km_grid *grid = grid_of(c, 2, 4.0 / 3.0);
    int fold[N];
    uneven_folds(fold);
    km_cv_options options = KM_CV_OPTIONS_INIT;
    options.folds = 7;   /* ignored, as the seed */
    options.fold_of = fold;
    options.n_fold_of = N;
    options.score = KM_SCORE_AUC;
    km_cv_results *results;
    CHECK_OK(km_cv_run(data, grid, &options, &results));
    CHECK(km_cv_n_splits(results) == 4);
    size_t train[N], test[N], n_train, n_test;
    for (size_t s = 0; s < 2; s++) {
        double sum = 0, squares = 0, cold[4];
        for (int f = 0; f < 4; f++) {
            fold_rows(fold, f, train, &n_train, test, &n_test);
            CHECK(n_test == (f == 0 ? 10u : f == 1 ? 16u : 17u));
            cold[f] = cold_score(km_grid_params(grid, s), data, train, n_train, data, test, n_test, KM_SCORE_AUC);
            CHECK_NEAR(km_cv_scores(results, s)[f], cold[f], 1e-9);
            sum += cold[f];
        }
        for (int f = 0; f < 4; f++)
            squares += pow(cold[f] - sum / 4, 2);
        CHECK_NEAR(km_cv_mean(results, s), sum / 4, 1e-9);
        CHECK_NEAR(km_cv_std(results, s), sqrt(squares / 3), 1e-9);
    }
    km_cv_results_free(results);
    /* nested: one outer split per fold of the caller's */
    options.nested_folds = 3;
    CHECK_OK(km_cv_run(data, grid, &options, &results));
    CHECK(km_cv_n_outer(results) == 4);
    for (size_t o = 0; o < 4; o++) {
        size_t chosen = km_cv_outer_choices(results)[o];
        CHECK(chosen < 2 && km_cv_outer_scores(results)[o] == km_cv_scores(results, chosen)[o]);
    }
    km_cv_results_free(results);
    km_grid_free(grid);
}

/* A caller compiled before fold_of existed passes the shorter struct: the fields past its size keep
 * their defaults, so whatever lies beyond it is not read. */
KM_TEST_CASE(caller_folds_unread_past_an_older_size)
{
    const double c[] = {1};
    km_grid *grid = grid_of(c, 1, 2);
    int all_in_one[N] = {0};   /* refused if it were read */
    km_cv_options older = KM_CV_OPTIONS_INIT, current = KM_CV_OPTIONS_INIT;
    older.size = offsetof(km_cv_options, fold_of);
    older.fold_of = all_in_one;
    older.n_fold_of = N;
    older.folds = current.folds = 3;
    km_cv_results *a, *b;
    CHECK_OK(km_cv_run(data, grid, &older, &a));
    CHECK_OK(km_cv_run(data, grid, &current, &b));
    CHECK(km_cv_n_splits(a) == 3 && km_cv_n_splits(b) == 3);
    for (size_t f = 0; f < 3; f++)
        CHECK(km_cv_scores(a, 0)[f] == km_cv_scores(b, 0)[f]);
    km_cv_results_free(a);
    km_cv_results_free(b);
    current.fold_of = all_in_one;
    current.n_fold_of = N;
    CHECK_STATUS(km_cv_run(data, grid, &current, &b), KM_EINVAL);
    km_grid_free(grid);
}

static void check_folds_refused(const km_grid *grid, const int *fold, size_t n_fold, const km_dataset *validation,
                                const char *message)
{
    km_cv_options options = KM_CV_OPTIONS_INIT;
    options.fold_of = fold;
    options.n_fold_of = n_fold;
    options.validation = validation;
    km_cv_results *results = NULL;
    CHECK_STATUS(km_cv_run(data, grid, &options, &results), KM_EINVAL);
    CHECK(results == NULL);
    if (!strstr(km_last_error(), message))
        fprintf(stderr, "message '%s' lacks '%s'\n", km_last_error(), message);
    CHECK(strstr(km_last_error(), message) != NULL);
}

KM_TEST_CASE(caller_folds_refused)
{
    const double c[] = {1};
    km_grid *grid = grid_of(c, 1, 2);
    int fold[N];
    uneven_folds(fold);
    check_folds_refused(grid, fold, N - 1, NULL, "fold_of: 59 values for 60 rows");
    check_folds_refused(grid, NULL, N, NULL, "n_fold_of is 60 but fold_of is NULL");
    check_folds_refused(grid, fold, N, data, "give it or the folds (fold_of), not both");
    fold[17] = -1;
    check_folds_refused(grid, fold, N, NULL, "fold_of[17] = -1: folds are numbered 0 to at most 59");
    fold[17] = N;
    check_folds_refused(grid, fold, N, NULL, "fold_of[17] = 60: folds are numbered 0 to at most 59");
    for (size_t i = 0; i < N; i++)
        fold[i] = i % 2 ? 2 : 0;   /* no fold 1 */
    check_folds_refused(grid, fold, N, NULL, "fold_of: fold 1 holds no row (the folds 0 to 2 must each hold one)");
    for (size_t i = 0; i < N; i++)
        fold[i] = 0;
    check_folds_refused(grid, fold, N, NULL, "fold_of: 1 fold over 60 rows; cross-validation needs at least 2");
    km_grid_free(grid);
}
