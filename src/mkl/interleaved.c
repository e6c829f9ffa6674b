/* Interleaved analytical MKL (Kloft, "lp-Norm Multiple Kernel Learning", thesis Alg. 3.2): one SMO run whose
 * hook takes a closed-form theta step whenever the dual value D_theta = lin - sum theta_m quad_m moved by more
 * than eps_mkl (relative) since the last step, and, whenever the fixed-theta problem is solved, checks the
 * duality gap of the certificate (certificate.c) and the size of the next theta step, and either stops (both
 * small: gap <= mkl.gap, no weight moving by more than mkl.theta_tol) or steps theta. The SMO keeps per-kernel
 * products K_m c, so a theta step costs O(nM) and no kernel evaluations.
 *
 * Between two theta steps the SMO must first halve the KKT violation that the last step left
 * (STEP_PROGRESS). The thesis's solver (SVMlight) took a step after each chunk of Q ~ 40 variables; after
 * every 2-variable step, theta chases alpha instead: near p = 1 the primal form
 * theta_m ~ (theta_m sqrt a_m)^{2-p} hardly contracts (log-slope 2 - p), and on the thesis's toy problem
 * (§5.2; M = n = 50, C = 1, p = 1 to 1.2) theta and alpha cycled for 10^6 steps without the fixed-theta
 * problem ever being solved.
 *
 * Its gap, certified at every solved fixed-theta point, keeps swinging near p = 1 while theta and alpha
 * chase each other, so the alternating loops' stall rule (a gap within KM_STALL_CHANGE of one value,
 * alternate.h) seldom sees it stand still. Once the SVM tolerance is at its floor (nothing left to tighten),
 * the run has stalled when its smallest gap has not fallen by KM_STALL_CHANGE over as many theta steps as
 * it took to reach it (at least KM_STALL_STEPS); it then stops there with one warning. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/error.h"
#include "mkl/mkl.h"
#include "mkl/theta.h"

/* A theta step waits until the KKT violation is at most this fraction of the one after the last step. */
#define STEP_PROGRESS 0.5
/* Weights settle when a step moves none by more than this fraction of mkl.theta_tol: a step here is cheap,
 * and the stopping rule's own bound (theta_tol) can leave small weights further from the fixed point than
 * that (digits with a dominant linear kernel: weights of 1e-4 off by 3e-4 where they settle at theta_tol). */
#define SETTLED 0.1

typedef struct interleaved {
    const km_mkl_problem *pr;
    km_mkl_result *result;
    double *a;                  /* 2 quad_m */
    double *coef;               /* c from the SMO's alpha, for certificates */
    double *proposal;           /* the next theta step, before it is taken */
    double previous_dual;
    double violation_after_step; /* KKT violation at the first working-set step after the last theta
                                    step; < 0: none seen yet */
    long steps;                 /* theta steps taken */
    double best_gap;            /* the smallest certified gap since the SVM tolerance reached its floor, and */
    long best_at;               /* the theta steps taken when it last fell by KM_STALL_CHANGE */
    int certified;              /* the result holds the certificate of the point the SMO stops at */
    km_status status;           /* a gap no SVM tolerance can certify (km_mkl_gap_stuck) */
    struct timespec start;
} interleaved;

static double elapsed(const interleaved *s)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - s->start.tv_sec) + 1e-9 * (double)(now.tv_nsec - s->start.tv_nsec);
}

static int theta_moved(const double *before, const double *after, size_t M)
{
    for (size_t m = 0; m < M; m++)
        if (fabs(after[m] - before[m]) > 1e-12 * fmax(fabs(before[m]), 1e-300))
            return 1;
    return 0;
}

/* The theta step from a = 2 quad, into s->proposal: the largest weight change it makes, or -1 when
 * it makes none. */
static double propose_theta(interleaved *s, const double *theta)
{
    size_t M = s->pr->machine->kernel->n_kernels;
    memcpy(s->proposal, theta, M * sizeof *theta);
    if (!km_mkl_theta_step(s->pr, s->a, s->proposal) || !theta_moved(theta, s->proposal, M))
        return -1.0;
    return km_theta_largest_change(M, theta, s->proposal);
}

/* Takes the proposed step. */
static km_hook_action take_theta_step(interleaved *s, double *theta)
{
    memcpy(theta, s->proposal, s->pr->machine->kernel->n_kernels * sizeof *theta);
    s->steps++;
    s->violation_after_step = -1;
    s->previous_dual = -INFINITY;
    return KM_HOOK_THETA_CHANGED;
}

/* Stops at the certified point; the solver's products K_m c are the result's. */
static km_hook_action stop_certified(interleaved *s, const km_smo_step *step)
{
    const km_kernel_access *k = s->pr->machine->kernel;
    memcpy(s->result->products, step->kernel_products, k->n_kernels * k->n_rows * sizeof *s->result->products);
    s->result->products_valid = 1;
    s->certified = 1;
    return KM_HOOK_STOP;
}

