/* kernelmix train: learns a model from a training file (or cross-validates with -v). */
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "train_options.h"

static const char *const CMD = "train";

/* SIGINT/SIGTERM ask the solver to stop at its next check; no model is written then. */
static volatile sig_atomic_t stop_requested;

static void request_stop(int signal_number)
{
    (void)signal_number;
    stop_requested = 1;
}

/* The library's progress: drawn on the progress line and written to the trace (user: a cli_trace); a
 * requested stop is answered here. */
static int show_progress(void *user, const km_progress *progress)
{
    cli_trace_step(user, progress);
    cli_progress_training(progress);
    return stop_requested;
}

/* Exit status of a run stopped by a signal: 128 + SIGINT, as shells report it. */
static int interrupted(void)
{
    cli_error(CMD, "interrupted; no model written");
    return 128 + SIGINT;
}

static void catch_stop_signals(void)
{
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = request_stop;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
}


static const char INTRO[] =
"usage: kernelmix train [options] TRAIN_FILE [MODEL_FILE]\n"
"\n"
"Trains an SVM on a combination of kernels sum_m d_m k_m and writes MODEL_FILE\n"
"(default: TRAIN_FILE.model; '-': standard output, the summary then on standard error;\n"
"TRAIN_FILE '-': standard input). TRAIN_FILE is LIBSVM sparse format, or CSV (--format csv\n"
"or a .csv name). Options follow LIBSVM's svm-train where the meaning is the same\n"
"(note -g's default below); every number may be written B^k, e.g. -c 2^3. An option\n"
"the task (-s) or the kernel-weight method (--mkl) does not read is refused, naming the\n"
"tasks or methods that read it. 'kernelmix train --help --mkl METHOD' shows one method's\n"
"options.\n";

static const char KERNEL_HELP[] =
"kernels (several give a combination; see 'kernelmix kernel --help' for the spec language):\n"
"  --kernel SPEC      add the kernels of SPEC, e.g. 'rbf:gamma=2^-3..2^3', 'poly:degree=1,2,3',\n"
"                     'linear:features=1-10', 'precomputed:file=K.bin' (repeatable)\n"
"  --kernels FILE     add one spec per line of FILE (repeatable; kernels are numbered in the\n"
"                     order of the --kernel and --kernels options)\n"
"  --norm NORM        normalization of every kernel (--kernel, --kernels or -t) whose spec\n"
"                     sets none: none (default), mult (multiplicative), spherical, trace\n"
"  --landmarks N      make every linear, poly, rbf or sigmoid kernel whose spec names no\n"
"                     rank= low-rank: its Nystrom approximation on N landmark rows\n"
"  --low-rank APPROX  with --landmarks, how the landmarks are chosen: nystrom (a uniform\n"
"                     draw, default), kmeans++, leverage, icd (incomplete Cholesky pivots to\n"
"                     a trace error of 1e-3) or icd=TOL\n"
"  --weights D1,D2,.. fixed kernel weights d_m (default: uniform, d_m = 1)\n"
"  -t TYPE            single kernel as in LIBSVM when no --kernel is given: 0 linear,\n"
"                     1 polynomial, 2 RBF (default), 3 sigmoid, 4 precomputed (TRAIN_FILE\n"
"                     holds kernel rows '0:i 1:K(i,1) ...')\n"
"  -d DEGREE          -t 1 degree (default 3)\n"
"  -g GAMMA           -t 1/2/3 gamma. RBF default: 1/(mean squared distance ||x-x'||^2),\n"
"                     which differs from svm-train's 1/features: give -g to match it;\n"
"                     poly/sigmoid default: 1/features as in svm-train\n"
"  -r COEF0           -t 1/3 coef0 (default 0)\n";

