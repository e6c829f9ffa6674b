/* The one outer loop of every alternating (wrapper-type) kernel-weight solver: solve the machines at
 * the current weights, certify the point, stop at the target or a limit, else step the weights. The
 * wrapper, SILP, SimpleMKL, the Tikhonov form and shared multiclass weights differ only in the three
 * callbacks (SHOGUN's perform_mkl_step seam; the interleaved solver takes the same weight step from
 * inside the SMO, km_mkl_method_entry.theta_step). */
#ifndef KM_MKL_ALTERNATE_H
#define KM_MKL_ALTERNATE_H

#include <stddef.h>

#include "mkl/mkl.h"

/* What a weight step did. */
typedef enum km_weight_move {
    KM_MOVED = 0,                /* theta changed; the next iteration solves at it */
    KM_MOVED_EVALUATED = 1,      /* theta changed and the step already solved and certified there */
    KM_AT_FIXED_POINT = 2,       /* theta did not change although the gap is open: the solver
                                    tolerance limits the certificate (tightened, else warned and stop) */
    KM_NOTHING_TO_LEARN = 3      /* every a_m <= 0: the solution does not depend on the kernels (or the
                                    solver tolerance left c = 0: tightened, else stop) */
} km_weight_move;

/* The objectives of a certified point and their relative gap (P - D) / |P|; svm_share: a lower bound on the
 * part of P - D that is the SVM's own gap (km_mkl_svm_share; 0 where the method has none). */
typedef struct km_certified_values {
    double dual, primal, gap;
    double svm_share;
} km_certified_values;

typedef struct km_alternating_solver {
    void *ctx;
    /* Solves the machine(s) at the current theta, warm-started. */
    km_status (*evaluate)(void *ctx);
    /* Certifies the evaluated point at outer iteration t (elapsed seconds): sets *out (and logs its
     * line). */
    km_status (*certify)(void *ctx, long t, double elapsed, km_certified_values *out);
    /* Steps theta; theta_used is the theta of the evaluated point. */
    km_status (*step)(void *ctx, const double *theta_used, km_weight_move *move);
    const char *fixed_point;     /* how the warning names a theta the step does not move: "fixed",
                                    "stationary" */
    double *tolerance;           /* the SVM tolerance evaluate solves with (0: the machine's -e), which a
                                    gap held open by the SVM's own gap (km_mkl_svm_limits_gap), at a fixed
                                    point or stalled over KM_STALL_STEPS outer iterations tightens; NULL:
                                    never tightened */
} km_alternating_solver;

/* What every alternating solver keeps of its last solve; a solver's state begins with it, so that
 * km_alternating_evaluate serves as its evaluate callback. */
typedef struct km_alternating_state {
    const km_mkl_problem *pr;
    km_mkl_result *result;
    double *h, *a;               /* K_m c (n M values) and a_m = c'K_m c (M) at the last solve */
    int h_at_coef;               /* h is K_m c at result->coef (cleared by a solver that writes h) */
} km_alternating_state;

/* The evaluate callback of a state beginning with km_alternating_state: km_mkl_evaluate into h, a. */
km_status km_alternating_evaluate(void *ctx);

/* An outer loop whose certified gap stays within KM_STALL_CHANGE (relative) of one value over
 * KM_STALL_STEPS outer iterations has stalled (a gap that falls slowly or oscillates, as the wrapper's
 * at p = 1 does, has not): its solver tightens the SVM tolerance if it can, else the loop stops, with
 * one warning, at its last point (the constants are mkl.h's). */

/* Runs the loop on problem (its limits and logger) over theta (M values, the problem's kernel
 * weights); on return theta is the one the final solution belongs to, *iterations the outer
 * iterations done and *converged whether the certified gap met its target (problem->mkl.gap): the
 * one meaning of converged for every alternating solver, whichever rule or limit ended the run. */
km_status km_mkl_alternate(const km_mkl_problem *problem, double *theta, size_t M, const km_alternating_solver *solver,
                           long *iterations, int *converged);

#endif
