/* km_cv_run: every setting of a grid scored on every split of the rows. The (setting x split) tasks
 * run in one loop (run_tasks), grouped by kernel set so that each set's kernel context — its Gram
 * blocks over all rows — is computed once for all its settings, splits and inner splits; every task
 * trains on its split's training rows (the provider fits widths and normalization on those rows only),
 * cold or warm-started from the task before it in its chain (number_tasks), and posts its result as the
 * record of its task number, so the results do not depend on the order the chains run in nor on which
 * process runs them: under MPI the task exchange (dist/task_exchange.h) spreads the chains over the ranks
 * and gives every rank every record. Nested cross-validation scores every setting on the outer splits as well,
 * chooses one per outer split from the inner splits of its training rows, and reports the outer
 * split's score of the setting chosen there. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "core/clock.h"
#include "core/error.h"
#include "core/params.h"
#include "core/sized_struct.h"
#include "data/dataset.h"
#include "dist/dist.h"
#include "dist/task_exchange.h"
#include "kernel/kernel.h"
#include "kernel/kernel_context.h"
#include "select/choose.h"
#include "select/cv_results.h"
#include "select/grid.h"
#include "select/splits.h"
#include "train/train.h"

/* What one task gives, as the record it posts to the task exchange: the score, the seconds of its
 * fit, its support vectors, then the first machine's kernel count and weights. */
enum { RECORD_SCORE, RECORD_SECONDS, RECORD_SV, RECORD_N_KERNELS, RECORD_WEIGHTS };

/* One (setting x split) task and its chain: the consecutive tasks that one thread runs in order, each
 * but the first warm-starting from the model of the task before it. */
typedef struct cv_task {
    size_t setting, evaluation, split, chain;
} cv_task;

/* The tasks of one list of splits: task[s * splits->n + f] is the task of setting s and split f. */
typedef struct evaluation {
    km_splits splits;
    size_t *task;
} evaluation;

/* The decision values as scores that grow with the larger label: a binary machine's decision is
 * positive for the model's first class. */
static void orient_decision(const km_model *model, double *decision, size_t n)
{
    const double *labels = km_model_labels(model);
    if (labels && labels[0] < labels[1])
        for (size_t i = 0; i < n; i++)
            decision[i] = -decision[i];
}

/* The probability the model gives each row's true class (n rows of decision values in, of
 * probabilities out); KM_EINVAL for a model without probability models. */
static km_status true_class_probabilities(const km_model *model, const double *truth, const double *decision,
                                          size_t n, double *p_true)
{
    if (!km_model_has_probability(model))
        return km_error(KM_EINVAL, "log-loss scores a probability model (train with -b 1)");
    size_t k = km_model_n_classes(model);
    const double *labels = km_model_labels(model);
    double *probabilities = malloc(n * k * sizeof *probabilities);
    km_status st = probabilities ? km_probability_from_decision(model, n, decision, NULL, probabilities)
                                 : km_error_nomem("cross-validation probabilities");
    for (size_t i = 0; !st && i < n; i++) {
        p_true[i] = 0.0;   /* a class the training rows did not have */
        for (size_t c = 0; c < k; c++)
            if (labels[c] == truth[i])
                p_true[i] = probabilities[i * k + c];
    }
    free(probabilities);
    return st;
}

static km_status score_task(const km_model *model, const km_split *split, const km_matrix **matrices,
                            km_score score, double *out)
{
    size_t n = split->n_test, nd = km_model_n_decision(model);
    int binary = km_model_n_classes(model) == 2 && nd == 1;
    double *truth = malloc(n * sizeof *truth), *predicted = malloc(n * sizeof *predicted);
    double *decision = malloc((n * nd > 0 ? n * nd : 1) * sizeof *decision);
    km_status st = truth && predicted && decision ? KM_OK : km_error_nomem("cross-validation predictions");
    if (!st)
        st = km_predict_rows(model, split->test_data, split->test, n, matrices, predicted, decision);
    for (size_t i = 0; !st && i < n; i++)
        truth[i] = split->test_data->labels ? split->test_data->labels[split->test[i]] : 0.0;
    if (!st && score == KM_SCORE_LOG_LOSS)
        st = true_class_probabilities(model, truth, decision, n, decision);   /* n <= n nd values */
    else if (!st && binary)
        orient_decision(model, decision, n);
    if (!st)
        st = km_score_of(score, truth, predicted, binary || score == KM_SCORE_LOG_LOSS ? decision : NULL, n,
                         out);
    free(truth);
    free(predicted);
    free(decision);
    return st;
}

