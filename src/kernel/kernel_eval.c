/* Kernel values on raw, unnormalized inputs, through the kernel's family (kernel_family.h). */
#include "kernel/kernel_eval.h"

#include <math.h>

#include "core/error.h"
#include "core/names.h"
#include "kernel/kernel_family.h"

int km_kernel_uses_dot(const km_kernel *kernel)
{
    const km_kernel_family *family = km_family(kernel);
    return family && family->input == KM_INPUT_DOT;
}

const char *km_kernel_type_name(km_kernel_type type)
{
    return km_kernel_family_of(type) ? km_name_of(km_kernel_type_names, (int)type) : NULL;
}

double km_kernel_from_dot(const km_kernel *kernel, double dot, double sq_a, double sq_b)
{
    return km_kernel_family_of(kernel->type)->from_dot(kernel, dot, sq_a, sq_b);
}

void km_squared_distances(const double *dot, const double *sqnorm, const size_t *rows, double sq_i, size_t count,
                          double *out)
{
    for (size_t k = 0; k < count; k++) {
        double d2 = sqnorm[rows ? rows[k] : k] + sq_i - 2.0 * dot[k];
        out[k] = d2 > 0 ? d2 : 0.0;
    }
}

void km_kernel_from_dots(const km_kernel *kernel, const double *dot, const double *sqnorm, const size_t *rows,
                         double sq_i, size_t count, double *out)
{
    km_kernel_family_of(kernel->type)->from_dots(kernel, dot, sqnorm, rows, sq_i, count, out);
}

km_status km_kernel_fit_gamma(km_kernel *k, const km_kernel_family *family, size_t dim,
                              km_status (*mean_of)(void *ctx, double *mean), void *ctx)
{
    if (family->gamma_per_feature && !(k->gamma > 0)) {
        if (dim == 0)
            return km_kernel_error(k, "no features for the default gamma");
        k->gamma = 1.0 / (double)dim;
    }
    if (k->gamma_mode == KM_GAMMA_RELATIVE && family->mean_distance) {
        double mean;
        km_status st = mean_of(ctx, &mean);
        if (st)
            return st;
        if (!isfinite(mean))
            return km_kernel_error(k, "the mean distance between training rows overflows double precision (%g): "
                                   "scale the features", mean);
        if (!(mean > 0))
            return km_kernel_error(k, "the training rows are all equal, so the mean distance is 0");
        k->gamma /= mean;
    }
    k->gamma_mode = KM_GAMMA_ABSOLUTE;
    return KM_OK;
}

km_status km_kernel_check_fitted(const km_kernel *kernel)
{
    const km_kernel_family *family = km_kernel_family_of(kernel->type);
    const char *problem = NULL;
    if (!family)
        problem = "its type is unknown";
    else if (family->mean_distance && kernel->gamma_mode != KM_GAMMA_ABSOLUTE)
        problem = "its width is relative to the training data";
    else if (family->gamma_per_feature && !(kernel->gamma > 0))
        problem = "its default gamma depends on the training data";
    else if (kernel->rank && !kernel->projection)
        problem = "its landmark rows are not chosen";
    else if (kernel->center && (!kernel->fitted || !kernel->col_mean))
        problem = "centering needs the training means";
    else if ((kernel->norm == KM_NORM_MULTIPLICATIVE || kernel->norm == KM_NORM_TRACE) && !(kernel->scale > 0))
        problem = "its normalization constant is not fitted";
    if (!problem)
        return KM_OK;
    char name[256];
    km_kernel_describe(kernel, name, sizeof name);
    return km_error(KM_EINVAL, "kernel %s is not fitted: %s", name, problem);
}
