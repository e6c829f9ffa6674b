/* Prediction with low-rank kernels (kernel/family_nystrom.c) in the space of their landmark rows Z: a
 * machine's decision
 *     f(x) = b + sum_m theta_m sum_j c_j k~_m(x, x_j) = b + sum_m s_m(x) k_m(x, Z_m) u_m,
 *     u_m = theta_m P_m P_m' sum_j c_j s_m(x_j) k_m(Z_m, x_j),
 * s_m the normalization's factors (kernel/normalization.h), the u_m computed once from the basis rows.
 * A test row then costs one dot product per landmark row, shared by the kernels with the same landmarks
 * (every width of a grid), and O(L_m) per kernel: never a pass over the support vectors. */
#ifndef KM_TRAIN_LOW_RANK_PREDICT_H
#define KM_TRAIN_LOW_RANK_PREDICT_H

#include "train/model.h"

typedef struct km_low_rank_predictor km_low_rank_predictor;

/* The u_m of every decision of the model; *out NULL when some kernel is not low-rank or centred, or the
 * model has several weight sets per machine (prediction then goes through the kernel values). */
km_status km_low_rank_predictor_new(const km_model *model, km_low_rank_predictor **out);
void km_low_rank_predictor_free(km_low_rank_predictor *predictor);
/* The values one test row takes in km_low_rank_decisions (for sizing blocks of rows). */
size_t km_low_rank_predictor_row_values(const km_low_rank_predictor *predictor);
/* decision[t * nd + d] for the n rows `rows` of test (nd: km_model_n_decision). */
km_status km_low_rank_decisions(const km_low_rank_predictor *predictor, const km_dataset *test, const size_t *rows,
                                size_t n, double *decision);

#endif
