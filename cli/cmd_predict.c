/* kernelmix predict: applies a model to a test file and writes one prediction per line. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char *const CMD = "predict";

static void usage(FILE *out)
{
    fprintf(out,
"usage: kernelmix predict [options] TEST_FILE MODEL_FILE OUTPUT_FILE\n"
"\n"
"Writes one prediction per line of OUTPUT_FILE (class label, regression value, or +1/-1\n"
"for one-class). When TEST_FILE has labels, prints the accuracy (classification) or the\n"
"mean squared error (regression) like LIBSVM's svm-predict; a figure that is undefined\n"
"(the squared correlation of a constant target) is printed as 'undefined (reason)'.\n"
"A file name '-' is standard input (TEST_FILE, MODEL_FILE, a --test-kernel, one of them)\n"
"or standard output (OUTPUT_FILE: the figures then go to standard error).\n"
"\n"
"options:\n"
"  -b 0|1               1: class probabilities, as LIBSVM's svm-predict -b 1 (the model must\n"
"                       be trained with -b 1): a first line \"labels L1 L2 ...\" (the model's\n"
"                       class order), then \"LABEL P1 P2 ...\" per row, LABEL the most probable\n"
"                       class; a regression model prints its Laplace noise width (default 0)\n"
"  --variance           empirical-Bayes models (train -s krr --mkl eb-rw|eb-mackay): a second\n"
"                       column, the Gaussian-process posterior variance of the prediction,\n"
"                       sum_m d_m k_m(x,x) - k_x'(K_d + s2 I)^-1 k_x (add the model's noise s2,\n"
"                       kernelmix info, for a new target); refused for other models\n"
"  --decision-values    append the decision value(s) of every machine to each line\n"
"                       (one-vs-one pairs in LIBSVM's order; one-vs-rest: one per class)\n"
"  --test-kernel FILE   test-vs-training kernel matrix (test rows x training rows) of the\n"
"                       model's next precomputed kernel from a file (repeat in kernel order)\n"
"  -q, --quiet          print nothing but errors\n"
"  --help               show this help\n"
"\n");
    fputs(CLI_PROGRESS_HELP, out);
    fprintf(out,
"\n"
"input:\n");
    fputs(CLI_INPUT_HELP, out);
    fprintf(out,
"\n"
"TEST_FILE must describe the model's features: CSV rows with as many features as the training\n"
"rows (the label in the same column, or --label-column 0 for rows without one); LIBSVM rows\n"
"with indices up to the model's feature count (beyond it: ignored, with a warning counting\n"
"the rows, after training on LIBSVM rows; refused after training on CSV rows, whose feature\n"
"count is exact). Test labels that are none of the model's classes are counted in a warning.\n"
"\n"
"Exit status: 0 success, 1 failure, 2 bad usage or bad input.\n");
}

typedef struct predict_options {
    int decision_values;
    int probability;
    int variance;
    const char **test_kernel_paths;
    size_t n_test_kernels;
    cli_input input;
    int quiet;
    cli_progress_mode progress;
    const char *test_path, *model_path, *output_path;
} predict_options;

static int parse_options(predict_options *o, int argc, char **argv)
{
    cli_args args;
    cli_args_init(&args, CMD, argc, argv);
    const char *v;
    cli_positionals positionals = {.max = 3};
    int handled;
    while (cli_args_next_option(&args, &positionals)) {
        int ok = 1;
        if (cli_args_is(&args, NULL, "--help")) {
            usage(stdout);
            return 0;
        } else if (cli_args_is(&args, "-b", "--probability")) {
            long b;
            if ((ok = cli_parse_long(CMD, "-b", cli_args_value(&args), 0, 1, &b)))
                o->probability = (int)b;
        } else if (cli_args_is(&args, NULL, "--variance")) {
            o->variance = 1;
        } else if (cli_args_is(&args, NULL, "--decision-values")) {
            o->decision_values = 1;
        } else if (cli_args_is(&args, NULL, "--test-kernel")) {
            if ((ok = (v = cli_args_value(&args)) != NULL)) {
                const char **grown = realloc(o->test_kernel_paths, (o->n_test_kernels + 1) * sizeof *grown);
                if ((ok = grown != NULL)) {
                    grown[o->n_test_kernels++] = v;
                    o->test_kernel_paths = grown;
                } else {
                    cli_error(CMD, "out of memory");
                }
            }
        } else if ((handled = cli_data_option(&args, &o->input))) {
            ok = handled > 0;
        } else if (cli_args_is(&args, "-q", "--quiet")) {
            o->quiet = 1;
        } else if (cli_args_is(&args, NULL, "--progress")) {
            ok = cli_parse_progress(CMD, cli_args_value(&args), &o->progress);
        } else {
            cli_args_unknown(&args);
            ok = 0;
        }
        if (!ok || args.failed)
            return -1;
    }
    if (args.failed)
        return -1;
    if (!cli_positionals_given(CMD, &positionals, 3, "expected TEST_FILE MODEL_FILE OUTPUT_FILE"))
        return -1;
    o->test_path = positionals.values[0];
    o->model_path = positionals.values[1];
    o->output_path = positionals.values[2];
    return 1;
}

static int is_precomputed(const km_model *model, size_t m)
{
    km_kernel_type type;
    return km_model_kernel_type(model, m, &type) == KM_OK && type == KM_KERNEL_PRECOMPUTED;
}

/* Whether a model kernel reads its values from precomputed test rows (LIBSVM 0:id). */
static int kernel_from_rows(const km_model *model, size_t m)
{
    return is_precomputed(model, m) && !km_model_kernel_file(model, m);
}

