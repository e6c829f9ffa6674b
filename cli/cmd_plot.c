/* kernelmix plot: figures as standalone SVG files (the library's km_plot_*): a model's kernel weights,
 * a training trace, cross-validation results, a regularization path. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char *const CMD = "plot";

static void usage(FILE *out)
{
    fprintf(out,
"usage: kernelmix plot weights MODEL [OUT.svg]\n"
"       kernelmix plot trace [--x iteration|seconds] TRACE [OUT.svg]\n"
"       kernelmix plot cv [--higher-is-better|--lower-is-better] [--series OPTION] RESULTS [OUT.svg]\n"
"       kernelmix plot path [-o OUT.svg] MODEL MODEL...\n"
"\n"
"Draws a figure as a standalone SVG file (default OUT: the input's name with .svg appended;\n"
"path: path.svg). A file name '-' is standard input, or standard output for OUT (the default\n"
"OUT of standard input). Text is SVG text; colours are the Okabe-Ito palette and the viridis map.\n"
"\n"
"  weights   a model's kernel weights: bars grouped by family and feature subset, labelled\n"
"            with RBF widths and degrees, zero weights (dropped kernels) marked x; a heat map\n"
"            of machines (multiclass) or clusters (clmkl, hlmkl) x kernels\n"
"  trace     the file of 'kernelmix train --trace': objective, dual value and relative\n"
"            duality gap (log axis) against the iteration or --x seconds\n"
"  cv        JSON lines {\"options\", \"scores\", \"mean\", \"std\"} (kernelmix train -v K --json,\n"
"            appended over a sweep) and an optional last line {\"best\": {...}}: the numeric\n"
"            options that vary are the axes (--p inf among them): one, mean +- std against\n"
"            it; two, a heat map of the mean, the best cell outlined (best: the higher mean,\n"
"            the lower for mse and log-loss, or as the options say); \"metric\" names the axis;\n"
"            --series OPTION: a line per value of OPTION (--p, --solver, ...) against the\n"
"            one other option that varies; a line {\"title\": \"...\"} titles the figure\n"
"  path      kernel weights against p (lp) or lambda (elasticnet) of several models\n"
"\n"
"Exit status: 0 success, 1 failure, 2 bad usage or bad input.\n");
}

/* The whole file as a NUL-terminated string; NULL (reported, *rc set) on an error. */
static char *read_text(const char *path, int *rc)
{
    FILE *f;
    km_status st = km_open_input(path, &f);
    if (st) {
        *rc = cli_fail(CMD, st);
        return NULL;
    }
    path = km_input_name(path);
    size_t size = 0, capacity = 65536, got;
    char *text = malloc(capacity);
    while (text && (got = fread(text + size, 1, capacity - size - 1, f)) > 0) {
        size += got;
        if (size + 1 < capacity)
            continue;
        char *grown = realloc(text, capacity *= 2);
        if (!grown)
            free(text);
        text = grown;
    }
    int failed = ferror(f);
    fclose(f);
    if (!text || failed) {
        cli_error(CMD, "%s: %s", path, text ? "cannot read" : "out of memory");
        free(text);
        *rc = text ? CLI_USAGE : CLI_FAILURE;
        return NULL;
    }
    if (memchr(text, '\0', size)) {
        cli_error(CMD, "%s: not a text file (a NUL byte at offset %zu)", path,
                  (size_t)((char *)memchr(text, '\0', size) - text));
        free(text);
        *rc = CLI_USAGE;
        return NULL;
    }
    text[size] = '\0';
    return text;
}

/* input's name with ".svg" appended, standard output for standard input (free it). */
static char *default_output(const char *input)
{
    if (!strcmp(input, "-"))
        return strdup("-");
    size_t n = strlen(input);
    char *out = malloc(n + 5);
    if (out)
        snprintf(out, n + 5, "%s.svg", input);
    return out;
}

/* Writes svg to output all-or-nothing, unless output is one of the inputs. */
static int write_svg(const char *output, const char *const *paths, size_t n_paths, const char *svg)
{
    cli_inputs inputs = {0};
    int checked = cli_inputs_add_all(CMD, &inputs, paths, n_paths) && cli_check_output(CMD, output, &inputs);
    cli_inputs_free(&inputs);
    if (!checked)
        return CLI_USAGE;
    km_atomic_file file;
    km_status st = km_atomic_open(&file, output, "the figure");
    if (!st) {
        km_atomic_write(&file, svg, strlen(svg));
        st = km_atomic_commit(&file);
    }
    if (st)
        return cli_fail(CMD, st);
    return CLI_OK;
}

/* A library error about an input's text ("line N: problem") as "FILE:N: problem", exit status 2. */
static int input_error(const char *path, km_status st)
{
    if (st != KM_EFORMAT)
        return cli_fail(CMD, st);
    const char *message = km_last_error();
    size_t line;
    int used = 0;
    if (sscanf(message, "line %zu: %n", &line, &used) == 1 && used > 0)
        cli_error(CMD, "%s:%zu: %s", path, line, message + used);
    else
        cli_error(CMD, "%s: %s", path, message);
    return CLI_USAGE;
}

