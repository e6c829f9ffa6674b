/* SimpleMKL (Rakotomamonjy, Bach, Canu & Grandvalet, JMLR 2008) for block p = 1: reduced-gradient descent of
 * J(theta) = SVM(K_theta) = max_alpha lin - 1/2 sum_m theta_m a_m over the simplex sum theta = 1, theta >= 0.
 * By Danskin's theorem dJ/dtheta_m = -1/2 a_m at the SVM solution. The direction is the reduced gradient with
 * the largest weight as reference; a line search along it (each evaluation a warm-started SVM solve) picks the
 * step, and the run stops on the relative duality gap of the certificate (certificate.c). J is convex (a
 * maximum of linear functions), so along the direction its derivative -1/2 sum_m a_m D_m increases, and the
 * line search brackets its zero. The classic baseline Kloft's thesis ("lp-Norm Multiple Kernel
 * Learning", §3.4, runtime study) compares with: correct, not fast. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "mkl/alternate.h"
#include "mkl/mkl.h"

enum { LINE_SEARCH_EVALUATIONS = 30 };

/* Solver state: the buffers of one run and the last evaluated point. */
typedef struct simplemkl {
    const km_mkl_problem *pr;
    km_mkl_result *result;
    double scale;             /* one-class: the certificate's scaling c / (nu n) */
    double *h, *a;            /* K_m c (n M) and a_m (certificate's scaling) at the last evaluated theta */
    int h_at_coef;            /* h is K_m c at result->coef (after the first evaluation) */
    double *direction;        /* the descent direction of the current step (M) */
    km_mkl_certificate cert;
    double value;             /* J at the last evaluated theta */
    double best_dual;         /* largest dual value D(alpha) over every solve, line searches included:
                                 each is a lower bound on the optimum */
} simplemkl;

/* Solves the SVM at the current theta (warm-started from the last solution) and certifies it. */
static km_status evaluate(simplemkl *s)
{
    const km_mkl_problem *pr = s->pr;
    const km_kernel_access *k = pr->machine->kernel;
    size_t M = k->n_kernels;
    km_status st = km_mkl_evaluate(pr, s->result, s->h, s->h_at_coef, s->a);
    s->h_at_coef = !st;
    if (st)
        return st;
    km_mkl_certify(pr, s->result->coef, s->result->bias, s->a, s->h, &s->cert);
    s->best_dual = fmax(s->best_dual, s->cert.dual);
    s->value = s->cert.lin;
    for (size_t m = 0; m < M; m++) {
        s->a[m] *= s->scale * s->scale;
        s->value -= 0.5 * k->theta[m] * s->a[m];
    }
    return KM_OK;
}

/* Derivative of J along the direction at the last evaluated point. */
static double slope(const simplemkl *s, const double *direction)
{
    double d = 0;
    for (size_t m = 0; m < s->pr->machine->kernel->n_kernels; m++)
        d -= 0.5 * s->a[m] * direction[m];
    return d;
}

/* Reduced gradient direction (Rakotomamonjy et al., eq. 12) from the gradient -a/2, with the largest
 * weight mu as reference: D_m = 0 when theta_m = 0 and the reduced gradient is positive,
 * D_m = -(grad_m - grad_mu) otherwise, D_mu = -sum of the others. Returns max |D_m|. */
static double descent_direction(size_t M, const double *theta, const double *a, double *direction)
{
    size_t mu = 0;
    for (size_t m = 1; m < M; m++)
        if (theta[m] > theta[mu])
            mu = m;
    double total = 0, largest = 0;
    for (size_t m = 0; m < M; m++) {
        double reduced = -0.5 * a[m] + 0.5 * a[mu];
        direction[m] = m == mu || (theta[m] <= 0 && reduced > 0) ? 0.0 : -reduced;
        total += direction[m];
    }
    direction[mu] = -total;
    for (size_t m = 0; m < M; m++)
        largest = fmax(largest, fabs(direction[m]));
    return largest;
}

/* theta = base + step * direction; the component that blocks the step (index blocking) becomes 0. */
static void move(size_t M, const double *base, const double *direction, double step, size_t blocking, double *theta)
{
    double sum = 0;
    for (size_t m = 0; m < M; m++) {
        theta[m] = m == blocking ? 0.0 : fmax(base[m] + step * direction[m], 0.0);
        sum += theta[m];
    }
    for (size_t m = 0; m < M; m++)
        theta[m] /= sum; /* against drift off the simplex */
}