/* Reads the --test-kernel files into the slots of the model's precomputed-from-file kernels;
 * reports its errors. */
static km_status read_test_kernels(const predict_options *o, const km_model *model, km_matrix **kernels)
{
    size_t M = km_model_n_kernels(model), next = 0;
    for (size_t m = 0; m < M; m++) {
        if (!is_precomputed(model, m) || !km_model_kernel_file(model, m))
            continue;
        if (next == o->n_test_kernels) {
            cli_error(CMD, "kernel %zu of the model is precomputed from a file: give its test kernel with "
                           "--test-kernel (%zu given)", m + 1, o->n_test_kernels);
            return KM_EINVAL;
        }
        km_status st = km_matrix_read(o->test_kernel_paths[next++], &kernels[m]);
        if (st) {
            cli_fail(CMD, st);
            return st;
        }
    }
    if (next != o->n_test_kernels) {
        cli_error(CMD, "%zu --test-kernel files given but the model has %zu precomputed kernels from files",
                  o->n_test_kernels, next);
        return KM_EINVAL;
    }
    return KM_OK;
}

/* The figures of labelled test rows on out; a figure that is undefined says so and why. */
static void report(FILE *out, const km_model *model, const km_dataset *test, const double *predicted,
                   const double *decision)
{
    size_t n = km_dataset_rows(test);
    const double *y = km_dataset_labels(test);
    if (km_task_regresses(km_model_task(model))) {
        cli_print_regression_report(out, "", " (regression)", y, predicted, n);
        return;
    }
    size_t correct = 0;
    for (size_t i = 0; i < n; i++)
        correct += predicted[i] == y[i];
    fprintf(out, "Accuracy = %g%% (%zu/%zu) (classification)\n", 100.0 * (double)correct / (double)n, correct, n);
    if (km_model_n_classes(model) > 2 || !km_task_classifies(km_model_task(model)) || !decision)
        return;
    /* binary: threshold-free figures from the decision value (positive side = first model label) */
    double *truth = malloc(n * sizeof *truth);
    if (!truth)
        return;
    double positive = km_model_labels(model)[0], auc;
    for (size_t i = 0; i < n; i++)
        truth[i] = y[i] == positive ? 1.0 : 0.0;
    fprintf(out, "Balanced accuracy = %g%%\n", 100.0 * km_balanced_accuracy(y, predicted, n));
    if (km_auc(truth, decision, n, &auc) == KM_OK)
        fprintf(out, "AUC = %g\n", auc);
    else
        fprintf(out, "AUC = undefined (the test labels hold one class)\n");
    free(truth);
}

