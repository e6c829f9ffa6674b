/* km_model_kernel_describe: the fitted kernels of a model in the kernel engine's canonical spec form. */
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
