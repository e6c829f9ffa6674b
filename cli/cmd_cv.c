/* kernelmix cv: chooses training options by cross-validation over a grid of settings (km_cv_run). The
 * settings are training runs: train's options, any parameter option or -g given a list or a range,
 * expanded into their Cartesian product (or lines of a --settings file), each parsed by the options
 * code of train (train_options.c) so that every value meets its parameter's bounds and readers. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "train_options.h"

static const char *const CMD = "cv";

static const char USAGE[] =
"usage: kernelmix cv [options of train] [--folds K] [--validation FILE] [--score METRIC] [--json]\n"
"                    [--refit MODEL] TRAIN_FILE\n"
"\n"
"Cross-validates every setting of a grid of training options and prints one line per setting\n"
"(the mean, standard deviation and per-split values of the score, the seconds of its fits, its\n"
"mean support vectors and kernel weights), then the best setting last. The base kernels' Gram\n"
"blocks are computed once for all settings and splits; widths and normalization are fitted on\n"
"each split's training rows only, so every result equals kernelmix train on those rows (to\n"
"the certified duality gap where a warm start, below, applies).\n"
"\n"
"the grid (docs/model-selection.md):\n"
"  Every option of 'kernelmix train --help' is accepted. A parameter option (-c, --p, --mkl,\n"
"  --lambda, --tau, -e, ...) or -g given a list or a range is a grid axis; the settings are the\n"
"  Cartesian product of the axes, the first axis varying slowest:\n"
"    a,b,c              the values as written (-c 0.5,2,8  --p 1,4/3,2,inf  --mkl lp,fixed)\n"
"    a..b, a..b:S       a, a+S, ... up to b (S defaults to 1)\n"
"    B^a..B^b:S         B^a, B^(a+S), ... up to B^b: steps on the exponent\n"
"                       (-c 2^-5..2^15:2 is 2^-5, 2^-3, ..., 2^15); ranges may be list items\n"
"  --kernels-grid A,B,...  a grid axis of kernel sets: each setting reads its base kernels from\n"
"                     one spec file, as train's --kernels FILE (-g LIST: single RBF kernels)\n"
"  --settings FILE    the settings as lines of FILE instead, each line train's options added to\n"
"                     those of the command line (lists expand there too; '#' starts a comment)\n"
"\n"
"the splits:\n"
"  --folds K          K-fold cross-validation, stratified by class for classification (default 5)\n"
"  --repeats R        repeat the K folds R times with seeds SEED, SEED+1, ... (default 1)\n"
"  --loo              leave-one-out: one fold per row (at most 500 rows)\n"
"  --validation FILE  one split instead: train on all of TRAIN_FILE, score the rows of FILE\n"
"  --nested K         nested cross-validation: on each outer split, K inner folds of its\n"
"                     training rows choose a setting, scored on the outer split's rows; prints\n"
"                     the outer scores (an unbiased estimate) and the settings chosen\n"
"  --seed S           the fold assignment's seed (train's --seed, default 0)\n"
"\n"
"warm starts:\n"
"  lp-norm MKL settings that differ only in C and p run, on each split and for each C, as a\n"
"  chain along increasing p, each starting from the previous one's kernel weights and\n"
"  coefficients; each result equals a cold training within the certified duality gaps, and\n"
"  the results are the same for any number of MPI ranks\n"
"  --cold             train every setting and split cold (no warm starts)\n"
"  --threads T        train T chains at once, on T threads, each with a 1/T share of the -m\n"
"                     budget beyond the Gram matrices that all share (default: OMP_NUM_THREADS,\n"
"                     else the cores; under mpirun, per rank)\n"
"\n"
"choosing:\n"
"  --score METRIC     accuracy (default for classification), balanced-accuracy, auc, mcc,\n"
"                     average-precision (auc and average-precision: binary classification,\n"
"                     ranking the decision values), mse (default for regression; lower is\n"
"                     better), r2 (1 - squared error / variance of the split's targets) or\n"
"                     log-loss (classification with -b 1: -mean log p(true class); lower is\n"
"                     better)\n"
"                     Ties (means equal to 1e-12 relative) go to the simpler model: the smaller\n"
"                     C, then the larger p, then the setting listed first.\n"
"\n"
"output:\n"
"  --json             JSON lines: per setting {\"options\", \"metric\", \"scores\", \"mean\", \"std\",\n"
"                     \"fit_seconds\", \"support_vectors\", \"kernel_weights\"}; with --nested a line\n"
"                     {\"nested\": {\"metric\", \"scores\", \"mean\", \"std\", \"chosen\"}}; last\n"
"                     {\"best\": {the best setting's line}} (kernelmix plot cv FILE draws them)\n"
"  -o, --output FILE  write the lines to FILE (written whole or not at all) instead of stdout\n"
"  --refit MODEL      train the best setting on all rows of TRAIN_FILE and write MODEL\n"
"  -q, --quiet        print nothing on stderr but errors: no progress, no warnings\n";

static const char CLOSING[] =
"\n"
"  --progress MODE    bar (default on a terminal): settings done of the total, seconds elapsed\n"
"                     and left and the best so far on one line; plain (default elsewhere): such\n"
"                     a line every few seconds; none\n"
"  --help             show this help\n"
"\n"
"many processes (Open MPI; docs/model-selection.md):\n"
"  mpirun -n K kernelmix cv ...   spreads the (setting x split) tasks over K ranks, on one machine\n"
"                     or the hosts of a hostfile; the results equal one process's; rank 0 alone\n"
"                     prints and writes. Every rank reads TRAIN_FILE at the same path (a shared\n"
"                     filesystem), unless:\n"
"  --bcast            rank 0 reads TRAIN_FILE and --validation FILE and sends them to the others\n"
"\n"
"Exit status: 0 success, 1 failure, 2 bad usage or bad input, 130 interrupted.\n";

/* SIGINT/SIGTERM stop the grid at the next check of the training under way; nothing is written then. */
static volatile sig_atomic_t stop_requested;

