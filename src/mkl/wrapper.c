/* The analytical wrapper (spec/lpmkl.md §3.2, seed Alg. 3.1): alternate a full SVM solve on the
 * current combination (warm-started) with the closed-form theta step, until the relative duality gap
 * of §4 reaches the target. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/error.h"
#include "mkl/mkl.h"

km_status km_mkl_wrapper(const km_mkl_problem *pr, km_mkl_result *result)
{
    const km_kernel_access *k = pr->machine->kernel;
    size_t n = k->n_rows, M = k->n_kernels;
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    double *h = malloc(n * M * sizeof *h), *a = malloc(M * sizeof *a), *theta_used = malloc(M * sizeof *theta_used);
    km_status st = h && a && theta_used ? KM_OK : km_error_nomem("the MKL wrapper");
    result->converged = 0;
    result->mkl_iterations = 0;
    for (long t = 1; !st && t <= pr->mkl.max_outer; t++) {
        memcpy(theta_used, k->theta, M * sizeof *theta_used);
        if ((st = km_mkl_evaluate(pr, result, h, a)))
            break;
        km_mkl_certificate cert;
        km_mkl_certify(pr, result->coef, result->bias, a, h, &cert);
        result->dual = cert.dual;
        result->primal = cert.primal;
        result->gap = cert.gap;
        result->mkl_iterations = t;
        double elapsed = km_mkl_seconds_since(&start);
        km_log(&pr->logger, KM_LOG_INFO, "mkl %4ld: dual %.10g primal %.10g gap %.3e active kernels %zu/%zu %.2fs",
               t, cert.dual, cert.primal, cert.gap, km_mkl_count_active(k->theta, M), M, elapsed);
        if (cert.gap <= pr->mkl.gap) {
            result->converged = 1;
            break;
        }
        if (km_mkl_limit_reached(pr, t, elapsed, cert.gap))
            break;
        if (!km_mkl_theta_step(pr, a, k->theta))
            break; /* every a_m <= 0: the solution does not depend on the kernels */
        if (!memcmp(k->theta, theta_used, M * sizeof *theta_used)) {
            /* theta is at its fixed point (always at p = 2) but the gap stays: the next solve would
             * repeat this one, so the SVM tolerance limits the certificate */
            km_log(&pr->logger, KM_LOG_WARNING, "MKL gap %.3e stays above %g at a fixed theta; lower the SVM tolerance (-e)",
                   cert.gap, pr->mkl.gap);
            break;
        }
    }
    if (!st) {
        memcpy(k->theta, theta_used, M * sizeof *theta_used); /* the theta the final solution belongs to */
        memcpy(result->products, h, M * n * sizeof *h);         /* K_m c of the final solution */
        result->products_valid = 1;
    }
    free(h);
    free(a);
    free(theta_used);
    return st;
}