/* Decision values of at most this many doubles are held at once: a 1000-class one-vs-one model has
 * 499,500 per row, so rows are predicted and written range by range. */
#define PREDICT_RANGE_VALUES ((size_t)1 << 22)

/* Rows per range: about 1/100 of the rows for the progress line, at least 256, within the bound. */
static size_t range_rows(size_t n, size_t nd)
{
    size_t range = n / 100 > 256 ? (n + 99) / 100 : 256, cap = PREDICT_RANGE_VALUES / (nd ? nd : 1);
    return range < cap ? range : cap ? cap : 1;
}

/* Whether -b 1 can be served (reported when not): the model has probability models. */
static int check_probability(const predict_options *o, const km_model *model, FILE *out)
{
    if (!o->probability) {
        if (km_model_has_probability(model) && !o->quiet)
            fprintf(out, "The model has probability models; predict -b 1 gives the class probabilities.\n");
        return 1;
    }
    if (km_model_has_probability(model))
        return 1;
    if (km_model_task(model) == KM_TASK_ONECLASS)
        cli_error(CMD, "%s: -b 1: one-class models have no probability outputs", o->model_path);
    else
        cli_error(CMD, "%s: -b 1: the model has no probability models (train it with -b 1)", o->model_path);
    return 0;
}

/* Whether --variance can be served (reported when not): an empirical-Bayes model. */
static int check_variance(const predict_options *o, const km_model *model)
{
    if (!o->variance || km_model_has_variance(model))
        return 1;
    cli_error(CMD, "%s: --variance: the model has no predictive variance (only -s krr with --mkl eb-rw or "
                   "eb-mackay has one)", o->model_path);
    return 0;
}

/* The buffers of one range of rows, and what the report keeps of every row. */
typedef struct predict_buffers {
    double *predicted;       /* n: every row's label or value */
    double *variance;        /* n with --variance: every row's posterior variance, else NULL */
    double *score;           /* n: the decision value of a one-machine model (for AUC), else NULL */
    double *decision;        /* range x decision values */
    double *probabilities;   /* range x classes with -b 1 for classification, else NULL */
} predict_buffers;

static km_status alloc_buffers(const predict_options *o, const km_model *model, size_t n, size_t range,
                               predict_buffers *b)
{
    size_t nd = km_model_n_decision(model), k = km_model_n_classes(model);
    b->predicted = malloc((n ? n : 1) * sizeof *b->predicted);
    b->variance = o->variance ? malloc((n ? n : 1) * sizeof *b->variance) : NULL;
    b->score = nd == 1 ? malloc((n ? n : 1) * sizeof *b->score) : NULL;
    b->decision = malloc(range * nd * sizeof *b->decision);
    int probabilities = o->probability && km_task_classifies(km_model_task(model));
    b->probabilities = probabilities ? malloc(range * k * sizeof *b->probabilities) : NULL;
    if (!b->predicted || (o->variance && !b->variance) || (nd == 1 && !b->score) || !b->decision || (probabilities && !b->probabilities))
        return km_error_nomem("the predictions");
    return KM_OK;
}

static void free_buffers(predict_buffers *b)
{
    free(b->predicted);
    free(b->variance);
    free(b->score);
    free(b->decision);
    free(b->probabilities);
}

static void write_header(const km_model *model, const predict_buffers *b, FILE *out)
{
    if (!b->probabilities)
        return;
    char value[64];
    fputs("labels", out);
    for (size_t c = 0; c < km_model_n_classes(model); c++) {
        cli_format_value(value, sizeof value, km_model_labels(model)[c]);
        fprintf(out, " %s", value);
    }
    fputc('\n', out);
}

/* The lines of rows first .. first+count-1 (the range buffers hold them from 0). */
static void write_range(const predict_options *o, const km_model *model, const predict_buffers *b, size_t first,
                        size_t count, FILE *out)
{
    size_t nd = km_model_n_decision(model), k = km_model_n_classes(model);
    char value[64];
    for (size_t t = 0; t < count; t++) {
        cli_format_value(value, sizeof value, b->predicted[first + t]);
        fputs(value, out);
        if (b->variance)
            fprintf(out, " %.17g", b->variance[first + t]);
        for (size_t c = 0; b->probabilities && c < k; c++)
            fprintf(out, " %g", b->probabilities[t * k + c]);
        for (size_t j = 0; o->decision_values && j < nd; j++)
            fprintf(out, " %.17g", b->decision[t * nd + j]);
        fputc('\n', out);
    }
}