/* Trains setting on the split's training rows in context (warm-started from the model start, or cold:
 * NULL) into *model and scores its test rows: the task's record (RECORD_WEIGHTS + max_kernels values). */
static km_status run_task(km_kernel_context *context, const km_grid_setting *setting, const km_split *split,
                          const km_matrix **matrices, km_score score, size_t max_kernels, const km_model *from,
                          double *record, km_model **out)
{
    double start = km_monotonic_seconds();
    km_model *model = NULL;
    km_status st = km_train_rows_in_context_from(context, split->train, split->n_train, setting->params, from, &model);
    if (!st)
        st = score_task(model, split, split->test_data == km_kernel_context_data(context) ? matrices : NULL, score,
                        &record[RECORD_SCORE]);
    if (!st) {
        size_t n_kernels = km_model_n_kernels(model);
        if (n_kernels > max_kernels)
            n_kernels = max_kernels;
        record[RECORD_SECONDS] = km_monotonic_seconds() - start;
        record[RECORD_SV] = (double)km_model_n_sv_total(model);
        record[RECORD_N_KERNELS] = (double)n_kernels;
        memcpy(&record[RECORD_WEIGHTS], km_model_kernel_weights(model, 0), n_kernels * sizeof *record);
    }
    *out = model;
    return st;
}

/* The record of setting s on split f of an evaluation (NULL where it has not arrived). */
static const double *record_of(const km_task_exchange *exchange, const evaluation *e, size_t s, size_t f)
{
    return km_task_exchange_record(exchange, e->task[s * e->splits.n + f]);
}

/* The mean score of setting s over an evaluation's splits. */
static double mean_score(const km_task_exchange *exchange, const evaluation *e, size_t s)
{
    double sum = 0.0;
    for (size_t f = 0; f < e->splits.n; f++)
        sum += record_of(exchange, e, s, f)[RECORD_SCORE];
    return sum / (double)e->splits.n;
}

/* What the settings of a chain may differ in. */
static const km_param CHAIN_PARAMETERS[] = {KM_PARAM_C, KM_PARAM_P, KM_PARAM_P_BLOCK, 0};

/* p in the block-norm convention (p_block = 2p/(p+1)), as given: the order of a chain. */
static double p_block_of(const km_params *params)
{
    double p_block = 0, p = 2;
    km_params_get_double(params, KM_PARAM_P_BLOCK, &p_block);
    km_params_get_double(params, KM_PARAM_P, &p);
    return p_block > 0 ? p_block : isinf(p) ? 2 : 2 * p / (p + 1);
}

/* The order of the settings of one family in its chains: by C, then by p (increasing p_block). */
static int chain_order(const km_grid *grid, size_t a, size_t b)
{
    double ca = grid->settings[a].params->C, cb = grid->settings[b].params->C;
    double pa = p_block_of(grid->settings[a].params), pb = p_block_of(grid->settings[b].params);
    if (ca != cb)
        return ca < cb ? -1 : 1;
    if (pa != pb)
        return pa < pb ? -1 : 1;
    return a < b ? -1 : a > b;
}

/* Whether setting b continues the chain of setting a before it (chain_order): the same C. */
static int same_chain(const km_grid *grid, size_t a, size_t b)
{
    return grid->settings[a].params->C == grid->settings[b].params->C;
}

/* The settings of s's family in their chain order (family: the same kernel set and parameters but for C
 * and p), into members; their count. */
static size_t family_of(const km_grid *grid, size_t s, size_t *members)
{
    size_t count = 0;
    for (size_t other = 0; other < grid->n; other++) {
        const km_grid_setting *a = &grid->settings[s], *b = &grid->settings[other];
        if (a->kernels != b->kernels || !km_params_same_except(a->params, b->params, CHAIN_PARAMETERS))
            continue;
        size_t at = count++; /* insertion into the chain order */
        while (at > 0 && chain_order(grid, members[at - 1], other) > 0) {
            members[at] = members[at - 1];
            at--;
        }
        members[at] = other;
    }
    return count;
}

