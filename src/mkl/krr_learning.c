/* The KRR objective and its gradient at given kernel weights (mkl/krr_learning.h). */
#include "mkl/krr_learning.h"

#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/cholesky.h"
#include "core/error.h"
#include "mkl/two_stage.h"

km_status km_krr_point_alloc(const km_mkl_problem *problem, km_krr_point *point)
{
    size_t n = problem->machine->kernel->n_rows, M = problem->machine->kernel->n_kernels;
    memset(point, 0, sizeof *point);
    point->coef = malloc(n * sizeof *point->coef);
    point->h = malloc(M * n * sizeof *point->h);
    point->v = malloc(M * sizeof *point->v);
    if (point->coef && point->h && point->v)
        return KM_OK;
    km_krr_point_free(point);
    return km_error_nomem("KRR kernel learning");
}

void km_krr_point_free(km_krr_point *point)
{
    free(point->coef);
    free(point->h);
    free(point->v);
    memset(point, 0, sizeof *point);
}

km_status km_krr_learning_check(const km_mkl_problem *problem)
{
    if (problem->machine->ops->task == KM_TASK_KRR)
        return KM_OK;
    return km_error(KM_EINVAL, "--mkl %s learns kernel weights for kernel ridge regression only (-s krr), not %s",
                    km_enum_name(KM_ENUM_MKL_METHOD, problem->mkl.method), problem->machine->ops->name);
}

/* Z = X~ diag(sqrt(mu)) over the d kernels with mu_k > 0 of rank-1 kernels (n x d row-major), NULL
 * when d >= n (the n x n solve is then the cheaper). */
static km_status rank1_factor(const km_kernel_access *k, double **Z, size_t *d)
{
    size_t n = k->n_rows, M = k->n_kernels, count = 0;
    *Z = NULL;
    for (size_t m = 0; m < M; m++)
        count += k->theta[m] > 0;
    if (count >= n)
        return KM_OK;
    double *X = malloc(n * M * sizeof *X);
    size_t *kept = malloc(M * sizeof *kept);
    km_status st = X && kept ? km_rank1_features(k, X, kept, d) : km_error_nomem("the rank-1 features");
    size_t used = 0;
    for (size_t c = 0; !st && c < *d; c++) {
        double w = k->theta[kept[c]];
        if (!(w > 0))
            continue;
        for (size_t i = 0; i < n; i++)   /* compacted in place: column used <= c */
            X[i * *d + used] = X[i * *d + c] * sqrt(w);
        used++;
    }
    for (size_t i = 1; !st && i < n && used < *d; i++)
        memmove(X + i * used, X + i * *d, used * sizeof *X);
    free(kept);
    if (st) {
        free(X);
        return st;
    }
    *d = used;
    *Z = X;
    return KM_OK;
}

/* The KRR machine's solution (svm/krr.h, centred with a bias) on rank-1 kernels by the Woodbury identity
 * (Rostamizadeh's thesis §3.2): K_mu = Z Z', (Z Z' + lambda I)^-1 r = (r - Z (lambda I + Z'Z)^-1 Z'r) / lambda,
 * one d x d Cholesky factorisation for the right-hand sides z and 1, O(n d^2 + d^3). */