static void request_stop(int signal_number)
{
    (void)signal_number;
    stop_requested = 1;
}

/* A grid axis: the argument holding a list (after the option's '=' when prefix_len > 0). */
typedef struct axis {
    int index;
    size_t prefix_len;
    char *values;                /* km_grid_values: n texts back to back */
    size_t n;
    int kernel_files;            /* --kernels-grid: each value is a spec file, read as --kernels FILE */
} axis;

typedef struct cv_options {
    int folds, repeats, loo, nested;
    const char *validation_path, *score_name, *settings_path, *output_path, *refit_path;
    int json, quiet, broadcast, cold, threads;
    cli_progress_mode progress;
    char **train_argv;           /* argv without cv's own options */
    int train_argc;
} cv_options;

/* One setting: its training options and kernel set. */
typedef struct setting {
    train_options options;
    char *cmd;                   /* "cv", "cv: FILE:LINE", "...: setting K" for messages */
    km_kernel_set *kernels;      /* owned when owns_kernels */
    int owns_kernels;
    char **arguments;            /* the arguments of its axes, which its options may point into */
    size_t n_arguments;
} setting;

typedef struct settings {
    setting *items;
    size_t n, capacity;
    char **lines;                /* the lines of a --settings file, which the settings' options point into */
    size_t n_lines;
} settings;

/* The long options of cv itself (cv_option), named by the messages of unknown options. */
static const char *const CV_OPTIONS[] = {"--folds", "--repeats", "--nested", "--loo", "--validation", "--score",
                                         "--settings", "--output", "--refit", "--json", "--quiet", "--progress", "--cold", "--threads", "--bcast",
                                         "--kernels-grid",
                                         "--help", NULL};

/* The options of cv itself: 1 taken, -1 bad (reported), 0 not one of them. */
static int cv_option(cv_options *o, cli_args *args)
{
    long l;
    if (cli_args_is(args, NULL, "--folds")) {
        if (!cli_parse_long(CMD, "--folds", cli_args_value(args), 2, 1000000, &l))
            return -1;
        o->folds = (int)l;
    } else if (cli_args_is(args, NULL, "--repeats")) {
        if (!cli_parse_long(CMD, "--repeats", cli_args_value(args), 1, 10000, &l))
            return -1;
        o->repeats = (int)l;
    } else if (cli_args_is(args, NULL, "--nested")) {
        if (!cli_parse_long(CMD, "--nested", cli_args_value(args), 2, 1000000, &l))
            return -1;
        o->nested = (int)l;
    } else if (cli_args_is(args, NULL, "--loo")) {
        o->loo = 1;
    } else if (cli_args_is(args, NULL, "--validation")) {
        return (o->validation_path = cli_args_value(args)) ? 1 : -1;
    } else if (cli_args_is(args, NULL, "--score")) {
        return (o->score_name = cli_args_value(args)) ? 1 : -1;
    } else if (cli_args_is(args, NULL, "--settings")) {
        return (o->settings_path = cli_args_value(args)) ? 1 : -1;
    } else if (cli_args_is(args, "-o", "--output")) {
        return (o->output_path = cli_args_value(args)) ? 1 : -1;
    } else if (cli_args_is(args, NULL, "--refit")) {
        return (o->refit_path = cli_args_value(args)) ? 1 : -1;
    } else if (cli_args_is(args, NULL, "--json")) {
        o->json = 1;
    } else if (cli_args_is(args, "-q", "--quiet")) {
        o->quiet = 1;
    } else if (cli_args_is(args, NULL, "--bcast")) {
        o->broadcast = 1;
    } else if (cli_args_is(args, NULL, "--cold")) {
        o->cold = 1;
    } else if (cli_args_is(args, NULL, "--threads")) {
        if (!cli_parse_long(CMD, "--threads", cli_args_value(args), 1, 4096, &l))
            return -1;
        o->threads = (int)l;
    } else if (cli_args_is(args, NULL, "--progress")) {
        return cli_parse_progress(CMD, cli_args_value(args), &o->progress) ? 1 : -1;
    } else {
        return 0;
    }
    return 1;
}

