/* k-fold cross-validation like LIBSVM's -v: the folds of km_folds (stratified for classification);
 * every fold trains on the other rows of the same data (and the same precomputed matrices) and
 * predicts its own. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/log.h"
#include "core/params.h"
#include "core/progress.h"
#include "data/dataset.h"
#include "kernel/kernel.h"
#include "train/input_checks.h"
#include "train/train.h"

/* Forwards a fold's training progress to the caller's reporter (user) with the fold filled in. */
static int report_in_fold(void *user, const km_progress *progress)
{
    km_progress_reporter *caller = user;
    int fold = caller->now.fold, n_folds = caller->now.n_folds;
    caller->now = *progress;
    caller->now.size = sizeof caller->now;
    caller->now.fold = fold;
    caller->now.n_folds = n_folds;
    return km_progress_report(caller, progress->stage);
}

/* Whether every one of rows[0..n) has the same label (*label): a fold whose other rows are of one class,
 * as when a class has a single row. No classifier can be trained there; like LIBSVM, the fold predicts
 * that class. */
static int one_class_only(const km_dataset *data, const km_params *params, const size_t *rows, size_t n,
                          double *label)
{
    if (!km_task_classifies(params->task) || !data->labels || n == 0)
        return 0;
    *label = data->labels[rows[0]];
    for (size_t k = 1; k < n; k++)
        if (data->labels[rows[k]] != *label)
            return 0;
    return 1;
}

/* Trains on train_rows and predicts test_rows into predicted (indexed by data row). */
static km_status run_fold(km_kernel_context *context, const km_dataset *data, const km_params *params,
                          const km_matrix **matrices, const size_t *train_rows, size_t n_train,
                          const size_t *test_rows, size_t n_test, int f, double *predicted)
{
    double label;
    if (one_class_only(data, params, train_rows, n_train, &label)) {
        km_logger logger = {params->log, params->log_user};
        km_log(&logger, KM_LOG_WARNING, "cross-validation fold %d: every training row has label %g, so its %zu "
               "test rows are predicted as %g", f + 1, label, n_test, label);
        for (size_t k = 0; k < n_test; k++)
            predicted[test_rows[k]] = label;
        return KM_OK;
    }
    km_model *model = NULL;
    km_status st = km_train_rows_in_context(context, train_rows, n_train, params, &model);
    double *fold_pred = st ? NULL : malloc((n_test ? n_test : 1) * sizeof *fold_pred);
    if (!st && !fold_pred)
        st = km_error_nomem("cross-validation predictions");
    if (!st)
        st = km_predict_rows(model, data, test_rows, n_test, matrices, fold_pred, NULL);
    for (size_t k = 0; !st && k < n_test; k++)
        predicted[test_rows[k]] = fold_pred[k];
    free(fold_pred);
    km_model_free(model);
    return st;
}

km_status km_cross_validate(const km_dataset *data, const km_kernel_set *kernels, const km_params *params,
                            int folds, double *predicted)
{
    size_t n = data->n;
    if (folds < 2 || (size_t)folds > n)
        return km_error(KM_EINVAL, "%s: %d-fold cross-validation needs 2 to %zu folds (at most one per row)",
                        data->source ? data->source : "training data", folds, n);
    int *fold = malloc(n * sizeof *fold);
    size_t *train_rows = malloc(n * sizeof *train_rows);
    size_t *test_rows = malloc(n * sizeof *test_rows);
    const km_matrix **matrices = calloc(kernels->size ? kernels->size : 1, sizeof *matrices);
    km_status st = KM_OK;
    if (!fold || !train_rows || !test_rows || !matrices)
        st = km_error_nomem("cross-validation");
    for (size_t m = 0; !st && m < kernels->size; m++)
        matrices[m] = kernels->kernels[m].matrix;
    for (size_t i = 0; !st && i < n; i++)
        train_rows[i] = i;
    double label;
    if (!st && one_class_only(data, params, train_rows, n, &label))
        st = km_error(KM_EINVAL, "%s: all %zu training rows have label %g; classification needs two classes",
                      data->source ? data->source : "training data", n, label);
    if (!st)
        st = km_folds(km_task_classifies(params->task) ? data->labels : NULL, n, folds, params->seed, fold);
    /* the folds share the -m budget and the Gram matrices over all rows; each fits its own widths and
     * normalization on its training rows */
    km_kernel_context *context = NULL;
    km_logger logger = {params->log, params->log_user};
    if (!st)
        st = km_kernel_context_new(data, kernels, km_params_cache_bytes(params), &logger, &context);
    /* every fold trains with the caller's parameters, its progress reported with the fold */
    km_progress_reporter caller;
    km_progress_init(&caller, params->progress, params->progress_user);
    caller.now.n_folds = folds;
    km_params fold_params = *params;
    if (params->progress) {
        fold_params.progress = report_in_fold;
        fold_params.progress_user = &caller;
    }
    if (!st)
        km_warn_suspect_labels(data, params);
    for (int f = 0; !st && f < folds; f++) {
        caller.now.fold = f + 1;
        size_t n_train = 0, n_test = 0;
        for (size_t i = 0; i < n; i++) {
            if (fold[i] == f)
                test_rows[n_test++] = i;
            else
                train_rows[n_train++] = i;
        }
        st = run_fold(context, data, &fold_params, matrices, train_rows, n_train, test_rows, n_test, f, predicted);
        if (!st && km_progress_report(&caller, "fold"))
            st = km_error(KM_EINTERRUPTED, "cross-validation interrupted");
    }
    km_kernel_context_free(context);
    free(fold);
    free(train_rows);
    free(test_rows);
    free(matrices);
    return st;
}
