/* The EB-RW and EB-MK iterations of empirical-Bayes MKL (mkl/eb.h). */
#include "mkl/eb.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/error.h"

static void prune(size_t M, double *d)
{
    double largest = 0;
    for (size_t m = 0; m < M; m++)
        largest = fmax(largest, d[m]);
    for (size_t m = 0; m < M; m++)
        if (d[m] < KM_EB_PRUNE * largest)
            d[m] = 0.0;
}

/* w <- w (Q / z)^power, the reweighting (power 1/2) and MacKay (power 1) steps; 0 where z <= 0. */
static double scaled(double w, double Q, double z, double power)
{
    if (!(z > 0) || !(Q > 0))
        return 0.0;
    return power == 1.0 ? w * Q / z : w * sqrt(Q / z);
}

/* One weight step of the given power from Q (at the current alpha) and z (the tangent or T), with the
 * noise treated as a kernel I (Q = alpha'alpha, z = z_noise); returns the largest weight move. */
static double weight_step(const km_eb_options *o, size_t M, const double *Q, const double *z, double Q_noise,
                          double z_noise, double power, double *d, double *noise)
{
    double move = 0;
    for (size_t m = 0; m < M; m++) {
        double next = scaled(d[m], Q[m], z[m], power);
        move = fmax(move, fabs(next - d[m]));
        d[m] = next;
    }
    prune(M, d);
    if (o->learn_noise)
        *noise = fmax(o->noise_floor, scaled(*noise, Q_noise, z_noise, power));
    return move;
}

static double largest_of(size_t M, const double *d)
{
    double top = 0;
    for (size_t m = 0; m < M; m++)
        top = fmax(top, d[m]);
    return top;
}

/* EB-RW: z = T(d) at the evaluated point, then weighted block-1 steps until d settles. */
static km_status reweighted_iteration(km_evidence *ev, const double *y, double *d, double *noise,
                                      const km_eb_options *o, double *z)
{
    size_t M = ev->M;
    memcpy(z, ev->T, M * sizeof *z);
    double z_noise = ev->trace_inverse;
    int traced = 0;
    km_status st = KM_OK;
    for (long k = 1; !st && k <= o->max_inner; k++) {
        if (k > 1 && o->deadline > 0 && km_monotonic_seconds() >= o->deadline)
            break; /* the fit ends after this outer iteration's traced evaluation */
        double move = weight_step(o, M, ev->Q, z, ev->alpha_sq, z_noise, 0.5, d, noise);
        traced = k == o->max_inner;
        st = km_evidence_eval(ev, y, d, *noise, traced);
        if (move <= KM_EB_INNER_STEP * largest_of(M, d))
            break;
    }
    if (!st && !traced)
        st = km_evidence_eval(ev, y, d, *noise, 1);
    return st;
}

/* EB-MK: d_m <- d_m Q_m / T_m; when (10) would increase, the one-step EB-RW update from the same point. */
static km_status mackay_iteration(km_evidence *ev, const double *y, double *d, double *noise, const km_eb_options *o,
                                  double *saved, long *fallbacks)
{
    size_t M = ev->M;
    /* saved: d, T, Q at the evaluated point, then noise, Tr(Kbar^-1), alpha'alpha and (10) */
    memcpy(saved, d, M * sizeof *d);
    memcpy(saved + M, ev->T, M * sizeof *d);
    memcpy(saved + 2 * M, ev->Q, M * sizeof *d);
    double noise_before = *noise, trace_before = ev->trace_inverse, alpha_sq_before = ev->alpha_sq;
    double before = ev->value;
    weight_step(o, M, ev->Q, ev->T, ev->alpha_sq, ev->trace_inverse, 1.0, d, noise);
    km_status st = km_evidence_eval(ev, y, d, *noise, 1);
    if (st || ev->value <= before)
        return st;
    (*fallbacks)++;
    memcpy(d, saved, M * sizeof *d);
    *noise = noise_before;
    weight_step(o, M, saved + 2 * M, saved + M, alpha_sq_before, trace_before, 0.5, d, noise);
    return km_evidence_eval(ev, y, d, *noise, 1);
}

