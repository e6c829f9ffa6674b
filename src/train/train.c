/* km_train: fits the kernel set on the training rows, solves one problem per machine (binary,
 * one-vs-one pair, one-vs-rest class, regression or one-class) on the fixed combination
 * sum_m d_m k_m or with learned weights (MKL, per machine or shared by all machines), stores the MKL
 * diagnostics (alignments, block norms) and collects the support vectors into the model's basis. */
#include "train/train.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/error.h"
#include "core/log.h"
#include "core/params.h"
#include "core/progress.h"
#include "data/dataset.h"
#include "dist/dist.h"
#include "kernel/kernel_context.h"
#include "kernel/kernel_view.h"
#include "kernel/provider.h"
#include "mkl/clmkl.h"
#include "mkl/diagnostics.h"
#include "mkl/method.h"
#include "mkl/two_stage.h"
#include "train/multiclass.h"
#include "svm/interruptible_access.h"
#include "svm/svm.h"
#include "svm/view_access.h"
#include "train/alignment_record.h"
#include "train/input_checks.h"
#include "train/model.h"
#include "train/probability.h"

/* Shared state of one km_train call. */
typedef struct trainer {
    const km_dataset *data;
    const size_t *rows;          /* provider row -> data row; NULL: identity */
    size_t n;
    const km_params *params;
    km_mkl_params mkl;           /* resolved kernel-weight learning */
    const km_mkl_method_entry *method; /* its entry in the method table */
    km_logger logger;
    km_progress_reporter progress; /* the caller's progress callback, at the current machine */
    km_provider *provider;
    km_cache *cache;             /* the -m budget, shared by the provider and every machine's solver */
    int cache_float;             /* the SMO cache holds floats */
    double *theta;               /* fixed kernel weights, M values */
    size_t *used;                /* the kernels the machines learn on, in order (MKL leaves out constant ones) */
    size_t n_used;
    km_model *model;
    unsigned char *is_sv;        /* provider rows used by some machine */
    const km_model *start;       /* the model each machine warm-starts from (warm_start_fits); NULL: cold */
    size_t *machine_row;         /* with a start: provider row -> row of the machine being set up */
    const km_row_partition *partition; /* the rows are this process's part of the problem; NULL: all of it */
} trainer;

static size_t data_row(const trainer *t, size_t provider_row) { return t->rows ? t->rows[provider_row] : provider_row; }

/* used[g n_used + u] = all[g M + used kernel u] for the weight sets g < groups of M-kernel weights. */
static void used_weights(const trainer *t, size_t groups, const double *all, double *used)
{
    size_t M = km_provider_n_kernels(t->provider);
    for (size_t g = 0; g < groups; g++)
        for (size_t u = 0; u < t->n_used; u++)
            used[g * t->n_used + u] = all[g * M + t->used[u]];
}

/* The inverse of used_weights: all[g M + m] for every kernel m, 0 at the kernels left out. */
static void model_weights(const trainer *t, size_t groups, const double *used, double *all)
{
    size_t M = km_provider_n_kernels(t->provider);
    for (size_t g = 0; g < groups; g++) {
        for (size_t m = 0; m < M; m++)
            all[g * M + m] = 0.0;
        for (size_t u = 0; u < t->n_used; u++)
            all[g * M + t->used[u]] = used[g * t->n_used + u];
    }
}

static double class_weight(const km_params *p, double label)
{
    for (size_t k = 0; k < p->n_class_weights; k++)
        if (p->class_weight_labels[k] == label)
            return p->class_weights[k];
    return 1.0;
}

/* Number of outputs of a machine (1 unless it is a joint multiclass machine). */
static size_t outputs_of(const km_machine *machine) { return machine->n_outputs > 1 ? machine->n_outputs : 1; }

/* Whether row i has a non-zero coefficient among its K outputs. */
static int row_is_support(const double *coef, size_t i, size_t K)
{
    for (size_t r = 0; r < K; r++)
        if (coef[i * K + r] != 0.0)
            return 1;
    return 0;
}

/* Stores the rows with non-zero coefficients of a solved machine (by provider row; see build_basis). */
static km_status keep_support_vectors(trainer *t, km_machine *machine, const double *coef, const size_t *machine_rows,
                                      size_t n_rows)
{
    size_t n_sv = 0, K = outputs_of(machine);
    for (size_t i = 0; i < n_rows; i++)
        n_sv += row_is_support(coef, i, K);
    machine->n_sv = n_sv;
    machine->sv = malloc((n_sv ? n_sv : 1) * sizeof *machine->sv);
    machine->coef = malloc((n_sv ? n_sv : 1) * K * sizeof *machine->coef);
    if (!machine->sv || !machine->coef)
        return km_error_nomem("support vectors");
    for (size_t i = 0, k = 0; i < n_rows; i++) {
        if (!row_is_support(coef, i, K))
            continue;
        size_t r = machine_rows ? machine_rows[i] : i;
        machine->sv[k] = r;
        memcpy(machine->coef + k++ * K, coef + i * K, K * sizeof *coef);
        t->is_sv[r] = 1;
    }
    return KM_OK;
}

/* The caller's progress callback polled by the solver. */
static int solver_interrupted(void *ctx) { return km_progress_report(ctx, "solver"); }
static int alignment_interrupted(void *ctx) { return km_progress_report(ctx, "alignment"); }

/* The machine's fields from a method's result. */
static void store_result(km_machine *machine, const km_mkl_result *result)
{
    machine->bias = result->bias;
    for (size_t r = 0; machine->biases && r < machine->n_outputs; r++)
        machine->biases[r] = result->bias;
    machine->objective = result->objective;
    machine->iterations = result->smo_iterations;
    machine->converged = result->converged;
    machine->primal = result->primal;
    machine->gap = result->gap;
    machine->mkl_iterations = result->mkl_iterations;
}

/* A solution that overflowed (targets near the double range, kernel values summing past it) is an
 * error, never a model. */
static km_status check_finite_result(const km_mkl_result *result, size_t n_rows)
{
    const char *what = !isfinite(result->objective) ? "objective" : !isfinite(result->bias) ? "bias" : NULL;
    for (size_t i = 0; !what && i < n_rows; i++)
        if (!isfinite(result->coef[i]))
            what = "coefficient";
    if (!what)
        return KM_OK;
    return km_error(KM_EINVAL, "the solver's %s is not finite: the problem overflows double precision (scale the "
                    "features and targets, or choose smaller kernel parameters)", what);
}

/* Solves the machine's problem into result (its coef and products arrays) with the method, from the
 * method's starting weights (or the given ones; warm: from the weights and coefficients already there). */
