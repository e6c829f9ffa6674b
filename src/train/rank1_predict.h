/* Prediction with rank-1 kernels (kernel/family_rank1.c) in the primal: a machine's decision
 *     f(x) = b + sum_m theta_m sum_j c_j K_m(x, x_j) = b + sum_m w_m (x_{f(m)} - mean_m),
 *     w_m = theta_m gamma_m sum_j c_j (x_{j f(m)} - mean_m),
 * one weighted dot product of the test row (its stored entries) instead of M kernel blocks over the
 * basis rows. */
#ifndef KM_TRAIN_RANK1_PREDICT_H
#define KM_TRAIN_RANK1_PREDICT_H

#include "train/model.h"

typedef struct km_rank1_predictor km_rank1_predictor;

/* The primal weights of every decision of the model; *out NULL when some kernel is not rank-1 or the
 * model has several weight sets per machine (then prediction goes through the kernel values). */
km_status km_rank1_predictor_new(const km_model *model, km_rank1_predictor **out);
void km_rank1_predictor_free(km_rank1_predictor *predictor);
/* decision[t * nd + r] for the n rows `rows` of test (nd: km_model_n_decision). */
void km_rank1_decisions(const km_rank1_predictor *predictor, const km_dataset *test, const size_t *rows, size_t n,
                        double *decision);

#endif
