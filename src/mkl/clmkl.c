/* Convex localized MKL (Lei, Binder, Dogan & Kloft, "Localized Multiple Kernel Learning - A Convex
 * Approach"; docs/clmkl.md), methods clmkl (soft memberships) and hlmkl (hard ones): kernel k-means
 * on the clustering kernel, memberships c_ij (Eq. 11), then Algorithm 1: alternate the SVM on the
 * kernel of Eq. (6) with the closed-form per-cluster step of Eq. (7),
 *     beta_jm = |w_jm|^{2/(p+1)} / (sum_k |w_jk|^{2p/(p+1)})^{1/p},   |w_jm|^2 = beta_jm^2 Q_jm,
 * until the relative duality gap between the beta-eliminated primal (9) and the dual (Problem 2),
 *     D = lin(a) - 1/2 sum_j ||Q_j(a)||_{p*},
 * reaches the target. Every cluster's step is lp-norm MKL's (theta.h) on its Q_j. Near p = 1 that step
 * shrinks the weights of kernels on their way out by a nearly constant factor per iteration: once the
 * solves are at their final tolerance, the steps are extrapolated by SQUAREM (squarem.h) on the primal,
 * as the global wrapper's are. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "mkl/alternate.h"
#include "mkl/clmkl.h"
#include "mkl/kernel_kmeans.h"
#include "mkl/memberships.h"
#include "mkl/method.h"
#include "mkl/squarem.h"
#include "mkl/theta.h"
#include "svm/interruptible_access.h"

static km_status clmkl_resolve(const km_mkl_params *in, km_mkl_params *out)
{
    *out = *in;
    if (!(in->p >= 1))
        return km_error(KM_EINVAL, "p must be >= 1 (got %g)", in->p);
    if (in->p_block > 0)
        return km_error(KM_EINVAL, "%s takes p (the norm on each cluster's weights), not p-block",
                        km_enum_name(KM_ENUM_MKL_METHOD, in->method));
    out->p_block = isinf(in->p) ? 2.0 : 2.0 * in->p / (in->p + 1.0);
    if (in->clusters < 1)
        return km_error(KM_EINVAL, "clusters must be >= 1 (got %ld)", in->clusters);
    if (!(in->cluster_ae > 0 && in->cluster_ae <= 1))
        return km_error(KM_EINVAL, "the average evenness must be in (0, 1] (got %g)", in->cluster_ae);
    if (isnan(in->cluster_tau))
        return km_error(KM_EINVAL, "tau must be >= 0 or inf");
    if (in->cluster_only && in->cluster_kernel == 0)
        return km_error(KM_EINVAL, "a clustering-only kernel needs its index (cluster kernel 0 is the mean)");
    if (in->cluster_restarts < 1)
        return km_error(KM_EINVAL, "k-means restarts must be >= 1 (got %ld)", in->cluster_restarts);
    if (in->solver != KM_MKL_INTERLEAVED && in->solver != KM_MKL_WRAPPER)
        return km_error(KM_EINVAL, "%s is solved by the wrapper (Algorithm 1)", km_enum_name(KM_ENUM_MKL_METHOD, in->method));
    out->solver = KM_MKL_WRAPPER;
    if (!(in->gap > 0))
        return km_error(KM_EINVAL, "the MKL gap must be positive (got %g)", in->gap);
    if (in->max_outer <= 0)
        return km_error(KM_EINVAL, "max-outer must be positive (got %ld)", in->max_outer);
    if (km_mkl_method_flags(in->method) & KM_METHOD_HARD_MEMBERSHIPS)
        out->cluster_tau = INFINITY;
    return KM_OK;
}

static size_t clmkl_groups(const km_mkl_params *mkl, size_t M)
{
    (void)M;
    return (size_t)mkl->clusters;
}

km_status km_clusters_check(const km_mkl_params *mkl, size_t n, const char *source)
{
    if (mkl->clusters >= 1 && (unsigned long long)mkl->clusters <= n)
        return KM_OK;
    return km_error(KM_EINVAL, "%s: --clusters %ld: kernel k-means needs 1 to %zu clusters for its %zu rows",
                    source ? source : "training data", mkl->clusters, n, n);
}

km_status km_clustering_gram(const km_kernel_access *k, const km_mkl_params *mkl, double *K0, double *column)
{
    size_t n = k->n_rows, M = k->n_kernels;
    size_t first = mkl->cluster_kernel ? (size_t)mkl->cluster_kernel - 1 : 0;
    size_t last = mkl->cluster_kernel ? first + 1 : M;
    memset(K0, 0, n * n * sizeof *K0);
    km_status st = KM_OK;
    for (size_t m = first; !st && m < last; m++)
        for (size_t i = 0; !st && i < n; i++) {
            st = k->column(k->column_ctx, m, i, NULL, n, column);
            for (size_t r = 0; !st && r < n; r++)
                K0[i * n + r] += column[r] / (double)(last - first);
        }
    return st;
}

km_status km_clmkl_cluster(const km_kernel_access *k, const km_mkl_params *mkl, const km_kmeans_limits *limits,
                           const km_logger *logger, km_record *record, km_clustering *out)
{
    size_t n = k->n_rows, M = k->n_kernels, l = (size_t)mkl->clusters;
    if (km_record_values(record, KM_CLMKL_SECTION, "labels", NULL, NULL))
        return km_clustering_read(record, n, l, M, out);
    if (mkl->cluster_kernel > (long)M)
        return km_error(KM_EINVAL, "the clustering kernel %ld is not one of the %zu kernels", mkl->cluster_kernel, M);
    if (mkl->cluster_only && M < 2)
        return km_error(KM_EINVAL, "a clustering-only kernel leaves no kernel to learn");
    double *K0 = malloc(n * n * sizeof *K0), *column = malloc(n * sizeof *column), *e = malloc(n * l * sizeof *e);
    double *gamma = malloc(n * l * sizeof *gamma), *labels = malloc(n * sizeof *labels);
    double *centres = malloc(2 * l * sizeof *centres), *A = malloc(l * sizeof *A), *sizes = malloc(l * sizeof *sizes);
    size_t *label = malloc(n * sizeof *label);
    km_status st = K0 && column && e && gamma && labels && centres && A && sizes && label
                       ? KM_OK : km_error_nomem("the clustering");
    double error = 0, tau = mkl->cluster_tau;
    km_interruptible_access polled; /* n columns per clustering kernel */
    km_interruptible_access_init(&polled, k, limits ? limits->interrupted : NULL, limits ? limits->interrupt_ctx : NULL,
                                 "the clustering kernel");
    int timed_out = 0;
    if (!st)
        st = km_clustering_gram(&polled.access, mkl, K0, column);
    if (!st)
        st = km_kernel_kmeans(K0, n, l, (size_t)mkl->cluster_restarts, mkl->cluster_seed, limits, label, &error,
                              &timed_out);
    if (!st && timed_out)
        km_log(logger, KM_LOG_WARNING, "kernel k-means stopped at the time limit: the clusters are those reached");
    if (!st) {
        km_kernel_kmeans_centres(K0, n, l, label, A, sizes);
        km_kernel_kmeans_scores(K0, n, n, l, label, A, sizes, e);
        km_membership_gaps(n, l, e);
        if (tau < 0)
            st = km_tau_for_evenness(n, l, e, mkl->cluster_ae, &tau);
    }
    if (!st) {
        km_memberships(n, l, e, tau, gamma);
        for (size_t i = 0; i < n; i++)
            labels[i] = (double)label[i];
        for (size_t j = 0; j < l; j++) {
            centres[2 * j] = A[j];
            centres[2 * j + 1] = sizes[j];
        }
        km_record *r = record;
        const char *s = KM_CLMKL_SECTION;
        if (!(st = km_record_set_values(r, s, "labels", n, 1, labels)) &&
            !(st = km_record_set_values(r, s, "centres", l, 2, centres)) &&
            !(st = km_record_set_values(r, s, "memberships", n, l, gamma)) &&
            !(st = km_record_set_scalar(r, s, "tau", isinf(tau) ? 0.0 : tau)) &&
            !(st = km_record_set_scalar(r, s, "hard", isinf(tau))) &&
            !(st = km_record_set_scalar(r, s, "evenness", km_average_evenness(n, l, e, tau))) &&
            !(st = km_record_set_scalar(r, s, "cluster_kernel", (double)mkl->cluster_kernel)) &&
            !(st = km_record_set_scalar(r, s, "cluster_only", mkl->cluster_only)) &&
            !(st = km_record_set_scalar(r, s, "error", error)))
            st = km_clustering_read(r, n, l, M, out);
    }
    if (!st)
        km_log(logger, KM_LOG_INFO, "clusters: %zu by kernel k-means (error %.6g), tau %g, average evenness %.4f",
               l, error, out->tau, out->evenness);
    free(K0);
    free(column);
    free(e);
    free(gamma);
    free(labels);
    free(centres);
    free(A);
    free(sizes);
    free(label);
    return st;
}

