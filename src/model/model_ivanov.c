/* The Ivanov (constrained) equivalent of a machine trained in the Tikhonov form (km_mkl_ivanov). */
#include "core/error.h"
#include "train/model.h"

km_status km_model_ivanov(const km_model *model, size_t machine, km_mkl_params *ivanov, double *C_ivanov,
                          double *theta)
{
    if (machine >= model->n_machines)
        return km_error(KM_EINVAL, "machine %zu does not exist (the model has %zu)", machine + 1, model->n_machines);
    return km_mkl_ivanov(&model->mkl, model->C, model->kernels->size, model->machines[machine].theta, ivanov, C_ivanov,
                         theta);
}
