/* OBSCURE as a kernel-weight method (Orabona, Jie & Caputo, "Multi Kernel Learning with Online-Batch
 * Optimization", JMLR 2012): stage 1 is the online Algorithm 1 (fixed step eta, at most
 * obscure_online_epochs epochs, stopping after an epoch without updates), which gives the radius
 * R = sqrt(min(2 f(w)/lambda, 2/lambda)) bounding the optimum (§4.1); stage 2 is the stochastic
 * proximal projected mirror descent of Algorithm 2 for obscure_epochs epochs, each visiting the rows
 * in a fresh random order. Pegasos-MKL (§5.3, --solver pegasos or R = infinity) is stage 2 alone
 * without projection. lambda = 1/(C N).
 *
 * The machine's kernel weights are beta_j = d_j / q (with its coefficients c, f_r(x) =
 * sum_i c_{i,r} sum_j beta_j K^j(x_i, x)); the model's record keeps, in section "obscure", the weights
 * in both conventions (weights: d_j / sum_k d_k; weights_pk: d with ||d||_{p_K} = 1, p_K = p/(2-p)),
 * the objective after each stage, R, eta, lambda, q and the steps taken. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/rng.h"
#include "kernel/cache.h"
#include "mkl/method.h"
#include "mkl/obscure.h"
#include "svm/interruptible_access.h"

static km_status obscure_resolve(const km_mkl_params *in, km_mkl_params *out)
{
    *out = *in;
    /* p = 2 with no p_block is the parameters' default: p_block then follows the kernel count */
    if (!(in->p_block > 0))
        out->p_block = in->p == 2.0 ? 0.0 : km_obscure_p_of_pk(in->p);
    if (out->p_block != 0.0 && !(out->p_block > 1.0 && out->p_block <= 2.0))
        return km_error(KM_EINVAL, "OBSCURE's block norm p_block must be in (1, 2], i.e. p > 1 (got p_block %g)",
                        out->p_block);
    if (in->solver != KM_MKL_INTERLEAVED && in->solver != KM_MKL_PEGASOS)
        return km_error(KM_EINVAL, "--mkl obscure runs its own two stages (default) or --solver pegasos, not --solver %s",
                        km_enum_name(KM_ENUM_MKL_SOLVER, in->solver));
    if (!(in->obscure_radius >= 0))
        return km_error(KM_EINVAL, "OBSCURE's radius R must be positive or infinite (got %g)", in->obscure_radius);
    return KM_OK;
}

/* q = max(2, 2 ln M): p_block = q/(q-1) (the authors' DOGMA default). */
static void obscure_fit_defaults(km_mkl_params *mkl, size_t M)
{
    if (mkl->p_block != 0.0)
        return;
    double q = fmax(2.0, 2.0 * log((double)M));
    mkl->p_block = km_obscure_p_of_q(q);
}

static void obscure_start(const km_mkl_params *mkl, size_t M, double *theta)
{
    (void)mkl;
    for (size_t m = 0; m < M; m++)
        theta[m] = 1.0;
}

/* Where training stands, and what ends it early. */
typedef struct run {
    const km_mkl_problem *pr;
    km_obscure *o;
    km_rng rng;
    size_t *order;
    struct timespec start;
    long steps;                  /* over both stages */
    long epochs;                 /* over both stages, for progress */
    int stopped;                 /* the time limit was reached */
} run;

/* Polls the caller and the time limit (at every block of rows and epoch end; the learner's state is
 * consistent after every step, so stopping anywhere leaves a usable model). */
static km_status poll(run *r)
{
    const km_machine_problem *m = r->pr->machine;
    if (m->solver.interrupted && m->solver.interrupted(m->solver.interrupt_ctx))
        return km_error(KM_EINTERRUPTED, "interrupted after %ld OBSCURE steps", r->steps);
    double limit = r->pr->mkl.max_time;
    if (limit > 0 && !r->stopped && km_mkl_seconds_since(&r->start) >= limit) {
        r->stopped = 1;
        km_log(&r->pr->logger, KM_LOG_WARNING, "OBSCURE stopped at the time limit (%gs) after %ld steps", limit,
               r->steps);
    }
    return KM_OK;
}

