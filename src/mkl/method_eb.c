/* Empirical-Bayes MKL as kernel-weight methods (eb-rw, eb-mackay; Tomioka & Suzuki §4, eqs. (10)-(14)):
 * the kernel ridge regression machine's targets, centred by their mean (the bias), are a Gaussian
 * process sample with covariance sum_m d_m K_m plus noise sigma^2 I, and d (and optionally sigma^2)
 * maximise its evidence (mkl/eb.h). The result is the GP posterior mean f(x) = sum_m d_m k_m(x, X) alpha
 * + mean(y), alpha = Kbar^-1 (y - mean y): the machine's coef is alpha, its bias the mean. There is no
 * duality gap: primal and dual hold (10) without its constant, gap the last relative change of (10).
 * The evidence comes from the M Gram matrices, or, where every kernel is low-rank with fewer feature
 * dimensions than rows in all, from the features (km_evidence_alloc_features; also on rows split over
 * processes). The model's record keeps, per machine k (1-based), section "eb": neg_log_evidence_k (with
 * the constant n/2 log 2 pi), noise_k (sigma^2) and kernels_kept_k. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/error.h"
#include "dist/dist.h"
#include "kernel/cache.h"
#include "mkl/eb.h"
#include "mkl/evidence.h"
#include "mkl/krr_learning.h"
#include "mkl/method.h"
#include "svm/interruptible_access.h"

/* The learned noise stays at or above this fraction of var(y) (noise kernel's floor). */
#define EB_NOISE_FLOOR 1e-6
/* The default noise variance, as a fraction of var(y). */
#define EB_DEFAULT_NOISE 0.1

static km_status eb_resolve(const km_mkl_params *in, km_mkl_params *out)
{
    *out = *in;
    /* p and p_block do not apply; model files keep them resolved as the lp family does */
    if (!(in->p_block > 0))
        out->p_block = isinf(in->p) ? 2.0 : 2.0 * in->p / (in->p + 1.0);
    if (in->shared_weights)
        return km_error(KM_EINVAL, "empirical-Bayes MKL learns the weights of one regression (no shared weights)");
    if (!(in->eb_noise >= 0) || isinf(in->eb_noise))
        return km_error(KM_EINVAL, "the noise variance must be finite and >= 0 (got %g)", in->eb_noise);
    if (in->eb_inner < 1)
        return km_error(KM_EINVAL, "the eb-rw inner steps must be at least 1 (got %ld)", in->eb_inner);
    if (!(in->eb_tol > 0))
        return km_error(KM_EINVAL, "the empirical-Bayes tolerance must be positive (got %g)", in->eb_tol);
    if (in->max_outer <= 0)
        return km_error(KM_EINVAL, "max-outer must be positive (got %ld)", in->max_outer);
    return KM_OK;
}

/* d0 = 1/M: every weight positive, since zero weights are absorbing. */
static void eb_start(const km_mkl_params *mkl, size_t M, double *d)
{
    (void)mkl;
    for (size_t m = 0; m < M; m++)
        d[m] = 1.0 / (double)M;
}

static km_status record_outcome(const km_mkl_problem *pr, const km_evidence *ev, double noise, size_t kept)
{
    if (!pr->record)
        return KM_OK;
    char key[64];
    size_t k = pr->machine_index + 1;
    snprintf(key, sizeof key, "neg_log_evidence_%zu", k);
    km_status st = km_record_set_scalar(pr->record, "eb", key, ev->value + ev->log_2pi_term);
    snprintf(key, sizeof key, "noise_%zu", k);
    if (!st)
        st = km_record_set_scalar(pr->record, "eb", key, noise);
    snprintf(key, sizeof key, "kernels_kept_%zu", k);
    if (!st)
        st = km_record_set_scalar(pr->record, "eb", key, (double)kept);
    return st;
}

/* An outer iteration to the caller's progress: the objective is -log evidence (no certificate). */
static void report_iteration(const void *ctx, long t, const double *d, double neg_log_evidence)
{
    const km_mkl_problem *pr = ctx;
    km_mkl_step_record record = km_mkl_step_record_of(t, d, pr->machine->kernel->n_kernels);
    record.objective = neg_log_evidence;
    km_mkl_report_step(pr, &record);
}

/* The evidence is computed on the kernels' features (mkl/evidence.h, the Woodbury path) where every
 * kernel has explicit features of fewer dimensions than rows (n_total, of every part) in all; blocks:
 * filled then. */
static int evidence_on_features(const km_kernel_access *k, size_t n_total, km_feature_block *blocks)
{
    if (!km_kernel_access_features(k, blocks))
        return 0;
    size_t d = 0;
    for (size_t m = 0; m < k->n_kernels; m++)
        d += blocks[m].r;
    return d > 0 && d < n_total;
}

