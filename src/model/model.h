/* The trained model behind km_model: fitted kernel set, classes, machines and the basis rows
 * (support vectors) their expansions refer to. */
#ifndef KM_MODEL_MODEL_H
#define KM_MODEL_MODEL_H

#include <locale.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/params.h"
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
};

/* Allocates a zeroed model. */
km_status km_model_alloc(km_model **out);

/* Checks the invariants prediction relies on: at least one kernel, classes and machines consistent
 * with the task (km_model_n_decision machines, class indices within labels), support-vector indices
 * strictly ascending and within the basis, basis rows with their test-kernel columns. On failure returns
 * `failure` with the message "PATH: ..." (path names the model file being read or written). */
km_status km_model_check(const km_model *model, const char *path, km_status failure);

/* ------------------------------------------------------------------------------------------------
 * Model file format (text, version KM_MODEL_FORMAT_VERSION), one "key value" per line:
 *
 *   kernelmix-model 1
 *   task svc|svr|oneclass          multiclass ovo|ovr       C, epsilon, nu, tolerance (doubles)
 *   n_train N      n_classes K     labels L_1 .. L_K        n_kernels M      kernel_dimension D
 *   n_machines P
 *   M kernel blocks: kernel m (0-based), type, gamma, gamma_mode absolute|relative, coef0, degree,
 *     features all|COUNT i_1 .. i_COUNT (1-based), norm none|mult|spherical|trace, center, file none|"NAME"
 *     (C-style escapes \\ \" \xHH), fitted, scale, mean_all, n_train N_m, col_mean none|v_1 .. v_N_m
 *   optional (learned kernel weights): target_alignment (M values), kernel_alignment (M x M, row-major)
 *   P machine blocks: machine p (0-based), theta (M values), bias, objective, iterations, converged,
 *     [MKL: primal, gap, mkl_iterations, optional block_norms (M values)],
 *     class_pos, class_neg, n_sv S, then S lines "INDEX COEF" (0-based basis row, ascending)
 *   basis_rows B, basis_dim, basis_storage dense|sparse, basis_labels 0|1, basis_ids 0|1, then B lines
 *     "KCOL [LABEL] [ID] FEATURES" with FEATURES the basis_dim values (dense) or "i:v" pairs (sparse,
 *     1-based ascending indices)
 *   checksum crc32 XXXXXXXX        CRC-32 (IEEE 802.3) of every byte before this line, 8 lowercase hex
 *
 * Doubles are written with %.17g, so that reading a file reproduces every value bit for bit and
 * writing it again reproduces the file byte for byte. Non-finite values are rejected both ways.
 * ---------------------------------------------------------------------------------------------- */

#define KM_MODEL_MAGIC "kernelmix-model"

/* Names of the enumerations in model files; tables end with {0, NULL}. */
typedef struct km_name {
    int value;
    const char *name;
} km_name;
extern const km_name km_task_names[];
extern const km_name km_multiclass_names[];
extern const km_name km_mkl_method_names[];
extern const km_name km_mkl_solver_names[];
extern const km_name km_mkl_regularizer_names[];
extern const km_name km_kernel_type_names[];
extern const km_name km_normalization_names[];
extern const km_name km_gamma_mode_names[];
/* Name of value in table, or NULL when the table has none. */
const char *km_name_of(const km_name *table, int value);
/* Sets *value to the value called name in table and returns 1; returns 0 when there is none. */
int km_value_of(const km_name *table, const char *name, int *value);


/* CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320) of n bytes, continuing from crc
 * (0 to start): km_crc32(km_crc32(0, a, n), b, m) is the CRC of a followed by b. */
uint32_t km_crc32(uint32_t crc, const void *data, size_t n);


#endif