/* The weights in the sum-to-one convention, d_j / sum_k d_k. */
static void weights_sum_one(const double *d, size_t F, double *w)
{
    double sum = 0.0;
    for (size_t j = 0; j < F; j++)
        sum += d[j];
    for (size_t j = 0; j < F; j++)
        w[j] = d[j] / sum;
}

/* d scaled to ||d||_{p_K} = 1 (the link gives it already, except at theta = 0 where d = 1). */
static void weights_pk(const double *d, size_t F, double pk, double *w)
{
    double norm = isinf(pk) ? 0.0 : km_obscure_group_norm(d, F, pk);
    if (isinf(pk))
        for (size_t j = 0; j < F; j++)
            norm = fmax(norm, d[j]);
    for (size_t j = 0; j < F; j++)
        w[j] = d[j] / norm;
}

/* Logs an epoch that took the given seconds (without the objective's pass) and reports progress. */
static void log_epoch(run *r, const char *stage, long epoch, long updates, double seconds, double objective,
                      double error)
{
    const km_obscure *o = r->o;
    char text[512];
    int used = 0;
    double *w = malloc(o->F * sizeof *w);
    if (!w)
        return;
    weights_sum_one(o->d, o->F, w);
    for (size_t j = 0; j < o->F && used < (int)sizeof text - 16; j++)
        used += snprintf(text + used, sizeof text - (size_t)used, "%s%.4g", j ? " " : "", w[j]);
    if (isnan(objective))
        km_log(&r->pr->logger, KM_LOG_INFO, "obscure %s epoch %ld: %ld updates of %zu rows in %.3f s, weights %s",
               stage, epoch, updates, o->n, seconds, text);
    else
        km_log(&r->pr->logger, KM_LOG_INFO,
               "obscure %s epoch %ld: %ld updates of %zu rows in %.3f s, objective %.10g, training error %.6g, "
               "weights %s", stage, epoch, updates, o->n, seconds, objective, error, text);
    km_mkl_step_record record = km_mkl_step_record_of(++r->epochs, w, o->F);
    record.objective = objective;
    km_mkl_report_step(r->pr, &record);
    free(w);
}

/* One epoch of either stage (eta > 0: Algorithm 1's step; 0: Algorithm 2's) over a fresh random order;
 * its duration in *seconds. */
static km_status epoch(run *r, double eta, long *updates, double *seconds)
{
    km_obscure *o = r->o;
    double start = km_mkl_seconds_since(&r->start);
    km_rng_shuffle(&r->rng, r->order, o->n);
    *updates = 0;
    km_status st = KM_OK;
    size_t prefetched = 0;
    for (size_t k = 0; !st && k < o->n; k++) {
        if (k == prefetched) {
            size_t taken;
            if ((st = poll(r)) || r->stopped || (st = km_obscure_prefetch(o, r->order + k, o->n - k, &taken)))
                break;
            prefetched = k + taken;
        }
        int updated;
        st = eta > 0 ? km_obscure_online_step(o, r->order[k], eta, &updated)
                     : km_obscure_stochastic_step(o, r->order[k], &updated);
        *updates += updated;
        r->steps++;
    }
    *seconds = km_mkl_seconds_since(&r->start) - start;
    return st ? st : poll(r);
}

/* The iterate with the lowest objective so far: the model is this one, not the last (a stochastic
 * step can raise f, and the online stage's iterate can be better than the final one). */
typedef struct snapshot {
    double primal, error;        /* f and the training error there (primal INFINITY: none yet) */
    double *coef;                /* n x K: kappa c */
    double *beta, *d, *block_norms; /* F each: the machine's weights, the link weights, |w^j| */
    size_t n_support;
} snapshot;

typedef struct outcome {
    double eta, radius, objective_online, error_online;
    double dual;                 /* the largest certified dual value: f(w*) >= dual */
    double gap;                  /* (best.primal - dual) / best.primal: a bound on the relative suboptimality */
    long online_steps, online_updates, online_epochs, epochs;
    int online_converged;
    snapshot best;
} outcome;

