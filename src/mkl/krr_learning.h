/* What the one-stage KRR kernel-learning methods share (Rostamizadeh's thesis §2.3.1, §3.2): the
 * objective F(mu) = y'(K_mu + lambda I)^-1 y of KRR at weights mu and its gradient -v,
 * v_k = alpha'K_k alpha with alpha = (K_mu + lambda I)^-1 y. With a bias the machine solves the centred
 * problem (svm/krr.h), whose alpha sums to 0, so v_k = alpha'K_kc alpha and F uses the centred targets,
 * as the thesis' centred kernels and labels. */
#ifndef KM_MKL_KRR_LEARNING_H
#define KM_MKL_KRR_LEARNING_H

#include "mkl/mkl.h"

/* The KRR solution at weights mu (copied into the problem's theta): coef (n), bias, products h = K_k
 * coef (M x n), v (M values, negative rounding clamped to 0) and F = z'coef. */
typedef struct km_krr_point {
    double *coef, *h, *v;
    double bias, F;
} km_krr_point;

/* Allocates the point's arrays for the problem's n rows and M kernels. */
km_status km_krr_point_alloc(const km_mkl_problem *problem, km_krr_point *point);
void km_krr_point_free(km_krr_point *point);
/* Solves at mu (the machine's theta becomes mu); *solves counts the machine's iterations. */
km_status km_krr_point_at(const km_mkl_problem *problem, const double *mu, km_krr_point *point, long *solves);
/* KM_EINVAL unless the problem's machine is KRR. */
km_status km_krr_learning_check(const km_mkl_problem *problem);
/* The result from the final point and the duality gap gap_abs = F - D >= 0: coef, bias, products,
 * primal F/2, dual (F - gap)/2 and relative gap, in the machine's C scaling (the KRR dual 1/2 z'coef). */
void km_krr_learning_result(const km_mkl_problem *problem, const km_krr_point *point, double gap_abs,
                            km_mkl_result *result);

#endif
