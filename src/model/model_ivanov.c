/* The Ivanov (constrained) equivalent of a machine trained in the Tikhonov form (km_mkl_ivanov). */
#include "core/error.h"
#include "train/model.h"

km_status km_model_ivanov(const km_model *model, size_t machine, km_params **ivanov, double *theta)
{
    *ivanov = NULL;
    if (machine >= model->n_machines)
        return km_error(KM_EINVAL, "machine %zu does not exist (the model has %zu)", machine + 1, model->n_machines);
    km_params *tikhonov;
    km_status st = km_model_params(model, &tikhonov);
    if (st)
        return st;
    st = km_mkl_ivanov(tikhonov, model->kernels->size, model->machines[machine].theta, ivanov, theta);
    km_params_free(tikhonov);
    return st;
}