/* The tasks in the order they run, and each evaluation's task numbers: grouped by kernel set (in the order
 * of the settings that first use each set), then by family of settings (family_of), evaluation and split,
 * each (family x split) in chains: one per C along increasing p, each task warm-starting from the one
 * before it (chains along p took less time than chains along C, whose warm starts saved as many SVM
 * iterations but begin with more support vectors: docs/model-selection.md). The chains depend on the grid
 * alone, never on the number of ranks. */
static km_status number_tasks(const km_grid *grid, evaluation *evaluations, size_t n_evaluations, cv_task **out,
                              size_t *n_out)
{
    size_t n = 0, t = 0, chain = 0, current = 0;
    for (size_t e = 0; e < n_evaluations; e++)
        n += grid->n * evaluations[e].splits.n;
    cv_task *tasks = malloc((n ? n : 1) * sizeof *tasks);
    unsigned char *numbered = calloc(grid->n, 1);
    size_t *members = malloc(grid->n * sizeof *members);
    if (!tasks || !numbered || !members) {
        free(tasks);
        free(numbered);
        free(members);
        return km_error_nomem("cross-validation tasks");
    }
    for (size_t first = 0; first < grid->n; first++)
        for (size_t s = first; !numbered[first] && s < grid->n; s++) {
            if (numbered[s] || grid->settings[s].kernels != grid->settings[first].kernels)
                continue;
            size_t count = family_of(grid, s, members);
            for (size_t e = 0; e < n_evaluations; e++)
                for (size_t f = 0; f < evaluations[e].splits.n; f++)
                    for (size_t k = 0; k < count; k++) {
                        size_t member = members[k];
                        if (k == 0 || !same_chain(grid, members[k - 1], member))
                            current = chain++;
                        evaluations[e].task[member * evaluations[e].splits.n + f] = t;
                        tasks[t] = (cv_task){member, e, f, current};
                        t++;
                    }
            for (size_t k = 0; k < count; k++)
                numbered[members[k]] = 1;
        }
    free(numbered);
    free(members);
    *out = tasks;
    *n_out = n;
    return KM_OK;
}

/* Each task's chain: the units of the task exchange. */
static km_status chain_units(const cv_task *tasks, size_t n_tasks, size_t **out)
{
    size_t *units = malloc((n_tasks ? n_tasks : 1) * sizeof *units);
    if (!units)
        return km_error_nomem("cross-validation tasks");
    for (size_t t = 0; t < n_tasks; t++)
        units[t] = tasks[t].chain;
    *out = units;
    return KM_OK;
}

/* Progress of a run, kept by the rank that reports it: the settings whose every task has its record. */
typedef struct progress_state {
    size_t *tasks_left;           /* per setting */
    unsigned char *counted;       /* per task: its record counted */
    unsigned char *done;          /* per setting */
    double *means;                /* per setting done: its mean on evaluations[0] */
    size_t done_count;
} progress_state;

/* Counts the records that arrived since the last call and reports each setting they completed, with
 * the best of the settings done so far; KM_EINTERRUPTED when the callback asks to stop. */
static km_status report_progress(progress_state *p, const km_task_exchange *exchange, const cv_task *tasks,
                                 size_t n_tasks, const km_grid *grid, const evaluation *evaluations,
                                 const km_cv_options *options, km_score score)
{
    for (size_t t = 0; t < n_tasks; t++) {
        size_t s = tasks[t].setting;
        if (p->counted[t] || !km_task_exchange_record(exchange, t))
            continue;
        p->counted[t] = 1;
        if (--p->tasks_left[s])
            continue;
        p->done[s] = 1;
        p->means[s] = mean_score(exchange, &evaluations[0], s);
        size_t best = km_cv_choose(grid, p->means, p->done, km_score_higher_is_better(score));
        if (options->progress &&
            options->progress(options->progress_user, ++p->done_count, grid->n, best, p->means[best]))
            return km_error(KM_EINTERRUPTED, "cross-validation interrupted");
    }
    return KM_OK;
}

/* The kernel context of a kernel set with the matrices of its precomputed kernels (replacing those of
 * the previous set). */