static km_status solve_problem(trainer *t, const km_mkl_problem *problem, km_machine *machine, km_mkl_result *result,
                               int warm)
{
    if (!warm && t->method->start)
        t->method->start(&t->mkl, problem->machine->kernel->n_kernels, problem->machine->kernel->theta);
    km_status st = km_mkl_train(problem, result);
    if (!st)
        st = check_finite_result(result, problem->machine->kernel->n_rows * problem->n_outputs);
    if (st)
        return st;
    store_result(machine, result);
    return KM_OK;
}

/* One machine's problem: its view of the kernels, labels or targets and coefficients. The problem
 * points into the job, so a job stays where it was initialised. */
typedef struct machine_job {
    km_kernel_view *view;
    km_kernel_access access;
    km_machine_problem task;
    km_mkl_problem problem;
    size_t *rows;                /* machine row -> provider row (own copy); NULL: all rows */
    size_t n_rows;
    double *coef, *targets;
    double *products;            /* MKL: K_m c of the solution (M x n_rows) */
    double *block_norms;         /* MKL: M values, when the method computes them */
    signed char *y;
} machine_job;

static void job_clear(machine_job *job)
{
    km_kernel_view_free(job->view);
    free(job->rows);
    free(job->coef);
    free(job->products);
    free(job->block_norms);
    free(job->targets);
    free(job->y);
}

/* Sets up the problem of a machine on the given provider rows (NULL: all) with kernel weights theta of the
 * kernels it learns on (t->used). */
static km_status job_init(trainer *t, machine_job *job, const km_machine *machine, const size_t *machine_rows,
                          size_t n_rows, const km_classes *classes, double *theta)
{
    const km_params *p = t->params;
    memset(job, 0, sizeof *job);
    job->n_rows = n_rows;
    if (machine_rows && (job->rows = malloc(n_rows * sizeof *job->rows)))
        memcpy(job->rows, machine_rows, n_rows * sizeof *job->rows);
    size_t M = km_provider_n_kernels(t->provider);
    int mkl = (t->method->flags & KM_METHOD_LEARNS_WEIGHTS) != 0;
    size_t K = outputs_of(machine);
    job->coef = n_rows <= SIZE_MAX / sizeof(double) / K ? calloc(n_rows * K, sizeof *job->coef) : NULL;
    job->products = mkl && n_rows <= SIZE_MAX / sizeof(double) / M ? malloc(n_rows * M * sizeof *job->products) : NULL;
    job->block_norms = mkl ? malloc(M * sizeof *job->block_norms) : NULL;
    job->targets = malloc(n_rows * sizeof *job->targets);
    job->y = malloc(n_rows);
    if ((machine_rows && !job->rows) || !job->coef || (mkl && (!job->products || !job->block_norms)) || !job->targets ||
        !job->y)
        return km_error_nomem("a machine's coefficients");
    km_status st = km_kernel_view_new_scaled(t->provider, job->rows, n_rows, t->n_used, t->used, NULL, &job->view);
    if (st)
        return st;
    job->access = km_kernel_access_from_view(job->view, theta);
    km_machine_problem *task = &job->task;
    *task = (km_machine_problem){
        .ops = km_machine_ops_of(p->task),
        .kernel = &job->access,
        .y = job->y,
        .z = job->targets,
        .C = p->C,
        .weight_pos = 1.0,
        .weight_neg = 1.0,
        .epsilon = p->epsilon,
        .nu = p->nu,
        .bias = p->krr_bias,
        .solver = km_smo_options_default(),
    };
    task->solver.tolerance = p->tolerance;
    task->solver.shrinking = p->shrinking;
    task->solver.cache = t->cache;
    task->solver.cache_bytes = km_cache_budget(t->cache);
    task->solver.cache_float = t->cache_float;
    task->solver.max_iter = p->max_iter;
    task->solver.logger = t->logger;
    task->solver.partition = t->partition;
    if (p->progress) {
        task->solver.interrupted = solver_interrupted;
        task->solver.interrupt_ctx = &t->progress;
    }
    for (size_t i = 0; i < n_rows; i++) {
        size_t r = machine_rows ? machine_rows[i] : i;
        job->targets[i] = t->data->labels ? t->data->labels[data_row(t, r)] : 0.0;
        if (classes)
            job->y[i] = classes->class_of[r] == (size_t)machine->class_pos ? +1 : -1;
    }
    if (p->task == KM_TASK_SVC) {
        task->weight_pos = class_weight(p, classes->labels[machine->class_pos]);
        task->weight_neg = machine->class_neg >= 0 ? class_weight(p, classes->labels[machine->class_neg]) : 1.0;
    }
    job->problem = (km_mkl_problem){.machine = task, .mkl = t->mkl, .logger = t->logger, .record = &t->model->data,
                                    .machine_index = (size_t)(machine - t->model->machines),
                                    .progress = p->progress ? &t->progress : NULL, .n_outputs = K,
                                    .class_of = K > 1 ? classes->class_of : NULL, .seed = p->seed,
                                    .model_kernel = t->n_used < M ? t->used : NULL, .n_model_kernels = M};
    return KM_OK;
}

/* After a machine is solved (result, with the weights theta of its kernels): its weights, its block norms
 * (with learned weights) and support vectors; a kernel left out has weight and block norm 0. */
static km_status finish_machine(trainer *t, const machine_job *job, const double *theta, km_machine *machine,
                                km_mkl_result *result)
{
    model_weights(t, t->model->weight_groups, theta, machine->theta);
    if ((t->method->flags & KM_METHOD_LEARNS_WEIGHTS) && t->model->weight_groups == 1) { /* |w_m| of one weight set */
        size_t M = km_provider_n_kernels(t->provider);
        if (!(machine->block_norms = malloc(M * sizeof *machine->block_norms)))
            return km_error_nomem("block norms");
        if (!result->block_norms_valid) {
            km_status st = km_mkl_result_products(&job->problem, result);
            if (st)
                return st;
            km_mkl_block_norms(&job->problem, result->coef, result->products, job->block_norms);
        }
        model_weights(t, 1, result->block_norms_valid ? result->block_norms : job->block_norms, machine->block_norms);
    }
    return keep_support_vectors(t, machine, job->coef, job->rows, job->n_rows);
}

/* --max-time also ends an SVM solve in progress: the machine's solves stop at the deadline with the
 * feasible point reached, and its solver then ends at the time limit (several machines learning
 * shared weights share one deadline). */
static void set_deadline(const trainer *t, machine_job *jobs, size_t count)
{
    if (!(t->method->flags & KM_METHOD_LEARNS_WEIGHTS) || !(t->mkl.max_time > 0))
        return;
    double deadline = km_monotonic_seconds() + t->mkl.max_time;
    for (size_t k = 0; k < count; k++)
        jobs[k].task.solver.deadline = deadline;
}

/* A warm start's coefficients (C-SVC, whose box is [0, C w_y]): the start machine's c = y alpha, by machine
 * row, with alpha scaled by C / C_start, which keeps it in the box and keeps sum y alpha = 0. Where a
 * support vector is not among the machine's rows or a scaled alpha leaves its box (other class weights),
 * c stays 0 and the weights alone warm-start. */