/* Splits argv into cv's options (parsed into o) and train's (o->train_argv, argv[0] kept). Returns 1,
 * 0 after --help, -1 on an error (reported). */
static int split_arguments(cv_options *o, int argc, char **argv)
{
    cli_args args;
    cli_args_init(&args, CMD, argc, argv);
    const char *positional;
    int kind;
    if (!(o->train_argv = malloc((size_t)(argc + 1) * sizeof *o->train_argv))) {
        cli_error(CMD, "out of memory");
        return -1;
    }
    o->train_argv[o->train_argc++] = argv[0];
    while ((kind = cli_args_next(&args, &positional))) {
        int start = args.index;
        if (kind == 1 && cli_args_is(&args, NULL, "--help")) {
            fputs(USAGE, stdout);
            fputs(CLOSING, stdout);
            return 0;
        }
        int handled = kind == 1 ? cv_option(o, &args) : 0;
        if (handled < 0 || args.failed)
            return -1;
        if (!handled)
            for (int k = start; k <= args.index; k++)
                o->train_argv[o->train_argc++] = argv[k];
    }
    o->train_argv[o->train_argc] = NULL;
    return 1;
}

/* The file names of --kernels-grid A,B,...: n names back to back, as km_grid_values gives values
 * (file names are taken as written: no ranges). */
static km_status file_list(const char *value, char **out, size_t *n)
{
    size_t length = strlen(value);
    char *names = malloc(length + 1);
    if (!names)
        return km_error_nomem("the kernel files");
    memcpy(names, value, length + 1);
    *n = 1;
    for (size_t k = 0; k < length; k++)
        if (names[k] == ',') {
            names[k] = '\0';
            ++*n;
        }
    for (size_t k = 0, start = 0; k <= length; k++)
        if (names[k] == '\0') {
            if (k == start) {
                free(names);
                return km_error(KM_EINVAL, "'%s': an empty file name", value);
            }
            start = k + 1;
        }
    *out = names;
    return KM_OK;
}

/* The grid axes of argv: the values of parameter options and -g that hold a list or a range, and the
 * files of --kernels-grid. */
static int find_axes(int argc, char **argv, axis **out, size_t *n_out)
{
    cli_args args;
    cli_args_init(&args, CMD, argc, argv);
    const char *positional;
    axis *axes = NULL;
    size_t n = 0;
    int ok = 1, kind;
    while (ok && (kind = cli_args_next(&args, &positional))) {
        if (kind != 1)
            continue;
        int kernel_files = cli_args_is(&args, NULL, "--kernels-grid");
        if (!kernel_files && !cli_param_value_option(&args) && !cli_args_is(&args, "-g", "--gamma"))
            continue;
        int index = args.inline_value ? args.index : args.index + 1;
        if (index >= argc)
            break;
        const char *value = args.inline_value ? args.inline_value : argv[index];
        if (!kernel_files && !strchr(value, ',') && !strstr(value, ".."))
            continue;
        axis *grown = realloc(axes, (n + 1) * sizeof *grown);
        if (!grown) {
            cli_error(CMD, "out of memory");
            ok = 0;
            break;
        }
        axes = grown;
        axis *a = &axes[n];
        a->index = index;
        a->prefix_len = args.inline_value ? (size_t)(args.inline_value - argv[index]) : 0;
        a->kernel_files = kernel_files;
        km_status st = kernel_files ? file_list(value, &a->values, &a->n) : km_grid_values(value, &a->values, &a->n);
        if (st) {
            cli_error(CMD, "option %.*s: %s", (int)args.name_len, args.name, km_last_error());
            ok = 0;
            break;
        }
        n++;
        if (!args.inline_value)
            args.index++;
    }
    *out = axes;
    *n_out = n;
    return ok;
}

static setting *new_setting(settings *all)
{
    if (all->n == all->capacity) {
        size_t capacity = all->capacity ? 2 * all->capacity : 16;
        setting *grown = realloc(all->items, capacity * sizeof *grown);
        if (!grown)
            return NULL;
        all->items = grown;
        all->capacity = capacity;
    }
    setting *s = &all->items[all->n];
    memset(s, 0, sizeof *s);
    return s;
}

