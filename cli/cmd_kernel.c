/* kernelmix kernel: expands kernel specs, and computes and saves kernel matrices. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

static const char *const CMD = "kernel";

static void usage(FILE *out)
{
    fprintf(out,
"usage: kernelmix kernel --list [--kernel SPEC]... [--kernels FILE] [TRAIN_FILE]\n"
"       kernelmix kernel [options] [--kernel SPEC]... [--kernels FILE] TRAIN_FILE OUTPUT\n"
"\n"
"--list prints the base kernels the specs expand to, one per line; with TRAIN_FILE their\n"
"data-dependent values (widths, normalization constants) are fitted and shown.\n"
"Otherwise computes each kernel's normalized training matrix (or, with --test, the\n"
"test-vs-training matrix) and writes it to OUTPUT; several kernels go to OUTPUT with the\n"
"kernel number before the extension (K.bin -> K.1.bin, K.2.bin, ...), all of them or none.\n"
"An output that is one of the inputs is refused. A file name '-' is standard input\n"
"(TRAIN_FILE, TEST_FILE or a --kernels FILE, one of them) or standard output (OUTPUT, for\n"
"one kernel; written when complete).\n"
"\n"
"spec language: TYPE[:KEY=VALUES]...\n"
"  types     linear, poly, rbf, sigmoid, chi2, histint, precomputed\n"
"            on sequences: spectrum (k=, the k-mer length), wd (weighted degree),\n"
"            positional or pos (one degree) with degree= and shift=\n"
"  keys      gamma, sigma (rbf: gamma = 1/(2 sigma^2)), degree, coef0,\n"
"            features (1-based: 1-10,15 or each: one kernel per feature),\n"
"            norm (none, mult, spherical, trace), center (0 or 1), file (precomputed),\n"
"            rank (linear, poly, rbf, sigmoid: the Nystrom approximation on that many\n"
"            landmark rows), icd (with rank: landmarks by incomplete Cholesky to that\n"
"            trace tolerance), sampling (with rank: uniform, kmeans++ or leverage, how\n"
"            the landmark rows are drawn; default uniform)\n"
"  values    a list 1,2,3; a range a..b (step 1); powers B^a..B^b; gamma=auto or a value\n"
"            followed by /mean: relative to 1/mean distance of the training data\n"
"  examples  'rbf:gamma=2^-5..2^4'  'poly:degree=1,2,3:coef0=1'  'linear:features=each'\n"
"            'rbf:sigma=0.5,1,2:norm=spherical'  'precomputed:file=K1.bin'\n"
"            'rbf:gamma=2^-3..2^1/mean:rank=1000'\n"
"\n"
"options:\n"
"  --kernel SPEC      add the kernels of SPEC (repeatable)\n"
"  --kernels FILE     add one spec per line of FILE (kernels are numbered in the order of\n"
"                     the --kernel and --kernels options)\n"
"  --list             print the expanded kernels instead of computing matrices\n"
"  --test TEST_FILE   compute test-vs-training matrices for TEST_FILE's rows\n"
"  --text             write LIBSVM precomputed-kernel text ('label 0:i 1:K(i,1) ...',\n"
"                     usable with svm-train -t 4) instead of the binary format\n"
"  --float32          binary values as float32 (default float64)\n"
"  -v, --verbose      print each matrix's computation time (reading and writing excluded)\n"
"  --help             show this help\n"
"\ninput:\n");
    fputs(CLI_INPUT_HELP, out);
}

typedef struct kernel_options {
    cli_kernel_specs specs;
    int list, text, verbose;
    km_dtype dtype;
    const char *test_path;
    cli_input input;
    cli_positionals positionals;    /* TRAIN_FILE OUTPUT */
} kernel_options;

