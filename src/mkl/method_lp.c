/* The lp-norm family (Kloft, "lp-Norm Multiple Kernel Learning", thesis ch. 3; docs/mkl.md): lp-norm MKL,
 * ||theta||_p = 1, and the elastic net between l1 MKL and the uniform sum, each solved by the
 * interleaved, wrapper, SILP or SimpleMKL solver (all reach the same optimum), and l1 MKL on rank-1 kernels
 * also by linear programs (rank1_lp.c). */
#include <math.h>

#include "core/error.h"
#include "mkl/method.h"
#include "mkl/theta.h"

/* The two p conventions (p on theta, p_block on w: p_block = 2p/(p+1)), the elastic net's lambda and
 * the solver choice. */
static km_status lp_family_resolve(const km_mkl_params *in, km_mkl_params *out)
{
    *out = *in;
    if (in->p_block > 0) {
        if (!(in->p_block >= 1))
            return km_error(KM_EINVAL, "p-block must be >= 1 (got %g)", in->p_block);
        /* p = p_block / (2 - p_block) exists for p_block <= 2 (Kloft's thesis Problem II.4) */
        out->p = in->p_block < 2 ? in->p_block / (2 - in->p_block) : in->p_block == 2 ? INFINITY : NAN;
    } else {
        if (!(in->p >= 1))
            return km_error(KM_EINVAL, "p must be >= 1 (got %g); p = 1 gives sparse weights, p = inf uniform ones",
                            in->p);
        out->p_block = isinf(in->p) ? 2.0 : 2.0 * in->p / (in->p + 1.0);
    }
    if (in->method == KM_MKL_ELASTICNET) {
        if (!(in->lambda >= 0 && in->lambda <= 1))
            return km_error(KM_EINVAL, "elastic-net lambda must be in [0, 1] (got %g)", in->lambda);
        out->lambda = fmin(fmax(in->lambda, 1e-6), 1 - 1e-6); /* away from the ends: the dual divides by both */
        if (in->solver != KM_MKL_WRAPPER && in->solver != KM_MKL_INTERLEAVED)
            return km_error(KM_EINVAL, "the elastic net is solved by the wrapper or interleaved solver");
    }
    if (in->solver != KM_MKL_INTERLEAVED && in->solver != KM_MKL_WRAPPER && in->solver != KM_MKL_SILP &&
        in->solver != KM_MKL_SIMPLEMKL && in->solver != KM_MKL_SIMPLEX)
        return km_error(KM_EINVAL, "unknown MKL solver %d", (int)in->solver);
    if ((in->solver == KM_MKL_SIMPLEMKL || in->solver == KM_MKL_SIMPLEX) && out->p_block != 1.0) {
        const char *name = in->solver == KM_MKL_SIMPLEMKL ? "SimpleMKL" : "the simplex solver";
        /* in the convention the user gave: p, or p-block when that was set */
        if (in->p_block > 0)
            return km_error(KM_EINVAL, "%s solves p-block = 1 only (got p-block = %g); use silp, wrapper or interleaved",
                            name, in->p_block);
        return km_error(KM_EINVAL, "%s solves p = 1 only (got p = %g); use silp, wrapper or interleaved", name, in->p);
    }
    if (in->solver == KM_MKL_SILP && isinf(out->p_block))
        return km_error(KM_EINVAL, "the SILP solver needs a finite p-block");
#ifndef KM_HAVE_GLPK
    if (in->solver == KM_MKL_SILP && out->p_block == 1.0)
        return km_error(KM_EINVAL, "the SILP solver for p = 1 needs GLPK (built without GLPK)");
#endif
    if (!(in->gap > 0) || !(in->eps_mkl > 0))
        return km_error(KM_EINVAL, "the MKL tolerances must be positive (gap %g, eps %g)", in->gap, in->eps_mkl);
    if (in->max_outer <= 0)
        return km_error(KM_EINVAL, "max-outer must be positive (got %ld)", in->max_outer);
    return KM_OK;
}

/* Kloft's thesis Alg. 3.1: theta_m = M^{-(2-p)/p} (on the unit lp sphere). */
static void lp_start(const km_mkl_params *mkl, size_t M, double *theta) { km_theta_init(M, mkl->p_block, theta); }

/* The weights of a neighbouring setting (from) scaled onto the unit sphere ||theta||_q = 1, q = p/(2-p) in
 * the block-norm convention, for p_block < 2; from another p, halfway to the sphere's centre, the cold
 * start (kernels another p switched off come back at once; on heart_scale with 6 kernels and p = 1, 4/3,
 * 2 it takes a third fewer SVM iterations than the neighbour's weights alone). p_block >= 2 and
 * weights all 0 take the cold start. */