/* Parses one combination of argv (the axes at values pick) as a setting. */
static int parse_setting(settings *all, int argc, char **argv, const axis *axes, size_t n_axes, const size_t *pick,
                         const char *where)
{
    char **copy = malloc((size_t)(argc + 1) * sizeof *copy);
    setting *s = new_setting(all);
    char **owned = s ? (s->arguments = calloc(n_axes ? n_axes : 1, sizeof *owned)) : NULL;
    char name[600];   /* a setting of a grid is named by its number in messages */
    snprintf(name, sizeof name, n_axes ? "%s: setting %zu" : "%s", where, all->n + 1);
    int ok = copy && owned && s && (s->cmd = strdup(name));
    if (!ok)
        cli_error(CMD, "out of memory");
    for (int k = 0; ok && k <= argc; k++)
        copy[k] = argv[k];
    for (size_t a = 0; ok && a < n_axes; a++) {
        const char *value = axes[a].values;
        for (size_t k = 0; k < pick[a]; k++)
            value += strlen(value) + 1;
        size_t prefix = axes[a].prefix_len, len = strlen(value);
        if (!(owned[a] = malloc(prefix + len + 1))) {
            cli_error(CMD, "out of memory");
            ok = 0;
            break;
        }
        s->n_arguments = a + 1;
        memcpy(owned[a], argv[axes[a].index], prefix);
        memcpy(owned[a] + prefix, value, len + 1);
        copy[axes[a].index] = owned[a];
        if (axes[a].kernel_files && prefix) {   /* --kernels-grid=FILE: --kernels=FILE */
            memmove(owned[a] + strlen("--kernels="), owned[a] + prefix, len + 1);
            memcpy(owned[a], "--kernels=", strlen("--kernels="));
        } else if (axes[a].kernel_files) {
            copy[axes[a].index - 1] = "--kernels";
        }
    }
    if (ok && !train_options_init(&s->options, s->cmd, 1))
        ok = 0;
    else if (ok) {
        all->n++;   /* settings_free frees it from now on */
        s->options.other_options = CV_OPTIONS;
        ok = train_options_parse(&s->options, argc, copy) > 0;
        if (ok && (s->options.folds || s->options.trace_path)) {
            cli_error(s->cmd, "option %s is train's (cv: --folds K)", s->options.folds ? "-v" : "--trace");
            ok = 0;
        }
    }
    if (s && (all->n == 0 || &all->items[all->n - 1] != s)) {   /* not kept */
        for (size_t a = 0; a < s->n_arguments; a++)
            free(s->arguments[a]);
        free(s->arguments);
        free(s->cmd);
    }
    free(copy);
    return ok;
}

/* The settings of argv: the Cartesian product of its axes, the first axis slowest. */
static int expand(settings *all, int argc, char **argv, const char *where)
{
    axis *axes = NULL;
    size_t n_axes = 0;
    int ok = find_axes(argc, argv, &axes, &n_axes);
    size_t *pick = calloc(n_axes ? n_axes : 1, sizeof *pick);
    if (ok && !pick) {
        cli_error(CMD, "out of memory");
        ok = 0;
    }
    while (ok) {
        ok = parse_setting(all, argc, argv, axes, n_axes, pick, where);
        size_t a = n_axes;
        while (a > 0 && ++pick[a - 1] == axes[a - 1].n)
            pick[--a] = 0;
        if (a == 0)
            break;
    }
    for (size_t a = 0; a < n_axes; a++)
        km_free(axes[a].values);
    free(axes);
    free(pick);
    return ok;
}

/* Splits a settings line into words: whitespace separates, single quotes quote (train's options
 * text as --json writes it); a '#' outside quotes starts a comment. Words point into line. */
static int split_words(char *line, char ***words, int *n, const char *where)
{
    char *read = line, *write = line;
    *n = 0;
    *words = NULL;
    for (;;) {
        while (*read == ' ' || *read == '\t' || *read == '\r' || *read == '\n')
            read++;
        if (!*read || *read == '#')
            return 1;
        char **grown = realloc(*words, (size_t)(*n + 2) * sizeof *grown);
        if (!grown) {
            cli_error(CMD, "out of memory");
            return 0;
        }
        *words = grown;
        (*words)[(*n)++] = write;
        int quoted = 0;
        for (; *read && (quoted || !strchr(" \t\r\n", *read)); read++) {
            if (*read == '\'')
                quoted = !quoted;
            else
                *write++ = *read;
        }
        if (quoted) {
            cli_error(CMD, "%s: a quote is not closed", where);
            return 0;
        }
        if (*read)
            read++;
        *write++ = '\0';
    }
}

