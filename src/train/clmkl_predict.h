/* Decision values of a model with localized kernel weights (weight_groups > 1, methods clmkl and
 * hlmkl; Lei, Binder, Dogan & Kloft, "Localized Multiple Kernel Learning - A Convex Approach"):
 *     f(x) = sum_j c_j(x) sum_m beta_jm sum_{i in SV} a_i c_ij k_m(x_i, x) + b,
 * with the memberships c_j(x) of the test row from the clustering the model keeps (mkl/clmkl.h). */
#ifndef KM_TRAIN_CLMKL_PREDICT_H
#define KM_TRAIN_CLMKL_PREDICT_H

#include <stddef.h>

#include "train/model.h"

/* Checks a localized model: its clustering record fits its kernels, groups and training rows, and with
 * several weight groups the basis holds every training row. `failure` with "PATH: ..." otherwise. */
km_status km_localized_check(const km_model *model, const char *path, km_status failure);

/* decision[t n_machines + k] for nb_rows test rows from their kernel values with the basis rows,
 * K[(m nb_rows + t) n_basis + b] (km_kernel_cross's layout). */
km_status km_localized_decisions(const km_model *model, const double *K, size_t nb_rows, size_t n_basis,
                                 double *decision);

#endif
