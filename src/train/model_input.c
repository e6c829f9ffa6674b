/* What a model records of the rows it was trained on, and the checks of test rows against it.
 *
 * The feature count and storage are the basis's (dense rows state every feature; sparse rows only
 * reach their largest index). CSV rows add their layout, in the model section "input": the fields per
 * line and the 1-based field of the label (0: none). Test rows must describe the same features:
 *   - after dense training, dense test rows have exactly the model's feature count and sparse test
 *     rows no index beyond it;
 *   - after sparse training, dense test rows have at least the model's feature count, sparse test rows
 *     any indices (fewer trailing features are zeros);
 *   - CSV test rows with as many fields as the training rows read the label from the same field.
 * Features beyond the model's (possible only after sparse training) were zero in every training row;
 * prediction ignores them. Rows whose squared norm overflows are refused, as in training. */
#include <math.h>
#include <string.h>

#include "core/error.h"
#include "data/dataset.h"
#include "train/model.h"
#include "train/input_checks.h"

#define INPUT_SECTION "input"

km_status km_model_record_input(km_model *model, const km_dataset *train)
{
    if (!train->csv_fields)
        return KM_OK;
    km_status st = km_record_set_scalar(&model->data, INPUT_SECTION, "csv_fields", (double)train->csv_fields);
    if (!st)
        st = km_record_set_scalar(&model->data, INPUT_SECTION, "csv_label_column", (double)(train->csv_label_field + 1));
    return st;
}

km_status km_model_csv_layout(const km_model *model, size_t *fields, int *label_column)
{
    double n_fields, label;
    if (km_record_scalar(&model->data, INPUT_SECTION, "csv_fields", &n_fields) ||
        km_record_scalar(&model->data, INPUT_SECTION, "csv_label_column", &label))
        return km_error(KM_EINVAL, "the model was not trained on CSV rows");
    /* whole numbers, the label column within the fields (km_model_check_data) */
    *fields = (size_t)n_fields;
    *label_column = label == 0 ? KM_CSV_NO_LABEL : (int)label - 1;
    return KM_OK;
}

/* CSV test rows laid out like the training rows keep the label where it was. */
static km_status check_csv_label(const km_model *model, const km_dataset *test, const char *name)
{
    size_t fields;
    int label;
    if (!test->csv_fields || test->csv_label_field < 0 || km_model_csv_layout(model, &fields, &label) ||
        label == KM_CSV_NO_LABEL || fields != test->csv_fields || test->csv_label_field == label)
        return KM_OK;
    return km_error(KM_EFORMAT, "%s: the label is read from field %ld of %zu, but the model was trained with the "
                    "label in field %d: read the test rows with the training rows' label column", name,
                    test->csv_label_field + 1, fields, label + 1);
}

km_status km_model_test_rows(const km_model *model, const km_dataset *test, const km_dataset **rows,
                             km_dataset **restricted)
{
    *rows = test;
    *restricted = NULL;
    const km_dataset *basis = model->basis;
    if (!km_kernels_read_features(model->kernels) || basis->ids || test->ids)
        return KM_OK;
    const char *name = test->source ? test->source : "test data";
    km_status st = check_csv_label(model, test, name);
    if (!st)
        st = km_dataset_check_magnitude(test, NULL, 0);
    if (st)
        return st;
    size_t d = basis->d;
    if (!basis->sparse && test->d > d)
        return test->sparse
                   ? km_error(KM_EFORMAT, "%s: feature index %zu is beyond the %zu features the model was trained on",
                              name, test->d, d)
                   : km_error(KM_EFORMAT, "%s: %zu features per row, but the model was trained on %zu", name,
                              test->d, d);
    if (!test->sparse && test->d < d)
        return km_error(KM_EFORMAT, "%s: %zu features per row, but the model was trained on %zu%s", name, test->d, d,
                        test->csv_fields && test->csv_label_field >= 0
                            ? " (if the rows have no label, read them without a label column)"
                            : "");
    if (test->d <= d)
        return KM_OK;
    if ((st = km_dataset_first_features(test, d, restricted)))
        return st;
    *rows = *restricted;
    return KM_OK;
}

void km_model_test_coverage(const km_model *model, const km_dataset *test, km_test_coverage *out)
{
    memset(out, 0, sizeof *out);
    const km_dataset *basis = model->basis;
    out->model_features = basis->d;
    if (km_kernels_read_features(model->kernels) && !basis->ids && !test->ids)
        out->rows_beyond = km_dataset_rows_beyond(test, basis->d, &out->largest_feature);
    if (!test->labels || !km_task_classifies(model->task))
        return;
    for (size_t i = 0; i < test->n; i++) {
        size_t c = 0;
        while (c < model->n_classes && model->labels[c] != test->labels[i])
            c++;
        if (c == model->n_classes && out->unknown_labels++ == 0)
            out->unknown_example = test->labels[i];
    }
}