/* The settings of the --settings file: each line's options after the command line's. */
static int read_settings_file(settings *all, const cv_options *o)
{
    FILE *f = fopen(o->settings_path, "r");
    if (!f) {
        cli_error(CMD, "%s: cannot open: %s", o->settings_path, strerror(errno));
        return 0;
    }
    char *line = NULL;
    size_t size = 0, number = 0, before = all->n;
    int ok = 1;
    while (ok && getline(&line, &size, f) >= 0) {
        char **kept = realloc(all->lines, (all->n_lines + 1) * sizeof *kept);
        if (!kept) {
            cli_error(CMD, "out of memory");
            ok = 0;
            break;
        }
        all->lines = kept;
        all->lines[all->n_lines++] = line;   /* each line stays while the settings use its words */
        line = NULL;
        size = 0;
        char *text = all->lines[all->n_lines - 1];
        number++;
        char where[512], **words;
        int n_words;
        snprintf(where, sizeof where, "%s: %s:%zu", CMD, o->settings_path, number);
        if (!(ok = split_words(text, &words, &n_words, where + strlen(CMD) + 2)) || n_words == 0) {
            free(words);
            continue;
        }
        char **argv = malloc((size_t)(o->train_argc + n_words + 1) * sizeof *argv);
        if (!argv) {
            cli_error(CMD, "out of memory");
            ok = 0;
        } else {
            memcpy(argv, o->train_argv, (size_t)o->train_argc * sizeof *argv);
            memcpy(argv + o->train_argc, words, (size_t)n_words * sizeof *argv);
            argv[o->train_argc + n_words] = NULL;
            ok = expand(all, o->train_argc + n_words, argv, where);
        }
        free(argv);
        free(words);
    }
    free(line);
    fclose(f);
    if (ok && all->n == before) {
        cli_error(CMD, "%s: no settings (every line is empty or a comment)", o->settings_path);
        ok = 0;
    }
    return ok;
}

static void settings_free(settings *all)
{
    for (size_t k = 0; k < all->n; k++) {
        if (all->items[k].owns_kernels)
            km_kernel_set_free(all->items[k].kernels);
        train_options_free(&all->items[k].options);
        free(all->items[k].cmd);
        for (size_t a = 0; a < all->items[k].n_arguments; a++)
            free(all->items[k].arguments[a]);
        free(all->items[k].arguments);
    }
    free(all->items);
    for (size_t k = 0; k < all->n_lines; k++)
        free(all->lines[k]);
    free(all->lines);
}

/* The kernel set of every setting (shared by settings whose kernel options are the same) and its
 * fixed weights. */
static int build_kernel_sets(settings *all, const km_dataset *data)
{
    for (size_t k = 0; k < all->n; k++) {
        setting *s = &all->items[k];
        char text[4096], other[4096];
        train_options_kernel_text(&s->options, text, sizeof text);
        for (size_t j = 0; j < k && !s->kernels; j++) {
            train_options_kernel_text(&all->items[j].options, other, sizeof other);
            if (!strcmp(text, other))
                s->kernels = all->items[j].kernels;
        }
        km_status st = KM_OK;
        if (!s->kernels) {
            st = train_options_build_kernels(&s->options, data, &s->kernels);
            s->owns_kernels = !st;
        }
        if (st) {
            cli_fail(s->cmd, st);
            return 0;
        }
        double *weights = NULL;
        if (s->options.weights) {
            if (!train_options_parse_weights(s->cmd, s->options.weights, km_kernel_set_size(s->kernels), &weights))
                return 0;
            st = km_params_set_kernel_weights(s->options.params, weights, km_kernel_set_size(s->kernels));
            free(weights);
            if (st) {
                cli_fail(s->cmd, st);
                return 0;
            }
        }
        if ((st = km_params_set_class_weights(s->options.params, s->options.class_labels, s->options.class_weights,
                                              s->options.n_class_weights))) {
            cli_fail(s->cmd, st);
            return 0;
        }
    }
    return 1;
}

/* Every training polls for a requested stop. */
static int poll_stop(void *user, const km_progress *progress)
{
    (void)user;
    (void)progress;
    return stop_requested;
}

/* The grid's progress: settings done of the total, the best so far (user: the grid). */
static int show_progress(void *user, size_t done, size_t total, size_t best, double best_mean)
{
    cli_progress_show(1, "grid", (double)done / (double)total, "%zu of %zu settings, best so far %.6g (%s)", done,
                      total, best_mean, km_grid_options(user, best));
    return stop_requested;
}

