/* The two stages of alignment-based kernel learning (mkl/two_stage.h). */
#include "mkl/two_stage.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "kernel/kernel_view.h"
#include "svm/interruptible_access.h"
#include "svm/view_access.h"

km_status km_alignment_methods_resolve(const km_mkl_params *in, km_mkl_params *out)
{
    *out = *in;
    /* p and p_block do not apply; model files keep them resolved as the lp family does */
    if (!(in->p_block > 0))
        out->p_block = isinf(in->p) ? 2.0 : 2.0 * in->p / (in->p + 1.0);
    if (!(in->radius > 0) || !isfinite(in->radius))
        return km_error(KM_EINVAL, "the kernel-weight radius (Lambda) must be positive and finite (got %g)", in->radius);
    if (in->method == KM_MKL_ALIGN_Q && !(in->align_q > 1))
        return km_error(KM_EINVAL, "align-q needs q > 1 (got %g)", in->align_q);
    if (!(in->eta >= 0 && in->eta < 1))
        return km_error(KM_EINVAL, "l2krr's eta must be in [0, 1) (got %g)", in->eta);
    if (in->mu0 != KM_MU0_ZERO && in->mu0 != KM_MU0_UNIFORM && in->mu0 != KM_MU0_GIVEN)
        return km_error(KM_EINVAL, "unknown mu0 %d", (int)in->mu0);
    if (!(in->gap > 0) || !(in->eps_mkl > 0) || in->max_outer <= 0)
        return km_error(KM_EINVAL, "the kernel-learning tolerances and iteration limit must be positive");
    return KM_OK;
}

km_status km_machine_targets(const km_machine_problem *machine, double *y)
{
    size_t n = machine->kernel->n_rows;
    if (km_task_classifies(machine->ops->task)) {
        for (size_t i = 0; i < n; i++)
            y[i] = machine->y[i];
    } else if (km_task_regresses(machine->ops->task)) {
        for (size_t i = 0; i < n; i++)
            y[i] = machine->z[i];
    } else {
        return km_error(KM_EINVAL, "%s has no targets to align the kernels with", machine->ops->name);
    }
    return KM_OK;
}

/* Each column from one kernel column: K_k(:, i) / sqrt(K_k(i, i)) = +-x~_k at the row i of the largest
 * diagonal (the sign enters neither the statistics, which square x~_k'y~ and x~_k'x~_l, nor K_k). */
km_status km_rank1_features(const km_kernel_access *kernel, double *X, size_t *kept, size_t *d)
{
    size_t n = kernel->n_rows, M = kernel->n_kernels;
    double *column = malloc(n * sizeof *column);
    if (!column)
        return km_error_nomem("a kernel column");
    km_status st = KM_OK;
    *d = 0;
    for (size_t k = 0; !st && k < M; k++) {
        const double *diag = kernel->diag[k];
        size_t top = 0;
        for (size_t i = 1; i < n; i++)
            if (diag[i] > diag[top])
                top = i;
        if (!(diag[top] > 0))
            continue;
        if ((st = kernel->column(kernel->column_ctx, k, top, NULL, n, column)))
            break;
        double scale = 1.0 / sqrt(diag[top]);
        for (size_t i = 0; i < n; i++)
            X[i * M + *d] = column[i] * scale;
        kept[(*d)++] = k;
    }
    free(column);
    /* compact the rows to d columns */
    for (size_t i = 1; !st && i < n && *d < M; i++)
        memmove(X + i * *d, X + i * M, *d * sizeof *X);
    return st;
}

int km_rank1_access(const km_kernel_access *kernel)
{
    const km_kernel_view *view = km_kernel_access_view(kernel);
    return view && km_kernel_view_rank1(view);
}

/* K_k coef = x~_k (x~_k'coef) = K_k(:, i) (K_k(:, i)'coef) / K_k(i, i) at the row i of the largest diagonal. */
static km_status rank1_products(const km_kernel_access *kernel, const double *coef, double *h)
{
    size_t n = kernel->n_rows, M = kernel->n_kernels;
    km_status st = KM_OK;
    for (size_t k = 0; !st && k < M; k++) {
        const double *diag = kernel->diag[k];
        double *column = h + k * n;
        size_t top = 0;
        for (size_t i = 1; i < n; i++)
            if (diag[i] > diag[top])
                top = i;
        if (!(diag[top] > 0)) {
            memset(column, 0, n * sizeof *column);
            continue;
        }
        if ((st = kernel->column(kernel->column_ctx, k, top, NULL, n, column)))
            break;
        double s = 0;
        for (size_t i = 0; i < n; i++)
            s += column[i] * coef[i];
        s /= diag[top];
        for (size_t i = 0; i < n; i++)
            column[i] *= s;
    }
    return st;
}