static const char OTHER_HELP[] =
"  -v K               K-fold cross-validation instead of training: prints accuracy\n"
"                     (classification) or mean squared error (regression)\n"
"  --json             with -v: print one JSON line instead, {\"options\": the options as\n"
"                     given, \"metric\", \"scores\": the metric of each fold, \"mean\", \"std\"}\n"
"                     (lines of several runs appended to a file: kernelmix plot cv FILE)\n"
"  --trace FILE       write a JSON line per outer step of kernel-weight learning to FILE:\n"
"                     iteration, machine (fold under -v), seconds, objective, dual,\n"
"                     primal and relative duality gap where the method has them, weights\n"
"                     (kernelmix plot trace FILE)\n";

static const char CLOSING_HELP[] =
"  -q, --quiet        print nothing but errors: no summary, no warnings, no progress\n"
"  --verbose          print solver details on stderr; obscure: objective, training\n"
"                     error and weights after every epoch\n"
"  --help             show this help (with --mkl METHOD: that method's options)\n"
"\n"
"Warnings go to stderr at the end of the run, each once, with the range of its numbers\n"
"over the machines that gave it and how many did ('(in 45 of 45 machines)').\n"
"\n"
"  mpirun -n K kernelmix train ...   splits the training rows over K processes, on one\n"
"                     machine or the hosts of a hostfile (docs/large-scale.md): every kernel\n"
"                     low-rank; C-SVC, epsilon-SVR or KRR; fixed weights, lp and\n"
"                     elasticnet on machines without bias, or eb-rw and eb-mackay\n"
"                     (-s krr). Every process reads\n"
"                     TRAIN_FILE at the same path; rank 0 alone prints and writes the model\n"
"\n";

/* The kernel-weight parameters (those of no task or run: the method table's) a method reads, in the
 * table's order, their preferred options listed into buf. */
static void method_options(km_mkl_method method, char *buf, size_t size)
{
    size_t used = 0;
    km_param id;
    buf[0] = '\0';
    for (size_t k = 0; (id = km_param_at(k)); k++) {
        km_param_info info = KM_PARAM_INFO_INIT;
        if (!km_param_is_method_param(id) || id == KM_PARAM_MKL_METHOD || km_param_describe(id, &info) ||
            !info.options || !km_param_read_by(id, KM_TASK_SVC, method) || used >= size)
            continue;
        used += (size_t)snprintf(buf + used, size - used, "%s%.*s", used ? ", " : "",
                                 (int)strcspn(info.options, "|"), info.options);
    }
}

/* A method's paragraph: its name, what it learns and the options it reads. */
static void method_help(FILE *out, const km_mkl_method_entry *entry)
{
    char options[1024], text[2048];
    method_options(entry->id, options, sizeof options);
    snprintf(text, sizeof text, "%s%s%s", entry->help, options[0] ? ". Options: " : "", options);
    cli_help_paragraph(out, entry->name, text);
}

/* The help of the kernel-weight parameters method reads (method -1: all of them, each with the names
 * of the methods that read it where not all do). */
static void method_params_help(FILE *out, km_mkl_method method)
{
    km_param id;
    for (size_t k = 0; (id = km_param_at(k)); k++) {
        if (!km_param_is_method_param(id) || id == KM_PARAM_MKL_METHOD ||
            ((int)method >= 0 && !km_param_read_by(id, KM_TASK_SVC, method)))
            continue;
        char names[512], prefix[520] = "";
        if ((int)method < 0 && cli_param_readers(id, 0, 1, KM_TASK_SVC, method, names, sizeof names))
            snprintf(prefix, sizeof prefix, "%s: ", names);
        cli_param_help(out, id, prefix);
    }
}