/* A setting's line: text, or JSON (an object without the newline). */
static void print_setting(FILE *out, const km_cv_results *r, const km_grid *grid, size_t s, int json)
{
    const char *metric = km_enum_name(KM_ENUM_SCORE, km_cv_score(r));
    const double *scores = km_cv_scores(r, s);
    size_t n_kernels, k = km_cv_n_splits(r);
    const double *weights = km_cv_mean_weights(r, s, &n_kernels);
    if (json) {
        fputs("{\"options\": ", out);
        cli_json_string(out, km_grid_options(grid, s));
        fprintf(out, ", \"metric\": \"%s\", \"scores\": [", metric);
        for (size_t f = 0; f < k; f++) {
            fputs(f ? ", " : "", out);
            cli_json_number(out, scores[f]);
        }
        fputs("], \"mean\": ", out);
        cli_json_number(out, km_cv_mean(r, s));
        fputs(", \"std\": ", out);
        cli_json_number(out, km_cv_std(r, s));
        fputs(", \"fit_seconds\": ", out);
        cli_json_number(out, km_cv_fit_seconds(r, s));
        fputs(", \"support_vectors\": ", out);
        cli_json_number(out, km_cv_mean_sv(r, s));
        fputs(", \"kernel_weights\": [", out);
        for (size_t m = 0; m < n_kernels; m++) {
            fputs(m ? ", " : "", out);
            cli_json_number(out, weights[m]);
        }
        fputs("]}", out);
        return;
    }
    fprintf(out, "%s: %s %.6g +- %.3g (", km_grid_options(grid, s)[0] ? km_grid_options(grid, s) : "(defaults)",
            metric, km_cv_mean(r, s), km_cv_std(r, s));
    for (size_t f = 0; f < k; f++)
        fprintf(out, "%s%.4g", f ? " " : "", scores[f]);
    fprintf(out, "), fit %.3g s, %.1f support vectors, kernel weights", km_cv_fit_seconds(r, s), km_cv_mean_sv(r, s));
    for (size_t m = 0; m < n_kernels; m++)
        fprintf(out, " %.4g", weights[m]);
}

/* Nested cross-validation: the outer scores of the settings chosen, and which were chosen. */
static void print_nested(FILE *out, const km_cv_results *r, const km_grid *grid, int json)
{
    size_t n = km_cv_n_outer(r);
    const double *scores = km_cv_outer_scores(r);
    const size_t *chosen = km_cv_outer_choices(r);
    const char *metric = km_enum_name(KM_ENUM_SCORE, km_cv_score(r));
    double mean, std;
    cli_mean_std(scores, n, &mean, &std);
    if (json) {
        fprintf(out, "{\"nested\": {\"metric\": \"%s\", \"scores\": [", metric);
        for (size_t o = 0; o < n; o++) {
            fputs(o ? ", " : "", out);
            cli_json_number(out, scores[o]);
        }
        fputs("], \"mean\": ", out);
        cli_json_number(out, mean);
        fputs(", \"std\": ", out);
        cli_json_number(out, std);
        fputs(", \"chosen\": [", out);
        for (size_t o = 0; o < n; o++) {
            fputs(o ? ", " : "", out);
            cli_json_string(out, km_grid_options(grid, chosen[o]));
        }
        fputs("]}}\n", out);
        return;
    }
    fprintf(out, "nested: %s %.6g +- %.3g over %zu outer splits (", metric, mean, std, n);
    for (size_t o = 0; o < n; o++)
        fprintf(out, "%s%.4g", o ? " " : "", scores[o]);
    fputs(")\n", out);
    for (size_t s = 0; s < km_grid_size(grid); s++) {
        size_t count = 0;
        for (size_t o = 0; o < n; o++)
            count += chosen[o] == s;
        if (count)
            fprintf(out, "nested: chosen in %zu of %zu outer splits: %s\n", count, n, km_grid_options(grid, s));
    }
}

static void print_results(FILE *out, const km_cv_results *r, const km_grid *grid, int json)
{
    for (size_t s = 0; s < km_grid_size(grid); s++) {
        print_setting(out, r, grid, s, json);
        fputc('\n', out);
    }
    if (km_cv_n_outer(r))
        print_nested(out, r, grid, json);
    fputs(json ? "{\"best\": " : "best: ", out);
    print_setting(out, r, grid, km_cv_best(r), json);
    fputs(json ? "}\n" : "\n", out);
}

/* Adds the n bytes of data as a finished atomic file at path. */
static km_status finish_file(km_atomic_file *file, const char *path, const char *what, const void *data, size_t n)
{
    km_status st = km_atomic_open(file, path, what);
    if (st)
        return st;
    km_atomic_write(file, data, n);
    return km_atomic_finish(file);
}

/* The model of --refit and the results of --output, published together (all or none); then the
 * results on standard output when no file takes them. */