static void lp_warm_start(const km_mkl_params *mkl, const km_mkl_params *from, size_t M, double *theta)
{
    double q = mkl->p_block / (2 - mkl->p_block);
    double norm = mkl->p_block < 2 ? km_mkl_norm(M, q, theta) : 0;
    if (!(norm > 0) || !isfinite(norm)) {
        km_theta_init(M, mkl->p_block, theta);
        return;
    }
    double centre = pow((double)M, -1 / q), share = from->p_block == mkl->p_block ? 0 : 0.5;
    for (size_t m = 0; m < M; m++)
        theta[m] = (1 - share) * (theta[m] > 0 ? theta[m] / norm : 0) + share * centre;
    if (share > 0)
        km_theta_onto_lp_sphere(M, q, theta);
}

/* The elastic net starts from the uniform 1/M. */
static void elasticnet_start(const km_mkl_params *mkl, size_t M, double *theta)
{
    (void)mkl;
    for (size_t m = 0; m < M; m++)
        theta[m] = 1.0 / (double)M;
}

static int lp_step(const km_mkl_params *mkl, size_t M, const double *a, double *theta)
{
    return km_theta_lp_step(M, mkl->p_block, a, theta);
}

static int elasticnet_step(const km_mkl_params *mkl, size_t M, const double *a, double *theta)
{
    return km_theta_elasticnet_step(M, mkl->lambda, a, theta);
}

static km_status run_solver(const km_mkl_problem *problem, km_mkl_result *result)
{
    switch (problem->mkl.solver) {
    case KM_MKL_WRAPPER: return km_mkl_wrapper(problem, result);
    case KM_MKL_INTERLEAVED:
        /* a task without the SMO (KRR), or solved on explicit features, has no steps to interleave with */
        return km_mkl_interleaves(problem->machine) ? km_mkl_interleaved(problem, result)
                                                    : km_mkl_wrapper(problem, result);
    case KM_MKL_SILP: return km_mkl_silp(problem, result);
    case KM_MKL_SIMPLEMKL: return km_mkl_simplemkl(problem, result);
    case KM_MKL_SIMPLEX: return km_mkl_rank1_lp(problem, result);
    default: break;
    }
    return km_error(KM_EINVAL, "unknown MKL solver %d", (int)problem->mkl.solver);
}

/* lp-norm MKL ends by switching off the kernels a sparse optimum does not use (switch_off.c). */
static km_status lp_train(const km_mkl_problem *problem, km_mkl_result *result)
{
    km_status st = run_solver(problem, result);
    if (!st)
        st = km_mkl_switch_off(problem, result);
    return st;
}

static km_param lp_path_parameter(const km_mkl_params *mkl, const char **title)
{
    (void)mkl;
    *title = "p";
    return KM_PARAM_P;
}

static km_param elasticnet_path_parameter(const km_mkl_params *mkl, const char **title)
{
    (void)mkl;
    *title = "lambda";
    return KM_PARAM_LAMBDA;
}

static void elasticnet_describe(const km_mkl_description *d) { km_mkl_describe_lp(d, 1); }

const km_mkl_method_entry km_method_lp = {
    .id = KM_MKL_LP, .name = "lp",
    .help = "lp-norm MKL (Kloft, Brefeld, Sonnenburg & Zien): the weights learned jointly with the "
            "machine under ||theta||_p = 1",
    .flags = KM_METHOD_LEARNS_WEIGHTS | KM_METHOD_SPLIT_ROWS,
    .params = (const km_param[]){KM_PARAM_P, KM_PARAM_P_BLOCK, KM_PARAM_MKL_SOLVER, KM_PARAM_MKL_GAP,
                                 KM_PARAM_MKL_EPS, KM_PARAM_MKL_THETA_TOL, KM_PARAM_MKL_MAX_OUTER,
                                 KM_PARAM_MKL_MAX_TIME, KM_PARAM_SHARED_WEIGHTS, 0},
    .resolve = lp_family_resolve,
    .start = lp_start,
    .warm_start = lp_warm_start,
    .train = lp_train,
    .train_shared = km_mkl_shared_train,
    .theta_step = lp_step,
    .path_parameter = lp_path_parameter,
};

const km_mkl_method_entry km_method_elasticnet = {
    .id = KM_MKL_ELASTICNET, .name = "elasticnet",
    .help = "elastic-net MKL: the block-norm penalty (1-lambda) l1 + lambda l2 between sparse and "
            "uniform weights",
    .flags = KM_METHOD_LEARNS_WEIGHTS | KM_METHOD_SPLIT_ROWS,
    .params = (const km_param[]){KM_PARAM_LAMBDA, KM_PARAM_MKL_SOLVER, KM_PARAM_MKL_GAP, KM_PARAM_MKL_EPS,
                                 KM_PARAM_MKL_THETA_TOL, KM_PARAM_MKL_MAX_OUTER, KM_PARAM_MKL_MAX_TIME, 0},
    .resolve = lp_family_resolve,
    .start = elasticnet_start,
    .train = run_solver,
    .theta_step = elasticnet_step,
    .describe = elasticnet_describe,
    .path_parameter = elasticnet_path_parameter,
};
