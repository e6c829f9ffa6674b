/* What `kernelmix info` shows of a kernel-weight method (mkl/describe.h): the entry's describe, and the
 * pieces the methods' descriptions share. JSON numbers that are not finite are null. */
#include <math.h>

#include "mkl/describe.h"
#include "mkl/method.h"

void km_mkl_describe(const km_mkl_description *d)
{
    const km_mkl_method_entry *method = km_mkl_method_of(d->mkl->method);
    if (method && method->describe)
        method->describe(d);
    else if (method)
        km_mkl_describe_lp(d, 0);
}

const char *km_describe_name(km_enum e, int value)
{
    const char *name = km_enum_name(e, value);
    return name ? name : "unknown";
}

void km_describe_json_member(const km_mkl_description *d, const char *key, double value)
{
    if (isfinite(value))
        fprintf(d->out, ", \"%s\": %.17g", key, value);
    else
        fprintf(d->out, ", \"%s\": null", key);
}

void km_describe_json_array(const km_mkl_description *d, const double *values, size_t n)
{
    fprintf(d->out, "[");
    for (size_t i = 0; i < n; i++) {
        fprintf(d->out, i ? ", " : "");
        if (isfinite(values[i]))
            fprintf(d->out, "%.17g", values[i]);
        else
            fprintf(d->out, "null");
    }
    fprintf(d->out, "]");
}

void km_describe_json_p(const km_mkl_description *d)
{
    km_describe_json_member(d, "p", d->mkl->p);
    km_describe_json_member(d, "p_block", d->mkl->p_block);
}

void km_describe_json_solver(const km_mkl_description *d)
{
    fprintf(d->out, ", \"solver\": \"%s\"", km_describe_name(KM_ENUM_MKL_SOLVER, d->mkl->solver));
    km_describe_json_member(d, "target_gap", d->mkl->gap);
    fprintf(d->out, ", \"shared_weights\": %s", d->mkl->shared_weights ? "true" : "false");
}

void km_mkl_describe_lp(const km_mkl_description *d, int lambda)
{
    const km_mkl_params *mkl = d->mkl;
    if (d->part != KM_DESCRIBE_SETTINGS)
        return;
    if (d->json) {
        km_describe_json_p(d);
        if (lambda)
            km_describe_json_member(d, "lambda", mkl->lambda);
        km_describe_json_solver(d);
        return;
    }
    fprintf(d->out, "%s MKL, p = %.6g (p-block %.6g)", km_describe_name(KM_ENUM_MKL_METHOD, mkl->method), mkl->p,
            mkl->p_block);
    if (lambda)
        fprintf(d->out, ", lambda = %g", mkl->lambda);
    fprintf(d->out, ", %s solver, target gap %g%s\n", km_describe_name(KM_ENUM_MKL_SOLVER, mkl->solver), mkl->gap,
            mkl->shared_weights ? ", shared by all machines" : "");
}

void km_mkl_describe_alignment_head(const km_mkl_description *d)
{
    if (d->part != KM_DESCRIBE_SETTINGS)
        return;
    if (d->json) {
        km_describe_json_p(d);
        km_describe_json_solver(d);
        km_describe_json_member(d, "radius", d->mkl->radius);
    } else {
        fprintf(d->out, "%s (Cortes, Mohri & Rostamizadeh), radius %.6g",
                km_describe_name(KM_ENUM_MKL_METHOD, d->mkl->method), d->mkl->radius);
    }
}

void km_mkl_describe_alignment(const km_mkl_description *d)
{
    km_mkl_describe_alignment_head(d);
    if (d->part == KM_DESCRIBE_SETTINGS && !d->json)
        fprintf(d->out, "\n");
}