km_status km_kernel_products(const km_mkl_problem *problem, const double *coef, double *h)
{
    const km_kernel_access *kernel = problem->machine->kernel;
    return km_rank1_access(kernel) ? rank1_products(kernel, coef, h) : km_mkl_products(problem, coef, h);
}

/* Statistics of rank-1 kernels from the feature columns (mkl/alignment_stats.h
 * km_alignment_stats_rank1): O(nd), O(nd^2) with the Gram matrix, never an n x n matrix; *d = 0 (and no
 * statistics) when every kernel is 0. */
static km_status rank1_stats(const km_kernel_access *kernel, const double *y, int with_gram,
                             km_alignment_stats *stats, size_t *kept, size_t *d)
{
    size_t n = kernel->n_rows, M = kernel->n_kernels;
    double *X = malloc(n * M * sizeof *X);
    if (!X)
        return km_error_nomem("the rank-1 kernels' features");
    km_status st = km_rank1_features(kernel, X, kept, d);
    if (!st && *d > 0)
        st = km_alignment_stats_rank1(X, n, *d, y, with_gram, stats);
    free(X);
    return st;
}

/* The statistics of d kept kernels spread over all M (kept[j] the kernel of statistic j), zeros for the
 * others: what km_alignment_stats_compute gives a kernel that is 0. */
static km_status spread_stats(km_alignment_stats *s, const size_t *kept, size_t M)
{
    size_t d = s->M;
    km_alignment_stats all = *s;
    all.M = M;
    all.a = calloc(M, sizeof *all.a);
    all.centred_sq = calloc(M, sizeof *all.centred_sq);
    all.b = calloc(M, sizeof *all.b);
    all.frobenius_sq = calloc(M, sizeof *all.frobenius_sq);
    all.gram = s->gram ? calloc(M * M, sizeof *all.gram) : NULL;
    all.uncentred_gram = s->gram ? calloc(M * M, sizeof *all.uncentred_gram) : NULL;
    if (!all.a || !all.centred_sq || !all.b || !all.frobenius_sq || (s->gram && (!all.gram || !all.uncentred_gram))) {
        km_alignment_stats_free(&all);
        km_alignment_stats_free(s);
        return km_error_nomem("alignment statistics");
    }
    for (size_t j = 0; j < d; j++) {
        all.a[kept[j]] = s->a[j];
        all.centred_sq[kept[j]] = s->centred_sq[j];
        all.b[kept[j]] = s->b[j];
        all.frobenius_sq[kept[j]] = s->frobenius_sq[j];
        for (size_t l = 0; s->gram && l < d; l++) {
            all.gram[kept[j] * M + kept[l]] = s->gram[j * d + l];
            all.uncentred_gram[kept[j] * M + kept[l]] = s->uncentred_gram[j * d + l];
        }
    }
    km_alignment_stats_free(s);
    *s = all;
    return KM_OK;
}

km_status km_kernel_alignment_stats(const km_kernel_access *kernel, int rank1, const double *y, int with_gram,
                                    km_alignment_stats *stats)
{
    size_t M = kernel->n_kernels, d = 0;
    if (!rank1)
        return km_alignment_stats_compute(kernel, y, with_gram, stats);
    size_t *kept = malloc(M * sizeof *kept);
    if (!kept)
        return km_error_nomem("the rank-1 kernels' features");
    km_status st = rank1_stats(kernel, y, with_gram, stats, kept, &d);
    if (!st)
        st = d > 0 ? spread_stats(stats, kept, M) : km_alignment_stats_compute(kernel, y, with_gram, stats);
    free(kept);
    return st;
}