static km_status open_context(const km_dataset *data, const km_grid_setting *setting, km_kernel_context **context,
                              const km_matrix ***matrices)
{
    const km_kernel_set *set = setting->kernels;
    km_logger logger = {setting->params->log, setting->params->log_user};
    km_kernel_context_free(*context);
    *context = NULL;
    free(*matrices);
    if (!(*matrices = calloc(set->size ? set->size : 1, sizeof **matrices)))
        return km_error_nomem("cross-validation");
    for (size_t m = 0; m < set->size; m++)
        (*matrices)[m] = set->kernels[m].matrix;
    return km_kernel_context_new(data, set, km_params_cache_bytes(setting->params), &logger, context);
}

/* What the threads of a run share. Every call that touches the exchange, the progress or the failure
 * runs in one critical section (under MPI, one thread at a time may call it:
 * km_dist_threads_may_call). */
typedef struct run_state {
    const km_grid *grid;
    const evaluation *evaluations;
    const cv_task *tasks;
    size_t n_tasks, max_kernels;
    km_task_exchange *exchange;
    const km_cv_options *options;
    km_score score;
    int leads;                   /* this rank reports progress */
    progress_state progress;
    km_status failure;           /* the first failure of a thread of this process */
    char message[1024];          /* its message */
} run_state;

/* Keeps the first failure (its thread's message); returns status. */
static km_status fail(run_state *run, km_status status)
{
#pragma omp critical
    if (!run->failure) {
        run->failure = status;
        snprintf(run->message, sizeof run->message, "%s", km_last_error());
    }
    return status;
}

/* Whether the run stops: a thread of this process failed, or another rank. */
static int stopping(run_state *run)
{
    int stop;
#pragma omp critical
    stop = run->failure || km_task_exchange_stopped(run->exchange);
    return stop;
}

/* Posts task t's record and reports the progress it makes. */
static km_status post(run_state *run, size_t t, const double *record)
{
    km_status st;
#pragma omp critical
    {
        st = km_task_exchange_post(run->exchange, t, record);
        if (!st && run->leads)
            st = report_progress(&run->progress, run->exchange, run->tasks, run->n_tasks, run->grid, run->evaluations,
                                 run->options, run->score);
    }
    return st;
}

/* Runs the tasks first .. end - 1 of one chain in order in a worker's context, each warm-started from the
 * one before it (unless cold starts are asked for), until one fails or the run stops. */
static km_status run_chain(run_state *run, km_kernel_context *context, const km_matrix **matrices, size_t first,
                           size_t end, double *record)
{
    km_model *previous = NULL;
    km_status st = KM_OK;
    for (size_t t = first; !st && t < end && !stopping(run); t++) {
        const cv_task *task = &run->tasks[t];
        const km_grid_setting *setting = &run->grid->settings[task->setting];
        const km_model *from = !run->options->cold_starts && t > first ? previous : NULL;
        km_model *model = NULL;
        st = run_task(context, setting, &run->evaluations[task->evaluation].splits.items[task->split], matrices,
                      run->score, run->max_kernels, from, record, &model);
        km_model_free(previous);
        previous = model;
        if (st) {
            char where[512];
            snprintf(where, sizeof where, "setting %zu (%s), split %zu", task->setting + 1, setting->options,
                     task->split + 1);
            km_error_in(where, st);
        } else {
            st = post(run, t, record);
        }
    }
    km_model_free(previous);
    return st;
}

/* The threads a process runs its chains on: the caller's number, or OpenMP's (OMP_NUM_THREADS, else the
 * cores); one where OpenMP is off or MPI allows calls from the main thread only. */
static size_t threads_of(const km_cv_options *options)
{
#ifdef _OPENMP
    if (!km_dist_threads_may_call())
        return 1;
    return options->threads > 0 ? (size_t)options->threads : (size_t)omp_get_max_threads();
#else
    (void)options;
    return 1;
#endif
}

/* Runs this process's chains among the tasks first .. end - 1, which share one kernel set: one kernel
 * context for them all, and as many threads as there are chains, up to threads_of, each training in a
 * worker context of its own (its share of the budget) and taking the next chain when done. The chains
 * run from the last to the first, so that those of the largest C, the slowest to train, start first. */
