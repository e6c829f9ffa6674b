/* Multiclass lp-norm MKL with one theta shared by all binary machines (docs/mkl.md "Multiclass"), as
 * SHOGUN's multiclass MKL learns it: the joint problem is min_theta sum_k SVM_k(K_theta). Its dual is
 * D = sum_k lin_k - 1/2 ||sum_k a_k||_r (the dual of Kloft's thesis "lp-Norm Multiple Kernel
 * Learning", Problem 2.2, with the a_m of the machines added), and its primal,
 * after minimising 1/2 sum_m (sum_k |w_km|^2)/theta_m over theta, is
 * P = 1/2 ||W||_{2,p}^2 + sum_k L_k with W_m = theta_m sqrt(sum_k a_km). Alternating as the wrapper
 * (thesis Alg. 3.1): solve every machine at theta (warm-started), add lin and a over the machines, take one
 * theta step with the sum (extrapolated by SQUAREM, squarem.h), and stop on the relative gap of the sum. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "mkl/alternate.h"
#include "mkl/mkl.h"
#include "mkl/squarem.h"
#include "mkl/theta.h"

typedef struct joint_point {
    double lin;       /* sum_k lin_k */
    double loss;      /* sum_k L_k */
    double *a;        /* sum_k a_k (M) */
} joint_point;

static km_status check_problems(const km_mkl_problem *problems, size_t count)
{
    if (count == 0)
        return km_error(KM_EINVAL, "shared kernel weights need at least one machine");
    const km_kernel_access *first = problems[0].machine->kernel;
    for (size_t k = 0; k < count; k++) {
        const km_mkl_problem *pr = &problems[k];
        if (pr->machine->ops->task != KM_TASK_SVC)
            return km_error(KM_EINVAL, "shared kernel weights are learned for classification machines");
        if (pr->machine->kernel->theta != first->theta || pr->machine->kernel->n_kernels != first->n_kernels)
            return km_error(KM_EINVAL, "machines with shared kernel weights must use one theta array");
    }
    return KM_OK;
}

/* Solves machine k at the current theta and adds its lin, loss and a_m to the joint point; h_at_coef: h
 * holds the machine's K_m c at its coefficients (its last evaluation's). */
static km_status add_machine(const km_mkl_problem *pr, km_mkl_result *result, double *h, int h_at_coef, double *a,
                             joint_point *joint)
{
    const km_kernel_access *k = pr->machine->kernel;
    size_t M = k->n_kernels;
    km_status st = km_mkl_evaluate(pr, result, h, h_at_coef, a);
    if (st)
        return st;
    km_mkl_certificate cert;
    km_mkl_certify(pr, result->coef, result->bias, a, h, &cert);
    /* the machine's own SVM objective at the shared theta (LIBSVM's sign): 1/2 sum theta_m a_m - lin */
    result->bias = cert.bias;
    result->objective = -cert.lin;
    for (size_t m = 0; m < M; m++)
        result->objective += 0.5 * k->theta[m] * a[m];
    /* the certificate's primal is 1/2 ||w_k||_{2,p}^2 + L_k with the machine's own block norms */
    for (size_t m = 0; m < M; m++) {
        joint->a[m] += a[m];
        a[m] = a[m] > 0 ? k->theta[m] * sqrt(a[m]) : 0.0;
    }
    joint->lin += cert.lin;
    joint->loss += cert.primal - 0.5 * km_block_norm_squared(M, pr->mkl.p_block, a);
    return KM_OK;
}

/* The alternation's state over all machines. */
typedef struct shared {
    const km_mkl_problem *problems;
    size_t count;
    double tolerance;            /* the SVM tolerance of every machine's solve (0: their -e), tightened by
                                    km_mkl_alternate for a stalled joint gap */
    km_mkl_result *results;
    double *h, *a, *w;           /* K_m c of a machine without a products buffer, a machine's a_m; the joint
                                    block norms */
    int evaluated;               /* the machines' products buffers hold K_m c at their coefficients */
    joint_point joint;           /* over every machine at the current theta */
    double dual, primal, gap;
    int extrapolate;             /* lp-norm weights with a finite p */
    km_squarem q;
} shared;