/* The whole help, or (method >= 0) one method's. */
static void usage(FILE *out, km_mkl_method method)
{
    const km_mkl_method_entry *entry;
    fputs(INTRO, out);
    if ((int)method >= 0 && (entry = km_mkl_method_of(method))) {
        fputs("\nthe kernel-weight method:\n", out);
        method_help(out, entry);
        fprintf(out, "\noptions of --mkl %s:\n", entry->name);
        method_params_help(out, method);
        fputs("\n('kernelmix train --help' shows the task, kernel and solver options.)\n", out);
        return;
    }
    fputs("\ntask:\n", out);
    cli_param_help(out, KM_PARAM_TASK, NULL);
    cli_param_help(out, KM_PARAM_C, NULL);
    cli_help_paragraph(out, "--ridge L", "krr: the ridge lambda > 0 (sets C = 1/L)");
    cli_param_help(out, KM_PARAM_KRR_BIAS, NULL);
    cli_param_help(out, KM_PARAM_EPSILON, NULL);
    cli_param_help(out, KM_PARAM_NU, NULL);
    cli_help_paragraph(out, "-wLABEL WEIGHT", "multiply C of class LABEL by WEIGHT (e.g. -w1 2)");
    cli_param_help(out, KM_PARAM_MULTICLASS, NULL);
    fputs("\n", out);
    fputs(KERNEL_HELP, out);
    fputs("\nkernel weights learned jointly with the machine (multiple kernel learning):\n", out);
    cli_param_help(out, KM_PARAM_MKL_METHOD, NULL);
    for (size_t k = 0; (entry = km_mkl_method_at(k)); k++)
        method_help(out, entry);
    fputs("\noptions of the kernel-weight methods (each refused by the methods that do not read it):\n", out);
    method_params_help(out, (km_mkl_method)-1);
    fputs("\nsolver:\n", out);
    cli_param_help(out, KM_PARAM_TOLERANCE, NULL);
    cli_param_help(out, KM_PARAM_CACHE_MB, NULL);
    cli_param_help(out, KM_PARAM_CACHE_VALUES, NULL);
    cli_help_paragraph(out, "--cache-float", "the same as --cache-values float");
    cli_help_paragraph(out, "--cache-double", "the same as --cache-values double");
    cli_param_help(out, KM_PARAM_SHRINKING, NULL);
    cli_param_help(out, KM_PARAM_MAX_ITER, NULL);
    fputs("\nprobability outputs:\n", out);
    cli_param_help(out, KM_PARAM_PROBABILITY, NULL);
    fputs("\nother:\n", out);
    fputs(OTHER_HELP, out);
    cli_param_help(out, KM_PARAM_SEED, NULL);
    fputs(CLOSING_HELP, out);
    fputs(CLI_PROGRESS_HELP, out);
    fputs("\ninput:\n", out);
    fputs(CLI_INPUT_HELP, out);
    fputs("\nThe training summary prints the kernel weights, support vectors and objective.\n"
          "Exit status: 0 success, 1 failure, 2 bad usage or bad input, 130 interrupted (SIGINT or\n"
          "SIGTERM stop the solver at its next check; no model is written).\n", out);
}


/* Each fold's metric (accuracy in percent, or the mean squared error), the folds assigned as
 * km_cross_validate assigns them, the same as kernelmix cv --folds K with the same seed. */
static km_status fold_scores(const train_options *o, const km_dataset *data, const double *predicted, double *scores)
{
    size_t n = km_dataset_rows(data), k = (size_t)o->folds;
    const double *y = km_dataset_labels(data);
    int regresses = km_task_regresses((km_task)train_options_get_int(o, KM_PARAM_TASK));
    int *fold = malloc(n * sizeof *fold);
    double *truth = malloc(n * sizeof *truth), *guess = malloc(n * sizeof *guess);
    km_status st = fold && truth && guess ? KM_OK : km_error_nomem("the folds' scores");
    if (!st)
        st = km_folds(km_task_classifies((km_task)train_options_get_int(o, KM_PARAM_TASK)) ? y : NULL, n, o->folds,
                      (uint64_t)train_options_get_int(o, KM_PARAM_SEED), fold);
    for (size_t f = 0; !st && f < k; f++) {
        size_t m = 0;
        for (size_t i = 0; i < n; i++)
            if ((size_t)fold[i] == f) {
                truth[m] = y[i];
                guess[m++] = predicted[i];
            }
        scores[f] = regresses ? km_mse(truth, guess, m) : 100.0 * km_accuracy(truth, guess, m);
    }
    free(fold);
    free(truth);
    free(guess);
    return st;
}