typedef struct plot_args {
    cli_positionals positionals; /* INPUT [OUTPUT]; path: none, every model in models */
    const char **models;         /* path: every model, and -o */
    size_t n_models;
    const char *output;
    const char *series;          /* cv: the option with a line per value, or NULL */
    int x_seconds, higher;
} plot_args;

/* Parses the arguments after the figure's name; 1 to go on, 0 after --help, -1 on a usage error. */
static int parse(const char *figure, int argc, char **argv, plot_args *a)
{
    cli_args args;
    cli_args_init(&args, CMD, argc, argv);
    const char *v;
    int path = !strcmp(figure, "path");
    a->positionals = path ? (cli_positionals){.rest = &a->models, .n_rest = &a->n_models}
                          : (cli_positionals){.max = 2};
    while (cli_args_next_option(&args, &a->positionals)) {
        if (cli_args_is(&args, "-h", "--help")) {
            usage(stdout);
            return 0;
        } else if (path && cli_args_is(&args, "-o", "--output")) {
            if (!(a->output = cli_args_value(&args)))
                return -1;
        } else if (!strcmp(figure, "trace") && cli_args_is(&args, NULL, "--x")) {
            if (!(v = cli_args_value(&args)))
                return -1;
            if (strcmp(v, "iteration") && strcmp(v, "seconds")) {
                cli_error(CMD, "option --x: '%s' is not iteration or seconds", v);
                return -1;
            }
            a->x_seconds = !strcmp(v, "seconds");
        } else if (!strcmp(figure, "cv") && cli_args_is(&args, NULL, "--higher-is-better")) {
            a->higher = 1;
        } else if (!strcmp(figure, "cv") && cli_args_is(&args, NULL, "--lower-is-better")) {
            a->higher = 0;
        } else if (!strcmp(figure, "cv") && cli_args_is(&args, NULL, "--series")) {
            if (!(a->series = cli_args_value(&args)))
                return -1;
            if (!*a->series) {
                cli_error(CMD, "option --series: an empty option name");
                return -1;
            }
        } else {
            cli_args_unknown(&args);
            return -1;
        }
        if (args.failed)
            return -1;
    }
    if (args.failed)
        return -1;
    if (!path && a->positionals.n == 0) {
        cli_error(CMD, "plot %s: missing its input file (see kernelmix plot --help)", figure);
        return -1;
    }
    if (path && a->n_models == 0) {
        cli_error(CMD, "plot path: missing the models (see kernelmix plot --help)");
        return -1;
    }
    return 1;
}

static int plot_models(const plot_args *a)
{
    km_model **models = calloc(a->n_models, sizeof *models);
    char *svg = NULL;
    int rc = CLI_OK;
    km_status st = models ? KM_OK : KM_ENOMEM;
    for (size_t i = 0; !st && i < a->n_models; i++)
        if ((st = km_model_load(a->models[i], &models[i])))
            rc = cli_fail(CMD, st);
    if (!st && (st = km_plot_path((const km_model *const *)models, a->n_models, &svg)))
        rc = cli_fail(CMD, st);
    if (!st)
        rc = write_svg(a->output ? a->output : "path.svg", a->models, a->n_models, svg);
    for (size_t i = 0; models && i < a->n_models; i++)
        km_model_free(models[i]);
    free(models);
    km_free(svg);
    return rc;
}

int cmd_plot(int argc, char **argv)
{
    if (argc < 2) {
        cli_error(CMD, "missing the figure: weights, trace, cv or path (see kernelmix plot --help)");
        return CLI_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(stdout);
        return CLI_OK;
    }
    const char *figure = argv[1];
    if (strcmp(figure, "weights") && strcmp(figure, "trace") && strcmp(figure, "cv") && strcmp(figure, "path")) {
        cli_error(CMD, "unknown figure '%s' (weights, trace, cv or path)", figure);
        return CLI_USAGE;
    }
    plot_args a = {.higher = -1};
    int parsed = parse(figure, argc - 1, argv + 1, &a), rc = CLI_OK;
    if (parsed <= 0) {
        free(a.models);
        return parsed < 0 ? CLI_USAGE : CLI_OK;
    }
    if (!strcmp(figure, "path")) {
        rc = plot_models(&a);
        free(a.models);
        return rc;
    }
    const char *input = a.positionals.values[0];
    char *fallback = a.positionals.n > 1 ? NULL : default_output(input), *svg = NULL;
    const char *output = a.positionals.n > 1 ? a.positionals.values[1] : fallback;
    km_status st = output ? KM_OK : KM_ENOMEM;
    if (st) {
        rc = cli_fail(CMD, st);
    } else if (!strcmp(figure, "weights")) {
        km_model *model = NULL;
        if ((st = km_model_load(input, &model)))
            rc = cli_fail(CMD, st);
        else if ((st = km_plot_weights(model, &svg)))
            rc = cli_fail(CMD, st);
        km_model_free(model);
    } else {
        char *text = read_text(input, &rc);
        if (!text)
            st = KM_EIO;
        else if ((st = !strcmp(figure, "trace") ? km_plot_trace(text, a.x_seconds, &svg)
                                                 : km_plot_cv_series(text, a.higher, a.series, &svg)))
            rc = input_error(input, st);
        free(text);
    }
    if (!st)
        rc = write_svg(output, &input, 1, svg);
    km_free(svg);
    free(fallback);
    return rc;
}