static km_status shared_evaluate(void *ctx)
{
    shared *s = ctx;
    size_t M = s->problems[0].machine->kernel->n_kernels;
    memset(s->joint.a, 0, M * sizeof *s->joint.a);
    s->joint.lin = s->joint.loss = 0;
    km_status st = KM_OK;
    for (size_t k = 0; !st && k < s->count; k++) {   /* each machine's own products: the next solve's start */
        km_mkl_result *result = &s->results[k];
        result->tolerance = s->tolerance;
        st = add_machine(&s->problems[k], result, result->products ? result->products : s->h,
                         result->products && s->evaluated, s->a, &s->joint);
    }
    s->evaluated = !st;
    return st;
}

static km_status shared_certify(void *ctx, long t, double elapsed, km_certified_values *out)
{
    shared *s = ctx;
    const km_mkl_problem *first = &s->problems[0];
    const double *theta = first->machine->kernel->theta;
    size_t M = first->machine->kernel->n_kernels;
    double p = first->mkl.p_block;
    for (size_t m = 0; m < M; m++)
        s->w[m] = s->joint.a[m] > 0 ? theta[m] * sqrt(s->joint.a[m]) : 0.0;
    s->dual = s->joint.lin - 0.5 * km_mkl_dual_norm(M, p, s->joint.a);
    s->primal = 0.5 * km_block_norm_squared(M, p, s->w) + s->joint.loss;
    s->gap = (s->primal - s->dual) / fabs(s->primal);
    double kernel_term = s->joint.lin - s->dual;
    *out = (km_certified_values){s->dual, s->primal, s->gap,
                                 km_mkl_svm_share(first, s->joint.a, kernel_term, s->primal - s->dual)};
    km_log(&first->logger, KM_LOG_INFO, "shared mkl %4ld%s: dual %.10g primal %.10g gap %.3e over %zu machines %.2fs",
           t, s->q.pending ? " (extrapolated)" : "", s->dual, s->primal, s->gap, s->count, elapsed);
    return KM_OK;
}

/* The step from the point solved at, from the sum of the machines' a_m; lp-norm weights (finite p)
 * extrapolated by SQUAREM (squarem.h) on the joint primal. */
static km_status shared_step(void *ctx, const double *theta_used, km_weight_move *move)
{
    shared *s = ctx;
    const km_mkl_problem *first = &s->problems[0];
    *move = km_squarem_lp_step(first, s->extrapolate ? &s->q : NULL, theta_used, s->primal, s->joint.a,
                               first->machine->kernel->theta);
    return KM_OK;
}

km_status km_mkl_shared_train(const km_mkl_problem *problems, size_t count, km_mkl_result *results)
{
    km_status st = check_problems(problems, count);
    if (st)
        return st;
    const km_mkl_problem *first = &problems[0];
    size_t M = first->machine->kernel->n_kernels, max_rows = 0;
    for (size_t k = 0; k < count; k++)
        max_rows = problems[k].machine->kernel->n_rows > max_rows ? problems[k].machine->kernel->n_rows : max_rows;
    shared s = {.problems = problems, .count = count, .results = results, .dual = NAN, .primal = NAN, .gap = NAN,
                .extrapolate = first->mkl.method == KM_MKL_LP && isfinite(first->mkl.p)};
    if ((st = km_squarem_init(&s.q, M)))
        return st;
    s.h = malloc(max_rows * M * sizeof *s.h);
    s.a = malloc(M * sizeof *s.a);
    s.w = malloc(M * sizeof *s.w);
    s.joint.a = malloc(M * sizeof *s.joint.a);
    long iterations = 0;
    int converged = 0;
    km_alternating_solver solver = {&s, shared_evaluate, shared_certify, shared_step, "fixed", &s.tolerance};
    st = s.h && s.a && s.w && s.joint.a
             ? km_mkl_alternate(first, first->machine->kernel->theta, M, &solver, &iterations, &converged)
             : km_error_nomem("shared kernel weights");
    for (size_t k = 0; !st && k < count; k++) {
        results[k].dual = s.dual;
        results[k].primal = s.primal;
        results[k].gap = s.gap;
        results[k].mkl_iterations = iterations;
        results[k].converged = converged;
        results[k].products_valid = results[k].products != NULL;   /* K_m c at the final coefficients */
    }
    free(s.h);
    free(s.a);
    free(s.w);
    free(s.joint.a);
    km_squarem_free(&s.q);
    return st;
}
