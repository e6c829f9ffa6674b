/* The L1 baseline of KRR kernel learning (Rostamizadeh's thesis §3.2): min F(mu) over the simplex
 * {mu >= 0, sum_k mu_k = Lambda}, F(mu) = y'(K_mu + lambda I)^-1 y, grad F = -v. Projected gradient with
 * Armijo backtracking, F(mu') <= F(mu) - 1e-4 v'(mu' - mu), the step doubling after each accepted one;
 * it stops when the duality gap Lambda max_k v_k - mu'v reaches the relative tolerance (KM_PARAM_MKL_GAP)
 * of F. The projection is the sort-based one (Held, Wolfe & Crowder; Duchi et al. 2008). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/double_order.h"
#include "core/error.h"
#include "mkl/krr_learning.h"
#include "mkl/method.h"
#include "mkl/two_stage.h"

/* out = the Euclidean projection of z onto {mu >= 0, sum mu = Lambda}; sorted: M scratch values. */
static void project_simplex(size_t M, const double *z, double Lambda, double *sorted, double *out)
{
    memcpy(sorted, z, M * sizeof *sorted);
    qsort(sorted, M, sizeof *sorted, km_double_descending);
    double sum = 0, theta = 0;
    for (size_t j = 0; j < M; j++) {
        sum += sorted[j];
        double candidate = (sum - Lambda) / (double)(j + 1);
        if (sorted[j] - candidate > 0)
            theta = candidate;
    }
    for (size_t k = 0; k < M; k++)
        out[k] = z[k] > theta ? z[k] - theta : 0.0;
}

static double duality_gap(size_t M, double Lambda, const double *mu, const double *v)
{
    double largest = 0, mv = 0;
    for (size_t k = 0; k < M; k++) {
        largest = fmax(largest, v[k]);
        mv += mu[k] * v[k];
    }
    return Lambda * largest - mv;
}

static km_status l1krr_train(const km_mkl_problem *pr, km_mkl_result *result)
{
    km_status st = km_krr_learning_check(pr);
    if (st)
        return st;
    size_t M = pr->machine->kernel->n_kernels;
    double Lambda = pr->mkl.radius;
    km_krr_point cur, trial;
    if ((st = km_krr_point_alloc(pr, &cur)))
        return st;
    if ((st = km_krr_point_alloc(pr, &trial))) {
        km_krr_point_free(&cur);
        return st;
    }
    double *mu = malloc(M * sizeof *mu), *z = malloc(M * sizeof *z), *candidate = malloc(M * sizeof *candidate),
           *sorted = malloc(M * sizeof *sorted);
    if (!mu || !z || !candidate || !sorted)
        st = km_error_nomem("l1krr");
    for (size_t k = 0; !st && k < M; k++)
        mu[k] = Lambda / (double)M;
    if (!st)
        st = km_krr_point_at(pr, mu, &cur, &result->smo_iterations);
    double step = 0;
    for (size_t k = 0; !st && k < M; k++)
        step = fmax(step, cur.v[k]);
    step = step > 0 ? Lambda / step : 1.0;
    long t = 0;
    result->converged = 0;
    while (!st && t < pr->mkl.max_outer) {
        double gap = duality_gap(M, Lambda, mu, cur.v);
        /* in the machine's scaling P = F/2 and D = (F - gap)/2 (krr_learning.h) */
        km_mkl_report_certified(pr, t, mu, M, (cur.F - gap) / 2, cur.F / 2, gap / cur.F);
        if (gap <= pr->mkl.gap * cur.F) {
            result->converged = 1;
            break;
        }
        t++;
        int accepted = 0;
        while (!st && !accepted && step > 1e-300) {
            for (size_t k = 0; k < M; k++)
                z[k] = mu[k] + step * cur.v[k];
            project_simplex(M, z, Lambda, sorted, candidate);
            double decrease = 0;
            for (size_t k = 0; k < M; k++)
                decrease += cur.v[k] * (candidate[k] - mu[k]);
            if (!(decrease > 0))
                break; /* no ascent direction left within rounding: mu is optimal */
            if ((st = km_krr_point_at(pr, candidate, &trial, &result->smo_iterations)))
                break;
            if (trial.F <= cur.F - 1e-4 * decrease) {
                accepted = 1;
                memcpy(mu, candidate, M * sizeof *mu);
                km_krr_point tmp = cur;
                cur = trial;
                trial = tmp;
                step *= 2;
            } else {
                step *= 0.5;
            }
        }
        if (!st && !accepted)
            break; /* no descent left: the gap is at the rounding level of F, above its target */
    }
    if (!st && !result->converged)
        km_log(&pr->logger, KM_LOG_WARNING, "l1krr stopped after %ld iterations with relative gap %.3e", t,
               duality_gap(M, Lambda, mu, cur.v) / cur.F);
    if (!st) {
        memcpy(pr->machine->kernel->theta, mu, M * sizeof *mu);
        km_krr_learning_result(pr, &cur, fmax(0.0, duality_gap(M, Lambda, mu, cur.v)), result);
        result->converged = result->gap <= pr->mkl.gap;
        result->mkl_iterations = t;
    }
    km_krr_point_free(&cur);
    km_krr_point_free(&trial);
    free(mu);
    free(z);
    free(candidate);
    free(sorted);
    return st;
}

const km_mkl_method_entry km_method_l1krr = {
    .id = KM_MKL_L1KRR, .name = "l1krr",
    .help = "with -s krr: weights learned jointly with KRR on sum_k mu_k = R",
    .flags = KM_METHOD_LEARNS_WEIGHTS | KM_METHOD_ALIGNMENT,
    .params = (const km_param[]){KM_PARAM_MKL_RADIUS, KM_PARAM_MKL_GAP, KM_PARAM_MKL_MAX_OUTER,
                                 KM_PARAM_MKL_MAX_TIME, 0},
    .resolve = km_alignment_methods_resolve,
    .train = l1krr_train,
    .describe = km_mkl_describe_alignment,
};