static km_status write_outputs(const cv_options *o, const km_cv_results *r, const km_grid *grid, const km_model *model)
{
    km_atomic_file files[2];
    size_t n = 0;
    void *model_bytes = NULL;
    char *text = NULL;
    size_t size = 0;
    int to_file = o->output_path && strcmp(o->output_path, "-");
    km_status st = KM_OK;
    if (model && !(st = km_model_save_buffer(model, &model_bytes, &size)) &&
        !(st = finish_file(&files[n], o->refit_path, "the model", model_bytes, size)))
        n++;
    if (!st && to_file) {
        FILE *memory = open_memstream(&text, &size);
        if (!memory) {
            st = km_error_nomem("the results");
        } else {
            print_results(memory, r, grid, o->json);
            fclose(memory);
            if (!(st = finish_file(&files[n], o->output_path, "the results", text, size)))
                n++;
        }
    }
    if (st)
        for (size_t k = 0; k < n; k++)
            km_atomic_abort(&files[k]);
    else if (n)
        st = km_atomic_publish_all(files, n);
    km_free(model_bytes);
    free(text);
    if (!st && !to_file) {
        print_results(stdout, r, grid, o->json);
        if (fflush(stdout))
            st = km_error(KM_EIO, "standard output: write failed");
    }
    return st;
}

/* The files read, which no output may be. */
static int check_outputs(const cv_options *o, const settings *all, cli_inputs *inputs)
{
    const train_options *first = &all->items[0].options;
    if (!cli_inputs_add(CMD, inputs, first->train_path) || !cli_inputs_add(CMD, inputs, o->validation_path) ||
        !cli_inputs_add(CMD, inputs, o->settings_path))
        return 0;
    for (size_t k = 0; k < all->n; k++)
        if (!cli_inputs_add_all(CMD, inputs, all->items[k].options.specs.files, all->items[k].options.specs.n_files))
            return 0;
    if (o->output_path && !cli_check_output(CMD, o->output_path, inputs))
        return 0;
    if (o->refit_path && !cli_check_output(CMD, o->refit_path, inputs))
        return 0;
    if (o->output_path && o->refit_path && !strcmp(o->output_path, o->refit_path) && strcmp(o->output_path, "-")) {
        cli_error(CMD, "option --refit: %s is also the results file", o->refit_path);
        return 0;
    }
    return 1;
}

static int check_options(const cv_options *o)
{
    int splits = (o->folds > 0) + o->loo + (o->validation_path != NULL);
    if (splits > 1) {
        cli_error(CMD, "--folds, --loo and --validation choose the splits: give one of them");
        return 0;
    }
    if (o->validation_path && (o->repeats || o->nested)) {
        cli_error(CMD, "option --validation is one fixed split: it takes neither --repeats nor --nested");
        return 0;
    }
    if (o->loo && o->repeats > 1) {
        cli_error(CMD, "option --loo: leave-one-out is the same every time (no --repeats)");
        return 0;
    }
    return 1;
}

/* Interrupted: nothing written, 128 + SIGINT. */
static int interrupted(void)
{
    cli_error(CMD, "interrupted; nothing written");
    return 128 + SIGINT;
}

/* Under MPI the ranks go on together or stop together after a step that may fail on some of them (a
 * file missing on one host): whether every rank's rc is CLI_OK; a rank whose own step went well then
 * takes the failed rank's exit status, the failed rank has said why. */
static int agreed(int *rc)
{
    int largest = km_dist_max(*rc);
    if (largest != CLI_OK && *rc == CLI_OK)
        *rc = largest;
    return largest == CLI_OK;
}

/* --bcast: rank 0 reads the file at path and every rank reads that copy instead of its own file
 * (NULL path: nothing). 0 after an error, reported by rank 0. */
static int receive_input(const char *path)
{
    void *bytes = NULL;
    size_t n = 0;
    km_status st = KM_OK;
    int rc = CLI_OK;
    if (!path)
        return 1;
    if (km_dist_rank() == 0 && (st = cli_read_file(path, &bytes, &n)))
        rc = cli_fail(CMD, st);
    if (!agreed(&rc))
        return 0;
    if ((st = km_dist_broadcast_bytes(&bytes, &n)) || (st = km_input_provide(path, bytes, n)))
        rc = cli_fail(CMD, st);
    free(bytes);
    return agreed(&rc);
}

