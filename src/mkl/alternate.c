#include "mkl/alternate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/error.h"

km_status km_alternating_evaluate(void *ctx)
{
    km_alternating_state *s = ctx;
    return km_mkl_evaluate(s->pr, s->result, s->h, s->a);
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
        int settled = 0;
        if ((st = solver->certify(solver->ctx, t, elapsed, &certified, &settled)))
            break;
        *iterations = t;
        *converged = certified.gap <= pr->mkl.gap;
        km_mkl_report_step(pr, t, certified.gap);
        if (*converged || settled || km_mkl_limit_reached(pr, t, elapsed, certified.gap))
            break;
        if (t == 1 || !(fabs(certified.gap - anchor) <= KM_STALL_CHANGE * anchor)) {
            anchor = certified.gap;
            flat = 0;
        } else if (++flat >= KM_STALL_STEPS) {
            if (!solver->tighten || !solver->tighten(solver->ctx)) {
                st = km_mkl_gap_stuck(pr, certified.dual, certified.primal, certified.gap, "stalled");
                break;
            }
            flat = 0;
            evaluated = 0;   /* solve again at the same theta, tighter */
            continue;
        }
        km_weight_move move;
        if ((st = solver->step(solver->ctx, theta_used, &move)) || move == KM_NOTHING_TO_LEARN)
            break;
        if (move == KM_AT_FIXED_POINT) {
            st = km_mkl_gap_stuck(pr, certified.dual, certified.primal, certified.gap, solver->fixed_point);
            break;
        }
        evaluated = move == KM_MOVED_EVALUATED;
    }
    if (!st)
        memcpy(theta, theta_used, M * sizeof *theta_used); /* the theta the final solution belongs to */
    free(theta_used);
    return st;
}
