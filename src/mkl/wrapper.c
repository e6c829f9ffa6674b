/* The analytical wrapper (Kloft, "lp-Norm Multiple Kernel Learning", thesis Alg. 3.1): alternate a full SVM
 * solve on the current combination (warm-started) with the closed-form theta step, until the relative
 * duality gap of the certificate (certificate.c) reaches the target. The step is a fixed-point map whose
 * convergence is slow near p = 1 (the weights of kernels on their way out shrink by a nearly constant
 * factor per step); lp-norm weights (finite p) are extrapolated by SQUAREM (squarem.h) on the certified
 * primal, as the shared weights of multiclass_mkl.c are. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "mkl/alternate.h"
#include "mkl/mkl.h"
#include "mkl/squarem.h"
#include "mkl/theta.h"

typedef struct wrapper {
    km_alternating_state last;   /* first: the loop's state */
    double primal;               /* the certified primal at the last solve, SQUAREM's objective */
    int extrapolate;             /* lp-norm weights with a finite p */
    km_squarem q;
} wrapper;

static km_status wrapper_certify(void *ctx, long t, double elapsed, km_certified_values *out)
{
    wrapper *w = ctx;
    const km_mkl_problem *pr = w->last.pr;
    const km_kernel_access *k = pr->machine->kernel;
    km_mkl_certificate cert;
    km_mkl_certify(pr, w->last.result->coef, w->last.result->bias, w->last.a, w->last.h, &cert);
    km_mkl_result_certified(w->last.result, &cert);
    w->primal = cert.primal;
    *out = (km_certified_values){cert.dual, cert.primal, cert.gap, cert.svm_share};
    km_log(&pr->logger, KM_LOG_INFO, "mkl %4ld%s: dual %.10g primal %.10g gap %.3e active kernels %zu/%zu %.2fs",
           t, w->q.pending ? " (extrapolated)" : "", cert.dual, cert.primal, cert.gap,
           km_mkl_count_active(k->theta, k->n_kernels), k->n_kernels, elapsed);
    return KM_OK;
}

static km_status wrapper_step(void *ctx, const double *theta_used, km_weight_move *move)
{
    wrapper *w = ctx;
    const km_kernel_access *k = w->last.pr->machine->kernel;
    km_weight_move stepped = km_squarem_lp_step(w->last.pr, w->extrapolate ? &w->q : NULL, theta_used, w->primal,
                                                w->last.a, k->theta);
    if (stepped == KM_NOTHING_TO_LEARN)
        *move = KM_NOTHING_TO_LEARN;
    else /* at p = 2 theta is always at its fixed point: the next solve would repeat this one */
        *move = km_theta_moved(k->n_kernels, theta_used, k->theta) ? KM_MOVED : KM_AT_FIXED_POINT;
    return KM_OK;
}

km_status km_mkl_wrapper(const km_mkl_problem *pr, km_mkl_result *result)
{
    const km_kernel_access *k = pr->machine->kernel;
    size_t n = k->n_rows, M = k->n_kernels;
    wrapper w = {.last = {.pr = pr, .result = result, .h = malloc(n * M * sizeof(double)), .a = malloc(M * sizeof(double))},
                 .primal = NAN, .extrapolate = pr->mkl.method == KM_MKL_LP && isfinite(pr->mkl.p)};
    km_alternating_solver solver = {&w, km_alternating_evaluate, wrapper_certify, wrapper_step, "fixed",
                                    &result->tolerance};
    km_status st = km_squarem_init(&w.q, M);
    if (!st)
        st = w.last.h && w.last.a ? km_mkl_alternate(pr, k->theta, M, &solver, &result->mkl_iterations, &result->converged)
                                  : km_error_nomem("the MKL wrapper");
    if (!st) {
        memcpy(result->products, w.last.h, M * n * sizeof *w.last.h); /* K_m c of the final solution */
        result->products_valid = 1;
    }
    free(w.last.h);
    free(w.last.a);
    km_squarem_free(&w.q);
    return st;
}