/* The points of a SQUAREM cycle (Varadhan & Roland, "Simple and globally convergent methods for
 * accelerating the convergence of any EM algorithm", Scand. J. Statist. 35, 2008: the SqS3 step length)
 * on MacKay's iteration F, in the logarithms of the weights and the noise (which keeps them positive):
 * from x0, x1 = F(x0) and x2 = F(x1), r = x1 - x0, v = x2 - 2 x1 + x0, the extrapolation
 * x0 - 2 a r + a^2 v with a = -|r|/|v| (a = -1 gives x2), then one step F from there. */
typedef struct squarem {
    double *d0, *d1, *d2;        /* the weights at x0, x1, x2 */
    double noise0, noise1, noise2;
    double value2;               /* (10) at x2 */
    double step_max;             /* the bound on -a: 1 at the start, 4 times larger each time a reaches it
                                    (unless the extrapolation fails), 4 times smaller when it fails */
    int points;                  /* how many of x0, x1, x2 the cycle holds */
} squarem;

/* Adds the point just reached to the cycle. */
static void keep_point(squarem *q, size_t M, const double *d, double noise, double value)
{
    double *to = q->points == 0 ? q->d0 : q->points == 1 ? q->d1 : q->d2;
    double *noise_to = q->points == 0 ? &q->noise0 : q->points == 1 ? &q->noise1 : &q->noise2;
    memcpy(to, d, M * sizeof *d);
    *noise_to = noise;
    if (q->points == 2)
        q->value2 = value;
    q->points++;
}

/* Log-space component of the extrapolation: x0 - 2 a r + a^2 v, from the three values. */
static double extrapolated(double x0, double x1, double x2, double a)
{
    double l0 = log(x0), r = log(x1) - l0, v = log(x2) - 2.0 * log(x1) + l0;
    return exp(l0 - 2.0 * a * r + a * a * v);
}

/* x2 (or the point the kept extrapolation reached) starts the next cycle. */
static void restart_cycle(squarem *q, size_t M, const double *d, double noise)
{
    memcpy(q->d0, d, M * sizeof *d);
    q->noise0 = noise;
    q->points = 1;
}

/* After a MacKay step that brought the cycle its third point, tries the extrapolation: keeps it (one
 * more MacKay step from it, whose (10) must be at most x2's) or goes back to x2. Returns with ev
 * evaluated at d and *noise; *taken: the extrapolation was kept (one more outer iteration). */
