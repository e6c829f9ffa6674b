/* Checks of the input before any kernel value (input_checks.c), and of test rows against a model
 * (model_input.c). */
#ifndef KM_TRAIN_INPUT_CHECKS_H
#define KM_TRAIN_INPUT_CHECKS_H

#include <stddef.h>

#include "kernelmix.h"

/* Whether some kernel of set is computed from features (not precomputed). */
int km_kernels_read_features(const km_kernel_set *set);
/* KM_EINVAL for a kernel whose model could not predict: a precomputed kernel normalized spherically
 * (prediction would need k(x,x) of test rows, which test kernels do not hold). */
km_status km_check_predictable_kernels(const km_kernel_set *set);

/* KM_EINVAL naming the first of rows[0..n) of data (rows NULL: all) whose label is too large a
 * regression target: its squared error would overflow. */
km_status km_check_targets(const km_dataset *data, const size_t *rows, size_t n);

/* What test rows hold that a model never saw: rows with non-zero features beyond the model's (after
 * sparse training prediction ignores them; rows of precomputed kernels or strings have none) and, for
 * a classification model, labelled rows whose label is none of the model's classes. */
typedef struct km_test_coverage {
    size_t model_features;      /* the model's feature count */
    size_t rows_beyond;         /* rows with a non-zero feature beyond it */
    size_t largest_feature;     /* the largest such feature, 1-based (0: none) */
    size_t unknown_labels;      /* rows whose label is not a class of the model */
    double unknown_example;     /* the first such label */
} km_test_coverage;
void km_model_test_coverage(const km_model *model, const km_dataset *test, km_test_coverage *out);

/* How plausible the labels of data are as the classes of task (a task that does not classify: always).
 * KM_LABELS_TOO_MANY: more classes than rows could teach (a label column read from a feature field);
 * KM_LABELS_NOT_INTEGER: some class labels are not integers (regression targets?). why receives a
 * one-line description naming the source and the label field (empty when plausible). */
typedef enum km_label_doubt { KM_LABELS_PLAUSIBLE, KM_LABELS_NOT_INTEGER, KM_LABELS_TOO_MANY } km_label_doubt;
km_label_doubt km_label_doubt_of(const km_dataset *data, km_task task, char *why, size_t size);

/* Logs km_label_doubt_of's description as a warning when the labels are in doubt. */
void km_warn_suspect_labels(const km_dataset *data, const km_params *params);

#endif
