/* Training and prediction on a subset of a dataset's rows (cross-validation trains on some rows and
 * predicts others of the same data and the same precomputed matrices). */
#ifndef KM_TRAIN_TRAIN_H
#define KM_TRAIN_TRAIN_H

#include "kernel/kernel_context.h"
#include "svm/smo.h"
#include "kernelmix.h"

/* km_train on rows[0..n) of data (rows NULL: all rows). Precomputed matrices are indexed by data rows. */
km_status km_train_rows(const km_dataset *data, const size_t *rows, size_t n, const km_kernel_set *kernels,
                        const km_params *params, km_model **out);

/* What km_train_rows checks before it trains: rows, kernels, parameters, labels or targets and the
 * features' magnitudes (rows NULL: all n rows of data). */
km_status km_train_check_inputs(const km_dataset *data, const size_t *rows, size_t n, const km_kernel_set *kernels,
                                const km_params *params);
/* km_train_rows on this process's part rows[0..n) of a problem whose rows are split over processes
 * (data-parallel training): fitted is the kernel set with every data-dependent value fitted on all rows,
 * the classes are those of every row of data, and the solvers sum over the partition. The model on rank 0
 * holds every part's support rows, in data order; the others get NULL. */
km_status km_train_rows_partitioned(const km_dataset *data, const size_t *rows, size_t n, const km_kernel_set *fitted,
                                    const km_params *params, const km_row_partition *partition, km_model **out);

/* The -m budget in bytes (0 when not positive). */
size_t km_params_cache_bytes(const km_params *params);

/* km_train_rows on the context's dataset and kernel set, sharing its budget and Gram matrices (the
 * folds of a cross-validation, the points of a grid search). The model is for scoring held-out rows:
 * it has no alignment diagnostics (km_model_target_alignment and the like give none). */
km_status km_train_rows_in_context(km_kernel_context *context, const size_t *rows, size_t n, const km_params *params,
                                   km_model **out);
/* The same, warm-started from start (NULL: cold): a model trained in the same context on the same rows with
 * the same task, method, classes and machines, by a method that takes a warm start (lp-norm MKL), at
 * another C or p. Each machine then starts from start's machine: its kernel weights moved onto this
 * setting's feasible set and, for C-SVC, its coefficients scaled by C / C_start. It reaches the certified
 * optimum a cold training reaches, within the duality gaps both certify. Any other start trains cold. */
km_status km_train_rows_in_context_from(km_kernel_context *context, const size_t *rows, size_t n,
                                        const km_params *params, const km_model *start, km_model **out);

/* km_predict on rows[0..n) of test (rows NULL: all rows); test_kernels as in km_predict, rows indexed
 * by test rows. */
km_status km_predict_rows(const km_model *model, const km_dataset *test, const size_t *rows, size_t n,
                          const km_matrix *const *test_kernels, double *labels, double *decision);

/* The model's side of prediction, computed once for many calls (predict.c): on rank-1 or low-rank
 * kernels the weights in their features' or landmarks' space, a pass over the support rows that
 * km_predict_rows otherwise makes at every call (nothing for other models). */
typedef struct km_prediction_prep km_prediction_prep;
km_status km_prediction_prep_new(const km_model *model, km_prediction_prep **out);
void km_prediction_prep_free(km_prediction_prep *prep);
/* km_predict_range with the model's prep (from km_prediction_prep_new on the same model). */
km_status km_predict_range_prepared(const km_model *model, const km_prediction_prep *prep, const km_dataset *test,
                                    size_t first, size_t count, const km_matrix *const *test_kernels,
                                    double *labels, double *decision);

#endif