static km_status squarem_extrapolate(km_evidence *ev, const double *y, double *d, double *noise,
                                     const km_eb_options *o, squarem *q, double *scratch, long *fallbacks, int *taken)
{
    size_t M = ev->M;
    *taken = 0;
    double r2 = 0, v2 = 0;
    for (size_t m = 0; m <= M; m++) {   /* m = M: the noise, where it is learned */
        double x0 = m < M ? q->d0[m] : q->noise0, x1 = m < M ? q->d1[m] : q->noise1;
        double x2 = m < M ? q->d2[m] : q->noise2;
        if ((m == M && !o->learn_noise) || !(x0 > 0 && x1 > 0 && x2 > 0))
            continue;
        double r = log(x1 / x0), v = log(x2 / x1) - r;
        r2 += r * r;
        v2 += v * v;
    }
    double a = fmax(v2 > 0 ? -sqrt(r2 / v2) : -1.0, -q->step_max);
    int at_bound = a <= -q->step_max;
    if (!(a < -1.0)) {   /* the extrapolation would be x2, where d is */
        if (at_bound)
            q->step_max *= 4.0;
        restart_cycle(q, M, q->d2, q->noise2);
        return KM_OK;
    }
    for (size_t m = 0; m < M; m++)
        d[m] = q->d0[m] > 0 && q->d1[m] > 0 && q->d2[m] > 0 ? extrapolated(q->d0[m], q->d1[m], q->d2[m], a) : 0.0;
    prune(M, d);
    if (o->learn_noise)
        *noise = fmax(o->noise_floor, extrapolated(q->noise0, q->noise1, q->noise2, a));
    km_status st = km_evidence_eval(ev, y, d, *noise, 1);
    if (st == KM_EINVAL) {   /* the extrapolated Kbar is not positive definite: back to x2 */
        km_error_clear();
        st = KM_OK;
    } else if (!st) {
        st = mackay_iteration(ev, y, d, noise, o, scratch, fallbacks);
        *taken = !st && ev->value <= q->value2;
    }
    if (st)
        return st;
    if (*taken) {
        if (at_bound)
            q->step_max *= 4.0;
        restart_cycle(q, M, d, *noise);
        return KM_OK;
    }
    q->step_max = fmax(1.0, q->step_max / 4.0);
    memcpy(d, q->d2, M * sizeof *d);
    *noise = q->noise2;
    restart_cycle(q, M, q->d2, q->noise2);
    return km_evidence_eval(ev, y, d, *noise, 1);
}

/* Iterates one update from d and *noise until the tolerance, the outer limit, the deadline or the
 * caller's interrupt; out accumulates iterations and fallbacks, and history (NULL: none) gets (10)
 * after each of them, continuing at out->iterations. With o->accelerate, MacKay's iteration is
 * extrapolated after every two steps (squarem_extrapolate), the kept extrapolations counting as
 * iterations. */
static km_status iterate(km_evidence *ev, const double *y, double *d, double *noise, const km_eb_options *o,
                         km_eb_update update, double *history, km_eb_outcome *out, double *scratch)
{
    size_t M = ev->M;
    int accelerate = o->accelerate && update == KM_EB_MACKAY_UPDATE;
    squarem q = {.d0 = scratch + 3 * M, .d1 = scratch + 4 * M, .d2 = scratch + 5 * M, .step_max = 1.0};
    km_status st = km_evidence_eval(ev, y, d, *noise, 1);
    if (!st && accelerate)
        keep_point(&q, M, d, *noise, ev->value);
    if (!st && history)
        history[out->iterations] = ev->value;
    out->converged = 0;
    out->last_change = INFINITY;
    for (long t = 1; !st && t <= o->max_outer; t++) {
        if (o->interrupted && o->interrupted(o->interrupt_ctx)) {
            st = km_error(KM_EINTERRUPTED, "interrupted after %ld empirical-Bayes iterations", out->iterations);
            break;
        }
        if (t > 1 && o->deadline > 0 && km_monotonic_seconds() >= o->deadline) {
            if (o->logger)
                km_log(o->logger, KM_LOG_WARNING, "empirical-Bayes MKL stopped at the time limit after %ld "
                       "iterations (relative change %.3e)", out->iterations, out->last_change);
            break;
        }
        double before = ev->value;
        if (accelerate && q.points == 3) {
            int kept = 0;
            st = squarem_extrapolate(ev, y, d, noise, o, &q, scratch, &out->fallbacks, &kept);
            if (!st && !kept) {   /* back at x2: the step from it is this iteration's */
                st = mackay_iteration(ev, y, d, noise, o, scratch, &out->fallbacks);
                keep_point(&q, M, d, *noise, ev->value);
            }
        } else {
            st = update == KM_EB_MACKAY_UPDATE ? mackay_iteration(ev, y, d, noise, o, scratch, &out->fallbacks)
                                               : reweighted_iteration(ev, y, d, noise, o, scratch);
            if (!st && accelerate)
                keep_point(&q, M, d, *noise, ev->value);
        }
        if (st)
            break;
        out->iterations++;
        out->steps++;
        if (history)
            history[out->iterations] = ev->value;
        out->last_change = fabs(before - ev->value) / fmax(fabs(ev->value), 1e-300);
        if (o->logger)
            km_log(o->logger, KM_LOG_DEBUG, "eb %4ld: -log evidence %.17g noise %.6g change %.3e", t,
                   ev->value + ev->log_2pi_term, *noise, out->last_change);
        if (o->report)
            o->report(o->report_ctx, out->steps, d, ev->value + ev->log_2pi_term);
        if (out->last_change <= o->tolerance) {
            out->converged = 1;
            break;
        }
    }
    return st;
}

