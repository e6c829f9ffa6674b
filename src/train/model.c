/* km_model lifecycle, its invariants and the accessors of the public "Models" API. */
#include "train/model.h"

#include <math.h>
#include <stdlib.h>

#include "core/error.h"
#include "core/names.h"
#include "data/dataset.h"
#include "mkl/method.h"
#include "mkl/mkl_names.h"
#include "train/multiclass.h"

km_status km_model_alloc(km_model **out)
{
    if (!(*out = calloc(1, sizeof **out)))
        return km_error_nomem("a model");
    (*out)->weight_groups = 1;
    return KM_OK;
}

void km_model_free(km_model *model)
{
    if (!model)
        return;
    km_kernel_set_free(model->kernels);
    free(model->labels);
    free(model->target_alignment);
    free(model->kernel_alignment);
    free(model->sigmoid_a);
    free(model->sigmoid_b);
    for (size_t k = 0; model->machines && k < model->n_machines; k++) {
        free(model->machines[k].theta);
        free(model->machines[k].sv);
        free(model->machines[k].coef);
        free(model->machines[k].block_norms);
        free(model->machines[k].biases);
    }
    free(model->machines);
    km_dataset_free(model->basis);
    free(model->basis_kcol);
    free(model->train_rows);
    free(model->basis_train_index);
    km_record_clear(&model->data);
    free(model);
}

km_task km_model_task(const km_model *model) { return model->task; }
size_t km_model_n_kernels(const km_model *model) { return model->kernels ? model->kernels->size : 0; }
size_t km_model_n_classes(const km_model *model) { return model->n_classes; }
const double *km_model_labels(const km_model *model) { return model->labels; }
size_t km_model_n_machines(const km_model *model) { return model->n_machines; }

size_t km_model_n_decision(const km_model *model)
{
    if (km_task_classifies(model->task) && model->multiclass == KM_MULTICLASS_JOINT && model->n_classes > 2)
        return model->n_classes;
    return km_task_classifies(model->task) ? km_binary_problem_count(model->n_classes, model->multiclass) : 1;
}

const double *km_model_kernel_weights(const km_model *model, size_t machine)
{
    return machine < model->n_machines ? model->machines[machine].theta : NULL;
}

size_t km_model_n_sv(const km_model *model, size_t machine)
{
    return machine < model->n_machines ? model->machines[machine].n_sv : 0;
}

double km_model_objective(const km_model *model, size_t machine)
{
    return machine < model->n_machines ? model->machines[machine].objective : NAN;
}

double km_model_bias(const km_model *model, size_t machine)
{
    return machine < model->n_machines ? model->machines[machine].bias : NAN;
}

/* Whether the ascending index list sv[0..n) contains row (binary search). */
static int contains(const size_t *sv, size_t n, size_t row)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (sv[mid] < row)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && sv[lo] == row;
}

size_t km_model_n_sv_total(const km_model *model)
{
    size_t n_rows = 0;
    for (size_t k = 0; k < model->n_machines; k++) {
        const km_machine *machine = &model->machines[k];
        if (machine->n_sv && machine->sv[machine->n_sv - 1] + 1 > n_rows)
            n_rows = machine->sv[machine->n_sv - 1] + 1;
    }
    size_t total = 0;
    for (size_t row = 0; row < n_rows; row++) {
        size_t k = 0;
        while (k < model->n_machines && !contains(model->machines[k].sv, model->machines[k].n_sv, row))
            k++;
        total += k < model->n_machines;
    }
    return total;
}

static km_status check_classes(const km_model *model, const char *path, km_status failure)
{
    if (!km_task_classifies(model->task)) {
        if (model->n_classes != 0)
            return km_error(failure, "%s: a %s model has no classes (found %zu)", path,
                            km_name_of(km_task_names, model->task), model->n_classes);
        return KM_OK;
    }
    if (model->n_classes < 2 || !model->labels)
        return km_error(failure, "%s: classification needs at least two classes (found %zu)", path, model->n_classes);
    for (size_t i = 0; i < model->n_classes; i++)
        for (size_t j = i + 1; j < model->n_classes; j++)
            if (model->labels[i] == model->labels[j])
                return km_error(failure, "%s: class label %.17g appears twice", path, model->labels[i]);
    return KM_OK;
}

