/* The method table: one line per kernel-weight method. */
#include "mkl/method.h"

extern const km_mkl_method_entry km_method_fixed, km_method_lp, km_method_elasticnet, km_method_tikhonov;

static const km_mkl_method_entry *const methods[] = {
    &km_method_fixed,
    &km_method_lp,
    &km_method_elasticnet,
    &km_method_tikhonov,
};

const km_mkl_method_entry *km_mkl_method_of(km_mkl_method id)
{
    for (size_t k = 0; k < sizeof methods / sizeof *methods; k++)
        if (methods[k]->id == id)
            return methods[k];
    return NULL;
}
