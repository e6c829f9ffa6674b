/* The trained model behind km_model: fitted kernel set, classes, machines and the basis rows
 * (support vectors) their expansions refer to. */
#ifndef KM_TRAIN_MODEL_H
#define KM_TRAIN_MODEL_H

#include <stddef.h>

#include "core/params.h"
#include "core/record.h"
#include "mkl/mkl_params.h"
#include "kernel/kernel.h"
#include "kernel/kernel_context.h"
#include "kernelmix.h"

/* One binary, regression or one-class machine:
 *   f(x) = sum_j coef[j] sum_m theta[m] K_m(x, basis row sv[j]) + bias.
 * A machine with K > 1 outputs (multiclass in one machine) has f_k(x) with coefficients coef[j K + k]
 * and biases[k]; no task trains one yet. */
typedef struct km_machine {
    double *theta;          /* M x weight_groups kernel weights: group g at theta[g M .. g M + M) */
    double bias;
    size_t n_sv;
    size_t *sv;             /* indices into the model's basis rows, ascending */
    double *coef;           /* n_sv values, or n_sv x n_outputs row-major */
    size_t n_outputs;       /* K; 0 and 1 both mean one output (coef n_sv values, bias) */
    double *biases;         /* K > 1: the K biases; NULL otherwise */
    double objective;       /* dual objective of the solver */
    long iterations;
    int converged;
    double primal;          /* MKL: primal objective (NAN without MKL) */
    double gap;             /* MKL: relative duality gap (NAN without MKL) */
    long mkl_iterations;    /* MKL: theta steps / outer iterations */
    double *block_norms;    /* MKL: M values |w_m| = theta_m sqrt(a_m) (NULL: not stored) */
    int class_pos;          /* classification: index (into labels) of the class with f > 0 */
    int class_neg;          /* ... and of the class with f < 0; -1 for one-vs-rest ("the rest") */
} km_machine;

struct km_model {
    km_task task;
    km_multiclass multiclass;
    double C, epsilon, nu, tolerance;   /* training parameters, for km_model_info */
    km_mkl_params mkl;                  /* kernel-weight learning (method, p, p_block, lambda, solver, gap) */
    km_kernel_set *kernels;             /* fitted kernel set (owns everything, matrices excepted) */
    size_t n_classes;                   /* 0 for SVR and one-class */
    double *labels;                     /* class labels in model order */
    size_t n_machines;
    km_machine *machines;
    km_dataset *basis;                  /* basis rows with their features (sparse or dense) */
    size_t *basis_kcol;                 /* per basis row: its column in precomputed test kernels */
    size_t n_train;                     /* training rows (columns of precomputed test kernels) */
    double *target_alignment;           /* MKL: M centred alignments with the labels (NULL: none) */
    double *kernel_alignment;           /* MKL: M x M centred alignments between kernels (NULL: none) */
    size_t weight_groups;               /* kernel-weight sets per machine: 1, or the clusters of a
                                           localized method (one set of M weights per cluster) */
    km_record data;                     /* the method's data beyond the machines (core/record.h) */
    int probability;                    /* 1: probability models fitted by cross-validation (-b 1) */
    double *sigmoid_a, *sigmoid_b;      /* classification: per machine, P(class_pos | f) =
                                           1/(1 + exp(A f + B)) (train/probability.h); NULL: none */
    double laplace_sigma;               /* regression: Laplace width of the residuals y - f(x) */
    /* In memory only, never in model files (NULL for a loaded model): where a model trained in a kernel
     * context came from, for warm starts (km_train_rows_in_context_from): the context, the data rows it
     * was trained on (n_train_rows) and, per basis row, its index among them. */
    const km_kernel_context *context;
    size_t *train_rows, n_train_rows;
    size_t *basis_train_index;
};

/* Allocates a zeroed model with one weight group. */
km_status km_model_alloc(km_model **out);

/* Checks the invariants prediction relies on: at least one kernel, classes and machines consistent
 * with the task (km_model_n_decision machines, class indices within labels), support-vector indices
 * strictly ascending and within the basis, basis rows with their test-kernel columns, the data sections
 * of its method (km_model_check_data). On failure returns
 * `failure` with the message "PATH: ..." (path names the model file being read or written). */
km_status km_model_check(const km_model *model, const char *path, km_status failure);
/* The part of km_model_check on the record's known data sections (model_data_check.c): each entry's
 * shape and values against the model's kernels, machines, weight groups and training rows. */
km_status km_model_check_data(const km_model *model, const char *path, km_status failure);
/* The clustering parameters a localized model keeps in its record (clmkl_cluster.c: clusters, tau,
 * average evenness, clustering kernel) into mkl; mkl is left alone for other models. */
void km_model_clustering_params(const km_model *model, km_mkl_params *mkl);

/* Records in the model what prediction checks test rows against beyond the basis's feature count and
 * storage: the CSV layout of CSV training rows (model_input.c states the rules). */
km_status km_model_record_input(km_model *model, const km_dataset *train);
/* Checks test rows against the rows the model was trained on (KM_EFORMAT naming the test file on a
 * mismatch). *rows is the data to predict from: test itself, or *restricted (owned by the caller,
 * else NULL), a copy without the features the model never saw. */
km_status km_model_test_rows(const km_model *model, const km_dataset *test, const km_dataset **rows,
                             km_dataset **restricted);

#endif
