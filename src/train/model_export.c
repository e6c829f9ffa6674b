/* The support vectors of a model for bindings: which training rows the basis holds and each machine's
 * coefficients on them (scikit-learn's support_ and dual_coef_). */
#include <string.h>

#include "core/error.h"
#include "train/model.h"

size_t km_model_n_basis(const km_model *model) { return model->basis ? km_dataset_rows(model->basis) : 0; }

km_status km_model_basis_rows(const km_model *model, size_t *rows)
{
    size_t n = km_model_n_basis(model);
    if (n && !model->basis_kcol)
        return km_error(KM_EINVAL, "the model's basis rows have no training row");
    for (size_t j = 0; j < n; j++)
        rows[j] = model->basis_kcol[j];
    return KM_OK;
}

km_status km_model_machine_support(const km_model *model, size_t machine, size_t *basis_index, double *coef)
{
    if (machine >= model->n_machines)
        return km_error(KM_EINVAL, "machine %zu does not exist (the model has %zu)", machine, model->n_machines);
    const km_machine *m = &model->machines[machine];
    if (m->n_outputs > 1)
        return km_error(KM_EINVAL, "machine %zu has %zu outputs; km_model_machine_support reads one", machine,
                        m->n_outputs);
    for (size_t j = 0; j < m->n_sv; j++) {
        if (basis_index)
            basis_index[j] = m->sv[j];
        if (coef)
            coef[j] = m->coef[j];
    }
    return KM_OK;
}

size_t km_model_machine_outputs(const km_model *model, size_t machine)
{
    if (machine >= model->n_machines)
        return 0;
    return model->machines[machine].n_outputs > 1 ? model->machines[machine].n_outputs : 1;
}

km_status km_model_machine_support_outputs(const km_model *model, size_t machine, size_t *basis_index, double *coef)
{
    size_t K = km_model_machine_outputs(model, machine);
    if (!K)
        return km_error(KM_EINVAL, "machine %zu does not exist (the model has %zu)", machine, model->n_machines);
    const km_machine *m = &model->machines[machine];
    for (size_t j = 0; j < m->n_sv; j++) {
        if (basis_index)
            basis_index[j] = m->sv[j];
        if (coef)
            memcpy(coef + j * K, m->coef + j * K, K * sizeof *coef);
    }
    return KM_OK;
}
