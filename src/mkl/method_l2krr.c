/* L2-regularized kernel learning with KRR (Cortes, Mohri & Rostamizadeh; Rostamizadeh's thesis §2.3.1,
 * Thm. 2.1, Algorithm 1): min_{mu in M} F(mu), F(mu) = y'(K_mu + lambda I)^-1 y over
 * M = {mu >= 0, ||mu - mu0||_2 <= Lambda}. At the optimum mu = mu0 + Lambda v/||v|| with
 * v_k = alpha'K_k alpha, alpha = (K_mu + lambda I)^-1 y (Thm. 2.1); Algorithm 1 iterates that map on
 * alpha with the interpolation alpha' = eta alpha + (1 - eta) alpha(mu), until
 * ||alpha' - alpha|| <= eps ||alpha||. If ||alpha' - alpha|| grows five times in a row eta moves half way
 * to 1 (a safeguard the thesis does not need on its data). The duality gap at the end,
 * mu0'v + Lambda ||v|| - mu'v >= 0, is 0 exactly at the fixed point. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "mkl/krr_learning.h"
#include "mkl/method.h"
#include "mkl/two_stage.h"

static double norm2(size_t n, const double *x)
{
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += x[i] * x[i];
    return sqrt(s);
}

/* mu0 (M values) from the parameters; theta holds the given weights on entry. */
static void centre(const km_mkl_problem *pr, double *mu0)
{
    const km_kernel_access *k = pr->machine->kernel;
    size_t M = k->n_kernels;
    for (size_t m = 0; m < M; m++)
        mu0[m] = pr->mkl.mu0 == KM_MU0_GIVEN ? k->theta[m]
                 : pr->mkl.mu0 == KM_MU0_UNIFORM ? pr->mkl.radius / sqrt((double)M)
                                                 : 0.0;
}

