/* The analytical wrapper (Kloft, "lp-Norm Multiple Kernel Learning", thesis Alg. 3.1): alternate a full SVM
 * solve on the current combination (warm-started) with the closed-form theta step, until the relative
 * duality gap of the certificate (certificate.c) reaches the target. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "mkl/alternate.h"
#include "mkl/mkl.h"
#include "mkl/theta.h"

static km_status wrapper_certify(void *ctx, long t, double elapsed, km_certified_values *out, int *settled)
{
    (void)settled;
    km_alternating_state *w = ctx;
    const km_kernel_access *k = w->pr->machine->kernel;
    km_mkl_certificate cert;
    km_mkl_certify(w->pr, w->result->coef, w->result->bias, w->a, w->h, &cert);
    km_mkl_result_certified(w->result, &cert);
    *out = (km_certified_values){cert.dual, cert.primal, cert.gap, cert.svm_share};
    km_log(&w->pr->logger, KM_LOG_INFO, "mkl %4ld: dual %.10g primal %.10g gap %.3e active kernels %zu/%zu %.2fs",
           t, cert.dual, cert.primal, cert.gap, km_mkl_count_active(k->theta, k->n_kernels), k->n_kernels, elapsed);
    return KM_OK;
}

static km_status wrapper_step(void *ctx, const double *theta_used, km_weight_move *move)
{
    km_alternating_state *w = ctx;
    const km_kernel_access *k = w->pr->machine->kernel;
    if (!km_mkl_theta_step(w->pr, w->a, k->theta))
        *move = KM_NOTHING_TO_LEARN;
    else /* at p = 2 theta is always at its fixed point: the next solve would repeat this one */
        *move = km_theta_moved(k->n_kernels, theta_used, k->theta) ? KM_MOVED : KM_AT_FIXED_POINT;
    return KM_OK;
}

km_status km_mkl_wrapper(const km_mkl_problem *pr, km_mkl_result *result)
{
    const km_kernel_access *k = pr->machine->kernel;
    size_t n = k->n_rows, M = k->n_kernels;
    km_alternating_state w = {.pr = pr, .result = result, .h = malloc(n * M * sizeof *w.h), .a = malloc(M * sizeof *w.a)};
    km_alternating_solver solver = {&w, km_alternating_evaluate, wrapper_certify, wrapper_step, "fixed",
                                    &result->tolerance};
    km_status st = w.h && w.a ? km_mkl_alternate(pr, k->theta, M, &solver, &result->mkl_iterations, &result->converged)
                              : km_error_nomem("the MKL wrapper");
    if (!st) {
        memcpy(result->products, w.h, M * n * sizeof *w.h); /* K_m c of the final solution */
        result->products_valid = 1;
    }
    free(w.h);
    free(w.a);
    return st;
}
