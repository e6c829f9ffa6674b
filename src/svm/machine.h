/* The machine interface: a learning task on the combination sum_m theta_m K_m,
 * solved at the current theta with a warm start, and the quantities a kernel-weight method needs to
 * certify a point without knowing the task: the coefficients c of f = sum_i c_i K(x_i, .) + b, the
 * dual's linear term lin(c), the primal loss at given decision values, and the scaling between the
 * solver's c and the convention of the MKL dual (Kloft, "lp-Norm Multiple Kernel Learning",
 * thesis Problem 2.2 and Table 2.1; one-class solved with sum a = nu n, certified with sum a = 1).
 *
 * Adding a task is one file defining a km_machine_ops and its entry in km_machine_ops_of
 * (docs/architecture.md, "How to add a task (machine)"; the machine seam of "The four seams").
 * A task solved without the SMO (KRR: a linear system) leaves coef_from_alpha NULL; the interleaved
 * solver, which works inside the SMO, then hands over to the wrapper.
 *
 * A task without an MKL certificate (nu-SVC and nu-SVR: their solutions are rescaled by the r the
 * solver finds, so the dual of the kernel-weight problem is not the fixed one these ops describe)
 * leaves coef_from_alpha, linear_term, loss and certificate_scale NULL; training refuses to learn
 * kernel weights for it (fixed weights only). */
#ifndef KM_SVM_MACHINE_H
#define KM_SVM_MACHINE_H

#include <stddef.h>

#include "svm/svm.h"

typedef struct km_machine_ops km_machine_ops;

/* The task data of one machine: which fields a task reads is said by its ops file. */
typedef struct km_machine_problem {
    const km_machine_ops *ops;
    const km_kernel_access *kernel;  /* n rows, M kernels; kernel->theta holds the current weights */
    const signed char *y;            /* classification labels +-1 (n) */
    const double *z;                 /* regression targets (n) */
    double C, weight_pos, weight_neg; /* loss weights: C-SVC C_i = C * weight of the class; SVR, nu-SVR C */
    double epsilon, nu;
    int bias;                        /* KRR and C-SVC: 1 an unregularized bias, 0 none */
    km_smo_options solver;           /* tolerance, shrinking, cache, iteration limit, interrupt, logger */
} km_machine_problem;

struct km_machine_ops {
    km_task task;
    const char *name;                /* for messages: "C-SVC", "epsilon-SVR", "one-class", "nu-SVC", ... */
    /* The parameters (km_param ids, 0-terminated) it reads that not every task reads (C, epsilon, nu,
     * the bias, the multiclass scheme); a parameter no task lists is read by every task. */
    const km_param *params;
    int loss_weighted;               /* 1: C multiplies the loss (penalised forms need it) */
    /* Solves at kernel->theta with the given solver options (an SMO hook included), warm-started from
     * solution->coef when it is non-zero; solution->coef receives c. */
    km_status (*solve)(const km_machine_problem *problem, const km_smo_options *options,
                       km_svm_solution *solution);
    /* 1 when solve, without an SMO hook, works on the kernels' explicit features (svm/dcd.c), linear in
     * the rows: kernel-weight methods then alternate with whole solves instead of hooking SMO steps;
     * NULL: never. */
    int (*on_features)(const km_machine_problem *problem);
    /* c from the SMO variables alpha (what an SMO hook sees). */
    void (*coef_from_alpha)(const km_machine_problem *problem, const double *alpha, double *coef);
    /* lin(c): the linear part of the dual objective at c (in the certificate's scaling). */
    double (*linear_term)(const km_machine_problem *problem, const double *coef);
    /* The primal loss at decision values g_i + b for the best bias b, which goes to *best_bias: the
     * given bias refined by exact minimisation (never worse than it). g and the biases are in the
     * certificate's scaling. */
    double (*loss)(const km_machine_problem *problem, const double *g, double bias, double *best_bias);
    /* Factor from the solver's c to the certificate's (1 except one-class: 1/(nu n)). */
    double (*certificate_scale)(const km_machine_problem *problem);
};

/* The ops of a task; NULL for an unknown task. */
const km_machine_ops *km_machine_ops_of(km_task task);
/* The ops of the k-th task; NULL past the last. */
const km_machine_ops *km_machine_ops_at(size_t k);

/* The certificate_scale of tasks solved in the certificate's scaling: 1. */
double km_machine_unit_scale(const km_machine_problem *problem);

/* True when any of the n coefficients is non-zero (a solve then warm-starts from them). */
int km_machine_warm(const double *coef, size_t n);

/* True when a C-SVC or epsilon-SVR solve runs dual coordinate descent on the kernels' explicit features
 * (svm/dcd.c), linear in the rows: every kernel low-rank and no SMO hook; with a bias, by the descent's
 * search for the bias. The ops' on_features says so only without bias: with it, kernel-weight methods
 * keep hooking the SMO's steps (their certificate then finds the bias from every row's decision value). */
int km_machine_solves_on_features(const km_machine_problem *problem, const km_smo_options *options);

#endif