static km_status l2krr_train(const km_mkl_problem *pr, km_mkl_result *result)
{
    km_status st = km_krr_learning_check(pr);
    if (st)
        return st;
    size_t n = pr->machine->kernel->n_rows, M = pr->machine->kernel->n_kernels;
    double Lambda = pr->mkl.radius, eta = pr->mkl.eta;
    km_krr_point cur;
    if ((st = km_krr_point_alloc(pr, &cur)))
        return st;
    double *mu0 = malloc(M * sizeof *mu0), *mu = malloc(M * sizeof *mu), *v = malloc(M * sizeof *v);
    double *alpha = malloc(n * sizeof *alpha), *next = malloc(n * sizeof *next);
    double *h = malloc(M * n * sizeof *h), *h_next = malloc(M * n * sizeof *h_next);
    if (!mu0 || !mu || !v || !alpha || !next || !h || !h_next)
        st = km_error_nomem("l2krr");
    if (!st) {
        centre(pr, mu0);
        memcpy(mu, mu0, M * sizeof *mu);
        st = km_krr_point_at(pr, mu0, &cur, &result->smo_iterations);
    }
    if (!st) {
        memcpy(next, cur.coef, n * sizeof *next);
        memcpy(h_next, cur.h, M * n * sizeof *h_next);
    }
    long t = 0, growing = 0;
    double previous = INFINITY;
    result->converged = 0;
    while (!st && t < pr->mkl.max_outer) {
        t++;
        memcpy(alpha, next, n * sizeof *alpha);
        memcpy(h, h_next, M * n * sizeof *h);
        km_mkl_quadratic_terms(n, M, alpha, h, v);
        for (size_t m = 0; m < M; m++)
            v[m] = v[m] > 0 ? v[m] : 0.0;
        double nv = norm2(M, v);
        if (!(nv > 0)) {
            km_log(&pr->logger, KM_LOG_WARNING, "l2krr: every kernel gives alpha'K alpha = 0; the weights stay at mu0");
            memcpy(mu, mu0, M * sizeof *mu);
            result->converged = 1;
            break;
        }
        for (size_t m = 0; m < M; m++)
            mu[m] = mu0[m] + Lambda * v[m] / nv;
        if ((st = km_krr_point_at(pr, mu, &cur, &result->smo_iterations)))
            break;
        for (size_t i = 0; i < n; i++)
            next[i] = eta * alpha[i] + (1 - eta) * cur.coef[i];
        for (size_t i = 0; i < M * n; i++)
            h_next[i] = eta * h[i] + (1 - eta) * cur.h[i];
        double change = 0;
        for (size_t i = 0; i < n; i++)
            change += (next[i] - alpha[i]) * (next[i] - alpha[i]);
        change = sqrt(change);
        km_mkl_step_record record = km_mkl_step_record_of(t, mu, M);
        record.objective = cur.F / 2; /* the KRR dual at mu, in the machine's scaling (krr_learning.h) */
        km_mkl_report_step(pr, &record);
        if (change <= pr->mkl.eps_mkl * norm2(n, alpha)) {
            result->converged = 1;
            break;
        }
        growing = change > previous ? growing + 1 : 0;
        previous = change;
        if (growing >= 5) {
            eta = 0.5 * (1 + eta);
            growing = 0;
            km_log(&pr->logger, KM_LOG_INFO, "l2krr: the steps grow; eta raised to %g", eta);
        }
    }
    if (!st && !result->converged)
        km_log(&pr->logger, KM_LOG_WARNING, "l2krr stopped after %ld iterations before the tolerance %g", t,
               pr->mkl.eps_mkl);
    /* the exact alpha at the final mu, and the gap with v there */
    if (!st)
        st = km_krr_point_at(pr, mu, &cur, &result->smo_iterations);
    if (!st) {
        double nv = norm2(M, cur.v), gap = Lambda * nv;
        for (size_t m = 0; m < M; m++)
            gap += (mu0[m] - mu[m]) * cur.v[m];
        km_krr_learning_result(pr, &cur, gap > 0 ? gap : 0.0, result);
        result->mkl_iterations = t;
        km_log(&pr->logger, KM_LOG_INFO, "l2krr: %ld iterations, F %.10g, duality gap %.3e", t, cur.F, gap);
        /* converged means what it means for every method: the certified gap met its target */
        result->converged = result->gap <= pr->mkl.gap;
        if (!result->converged)
            km_log(&pr->logger, KM_LOG_WARNING, "l2krr stopped with relative gap %.3e above %g", result->gap,
                   pr->mkl.gap);
    }
    km_krr_point_free(&cur);
    free(mu0);
    free(mu);
    free(v);
    free(alpha);
    free(next);
    free(h);
    free(h_next);
    return st;
}

static void l2krr_describe(const km_mkl_description *d)
{
    const char *mu0 = km_describe_name(KM_ENUM_MU0, d->mkl->mu0);
    km_mkl_describe_alignment_head(d);
    if (d->part != KM_DESCRIBE_SETTINGS)
        return;
    if (d->json) {
        km_describe_json_member(d, "eta", d->mkl->eta);
        fprintf(d->out, ", \"mu0\": \"%s\"", mu0);
    } else {
        fprintf(d->out, ", eta %.6g, mu0 %s\n", d->mkl->eta, mu0);
    }
}

const km_mkl_method_entry km_method_l2krr = {
    .id = KM_MKL_L2KRR, .name = "l2krr",
    .help = "with -s krr: weights learned jointly with KRR in the ball ||mu - mu0||_2 <= R (Cortes, "
            "Mohri & Rostamizadeh, Algorithm 1)",
    .flags = KM_METHOD_LEARNS_WEIGHTS | KM_METHOD_ALIGNMENT,
    .params = (const km_param[]){KM_PARAM_MKL_RADIUS, KM_PARAM_L2KRR_ETA, KM_PARAM_MU0, KM_PARAM_MKL_EPS,
                                 KM_PARAM_MKL_MAX_OUTER, KM_PARAM_MKL_MAX_TIME, 0},
    .resolve = km_alignment_methods_resolve,
    .train = l2krr_train,
    .describe = l2krr_describe,
};