/* --json: {"options", "metric", "scores" (each fold's metric), "mean", "std" (sample standard deviation
 * over the folds)} on one line: kernelmix cv's line of this one setting (accuracy in percent). */
static void print_cross_validation_json(const train_options *o, const double *scores, size_t k, int regresses)
{
    double mean, std;
    cli_mean_std(scores, k, &mean, &std);
    printf("{\"options\": ");
    cli_json_string(stdout, o->options_text ? o->options_text : "");
    printf(", \"metric\": \"%s\", \"scores\": [", regresses ? "mse" : "accuracy");
    for (size_t f = 0; f < k; f++) {
        printf(f ? ", " : "");
        cli_json_number(stdout, scores[f]);
    }
    printf("], \"mean\": ");
    cli_json_number(stdout, mean);
    printf(", \"std\": ");
    cli_json_number(stdout, std);
    printf("}\n");
}

/* LIBSVM's figures pooled over all rows, then each fold's with their mean and standard deviation. */
static int report_cross_validation(const train_options *o, const km_dataset *data, const double *predicted)
{
    size_t n = km_dataset_rows(data), k = (size_t)o->folds;
    const double *y = km_dataset_labels(data);
    int regresses = km_task_regresses((km_task)train_options_get_int(o, KM_PARAM_TASK));
    double *scores = malloc(k * sizeof *scores);
    km_status st = scores ? fold_scores(o, data, predicted, scores) : km_error_nomem("the folds' scores");
    if (st) {
        free(scores);
        return cli_fail(CMD, st);
    }
    if (o->json) {
        print_cross_validation_json(o, scores, k, regresses);
    } else {
        if (regresses)
            cli_print_regression_report(stdout, "Cross Validation ", "", y, predicted, n);
        else
            printf("Cross Validation Accuracy = %g%%\n", 100.0 * km_accuracy(y, predicted, n));
        double mean, std;
        cli_mean_std(scores, k, &mean, &std);
        printf("Cross Validation %s per fold:", regresses ? "Mean squared error" : "Accuracy");
        for (size_t f = 0; f < k; f++)
            printf(" %g%s", scores[f], regresses ? "" : "%");
        printf(" (mean %g%s, standard deviation %.3g)\n", mean, regresses ? "" : "%", std);
    }
    free(scores);
    return CLI_OK;
}

/* The summary goes to standard error when the model goes to standard output. */
static void print_summary(const train_options *o, const km_dataset *data, const km_model *model)
{
    FILE *out = strcmp(o->model_path, "-") ? stdout : stderr;
    size_t M = km_model_n_kernels(model);
    fprintf(out, "%s on %zu rows, %zu kernel%s", cli_task_title(km_model_task(model)), km_dataset_rows(data), M,
           M == 1 ? "" : "s");
    if (km_model_n_classes(model))
        fprintf(out, ", %zu classes", km_model_n_classes(model));
    fprintf(out, "\n");
    for (size_t m = 0; m < M; m++) {
        char spec[512];
        km_model_kernel_describe(model, m, spec, sizeof spec);
        fprintf(out, "  kernel %zu: %s\n", m + 1, spec);
    }
    int obscure = km_model_data_values(model, "obscure", "weights", NULL, NULL) != NULL;
    for (size_t k = 0; k < km_model_n_machines(model); k++) {
        km_machine_info info = KM_MACHINE_INFO_INIT;
        km_model_machine_info(model, k, &info);
        const double *w = km_model_kernel_weights(model, k);
        fprintf(out, "machine %zu: objective %.10g", k + 1, info.objective);   /* obscure: f(w) */
        if (!isnan(info.gap))
            fprintf(out, ", duality gap %.3g", info.gap);
        fprintf(out, ", %zu support vectors, kernel weights", info.n_sv);
        if (obscure)   /* d_j / sum_k d_k, the convention of the paper's figures */
            w = km_model_data_values(model, "obscure", "weights", NULL, NULL);
        for (size_t g = 0; g < km_model_weight_groups(model); g++) /* one set per cluster when localized */
            for (size_t m = 0; m < M; m++)
                fprintf(out, "%s%.6g", m == 0 && g > 0 ? " | " : " ", w[g * M + m]);
        fprintf(out, "\n");
    }
    double sigma;
    if (km_model_laplace_sigma(model, &sigma) == KM_OK)
        fprintf(out, "probability model: target = prediction + z, z Laplace with density e^(-|z|/sigma)/(2 sigma), "
               "sigma = %g\n", sigma);
    else if (km_model_has_probability(model))
        fprintf(out, "probability model: a sigmoid per machine (predict -b 1)\n");
    fprintf(out, "model written to %s (%zu support vectors)\n", strcmp(o->model_path, "-") ? o->model_path : "standard output",
            km_model_n_sv_total(model));
}

