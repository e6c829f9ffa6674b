/* The method table: one line per kernel-weight method. */
#include "mkl/method.h"

extern const km_mkl_method_entry km_method_fixed, km_method_lp, km_method_elasticnet, km_method_tikhonov;
extern const km_mkl_method_entry km_method_align, km_method_align_q, km_method_alignf, km_method_alignf_linear,
    km_method_l2krr, km_method_l1krr;
extern const km_mkl_method_entry km_method_eb_rw, km_method_eb_mackay;
extern const km_mkl_method_entry km_method_obscure;
extern const km_mkl_method_entry km_method_clmkl, km_method_hlmkl, km_method_lmkl;

static const km_mkl_method_entry *const methods[] = {
    &km_method_fixed,
    &km_method_lp,
    &km_method_elasticnet,
    &km_method_tikhonov,
    &km_method_align,
    &km_method_align_q,
    &km_method_alignf,
    &km_method_alignf_linear,
    &km_method_l2krr,
    &km_method_l1krr,
    &km_method_eb_rw,
    &km_method_eb_mackay,
    &km_method_obscure,
    &km_method_clmkl,
    &km_method_hlmkl,
    &km_method_lmkl,
};

const km_mkl_method_entry *km_mkl_method_of(km_mkl_method id)
{
    for (size_t k = 0; k < sizeof methods / sizeof *methods; k++)
        if (methods[k]->id == id)
            return methods[k];
    return NULL;
}

const km_mkl_method_entry *km_mkl_method_at(size_t k)
{
    return k < sizeof methods / sizeof *methods ? methods[k] : NULL;
}

unsigned km_mkl_method_flags(km_mkl_method id)
{
    const km_mkl_method_entry *method = km_mkl_method_of(id);
    return method ? method->flags : 0;
}

km_param km_mkl_path_parameter(const km_mkl_params *mkl, const char **title)
{
    const km_mkl_method_entry *method = km_mkl_method_of(mkl->method);
    return method && method->path_parameter ? method->path_parameter(mkl, title) : 0;
}