static void warm_coefficients(trainer *t, machine_job *job, const km_machine *from)
{
    const km_model *start = t->start;
    const km_machine_problem *task = &job->task;
    if (t->params->task != KM_TASK_SVC || outputs_of(from) > 1)
        return;
    for (size_t r = 0; r < t->n; r++)
        t->machine_row[r] = SIZE_MAX;
    for (size_t i = 0; i < job->n_rows; i++)
        t->machine_row[job->rows ? job->rows[i] : i] = i;
    double scale = task->C / start->C;
    for (size_t j = 0; j < from->n_sv; j++) {
        size_t i = t->machine_row[start->basis_train_index[from->sv[j]]];
        double upper = task->C * (i != SIZE_MAX && task->y[i] > 0 ? task->weight_pos : task->weight_neg);
        double alpha = i != SIZE_MAX ? task->y[i] * from->coef[j] * scale : -1;
        if (alpha > upper && alpha <= upper * (1 + 1e-12))
            alpha = upper; /* an alpha at its bound, rounded by the scaling */
        if (!(alpha >= 0 && alpha <= upper)) {
            memset(job->coef, 0, job->n_rows * sizeof *job->coef);
            return;
        }
        job->coef[i] = task->y[i] * alpha;
    }
}

/* A warm start's weights: the start machine's, moved onto the method's feasible set. */
static void warm_weights(const trainer *t, const km_machine *from, double *theta)
{
    used_weights(t, 1, from->theta, theta);
    t->method->warm_start(&t->mkl, &t->start->mkl, t->n_used, theta);
}

/* Solves one machine on the given provider rows (NULL: all) and stores its coefficients, by provider
 * row, in machine->coef/sv (sv holds provider rows until the basis is built). */
static km_status solve_machine(trainer *t, km_machine *machine, const size_t *machine_rows, size_t n_rows,
                               const km_classes *classes)
{
    machine_job job = {0};
    double *theta = malloc(t->n_used * t->model->weight_groups * sizeof *theta);
    km_status st = theta ? KM_OK : km_error_nomem("kernel weights");
    if (!st) {
        used_weights(t, 1, t->theta, theta);
        st = job_init(t, &job, machine, machine_rows, n_rows, classes, theta);
    }
    const km_machine *from = t->start ? &t->start->machines[machine - t->model->machines] : NULL;
    if (!st && from) {
        warm_weights(t, from, theta);
        warm_coefficients(t, &job, from);
    }
    km_mkl_result result = {.coef = job.coef, .products = job.products, .block_norms = job.block_norms};
    set_deadline(t, &job, 1);
    km_provider_focus(t->provider, machine_rows, n_rows);
    if (!st)
        st = solve_problem(t, &job.problem, machine, &result, from != NULL);
    km_provider_unfocus(t->provider);
    if (!st)
        st = finish_machine(t, &job, theta, machine, &result);
    job_clear(&job);
    free(theta);
    return st;
}

/* Rows of the classes of a one-vs-one pair, in training order. */
static size_t pair_rows(const km_classes *classes, size_t n, km_binary_problem pb, size_t *rows)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (classes->class_of[i] == (size_t)pb.class_pos || classes->class_of[i] == (size_t)pb.class_neg)
            rows[k++] = i;
    return k;
}

static int any_centered(const km_kernel_set *set)
{
    for (size_t m = 0; m < set->size; m++)
        if (set->kernels[m].center)
            return 1;
    return 0;
}

/* Data-parallel training: every part's support rows and coefficients to rank 0, which then holds the
 * machines over all rows of data (sv by data row, ascending: the parts are contiguous ranges in rank
 * order), as one process would; is_sv and the rows become data's. The others keep nothing. */
static km_status gather_parts(trainer *t)
{
    km_model *model = t->model;
    size_t count = 0;
    for (size_t k = 0; k < model->n_machines; k++)
        count += 1 + model->machines[k].n_sv * (1 + outputs_of(&model->machines[k]));
    double *mine = malloc((count ? count : 1) * sizeof *mine), *all = NULL;
    km_status st = mine ? KM_OK : km_error_nomem("the support rows to gather");
    st = km_dist_agree(st, "");
    for (size_t k = 0, at = 0; !st && k < model->n_machines; k++) {   /* n_sv, then (data row, coef...) */
        const km_machine *machine = &model->machines[k];
        size_t K = outputs_of(machine);
        mine[at++] = (double)machine->n_sv;
        for (size_t j = 0; j < machine->n_sv; j++) {
            mine[at++] = (double)data_row(t, machine->sv[j]);
            memcpy(mine + at, machine->coef + j * K, K * sizeof *mine);
            at += K;
        }
    }
    size_t bytes = 0;
    if (!st)
        st = km_dist_gather_bytes(mine, count * sizeof *mine, (void **)&all, &bytes);
    free(mine);
    if (st || km_dist_rank() != 0)
        return st;
    size_t N = t->data->n, parts = (size_t)km_dist_size(), *total = calloc(model->n_machines, sizeof *total);
    unsigned char *is_sv = calloc(N ? N : 1, 1);
    if (!total || !is_sv)
        st = km_error_nomem("the gathered support rows");
    for (size_t part = 0, at = 0; !st && part < parts; part++)   /* the machines' sizes over the parts */
        for (size_t k = 0; k < model->n_machines; k++) {
            size_t n_sv = (size_t)all[at];
            total[k] += n_sv;
            at += 1 + n_sv * (1 + outputs_of(&model->machines[k]));
        }
    for (size_t k = 0; !st && k < model->n_machines; k++) {
        km_machine *machine = &model->machines[k];
        size_t K = outputs_of(machine);
        free(machine->sv);
        free(machine->coef);
        machine->n_sv = 0;
        machine->sv = malloc((total[k] ? total[k] : 1) * sizeof *machine->sv);
        machine->coef = malloc((total[k] ? total[k] : 1) * K * sizeof *machine->coef);
        if (!machine->sv || !machine->coef)
            st = km_error_nomem("the gathered support rows");
    }
    for (size_t part = 0, at = 0; !st && part < parts; part++)
        for (size_t k = 0; k < model->n_machines; k++) {
            km_machine *machine = &model->machines[k];
            size_t K = outputs_of(machine), n_sv = (size_t)all[at++];
            for (size_t j = 0; j < n_sv; j++, machine->n_sv++) {
                size_t row = (size_t)all[at++];
                machine->sv[machine->n_sv] = row;
                memcpy(machine->coef + machine->n_sv * K, all + at, K * sizeof *all);
                at += K;
                is_sv[row] = 1;
            }
        }
    free(all);
    free(total);
    if (st) {
        free(is_sv);
        return st;
    }
    free(t->is_sv);
    t->is_sv = is_sv;
    t->rows = NULL;
    t->n = N;
    return KM_OK;
}

