/* Multiple kernel learning for one machine (spec/lpmkl.md): the problem the solvers share (also the
 * plain SVM problem of a machine with fixed weights), the
 * duality certificate of §4, and the solver entry points (wrapper, interleaved, SILP, SimpleMKL).
 *
 * Every solver works in the block-norm convention p (= km_mkl_params.p_block after resolution) and
 * keeps theta in problem->kernel->theta. Quantities follow spec §2: c = expansion coefficients,
 * a_m = c'K_m c, lin = the task's linear dual term, D = lin - 1/2 ||a||_r, and the primal P of §4.
 * One-class problems are solved in LIBSVM's scaling (sum a = nu n) and certified in the spec's
 * (sum a = 1): both give the same theta. */
#ifndef KM_MKL_MKL_H
#define KM_MKL_MKL_H

#include <stddef.h>

#include "core/log.h"
#include "kernelmix.h"
#include "svm/svm.h"

typedef struct km_mkl_problem {
    km_task task;
    const km_kernel_access *kernel;  /* n rows, M kernels; kernel->theta holds theta */
    const signed char *y;            /* C-SVC labels +-1 (n) */
    const double *z;                 /* epsilon-SVR targets (n) */
    double C, weight_pos, weight_neg; /* C-SVC: C_i = C * weight of the class; SVR: C */
    double epsilon, nu;
    km_smo_options smo;              /* tolerance, shrinking, cache, iteration limit, logger */
    km_mkl_params mkl;               /* resolved: p_block set, gap/eps/max_outer defaults applied */
    km_logger logger;
} km_mkl_problem;

/* Where a solver ends (and, for the wrapper, where it may start: coef non-zero = warm start). */
typedef struct km_mkl_result {
    double *coef;                    /* n values, caller-allocated */
    double bias;
    double dual;                     /* D (spec scaling) */
    double primal;                   /* P (spec scaling) */
    double gap;                      /* (P - D) / |P| */
    double objective;                /* -D in LIBSVM's scaling: the machine's reported objective */
    long mkl_iterations;             /* theta steps or outer iterations */
    long smo_iterations;             /* working-set steps over all SVM solves */
    int converged;                   /* gap reached; 0 at max_outer or max_time */
} km_mkl_result;

/* Duality certificate of a point (c, b, theta) from the products h_m = K_m c (M blocks of n values):
 * a_m, lin, D, P and the relative gap, in the spec's scaling. */
typedef struct km_mkl_certificate {
    double lin;
    double dual, primal, gap;
} km_mkl_certificate;

/* h[m n + i] = (K_m c)_i over the rows, from kernel columns of the rows with c != 0. */
km_status km_mkl_products(const km_mkl_problem *problem, const double *coef, double *h);
/* a[m] = c'K_m c from the products. */
void km_mkl_quadratic_terms(size_t n, size_t M, const double *coef, const double *h, double *a);
/* Certificate of (coef, bias, theta) with a = c'K_m c and h = K_m c; the bias is refined by exact
 * minimisation of the primal loss over its breakpoints (which only lowers P). */
void km_mkl_certify(const km_mkl_problem *problem, const double *coef, double bias, const double *a,
                    const double *h, km_mkl_certificate *out);

/* theta step of the problem's regularizer (lp or elastic net) from a_m; 0 when nothing changed. */
int km_mkl_theta_step(const km_mkl_problem *problem, const double *a, double *theta);

/* Solves the SVM of the problem's task on the current combination, warm-started from solution->coef
 * when it is non-zero (the dual variables are recovered from c: alpha = y c, alpha - alpha* = c,
 * alpha = c), with the given SMO options (hook or not). */
km_status km_mkl_solve_svm(const km_mkl_problem *problem, const km_smo_options *options,
                           km_svm_solution *solution);

/* Solvers. On entry theta is the starting point (km_mkl_start); the result holds the solution. */
km_status km_mkl_wrapper(const km_mkl_problem *problem, km_mkl_result *result);
km_status km_mkl_interleaved(const km_mkl_problem *problem, km_mkl_result *result);

/* Resolves user parameters: p_block from p, defaults, validation (KM_EINVAL with a message). */
km_status km_mkl_resolve(const km_mkl_params *in, size_t n_kernels, km_mkl_params *out);
/* The starting theta of the regularizer (spec §3.1: M^{-(2-p)/p}; elastic net: uniform 1/M). */
void km_mkl_start(const km_mkl_params *mkl, size_t M, double *theta);
/* Runs the solver the parameters ask for. */
km_status km_mkl_train(const km_mkl_problem *problem, km_mkl_result *result);

#endif