/* Predicts range by range into the all-or-nothing output, with the rows done on the progress line;
 * -b 1 makes the predicted labels the most probable classes, as svm-predict -b 1 gives them. */
static km_status predict_to_file(const predict_options *o, const km_model *model, const km_dataset *test,
                                 const km_matrix *const *test_kernels, predict_buffers *b)
{
    size_t n = km_dataset_rows(test), nd = km_model_n_decision(model), range = range_rows(n, nd);
    km_status st = alloc_buffers(o, model, n, range, b);
    km_atomic_file out;
    /* the variance's failures come from the model, but for those of the test rows, which name them */
    if (!st && b->variance && (st = km_predict_variance(model, test, b->variance)) &&
        strncmp(km_last_error(), o->test_path, strlen(o->test_path)))
        st = km_error_in(o->model_path, st);
    if (st || (st = km_atomic_open(&out, o->output_path, "predictions")))
        return st;
    /* the model's side once (on low-rank kernels a pass over the support rows), then range by range */
    km_prediction_prep *prep = NULL;
    if ((st = km_prediction_prep_new(model, &prep))) {
        km_atomic_abort(&out);
        return st;
    }
    write_header(model, b, out.stream);
    for (size_t first = 0; !st && first < n; first += range) {
        size_t count = n - first < range ? n - first : range;
        cli_progress_show(0, "predicting", (double)first / (double)n, "rows %zu/%zu, %zu machine%s", first, n,
                          km_model_n_machines(model),
                          km_model_n_machines(model) == 1 ? "" : "s");
        st = km_predict_range_prepared(model, prep, test, first, count, test_kernels, b->predicted + first,
                                       b->decision);
        if (!st && b->probabilities)
            st = km_probability_from_decision(model, count, b->decision, b->predicted + first, b->probabilities);
        if (st)
            break;
        if (b->score)
            memcpy(b->score + first, b->decision, count * sizeof *b->decision);
        write_range(o, model, b, first, count, out.stream);
    }
    cli_progress_clear();
    km_prediction_prep_free(prep);
    if (st) {
        km_atomic_abort(&out);
        return st;
    }
    return km_atomic_commit(&out);
}

/* Warnings about what the test rows hold that the model never saw: features (ignored) and labels (the
 * accuracy then counts them as errors; none among the model's classes: it compares unrelated labels). */
static void warn_unseen(const km_model *model, const km_dataset *test, const char *name)
{
    km_test_coverage seen;
    km_model_test_coverage(model, test, &seen);
    size_t n = km_dataset_rows(test);
    if (seen.rows_beyond)
        cli_error(CMD, "warning: %s: %zu of %zu rows have features beyond the %zu the model was trained on (up to "
                       "feature %zu); prediction ignores them", name, seen.rows_beyond, n, seen.model_features,
                  seen.largest_feature);
    if (!seen.unknown_labels)
        return;
    char example[64], classes[256] = "";
    cli_format_value(example, sizeof example, seen.unknown_example);
    size_t K = km_model_n_classes(model), used = 0;
    for (size_t c = 0; c < K && used + 64 < sizeof classes; c++) {
        char value[64];
        cli_format_value(value, sizeof value, km_model_labels(model)[c]);
        used += (size_t)snprintf(classes + used, sizeof classes - used, "%s%s", c ? ", " : "", value);
    }
    if (used + 64 >= sizeof classes && K > 0)
        snprintf(classes + used, sizeof classes - used, ", ...");
    if (seen.unknown_labels == n)
        cli_error(CMD, "warning: %s: no test label is among the model's %zu classes (%s; the test rows have e.g. %s): "
                       "the accuracy compares unrelated labels", name, K, classes, example);
    else
        cli_error(CMD, "warning: %s: %zu of %zu test rows have labels that are none of the model's %zu classes "
                       "(e.g. %s): they count as errors", name, seen.unknown_labels, n, K, example);
}