/* Column of a basis row in precomputed test kernels: the LIBSVM 0:id when the rows carry ids, else
 * the data row (matrices are indexed by data rows). */
static km_status basis_column(const km_dataset *data, size_t row, size_t *kcol)
{
    if (!data->ids) {
        *kcol = row;
        return KM_OK;
    }
    double id = data->ids[row];
    if (!(id >= 1 && id <= (double)data->d && id == floor(id)))
        return km_error(KM_EFORMAT, "%s: row %zu: precomputed-kernel id 0:%g is not a column 1..%zu",
                        data->source ? data->source : "training data", row + 1, id, data->d);
    *kcol = (size_t)id - 1;
    return KM_OK;
}

/* Builds the model's basis from the support vectors of all machines (every training row when a
 * kernel is centred: test-time centering averages over all of them) and re-indexes machine->sv. */
static km_status build_basis(trainer *t)
{
    km_model *model = t->model;
    /* localized weights: test memberships compare test rows with every training row */
    int all_rows = any_centered(model->kernels) || model->weight_groups > 1;
    size_t *basis_rows = malloc(t->n * sizeof *basis_rows);
    size_t *position = malloc(t->n * sizeof *position);
    /* per basis row, its training row (kept in memory for warm starts) */
    size_t *train_index = model->train_rows ? malloc(t->n * sizeof *train_index) : NULL;
    km_status st = KM_OK;
    if (!basis_rows || !position || (model->train_rows && !train_index))
        st = km_error_nomem("the support-vector basis");
    size_t nb = 0;
    for (size_t r = 0; !st && r < t->n; r++) {
        if (all_rows || t->is_sv[r]) {
            position[r] = nb;
            if (train_index)
                train_index[nb] = r;
            basis_rows[nb++] = data_row(t, r);
        }
    }
    if (!st && nb == 0) {
        /* every coefficient is zero (e.g. constant decision): keep one row so the basis is not empty */
        position[0] = 0;
        if (train_index)
            train_index[0] = 0;
        basis_rows[nb++] = data_row(t, 0);
    }
    model->basis_train_index = train_index;
    if (!st)
        st = km_dataset_subset(t->data, basis_rows, nb, &model->basis);
    if (!st && !(model->basis_kcol = malloc(nb * sizeof *model->basis_kcol)))
        st = km_error_nomem("the support-vector basis");
    for (size_t j = 0; !st && j < nb; j++)
        st = basis_column(t->data, basis_rows[j], &model->basis_kcol[j]);
    for (size_t k = 0; !st && k < model->n_machines; k++) {
        km_machine *machine = &model->machines[k];
        for (size_t j = 0; j < machine->n_sv; j++)
            machine->sv[j] = position[machine->sv[j]];
    }
    free(basis_rows);
    free(position);
    return st;
}

/* The model keeps no pointer to training matrices: precomputed kernels from a matrix are marked by a
 * name so that prediction asks for their test kernels. */
static km_status detach_matrices(km_kernel_set *set)
{
    for (size_t m = 0; m < set->size; m++) {
        km_kernel *k = &set->kernels[m];
        if (k->type == KM_KERNEL_PRECOMPUTED && k->matrix && !k->file && !(k->file = strdup("(in-memory matrix)")))
            return km_error_nomem("a kernel name");
        k->matrix = NULL;
    }
    return KM_OK;
}

/* Every class weight (-wLABEL) names a class of the data set (of all its rows: a fold's rows may lack
 * a class the data has). */
static km_status check_class_weights(const trainer *t, const km_classes *classes)
{
    const km_params *p = t->params;
    for (size_t k = 0; k < p->n_class_weights; k++) {
        double label = p->class_weight_labels[k];
        size_t i = 0;
        while (i < t->data->n && t->data->labels[i] != label)
            i++;
        if (i < t->data->n)
            continue;
        char present[256];
        int used = 0;
        for (size_t c = 0; c < classes->n_classes && used < (int)sizeof present - 32; c++)
            used += snprintf(present + used, sizeof present - (size_t)used, "%s%.17g", c ? ", " : "",
                             classes->labels[c]);
        if (used >= (int)sizeof present - 32)
            snprintf(present + used, sizeof present - (size_t)used, ", ...");
        return km_error(KM_EINVAL, "%s: -w%.17g: no row has class %.17g (the classes are %s)",
                        t->data->source ? t->data->source : "training data", label, label, present);
    }
    return KM_OK;
}

static km_status setup_machines(trainer *t, km_classes *classes)
{
    const km_params *p = t->params;
    km_model *model = t->model;
    size_t M = km_provider_n_kernels(t->provider);
    if (km_task_classifies(p->task)) {
        /* rows split over processes: the classes of every row, so that every part orders them alike */
        size_t n = t->partition ? t->data->n : t->n;
        double *labels = malloc(n * sizeof *labels);
        if (!labels)
            return km_error_nomem("labels");
        for (size_t i = 0; i < n; i++)
            labels[i] = t->data->labels[t->partition ? i : data_row(t, i)];
        km_status st = km_classes_find(labels, n, classes);
        free(labels);
        for (size_t i = 0; !st && t->partition && i < t->n; i++)   /* then those of the part's rows */
            classes->class_of[i] = classes->class_of[data_row(t, i)];
        if (st)
            return st;
        if (classes->n_classes < 2)
            return km_error(KM_EINVAL, "%s: all %zu training rows have label %g; classification needs two classes",
                            t->data->source ? t->data->source : "training data", t->n, classes->labels[0]);
        if ((st = check_class_weights(t, classes)))
            return st;
        model->n_classes = classes->n_classes;
        if (!(model->labels = malloc(classes->n_classes * sizeof *model->labels)))
            return km_error_nomem("class labels");
        memcpy(model->labels, classes->labels, classes->n_classes * sizeof *model->labels);
        int joint = (t->method->flags & KM_METHOD_JOINT_MULTICLASS) && classes->n_classes > 2;
        if (p->multiclass == KM_MULTICLASS_JOINT && !(t->method->flags & KM_METHOD_JOINT_MULTICLASS))
            return km_error(KM_EINVAL, "--multiclass joint needs a method with a multiclass loss (--mkl obscure)");
        if (joint && p->probability)
            return km_error(KM_EINVAL, "probability models (-b 1) need one-vs-one machines; --mkl %s trains one "
                            "machine for all %zu classes", km_enum_name(KM_ENUM_MKL_METHOD, t->mkl.method),
                            classes->n_classes);
        if (joint)
            model->multiclass = KM_MULTICLASS_JOINT;
        model->n_machines = km_binary_problem_count(classes->n_classes, model->multiclass);
    } else {
        model->n_machines = 1;
    }
    if (!(model->machines = calloc(model->n_machines, sizeof *model->machines)))
        return km_error_nomem("machines");
    for (size_t k = 0; k < model->n_machines; k++) {
        km_machine *machine = &model->machines[k];
        if (!(machine->theta = malloc(M * model->weight_groups * sizeof *machine->theta)))
            return km_error_nomem("kernel weights");
        if (km_task_classifies(p->task)) {
            km_binary_problem pb = km_binary_problem_at(classes->n_classes, model->multiclass, k);
            machine->class_pos = pb.class_pos;
            machine->class_neg = pb.class_neg;
            if (model->multiclass == KM_MULTICLASS_JOINT && classes->n_classes > 2) {
                machine->n_outputs = classes->n_classes;
                if (!(machine->biases = calloc(machine->n_outputs, sizeof *machine->biases)))
                    return km_error_nomem("biases");
            }
        } else {
            machine->class_pos = machine->class_neg = -1;
        }
    }
    return KM_OK;
}