/* The Woodbury path's matrices are taken out of the kernel cache's budget (-m) beside the features:
 * *reserved their bytes, 0 without a shared cache (then they must fit in the solver's budget). */
static km_status reserve_features_evidence(const km_feature_block *blocks, size_t M, size_t n,
                                           const km_smo_options *solver, size_t *reserved)
{
    size_t d = 0;
    for (size_t m = 0; m < M; m++)
        d += blocks[m].r;
    size_t bytes = km_evidence_features_bytes(n, d);
    *reserved = 0;
    int fits = bytes != SIZE_MAX &&
               (solver->cache ? km_cache_reserve(solver->cache, bytes) : bytes <= solver->cache_bytes);
    double budget = (double)(solver->cache ? km_cache_budget(solver->cache) : solver->cache_bytes);
    if (!fits)   /* the budget plus these bytes holds them beside whatever else it holds */
        return km_error(KM_EINVAL, "empirical-Bayes MKL on low-rank kernels of %zu feature dimensions keeps three "
                        "%zu x %zu matrices (%.0f MiB), more than the kernel cache has left beside the kernels' "
                        "features (-m %.0f): -m %.0f would hold them, or lower the rank", d, d, d,
                        ceil((double)bytes / 1048576.0), budget / 1048576.0, ceil((budget + (double)bytes) / 1048576.0));
    *reserved = solver->cache ? bytes : 0;
    return KM_OK;
}

static km_status eb_train(const km_mkl_problem *pr, km_mkl_result *result, km_eb_update update)
{
    km_status st = km_krr_learning_check(pr);
    if (st)
        return st;
    const km_kernel_access *k = pr->machine->kernel;
    const km_row_partition *partition = pr->machine->solver.partition;
    size_t n = k->n_rows, M = k->n_kernels, n_total = partition ? partition->n_total : n;
    km_feature_block *blocks = malloc((M ? M : 1) * sizeof *blocks);
    int on_features = blocks && evidence_on_features(k, n_total, blocks);
    if (partition && blocks && !on_features)   /* alike on every part: the same kernels and rows */
        st = km_error(KM_EINVAL, "empirical-Bayes MKL on rows split over processes needs every kernel low-rank, "
                      "of fewer feature dimensions in all than rows");
    if (!st && !on_features && M > 0 && n > 0 && n * n > (size_t)-1 / sizeof(double) / M)
        st = km_error(KM_ENOMEM, "empirical-Bayes MKL keeps %zu Gram matrices of %zu rows: too large", M, n);
    double *y = st ? NULL : malloc((n ? n : 1) * sizeof *y);
    double *K = st || on_features ? NULL : malloc(M * n * n * sizeof *K);
    km_evidence ev = {0};
    if (!st && (!y || !blocks || (!on_features && !K)))
        st = km_error_nomem("empirical-Bayes MKL");
    size_t reserved = 0;
    if (!st && on_features)
        st = reserve_features_evidence(blocks, M, n, &pr->machine->solver, &reserved);
    if (!st && on_features)
        st = km_evidence_alloc_features(n, M, blocks, partition, &ev);
    if (partition && km_row_partition_failed(partition, st != KM_OK) && !st)
        st = km_error(KM_EINVAL, KM_DIST_FAILED_ELSEWHERE " while setting up empirical-Bayes MKL");
    /* the targets centred by their mean over every row (the bias), and their variance */
    double mean = 0, var = 0;
    for (size_t i = 0; !st && i < n; i++)
        mean += pr->machine->z[i] / (double)n_total;
    if (!st && partition)
        partition->sum(&mean, 1);
    for (size_t i = 0; !st && i < n; i++) {
        y[i] = pr->machine->z[i] - mean;
        var += y[i] * y[i] / (double)n_total;
    }
    if (!st && partition)
        partition->sum(&var, 1);
    if (!st && !(var > 0))
        st = km_error(KM_EINVAL, "empirical-Bayes MKL needs targets that vary (all %zu equal %g)", n_total, mean);
    /* the M Gram matrices (M n^2 kernel values) and every iteration poll the caller's interrupt */
    km_interruptible_access polled;
    km_interruptible_access_init(&polled, k, pr->machine->solver.interrupted, pr->machine->solver.interrupt_ctx,
                                 "the Gram matrices");
    if (!st && !on_features)
        st = km_evidence_gram(&polled.access, K);
    if (!st && !on_features)
        st = km_evidence_alloc(n, M, K, &ev);
    ev.interrupted = pr->machine->solver.interrupted; /* the factorizations of every evaluation */
    ev.interrupt_ctx = pr->machine->solver.interrupt_ctx;
    double noise = pr->mkl.eb_noise > 0 ? pr->mkl.eb_noise : EB_DEFAULT_NOISE * var;
    km_eb_options options = {.update = update, .accelerate = 1, .max_outer = pr->mkl.max_outer, .max_inner = pr->mkl.eb_inner,
                             .tolerance = pr->mkl.eb_tol, .learn_noise = pr->mkl.eb_learn_noise,
                             .noise_floor = EB_NOISE_FLOOR * var, .logger = &pr->logger,
                             .interrupted = pr->machine->solver.interrupted,
                             .interrupt_ctx = pr->machine->solver.interrupt_ctx,
                             .report = report_iteration, .report_ctx = pr,
                             .deadline = pr->mkl.max_time > 0 ? km_monotonic_seconds() + pr->mkl.max_time : 0};
    km_eb_outcome outcome = {0};
    if (!st)
        st = km_eb_fit(&ev, y, k->theta, &noise, &options, &outcome);
    if (!st) {
        size_t kept = km_mkl_count_active(k->theta, M);
        memcpy(result->coef, ev.alpha, n * sizeof *result->coef);
        result->bias = mean;
        result->primal = result->dual = ev.value;
        result->gap = NAN;   /* the evidence is not convex: no duality gap; converged is its tolerance on (10) */
        result->mkl_iterations = outcome.steps;
        result->converged = outcome.converged;
        km_log(&pr->logger, KM_LOG_INFO,
               "%s: %ld steps, -log evidence %.10g, noise %.6g, %zu of %zu kernels kept%s",
               km_enum_name(KM_ENUM_MKL_METHOD, pr->mkl.method), outcome.steps, ev.value + ev.log_2pi_term,
               noise, kept, M, outcome.converged ? "" : " (not converged)");
        if (outcome.fallbacks)
            km_log(&pr->logger, KM_LOG_INFO, "eb-mackay: %ld iterations took the monotone eb-rw step",
                   outcome.fallbacks);
        st = record_outcome(pr, &ev, noise, kept);
    }
    km_evidence_free(&ev);
    if (reserved)
        km_cache_unreserve(pr->machine->solver.cache, reserved);
    free(y);
    free(K);
    free(blocks);
    return st;
}