static km_status woodbury_solve(const km_machine_problem *machine, const double *Z, size_t d, km_svm_solution *solution)
{
    size_t n = machine->kernel->n_rows;
    double ridge = 1.0 / machine->C;
    double *G = malloc((d ? d * d : 1) * sizeof *G), *R = malloc(2 * n * sizeof *R), *T = malloc((d ? 2 * d : 1) * sizeof *T);
    km_status st = G && R && T ? KM_OK : km_error_nomem("the Woodbury solve");
    for (size_t i = 0; !st && i < n; i++) {
        R[i] = machine->z[i];   /* column-major n x 2: z, then 1 */
        R[n + i] = 1.0;
    }
    if (!st && d) {
        /* G = lambda I + Z'Z (lower triangle, column-major = row-major upper), T = Z'R */
        cblas_dsyrk(CblasColMajor, CblasLower, CblasNoTrans, (int)d, (int)n, 1.0, Z, (int)d, 0.0, G, (int)d);
        for (size_t c = 0; c < d; c++)
            G[c * d + c] += ridge;
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)d, 2, (int)n, 1.0, Z, (int)d, R, (int)n, 0.0, T,
                    (int)d);
        size_t failed_minor = 0;
        st = km_cholesky(d, G, d, machine->solver.interrupted, machine->solver.interrupt_ctx, &failed_minor);
        if (!st && failed_minor)
            st = km_error(KM_ENOTCONV, "KRR on rank-1 kernels: the Woodbury system is not positive definite "
                          "(leading minor %zu)", failed_minor);
        if (!st)   /* T = G^-1 T from the factor */
            LAPACKE_dpotrs(LAPACK_COL_MAJOR, 'L', (lapack_int)d, 2, G, (lapack_int)d, T, (lapack_int)d);
        if (!st)   /* R -= Z T */
            cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, (int)n, 2, (int)d, -1.0, Z, (int)d, T, (int)d, 1.0, R,
                        (int)n);
    }
    if (!st) {
        double su = 0, sv = 0, zc = 0;
        for (size_t i = 0; i < n; i++) {
            su += R[i];
            sv += R[n + i];
        }
        double b = machine->bias ? su / sv : 0.0;   /* as km_krr_solve: coef = u - b v */
        for (size_t i = 0; i < n; i++) {
            solution->coef[i] = (R[i] - b * R[n + i]) / ridge;
            zc += machine->z[i] * solution->coef[i];
        }
        solution->bias = b;
        solution->objective = -0.5 * zc;
        solution->iterations = 0;
        solution->converged = 1;
    }
    free(G);
    free(R);
    free(T);
    return st;
}

/* The machine's solve, by Woodbury on fewer rank-1 kernels than rows. */
static km_status solve(const km_machine_problem *machine, km_svm_solution *solution)
{
    double *Z = NULL;
    size_t d = 0;
    km_status st = km_rank1_access(machine->kernel) ? rank1_factor(machine->kernel, &Z, &d) : KM_OK;
    if (!st)
        st = Z ? woodbury_solve(machine, Z, d, solution) : machine->ops->solve(machine, &machine->solver, solution);
    free(Z);
    return st;
}

km_status km_krr_point_at(const km_mkl_problem *problem, const double *mu, km_krr_point *point, long *solves)
{
    const km_machine_problem *machine = problem->machine;
    const km_kernel_access *k = machine->kernel;
    size_t n = k->n_rows, M = k->n_kernels;
    if (machine->solver.interrupted && machine->solver.interrupted(machine->solver.interrupt_ctx))
        return km_error(KM_EINTERRUPTED, "interrupted while learning kernel weights");
    memcpy(k->theta, mu, M * sizeof *mu);
    km_svm_solution solution = {.coef = point->coef};
    km_status st = solve(machine, &solution);
    if (!st)
        st = km_kernel_products(problem, point->coef, point->h);
    if (st)
        return st;
    *solves += solution.iterations;
    km_mkl_quadratic_terms(n, M, point->coef, point->h, point->v);
    for (size_t m = 0; m < M; m++)
        point->v[m] = point->v[m] > 0 ? point->v[m] : 0.0;
    point->bias = solution.bias;
    point->F = 0;
    for (size_t i = 0; i < n; i++)
        point->F += machine->z[i] * point->coef[i];
    return KM_OK;
}

void km_krr_learning_result(const km_mkl_problem *problem, const km_krr_point *point, double gap_abs,
                            km_mkl_result *result)
{
    size_t n = problem->machine->kernel->n_rows, M = problem->machine->kernel->n_kernels;
    memcpy(result->coef, point->coef, n * sizeof *result->coef);
    if (result->products) {
        memcpy(result->products, point->h, M * n * sizeof *result->products);
        result->products_valid = 1;
    }
    result->bias = point->bias;
    result->primal = 0.5 * point->F;
    result->dual = 0.5 * (point->F - gap_abs);
    result->gap = point->F > 0 ? gap_abs / point->F : 0.0;
}