/* Provider rows of a machine (a one-vs-one pair of more than two classes) in rows, or NULL: all rows. */
static const size_t *machine_rows_of(const trainer *t, const km_machine *machine, const km_classes *classes,
                                     size_t *rows, size_t *n_rows)
{
    *n_rows = t->n;
    if (!km_task_classifies(t->params->task) || machine->class_neg < 0 || classes->n_classes <= 2)
        return NULL;
    km_binary_problem pb = {machine->class_pos, machine->class_neg};
    *n_rows = pair_rows(classes, t->n, pb, rows);
    return rows;
}

/* Logs machine k and reports progress (KM_EINTERRUPTED when the caller asks to stop). */
static km_status machine_done(trainer *t, size_t k)
{
    const km_model *model = t->model;
    const km_machine *machine = &model->machines[k];
    km_log(&t->logger, KM_LOG_INFO, "machine %zu/%zu: objective %.10g, %zu support vectors%s, %ld iterations", k + 1,
           model->n_machines, machine->objective, machine->n_sv, t->partition ? " among this process's rows" : "",
           machine->iterations);
    if (km_progress_report(&t->progress, "machine"))
        return km_error(KM_EINTERRUPTED, "training interrupted");
    return KM_OK;
}

static km_status train_machines(trainer *t, const km_classes *classes)
{
    km_model *model = t->model;
    size_t *rows = malloc(t->n * sizeof *rows);
    if (!rows)
        return km_error_nomem("machine rows");
    km_status st = KM_OK;
    for (size_t k = 0; !st && k < model->n_machines; k++) {
        km_machine *machine = &model->machines[k];
        size_t n_rows;
        const size_t *machine_rows = machine_rows_of(t, machine, classes, rows, &n_rows);
        km_progress_machine(&t->progress, k, model->n_machines);
        if (km_progress_report(&t->progress, "start"))
            st = km_error(KM_EINTERRUPTED, "training interrupted");
        if (!st)
            st = solve_machine(t, machine, machine_rows, n_rows, km_task_classifies(t->params->task) ? classes : NULL);
        if (!st)
            st = machine_done(t, k);
    }
    free(rows);
    return st;
}

/* Multiclass MKL with one theta for all binary machines, learned jointly (km_mkl_shared_train): every
 * machine's problem is set up at once, on one theta array. */
static km_status train_machines_shared(trainer *t, const km_classes *classes)
{
    if (!t->method->train_shared)
        return km_error(KM_EINVAL, "--mkl %s learns one set of kernel weights per machine (no shared weights)",
                        km_enum_name(KM_ENUM_MKL_METHOD, t->mkl.method));
    km_model *model = t->model;
    size_t K = model->n_machines, M = t->n_used, ready = 0;
    size_t *rows = malloc(t->n * sizeof *rows);
    machine_job *jobs = calloc(K, sizeof *jobs);
    km_mkl_problem *problems = malloc(K * sizeof *problems);
    km_mkl_result *results = calloc(K, sizeof *results);
    double *theta = malloc(M * sizeof *theta);
    km_status st = rows && jobs && problems && results && theta ? KM_OK : km_error_nomem("shared kernel weights");
    if (!st && t->start)
        warm_weights(t, &t->start->machines[0], theta);
    else if (!st)
        t->method->start(&t->mkl, M, theta);
    t->progress.now.n_machines = K; /* machine 0: all of them jointly */
    if (!st && km_progress_report(&t->progress, "start"))
        st = km_error(KM_EINTERRUPTED, "training interrupted");
    /* ready counts the jobs to clear, a failed job_init included */
    for (; !st && ready < K; ready++) {
        size_t n_rows;
        const size_t *machine_rows = machine_rows_of(t, &model->machines[ready], classes, rows, &n_rows);
        st = job_init(t, &jobs[ready], &model->machines[ready], machine_rows, n_rows, classes, theta);
        if (!st && t->start)
            warm_coefficients(t, &jobs[ready], &t->start->machines[ready]);
        problems[ready] = jobs[ready].problem;
        results[ready].coef = jobs[ready].coef;
        results[ready].products = jobs[ready].products;
    }
    set_deadline(t, jobs, ready);
    if (!st)
        st = t->method->train_shared(problems, K, results);
    for (size_t k = 0; !st && k < K; k++) {
        km_machine *machine = &model->machines[k];
        if ((st = check_finite_result(&results[k], jobs[k].n_rows)))
            break;
        store_result(machine, &results[k]);
        st = finish_machine(t, &jobs[k], theta, machine, &results[k]);
        if (!st)
            st = machine_done(t, k);
    }
    for (size_t k = 0; k < ready; k++)
        job_clear(&jobs[k]);
    free(rows);
    free(jobs);
    free(problems);
    free(results);
    free(theta);
    return st;
}

/* One machine in the probability cross-validation (train/probability.h): its rows in the folds' order. */
typedef struct fold_trainer {
    trainer *t;
    const km_machine *machine;
    const km_classes *classes;   /* NULL: regression */
    const size_t *rows;          /* machine row -> provider row */
} fold_trainer;

/* km_fold_decisions_fn: the machine solved on some of its rows with its kernel weights fixed, and its
 * decision values at others from their combined kernel columns over its support vectors. */