static km_status eb_rw_train(const km_mkl_problem *pr, km_mkl_result *result)
{
    return eb_train(pr, result, KM_EB_REWEIGHTED);
}

static km_status eb_mackay_train(const km_mkl_problem *pr, km_mkl_result *result)
{
    return eb_train(pr, result, KM_EB_MACKAY_UPDATE);
}

/* The evidence weighs the data against the noise: the loss weight C has no part in it. */
static void eb_describe(const km_mkl_description *d)
{
    if (d->part != KM_DESCRIBE_SETTINGS)
        return;
    if (d->json) {
        km_describe_json_p(d);
        km_describe_json_solver(d);
    } else {
        fprintf(d->out, "%s: empirical Bayes, the evidence of a Gaussian process with covariance sum_m d_m k_m + s2 I\n",
                km_describe_name(KM_ENUM_MKL_METHOD, d->mkl->method));
    }
}

const km_mkl_method_entry km_method_eb_rw = {
    .id = KM_MKL_EB_RW, .name = "eb-rw",
    .help = "with -s krr: weights (and with --learn-noise the noise) maximising the Gaussian-process "
            "evidence of the centred targets, covariance sum_m d_m K_m + noise I (Tomioka & Suzuki), "
            "by reweighted block-1 problems; no C to tune",
    .flags = KM_METHOD_LEARNS_WEIGHTS | KM_METHOD_EMPIRICAL_BAYES | KM_METHOD_SPLIT_ROWS,
    .params = (const km_param[]){KM_PARAM_EB_NOISE, KM_PARAM_EB_LEARN_NOISE, KM_PARAM_EB_INNER, KM_PARAM_EB_TOL,
                                 KM_PARAM_MKL_MAX_OUTER, KM_PARAM_MKL_MAX_TIME, 0},
    .ignores = (const km_param[]){KM_PARAM_C, 0},
    .resolve = eb_resolve,
    .start = eb_start,
    .train = eb_rw_train,
    .data_section = "eb",
    .describe = eb_describe,
};

const km_mkl_method_entry km_method_eb_mackay = {
    .id = KM_MKL_EB_MACKAY, .name = "eb-mackay",
    .help = "the same evidence as eb-rw maximised by MacKay's fixed-point steps",
    .flags = KM_METHOD_LEARNS_WEIGHTS | KM_METHOD_EMPIRICAL_BAYES | KM_METHOD_SPLIT_ROWS,
    .params = (const km_param[]){KM_PARAM_EB_NOISE, KM_PARAM_EB_LEARN_NOISE, KM_PARAM_EB_TOL,
                                 KM_PARAM_MKL_MAX_OUTER, KM_PARAM_MKL_MAX_TIME, 0},
    .ignores = (const km_param[]){KM_PARAM_C, 0},
    .resolve = eb_resolve,
    .start = eb_start,
    .train = eb_mackay_train,
    .data_section = "eb",
    .describe = eb_describe,
};