static int run(cv_options *o, settings *all)
{
    km_dataset *data = NULL, *validation = NULL;
    km_grid *grid = NULL;
    km_cv_results *results = NULL;
    km_model *model = NULL;
    cli_inputs inputs = {0};
    const train_options *first = &all->items[0].options;
    int lead = km_dist_rank() == 0, quiet = o->quiet || !lead;   /* rank 0 alone speaks and writes */
    cli_log log = {.cmd = CMD, .verbose = quiet ? 0 : first->verbose, .quiet = quiet};
    int rc = CLI_OK;
    km_status st = KM_OK;
    if (lead && !check_outputs(o, all, &inputs))
        rc = CLI_USAGE;
    if (!agreed(&rc))
        goto done;
    km_cv_options cv = KM_CV_OPTIONS_INIT;
    cv.folds = o->loo ? 0 : o->folds ? o->folds : 5;
    cv.repeats = o->repeats ? o->repeats : 1;
    cv.nested_folds = o->nested;
    cv.cold_starts = o->cold;
    cv.threads = o->threads;
    cv.seed = (uint64_t)train_options_get_int(first, KM_PARAM_SEED);
    if (o->score_name) {
        int value;
        if ((st = km_enum_value(KM_ENUM_SCORE, o->score_name, &value))) {
            cli_error(CMD, "option --score: %s", km_last_error());
            rc = CLI_USAGE;
            goto done;
        }
        cv.score = (km_score)value;
    }
    int precomputed = train_options_needs_precomputed_rows(first);
    if (o->broadcast && (!receive_input(first->train_path) || !receive_input(o->validation_path))) {
        rc = CLI_USAGE;
        goto done;
    }
    if ((st = cli_read_data(first->train_path, &first->input, precomputed, &data)) ||
        (o->validation_path && (st = cli_read_data(o->validation_path, &first->input, precomputed, &validation))))
        rc = cli_fail(CMD, st);
    else if (!train_options_check_label_column(first, data) || !build_kernel_sets(all, data))
        rc = CLI_USAGE;
    if (!agreed(&rc))
        goto done;
    if ((st = km_grid_new(&grid))) {
        rc = cli_fail(CMD, st);
        goto done;
    }
    for (size_t k = 0; k < all->n && !st; k++) {
        km_params_set_log(all->items[k].options.params, cli_log_fn, &log);
        km_params_set_progress(all->items[k].options.params, poll_stop, NULL);
        st = km_grid_add(grid, all->items[k].options.params, all->items[k].kernels,
                         all->items[k].options.options_text ? all->items[k].options.options_text : "");
    }
    cv.validation = validation;
    cv.progress = show_progress;
    cv.progress_user = grid;
    cli_progress_start(CMD, quiet ? CLI_PROGRESS_NONE : o->progress ? o->progress
                                          : isatty(STDERR_FILENO) ? CLI_PROGRESS_BAR : CLI_PROGRESS_PLAIN, quiet);
    if (!st) {
        cli_progress_show(1, "grid", 0.0, "%zu settings", km_grid_size(grid));
        st = km_cv_run(data, grid, &cv, &results);
    }
    if (!lead) {   /* the results are rank 0's to write, and so is a failure's message */
        rc = st == KM_EINTERRUPTED ? 128 + SIGINT : st ? CLI_FAILURE : CLI_OK;
        goto done;
    }
    size_t best = st ? 0 : km_cv_best(results);
    if (!st && o->refit_path) {
        cli_progress_show(1, "refit", -1, "training the best setting on all rows");
        st = km_train(data, all->items[best].kernels, km_grid_params(grid, best), &model);
    }
    cli_progress_clear();
    cli_log_flush(&log);
    if (!st)
        st = write_outputs(o, results, grid, model);
    if (st)
        rc = st == KM_EINTERRUPTED ? interrupted() : cli_fail(CMD, st);
done:
    cli_progress_clear();
    cli_log_flush(&log);
    cli_inputs_free(&inputs);
    km_model_free(model);
    km_cv_results_free(results);
    km_grid_free(grid);
    km_dataset_free(validation);
    km_dataset_free(data);
    km_input_forget_provided();
    return rc;
}

int cmd_cv(int argc, char **argv)
{
    cv_options o = {0};
    settings all = {0};
    km_status st = km_dist_start(NULL, NULL);   /* one process, or a rank of `mpirun -n K kernelmix cv` */
    if (st)
        return cli_fail(CMD, st);
    int rc = CLI_USAGE, split = split_arguments(&o, argc, argv);
    if (split == 0)
        rc = CLI_OK;
    else if (split > 0 && check_options(&o) &&
             (o.settings_path ? read_settings_file(&all, &o) : expand(&all, o.train_argc, o.train_argv, CMD)))
        rc = CLI_OK;
    if (split != 0 && agreed(&rc)) {
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = request_stop;
        sigemptyset(&action.sa_mask);
        sigaction(SIGINT, &action, NULL);
        sigaction(SIGTERM, &action, NULL);
        rc = run(&o, &all);
    }
    settings_free(&all);
    free(o.train_argv);
    return rc;
}