static km_status fold_decisions(void *ctx, const size_t *train, size_t n_train, const size_t *held, size_t n_held,
                                double *decision)
{
    const fold_trainer *fold = ctx;
    trainer *t = fold->t;
    size_t *rows = malloc(n_train * sizeof *rows);
    double *column = malloc(n_train * sizeof *column);
    double *theta = malloc(t->n_used * t->model->weight_groups * sizeof *theta);
    machine_job job = {0};
    km_status st = rows && column && theta ? KM_OK : km_error_nomem("a probability fold");
    for (size_t k = 0; !st && k < n_train; k++)
        rows[k] = fold->rows[train[k]];
    if (!st) {
        used_weights(t, t->model->weight_groups, fold->machine->theta, theta);
        st = job_init(t, &job, fold->machine, rows, n_train, fold->classes, theta);
    }
    km_svm_solution solution = {.coef = job.coef};
    if (!st)
        st = job.task.ops->solve(&job.task, &job.task.solver, &solution);
    /* the support vectors' rows and coefficients, compacted in place */
    size_t n_sv = 0;
    for (size_t k = 0; !st && k < n_train; k++) {
        if (job.coef[k] == 0.0)
            continue;
        rows[n_sv] = rows[k];
        job.coef[n_sv++] = job.coef[k];
    }
    for (size_t h = 0; !st && h < n_held; h++) {
        if (n_sv)
            st = km_provider_combined_column(t->provider, fold->machine->theta, fold->rows[held[h]], rows, n_sv, column);
        double f = solution.bias;
        for (size_t k = 0; !st && k < n_sv; k++)
            f += job.coef[k] * column[k];
        decision[h] = f;
    }
    job_clear(&job);
    free(theta);
    free(rows);
    free(column);
    return st;
}

/* Probability models of every machine (-b 1), their folds drawn in machine order from one sequence
 * seeded by the seed (its two 32-bit halves combined; seed 0 draws LIBSVM's folds). */
static km_status fit_probabilities(trainer *t, const km_classes *classes)
{
    km_model *model = t->model;
    size_t n = t->n, P = model->n_machines;
    int classifies = km_task_classifies(t->params->task);
    size_t *rows = malloc(n * sizeof *rows);
    unsigned char *positive = malloc(n);
    double *targets = malloc(n * sizeof *targets);
    km_status st = rows && positive && targets ? KM_OK : km_error_nomem("probability models");
    if (!st && classifies) {
        model->sigmoid_a = malloc(P * sizeof *model->sigmoid_a);
        model->sigmoid_b = malloc(P * sizeof *model->sigmoid_b);
        if (!model->sigmoid_a || !model->sigmoid_b)
            st = km_error_nomem("probability models");
    }
    km_libc_rand rand;
    km_libc_rand_seed(&rand, (uint32_t)(t->params->seed ^ (t->params->seed >> 32)));
    for (size_t p = 0; !st && p < P; p++) {
        const km_machine *machine = &model->machines[p];
        size_t m = 0;
        for (int side = 0; classifies && side < 2; side++) {
            size_t class_index = (size_t)(side == 0 ? machine->class_pos : machine->class_neg);
            for (size_t r = 0; r < n; r++) {
                if (classes->class_of[r] != class_index)
                    continue;
                rows[m] = r;
                positive[m++] = side == 0;
            }
        }
        for (size_t r = 0; !classifies && r < n; r++) {
            rows[m] = r;
            targets[m++] = t->data->labels[data_row(t, r)];
        }
        fold_trainer fold = {t, machine, classifies ? classes : NULL, rows};
        km_probability_cv cv = {.n = m, .positive = classifies ? positive : NULL, .targets = targets,
                                .decisions = fold_decisions, .decisions_ctx = &fold, .rand = &rand,
                                .logger = t->logger};
        st = classifies ? km_probability_fit_sigmoid(&cv, &model->sigmoid_a[p], &model->sigmoid_b[p])
                        : km_probability_fit_laplace(&cv, &model->laplace_sigma);
    }
    model->probability = !st;
    free(rows);
    free(positive);
    free(targets);
    return st;
}

/* Rows the alignments are computed on: evenly spaced over the training rows, at most this many, and
 * at most sqrt(KM_ALIGNMENT_MAX_VALUES / M) so that the passes over the M kernels on n rows (M n^2
 * values, twice) stay well below training time (1000 kernels: 518 rows). */
#define KM_ALIGNMENT_MAX_ROWS 2000
#define KM_ALIGNMENT_MAX_VALUES ((double)(1 << 28))
/* The M x M alignments between kernels are stored for at most this many kernels: beyond, their
 * O(M^2 n^2) cost would exceed training (1000 kernels on 1000 rows: 10^12 flops) and the table would
 * not be readable; the alignments with the labels are always stored. */
#define KM_ALIGNMENT_MATRIX_MAX_KERNELS 100

/* One target vector (two classes as +-1 from their indicator columns, or the regression targets): the
 * statistics of info's alignment diagnostics, and from them the model's alignments, in the statistics'
 * two passes over the kernels. */
static km_status store_target_statistics(km_model *model, const km_kernel_access *access, int rank1, size_t T,
                                         double *targets, int pairs)
{
    for (size_t i = 0; T == 2 && i < access->n_rows; i++)
        targets[i] = targets[i * T] - targets[i * T + 1];
    km_alignment_stats s;
    km_status st = km_kernel_alignment_stats(access, rank1, targets, pairs, &s);
    if (st)
        return st;
    km_alignments_of_stats(&s, model->kernel_alignment, model->target_alignment);
    st = km_model_store_target_alignment(model, &s);
    km_alignment_stats_free(&s);
    return st;
}

/* Centred alignments of the kernels with each other and with the labels on the training rows, for the
 * model's diagnostics: classification uses one indicator column per class, regression the targets,
 * one-class has no target. */
static km_status store_alignments(trainer *t, const km_classes *classes)
{
    km_model *model = t->model;
    size_t M = km_provider_n_kernels(t->provider);
    size_t n = (size_t)fmin(fmin((double)t->n, KM_ALIGNMENT_MAX_ROWS), floor(sqrt(KM_ALIGNMENT_MAX_VALUES / (double)M)));
    size_t T = km_task_classifies(t->params->task) ? classes->n_classes : (size_t)km_task_regresses(t->params->task);
    size_t *rows = malloc(n * sizeof *rows);
    double *targets = T ? calloc(n * T, sizeof *targets) : NULL;
    int pairs = M <= KM_ALIGNMENT_MATRIX_MAX_KERNELS;
    if (!pairs && !T)
        return KM_OK;
    model->kernel_alignment = pairs ? malloc(M * M * sizeof *model->kernel_alignment) : NULL;
    model->target_alignment = T ? malloc(M * sizeof *model->target_alignment) : NULL;
    km_kernel_view *view = NULL;
    km_status st = KM_OK;
    if (!rows || (pairs && !model->kernel_alignment) || (T && (!targets || !model->target_alignment)))
        st = km_error_nomem("kernel alignments");
    for (size_t i = 0; !st && i < n; i++) {
        size_t r = rows[i] = (size_t)((double)i * (double)t->n / (double)n);
        if (km_task_classifies(t->params->task))
            targets[i * T + classes->class_of[r]] = 1.0;
        else if (T)
            targets[i] = t->data->labels[data_row(t, r)];
    }
    if (!st)
        st = km_kernel_view_new(t->provider, n < t->n ? rows : NULL, n, &view);
    if (!st) {
        km_kernel_access columns = km_kernel_access_from_view(view, t->theta);
        km_interruptible_access polled;
        km_interruptible_access_init(&polled, &columns, alignment_interrupted, &t->progress, "the kernel alignments");
        if (T == 1 || T == 2)
            st = store_target_statistics(model, &polled.access, km_rank1_access(&columns), T, targets, pairs);
        else
            st = km_alignments(&polled.access, T, targets, model->kernel_alignment, model->target_alignment);
    }
    km_kernel_view_free(view);
    free(rows);
    free(targets);
    return st;
}

