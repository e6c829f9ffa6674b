/* Model queries for reports: kernel kinds and each machine's solver figures and classes. */
#include <math.h>

#include "core/error.h"
#include "train/model.h"

km_status km_model_machine_info(const km_model *model, size_t machine, km_machine_info *info)
{
    if (machine >= model->n_machines)
        return km_error(KM_EINVAL, "machine %zu does not exist (the model has %zu)", machine, model->n_machines);
    const km_machine *m = &model->machines[machine];
    info->objective = m->objective;
    info->bias = m->bias;
    info->n_sv = m->n_sv;
    info->iterations = m->iterations;
    info->converged = m->converged;
    int mkl = model->mkl.method != KM_MKL_FIXED;
    info->primal = mkl ? m->primal : NAN;
    info->gap = mkl ? m->gap : NAN;
    info->mkl_iterations = mkl ? m->mkl_iterations : 0;
    info->positive_label = NAN;
    info->negative_label = NAN;
    if (model->task == KM_TASK_SVC) {
        info->positive_label = model->labels[m->class_pos];
        if (m->class_neg >= 0)
            info->negative_label = model->labels[m->class_neg];
    }
    return KM_OK;
}

km_kernel_type km_model_kernel_type(const km_model *model, size_t m)
{
    return model->kernels->kernels[m].type;
}

const char *km_model_kernel_file(const km_model *model, size_t m)
{
    const km_kernel *k = &model->kernels->kernels[m];
    return k->type == KM_KERNEL_PRECOMPUTED ? k->file : NULL;
}

km_mkl_params km_model_mkl_params(const km_model *model)
{
    return model->mkl;
}