/* Line search along the direction from base, ending with the SVM solved at the chosen point: the
 * largest feasible step if J still decreases there, else a safeguarded secant search for the zero
 * of the derivative inside [0, largest step]. */
static km_status line_search(simplemkl *s, const double *base, const double *direction)
{
    size_t M = s->pr->machine->kernel->n_kernels, blocking = M;
    double *theta = s->pr->machine->kernel->theta;
    double largest = INFINITY;
    for (size_t m = 0; m < M; m++)
        if (direction[m] < 0 && -base[m] / direction[m] < largest) {
            largest = -base[m] / direction[m];
            blocking = m;
        }
    double lo = 0, slope_lo = slope(s, direction), slope_start = slope_lo, hi = largest;
    move(M, base, direction, hi, blocking, theta);
    km_status st = evaluate(s);
    double slope_hi = slope(s, direction);
    if (st || slope_hi <= 0)
        return st;
    for (int k = 0; k < LINE_SEARCH_EVALUATIONS; k++) {
        double width = hi - lo;
        double step = lo - slope_lo * width / (slope_hi - slope_lo);
        step = fmin(fmax(step, lo + 0.05 * width), hi - 0.05 * width);
        move(M, base, direction, step, M, theta);
        if ((st = evaluate(s)))
            return st;
        double d = slope(s, direction);
        if (fabs(d) <= 1e-2 * fabs(slope_start))
            break;
        if (d < 0) {
            lo = step;
            slope_lo = d;
        } else {
            hi = step;
            slope_hi = d;
        }
    }
    return KM_OK;
}

static km_status simplemkl_evaluate(void *ctx) { return evaluate(ctx); }

static km_status simplemkl_certify(void *ctx, long t, double elapsed, km_certified_values *out)
{
    simplemkl *s = ctx;
    km_mkl_result *result = s->result;
    result->bias = s->cert.bias;
    result->dual = s->best_dual;
    result->primal = s->cert.primal;
    result->gap = (s->cert.primal - s->best_dual) / fabs(s->cert.primal);
    *out = (km_certified_values){result->dual, result->primal, result->gap, s->cert.svm_share};
    km_log(&s->pr->logger, KM_LOG_INFO, "simplemkl %4ld: J %.10g dual %.10g primal %.10g gap %.3e %.2fs", t, s->value,
           s->best_dual, s->cert.primal, result->gap, elapsed);
    return KM_OK;
}

/* A descent step along the reduced gradient; the line search ends with the SVM solved at the new theta. */
static km_status simplemkl_step(void *ctx, const double *theta_used, km_weight_move *move)
{
    simplemkl *s = ctx;
    size_t M = s->pr->machine->kernel->n_kernels;
    double top = 0;
    for (size_t m = 0; m < M; m++)
        top = fmax(top, fabs(s->a[m]));
    if (descent_direction(M, theta_used, s->a, s->direction) <= 1e-14 * top) {
        *move = KM_AT_FIXED_POINT;
        return KM_OK;
    }
    *move = KM_MOVED_EVALUATED;
    return line_search(s, theta_used, s->direction);
}

km_status km_mkl_simplemkl(const km_mkl_problem *pr, km_mkl_result *result)
{
    const km_kernel_access *k = pr->machine->kernel;
    size_t n = k->n_rows, M = k->n_kernels;
    simplemkl s = {.pr = pr, .result = result, .best_dual = -INFINITY,
                   .scale = pr->machine->ops->certificate_scale(pr->machine)};
    s.h = malloc(n * M * sizeof *s.h);
    s.a = malloc(M * sizeof *s.a);
    s.direction = malloc(M * sizeof *s.direction);
    km_alternating_solver solver = {&s, simplemkl_evaluate, simplemkl_certify, simplemkl_step, "stationary",
                                    &result->tolerance};
    km_status st = s.h && s.a && s.direction
                       ? km_mkl_alternate(pr, k->theta, M, &solver, &result->mkl_iterations, &result->converged)
                       : km_error_nomem("the SimpleMKL solver");
    free(s.h);
    free(s.a);
    free(s.direction);
    return st;
}