/* A localized method clusters all training rows once for every machine: one-vs-one machines of more
 * than two classes (on subsets) and probability folds (on fold subsets) are refused. */
static km_status check_weight_groups(const trainer *t)
{
    const km_params *p = t->params;
    const char *name = km_enum_name(KM_ENUM_MKL_METHOD, t->mkl.method);
    if (t->method->flags & KM_METHOD_KMEANS_CLUSTERS) {
        km_status st = km_clusters_check(&t->mkl, t->n, t->data->source);
        if (st)
            return st;
    }
    if (p->probability)
        return km_error(KM_EINVAL, "--mkl %s fits no probability models (-b 1)", name);
    if (km_task_classifies(p->task) && p->multiclass == KM_MULTICLASS_OVO) {
        km_classes classes = {0};
        double *labels = malloc(t->n * sizeof *labels);
        km_status st = labels ? KM_OK : km_error_nomem("labels");
        for (size_t i = 0; !st && i < t->n; i++)
            labels[i] = t->data->labels[data_row(t, i)];
        if (!st)
            st = km_classes_find(labels, t->n, &classes);
        if (!st && classes.n_classes > 2)
            st = km_error(KM_EINVAL, "--mkl %s trains more than two classes one-vs-rest (--multiclass ovr)", name);
        km_classes_clear(&classes);
        free(labels);
        return st;
    }
    return KM_OK;
}

/* Float values for the fixed combination when asked for, or by default when its n×n matrix does not
 * fit in the solver's budget as double (measured at N = 5,000 with 10 RBF kernels and -m 100: the whole
 * float matrix trains in a third of the time of the double LRU cache; bench/NOTES.md). */
static int use_float_cache(const trainer *t, size_t n)
{
    km_cache_values values = t->params->cache_values;
    if ((t->method->flags & KM_METHOD_LEARNS_WEIGHTS) || values == KM_CACHE_DOUBLE)
        return 0;
    return values == KM_CACHE_FLOAT || n > km_cache_budget(t->cache) / n / sizeof(double);
}

size_t km_params_cache_bytes(const km_params *params)
{
    double bytes = params->cache_mb * 1048576.0;
    return bytes > 0 ? bytes < (double)SIZE_MAX ? (size_t)bytes : SIZE_MAX : 0;
}

/* Whether the model start may warm-start this training (km_train_rows_in_context_from): trained in the
 * same kernel context on the same rows, with the same task, method (one that takes a warm start), kernels
 * learned on, classes and machines, one weight set per machine. */
static int warm_start_fits(const trainer *t, const km_model *start, const km_kernel_context *context)
{
    const km_model *model = t->model;
    if (!start || !context || start->context != context || !start->basis_train_index || !t->method->warm_start ||
        start->n_train_rows != t->n || start->task != model->task || start->mkl.method != t->mkl.method ||
        start->multiclass != model->multiclass || start->n_classes != model->n_classes ||
        start->n_machines != model->n_machines || start->weight_groups != 1 || model->weight_groups != 1 ||
        start->kernels->size != model->kernels->size || !(start->C > 0))
        return 0;
    for (size_t i = 0; i < t->n; i++)
        if (start->train_rows[i] != data_row(t, i))
            return 0;
    for (size_t c = 0; c < model->n_classes; c++)
        if (start->labels[c] != model->labels[c])
            return 0;
    for (size_t k = 0; k < model->n_machines; k++) {
        const km_machine *a = &start->machines[k], *b = &model->machines[k];
        if (a->class_pos != b->class_pos || a->class_neg != b->class_neg || outputs_of(a) != outputs_of(b))
            return 0;
    }
    return 1;
}

/* A model trained in a context keeps the context and its training rows, for warm starts. */
static km_status keep_training_rows(const trainer *t, const km_kernel_context *context)
{
    km_model *model = t->model;
    model->context = context;
    if (!(model->train_rows = malloc(t->n * sizeof *model->train_rows)))
        return km_error_nomem("the training rows");
    model->n_train_rows = t->n;
    for (size_t i = 0; i < t->n; i++)
        model->train_rows[i] = data_row(t, i);
    return KM_OK;
}

km_status km_train_check_inputs(const km_dataset *data, const size_t *rows, size_t n, const km_kernel_set *kernels,
                                const km_params *params)
{
    if (n == 0)
        return km_error(KM_EINVAL, "no training rows");
    if (!kernels || kernels->size == 0)
        return km_error(KM_EINVAL, "no kernels given");
    km_status st = km_params_check(params, kernels->size);
    if (!st)
        st = km_check_predictable_kernels(kernels);
    if (st)
        return st;
    if (params->task != KM_TASK_ONECLASS && !data->labels)
        return km_error(KM_EINVAL, "%s: training data has no labels", data->source ? data->source : "training data");
    if ((params->task == KM_TASK_SVR || params->task == KM_TASK_KRR) && (st = km_check_targets(data, rows, n)))
        return st;
    if ((st = km_probability_check(params)))
        return st;
    if (km_kernels_read_features(kernels) && (st = km_dataset_check_magnitude(data, rows, n)))
        return st;
    return KM_OK;
}

/* km_train_rows, on the kernel context's budget and Gram matrices when context is given, warm-started from
 * start where it fits (warm_start_fits; NULL: cold). */
