/* Platt scaling: the probability of the positive class as a sigmoid of the decision value,
 *     P(y = +1 | f) = 1 / (1 + exp(A f + B)),
 * fitted by minimising the cross-entropy against Platt's regularised targets (Platt, "Probabilistic
 * outputs for support vector machines", 1999) with the Newton method and backtracking line search of
 * Lin, Lin & Weng, "A note on Platt's probabilistic outputs for support vector machines", Machine
 * Learning 68 (2007), Algorithm 1 — the method of LIBSVM's -b 1. */
#ifndef KM_SVM_PLATT_H
#define KM_SVM_PLATT_H

#include <stddef.h>

/* How a fit ended; A and B are the last point reached either way (as LIBSVM keeps them). */
typedef enum km_sigmoid_outcome {
    KM_SIGMOID_CONVERGED = 0,        /* both gradient components below 1e-5 */
    KM_SIGMOID_LINE_SEARCH_FAILED,   /* no step of at least 1e-10 decreased the objective */
    KM_SIGMOID_ITERATION_LIMIT       /* 100 Newton steps */
} km_sigmoid_outcome;

/* The regularised targets of Platt (1999), section 2.2: (N+ + 1)/(N+ + 2) for the positive rows and
 * 1/(N- + 2) for the negative ones. */
void km_sigmoid_targets(size_t n_positive, size_t n_negative, double *target_positive, double *target_negative);

/* The objective minimised: sum_i t_i z_i + log(1 + exp(-z_i)), z_i = A f_i + B, the cross-entropy
 * -sum_i t_i log p_i + (1 - t_i) log(1 - p_i) of p_i = 1/(1 + exp(z_i)); evaluated without overflow
 * (Lin, Lin & Weng, eq. 7). positive[i] != 0 marks the rows of the positive class. */
double km_sigmoid_objective(size_t n, const double *f, const unsigned char *positive, double A, double B);

/* Fits A and B on n decision values f with their classes (positive[i] != 0: y_i = +1). Starts from
 * A = 0, B = log((N- + 1)/(N+ + 1)). */
km_sigmoid_outcome km_sigmoid_fit(size_t n, const double *f, const unsigned char *positive, double *A, double *B);

/* P(y = +1 | f) = 1 / (1 + exp(A f + B)), without overflow for any finite A f + B. */
double km_sigmoid_probability(double f, double A, double B);

#endif
