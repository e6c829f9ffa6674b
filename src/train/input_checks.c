/* Checks of the input before any kernel value: whether kernels read features at all, regression
 * targets whose squared errors would overflow, and class labels that look like a feature column (a
 * CSV label read from the wrong column). */
#include <math.h>

#include "core/error.h"
#include "core/log.h"
#include "core/params.h"
#include "data/dataset.h"
#include "kernel/kernel.h"
#include "train/multiclass.h"
#include "train/train.h"

int km_kernels_read_features(const km_kernel_set *set)
{
    for (size_t m = 0; m < set->size; m++)
        if (set->kernels[m].type != KM_KERNEL_PRECOMPUTED)
            return 1;
    return 0;
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

/* A label column read from a feature column takes many distinct values that are not integers; class
 * labels rarely do. */
#define KM_SUSPECT_NONINTEGER_CLASSES 10

void km_warn_suspect_labels(const km_dataset *data, const km_params *params)
{
    if (params->task != KM_TASK_SVC || !data->labels)
        return;
    km_classes classes;
    if (km_classes_find(data->labels, data->n, &classes))
        return;
    size_t non_integer = 0;
    for (size_t c = 0; c < classes.n_classes; c++)
        non_integer += classes.labels[c] != floor(classes.labels[c]);
    if (non_integer >= KM_SUSPECT_NONINTEGER_CLASSES) {
        km_logger logger = {params->log, params->log_user};
        km_log(&logger, KM_LOG_WARNING,
               "%s: the labels take %zu distinct values on %zu rows, %zu of them not integers: they look like a "
               "feature%s", data->source ? data->source : "training data", classes.n_classes, data->n, non_integer,
               data->csv_fields ? " (is the label in another column of the CSV file?)" : "");
    }
    km_classes_clear(&classes);
}
