/* SQUAREM (Varadhan & Roland, "Simple and globally convergent methods for accelerating the convergence
 * of any EM algorithm", Scand. J. Statist. 35, 2008: the SqS3 step length) on the weight step F of an
 * alternating loop (alternate.h), in the logarithms of the weights (which keeps them positive): from
 * x0, x1 = F(x0) and x2 = F(x1), r = x1 - x0, v = x2 - 2 x1 + x0, the machines are solved at
 * x0 - 2 a r + a^2 v with a = -|r|/|v| (a = -1 gives x2), and that point is kept where the loop's
 * objective there is at most x2's; otherwise the loop steps from x2 as it would have. A weight that is
 * not positive at all three points (switched off, or entered, during the cycle) stays at x2. Every
 * solved point is a feasible one, so objectives and certificates hold at an extrapolation as at any
 * other point. */
#ifndef KM_MKL_SQUAREM_H
#define KM_MKL_SQUAREM_H

#include <stddef.h>

#include "core/error.h"
#include "mkl/alternate.h"

typedef struct km_squarem {
    size_t M;
    double *d0, *d1, *d2;        /* the weights at x0, x1, x2 */
    double *a2;                  /* the step's input at x2 (M values), for the step from it */
    double value2;               /* the objective at x2 */
    double step_max;             /* the bound on -a: 1 at the start, 4 times larger each time a reaches it
                                    and the point is kept, 4 times smaller when it is refused */
    int points;                  /* how many of x0, x1, x2 the cycle holds */
    int pending;                 /* the weights being solved at are an extrapolation (2: at the bound) */
} km_squarem;

/* The weight step F: theta (in: the weights solved at; out: the next ones) from the step's input a (M
 * values the solve produced); 0 when there is nothing to learn (theta unchanged). */
typedef int (*km_weight_step_fn)(void *ctx, const double *a, double *theta);
/* Puts extrapolated weights back on the method's feasible set (NULL: every positive theta is). */
typedef void (*km_weight_project_fn)(void *ctx, double *theta);

km_status km_squarem_init(km_squarem *q, size_t M);
void km_squarem_free(km_squarem *q);

/* The loop's step from the point just solved at (theta_used, with objective value and step input a):
 * theta becomes F(theta_used), an extrapolation (after the third point of a cycle), or, after a refused
 * extrapolation, F(x2). *plain is set when theta is F(theta_used), which the caller may adjust further. */
km_weight_move km_squarem_step(km_squarem *q, const double *theta_used, double value, const double *a, double *theta,
                               km_weight_step_fn step, km_weight_project_fn project, void *ctx, int *plain);

/* The step of lp-norm weights (finite p) from the point solved at, for the loops that solve the machine(s)
 * and then step theta (the wrapper, shared multiclass weights): the problem's closed-form theta step from
 * a, extrapolated by q on value (the loop's objective there) and put back on ||theta||_p = 1; the plain
 * step where q is NULL. */
struct km_mkl_problem;
km_weight_move km_squarem_lp_step(const struct km_mkl_problem *problem, km_squarem *q, const double *theta_used,
                                  double value, const double *a, double *theta);

#endif
