/* The splits of a cross-validation: which rows train and which rows are scored. */
#ifndef KM_SELECT_SPLITS_H
#define KM_SELECT_SPLITS_H

#include <stddef.h>
#include <stdint.h>

#include "kernelmix.h"

typedef struct km_split {
    size_t *train, n_train;       /* rows of the training data */
    size_t *test, n_test;         /* rows of the scored data */
    const km_dataset *test_data;  /* the training data, or the validation data */
} km_split;

typedef struct km_splits {
    km_split *items;
    size_t n;
} km_splits;

/* k-fold splits of rows[0..n) of data (stratified by label when stratify), repeated `repeats` times
 * with seeds seed, seed + 1, ...: repeat r's fold f is split r k + f; k = n is leave-one-out. */
km_status km_splits_kfold(const km_dataset *data, const size_t *rows, size_t n, int k, int repeats, uint64_t seed,
                          int stratify, km_splits *out);
/* The caller's folds of the rows of data: split f scores the rows i with fold_of[i] == f and trains on
 * the others. KM_EINVAL unless there are n = data's rows values, each in 0..n-1, and the folds 0..max
 * (at least two) each hold a row. */
km_status km_splits_of_folds(const km_dataset *data, const int *fold_of, size_t n, km_splits *out);
/* One split: all rows of data train, all rows of validation are scored. */
km_status km_splits_validation(const km_dataset *data, const km_dataset *validation, km_splits *out);
void km_splits_clear(km_splits *splits);

#endif