/* The alternating state over the localized problem (M learned kernels, l clusters, V = M l). */
typedef struct clmkl_state {
    km_alternating_state base;   /* pr: the localized problem; h: V x n; a: V values, a[jM+m] = Q_jm */
    size_t M, l;
    double final_tolerance;      /* the SVM tolerance the solves tighten to */
    double solved_tolerance;     /* the tolerance of the last solve */
    double *g;                   /* n decision values */
    double *w, *q;               /* M values each: |w_jm| and Q_jm of one cluster */
    km_machine_problem *machine; /* the localized machine (its solver tolerance tightens) */
    double primal;               /* the primal (9) at the last solve, SQUAREM's objective */
    int extrapolate;             /* a finite p */
    km_squarem extrapolation;
} clmkl_state;

/* The SVM solves start crude and tighten tenfold per outer iteration (Lei et al. §3) down to
 * min(-e, CLMKL_TOLERANCE_FLOOR): the primal of an inexact solve is noisy, and with -e 1e-3 it holds the
 * gap above 1e-3 on problems of hundreds of rows. */
#define CLMKL_TOLERANCE_FLOOR 1e-5

static km_status clmkl_evaluate(void *ctx)
{
    clmkl_state *s = ctx;
    s->solved_tolerance = s->machine->solver.tolerance;
    km_status st = km_alternating_evaluate(ctx);
    s->machine->solver.tolerance = fmax(s->final_tolerance, s->machine->solver.tolerance / 10);
    return st;
}

