/* Short names of a model's kernels for figures, from their canonical specs (km_model_kernel_describe):
 * the family, the feature subset, and the value that tells kernels of one family apart (an RBF's
 * gamma, a polynomial's degree). */
#ifndef KM_PLOT_KERNEL_LABEL_H
#define KM_PLOT_KERNEL_LABEL_H

#include <stddef.h>

#include "kernelmix.h"

typedef struct km_kernel_label {
    char family[32];             /* "rbf" */
    char group[96];              /* family and features: "rbf", "rbf features=1-3" */
    char value[48];              /* "γ=0.0103", "degree 2", or "" */
    double number;               /* the value's number (0.0103, 2), NAN without one */
    char short_name[160];        /* the value, or group and value when the kernel has a feature subset
                                    (or no value): "γ=0.0103", "rbf features=1-3 γ=0.5", "linear" */
    char full[176];              /* "3: rbf γ=0.0103" */
} km_kernel_label;

/* The label of kernel m (0-based) of model. */
void km_kernel_label_of(const km_model *model, size_t m, km_kernel_label *out);

#endif