static km_status snapshot_init(snapshot *b, size_t n, size_t K, size_t F)
{
    *b = (snapshot){.primal = INFINITY, .error = NAN, .coef = malloc(n * K * sizeof *b->coef),
                    .beta = malloc(3 * F * sizeof *b->beta)};
    if (!b->coef || !b->beta)
        return km_error_nomem("OBSCURE's best iterate");
    b->d = b->beta + F;
    b->block_norms = b->beta + 2 * F;
    return KM_OK;
}

static void snapshot_free(snapshot *b)
{
    free(b->coef);
    free(b->beta);
}

static void snapshot_take(snapshot *b, const km_obscure *o, double primal, double error)
{
    b->primal = primal;
    b->error = error;
    b->n_support = o->n_support;
    km_obscure_coefficients(o, b->coef);
    for (size_t j = 0; j < o->F; j++) {
        b->beta[j] = o->beta[j];
        b->d[j] = o->d[j];
        b->block_norms[j] = o->beta[j] * sqrt(o->S[j]);
    }
}

/* Evaluates and certifies the current iterate: its objective f (*objective, from the learner's pass)
 * and training error, its certificate, the best iterate and the best dual value. */
static km_status evaluate(run *r, outcome *out, double *objective, double *error)
{
    double primal, dual;
    km_status st = km_obscure_objective(r->o, objective, error);
    if (!st)
        st = km_obscure_certify(r->o, *objective, &primal, &dual);
    if (st)
        return st;
    out->dual = fmax(out->dual, dual);
    if (primal < out->best.primal)
        snapshot_take(&out->best, r->o, primal, *error);
    out->gap = fmax(0.0, out->best.primal - out->dual) / out->best.primal;
    return KM_OK;
}

static km_status online_stage(run *r, double eta, outcome *out)
{
    const km_mkl_params *mkl = &r->pr->mkl;
    km_status st = KM_OK;
    int evaluated = 0;           /* the last epoch's trace evaluated the iterate */
    while (!st && !r->stopped && out->online_epochs < mkl->obscure_online_epochs) {
        long updates;
        double seconds;
        st = epoch(r, eta, &updates, &seconds);
        out->online_updates += updates;
        out->online_epochs++;
        double f = NAN, error = NAN;
        evaluated = 0;
        if (!st && mkl->obscure_trace && (st = evaluate(r, out, &f, &error)) == KM_OK) {
            evaluated = 1;
            out->objective_online = f;
            out->error_online = error;
        }
        if (!st)
            log_epoch(r, "online", out->online_epochs, updates, seconds, f, error);
        if (updates == 0) {
            out->online_converged = 1;   /* Theorem 4: no update in a whole epoch, none ever again */
            break;
        }
    }
    out->online_steps = r->steps;
    /* the pass that gives R (Alg. 1 line 10), unless the trace just made it */
    if (!st && !evaluated)
        st = evaluate(r, out, &out->objective_online, &out->error_online);
    return st;
}

/* Stochastic epochs until the certified gap reaches the target (--tol), the epoch limit or the time
 * limit; every epoch is certified unless the target is 0 and there is no trace. */
static km_status stochastic_stage(run *r, outcome *out)
{
    const km_mkl_params *mkl = &r->pr->mkl;
    km_status st = KM_OK;
    int each = mkl->obscure_trace || mkl->obscure_tol > 0, evaluated = 0;
    while (!st && !r->stopped && out->epochs < mkl->obscure_epochs && !(evaluated && out->gap <= mkl->obscure_tol)) {
        long updates;
        double seconds;
        st = epoch(r, 0.0, &updates, &seconds);
        out->epochs++;
        double f = NAN, error = NAN;
        evaluated = 0;
        if (!st && each && (st = evaluate(r, out, &f, &error)) == KM_OK)
            evaluated = 1;
        if (!st)
            log_epoch(r, "stochastic", out->epochs, updates, seconds, f, error);
        if (!st && evaluated)
            km_log(&r->pr->logger, KM_LOG_INFO, "obscure stochastic epoch %ld: best objective %.10g, dual %.10g, gap %.3e",
                   out->epochs, out->best.primal, out->dual, out->gap);
    }
    if (!st && !evaluated && out->epochs > 0)
        st = evaluate(r, out, &(double){0}, &(double){0});
    return st;
}

