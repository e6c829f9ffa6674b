/* Checks of the input before any kernel value: whether kernels read features at all, kernels whose
 * model could not predict, regression targets whose squared errors would overflow, and class labels
 * that look like a feature column (a CSV label read from the wrong column). */
#include <math.h>
#include <stdio.h>

#include "core/error.h"
#include "core/log.h"
#include "core/params.h"
#include "data/dataset.h"
#include "kernel/kernel.h"
#include "train/multiclass.h"
#include "train/input_checks.h"

int km_kernels_read_features(const km_kernel_set *set)
{
    for (size_t m = 0; m < set->size; m++)
        if (set->kernels[m].type != KM_KERNEL_PRECOMPUTED)
            return 1;
    return 0;
}

km_status km_check_predictable_kernels(const km_kernel_set *set)
{
    for (size_t m = 0; m < set->size; m++) {
        const km_kernel *k = &set->kernels[m];
        if (k->type == KM_KERNEL_PRECOMPUTED && k->norm == KM_NORM_SPHERICAL)
            return km_error(KM_EINVAL, "kernel %zu (%s): spherical normalization of a precomputed kernel needs "
                            "k(x,x) of every test row, which a test kernel does not hold (nor do the test rows of "
                            "cross-validation): normalize the matrix before, K(i,j) / sqrt(K(i,i) K(j,j)), or use "
                            "norm=mult", m + 1, k->file ? k->file : "precomputed");
    }
    return KM_OK;
}

/* Squared errors and the sums of squares behind the mean squared error and the squared correlation
 * stay finite for targets up to this magnitude on any number of rows (n 1e200 < 1.8e308). */
#define KM_MAX_TARGET 1e100

km_status km_check_targets(const km_dataset *data, const size_t *rows, size_t n)
{
    if (!data->labels)
        return KM_OK;
    if (!rows)
        n = data->n;
    for (size_t k = 0; k < n; k++) {
        size_t i = rows ? rows[k] : k;
        if (fabs(data->labels[i]) > KM_MAX_TARGET)
            return km_error(KM_EINVAL, "%s: row %zu: target %g is beyond +-%g, where squared errors overflow double "
                            "precision: scale the targets", data->source ? data->source : "the data", i + 1,
                            data->labels[i], KM_MAX_TARGET);
    }
    return KM_OK;
}

/* Classes a classification could plausibly learn: a label column read from a feature column (a CSV label
 * in another field) takes a value per row or two. At least this many classes averaging at most two rows
 * each, or more than KM_MANY_CLASSES averaging fewer than KM_FEW_ROWS_PER_CLASS rows each, are not
 * classes. */
#define KM_SUSPECT_CLASSES 10
#define KM_MANY_CLASSES 100
#define KM_FEW_ROWS_PER_CLASS 5

km_label_doubt km_label_doubt_of(const km_dataset *data, km_task task, char *why, size_t size)
{
    if (size)
        why[0] = '\0';
    if (!km_task_classifies(task) || !data->labels)
        return KM_LABELS_PLAUSIBLE;
    km_classes classes;
    if (km_classes_find(data->labels, data->n, &classes))
        return KM_LABELS_PLAUSIBLE;
    size_t K = classes.n_classes, n = data->n, non_integer = 0;
    double example = 0;
    for (size_t c = 0; c < K; c++)
        if (classes.labels[c] != floor(classes.labels[c]) && non_integer++ == 0)
            example = classes.labels[c];
    km_classes_clear(&classes);
    const char *source = data->source ? data->source : "training data";
    char column[96] = "";
    if (data->csv_fields && data->csv_label_field >= 0)
        snprintf(column, sizeof column, " (field %ld of %zu)", data->csv_label_field + 1, data->csv_fields);
    if ((K >= KM_SUSPECT_CLASSES && 2 * K >= n) || (K > KM_MANY_CLASSES && n < KM_FEW_ROWS_PER_CLASS * K)) {
        char integers[64] = "";
        if (non_integer)
            snprintf(integers, sizeof integers, ", %zu of them not integers", non_integer);
        snprintf(why, size, "%s: the labels%s take %zu distinct values on %zu rows%s: too many classes to learn, "
                 "they look like a feature", source, column, K, n, integers);
        return KM_LABELS_TOO_MANY;
    }
    if (non_integer) {
        snprintf(why, size, "%s: %zu of the %zu class labels%s are not integers (e.g. %g): every distinct value is "
                 "a class (regression targets need the task svr, nu-svr or krr)", source, non_integer, K, column,
                 example);
        return KM_LABELS_NOT_INTEGER;
    }
    return KM_LABELS_PLAUSIBLE;
}

void km_warn_suspect_labels(const km_dataset *data, const km_params *params)
{
    char why[512];
    km_label_doubt doubt = km_label_doubt_of(data, params->task, why, sizeof why);
    if (doubt == KM_LABELS_PLAUSIBLE)
        return;
    km_logger logger = {params->log, params->log_user};
    km_log(&logger, KM_LOG_WARNING, "%s%s", why,
           doubt == KM_LABELS_TOO_MANY && data->csv_fields ? " (is the label in another column of the CSV file?)" : "");
}