/* class_pos in [0, k); class_neg in [0, k) and different, or -1 (the rest) for one-vs-rest. */
static km_status check_machine_classes(const km_model *model, size_t p, const char *path, km_status failure)
{
    const km_machine *machine = &model->machines[p];
    if (!km_task_classifies(model->task))
        return KM_OK;
    long k = (long)model->n_classes;
    int rest_allowed = (model->multiclass == KM_MULTICLASS_OVR || model->multiclass == KM_MULTICLASS_JOINT) &&
                       model->n_classes > 2;
    if (machine->class_pos < 0 || machine->class_pos >= k)
        return km_error(failure, "%s: machine %zu: class index %d is not within the %ld labels", path, p,
                        machine->class_pos, k);
    if (machine->class_neg >= k || machine->class_neg == machine->class_pos ||
        (machine->class_neg < 0 && !(machine->class_neg == -1 && rest_allowed)))
        return km_error(failure, "%s: machine %zu: class index %d is not a second class of the %ld labels", path, p,
                        machine->class_neg, k);
    return KM_OK;
}

static km_status check_machine(const km_model *model, size_t p, const char *path, km_status failure)
{
    const km_machine *machine = &model->machines[p];
    if (!machine->theta)
        return km_error(failure, "%s: machine %zu has no kernel weights", path, p);
    if (machine->n_sv && (!machine->sv || !machine->coef))
        return km_error(failure, "%s: machine %zu has no support vectors", path, p);
    int joint = model->multiclass == KM_MULTICLASS_JOINT && model->n_classes > 2;
    if (joint && machine->n_outputs != model->n_classes)
        return km_error(failure, "%s: machine %zu has %zu outputs; a joint multiclass machine has one per class (%zu)",
                        path, p, machine->n_outputs, model->n_classes);
    if (!joint && machine->n_outputs > 1)
        return km_error(failure, "%s: machine %zu has %zu outputs; %s machines have one", path, p,
                        machine->n_outputs, km_name_of(km_task_names, model->task));
    for (size_t j = 0; j < machine->n_sv; j++) {
        if (machine->sv[j] >= model->basis->n)
            return km_error(failure, "%s: machine %zu: support vector index %zu is beyond the %zu basis rows", path,
                            p, machine->sv[j], model->basis->n);
        if (j > 0 && machine->sv[j] <= machine->sv[j - 1])
            return km_error(failure, "%s: machine %zu: support vector indices are not ascending (%zu after %zu)",
                            path, p, machine->sv[j], machine->sv[j - 1]);
    }
    return check_machine_classes(model, p, path, failure);
}

km_status km_model_check(const km_model *model, const char *path, km_status failure)
{
    if (!model->kernels || model->kernels->size == 0)
        return km_error(failure, "%s: the model has no kernels", path);
    if (!model->basis || !model->basis_kcol)
        return km_error(failure, "%s: the model has no basis rows", path);
    const km_mkl_method_entry *method = km_mkl_method_of(model->mkl.method);
    if (model->weight_groups != 1 && !(method && method->weight_groups))
        return km_error(failure, "%s: %zu kernel-weight groups per machine; the %s method has one", path,
                        model->weight_groups, km_name_of(km_mkl_method_name_table(), model->mkl.method));
    km_status st = check_classes(model, path, failure);
    if (st)
        return st;
    size_t expected = km_task_classifies(model->task) ? km_binary_problem_count(model->n_classes, model->multiclass) : 1;
    if (model->n_machines != expected || !model->machines)
        return km_error(failure, "%s: %zu machines where the task needs %zu", path, model->n_machines, expected);
    for (size_t p = 0; !st && p < model->n_machines; p++)
        st = check_machine(model, p, path, failure);
    return st ? st : km_model_check_data(model, path, failure);
}