km_status km_two_stage_stats(const km_mkl_problem *problem, int with_gram, km_alignment_stats *stats,
                             size_t *kept)
{
    const km_machine_problem *machine = problem->machine;
    size_t M = machine->kernel->n_kernels;
    double *y = malloc(machine->kernel->n_rows * sizeof *y);
    if (!y)
        return km_error_nomem("targets");
    km_status st = km_machine_targets(machine, y);
    /* O(M n^2) kernel values (O(M^2 n^2) with the Gram matrix) before the machine trains: poll the
     * caller's interrupt as the solver does */
    km_interruptible_access polled;
    km_interruptible_access_init(&polled, machine->kernel, machine->solver.interrupted, machine->solver.interrupt_ctx,
                                 "the kernel alignments");
    km_feature_block *blocks = malloc(M * sizeof *blocks);
    if (!st && !blocks)
        st = km_error_nomem("alignment statistics");
    if (!st && km_rank1_access(machine->kernel)) {
        size_t d = 0;
        st = rank1_stats(&polled.access, y, with_gram, stats, kept, &d);
        if (!st && d == 0)
            st = km_error(KM_EINVAL, "every rank-1 kernel is 0: the features are constant on the training rows");
    } else if (!st && km_kernel_access_features(machine->kernel, blocks)) {   /* low-rank kernels */
        st = km_alignment_stats_features(blocks, M, machine->kernel->n_rows, y, with_gram, machine->solver.interrupted,
                                         machine->solver.interrupt_ctx, stats);
        for (size_t k = 0; k < M; k++)
            kept[k] = k;
    } else if (!st) {
        st = km_alignment_stats_compute(&polled.access, y, with_gram, stats);
        for (size_t k = 0; k < M; k++)
            kept[k] = k;
    }
    free(y);
    free(blocks);
    if (!st && !(stats->y_centred_sq > 0)) {
        km_alignment_stats_free(stats);
        return km_error(KM_EINVAL, "the targets are constant: their alignment with a kernel is undefined");
    }
    return st;
}

km_status km_two_stage_learn(const km_mkl_problem *problem, int with_gram, km_two_stage_weights_fn weights,
                             km_mkl_result *result)
{
    size_t M = problem->machine->kernel->n_kernels;
    size_t *kept = malloc(M * sizeof *kept);
    double *mu = calloc(M, sizeof *mu), *found = malloc(M * sizeof *found);
    if (!kept || !mu || !found) {
        free(kept);
        free(mu);
        free(found);
        return km_error_nomem("kernel weights");
    }
    km_alignment_stats stats;
    km_status st = km_two_stage_stats(problem, with_gram, &stats, kept);
    if (!st) {
        st = weights(&problem->mkl, &stats, found);
        for (size_t k = 0; !st && k < stats.M; k++) {   /* kernels left out keep weight 0 */
            mu[kept[k]] = found[k];
            if (found[k] < 0)   /* alignf-linear's, which is not sign-constrained */
                st = km_error(KM_EINVAL, "%s gives kernel %zu the negative weight %g: the combination is no kernel "
                              "(use alignf, which constrains the weights to be non-negative)",
                              km_enum_name(KM_ENUM_MKL_METHOD, problem->mkl.method),
                              km_mkl_model_kernel(problem, kept[k]) + 1, found[k]);
        }
        if (!st)
            st = km_two_stage_train(problem, mu, result);
        km_alignment_stats_free(&stats);
    }
    free(kept);
    free(mu);
    free(found);
    return st;
}

km_status km_two_stage_train(const km_mkl_problem *problem, const double *mu, km_mkl_result *result)
{
    const km_machine_problem *machine = problem->machine;
    size_t M = machine->kernel->n_kernels;
    double sum = 0;
    for (size_t k = 0; k < M; k++)
        sum += mu[k];
    if (!(sum > 0) || !isfinite(sum))
        return km_error(KM_EINVAL, "no kernel is aligned with the targets: every weight is 0");
    for (size_t k = 0; k < M; k++)
        machine->kernel->theta[k] = problem->mkl.radius * mu[k] / sum;
    km_svm_solution solution = {.coef = result->coef};
    km_status st = machine->ops->solve(machine, &machine->solver, &solution);
    if (st)
        return st;
    result->bias = solution.bias;
    if (result->products && km_rank1_access(machine->kernel)) {   /* the block norms' products, O(Mn) */
        if ((st = km_kernel_products(problem, result->coef, result->products)))
            return st;
        result->products_valid = 1;
    }
    /* no joint objective over the weights: the certificate is the machine's own at fixed weights,
     * solved to its tolerance (km_mkl_train reports -dual: the machine's objective) */
    result->dual = result->primal = -solution.objective;
    result->gap = 0;
    result->smo_iterations = solution.iterations;
    result->converged = solution.converged;
    result->mkl_iterations = 1;
    return KM_OK;
}