static km_status run_kernel_set(run_state *run, const km_dataset *data, size_t first, size_t end)
{
    size_t n_chains = 0, record_length = RECORD_WEIGHTS + run->max_kernels;
    size_t *chain_first = malloc((end - first) * sizeof *chain_first);
    if (!chain_first)
        return km_error_nomem("cross-validation tasks");
    for (size_t t = first; t < end; t++)
        if (km_task_exchange_mine(run->exchange, t) && (t == first || run->tasks[t].chain != run->tasks[t - 1].chain))
            chain_first[n_chains++] = t;
    size_t workers = threads_of(run->options);
    if (workers > n_chains)
        workers = n_chains;
    km_kernel_context *context = NULL, **contexts = calloc(workers ? workers : 1, sizeof *contexts);
    const km_matrix **matrices = NULL;
    double *records = malloc((workers ? workers : 1) * record_length * sizeof *records);
    km_status st = contexts && records ? KM_OK : km_error_nomem("cross-validation");
    if (!st && n_chains)
        st = open_context(data, &run->grid->settings[run->tasks[first].setting], &context, &matrices);
    for (size_t w = 0; !st && w < workers; w++)
        st = km_kernel_context_worker(context, workers, &contexts[w]);
    size_t next = 0;
#pragma omp parallel num_threads(workers ? workers : 1) if (!st && workers > 1)
    {
#ifdef _OPENMP
        size_t w = (size_t)omp_get_thread_num();
#else
        size_t w = 0;
#endif
        for (;;) {
            size_t c;
#pragma omp atomic capture
            c = next++;
            if (st || c >= n_chains)
                break;
            size_t chain_start = chain_first[n_chains - 1 - c], chain_end = chain_start;
            while (chain_end < end && run->tasks[chain_end].chain == run->tasks[chain_start].chain)
                chain_end++;
            km_status chain_st = run_chain(run, contexts[w], matrices, chain_start, chain_end, records + w * record_length);
            if (chain_st) {
                fail(run, chain_st);
                break;
            }
        }
    }
    for (size_t w = 0; contexts && w < workers; w++)
        km_kernel_context_free(contexts[w]);
    km_kernel_context_free(context);
    free(contexts);
    free(matrices);
    free(records);
    free(chain_first);
    return st ? st : run->failure ? km_error(run->failure, "%s", run->message) : KM_OK;
}

/* Runs this process's tasks (all of them, or under MPI those of its rank), kernel set by kernel set
 * (number_tasks keeps each set's tasks together); the rank that leads reports progress as settings
 * complete. Every record is in the exchange when it returns KM_OK. */
static km_status run_tasks(const km_dataset *data, const km_grid *grid, const evaluation *evaluations,
                           const cv_task *tasks, size_t n_tasks, km_task_exchange *exchange, size_t max_kernels,
                           const km_cv_options *options, km_score score)
{
    run_state run = {grid, evaluations, tasks, n_tasks, max_kernels, exchange, options, score,
                     km_task_exchange_leads(exchange),
                     {calloc(grid->n, sizeof(size_t)), calloc(n_tasks ? n_tasks : 1, 1), calloc(grid->n, 1),
                      calloc(grid->n, sizeof(double)), 0},
                     KM_OK, ""};
    progress_state *p = &run.progress;
    km_status st = p->tasks_left && p->counted && p->done && p->means ? KM_OK : km_error_nomem("cross-validation");
    for (size_t t = 0; !st && t < n_tasks; t++)
        p->tasks_left[tasks[t].setting]++;
    for (size_t first = 0, end; !st && first < n_tasks && !km_task_exchange_stopped(exchange); first = end) {
        for (end = first + 1; end < n_tasks; end++)
            if (grid->settings[tasks[end].setting].kernels != grid->settings[tasks[first].setting].kernels)
                break;
        st = run_kernel_set(&run, data, first, end);
    }
    while (!st && run.leads && km_task_exchange_wait(exchange))
        st = report_progress(p, exchange, tasks, n_tasks, grid, evaluations, options, score);
    st = km_task_exchange_finish(exchange, st);
    free(p->tasks_left);
    free(p->counted);
    free(p->done);
    free(p->means);
    return st;
}

