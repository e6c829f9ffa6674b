/* Multiclass lp-norm MKL with one theta shared by all binary machines (docs/mkl.md "Multiclass"), as
 * SHOGUN's multiclass MKL learns it: the joint problem is min_theta sum_k SVM_k(K_theta). Its dual is
 * D = sum_k lin_k - 1/2 ||sum_k a_k||_r (spec §2 with the a_m of the machines added), and its primal,
 * after minimising 1/2 sum_m (sum_k |w_km|^2)/theta_m over theta, is
 * P = 1/2 ||W||_{2,p}^2 + sum_k L_k with W_m = theta_m sqrt(sum_k a_km). Alternating as the wrapper
 * (§3.2): solve every machine at theta (warm-started), add lin and a over the machines, take one theta
 * step with the sum, and stop on the relative gap of the sum. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/error.h"
#include "mkl/mkl.h"
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
        if (pr->mkl.method != KM_MKL_LP)
            return km_error(KM_EINVAL, "shared kernel weights are learned with lp-norm MKL (--mkl lp)");
        if (pr->machine->kernel->theta != first->theta || pr->machine->kernel->n_kernels != first->n_kernels)
            return km_error(KM_EINVAL, "machines with shared kernel weights must use one theta array");
    }
    return KM_OK;
}

/* Solves machine k at the current theta and adds its lin, loss and a_m to the joint point. */
static km_status add_machine(const km_mkl_problem *pr, km_mkl_result *result, double *h, double *a,
                             joint_point *joint)
{
    const km_kernel_access *k = pr->machine->kernel;
    size_t M = k->n_kernels;
    km_status st = km_mkl_evaluate(pr, result, h, a);
    if (st)
        return st;
    km_mkl_certificate cert;
    km_mkl_certify(pr, result->coef, result->bias, a, h, &cert);
    /* the machine's own SVM objective at the shared theta (LIBSVM's sign): 1/2 sum theta_m a_m - lin */
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

km_status km_mkl_shared_train(const km_mkl_problem *problems, size_t count, km_mkl_result *results)
{
    km_status st = check_problems(problems, count);
    if (st)
        return st;
    const km_mkl_problem *first = &problems[0];
    double *theta = first->machine->kernel->theta;
    size_t M = first->machine->kernel->n_kernels, max_rows = 0;
    double p = first->mkl.p_block;
    for (size_t k = 0; k < count; k++)
        max_rows = problems[k].machine->kernel->n_rows > max_rows ? problems[k].machine->kernel->n_rows : max_rows;
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    double *h = malloc(max_rows * M * sizeof *h), *a = malloc(M * sizeof *a);
    double *a_sum = malloc(M * sizeof *a_sum), *w = malloc(M * sizeof *w), *theta_used = malloc(M * sizeof *theta_used);
    if (!h || !a || !a_sum || !w || !theta_used)
        st = km_error_nomem("shared kernel weights");
    double dual = NAN, primal = NAN, gap = NAN;
    long t = 0;
    int converged = 0;
    while (!st && ++t <= first->mkl.max_outer) {
        memcpy(theta_used, theta, M * sizeof *theta);
        memset(a_sum, 0, M * sizeof *a_sum);
        joint_point joint = {.a = a_sum};
        for (size_t k = 0; !st && k < count; k++)
            st = add_machine(&problems[k], &results[k], h, a, &joint);
        if (st)
            break;
        for (size_t m = 0; m < M; m++)
            w[m] = a_sum[m] > 0 ? theta[m] * sqrt(a_sum[m]) : 0.0;
        dual = joint.lin - 0.5 * km_mkl_dual_norm(M, p, a_sum);
        primal = 0.5 * km_block_norm_squared(M, p, w) + joint.loss;
        gap = (primal - dual) / fabs(primal);
        double elapsed = km_mkl_seconds_since(&start);
        km_log(&first->logger, KM_LOG_INFO, "shared mkl %4ld: dual %.10g primal %.10g gap %.3e over %zu machines %.2fs",
               t, dual, primal, gap, count, elapsed);
        if (gap <= first->mkl.gap) {
            converged = 1;
            break;
        }
        if (km_mkl_limit_reached(first, t, elapsed, gap))
            break;
        if (!km_mkl_theta_step(first, a_sum, theta))
            break; /* every a_m <= 0: the solutions do not depend on the kernels */
    }
    if (!st)
        memcpy(theta, theta_used, M * sizeof *theta); /* the theta the final solutions belong to */
    for (size_t k = 0; !st && k < count; k++) {
        results[k].dual = dual;
        results[k].primal = primal;
        results[k].gap = gap;
        results[k].mkl_iterations = t;
        results[k].converged = converged;
    }
    free(h);
    free(a);
    free(a_sum);
    free(w);
    free(theta_used);
    return st;
}