/* The certificate of §4: D from Q, the primal (9) at w_jm = beta_jm sum_i a_i c_ij phi_m(x_i). */
static km_status clmkl_certify(void *ctx, long t, double elapsed, km_certified_values *out)
{
    clmkl_state *s = ctx;
    const km_mkl_problem *pr = s->base.pr;
    const km_machine_problem *machine = pr->machine;
    const km_kernel_access *k = machine->kernel;
    size_t n = k->n_rows, M = s->M, l = s->l, V = M * l;
    double p_block = pr->mkl.p_block, scale = machine->ops->certificate_scale(machine);
    double kernel_term = 0, regularizer = 0, *w = s->w, *q = s->q;
    for (size_t i = 0; i < n; i++) {
        double sum = 0;
        for (size_t u = 0; u < V; u++)
            sum += k->theta[u] * s->base.h[u * n + i];
        s->g[i] = sum * scale;
    }
    for (size_t j = 0; j < l; j++) {
        for (size_t m = 0; m < M; m++) {
            q[m] = fmax(0.0, s->base.a[j * M + m]) * scale * scale;
            w[m] = k->theta[j * M + m] * sqrt(q[m]);
        }
        kernel_term += 0.5 * km_mkl_dual_norm(M, p_block, q);
        regularizer += 0.5 * km_block_norm_squared(M, p_block, w);
    }
    km_mkl_result *result = s->base.result;
    double best_bias, lin = machine->ops->linear_term(machine, result->coef);
    double loss = machine->ops->loss(machine, s->g, result->bias * scale, &best_bias);
    result->bias = best_bias / scale;
    result->dual = lin - kernel_term;
    result->primal = regularizer + loss;
    result->gap = fmax(0.0, result->primal - result->dual) / fmax(fabs(result->primal), DBL_MIN);
    *out = (km_certified_values){result->dual, result->primal, result->gap, 0.0};
    s->primal = result->primal;
    km_log(&pr->logger, KM_LOG_INFO, "clmkl %4ld%s: dual %.10g primal %.10g gap %.3e %.2fs", t,
           s->extrapolation.pending ? " (extrapolated)" : "", result->dual, result->primal, result->gap, elapsed);
    return KM_OK;
}