static km_status record_outcome(const km_mkl_problem *pr, const km_obscure *o, const outcome *out, double pk)
{
    if (!pr->record)
        return KM_OK;
    size_t F = o->F, M = km_mkl_model_kernels(pr);   /* the model's kernels: 0 at those left out */
    double *w = malloc(2 * F * sizeof *w), *model_w = malloc(2 * M * sizeof *model_w);
    if (!w || !model_w) {
        free(w);
        free(model_w);
        return km_error_nomem("OBSCURE's weights");
    }
    weights_sum_one(out->best.d, F, w);
    weights_pk(out->best.d, F, pk, w + F);
    km_mkl_model_weights(pr, w, model_w);
    km_mkl_model_weights(pr, w + F, model_w + M);
    const char *S = "obscure";
    km_record *rec = pr->record;
    km_status st = km_record_set_values(rec, S, "weights", 1, M, model_w);
    if (!st)
        st = km_record_set_values(rec, S, "weights_pk", 1, M, model_w + M);
    struct { const char *key; double value; } items[] = {
        {"q", o->q}, {"lambda", o->lambda}, {"eta", out->eta}, {"radius", isinf(out->radius) ? -1.0 : out->radius},
        {"objective_online", out->objective_online}, {"objective", out->best.primal}, {"dual", out->dual},
        {"training_error", out->best.error}, {"online_epochs", (double)out->online_epochs},
        {"online_updates", (double)out->online_updates}, {"online_steps", (double)out->online_steps},
        {"epochs", (double)out->epochs}, {"support_rows", (double)out->best.n_support},
    };
    for (size_t k = 0; !st && k < sizeof items / sizeof *items; k++)
        if (isfinite(items[k].value))
            st = km_record_set_scalar(rec, S, items[k].key, items[k].value);
    free(w);
    free(model_w);
    return st;
}

