/* km_model_kernel_describe: the fitted kernels of a model in the kernel engine's canonical spec form;
 * and the questions the layers above ask of the model's kernel-weight method (model/model_describe.h). */
#include "model/model_describe.h"
#include "train/model.h"

size_t km_model_kernel_describe(const km_model *model, size_t m, char *buf, size_t size)
{
    if (!model->kernels || m >= model->kernels->size) {
        if (size)
            buf[0] = '\0';
        return 0;
    }
    return km_kernel_set_describe(model->kernels, m, buf, size);
}

unsigned km_model_method_flags(const km_model *model) { return km_mkl_method_flags(model->mkl.method); }

void km_model_method_describe(const km_model *model, km_describe_part part, size_t machine, int json, FILE *out)
{
    if (part == KM_DESCRIBE_MACHINE && machine >= model->n_machines)
        return;
    km_mkl_params mkl = model->mkl;   /* as km_model_params gives them */
    km_model_clustering_params(model, &mkl);
    km_mkl_description d = {.part = part, .json = json, .out = out, .mkl = &mkl, .C = model->C,
                            .M = model->kernels->size, .record = &model->data,
                            .theta = part == KM_DESCRIBE_MACHINE ? model->machines[machine].theta : NULL};
    km_mkl_describe(&d);
}

km_param km_model_path_parameter(const km_model *model, const char **title)
{
    return km_mkl_path_parameter(&model->mkl, title);
}