static km_hook_action on_step(void *ctx, const km_smo_step *step, double *theta)
{
    interleaved *s = ctx;
    const km_mkl_problem *pr = s->pr;
    size_t M = pr->machine->kernel->n_kernels;
    s->certified = 0; /* any point but a stopping optimal one needs its own certificate */
    double dual_theta = step->lin;
    for (size_t m = 0; m < M; m++) {
        s->a[m] = 2.0 * step->quad[m];
        dual_theta -= theta[m] * step->quad[m];
    }
    /* the dual's relative change since the last theta step */
    double change = fabs(1.0 - dual_theta / s->previous_dual);
    if (s->previous_dual == -INFINITY)
        s->previous_dual = dual_theta;
    if (s->steps >= pr->mkl.max_outer || (pr->mkl.max_time > 0 && elapsed(s) >= pr->mkl.max_time)) {
        km_log(&pr->logger, KM_LOG_WARNING, "MKL stopped at its %s after %ld theta steps",
               s->steps >= pr->mkl.max_outer ? "step limit" : "time limit", s->steps);
        return KM_HOOK_STOP;
    }
    if (!step->optimal) {
        if (s->violation_after_step < 0)
            s->violation_after_step = step->violation;
        if (change < pr->mkl.eps_mkl || step->violation > STEP_PROGRESS * s->violation_after_step)
            return KM_HOOK_CONTINUE;
        return propose_theta(s, theta) >= 0 ? take_theta_step(s, theta) : KM_HOOK_CONTINUE;
    }

    /* the fixed-theta SVM is solved: certify (c, b = -rho, theta) with the solver's products */
    km_mkl_certificate cert;
    pr->machine->ops->coef_from_alpha(pr->machine, step->alpha, s->coef);
    km_mkl_certify(pr, s->coef, -step->rho, s->a, step->kernel_products, &cert);
    km_mkl_result_certified(s->result, &cert);
    km_log(&pr->logger, KM_LOG_INFO, "mkl %4ld steps: dual %.10g primal %.10g gap %.3e %.2fs", s->steps, cert.dual,
           cert.primal, cert.gap, elapsed(s));
    km_mkl_report_certified(pr, s->steps, pr->machine->kernel->theta, pr->machine->kernel->n_kernels, cert.dual,
                             cert.primal, cert.gap);
    double step_size = propose_theta(s, theta);
    if (cert.gap <= pr->mkl.gap && step_size <= pr->mkl.theta_tol) {
        /* the gap is second order in the weights' error (a gap of 1e-4 can leave weights 1e-2 off):
         * the weights must also have stopped moving */
        s->result->converged = 1;
        return stop_certified(s, step);
    }
    /* theta has settled but the SVM's own gap holds the certificate open: no theta step closes it; the SMO
     * goes on at the step's theta with a tighter tolerance */
    if (step_size >= 0 && step_size <= SETTLED * pr->mkl.theta_tol &&
        km_mkl_svm_limits_gap(pr, cert.gap, cert.dual, cert.primal, cert.svm_share))
        km_mkl_tighten(pr, step->tolerance, cert.dual, cert.svm_share);
    int stalled = 0;
    if (!km_mkl_tolerance_at_floor(pr, *step->tolerance) || cert.gap < s->best_gap * (1 - KM_STALL_CHANGE)) {
        s->best_gap = cert.gap;
        s->best_at = s->steps;
    } else {
        stalled = s->steps - s->best_at >= (s->best_at > KM_STALL_STEPS ? s->best_at : KM_STALL_STEPS);
    }
    if (step_size < 0 || stalled) {
        /* theta is at its fixed point, or the gap has stopped falling, while the gap stays open: the SVM
         * tolerance limits the certificate; solve the same theta more tightly, or stop here with one warning */
        if (km_mkl_tighten(pr, step->tolerance, cert.dual, cert.primal - cert.dual))
            return KM_HOOK_CONTINUE;
        s->status = km_mkl_gap_stuck(pr, *step->tolerance, cert.dual, cert.primal, cert.gap,
                                     stalled ? "stalled" : "fixed");
        return stop_certified(s, step);
    }
    return take_theta_step(s, theta);
}

int km_mkl_interleaves(const km_machine_problem *machine)
{
    return machine->ops->coef_from_alpha && !(machine->ops->on_features && machine->ops->on_features(machine));
}

km_status km_mkl_interleaved(const km_mkl_problem *pr, km_mkl_result *result)
{
    size_t n = pr->machine->kernel->n_rows, M = pr->machine->kernel->n_kernels;
    interleaved s = {.pr = pr, .result = result, .previous_dual = -INFINITY, .violation_after_step = -1,
                     .best_gap = INFINITY};
    clock_gettime(CLOCK_MONOTONIC, &s.start);
    s.a = malloc(M * sizeof *s.a);
    s.coef = malloc(n * sizeof *s.coef);
    s.proposal = malloc(M * sizeof *s.proposal);
    km_status st = s.a && s.coef && s.proposal ? KM_OK : km_error_nomem("the interleaved MKL solver");
    result->converged = 0;
    const km_machine_problem *machine = pr->machine;
    km_smo_options options = machine->solver;
    options.hook = on_step;
    options.hook_ctx = &s;
    options.hook_every = 1;
    km_svm_solution solution = {.coef = result->coef};
    if (!st)
        st = machine->ops->solve(machine, &options, &solution);
    result->smo_iterations = solution.iterations;
    if (!st)
        st = s.status;
    if (!st && !s.certified) {
        /* stopped before any optimal point (step or time limit): certify the final point directly */
        result->bias = solution.bias;
        result->products_valid = 0;
        if (!(st = km_mkl_result_products(pr, result))) {
            km_mkl_certificate cert;
            km_mkl_quadratic_terms(n, M, result->coef, result->products, s.a);
            km_mkl_certify(pr, result->coef, result->bias, s.a, result->products, &cert);
            km_mkl_result_certified(result, &cert);
        }
    }
    result->mkl_iterations = s.steps;
    free(s.a);
    free(s.coef);
    free(s.proposal);
    return st;
}