/* The per-setting figures of the evaluation over all rows. */
static km_status summarize(const km_task_exchange *exchange, const evaluation *e, const km_grid *grid,
                           km_cv_results *r)
{
    size_t k = e->splits.n;
    r->n_splits = k;
    for (size_t s = 0; s < grid->n; s++) {
        km_cv_setting_result *row = &r->settings[s];
        if (!(row->scores = malloc(k * sizeof *row->scores)))
            return km_error_nomem("cross-validation results");
        row->n_kernels = (size_t)record_of(exchange, e, s, 0)[RECORD_N_KERNELS];
        if (!(row->weights = calloc(row->n_kernels ? row->n_kernels : 1, sizeof *row->weights)))
            return km_error_nomem("cross-validation results");
        row->mean = mean_score(exchange, e, s);
        double squares = 0.0;
        for (size_t f = 0; f < k; f++) {
            const double *record = record_of(exchange, e, s, f);
            row->scores[f] = record[RECORD_SCORE];
            squares += (record[RECORD_SCORE] - row->mean) * (record[RECORD_SCORE] - row->mean);
            row->fit_seconds += record[RECORD_SECONDS];
            row->mean_sv += record[RECORD_SV] / (double)k;
            for (size_t m = 0; m < row->n_kernels && m < (size_t)record[RECORD_N_KERNELS]; m++)
                row->weights[m] += record[RECORD_WEIGHTS + m] / (double)k;
        }
        row->std = k > 1 ? sqrt(squares / (double)(k - 1)) : 0.0;
    }
    return KM_OK;
}

static void evaluation_clear(evaluation *e)
{
    free(e->task);
    km_splits_clear(&e->splits);
}

static km_status check_run(const km_dataset *data, const km_grid *grid, const km_cv_options *o)
{
    if (!data || !grid)
        return km_error(KM_EINVAL, "km_cv_run: NULL argument");
    if (grid->n == 0)
        return km_error(KM_EINVAL, "km_cv_run: the grid has no setting");
    if (o->validation && o->fold_of)
        return km_error(KM_EINVAL, "a validation set is one fixed split; give it or the folds (fold_of), not both");
    if (!o->fold_of && o->n_fold_of)
        return km_error(KM_EINVAL, "km_cv_run: n_fold_of is %zu but fold_of is NULL", o->n_fold_of);
    if (!o->validation && !o->fold_of && o->folds == 0 && data->n > 500)
        return km_error(KM_EINVAL, "leave-one-out: %zu rows, more than 500 (use k folds)", data->n);
    if (o->validation && o->nested_folds)
        return km_error(KM_EINVAL, "nested cross-validation splits the training rows; a validation file is "
                        "one fixed split");
    if (o->nested_folds == 1 || o->nested_folds < 0)
        return km_error(KM_EINVAL, "nested cross-validation needs at least 2 inner folds (got %d)", o->nested_folds);
    if (o->score && !km_enum_name(KM_ENUM_SCORE, o->score))
        return km_error(KM_EINVAL, "km_cv_run: %d is not a score", (int)o->score);
    return KM_OK;
}

