/* The trained model behind km_model: fitted kernel set, classes, machines and the basis rows
 * (support vectors) their expansions refer to. */
#ifndef KM_MODEL_MODEL_H
#define KM_MODEL_MODEL_H

#include <stddef.h>

#include "kernel/kernel.h"
#include "kernelmix.h"

#define KM_MODEL_FORMAT_VERSION 1

/* One binary, regression or one-class machine:
 *   f(x) = sum_j coef[j] sum_m theta[m] K_m(x, basis row sv[j]) + bias. */
typedef struct km_machine {
    double *theta;          /* M kernel weights */
    double bias;
    size_t n_sv;
    size_t *sv;             /* indices into the model's basis rows, ascending */
    double *coef;
    double objective;       /* dual objective of the solver */
    long iterations;
    int converged;
    int class_pos;          /* classification: index (into labels) of the class with f > 0 */
    int class_neg;          /* ... and of the class with f < 0; -1 for one-vs-rest ("the rest") */
} km_machine;

struct km_model {
    km_task task;
    km_multiclass multiclass;
    double C, epsilon, nu, tolerance;   /* training parameters, for km_model_info */
    km_kernel_set *kernels;             /* fitted kernel set (owns everything, matrices excepted) */
    size_t n_classes;                   /* 0 for SVR and one-class */
    double *labels;                     /* class labels in model order */
    size_t n_machines;
    km_machine *machines;
    km_dataset *basis;                  /* basis rows with their features (sparse or dense) */
    size_t *basis_kcol;                 /* per basis row: its column in precomputed test kernels */
    size_t n_train;                     /* training rows (columns of precomputed test kernels) */
};

/* Allocates a zeroed model. */
km_status km_model_alloc(km_model **out);

#endif