static int run(const predict_options *o)
{
    km_model *model = NULL;
    km_dataset *test = NULL;
    km_matrix **test_kernels = NULL;
    predict_buffers buffers = {NULL, NULL, NULL, NULL, NULL};
    int rc = CLI_OK;
    FILE *out = strcmp(o->output_path, "-") ? stdout : stderr;   /* the figures, beside the predictions */
    cli_inputs inputs = {0};
    int checked = cli_inputs_add(CMD, &inputs, o->test_path) && cli_inputs_add(CMD, &inputs, o->model_path) &&
                  cli_inputs_add_all(CMD, &inputs, o->test_kernel_paths, o->n_test_kernels) &&
                  cli_check_output(CMD, o->output_path, &inputs);
    cli_inputs_free(&inputs);
    if (!checked)
        return CLI_USAGE;
    cli_progress_start(CMD, o->progress, o->quiet);
    cli_progress_show(1, "reading", -1, "reading %s", o->model_path);
    km_status st = km_model_load(o->model_path, &model);
    if (st) {
        rc = cli_fail(CMD, st);
        goto done;
    }
    if (!check_probability(o, model, out) || !check_variance(o, model)) {
        rc = CLI_USAGE;
        goto done;
    }
    size_t M = km_model_n_kernels(model);
    int precomputed_rows = 0;
    for (size_t m = 0; m < M; m++)
        precomputed_rows |= kernel_from_rows(model, m);
    /* without --label-column, CSV test rows have their label where the training rows had it (a model
     * not trained on CSV rows leaves the default); a last column stays "the last", so that rows with
     * fewer fields are reported as too few features */
    cli_input input = o->input;
    size_t csv_fields;
    int label;
    if (!input.label_column_given && km_model_csv_layout(model, &csv_fields, &label) == KM_OK)
        input.label_column = label >= 0 && (size_t)label + 1 == csv_fields ? -1 : label;
    /* regression targets whose squared error overflows would report MSE = inf */
    cli_progress_show(1, "reading", -1, "reading %s", o->test_path);
    if ((st = cli_read_data(o->test_path, &input, precomputed_rows, &test)) ||
        (km_model_task(model) == KM_TASK_SVR && (st = km_check_targets(test, NULL, 0)))) {
        rc = cli_fail(CMD, st);
        goto done;
    }
    if (!(test_kernels = calloc(M, sizeof *test_kernels))) {
        rc = cli_fail(CMD, km_error_nomem("the test kernels"));
        goto done;
    }
    if ((st = read_test_kernels(o, model, test_kernels))) {
        rc = st == KM_ENOMEM ? CLI_FAILURE : CLI_USAGE;
        goto done;
    }
    if ((st = predict_to_file(o, model, test, (const km_matrix *const *)test_kernels, &buffers))) {
        rc = cli_fail(CMD, st);
        goto done;
    }
    warn_unseen(model, test, o->test_path);
    double sigma;
    if (!o->quiet && o->probability && km_model_laplace_sigma(model, &sigma) == KM_OK)
        fprintf(out, "Prob. model for test data: target value = predicted value + z,\n"
               "z: Laplace distribution e^(-|z|/sigma)/(2sigma),sigma=%g\n", sigma);
    if (!o->quiet && km_dataset_labels(test))
        report(out, model, test, buffers.predicted, buffers.score);
done:
    if (test_kernels)
        for (size_t m = 0; m < km_model_n_kernels(model); m++)
            km_matrix_free(test_kernels[m]);
    free(test_kernels);
    free_buffers(&buffers);
    km_dataset_free(test);
    km_model_free(model);
    return rc;
}

int cmd_predict(int argc, char **argv)
{
    predict_options o;
    memset(&o, 0, sizeof o);
    o.input = (cli_input)CLI_INPUT_INIT;
    int parsed = parse_options(&o, argc, argv);
    int rc = parsed < 0 ? CLI_USAGE : parsed == 0 ? CLI_OK : run(&o);
    free(o.test_kernel_paths);
    return rc;
}