/* Eq. (7) per cluster from a (V values, Q_jm); a cluster without support-vector mass (every Q_jm = 0)
 * keeps its weights. 0 when no cluster has any. */
static int clusters_step(void *ctx, const double *a, double *theta)
{
    clmkl_state *s = ctx;
    int any = 0;
    for (size_t j = 0; j < s->l; j++)
        any |= km_theta_lp_step(s->M, s->base.pr->mkl.p_block, a + j * s->M, theta + j * s->M);
    return any;
}

/* Extrapolated weights back on ||beta_j||_p = 1, cluster by cluster. */
static void onto_cluster_spheres(void *ctx, double *theta)
{
    clmkl_state *s = ctx;
    for (size_t j = 0; j < s->l; j++)
        km_theta_onto_lp_sphere(s->M, s->base.pr->mkl.p, theta + j * s->M);
}

static km_status clmkl_step(void *ctx, const double *theta_used, km_weight_move *move)
{
    clmkl_state *s = ctx;
    const km_kernel_access *k = s->base.pr->machine->kernel;
    int any, plain;
    if (s->extrapolate && s->solved_tolerance <= s->final_tolerance)
        any = km_squarem_step(&s->extrapolation, theta_used, s->primal, s->base.a, k->theta, clusters_step,
                              onto_cluster_spheres, s, &plain) != KM_NOTHING_TO_LEARN;
    else
        any = clusters_step(s, s->base.a, k->theta);
    int moved = memcmp(k->theta, theta_used, s->M * s->l * sizeof *theta_used) != 0;
    if (!any)
        *move = KM_NOTHING_TO_LEARN;
    else if (s->solved_tolerance > s->final_tolerance) /* after a crude solve: solve again, tighter */
        *move = KM_MOVED;
    else /* at the final tolerance: a theta the step does not move is as good as it certifies */
        *move = moved ? KM_MOVED : KM_AT_FIXED_POINT;
    return KM_OK;
}

km_status km_clmkl_solve(const km_mkl_problem *pr, const km_kernel_access *kernels, size_t M, size_t l,
                         double first_tolerance, km_mkl_result *result)
{
    size_t n = kernels->n_rows, V = M * l;
    km_machine_problem machine = *pr->machine;
    machine.kernel = kernels;
    machine.solver.tolerance = first_tolerance;
    km_mkl_problem localized = *pr;
    localized.machine = &machine;
    clmkl_state s = {.base = {.pr = &localized, .result = result, .h = malloc(V * n * sizeof(double)),
                              .a = malloc(V * sizeof(double))},
                     .M = M, .l = l, .final_tolerance = fmin(pr->machine->solver.tolerance, CLMKL_TOLERANCE_FLOOR),
                     .g = malloc(n * sizeof(double)), .w = malloc(M * sizeof(double)),
                     .q = malloc(M * sizeof(double)), .machine = &machine, .primal = NAN,
                     .extrapolate = isfinite(pr->mkl.p)};
    km_alternating_solver solver = {&s, clmkl_evaluate, clmkl_certify, clmkl_step, "fixed", NULL};
    km_status st = km_squarem_init(&s.extrapolation, V);
    if (!st)
        st = s.base.h && s.base.a && s.g && s.w && s.q
                 ? km_mkl_alternate(&localized, kernels->theta, V, &solver, &result->mkl_iterations, &result->converged)
                 : km_error_nomem("the localized MKL solver");
    km_squarem_free(&s.extrapolation);
    free(s.base.h);
    free(s.base.a);
    free(s.g);
    free(s.w);
    free(s.q);
    return st;
}

