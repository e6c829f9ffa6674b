/* km_folds: the fold of every row for k-fold cross-validation, as km_cross_validate assigns them:
 * the rows in an order shuffled with the seed, then for classification each class's rows dealt
 * round-robin (every fold's class mix close to the data's), otherwise cut into k consecutive runs. */
#include <math.h>
#include <stdlib.h>

#include "core/error.h"
#include "core/rng.h"
#include "train/multiclass.h"

km_status km_folds(const double *labels, size_t n, int k, uint64_t seed, int *fold_of_row)
{
    if (k < 2 || (size_t)k > n)
        return km_error(KM_EINVAL, "cross-validation needs 2 <= folds <= rows (got %d folds, %zu rows)", k, n);
    for (size_t i = 0; labels && i < n; i++)
        if (!isfinite(labels[i]))
            return km_error(KM_EINVAL, "fold assignment: the label of row %zu is not a finite number", i + 1);
    km_classes classes = {0};
    km_status st = labels ? km_classes_find(labels, n, &classes) : KM_OK;
    size_t *order = st ? NULL : malloc(n * sizeof *order);
    if (!st && !order)
        st = km_error_nomem("fold assignment");
    if (st) {
        km_classes_clear(&classes);
        return st;
    }
    km_rng rng;
    km_rng_seed(&rng, seed);
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    km_rng_shuffle(&rng, order, n);
    if (labels) {
        /* one stable pass per class over the shuffled order */
        size_t next = 0;
        for (size_t c = 0; c < classes.n_classes; c++)
            for (size_t j = 0; j < n; j++)
                if (classes.class_of[order[j]] == c)
                    fold_of_row[order[j]] = (int)(next++ % (size_t)k);
    } else {
        for (size_t j = 0; j < n; j++)
            fold_of_row[order[j]] = (int)(j * (size_t)k / n);
    }
    km_classes_clear(&classes);
    free(order);
    return KM_OK;
}
