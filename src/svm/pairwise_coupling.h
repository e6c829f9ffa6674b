/* Class probabilities from pairwise ones: the second method of Wu, Lin & Weng, "Probability estimates
 * for multi-class classification by pairwise coupling", JMLR 5 (2004), section 4 (LIBSVM's -b 1):
 *     min_p  1/2 p'Qp  subject to  sum_t p_t = 1,   Q_tt = sum_{j != t} r_jt^2,  Q_tj = -r_jt r_tj,
 * with r_ij the estimate of P(y = i | y in {i, j}) (r_ij + r_ji = 1). */
#ifndef KM_SVM_PAIRWISE_COUPLING_H
#define KM_SVM_PAIRWISE_COUPLING_H

#include <stddef.h>

/* p (k values) from r (k x k, row-major, r[i k + j] = r_ij; the diagonal is not read), by the
 * coordinate iteration of Wu, Lin & Weng (2004), eq. (44)-(45), until max_t |(Qp)_t - p'Qp| < 0.005/k
 * or max(100, k) sweeps. work holds k (k + 1) doubles. Returns 1 when the stopping test was met, 0
 * after the sweep limit (p is then the last iterate, still a distribution). */
int km_pairwise_coupling(size_t k, const double *r, double *p, double *work);

#endif
