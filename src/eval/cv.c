/* k-fold cross-validation like LIBSVM's -v: stratified folds for classification (each class's rows
 * shuffled and dealt round-robin), a shuffled split otherwise; every fold trains on the other rows of
 * the same data (and the same precomputed matrices) and predicts its own. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/log.h"
#include "core/params.h"
#include "core/rng.h"
#include "data/dataset.h"
#include "kernel/kernel.h"
#include "train/multiclass.h"
#include "train/train.h"

/* fold[i] in [0, folds) for every row. */
static km_status assign_folds(const km_dataset *data, const km_params *params, int folds, size_t *fold)
{
    size_t n = data->n;
    km_rng rng;
    km_rng_seed(&rng, params->seed);
    size_t *order = malloc(n * sizeof *order);
    if (!order)
        return km_error_nomem("fold assignment");
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    km_rng_shuffle(&rng, order, n);
    if (params->task == KM_TASK_SVC && data->labels) {
        /* stable pass per class over the shuffled order keeps every fold's class mix close to the data's */
        km_classes classes;
        km_status st = km_classes_find(data->labels, n, &classes);
        if (st) {
            free(order);
            return st;
        }
        size_t next = 0;
        for (size_t c = 0; c < classes.n_classes; c++)
            for (size_t k = 0; k < n; k++)
                if (classes.class_of[order[k]] == c)
                    fold[order[k]] = next++ % (size_t)folds;
        km_classes_clear(&classes);
    } else {
        for (size_t k = 0; k < n; k++)
            fold[order[k]] = k * (size_t)folds / n;
    }
    free(order);
    return KM_OK;
}

/* Whether every one of rows[0..n) has the same label (*label): a fold whose other rows are of one class,
 * as when a class has a single row. No classifier can be trained there; like LIBSVM, the fold predicts
 * that class. */
static int one_class_only(const km_dataset *data, const km_params *params, const size_t *rows, size_t n,
                          double *label)
{
    if (params->task != KM_TASK_SVC || !data->labels || n == 0)
        return 0;
    *label = data->labels[rows[0]];
    for (size_t k = 1; k < n; k++)
        if (data->labels[rows[k]] != *label)
            return 0;
    return 1;
}

/* Trains on train_rows and predicts test_rows into predicted (indexed by data row). */
static km_status run_fold(const km_dataset *data, const km_kernel_set *kernels, const km_params *params,
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
    km_status st = km_train_rows(data, train_rows, n_train, kernels, params, &model);
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
        return km_error(KM_EINVAL, "cross-validation needs 2 <= folds <= rows (got %d folds, %zu rows)", folds, n);
    size_t *fold = malloc(n * sizeof *fold);
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
        st = assign_folds(data, params, folds, fold);
    if (!st)
        km_warn_suspect_labels(data, params);
    for (int f = 0; !st && f < folds; f++) {
        size_t n_train = 0, n_test = 0;
        for (size_t i = 0; i < n; i++) {
            if (fold[i] == (size_t)f)
                test_rows[n_test++] = i;
            else
                train_rows[n_train++] = i;
        }
        st = run_fold(data, kernels, params, matrices, train_rows, n_train, test_rows, n_test, f, predicted);
        if (!st && params->progress &&
            params->progress(params->progress_user, "cross-validation", (double)(f + 1) / folds))
            st = km_error(KM_EINTERRUPTED, "cross-validation interrupted");
    }
    free(fold);
    free(train_rows);
    free(test_rows);
    free(matrices);
    return st;
}
