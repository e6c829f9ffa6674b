/* Kernel formulas on raw values (kernelmix.h km_kernel_type, LIBSVM's forms for poly and sigmoid). */
#include "kernel/kernel_eval.h"

#include <math.h>
#include <stdint.h>

#include "core/error.h"
#include "kernel/vector_exp.h"

int km_kernel_uses_dot(km_kernel_type type)
{
    return type == KM_KERNEL_LINEAR || type == KM_KERNEL_POLY || type == KM_KERNEL_RBF || type == KM_KERNEL_SIGMOID;
}

const char *km_kernel_type_name(km_kernel_type type)
{
    switch (type) {
    case KM_KERNEL_LINEAR: return "linear";
    case KM_KERNEL_POLY: return "poly";
    case KM_KERNEL_RBF: return "rbf";
    case KM_KERNEL_SIGMOID: return "sigmoid";
    case KM_KERNEL_PRECOMPUTED: return "precomputed";
    case KM_KERNEL_CHI2: return "chi2";
    case KM_KERNEL_HISTINT: return "histint";
    }
    return NULL;
}

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

double km_kernel_from_dot(const km_kernel *kernel, double dot, double sq_a, double sq_b)
{
    switch (kernel->type) {
    case KM_KERNEL_POLY:
        return power(kernel->gamma * dot + kernel->coef0, kernel->degree);
    case KM_KERNEL_RBF: {
        double d2 = sq_a + sq_b - 2.0 * dot;
        return exp(-kernel->gamma * (d2 > 0 ? d2 : 0.0));
    }
    case KM_KERNEL_SIGMOID:
        return tanh(kernel->gamma * dot + kernel->coef0);
    default:
        return dot;
    }
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
    double gamma = kernel->gamma, coef0 = kernel->coef0, degree = kernel->degree;
    switch (kernel->type) {
    case KM_KERNEL_RBF:
        km_squared_distances(dot, sqnorm, rows, sq_i, count, out);
        km_vexp(out, -gamma, count, out);
        break;
    case KM_KERNEL_POLY:
        for (size_t k = 0; k < count; k++)
            out[k] = power(gamma * dot[k] + coef0, degree);
        break;
    case KM_KERNEL_SIGMOID:
        for (size_t k = 0; k < count; k++)
            out[k] = tanh(gamma * dot[k] + coef0);
        break;
    default:
        for (size_t k = 0; k < count && out != dot; k++)
            out[k] = dot[k];
        break;
    }
}

/* Visits the union of the stored columns of two rows (a dense row stores every column). */
#define FOR_EACH_COLUMN_PAIR(a, b, x, y, BODY)                                                       \
    do {                                                                                           \
        size_t p_ = 0, q_ = 0;                                                                     \
        while (p_ < (a).nnz || q_ < (b).nnz) {                                                     \
            size_t ca_ = p_ < (a).nnz ? ((a).col ? (a).col[p_] : p_) : SIZE_MAX;                   \
            size_t cb_ = q_ < (b).nnz ? ((b).col ? (b).col[q_] : q_) : SIZE_MAX;                   \
            double x = 0.0, y = 0.0;                                                               \
            if (ca_ <= cb_)                                                                        \
                x = (a).val[p_++];                                                                 \
            if (cb_ <= ca_)                                                                        \
                y = (b).val[q_++];                                                                 \
            BODY;                                                                                  \
        }                                                                                          \
    } while (0)

static double chi2_term(double x, double y)
{
    double s = x + y;
    return s > 0 ? (x - y) * (x - y) / s : 0.0;
}

double km_chi2_distance(km_view_row a, km_view_row b)
{
    double sum = 0.0;
    if (!a.col && !b.col) {
        for (size_t j = 0; j < a.nnz; j++)
            sum += chi2_term(a.val[j], b.val[j]);
        return sum;
    }
    FOR_EACH_COLUMN_PAIR(a, b, x, y, sum += chi2_term(x, y));
    return sum;
}

static double histogram_intersection(km_view_row a, km_view_row b)
{
    double sum = 0.0;
    if (!a.col && !b.col) {
        for (size_t j = 0; j < a.nnz; j++)
            sum += a.val[j] < b.val[j] ? a.val[j] : b.val[j];
        return sum;
    }
    FOR_EACH_COLUMN_PAIR(a, b, x, y, sum += x < y ? x : y);
    return sum;
}

double km_kernel_pair(const km_kernel *kernel, km_view_row a, km_view_row b)
{
    if (kernel->type == KM_KERNEL_CHI2)
        return exp(-kernel->gamma * km_chi2_distance(a, b));
    return histogram_intersection(a, b);
}

km_status km_kernel_check_fitted(const km_kernel *kernel)
{
    const char *problem = NULL;
    if ((kernel->type == KM_KERNEL_RBF || kernel->type == KM_KERNEL_CHI2) && kernel->gamma_mode != KM_GAMMA_ABSOLUTE)
        problem = "its width is relative to the training data";
    else if ((kernel->type == KM_KERNEL_POLY || kernel->type == KM_KERNEL_SIGMOID) && !(kernel->gamma > 0))
        problem = "its default gamma depends on the training data";
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
