/* Switched-off kernels (Kloft's thesis "lp-Norm Multiple Kernel Learning", §3.2.2). The closed-form steps of
 * p_block < 2 never set a weight to exactly 0 (the weights are floored at 1e-12 of the largest so that none is
 * lost for good), so a sparse optimum is only approached: its unused kernels end with tiny weights. Weights
 * below KM_SWITCH_OFF of the largest are set to 0 and theta is rescaled to ||theta||_q = 1
 * (q = p_block / (2 - p_block), thesis Problem II.4); the change is kept when the duality certificate
 * (certificate.c) at the new theta still meets the gap target (or is no worse than the solver's). The dual D
 * does not depend on theta; the primal moves by the dropped block norms, theta_m sqrt(a_m) <= 1e-8 of the
 * largest, and by the loss of the slightly changed decision values. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "mkl/mkl.h"
#include "mkl/theta.h"

/* Sets the weights below KM_SWITCH_OFF * top to 0 and rescales, keeping the change when the
 * certificate allows it (kept holds theta to restore; a is scratch for a_m). */
static km_status try_switch_off(const km_mkl_problem *pr, km_mkl_result *result, double top, size_t tiny,
                                double *kept, double *a)
{
    const km_kernel_access *k = pr->machine->kernel;
    size_t M = k->n_kernels;
    km_status st = km_mkl_result_products(pr, result);
    if (st)
        return st;
    const double *h = result->products;
    memcpy(kept, k->theta, M * sizeof *kept);
    for (size_t m = 0; m < M; m++)
        if (k->theta[m] < KM_SWITCH_OFF * top)
            k->theta[m] = 0.0;
    km_theta_onto_lp_sphere(M, pr->mkl.p_block / (2.0 - pr->mkl.p_block), k->theta);
    km_mkl_certificate cert;
    km_mkl_kernel_terms(pr, result->coef, h, a);
    km_mkl_certify(pr, result->coef, result->bias, a, h, &cert);
    if (cert.gap <= fmax(pr->mkl.gap, result->gap)) {
        km_mkl_result_certified(result, &cert);
        return KM_OK;
    }
    km_log(&pr->logger, KM_LOG_INFO,
           "%zu kernel weights below %g of the largest kept: setting them to 0 raises the gap to %.3e", tiny,
           KM_SWITCH_OFF, cert.gap);
    memcpy(k->theta, kept, M * sizeof *kept);
    return KM_OK;
}

km_status km_mkl_switch_off(const km_mkl_problem *pr, km_mkl_result *result)
{
    const km_kernel_access *k = pr->machine->kernel;
    size_t M = k->n_kernels, tiny = 0, off = 0;
    if (!(pr->mkl.p_block < 2))
        return KM_OK;
    double top = 0;
    for (size_t m = 0; m < M; m++)
        top = fmax(top, k->theta[m]);
    for (size_t m = 0; m < M; m++)
        tiny += k->theta[m] > 0 && k->theta[m] < KM_SWITCH_OFF * top;
    if (tiny) {
        double *kept = malloc(M * sizeof *kept), *a = malloc(M * sizeof *a);
        km_status st = kept && a ? try_switch_off(pr, result, top, tiny, kept, a) : km_error_nomem("switching kernels off");
        free(kept);
        free(a);
        if (st)
            return st;
    }
    for (size_t m = 0; m < M; m++)
        off += k->theta[m] == 0.0;
    if (off)
        km_log(&pr->logger, KM_LOG_INFO, "%zu of %zu kernels switched off (weight 0)", off, M);
    return KM_OK;
}
