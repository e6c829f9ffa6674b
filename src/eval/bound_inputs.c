/* The data-dependent inputs of the bounds of learning kernels (learning_bounds.h): the radius
 * R^2 = max_k max_i K_k(x_i, x_i) and the traces u_k = Tr K_k of the kernels as used (normalized and
 * centred as their specs say), from the training rows (Rostamizadeh's thesis §2.2.1, Thm 2.5-2.8). */
#include <math.h>

#include "core/error.h"
#include "eval/learning_bounds.h"
#include "kernel/provider.h"

km_status km_bound_kernel_inputs(const km_dataset *data, const km_kernel_set *set, double *R2, double *traces)
{
    km_provider *provider;
    km_status st = km_provider_new(data, NULL, 0, set, 0, NULL, &provider);
    if (st != KM_OK)
        return st;
    size_t n = km_provider_n_rows(provider), M = km_provider_n_kernels(provider);
    double radius = 0;
    for (size_t k = 0; k < M; k++) {
        const double *diag = km_provider_diag(provider, k);
        double trace = 0;
        for (size_t i = 0; i < n; i++) {
            trace += diag[i];
            radius = fmax(radius, diag[i]);
        }
        traces[k] = trace;
    }
    km_provider_free(provider);
    *R2 = radius;
    return KM_OK;
}
