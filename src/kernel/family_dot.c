/* The dot-product families (kernel_family.h KM_INPUT_DOT), LIBSVM's forms:
 * linear <x,x'>, poly (gamma <x,x'> + coef0)^degree, rbf exp(-gamma ||x-x'||^2),
 * sigmoid tanh(gamma <x,x'> + coef0). */
#include <math.h>

#include "kernel/feature_view.h"
#include "kernel/kernel_eval.h"
#include "kernel/kernel_family.h"
#include "kernel/vector_exp.h"

/* x^degree, by squaring for integral degrees (the parser only accepts those) */
static double power(double x, double degree)
{
    if (degree != floor(degree) || degree < 0 || degree > 1024)
        return pow(x, degree);
    double result = 1.0;
    for (unsigned e = (unsigned)degree; e; e >>= 1) {
        if (e & 1u)
            result *= x;
        x *= x;
    }
    return result;
}

static double linear_value(const km_kernel *k, double dot, double sq_a, double sq_b)
{
    (void)k, (void)sq_a, (void)sq_b;
    return dot;
}

static void linear_values(const km_kernel *k, const double *dot, const double *sqnorm, const size_t *rows, double sq_x,
                          size_t count, double *out)
{
    (void)k, (void)sqnorm, (void)rows, (void)sq_x;
    for (size_t r = 0; r < count && out != dot; r++)
        out[r] = dot[r];
}

static double poly_value(const km_kernel *k, double dot, double sq_a, double sq_b)
{
    (void)sq_a, (void)sq_b;
    return power(k->gamma * dot + k->coef0, k->degree);
}

static void poly_values(const km_kernel *k, const double *dot, const double *sqnorm, const size_t *rows, double sq_x,
                        size_t count, double *out)
{
    (void)sqnorm, (void)rows, (void)sq_x;
    double gamma = k->gamma, coef0 = k->coef0, degree = k->degree;
    if (degree == 2.0) {   /* the common case as one vectorised loop; the same values as power() */
        for (size_t r = 0; r < count; r++) {
            double v = gamma * dot[r] + coef0;
            out[r] = v * v;
        }
        return;
    }
    for (size_t r = 0; r < count; r++)
        out[r] = power(gamma * dot[r] + coef0, degree);
}

static double rbf_value(const km_kernel *k, double dot, double sq_a, double sq_b)
{
    double d2 = sq_a + sq_b - 2.0 * dot;
    return exp(-k->gamma * (d2 > 0 ? d2 : 0.0));
}

static void rbf_values(const km_kernel *k, const double *dot, const double *sqnorm, const size_t *rows, double sq_x,
                       size_t count, double *out)
{
    km_squared_distances(dot, sqnorm, rows, sq_x, count, out);
    km_vexp(out, -k->gamma, count, out);
}

static double sigmoid_value(const km_kernel *k, double dot, double sq_a, double sq_b)
{
    (void)sq_a, (void)sq_b;
    return tanh(k->gamma * dot + k->coef0);
}

static void sigmoid_values(const km_kernel *k, const double *dot, const double *sqnorm, const size_t *rows,
                           double sq_x, size_t count, double *out)
{
    (void)sqnorm, (void)rows, (void)sq_x;
    double gamma = k->gamma, coef0 = k->coef0;
    for (size_t r = 0; r < count; r++)
        out[r] = tanh(gamma * dot[r] + coef0);
}

/* mean ||x_i - x_j||^2 over the training pairs, on the training rows' feature view */
static km_status mean_squared_distance(const void *view, double *mean) { return km_view_mean_sqdist(view, mean); }

const km_kernel_family km_family_linear = {
    .type = KM_KERNEL_LINEAR,
    .input = KM_INPUT_DOT,
    .params = KM_SPEC_FEATURES,
    .linear_in_argument = 1,
    .from_dot = linear_value,
    .from_dots = linear_values,
};

const km_kernel_family km_family_poly = {
    .type = KM_KERNEL_POLY,
    .input = KM_INPUT_DOT,
    .params = KM_SPEC_FEATURES | KM_SPEC_GAMMA | KM_SPEC_DEGREE | KM_SPEC_COEF0,
    .gamma_per_feature = 1,
    .from_dot = poly_value,
    .from_dots = poly_values,
};

const km_kernel_family km_family_rbf = {
    .type = KM_KERNEL_RBF,
    .input = KM_INPUT_DOT,
    .params = KM_SPEC_FEATURES | KM_SPEC_GAMMA | KM_SPEC_SIGMA,
    .mean_distance = mean_squared_distance,
    .exp_of_squared_distance = 1,
    .from_dot = rbf_value,
    .from_dots = rbf_values,
};

const km_kernel_family km_family_sigmoid = {
    .type = KM_KERNEL_SIGMOID,
    .input = KM_INPUT_DOT,
    .params = KM_SPEC_FEATURES | KM_SPEC_GAMMA | KM_SPEC_COEF0,
    .gamma_per_feature = 1,
    .from_dot = sigmoid_value,
    .from_dots = sigmoid_values,
};
