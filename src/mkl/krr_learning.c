/* The KRR objective and its gradient at given kernel weights (mkl/krr_learning.h). */
#include "mkl/krr_learning.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "mkl/two_stage.h"
#include "svm/krr.h"

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

/* The machine's solve, by Woodbury on fewer rank-1 kernels than rows. */
static km_status solve(const km_machine_problem *machine, km_svm_solution *solution)
{
    double *Z = NULL;
    size_t d = 0;
    km_status st = km_rank1_access(machine->kernel) ? rank1_factor(machine->kernel, &Z, &d) : KM_OK;
    km_feature_block features = {.phi = Z, .r = d, .root_scale = 1.0};   /* K_mu = Z Z' */
    double unit = 1.0;
    if (!st)
        st = Z ? km_krr_solve_features(machine->kernel->n_rows, &features, &unit, 1, machine->z, 1.0 / machine->C,
                                       machine->bias, &machine->solver, solution)
               : machine->ops->solve(machine, &machine->solver, solution);
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
