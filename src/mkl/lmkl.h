/* LMKL, Gonen & Alpaydin's localized MKL with kernelized softmax gating (lmkl.c): the gradient of the
 * SVM's optimal dual value J with respect to the gate inputs z_m(x_i). */
#ifndef KM_MKL_LMKL_H
#define KM_MKL_LMKL_H

#include "kernelmix.h"
#include "svm/svm.h"

/* g[i M + m] = dJ/dz_m(x_i) = -a_i eta_m(x_i) (B_im - A_i) (Lei et al., Eq. D.2) from the gates eta
 * (n x M), the signed coefficients a of the SVM on k_eta (n) and the base kernels of k; gated[m] = 0
 * leaves kernel m out. */
km_status km_lmkl_gradient(const km_kernel_access *k, const double *gated, const double *eta, const double *a,
                           double *g);

#endif
