/* The alignment diagnostics a model keeps for `info` (km_model_alignment): the statistics of
 * mkl/alignment_stats.h of every kernel with the training targets, in the model's record section
 * "target_alignment", from which the centred, uncentred and unnormalized alignments of each kernel and
 * of any combination sum_k mu_k K_k follow without the training data. */
#ifndef KM_TRAIN_ALIGNMENT_RECORD_H
#define KM_TRAIN_ALIGNMENT_RECORD_H

#include "svm/svm.h"
#include "train/model.h"

/* Computes the statistics over the kernels of access with the targets y (n_rows values: +-1 for two
 * classes, the regression targets) and stores them in model->data; the kernel-kernel products (needed
 * for combinations) only when access has at most max_gram_kernels kernels. */
km_status km_model_store_target_alignment(km_model *model, const km_kernel_access *access, const double *y,
                                          size_t max_gram_kernels);

#endif
