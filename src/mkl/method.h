/* The method table (docs/architecture.md, "The four seams"): every way of obtaining kernel weights is one entry, defined in
 * its family's file (method_fixed.c; method_lp.c: lp-norm and elastic net; blocknorm.c: the Tikhonov
 * form) and listed in methods.c. The training driver (src/train) knows methods only through this
 * table: adding a method is its file, its line in methods.c and its tests (docs/architecture.md). */
#ifndef KM_MKL_METHOD_H
#define KM_MKL_METHOD_H

#include <stddef.h>

#include "mkl/mkl.h"

typedef struct km_mkl_method_entry {
    km_mkl_method id;            /* its name is in the name table (core/names.c) */
    /* 0: the weights are given (no base-kernel columns, no diagnostics); 1: learned, which needs every
     * base kernel separately (per-kernel columns, alignments, block norms, degenerate-kernel check). */
    int learns_weights;
    /* The parameters (km_param ids, 0-terminated) it reads that not every method reads: those of its
     * weights, solver and stopping rules. A parameter no method lists (the machine's, the cache's, the
     * seed) is read by every method; km_param_read_by answers from these lists. */
    const km_param *params;
    /* The task parameters (svm/machine.h) it does not pass on, 0-terminated; NULL: none. */
    const km_param *ignores;
    /* Validates the user's parameters and fills in the method's defaults (p_block from p, ...). */
    km_status (*resolve)(const km_mkl_params *in, km_mkl_params *out);
    /* Starting weights (M values); NULL: the given weights are kept. */
    void (*start)(const km_mkl_params *mkl, size_t M, double *theta);
    /* Learns theta (problem->machine->kernel->theta, holding the start) together with the machine's
     * solution: coef, bias and, for given weights, the objective; learned weights fill the certificate
     * (dual, primal, gap), whose dual km_mkl_train reports as the objective. */
    km_status (*train)(const km_mkl_problem *problem, km_mkl_result *result);
    /* The same for count machines sharing one theta array (multiclass); NULL: not offered. */
    km_status (*train_shared)(const km_mkl_problem *problems, size_t count, km_mkl_result *results);
    /* The closed-form weight step from a_m = c'K_m c that the interleaved solver takes inside the SMO
     * and the alternating solvers between solves; 0 when nothing changed. NULL: none. */
    int (*theta_step)(const km_mkl_params *mkl, size_t M, const double *a, double *theta);
    /* Defaults that depend on the number of kernels M, applied once the kernels are known (OBSCURE's
     * p_block from M); NULL: none. */
    void (*fit_defaults)(km_mkl_params *mkl, size_t M);
    /* 1: more than two classes are one machine with one output per class (KM_MULTICLASS_JOINT): train
     * gets the classes in problem->class_of and fills n x n_outputs coefficients. */
    int joint_multiclass;
    /* 1: reads kernel values in blocks of rows (kernel_blocks) and keeps none between requests, so the
     * provider holds neither Gram matrices nor cached columns for it. */
    int reads_row_blocks;
    /* 1: train sets result->objective to its primal value (OBSCURE's f(w)); 0: the reported objective
     * is -D in LIBSVM's sign (km_mkl_train). */
    int objective_is_primal;
    /* Kernel-weight sets per machine with M kernels (a localized method: one per cluster or gate; the
     * machine's theta then holds M values per set, set g at theta[g M]); NULL: one. */
    size_t (*weight_groups)(const km_mkl_params *mkl, size_t M);
} km_mkl_method_entry;

/* The entry of a method; NULL when there is none. */
const km_mkl_method_entry *km_mkl_method_of(km_mkl_method id);
/* The k-th entry of the table; NULL past its end. */
const km_mkl_method_entry *km_mkl_method_at(size_t k);

#endif