static km_status train_rows(const km_dataset *data, const size_t *rows, size_t n, const km_kernel_set *kernels,
                            km_kernel_context *context, const km_params *params, const km_model *start,
                            const km_row_partition *partition, km_model **out)
{
    *out = NULL;
    if (!rows)
        n = data->n;
    km_status st = km_train_check_inputs(data, rows, n, kernels, params);
    if (st)
        return st;

    trainer t = {.data = data, .rows = rows, .n = n, .params = params, .partition = partition,
                 .logger = {params->log, params->log_user}};
    km_progress_init(&t.progress, params->progress, params->progress_user);
    km_mkl_params given = km_mkl_params_of(params);
    if ((st = km_mkl_resolve(&given, &t.mkl)))
        return st;
    t.method = km_mkl_method_of(t.mkl.method);
    t.mkl.cluster_seed = params->seed;
    if (t.method->weight_groups && (st = check_weight_groups(&t)))
        return st;
    const km_machine_ops *ops = km_machine_ops_of(params->task);
    if ((t.method->flags & KM_METHOD_LEARNS_WEIGHTS) && !ops->loss)
        return km_error(KM_EINVAL, "%s trains with fixed kernel weights only: it has no MKL certificate, so --mkl %s "
                        "cannot learn its weights (use C-SVC or epsilon-SVR, or --mkl fixed)", ops->name,
                        km_enum_name(KM_ENUM_MKL_METHOD, t.mkl.method));
    if (!km_task_classifies(params->task) && params->n_class_weights)
        return km_error(KM_EINVAL, "-w%.17g: class weights are for classifiers; %s has no classes",
                        params->class_weight_labels[0], ops->name);
    if ((t.method->flags & KM_METHOD_NO_CLASS_WEIGHTS) && params->n_class_weights)
        return km_error(KM_EINVAL, "--mkl %s does not weight the classes (its losses have no per-class C): drop -w",
                        km_enum_name(KM_ENUM_MKL_METHOD, t.mkl.method));
    km_classes classes = {0};
    /* with fixed weights the solver caches combined columns (or the whole combined matrix), so the
     * provider keeps no Gram matrix beside them, nor for a method that reads blocks of rows; learned
     * weights need the base kernels */
    unsigned flags = t.method->flags;
    km_provider_use use = !(flags & KM_METHOD_LEARNS_WEIGHTS) || (flags & KM_METHOD_READS_ROW_BLOCKS) ? KM_PROVIDER_COMBINED
                                                                                                     : KM_PROVIDER_PER_KERNEL;
    if (context)
        t.cache = km_kernel_context_cache(context);
    else
        st = km_cache_new(km_params_cache_bytes(params), &t.cache);
    if (!st)   /* how the low-rank kernels' features are held (kernel/provider.c) */
        km_cache_set_values(t.cache, params->cache_values);
    if (!st && km_progress_report(&t.progress, "kernels"))
        st = km_error(KM_EINTERRUPTED, "training interrupted");
    if (!st) {
        t.cache_float = use_float_cache(&t, n);
        st = context ? km_provider_new_in_context(context, rows, n, use, &t.logger, &t.provider)
                     : km_provider_new_shared(data, rows, n, kernels, t.cache, use, &t.logger, &t.provider);
    }
    if (partition && km_row_partition_failed(partition, st != KM_OK) && !st)   /* the parts go on together */
        st = km_error(KM_EINVAL, KM_DIST_FAILED_ELSEWHERE " to compute its rows' features");
    size_t M = kernels->size;
    if (!st && !(t.used = malloc(M * sizeof *t.used)))
        st = km_error_nomem("the kernel list");
    for (size_t m = 0; !st && m < M; m++)
        t.used[t.n_used++] = m;
    /* a localized method weighs beta(x) beta(x') k(x,x') (memberships or gates): there a constant k is the
     * memberships' own kernel, not a constant one, so it keeps every kernel; so does a training on rows
     * split over processes, each of which would judge its own rows */
    if (!st && (t.method->flags & KM_METHOD_LEARNS_WEIGHTS) && !t.method->weight_groups && !partition)
        st = km_mkl_informative_kernels(t.provider, &t.logger, t.used, &t.n_used);
    if (!st && t.method->fit_defaults)
        t.method->fit_defaults(&t.mkl, t.n_used);
    if (!st)
        st = km_model_alloc(&t.model);
    if (!st) {
        t.theta = malloc(M * sizeof *t.theta);
        t.is_sv = calloc(n, 1);
        if (!t.theta || !t.is_sv)
            st = km_error_nomem("training state");
    }
    for (size_t m = 0; !st && m < M; m++)
        t.theta[m] = params->kernel_weights ? params->kernel_weights[m] : 1.0;
    if (!st) {
        km_model *model = t.model;
        model->task = params->task;
        model->multiclass = params->multiclass;
        model->C = params->C;
        model->epsilon = params->epsilon;
        model->nu = params->nu;
        model->tolerance = params->tolerance;
        model->mkl = t.mkl;
        model->weight_groups = t.method->weight_groups ? t.method->weight_groups(&t.mkl, M) : 1;
        model->n_train = data->n;
        st = km_kernel_set_copy(km_provider_fitted_set(t.provider), &model->kernels);
    }
    if (!st)
        st = km_model_record_input(t.model, data);
    if (!st)
        st = detach_matrices(t.model->kernels);
    if (!st && context)
        st = keep_training_rows(&t, context);
    if (!st)
        st = setup_machines(&t, &classes);
    if (!st && warm_start_fits(&t, start, context)) {
        t.start = start;
        if (!(t.machine_row = malloc(n * sizeof *t.machine_row)))
            st = km_error_nomem("a warm start");
    }
    /* a context's models only score; the alignments of rows split over processes are not computed */
    if (!st && (t.method->flags & KM_METHOD_LEARNS_WEIGHTS) && !context && !partition)
        st = store_alignments(&t, &classes);
    if (!st)
        st = t.mkl.shared_weights && (t.method->flags & KM_METHOD_LEARNS_WEIGHTS) && t.model->n_machines > 1
                 ? train_machines_shared(&t, &classes)
                 : train_machines(&t, &classes);
    if (!st && params->probability)
        st = fit_probabilities(&t, &classes);
    if (!st && partition)
        st = gather_parts(&t);
    if (!st && partition && km_dist_rank() != 0) {   /* the model is rank 0's */
        km_model_free(t.model);
        t.model = NULL;
    } else if (!st) {
        st = build_basis(&t);
    }
    km_classes_clear(&classes);
    km_provider_free(t.provider);
    if (!context)
        km_cache_free(t.cache);
    free(t.theta);
    free(t.used);
    free(t.is_sv);
    free(t.machine_row);
    if (st) {
        km_model_free(t.model);
        return st;
    }
    *out = t.model;
    return KM_OK;
}

km_status km_train_rows(const km_dataset *data, const size_t *rows, size_t n, const km_kernel_set *kernels,
                        const km_params *params, km_model **out)
{
    return train_rows(data, rows, n, kernels, NULL, params, NULL, NULL, out);
}

km_status km_train_rows_partitioned(const km_dataset *data, const size_t *rows, size_t n, const km_kernel_set *fitted,
                                    const km_params *params, const km_row_partition *partition, km_model **out)
{
    return train_rows(data, rows, n, fitted, NULL, params, NULL, partition, out);
}

km_status km_train_rows_in_context(km_kernel_context *context, const size_t *rows, size_t n, const km_params *params,
                                   km_model **out)
{
    return km_train_rows_in_context_from(context, rows, n, params, NULL, out);
}

km_status km_train_rows_in_context_from(km_kernel_context *context, const size_t *rows, size_t n,
                                        const km_params *params, const km_model *start, km_model **out)
{
    return train_rows(km_kernel_context_data(context), rows, n, km_kernel_context_set(context), context, params, start,
                      NULL, out);
}

km_status km_train(const km_dataset *train, const km_kernel_set *kernels, const km_params *params, km_model **out)
{
    km_warn_suspect_labels(train, params);
    return km_train_rows(train, NULL, 0, kernels, params, out);
}