static int run(train_options *o)
{
    km_dataset *data = NULL;
    km_kernel_set *kernels = NULL;
    km_model *model = NULL;
    double *weights = NULL, *predicted = NULL;
    char *default_model_path = NULL;
    int rc = CLI_OK;
    /* under mpirun the processes split the rows (km_train_data_parallel); rank 0 alone speaks and writes */
    int lead = km_dist_rank() == 0, split = km_dist_size() > 1;
    if (!lead) {
        o->quiet = 1;
        o->progress = CLI_PROGRESS_NONE;
        o->trace_path = NULL;
    }
    cli_log log = {.cmd = CMD, .verbose = o->quiet ? 0 : o->verbose, .quiet = o->quiet};
    cli_trace trace = {0};
    km_params_set_log(o->params, cli_log_fn, &log);
    km_params_set_progress(o->params, show_progress, &trace);
    cli_progress_start(CMD, o->progress, o->quiet);
    catch_stop_signals();

    cli_inputs inputs = {0};
    if (!cli_inputs_add(CMD, &inputs, o->train_path) ||
        !cli_inputs_add_all(CMD, &inputs, o->specs.files, o->specs.n_files)) {
        rc = CLI_USAGE;
        goto done;
    }
    if (!o->model_path && !o->folds && !strcmp(o->train_path, "-")) {
        cli_error(CMD, "TRAIN_FILE is standard input ('-'): give MODEL_FILE (a name, or '-' for standard output)");
        rc = CLI_USAGE;
        goto done;
    }
    km_status st = km_params_set_class_weights(o->params, o->class_labels, o->class_weights, o->n_class_weights);
    if (!st) {
        cli_progress_show(1, "reading", -1, "reading %s", o->train_path);
        st = cli_read_data(o->train_path, &o->input, train_options_needs_precomputed_rows(o), &data);
    }
    if (!st)
        cli_progress_show(1, "kernels", -1, "preparing the kernels");
    if (!st)
        st = train_options_build_kernels(o, data, &kernels);
    if (st) {
        rc = cli_fail(CMD, st);
        goto done;
    }
    if (!train_options_check_label_column(o, data)) {
        rc = CLI_USAGE;
        goto done;
    }
    if (o->weights) {
        if (!train_options_parse_weights(CMD, o->weights, km_kernel_set_size(kernels), &weights)) {
            rc = CLI_USAGE;
            goto done;
        }
        if ((st = km_params_set_kernel_weights(o->params, weights, km_kernel_set_size(kernels)))) {
            rc = cli_fail(CMD, st);
            goto done;
        }
    }
    inputs.set = kernels;
    if (o->trace_path) {
        if (o->model_path && !strcmp(o->model_path, o->trace_path)) {
            cli_error(CMD, "option --trace: %s is also the model file", o->trace_path);
            rc = CLI_USAGE;
            goto done;
        }
        /* nor may the trace replace an existing model file under another name */
        cli_inputs model = {.paths = (const char *[]){o->model_path}, .n = o->model_path != NULL};
        if (!cli_check_output(CMD, o->trace_path, &inputs) || !cli_check_output(CMD, o->trace_path, &model)) {
            rc = CLI_USAGE;
            goto done;
        }
    }
    if (o->folds && split) {   /* every rank finds it: rank 0 says it */
        if (lead)
            cli_error(CMD, "-v under mpirun: 'mpirun -n K kernelmix cv' spreads a cross-validation over the processes");
        rc = CLI_USAGE;
        goto done;
    }
    if (o->folds) {
        if (train_options_get_int(o, KM_PARAM_PROBABILITY)) {
            cli_error(CMD, "-b 1 fits probability models for a model file; -v writes none (train without -v "
                      "for probabilities)");
            rc = CLI_USAGE;
            goto done;
        }
        if (!(predicted = malloc(km_dataset_rows(data) * sizeof *predicted))) {
            rc = cli_fail(CMD, km_error_nomem("the cross-validation predictions"));
            goto done;
        }
        if (!(st = cli_trace_open(&trace, o->trace_path)))
            st = km_cross_validate(data, kernels, o->params, o->folds, predicted);
        cli_progress_clear();
        if (!st)
            st = cli_trace_close(&trace, 1);
        cli_log_flush(&log);
        if (st)
            rc = st == KM_EINTERRUPTED ? interrupted() : cli_fail(CMD, st);
        else
            rc = report_cross_validation(o, data, predicted);
        goto done;
    }
    if (!o->model_path) {
        const char *base = strrchr(o->train_path, '/');
        base = base ? base + 1 : o->train_path;
        size_t len = strlen(base) + 7;
        if (!(default_model_path = malloc(len))) {
            rc = cli_fail(CMD, km_error_nomem("the model file name"));
            goto done;
        }
        snprintf(default_model_path, len, "%s.model", base);
        o->model_path = default_model_path;
    }
    if (!cli_check_output(CMD, o->model_path, &inputs)) {
        rc = CLI_USAGE;
        goto done;
    }
    if (!(st = cli_trace_open(&trace, o->trace_path)))
        st = split ? km_train_data_parallel(data, kernels, o->params, &model)
                   : km_train(data, kernels, o->params, &model);
    if (!st && !lead)
        goto done;
    if (!st) {
        cli_progress_show(1, "writing", 1, "writing %s", o->model_path);
        if (!(st = km_model_save(model, o->model_path)))
            st = cli_trace_close(&trace, 1);
    }
    cli_progress_clear();
    cli_log_flush(&log);
    if (st) {
        rc = st == KM_EINTERRUPTED ? interrupted() : cli_fail(CMD, st);
        goto done;
    }
    if (!o->quiet)
        print_summary(o, data, model);
done:
    cli_inputs_free(&inputs);
    cli_trace_close(&trace, 0);
    cli_progress_clear();
    cli_log_flush(&log);
    km_model_free(model);
    km_kernel_set_free(kernels);
    km_dataset_free(data);
    free(weights);
    free(predicted);
    free(default_model_path);
    return rc;
}

int cmd_train(int argc, char **argv)
{
    train_options o;
    km_status st = km_dist_start(NULL, NULL);   /* one process, or a rank of `mpirun -n K kernelmix train` */
    if (st)
        return cli_fail(CMD, st);
    if (!train_options_init(&o, CMD, 2))
        return CLI_FAILURE;
    int parsed = train_options_parse(&o, argc, argv);
    if (o.help)
        usage(stdout, o.mkl_given ? (km_mkl_method)train_options_get_int(&o, KM_PARAM_MKL_METHOD) : (km_mkl_method)-1);
    int rc = parsed < 0 ? CLI_USAGE : parsed == 0 ? CLI_OK : run(&o);
    train_options_free(&o);
    return rc;
}
