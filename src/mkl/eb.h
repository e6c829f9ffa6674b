/* Empirical-Bayes MKL (Tomioka & Suzuki, "Regularization strategies and empirical Bayesian learning
 * for MKL", §4): kernel weights d (and optionally the noise variance sigma^2) that minimise the
 * negative log evidence (10) (mkl/evidence.h), by one of two fixed-point iterations.
 *  - EB-RW, the reweighted block-1 iteration: the upper bound (11) + (12) with z_m = T_m(d) (the
 *    tangent of the concave log|Kbar|) is a weighted block-1 MKL problem, minimised by alternating
 *    alpha = Kbar(d)^-1 y and d_m <- d_m sqrt(Q_m / z_m); then z is tightened again. Every step lowers
 *    the bound, which is tight at the start of the next outer iteration, so (10) never increases.
 *    max_inner = 1 is the one-step variant d_m <- d_m sqrt(Q_m / T_m), still monotone. (10) is not
 *    convex: with a learned noise the iteration can end at a worse stationary point than MacKay's
 *    (2 of 10 random problems, -log evidence 36.42 against 36.18), so km_eb_fit then also takes
 *    MacKay's steps from its end point and runs MacKay's iteration from the same start, and keeps the
 *    lower of the two end points.
 *  - EB-MK, MacKay's update (13)-(14): f_m = d_m K_m alpha, d_m <- ||f_m||^2 / Tr(Kbar^-1 d_m K_m) =
 *    d_m Q_m / T_m, from the zero-gradient condition T_m = Q_m. It has no monotonicity guarantee: an
 *    iteration that would increase (10) takes the one-step EB-RW update instead.
 * MacKay's iteration converges linearly, slowly where the evidence is flat (thousands of steps); it is
 * extrapolated by SQUAREM (eb.c) after every two steps, the extrapolation kept only where it lowers (10).
 * Both have the fixed points d_m = 0 or T_m = Q_m. The learned noise is a kernel I with weight sigma^2
 * (T = Tr(Kbar^-1), Q = alpha'alpha) kept at or above a floor. Weights below 1e-12 of the largest are
 * set to 0 (zero weights are absorbing). */
#ifndef KM_MKL_EB_H
#define KM_MKL_EB_H

#include "core/log.h"
#include "mkl/evidence.h"

/* Kernel weights below this fraction of the largest are dropped. */
#define KM_EB_PRUNE 1e-12
/* The EB-RW inner loop stops when no weight moves by more than this fraction of the largest. */
#define KM_EB_INNER_STEP 1e-8

typedef enum km_eb_update { KM_EB_REWEIGHTED = 0, KM_EB_MACKAY_UPDATE = 1 } km_eb_update;

typedef struct km_eb_options {
    km_eb_update update;
    long max_outer;              /* outer iterations */
    long max_inner;              /* EB-RW: weight steps per tightening of z (1: the one-step variant) */
    double tolerance;            /* stop when (10) changes by at most this, relative */
    int accelerate;              /* MacKay's iteration (also eb-rw's steps of it) extrapolated by SQUAREM
                                    after every two steps, where that lowers (10) (eb.c) */
    int learn_noise;             /* 1: sigma^2 is learned as the weight of a kernel I */
    double noise_floor;          /* the learned sigma^2 stays at or above it */
    double *history;             /* NULL, or max_outer + 1 values: (10) at the start and after every
                                    outer iteration counted in the outcome (the others are left as they
                                    were); eb-rw: its iteration and MacKay's steps after it */
    const km_logger *logger;     /* NULL: none */
    int (*interrupted)(void *ctx); /* polled before every outer iteration (NULL: never); non-zero stops
                                    with KM_EINTERRUPTED (the evaluations poll the evidence's own) */
    void *interrupt_ctx;
    /* called after every outer iteration t with the weights d (M values) and -log evidence (NULL:
     * never) */
    void (*report)(const void *ctx, long t, const double *d, double neg_log_evidence);
    const void *report_ctx;
    double deadline;             /* km_monotonic_seconds() after which no outer iteration but the first
                                    and no weight step but the first of an outer iteration starts (the
                                    fit ends unconverged at its last point, with a warning, and always
                                    has one iteration's relative change); 0: none */
} km_eb_options;

typedef struct km_eb_outcome {
    long iterations;             /* outer iterations done (eb-rw: of its iteration and MacKay's steps
                                    after it): the history's length */
    long steps;                  /* the steps reported to the caller, numbered from 1 (eb-rw: also those of
                                    MacKay's iteration from the start, and going back to the better end
                                    point when that is the reweighted one) */
    int converged;               /* the tolerance was met (by the run whose end point was kept) */
    long fallbacks;              /* EB-MK iterations that took the EB-RW step instead */
    double last_change;          /* relative change of (10) in the last iteration */
} km_eb_outcome;

/* Runs the iteration from d (M values > 0) and *noise; on return d and *noise are the learned ones
 * and ev holds the evaluation there (with traces). */
km_status km_eb_fit(km_evidence *ev, const double *y, double *d, double *noise, const km_eb_options *options,
                    km_eb_outcome *outcome);

#endif