static int parse_options(kernel_options *o, int argc, char **argv)
{
    cli_args args;
    cli_args_init(&args, CMD, argc, argv);
    o->positionals = (cli_positionals){.max = 2};
    int handled;
    while (cli_args_next_option(&args, &o->positionals)) {
        int ok = 1;
        if (cli_args_is(&args, NULL, "--help")) {
            usage(stdout);
            return 0;
        } else if ((handled = cli_kernel_spec_option(&args, &o->specs))) {
            ok = handled > 0;
        } else if (cli_args_is(&args, NULL, "--list")) {
            o->list = 1;
        } else if (cli_args_is(&args, "-v", "--verbose")) {
            o->verbose = 1;
        } else if (cli_args_is(&args, NULL, "--text")) {
            o->text = 1;
        } else if (cli_args_is(&args, NULL, "--float32")) {
            o->dtype = KM_FLOAT32;
        } else if (cli_args_is(&args, NULL, "--test")) {
            ok = (o->test_path = cli_args_value(&args)) != NULL;
        } else if ((handled = cli_data_option(&args, &o->input))) {
            ok = handled > 0;
        } else {
            cli_args_unknown(&args);
            ok = 0;
        }
        if (!ok || args.failed)
            return -1;
    }
    if (args.failed)
        return -1;
    if (o->specs.n == 0) {
        cli_error(CMD, "no kernels: give --kernel SPEC or --kernels FILE (see kernelmix kernel --help)");
        return -1;
    }
    if (!o->list && !cli_positionals_given(CMD, &o->positionals, 2, "expected TRAIN_FILE OUTPUT"))
        return -1;
    if (o->list && o->positionals.n > 1) {
        cli_error(CMD, "--list takes at most TRAIN_FILE");
        return -1;
    }
    return 1;
}

static km_status build_set(const kernel_options *o, const km_dataset *data, km_kernel_set **out)
{
    km_kernel_set *set;
    km_status st = km_kernel_set_new(&set);
    if (!st && data)
        st = km_kernel_set_set_dimension(set, km_dataset_dim(data));
    if (!st)
        st = cli_kernel_specs_add(&o->specs, set);
    if (st)
        km_kernel_set_free(set);
    else
        *out = set;
    return st;
}

static void print_set(const km_kernel_set *set)
{
    char spec[4096];
    for (size_t m = 0; m < km_kernel_set_size(set); m++) {
        km_kernel_set_describe(set, m, spec, sizeof spec);
        printf("%s\n", spec);
    }
}

/* OUTPUT for one kernel; OUTPUT with ".m" before the extension for several. */
static char *output_name(const char *output, size_t m, size_t M)
{
    size_t len = strlen(output) + 32;
    char *name = malloc(len);
    if (!name)
        return NULL;
    if (M == 1) {
        snprintf(name, len, "%s", output);
        return name;
    }
    const char *slash = strrchr(output, '/');
    const char *dot = strrchr(output, '.');
    if (!dot || (slash && dot < slash) || dot == output || (slash && dot == slash + 1))
        snprintf(name, len, "%s.%zu", output, m + 1);
    else
        snprintf(name, len, "%.*s.%zu%s", (int)(dot - output), output, m + 1, dot);
    return name;
}

/* LIBSVM precomputed-kernel text: "label 0:i 1:K(i,1) ..." */
static void write_text(km_atomic_file *out, const km_matrix *K, const km_dataset *rows)
{
    const double *labels = km_dataset_labels(rows);
    for (size_t i = 0; i < km_matrix_rows(K); i++) {
        char label[64];
        cli_format_value(label, sizeof label, labels ? labels[i] : 0.0);
        fprintf(out->stream, "%s 0:%zu", label, i + 1);
        for (size_t j = 0; j < km_matrix_cols(K); j++)
            fprintf(out->stream, " %zu:%.17g", j + 1, km_matrix_value(K, i, j));
        fputc('\n', out->stream);
    }
}

/* Computes kernel m and writes it to its finished (complete, not yet published) output file. */
static km_status compute_one(const kernel_options *o, const km_kernel_set *fitted, size_t m, const km_dataset *rows,
                             const km_dataset *train, const char *path, km_atomic_file *out)
{
    km_matrix *K = NULL;
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    km_status st = km_kernel_matrix(fitted, m, rows, train, &K);
    clock_gettime(CLOCK_MONOTONIC, &end);
    if (!st && o->verbose) {
        cli_progress_clear();
        printf("kernel %zu: %zu x %zu matrix computed in %.6f s\n", m + 1, km_matrix_rows(K), km_matrix_cols(K),
               (double)(end.tv_sec - start.tv_sec) + 1e-9 * (double)(end.tv_nsec - start.tv_nsec));
        fflush(stdout);
    }
    if (!st && !o->text)
        st = km_matrix_writable(K, path, o->dtype);
    if (!st)
        st = km_atomic_open(out, path, "kernel matrix");
    if (!st) {
        if (o->text)
            write_text(out, K, rows);
        else
            km_matrix_write_to(K, out, o->dtype);
        st = km_atomic_finish(out);
    }
    km_matrix_free(K);
    return st;
}

/* Every output name, each checked against the inputs before anything is computed; 0 when one is
 * refused (reported). */
