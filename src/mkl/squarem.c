#include "mkl/squarem.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mkl/mkl.h"
#include "mkl/theta.h"

km_status km_squarem_init(km_squarem *q, size_t M)
{
    double *buffer = malloc(4 * (M ? M : 1) * sizeof *buffer);
    *q = (km_squarem){.M = M, .d0 = buffer, .d1 = buffer ? buffer + M : NULL, .d2 = buffer ? buffer + 2 * M : NULL,
                      .a2 = buffer ? buffer + 3 * M : NULL, .step_max = 1.0};
    return buffer ? KM_OK : km_error_nomem("the extrapolation of the kernel weights");
}

void km_squarem_free(km_squarem *q)
{
    free(q->d0);
    q->d0 = q->d1 = q->d2 = q->a2 = NULL;
}

/* Adds the point just solved at to the cycle. */
static void keep_point(km_squarem *q, const double *d, double value, const double *a)
{
    memcpy(q->points == 0 ? q->d0 : q->points == 1 ? q->d1 : q->d2, d, q->M * sizeof *d);
    if (q->points == 2) {
        q->value2 = value;
        memcpy(q->a2, a, q->M * sizeof *a);
    }
    q->points++;
}

/* The extrapolation of a full cycle into d; 0 when it would be x2 itself (a >= -1). */
static int extrapolate(km_squarem *q, double *d)
{
    double r2 = 0, v2 = 0;
    for (size_t m = 0; m < q->M; m++) {
        if (!(q->d0[m] > 0 && q->d1[m] > 0 && q->d2[m] > 0))
            continue;
        double r = log(q->d1[m] / q->d0[m]), v = log(q->d2[m] / q->d1[m]) - r;
        r2 += r * r;
        v2 += v * v;
    }
    double a = fmax(v2 > 0 ? -sqrt(r2 / v2) : -1.0, -q->step_max);
    if (!(a < -1.0)) {
        if (a <= -q->step_max)
            q->step_max *= 4.0;
        return 0;
    }
    for (size_t m = 0; m < q->M; m++) {
        if (!(q->d0[m] > 0 && q->d1[m] > 0 && q->d2[m] > 0)) {
            d[m] = q->d2[m];
            continue;
        }
        double l0 = log(q->d0[m]), r = log(q->d1[m]) - l0, v = log(q->d2[m]) - 2.0 * log(q->d1[m]) + l0;
        d[m] = exp(l0 - 2.0 * a * r + a * a * v);
    }
    q->pending = a <= -q->step_max ? 2 : 1;
    return 1;
}

km_weight_move km_squarem_step(km_squarem *q, const double *theta_used, double value, const double *a, double *theta,
                               km_weight_step_fn step, km_weight_project_fn project, void *ctx, int *plain)
{
    *plain = 0;
    if (q->pending) {
        int kept = value <= q->value2, at_bound = q->pending == 2;
        q->pending = 0;
        q->points = 0;
        q->step_max = kept ? (at_bound ? 4.0 * q->step_max : q->step_max) : fmax(1.0, q->step_max / 4.0);
        if (!kept) {   /* back to x2: the step from it */
            memcpy(theta, q->d2, q->M * sizeof *theta);
            keep_point(q, q->d2, q->value2, q->a2);
            return step(ctx, q->a2, theta) ? KM_MOVED : KM_NOTHING_TO_LEARN;
        }
    }
    keep_point(q, theta_used, value, a);
    if (q->points == 3) {
        if (extrapolate(q, theta)) {
            if (project)
                project(ctx, theta);
            return KM_MOVED;
        }
        q->points = 0;
        keep_point(q, theta_used, value, a);
    }
    *plain = 1;
    return step(ctx, a, theta) ? KM_MOVED : KM_NOTHING_TO_LEARN;
}

/* km_squarem_lp_step's F and projection; ctx is the problem, which neither changes. */
static int lp_theta_step(void *problem, const double *a, double *theta)
{
    return km_mkl_theta_step(problem, a, theta);
}

static void onto_lp_sphere(void *problem, double *theta)
{
    const km_mkl_problem *pr = problem;
    km_theta_onto_lp_sphere(pr->machine->kernel->n_kernels, pr->mkl.p, theta);
}

km_weight_move km_squarem_lp_step(const km_mkl_problem *problem, km_squarem *q, const double *theta_used,
                                  double value, const double *a, double *theta)
{
    int plain;
    if (q)
        return km_squarem_step(q, theta_used, value, a, theta, lp_theta_step, onto_lp_sphere, (void *)problem, &plain);
    return km_mkl_theta_step(problem, a, theta) ? KM_MOVED : KM_NOTHING_TO_LEARN;
}
