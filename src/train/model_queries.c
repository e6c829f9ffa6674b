/* Model queries for reports: kernel kinds and each machine's solver figures and classes. */
#include <math.h>

#include "core/error.h"
#include "core/sized_struct.h"
#include "mkl/method.h"
#include "train/model.h"

km_status km_model_machine_info(const km_model *model, size_t machine, km_machine_info *out)
{
    if (machine >= model->n_machines)
        return km_error(KM_EINVAL, "machine %zu does not exist (the model has %zu)", machine, model->n_machines);
    const km_machine *m = &model->machines[machine];
    km_machine_info full = KM_MACHINE_INFO_INIT, *info = &full;
    info->objective = m->objective;
    info->bias = m->bias;
    info->n_sv = m->n_sv;
    info->iterations = m->iterations;
    info->converged = m->converged;
    int mkl = (km_mkl_method_flags(model->mkl.method) & KM_METHOD_LEARNS_WEIGHTS) != 0;
    info->primal = mkl ? m->primal : NAN;
    info->gap = mkl ? m->gap : NAN;
    info->mkl_iterations = mkl ? m->mkl_iterations : 0;
    info->positive_label = NAN;
    info->negative_label = NAN;
    if (km_task_classifies(model->task)) {
        info->positive_label = model->labels[m->class_pos];
        if (m->class_neg >= 0)
            info->negative_label = model->labels[m->class_neg];
    }
    return km_sized_struct_fill(out, &full, sizeof full, offsetof(km_machine_info, negative_label) + sizeof(double),
                                "km_machine_info");
}

const double *km_model_data_values(const km_model *model, const char *section, const char *key, size_t *rows,
                                   size_t *cols)
{
    size_t r = 0, c = 0;
    const double *values = km_record_values(&model->data, section, key, &r, &c);
    if (rows)
        *rows = r;
    if (cols)
        *cols = c;
    return values;
}

km_status km_model_kernel_type(const km_model *model, size_t m, km_kernel_type *type)
{
    if (m >= model->kernels->size)
        return km_error(KM_EINVAL, "kernel %zu does not exist (the model has %zu)", m, model->kernels->size);
    *type = model->kernels->kernels[m].type;
    return KM_OK;
}

const char *km_model_kernel_file(const km_model *model, size_t m)
{
    if (m >= model->kernels->size)
        return NULL;
    const km_kernel *k = &model->kernels->kernels[m];
    return k->type == KM_KERNEL_PRECOMPUTED ? k->file : NULL;
}

km_status km_model_params(const km_model *model, km_params **out)
{
    km_status st = km_params_new(out);
    if (st)
        return st;
    km_params *p = *out;
    p->task = model->task;
    p->multiclass = model->multiclass;
    p->C = model->C;
    p->epsilon = model->epsilon;
    p->nu = model->nu;
    p->tolerance = model->tolerance;
    km_mkl_params mkl = model->mkl;
    km_model_clustering_params(model, &mkl);
    km_mkl_params_write(&mkl, p);
    p->probability = model->probability;
    return KM_OK;
}
