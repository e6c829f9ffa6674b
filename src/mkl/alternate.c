#include "mkl/alternate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/error.h"
#include "mkl/theta.h"

km_status km_alternating_evaluate(void *ctx)
{
    km_alternating_state *s = ctx;
    km_status st = km_mkl_evaluate(s->pr, s->result, s->h, s->h_at_coef, s->a);
    s->h_at_coef = !st;
    return st;
}

/* Tightens the solver's SVM tolerance (km_mkl_tighten) from the one used; 0 when the solver keeps its
 * tolerance or it is at its floor. */
static int tighten(const km_mkl_problem *pr, const km_alternating_solver *solver, double used, double dual,
                   double svm_gap)
{
    if (!solver->tolerance)
        return 0;
    double tolerance = used;
    if (!km_mkl_tighten(pr, &tolerance, dual, svm_gap))
        return 0;
    *solver->tolerance = tolerance;
    return 1;
}

km_status km_mkl_alternate(const km_mkl_problem *pr, double *theta, size_t M, const km_alternating_solver *solver,
                           long *iterations, int *converged)
{
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    double *theta_used = malloc(M * sizeof *theta_used);
    km_status st = theta_used ? KM_OK : km_error_nomem("the MKL outer loop");
    int evaluated = 0;
    double anchor = 0;    /* a gap, and the outer iterations since whose gaps all stayed within */
    long flat = 0;               /* KM_STALL_CHANGE of it */
    *converged = 0;
    *iterations = 0;
    for (long t = 1; !st && t <= pr->mkl.max_outer; t++) {
        memcpy(theta_used, theta, M * sizeof *theta_used);
        if (!evaluated && (st = solver->evaluate(solver->ctx)))
            break;
        double elapsed = km_mkl_seconds_since(&start);
        km_certified_values certified;
        if ((st = solver->certify(solver->ctx, t, elapsed, &certified)))
            break;
        *iterations = t;
        *converged = certified.gap <= pr->mkl.gap;
        km_mkl_report_certified(pr, t, theta_used, M, certified.dual, certified.primal, certified.gap);
        if (*converged || km_mkl_limit_reached(pr, t, elapsed, certified.gap))
            break;
        double used = solver->tolerance && *solver->tolerance > 0 ? *solver->tolerance : pr->machine->solver.tolerance;
        int stalled = 0;
        if (t == 1 || !(fabs(certified.gap - anchor) <= KM_STALL_CHANGE * anchor)) {
            anchor = certified.gap;
            flat = 0;
        } else {
            stalled = ++flat >= KM_STALL_STEPS;
        }
        km_weight_move move = KM_MOVED;
        if (!stalled && (st = solver->step(solver->ctx, theta_used, &move)))
            break;
        /* theta has settled but the SVM's own gap holds the certificate open: no theta step closes it; the
         * next solve, at the stepped theta, is tighter */
        if (!stalled && move == KM_MOVED && km_theta_largest_change(M, theta_used, theta) <= pr->mkl.theta_tol &&
            km_mkl_svm_limits_gap(pr, certified.gap, certified.dual, certified.primal, certified.svm_share) &&
            tighten(pr, solver, used, certified.dual, certified.svm_share))
            flat = 0;
        if (stalled || move == KM_AT_FIXED_POINT || move == KM_NOTHING_TO_LEARN) {
            /* theta stays (or the gap does) while the gap is open: the SVM tolerance limits the certificate
             * (warm-started solves that already meet it stay unchanged while theta moves; every a_m = 0
             * where a tolerance so loose left c = 0); solve the same theta more tightly, or warn */
            if (tighten(pr, solver, used, certified.dual, certified.primal - certified.dual)) {
                evaluated = 0;
                flat = 0;
                continue;
            }
            if (move != KM_NOTHING_TO_LEARN)
                st = km_mkl_gap_stuck(pr, used, certified.dual, certified.primal, certified.gap,
                                      stalled ? "stalled" : solver->fixed_point);
            break;
        }
        evaluated = move == KM_MOVED_EVALUATED;
    }
    if (!st)
        memcpy(theta, theta_used, M * sizeof *theta_used); /* the theta the final solution belongs to */
    free(theta_used);
    return st;
}
