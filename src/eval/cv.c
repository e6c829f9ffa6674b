/* k-fold cross-validation like LIBSVM's -v: the folds of km_folds (stratified for classification);
 * every fold trains on the other rows of the same data (and the same precomputed matrices) and
 * predicts its own. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/params.h"
#include "core/progress.h"
#include "data/dataset.h"
#include "kernel/kernel.h"
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

km_status km_cross_validate(const km_dataset *data, const km_kernel_set *kernels, const km_params *params,
                            int folds, double *predicted)
{
    size_t n = data->n;
    if (folds < 2 || (size_t)folds > n)
        return km_error(KM_EINVAL, "cross-validation needs 2 <= folds <= rows (got %d folds, %zu rows)", folds, n);
    int *fold = malloc(n * sizeof *fold);
    size_t *train_rows = malloc(n * sizeof *train_rows);
    size_t *test_rows = malloc(n * sizeof *test_rows);
    const km_matrix **matrices = calloc(kernels->size ? kernels->size : 1, sizeof *matrices);
    km_status st = KM_OK;
    if (!fold || !train_rows || !test_rows || !matrices)
        st = km_error_nomem("cross-validation");
    for (size_t m = 0; !st && m < kernels->size; m++)
        matrices[m] = kernels->kernels[m].matrix;
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
    for (int f = 0; !st && f < folds; f++) {
        caller.now.fold = f + 1;
        size_t n_train = 0, n_test = 0;
        for (size_t i = 0; i < n; i++) {
            if (fold[i] == f)
                test_rows[n_test++] = i;
            else
                train_rows[n_train++] = i;
        }
        km_model *model = NULL;
        st = km_train_rows_in_context(context, train_rows, n_train, &fold_params, &model);
        double *fold_pred = st ? NULL : malloc(n_test * sizeof *fold_pred);
        if (!st && !fold_pred)
            st = km_error_nomem("cross-validation predictions");
        if (!st)
            st = km_predict_rows(model, data, test_rows, n_test, matrices, fold_pred, NULL);
        for (size_t k = 0; !st && k < n_test; k++)
            predicted[test_rows[k]] = fold_pred[k];
        free(fold_pred);
        km_model_free(model);
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