static km_status obscure_train(const km_mkl_problem *pr, km_mkl_result *result)
{
    const km_machine_problem *machine = pr->machine;
    if (machine->ops->task != KM_TASK_SVC)
        return km_error(KM_EINVAL, "--mkl obscure learns classifiers (C-SVC), not %s", machine->ops->name);
    const km_kernel_access *kernel = machine->kernel;
    const km_mkl_params *mkl = &pr->mkl;
    size_t n = kernel->n_rows, F = kernel->n_kernels, K = pr->n_outputs > 1 ? pr->n_outputs : 1;
    double q = km_obscure_q_of_p(mkl->p_block), lambda = 1.0 / (machine->C * (double)n);
    int pegasos = mkl->solver == KM_MKL_PEGASOS || isinf(mkl->obscure_radius);
    /* a block of rows or an objective pass is up to O(N x support) kernel values: each polls the caller */
    km_interruptible_access polled;
    km_interruptible_access_init(&polled, kernel, machine->solver.interrupted, machine->solver.interrupt_ctx,
                                 "OBSCURE's kernel values");
    km_obscure o;
    km_status st = km_obscure_init(&o, &polled.access, K, machine->y, pr->class_of, q, lambda);
    if (st)
        return st;
    if (o.V)
        km_log(&pr->logger, KM_LOG_DEBUG, "OBSCURE on explicit features: the blocks of theta kept, O(sum_j r_j) a step");
    /* the prefetched kernel values take at most half the cache budget (-m), which holds nothing else */
    const km_smo_options *solver = &machine->solver;
    o.block_bytes = (solver->cache ? km_cache_budget(solver->cache) : solver->cache_bytes) / 2;
    run r = {.pr = pr, .o = &o, .order = malloc(n * sizeof *r.order)};
    clock_gettime(CLOCK_MONOTONIC, &r.start);
    km_rng_seed(&r.rng, pr->seed ? pr->seed : 1);
    outcome out = {.eta = mkl->obscure_eta > 0 ? mkl->obscure_eta : pow((double)F, -2.0 / q),
                   .objective_online = 1.0 /* f(0), where Pegasos-MKL starts */, .error_online = NAN, .dual = 0.0,
                   .gap = INFINITY};
    st = snapshot_init(&out.best, n, K, F);
    if (!st && !r.order)
        st = km_error_nomem("OBSCURE's visiting order");
    for (size_t i = 0; !st && i < n; i++)
        r.order[i] = i;
    if (!st && !pegasos)
        st = online_stage(&r, out.eta, &out);
    /* Algorithm 1 line 10: R^2 = ||w||^2 + 2/(lambda N) sum loss = 2 f(w)/lambda, and f(w*) <= f(0) = 1 */
    out.radius = pegasos ? INFINITY
                 : mkl->obscure_radius > 0 ? mkl->obscure_radius
                                           : sqrt(fmin(2.0 * out.objective_online / lambda, 2.0 / lambda));
    o.radius = out.radius;
    o.t = mkl->obscure_t0 >= 0 ? mkl->obscure_t0 : pegasos ? 0 : out.online_steps;
    if (!st)
        st = stochastic_stage(&r, &out);
    if (!st && isinf(out.best.primal))   /* Pegasos-MKL without epochs: theta = 0 */
        st = evaluate(&r, &out, &(double){0}, &(double){0});
    if (!st) {
        const snapshot *best = &out.best;
        memcpy(result->coef, best->coef, n * K * sizeof *result->coef);
        memcpy(kernel->theta, best->beta, F * sizeof *kernel->theta);
        if (result->block_norms)
            memcpy(result->block_norms, best->block_norms, F * sizeof *result->block_norms);
        result->block_norms_valid = result->block_norms != NULL;
        result->bias = 0.0;
        result->primal = result->objective = best->primal;
        result->dual = out.dual;
        result->gap = out.gap;
        result->mkl_iterations = r.steps;
        result->converged = out.gap <= mkl->obscure_tol;
        km_log(&pr->logger, KM_LOG_INFO,
               "obscure: p_block %.6g (q %.6g), lambda %.6g, %ld online epochs (objective %.10g), R %.6g, %ld "
               "stochastic epochs, best objective %.10g (dual %.10g, gap %.3e), training error %.6g, %zu support "
               "rows", mkl->p_block, q, lambda, out.online_epochs, out.objective_online, out.radius, out.epochs,
               best->primal, out.dual, out.gap, best->error, best->n_support);
        if (!result->converged)
            km_log(&pr->logger, KM_LOG_WARNING,
                   "OBSCURE stopped after %ld stochastic epochs with the certified gap %.3e above its target %g "
                   "(--epochs, --max-time; the objective is within %.3g of the optimum)",
                   out.epochs, out.gap, mkl->obscure_tol, best->primal - out.dual);
        st = record_outcome(pr, &o, &out, km_obscure_pk_of_p(mkl->p_block));
    }
    free(r.order);
    snapshot_free(&out.best);
    km_obscure_free(&o);
    return st;
}

const km_mkl_method_entry km_method_obscure = {
    .id = KM_MKL_OBSCURE, .name = "obscure",
    .help = "C-SVC by OBSCURE (Orabona, Jie & Caputo): min lambda/2 ||w||_{2,P}^2 + mean hinge loss "
            "(two classes) or Crammer-Singer loss (more: one machine for all classes), lambda = 1/(C "
            "N), P = --p-block; an online stage, then stochastic epochs in a random order (--seed); "
            "memory grows with the rows that get coefficients, kernel values come through the -m "
            "cache",
    .flags = KM_METHOD_LEARNS_WEIGHTS | KM_METHOD_JOINT_MULTICLASS | KM_METHOD_READS_ROW_BLOCKS |
             KM_METHOD_PRIMAL_OBJECTIVE | KM_METHOD_NO_CLASS_WEIGHTS,
    .params = (const km_param[]){KM_PARAM_P, KM_PARAM_P_BLOCK, KM_PARAM_MKL_SOLVER, KM_PARAM_OBSCURE_EPOCHS,
                                 KM_PARAM_OBSCURE_ONLINE_EPOCHS, KM_PARAM_OBSCURE_ETA, KM_PARAM_OBSCURE_RADIUS,
                                 KM_PARAM_OBSCURE_T0, KM_PARAM_OBSCURE_TOL, KM_PARAM_OBSCURE_TRACE,
                                 KM_PARAM_MKL_MAX_TIME, 0},
    .resolve = obscure_resolve,
    .start = obscure_start,
    .train = obscure_train,
    .fit_defaults = obscure_fit_defaults,
    .data_section = "obscure",
    .describe = km_obscure_describe,
};
