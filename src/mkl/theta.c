#include "mkl/theta.h"

#include <math.h>

void km_theta_init(size_t M, double p, double *theta)
{
    double value = isinf(p) ? (double)M : pow((double)M, -(2.0 - p) / p);
    for (size_t m = 0; m < M; m++)
        theta[m] = value;
}

static int any_positive(size_t M, const double *a)
{
    for (size_t m = 0; m < M; m++)
        if (a[m] > 0)
            return 1;
    return 0;
}

/* log v_m of the quantity a theta form is a power of: the block norm |w_m| = theta_m sqrt(a_m)
 * (primal form) or a_m clamped below by floor (dual form); -inf stands for v_m = 0. */
static double log_value(int primal, double a, double theta, double floor)
{
    if (primal)
        return a > 0 && theta > 0 ? log(theta) + 0.5 * log(a) : -INFINITY;
    return log(a > floor ? a : floor);
}

/* theta_m = v_m^e / (sum_k v_k^f)^s in log space (log-sum-exp), in place; v_m = 0 gives theta_m = 0
 * (only the primal form has v_m = 0, and there e = 2 - p > 0). */
static void power_ratio(size_t M, int primal, const double *a, double floor, double e, double f, double s,
                        double *theta)
{
    double top = -INFINITY, sum = 0;
    for (size_t m = 0; m < M; m++) {
        double x = f * log_value(primal, a[m], theta[m], floor);
        if (x > top)
            top = x;
    }
    for (size_t m = 0; m < M; m++) {
        double lv = log_value(primal, a[m], theta[m], floor);
        if (isfinite(lv))
            sum += exp(f * lv - top);
    }
    double lse = top + log(sum);
    for (size_t m = 0; m < M; m++) {
        double lv = log_value(primal, a[m], theta[m], floor);
        theta[m] = isfinite(lv) ? exp(e * lv - s * lse) : 0.0;
    }
}

/* Absorbing zero (a kernelmix safeguard, docs/mkl.md "Numerical safeguards"): the primal-form and elastic-net
 * steps multiply theta_m by a power of sqrt(a_m), so at p = 1 (a power iteration) a weight at 0 would stay 0
 * even when its kernel is needed at the optimum. Weights are raised to 1e-12 of the largest before such a step,
 * so a kernel whose block norm grows can come back; a kernel with a_m <= 0 still gets exactly 0. */
static void floor_weights(size_t M, double *theta)
{
    double top = 0;
    for (size_t m = 0; m < M; m++)
        top = fmax(top, theta[m]);
    for (size_t m = 0; m < M; m++)
        theta[m] = fmax(theta[m], KM_THETA_FLOOR * top);
}

int km_theta_lp_step(size_t M, double p, const double *a, double *theta)
{
    if (!any_positive(M, a))
        return 0;
    if (p == 2.0) {
        for (size_t m = 0; m < M; m++)
            theta[m] = 1.0;
        return 1;
    }
    if (p < 2.0) {
        floor_weights(M, theta);
        power_ratio(M, 1, a, 0.0, 2.0 - p, p, (2.0 - p) / p, theta);
        return 1;
    }
    /* dual form; a_m clamped away from 0 because its exponent is negative (section 3.6) */
    double top = 0;
    for (size_t m = 0; m < M; m++)
        if (a[m] > top)
            top = a[m];
    if (isinf(p)) /* limits of the exponents: (2-p)/(2(p-1)) -> -1/2, p/(2(p-1)) -> 1/2, (2-p)/p -> -1 */
        power_ratio(M, 0, a, 1e-12 * top, -0.5, 0.5, -1.0, theta);
    else
        power_ratio(M, 0, a, 1e-12 * top, (2.0 - p) / (2.0 * (p - 1.0)), p / (2.0 * (p - 1.0)), (2.0 - p) / p, theta);
    return 1;
}

int km_theta_elasticnet_step(size_t M, double lambda, const double *a, double *theta)
{
    if (!any_positive(M, a))
        return 0;
    floor_weights(M, theta);
    double total = 0;
    for (size_t m = 0; m < M; m++)
        total += a[m] > 0 ? theta[m] * sqrt(a[m]) : 0.0;
    if (!(total > 0))
        return 0;
    for (size_t m = 0; m < M; m++) {
        double eta = (a[m] > 0 ? theta[m] * sqrt(a[m]) : 0.0) / total;
        theta[m] = eta / ((1.0 - lambda) + lambda * eta);
    }
    return 1;
}

void km_block_weights(km_block_regularizer reg, double param, size_t M, const double *block_norm, double *d)
{
    for (size_t m = 0; m < M; m++) {
        double f = block_norm[m];
        switch (reg) {
        case KM_BLOCK_ONE: d[m] = f; break;
        case KM_BLOCK_LQ: d[m] = pow(f, 2.0 / (1.0 + param)); break;
        case KM_BLOCK_UNIFORM: d[m] = 1.0; break;
        case KM_BLOCK_P_ABOVE_2: d[m] = f > 0 ? pow(f, 2.0 - param) : INFINITY; break;
        case KM_BLOCK_ELASTICNET: d[m] = f / ((1.0 - param) + param * f); break;
        }
    }
}

double km_mkl_norm(size_t M, double e, const double *x)
{
    double top = 0, sum = 0;
    for (size_t m = 0; m < M; m++)
        if (x[m] > top)
            top = x[m];
    if (top == 0)
        return 0;
    for (size_t m = 0; m < M; m++)
        sum += x[m] > 0 ? pow(x[m] / top, e) : 0.0;
    return top * pow(sum, 1.0 / e);
}

void km_theta_onto_lp_sphere(size_t M, double p, double *theta)
{
    double norm = km_mkl_norm(M, p, theta);
    for (size_t m = 0; norm > 0 && m < M; m++)
        theta[m] /= norm;
}

double km_mkl_dual_norm(size_t M, double p, const double *a)
{
    double top = 0, sum = 0;
    for (size_t m = 0; m < M; m++)
        if (a[m] > top)
            top = a[m];
    if (p == 1.0 || top == 0)
        return top;
    if (isinf(p)) {
        for (size_t m = 0; m < M; m++)
            sum += a[m] > 0 ? sqrt(a[m]) : 0.0;
        return sum * sum;
    }
    return km_mkl_norm(M, p / (2.0 * (p - 1.0)), a);
}

double km_block_norm_squared(size_t M, double p, const double *block_norm)
{
    double top = 0, sum = 0;
    for (size_t m = 0; m < M; m++)
        if (block_norm[m] > top)
            top = block_norm[m];
    if (top == 0)
        return 0;
    if (isinf(p))
        return top * top;
    for (size_t m = 0; m < M; m++)
        sum += pow(block_norm[m] / top, p);
    return top * top * pow(sum, 2.0 / p);
}

double km_theta_largest_change(size_t M, const double *before, const double *after)
{
    double largest = 0.0;
    for (size_t m = 0; m < M; m++)
        largest = fmax(largest, fabs(after[m] - before[m]));
    return largest;
}

int km_theta_moved(size_t M, const double *before, const double *after)
{
    double top = 0;
    for (size_t m = 0; m < M; m++)
        top = fmax(top, fabs(before[m]));
    for (size_t m = 0; m < M; m++)
        if (fabs(after[m] - before[m]) > 1e-12 * top)
            return 1;
    return 0;
}
