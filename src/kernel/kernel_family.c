/* The table of kernel families (kernel_family.h): adding a family is one line here and its file. */
#include "kernel/kernel_family.h"

#include "core/names.h"

extern const km_kernel_family km_family_linear, km_family_poly, km_family_rbf, km_family_sigmoid;  /* family_dot.c */
extern const km_kernel_family km_family_chi2, km_family_histint;          /* family_histogram.c */
extern const km_kernel_family km_family_precomputed;                       /* family_precomputed.c */
extern const km_kernel_family km_family_spectrum;                          /* family_spectrum.c */
extern const km_kernel_family km_family_wd, km_family_positional;          /* family_wd.c */
extern const km_kernel_family km_family_rank1;                             /* family_rank1.c */

static const km_kernel_family *const families[] = {
    &km_family_linear, &km_family_poly, &km_family_rbf, &km_family_sigmoid,
    &km_family_precomputed, &km_family_chi2, &km_family_histint,
    &km_family_spectrum, &km_family_wd, &km_family_positional,
    &km_family_rank1,
};

#define N_FAMILIES (sizeof families / sizeof *families)

const km_kernel_family *km_kernel_family_of(km_kernel_type type)
{
    for (size_t f = 0; f < N_FAMILIES; f++)
        if (families[f]->type == type)
            return families[f];
    return NULL;
}

const km_kernel_family *km_kernel_family_named(const char *name)
{
    int type;
    return km_value_of(km_kernel_type_names, name, &type) ? km_kernel_family_of((km_kernel_type)type) : NULL;
}
