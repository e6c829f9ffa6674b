/* Accessors of the MKL diagnostics a model stores (block norms, alignments) and the bound-factor
 * choice of p computed from a machine's block norms (Kloft, "lp-Norm Multiple Kernel Learning", thesis §5.1.1). */
#include "core/error.h"
#include "core/sized_struct.h"
#include "mkl/diagnostics.h"
#include "train/model.h"

const double *km_model_block_norms(const km_model *model, size_t machine)
{
    return machine < model->n_machines ? model->machines[machine].block_norms : NULL;
}

const double *km_model_target_alignment(const km_model *model) { return model->target_alignment; }

const double *km_model_kernel_alignment(const km_model *model) { return model->kernel_alignment; }

km_status km_model_bound_choice(const km_model *model, size_t machine, km_bound_choice *out)
{
    const double *block_norms = km_model_block_norms(model, machine);
    if (!block_norms)
        return km_error(KM_EINVAL, "machine %zu of the model has no block norms (trained without MKL)", machine + 1);
    km_bound_choice full = KM_BOUND_CHOICE_INIT;
    km_bound_choose(model->kernels->size, block_norms, 0.0, &full);
    return km_sized_struct_fill(out, &full, sizeof full, offsetof(km_bound_choice, flat_high) + sizeof(double),
                                "km_bound_choice");
}
