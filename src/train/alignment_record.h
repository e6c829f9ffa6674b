/* The alignment diagnostics a model keeps for `info` (km_model_alignment): the statistics of
 * mkl/alignment_stats.h of every kernel with the training targets, in the model's record section
 * "target_alignment", from which the centred, uncentred and unnormalized alignments of each kernel and
 * of any combination sum_k mu_k K_k follow without the training data. */
#ifndef KM_TRAIN_ALIGNMENT_RECORD_H
#define KM_TRAIN_ALIGNMENT_RECORD_H

#include "mkl/alignment_stats.h"
#include "train/model.h"

/* Stores the statistics of the kernels with the training targets (+-1 for two classes, the regression
 * targets) in model->data; the kernel-kernel products (needed for combinations) when s has them. */
km_status km_model_store_target_alignment(km_model *model, const km_alignment_stats *s);

#endif
