/* Platt scaling fitted by Newton's method with backtracking (svm/platt.h). */
#include "svm/platt.h"

#include <math.h>

/* Newton iterations, smallest step, Hessian shift and gradient tolerance of Lin, Lin & Weng (2007),
 * Algorithm 1 (LIBSVM's values). */
#define MAX_ITERATIONS 100
#define MIN_STEP 1e-10
#define HESSIAN_SHIFT 1e-12
#define GRADIENT_TOLERANCE 1e-5

void km_sigmoid_targets(size_t n_positive, size_t n_negative, double *target_positive, double *target_negative)
{
    *target_positive = ((double)n_positive + 1.0) / ((double)n_positive + 2.0);
    *target_negative = 1.0 / ((double)n_negative + 2.0);
}

static void count_classes(size_t n, const unsigned char *positive, size_t *n_positive, size_t *n_negative)
{
    *n_positive = 0;
    for (size_t i = 0; i < n; i++)
        *n_positive += positive[i] != 0;
    *n_negative = n - *n_positive;
}

/* t z + log(1 + exp(-z)) written so that exp never overflows: for z < 0 it is (t - 1) z + log(1 + exp(z)). */
static double cross_entropy_term(double t, double z)
{
    return z >= 0 ? t * z + log1p(exp(-z)) : (t - 1.0) * z + log1p(exp(z));
}

static double objective(size_t n, const double *f, const unsigned char *positive, double t_pos, double t_neg,
                        double A, double B)
{
    double sum = 0.0;
    for (size_t i = 0; i < n; i++)
        sum += cross_entropy_term(positive[i] ? t_pos : t_neg, A * f[i] + B);
    return sum;
}

double km_sigmoid_objective(size_t n, const double *f, const unsigned char *positive, double A, double B)
{
    size_t n_positive, n_negative;
    double t_pos, t_neg;
    count_classes(n, positive, &n_positive, &n_negative);
    km_sigmoid_targets(n_positive, n_negative, &t_pos, &t_neg);
    return objective(n, f, positive, t_pos, t_neg, A, B);
}

double km_sigmoid_probability(double f, double A, double B)
{
    double z = A * f + B;
    /* 1/(1 + e^z) as e^-z/(1 + e^-z) for z >= 0: no overflow, and 1 - p keeps its digits */
    return z >= 0 ? exp(-z) / (1.0 + exp(-z)) : 1.0 / (1.0 + exp(z));
}

km_sigmoid_outcome km_sigmoid_fit(size_t n, const double *f, const unsigned char *positive, double *A, double *B)
{
    size_t n_positive, n_negative;
    double t_pos, t_neg;
    count_classes(n, positive, &n_positive, &n_negative);
    km_sigmoid_targets(n_positive, n_negative, &t_pos, &t_neg);
    double a = 0.0, b = log(((double)n_negative + 1.0) / ((double)n_positive + 1.0));
    double value = objective(n, f, positive, t_pos, t_neg, a, b);
    km_sigmoid_outcome outcome = KM_SIGMOID_ITERATION_LIMIT;
    for (int iteration = 0; iteration < MAX_ITERATIONS; iteration++) {
        /* gradient g and Hessian H of the objective in (A, B); dF/dz_i = t_i - p_i, d2F/dz_i2 = p_i (1 - p_i) */
        double h11 = HESSIAN_SHIFT, h22 = HESSIAN_SHIFT, h21 = 0.0, g1 = 0.0, g2 = 0.0;
        for (size_t i = 0; i < n; i++) {
            double p = km_sigmoid_probability(f[i], a, b), d2 = p * (1.0 - p), d1 = (positive[i] ? t_pos : t_neg) - p;
            h11 += f[i] * f[i] * d2;
            h22 += d2;
            h21 += f[i] * d2;
            g1 += f[i] * d1;
            g2 += d1;
        }
        if (fabs(g1) < GRADIENT_TOLERANCE && fabs(g2) < GRADIENT_TOLERANCE) {
            outcome = KM_SIGMOID_CONVERGED;
            break;
        }
        /* Newton direction -H^{-1} g, then the largest step 2^-k with sufficient decrease (Armijo, 1e-4) */
        double det = h11 * h22 - h21 * h21;
        double dA = -(h22 * g1 - h21 * g2) / det, dB = -(-h21 * g1 + h11 * g2) / det;
        double slope = g1 * dA + g2 * dB, step = 1.0;
        while (step >= MIN_STEP) {
            double next = objective(n, f, positive, t_pos, t_neg, a + step * dA, b + step * dB);
            if (next < value + 1e-4 * step * slope) {
                a += step * dA;
                b += step * dB;
                value = next;
                break;
            }
            step /= 2.0;
        }
        if (step < MIN_STEP) {
            outcome = KM_SIGMOID_LINE_SEARCH_FAILED;
            break;
        }
    }
    *A = a;
    *B = b;
    return outcome;
}