/* EB-RW: the reweighted iteration, then MacKay's steps from where it stopped (its inner loop can stop
 * on a plateau of (10) short of a fixed point), and, since (10) is not convex, also MacKay's iteration
 * from the same start: the better of the two end points (lower (10)) is kept. */
static km_status reweighted_fit(km_evidence *ev, const double *y, double *d, double *noise, const km_eb_options *o,
                                km_eb_outcome *out, double *scratch)
{
    size_t M = ev->M;
    double *start = malloc(2 * (M ? M : 1) * sizeof *start), noise_start = *noise;
    if (!start)
        return km_error_nomem("empirical-Bayes MKL");
    double *reweighted = start + M;
    memcpy(start, d, M * sizeof *d);
    km_status st = iterate(ev, y, d, noise, o, KM_EB_REWEIGHTED, o->history, out, scratch);
    if (!st && o->max_outer > out->iterations) {
        km_eb_options rest = *o;   /* the outer limit is over both */
        rest.max_outer = o->max_outer - out->iterations;
        st = iterate(ev, y, d, noise, &rest, KM_EB_MACKAY_UPDATE, o->history, out, scratch);
    }
    double value = ev->value, noise_reweighted = *noise;
    memcpy(reweighted, d, M * sizeof *d);
    /* its iterations are not in out's history; its steps continue out's count */
    km_eb_outcome other = {.steps = out->steps};
    if (!st) {
        memcpy(d, start, M * sizeof *d);
        *noise = noise_start;
        st = iterate(ev, y, d, noise, o, KM_EB_MACKAY_UPDATE, NULL, &other, scratch);
    }
    if (!st && value <= ev->value) {
        /* going back to the reweighted end point is the last step */
        memcpy(d, reweighted, M * sizeof *d);
        *noise = noise_reweighted;
        st = km_evidence_eval(ev, y, d, *noise, 1);
        out->steps = other.steps + 1;
        if (!st && o->report)
            o->report(o->report_ctx, out->steps, d, ev->value + ev->log_2pi_term);
    } else if (!st) {
        if (o->logger)
            km_log(o->logger, KM_LOG_INFO, "eb-rw: MacKay's iteration from the same start reached a lower -log "
                   "evidence (%.10g < %.10g): its weights are kept", ev->value + ev->log_2pi_term,
                   value + ev->log_2pi_term);
        out->steps = other.steps;
        out->converged = other.converged;
        out->last_change = other.last_change;
        out->fallbacks += other.fallbacks;
    }
    free(start);
    return st;
}

km_status km_eb_fit(km_evidence *ev, const double *y, double *d, double *noise, const km_eb_options *o,
                    km_eb_outcome *out)
{
    size_t M = ev->M;
    memset(out, 0, sizeof *out);
    out->last_change = INFINITY;
    double *scratch = malloc(6 * (M ? M : 1) * sizeof *scratch);   /* a MacKay step's 3 M, SQUAREM's 3 M */
    km_status st = !scratch ? km_error_nomem("empirical-Bayes MKL")
                   : o->update == KM_EB_MACKAY_UPDATE
                       ? iterate(ev, y, d, noise, o, KM_EB_MACKAY_UPDATE, o->history, out, scratch)
                       : reweighted_fit(ev, y, d, noise, o, out, scratch);
    free(scratch);
    return st;
}