km_status km_cv_run(const km_dataset *data, const km_grid *grid, const km_cv_options *caller, km_cv_results **out)
{
    /* the caller's fields that fit in its size, defaults for the others */
    km_cv_options read = KM_CV_OPTIONS_INIT, *options = &read;
    km_status st = caller ? km_sized_struct_read(&read, sizeof read, caller, offsetof(km_cv_options, fold_of),
                                                 "km_cv_options")
                          : km_error(KM_EINVAL, "km_cv_run: NULL options");
    if (!st)
        st = check_run(data, grid, options);
    if (st)
        return st;
    *out = NULL;
    km_task task = grid->settings[0].params->task;
    int classifies = km_task_classifies(task);
    km_score score = options->score ? options->score : classifies ? KM_SCORE_ACCURACY : KM_SCORE_MSE;
    /* a regression model's real-valued predictions are never equal to a class label: accuracy would be 0 */
    if (km_task_regresses(task) && score != KM_SCORE_MSE && score != KM_SCORE_R2)
        return km_error(KM_EINVAL,
                        "%s scores classes, and %s (a regression task) predicts real values: score it by mse or r2",
                        km_enum_name(KM_ENUM_SCORE, score), km_enum_name(KM_ENUM_TASK, task));
    size_t n = data->n, n_settings = grid->n;
    size_t *all = malloc((n ? n : 1) * sizeof *all);
    km_cv_results *r = calloc(1, sizeof *r);
    if (!all || !r || !(r->settings = calloc(n_settings, sizeof *r->settings))) {
        free(all);
        free(r);
        return km_error_nomem("cross-validation");
    }
    r->n_settings = n_settings;
    r->score = score;
    for (size_t i = 0; i < n; i++)
        all[i] = i;
    /* evaluations[0]: the splits of all rows; nested: then each outer split's inner splits */
    int k = options->folds ? options->folds : (int)(n < 500 ? n : 500);
    km_splits splits = {NULL, 0};
    if (options->validation)
        st = km_splits_validation(data, options->validation, &splits);
    else if (options->fold_of)
        st = km_splits_of_folds(data, options->fold_of, options->n_fold_of, &splits);
    else
        st = km_splits_kfold(data, all, n, k, options->repeats, options->seed, classifies, &splits);
    size_t n_outer = options->nested_folds ? splits.n : 0;
    evaluation *evaluations = st ? NULL : calloc(1 + n_outer, sizeof *evaluations);
    if (evaluations)
        evaluations[0].splits = splits;
    else if (!st) {
        km_splits_clear(&splits);
        st = km_error_nomem("cross-validation");
    }
    for (size_t o = 0; !st && o < n_outer; o++) {
        const km_split *outer = &evaluations[0].splits.items[o];
        st = km_splits_kfold(data, outer->train, outer->n_train, options->nested_folds, 1, options->seed, classifies,
                             &evaluations[1 + o].splits);
        if (st) {
            char where[64];
            snprintf(where, sizeof where, "nested cross-validation, outer split %zu", o + 1);
            km_error_in(where, st);
        }
    }
    for (size_t e = 0; !st && e < 1 + n_outer; e++)
        if (!(evaluations[e].task = malloc((n_settings * evaluations[e].splits.n + 1) * sizeof *evaluations[e].task)))
            st = km_error_nomem("cross-validation tasks");
    cv_task *tasks = NULL;
    size_t n_tasks = 0, max_kernels = 0, *units = NULL;
    km_task_exchange *exchange = NULL;
    for (size_t s = 0; s < n_settings; s++)
        if (grid->settings[s].kernels->size > max_kernels)
            max_kernels = grid->settings[s].kernels->size;
    if (!st)
        st = number_tasks(grid, evaluations, 1 + n_outer, &tasks, &n_tasks);
    if (!st)
        st = chain_units(tasks, n_tasks, &units);
    if (!st)
        st = km_task_exchange_new(n_tasks, units, RECORD_WEIGHTS + max_kernels, &exchange);
    if (!st)
        st = run_tasks(data, grid, evaluations, tasks, n_tasks, exchange, max_kernels, options, score);
    if (!st)
        st = summarize(exchange, &evaluations[0], grid, r);
    double *means = st ? NULL : malloc(n_settings * sizeof *means);
    if (!st && !means)
        st = km_error_nomem("cross-validation results");
    for (size_t s = 0; !st && s < n_settings; s++)
        means[s] = r->settings[s].mean;
    if (!st)
        r->best = km_cv_choose(grid, means, NULL, km_score_higher_is_better(score));
    if (!st && n_outer) {
        r->n_outer = n_outer;
        r->outer_scores = malloc(n_outer * sizeof *r->outer_scores);
        r->outer_choices = malloc(n_outer * sizeof *r->outer_choices);
        if (!r->outer_scores || !r->outer_choices)
            st = km_error_nomem("cross-validation results");
    }
    for (size_t o = 0; !st && o < n_outer; o++) {
        for (size_t s = 0; s < n_settings; s++)
            means[s] = mean_score(exchange, &evaluations[1 + o], s);
        size_t chosen = km_cv_choose(grid, means, NULL, km_score_higher_is_better(score));
        r->outer_choices[o] = chosen;
        r->outer_scores[o] = r->settings[chosen].scores[o];
    }
    free(means);
    km_task_exchange_free(exchange);
    free(tasks);
    free(units);
    for (size_t e = 0; evaluations && e < 1 + n_outer; e++)
        evaluation_clear(&evaluations[e]);
    free(evaluations);
    free(all);
    if (st) {
        km_cv_results_free(r);
        return st;
    }
    *out = r;
    return KM_OK;
}