static km_status clmkl_train(const km_mkl_problem *pr, km_mkl_result *result)
{
    const km_kernel_access *k = pr->machine->kernel;
    size_t M_all = k->n_kernels, l = (size_t)pr->mkl.clusters;
    km_clustering clustering;
    const km_smo_options *solver = &pr->machine->solver;
    km_kmeans_limits limits = {solver->interrupted, solver->interrupt_ctx, solver->deadline};
    km_status st = km_clmkl_cluster(k, &pr->mkl, &limits, &pr->logger, pr->record, &clustering);
    if (st)
        return st;
    size_t *learned = malloc(M_all * sizeof *learned), M = 0;
    for (size_t m = 0; learned && m < M_all; m++)
        if (km_clustering_learns(&clustering, m))
            learned[M++] = m;
    double *beta = malloc(M_all * l * sizeof *beta);
    km_localized_access *access = NULL;
    st = beta && learned ? KM_OK : km_error_nomem("the cluster weights");
    for (size_t j = 0; !st && j < l; j++)
        km_theta_init(M, pr->mkl.p_block, beta + j * M); /* beta_jm = M^{-1/p} */
    if (!st)
        st = km_localized_access_new(k, learned, M, l, clustering.memberships, beta, &access);
    if (!st)
        st = km_clmkl_solve(pr, km_localized_access_kernels(access), M, l, fmax(pr->machine->solver.tolerance, 1e-1),
                            result);
    if (!st) { /* the model's weights: group j at theta[j M_all ...], a clustering-only kernel 0 */
        memset(k->theta, 0, M_all * l * sizeof *k->theta);
        for (size_t j = 0; j < l; j++)
            for (size_t m = 0; m < M; m++)
                k->theta[j * M_all + learned[m]] = beta[j * M + m];
    }
    km_localized_access_free(access);
    free(beta);
    free(learned);
    return st;
}

const km_mkl_method_entry km_method_clmkl = {
    .id = KM_MKL_CLMKL, .name = "clmkl",
    .help = "convex localized MKL (Lei, Binder, Dogan & Kloft): kernel k-means clusters the training "
            "rows, each cluster learns its own weights with ||beta_j||_p = 1 (--p); rows belong to "
            "clusters softly. More than two classes: --multiclass ovr",
    .flags = KM_METHOD_LEARNS_WEIGHTS | KM_METHOD_KMEANS_CLUSTERS,
    .params = (const km_param[]){KM_PARAM_P, KM_PARAM_MKL_SOLVER, KM_PARAM_MKL_GAP, KM_PARAM_MKL_MAX_OUTER,
                                 KM_PARAM_MKL_MAX_TIME, KM_PARAM_CLUSTERS, KM_PARAM_CLUSTER_AE,
                                 KM_PARAM_CLUSTER_TAU, KM_PARAM_CLUSTER_KERNEL, KM_PARAM_CLUSTER_ONLY,
                                 KM_PARAM_CLUSTER_RESTARTS, 0},
    .resolve = clmkl_resolve,
    .train = clmkl_train,
    .weight_groups = clmkl_groups,
};

const km_mkl_method_entry km_method_hlmkl = {
    .id = KM_MKL_HLMKL, .name = "hlmkl",
    .help = "clmkl with hard memberships: each row belongs to its nearest centre only",
    .flags = KM_METHOD_LEARNS_WEIGHTS | KM_METHOD_KMEANS_CLUSTERS | KM_METHOD_HARD_MEMBERSHIPS,
    .params = (const km_param[]){KM_PARAM_P, KM_PARAM_MKL_SOLVER, KM_PARAM_MKL_GAP, KM_PARAM_MKL_MAX_OUTER,
                                 KM_PARAM_MKL_MAX_TIME, KM_PARAM_CLUSTERS, KM_PARAM_CLUSTER_KERNEL,
                                 KM_PARAM_CLUSTER_ONLY, KM_PARAM_CLUSTER_RESTARTS, 0},
    .resolve = clmkl_resolve,
    .train = clmkl_train,
    .weight_groups = clmkl_groups,
};
