/* Splits of the rows for cross-validation (splits.h): the folds of km_folds over a subset of rows (the
 * outer training rows of nested cross-validation are such a subset), repeated with new seeds, the
 * caller's own folds, or a fixed validation set. */
#include "select/splits.h"

#include <stdlib.h>

#include "core/error.h"
#include "data/dataset.h"

void km_splits_clear(km_splits *splits)
{
    for (size_t s = 0; s < splits->n; s++) {
        free(splits->items[s].train);
        free(splits->items[s].test);
    }
    free(splits->items);
    splits->items = NULL;
    splits->n = 0;
}

/* The split of fold f of rows[0..n) (NULL: the rows 0..n-1), fold[i] the fold of the i-th: its rows
 * are scored, all others train. */
static km_status fold_split(const km_dataset *data, const size_t *rows, size_t n, const int *fold, int f,
                            km_split *split)
{
    split->test_data = data;
    split->train = malloc((n ? n : 1) * sizeof *split->train);
    split->test = malloc((n ? n : 1) * sizeof *split->test);
    if (!split->train || !split->test)
        return km_error_nomem("cross-validation splits");
    for (size_t i = 0; i < n; i++) {
        size_t row = rows ? rows[i] : i;
        if (fold[i] == f)
            split->test[split->n_test++] = row;
        else
            split->train[split->n_train++] = row;
    }
    return KM_OK;
}

km_status km_splits_kfold(const km_dataset *data, const size_t *rows, size_t n, int k, int repeats, uint64_t seed,
                          int stratify, km_splits *out)
{
    out->n = 0;
    out->items = NULL;
    if (repeats < 1 || k < 2 || (size_t)k > n)
        return km_error(KM_EINVAL, "%d-fold cross-validation of %zu rows repeated %d times: needs 2 to %zu folds and "
                        "at least one repeat", k, n, repeats, n);
    size_t total = (size_t)k * (size_t)repeats;
    int *fold = malloc(n * sizeof *fold);
    double *labels = malloc(n * sizeof *labels);
    km_status st = fold && labels ? KM_OK : km_error_nomem("cross-validation splits");
    if (!st && !(out->items = calloc(total, sizeof *out->items)))
        st = km_error_nomem("cross-validation splits");
    for (size_t i = 0; !st && i < n; i++)
        labels[i] = data->labels ? data->labels[rows[i]] : 0.0;
    for (int r = 0; !st && r < repeats; r++) {
        st = km_folds(stratify && data->labels ? labels : NULL, n, k, seed + (uint64_t)r, fold);
        for (int f = 0; !st && f < k; f++)
            st = fold_split(data, rows, n, fold, f, &out->items[out->n++]);
    }
    free(fold);
    free(labels);
    if (st)
        km_splits_clear(out);
    return st;
}

km_status km_splits_of_folds(const km_dataset *data, const int *fold_of, size_t n, km_splits *out)
{
    out->n = 0;
    out->items = NULL;
    if (n != data->n)
        return km_error(KM_EINVAL, "fold_of: %zu values for %zu rows (give each row's fold)", n, data->n);
    int last = -1;
    for (size_t i = 0; i < n; i++) {
        if (fold_of[i] < 0 || (size_t)fold_of[i] >= n)
            return km_error(KM_EINVAL, "fold_of[%zu] = %d: folds are numbered 0 to at most %zu (one per row)", i,
                            fold_of[i], n ? n - 1 : 0);
        if (fold_of[i] > last)
            last = fold_of[i];
    }
    size_t k = (size_t)(last + 1);
    if (k < 2)
        return km_error(KM_EINVAL, "fold_of: %zu fold%s over %zu rows; cross-validation needs at least 2", k,
                        k == 1 ? "" : "s", n);
    size_t *rows_in = calloc(k, sizeof *rows_in);
    if (!rows_in)
        return km_error_nomem("cross-validation splits");
    for (size_t i = 0; i < n; i++)
        rows_in[fold_of[i]]++;
    km_status st = KM_OK;
    for (size_t f = 0; !st && f < k; f++)
        if (rows_in[f] == 0)
            st = km_error(KM_EINVAL, "fold_of: fold %zu holds no row (the folds 0 to %zu must each hold one)", f,
                          k - 1);
    free(rows_in);
    if (!st && !(out->items = calloc(k, sizeof *out->items)))
        st = km_error_nomem("cross-validation splits");
    for (size_t f = 0; !st && f < k; f++)
        st = fold_split(data, NULL, n, fold_of, (int)f, &out->items[out->n++]);
    if (st)
        km_splits_clear(out);
    return st;
}

km_status km_splits_validation(const km_dataset *data, const km_dataset *validation, km_splits *out)
{
    out->n = 0;
    if (!(out->items = calloc(1, sizeof *out->items)))
        return km_error_nomem("the validation split");
    km_split *split = &out->items[0];
    out->n = 1;
    split->test_data = validation;
    split->n_train = data->n;
    split->n_test = validation->n;
    split->train = malloc((data->n ? data->n : 1) * sizeof *split->train);
    split->test = malloc((validation->n ? validation->n : 1) * sizeof *split->test);
    if (!split->train || !split->test) {
        km_splits_clear(out);
        return km_error_nomem("the validation split");
    }
    for (size_t i = 0; i < data->n; i++)
        split->train[i] = i;
    for (size_t i = 0; i < validation->n; i++)
        split->test[i] = i;
    return KM_OK;
}