static int output_names(const kernel_options *o, const cli_inputs *inputs, size_t M, char **names)
{
    if (M > 1 && !strcmp(o->positionals.values[1], "-")) {
        cli_error(CMD, "%zu kernel matrices cannot all go to standard output ('-'); give OUTPUT a file name", M);
        return 0;
    }
    int ok = 1;
    for (size_t m = 0; ok && m < M; m++) {
        if (!(names[m] = output_name(o->positionals.values[1], m, M))) {
            cli_error(CMD, "out of memory");
            ok = 0;
        }
        ok = ok && cli_check_output(CMD, names[m], inputs);
    }
    return ok;
}

/* All or nothing: every matrix is computed and written to its temporary file first, and the files
 * are published under their names together when all are complete (km_atomic_publish_all: a failure
 * or a signal leaves every name as it was, or every new file published). */
static int compute(const kernel_options *o, const cli_inputs *inputs, const km_kernel_set *set,
                   const km_dataset *train)
{
    km_dataset *test = NULL;
    km_kernel_set *fitted = NULL;
    char **names = NULL;
    km_atomic_file *outputs = NULL;
    km_status st = KM_OK;
    size_t M = km_kernel_set_size(set);
    if (!(names = calloc(M + 1, sizeof *names)) || !(outputs = calloc(M + 1, sizeof *outputs)))
        st = km_error_nomem("the output names");
    int rc = st ? cli_fail(CMD, st) : output_names(o, inputs, M, names) ? CLI_OK : CLI_USAGE;
    if (!rc && o->test_path)
        st = cli_read_data(o->test_path, &o->input, 0, &test);
    if (!rc && !st)
        st = km_kernel_set_fit(set, train, &fitted);
    if (!rc && st)
        rc = cli_fail(CMD, st);
    cli_progress_start(CMD, CLI_PROGRESS_AUTO, 0);
    for (size_t m = 0; !rc && !st && m < M; m++) {
        cli_progress_show(1, "kernels", (double)m / (double)M, "kernel %zu/%zu", m + 1, M);
        st = compute_one(o, fitted, m, test ? test : train, train, names[m], &outputs[m]);
    }
    cli_progress_clear();
    for (size_t m = 0; !rc && st && m < M; m++)
        km_atomic_abort(&outputs[m]); /* also safe on a file never opened or already released */
    if (!rc && !st)
        st = km_atomic_publish_all(outputs, M);
    if (!rc && st)
        rc = cli_fail(CMD, st);
    for (size_t m = 0; names && m < M; m++)
        free(names[m]);
    free(names);
    free(outputs);
    km_kernel_set_free(fitted);
    km_dataset_free(test);
    return rc;
}

static int run(const kernel_options *o)
{
    km_dataset *train = NULL;
    km_kernel_set *set = NULL;
    int rc = CLI_OK;
    km_status st = KM_OK;
    cli_inputs inputs = {0};
    if (!cli_inputs_add(CMD, &inputs, o->positionals.n > 0 ? o->positionals.values[0] : NULL) ||
        !cli_inputs_add(CMD, &inputs, o->test_path) ||
        !cli_inputs_add_all(CMD, &inputs, o->specs.files, o->specs.n_files)) {
        cli_inputs_free(&inputs);
        return CLI_USAGE;
    }
    if (o->positionals.n > 0)
        st = cli_read_data(o->positionals.values[0], &o->input, 0, &train);
    if (!st)
        st = build_set(o, train, &set);
    if (st) {
        rc = cli_fail(CMD, st);
    } else if (o->list && train) {
        km_kernel_set *fitted;
        if ((st = km_kernel_set_fit(set, train, &fitted))) {
            rc = cli_fail(CMD, st);
        } else {
            print_set(fitted);
            km_kernel_set_free(fitted);
        }
    } else if (o->list) {
        print_set(set);
    } else {
        inputs.set = set;
        rc = compute(o, &inputs, set, train);
    }
    cli_inputs_free(&inputs);
    km_kernel_set_free(set);
    km_dataset_free(train);
    return rc;
}

int cmd_kernel(int argc, char **argv)
{
    kernel_options o;
    memset(&o, 0, sizeof o);
    o.dtype = KM_FLOAT64;
    o.input = (cli_input)CLI_INPUT_INIT;
    int parsed = parse_options(&o, argc, argv);
    int rc = parsed < 0 ? CLI_USAGE : parsed == 0 ? CLI_OK : run(&o);
    cli_kernel_specs_free(&o.specs);
    return rc;
}
