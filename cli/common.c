/* Shared pieces of the subcommands: messages, exit codes, argument scanning and number parsing. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

void cli_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cli_progress_clear();
    fprintf(stderr, "kernelmix %s: ", cmd);
    if (km_dist_rank() > 0)   /* the other ranks of an MPI job say who they are */
        fprintf(stderr, "rank %d on %s: ", km_dist_rank(), km_dist_host());
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* What a status means, for a failure whose library call left no message (every call should). */
static const char *status_meaning(km_status status)
{
    switch (status) {
    case KM_ENOMEM: return "out of memory";
    case KM_EIO: return "input or output failed";
    case KM_EFORMAT: return "malformed input";
    case KM_ENOTCONV: return "the solver did not converge";
    case KM_EINTERRUPTED: return "interrupted";
    default: return "invalid input";
    }
}

int cli_fail(const char *cmd, km_status status)
{
    const char *message = km_last_error();
    /* under MPI a rank that failed because another did leaves the telling to that one (or to rank 0) */
    if (km_dist_rank() == 0 || strncmp(message, KM_DIST_FAILED_ELSEWHERE, strlen(KM_DIST_FAILED_ELSEWHERE)))
        cli_error(cmd, "%s", message[0] ? message : status_meaning(status));
    switch (status) {
    case KM_EINVAL:
    case KM_EFORMAT:
    case KM_EIO:
        return CLI_USAGE;
    default:
        return CLI_FAILURE;
    }
}

void cli_args_init(cli_args *args, const char *cmd, int argc, char **argv)
{
    memset(args, 0, sizeof *args);
    args->cmd = cmd;
    args->argc = argc;
    args->argv = argv;
    args->index = 0; /* argv[0] is the subcommand */
}

int cli_args_next(cli_args *args, const char **positional)
{
    if (args->failed || ++args->index >= args->argc)
        return 0;
    const char *a = args->argv[args->index];
    if (!args->only_positionals && !strcmp(a, "--")) {
        args->only_positionals = 1;
        return cli_args_next(args, positional);
    }
    if (args->only_positionals || a[0] != '-' || a[1] == '\0' || (a[1] >= '0' && a[1] <= '9') || a[1] == '.') {
        *positional = a;
        return 2;
    }
    args->name = a;
    args->n_compared = 0;
    const char *eq = a[1] == '-' ? strchr(a, '=') : NULL;
    args->name_len = eq ? (size_t)(eq - a) : strlen(a);
    args->inline_value = eq ? eq + 1 : NULL;
    return 1;
}

static int name_equals(const cli_args *args, const char *name)
{
    return name && strlen(name) == args->name_len && !strncmp(args->name, name, args->name_len);
}

static void remember_compared(cli_args *args, const char *name)
{
    if (name && args->n_compared < sizeof args->compared / sizeof args->compared[0])
        args->compared[args->n_compared++] = name;
}

int cli_args_is(cli_args *args, const char *short_name, const char *long_name)
{
    remember_compared(args, short_name);
    remember_compared(args, long_name);
    return name_equals(args, short_name) || name_equals(args, long_name);
}

int cli_args_has_prefix(const cli_args *args, const char *prefix)
{
    size_t len = strlen(prefix);
    return args->name[1] != '-' && args->name_len > len && !strncmp(args->name, prefix, len);
}

const char *cli_args_value(cli_args *args)
{
    if (args->inline_value)
        return args->inline_value;
    if (args->index + 1 >= args->argc) {
        cli_error(args->cmd, "option %.*s needs a value", (int)args->name_len, args->name);
        args->failed = 1;
        return NULL;
    }
    return args->argv[++args->index];
}

void cli_args_unknown(cli_args *args)
{
    char name[128], hint[96];
    snprintf(name, sizeof name, "%.*s", (int)args->name_len, args->name);
    km_did_you_mean(km_suggest(name, args->compared, args->n_compared), hint, sizeof hint);
    cli_error(args->cmd, "unknown option %s%s (see kernelmix %s --help)", name, hint, args->cmd);
    args->failed = 1;
}

int cli_args_next_option(cli_args *args, cli_positionals *positionals)
{
    const char *positional;
    int kind;
    while ((kind = cli_args_next(args, &positional)) == 2) {
        if (positionals->n < positionals->max) {
            positionals->values[positionals->n++] = positional;
        } else if (!positionals->rest) {
            cli_error(args->cmd, "unexpected argument '%s' (see kernelmix %s --help)", positional, args->cmd);
            args->failed = 1;
        } else if (!cli_push(args->cmd, positionals->rest, positionals->n_rest, positional)) {
            args->failed = 1;
        }
    }
    return kind;
}

int cli_positionals_given(const char *cmd, const cli_positionals *positionals, size_t min, const char *what)
{
    if (positionals->n >= min)
        return 1;
    cli_error(cmd, "%s (see kernelmix %s --help)", what, cmd);
    return 0;
}

int cli_parse_double(const char *cmd, const char *option, const char *text, double lo, double hi, double *out)
{
    if (!text)
        return 0; /* the missing value was reported by cli_args_value */
    double v, base, exponent;
    km_user_number_status problem = km_parse_user_number(text, &v, &base, &exponent);
    if (problem) {
        cli_error(cmd, "option %s: '%s' is %s", option, text, km_number_problem(problem));
        return 0;
    }
    if (v < lo || v > hi) {
        cli_error(cmd, "option %s: %s is out of range [%g, %g]", option, text, lo, hi);
        return 0;
    }
    *out = v;
    return 1;
}

int cli_parse_long(const char *cmd, const char *option, const char *text, long lo, long hi, long *out)
{
    if (!text)
        return 0;
    /* digits exactly (a seed may need all 63 bits), or an integral value in another form of
     * km_parse_user_number (2^4, 1e3) within long's range */
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (end == text || *end != '\0' || errno == ERANGE) {
        double x, base, exponent;
        km_user_number_status problem = km_parse_user_number(text, &x, &base, &exponent);
        if (problem && problem != KM_USER_NUMBER_SYNTAX) {
            cli_error(cmd, "option %s: '%s' is %s", option, text, km_number_problem(problem));
            return 0;
        }
        if (problem || x != floor(x)) {
            cli_error(cmd, "option %s: '%s' is not an integer", option, text);
            return 0;
        }
        if (!(fabs(x) < 0x1p63)) {
            cli_error(cmd, "option %s: %s is out of range [%ld, %ld]", option, text, lo, hi);
            return 0;
        }
        v = (long)x;
    }
    if (v < lo || v > hi) {
        cli_error(cmd, "option %s: %ld is out of range [%ld, %ld]", option, v, lo, hi);
        return 0;
    }
    *out = v;
    return 1;
}

int cli_parse_name(const char *cmd, const char *option, const char *text, km_enum e, int *out)
{
    if (!text)
        return 0;
    if (km_enum_value(e, text, out) != KM_OK) {
        cli_error(cmd, "option %s: %s", option, km_last_error());
        return 0;
    }
    return 1;
}

const char *cli_task_title(km_task task)
{
    switch (task) {
    case KM_TASK_SVC: return "C-SVC";
    case KM_TASK_SVR: return "epsilon-SVR";
    case KM_TASK_ONECLASS: return "one-class SVM";
    case KM_TASK_NU_SVC: return "nu-SVC";
    case KM_TASK_NU_SVR: return "nu-SVR";
    case KM_TASK_KRR: return "kernel ridge regression";
    }
    return "unknown task";
}

int cli_parse_format(const char *cmd, const char *text, cli_format *out)
{
    if (!strcmp(text, "auto"))
        *out = CLI_FORMAT_AUTO;
    else if (!strcmp(text, "libsvm"))
        *out = CLI_FORMAT_LIBSVM;
    else if (!strcmp(text, "csv"))
        *out = CLI_FORMAT_CSV;
    else if (!strcmp(text, "seq") || !strcmp(text, "fasta"))
        *out = CLI_FORMAT_SEQUENCES;
    else {
        cli_error(cmd, "option --format: '%s' is not one of auto, libsvm, csv, seq", text);
        return 0;
    }
    return 1;
}

void cli_format_value(char *buf, size_t size, double value)
{
    if (value == floor(value) && fabs(value) < 1e15)
        snprintf(buf, size, "%.0f", value);
    else
        snprintf(buf, size, "%.17g", value);
}

static int constant(const double *values, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (values[i] != values[0])
            return 0;
    return 1;
}

void cli_print_regression_report(FILE *out, const char *prefix, const char *suffix, const double *truth,
                                 const double *predicted, size_t n)
{
    double r2;
    fprintf(out, "%sMean squared error = %g%s\n", prefix, km_mse(truth, predicted, n), suffix);
    if (km_squared_correlation(truth, predicted, n, &r2) == KM_OK)
        fprintf(out, "%sSquared correlation coefficient = %g%s\n", prefix, r2, suffix);
    else
        fprintf(out, "%sSquared correlation coefficient = undefined (%s)\n", prefix,
                constant(truth, n) ? "constant target" : constant(predicted, n) ? "constant predictions"
                                                                               : "the sums of squares overflow");
}

int cli_push(const char *cmd, const char ***list, size_t *n, const char *value)
{
    const char **grown = realloc(*list, (*n + 1) * sizeof *grown);
    if (!grown) {
        cli_error(cmd, "out of memory");
        return 0;
    }
    grown[(*n)++] = value;
    *list = grown;
    return 1;
}

const char CLI_INPUT_HELP[] =
"  --format F         auto (default: CSV for a .csv name, labelled sequences for .seq, .fa,\n"
"                     .fasta or .fna, else LIBSVM), libsvm, csv or seq (LABEL<TAB>SEQUENCE\n"
"                     lines or FASTA with >LABEL headers)\n"
"  --alphabet LETTERS the letters sequences may hold (default ACGT; lower case is read as\n"
"                     upper case unless LETTERS has lower-case letters)\n"
"  --label-column K   CSV column of the label, 1-based; negative counts from the end\n"
"                     (default -1, the last; predict: the training file's); 0: no label\n"
"  --delimiter C      CSV field delimiter: a character, 'tab' or 'space' (runs of blanks);\n"
"                     default: detected from the first line (',' ';' tab, else blanks)\n"
"  a file name '-'    standard input (for one input of a command), or standard output\n"
"                     (for an output: written when complete, nothing on a failure)\n";

/* --delimiter: "auto", "tab", "space" or one character (the reader refuses the impossible ones). */
static int parse_delimiter(const char *cmd, const char *text, char *out)
{
    if (!text)
        return 0;
    if (!strcmp(text, "auto"))
        *out = 0;
    else if (!strcmp(text, "tab") || !strcmp(text, "\\t"))
        *out = '\t';
    else if (!strcmp(text, "space"))
        *out = ' ';
    else if (strlen(text) == 1)
        *out = text[0];
    else {
        cli_error(cmd, "option --delimiter: '%s' is not one character, 'tab', 'space' or 'auto'", text);
        return 0;
    }
    return 1;
}

int cli_data_option(cli_args *args, cli_input *input)
{
    const char *v;
    long l;
    if (cli_args_is(args, NULL, "--format"))
        return (v = cli_args_value(args)) && cli_parse_format(args->cmd, v, &input->format) ? 1 : -1;
    if (cli_args_is(args, NULL, "--alphabet"))
        return (input->alphabet = cli_args_value(args)) ? 1 : -1;
    if (cli_args_is(args, NULL, "--delimiter"))
        return parse_delimiter(args->cmd, cli_args_value(args), &input->delimiter) ? 1 : -1;
    if (!cli_args_is(args, NULL, "--label-column"))
        return 0;
    if (!cli_parse_long(args->cmd, "--label-column", cli_args_value(args), -1000000, 1000000, &l))
        return -1;
    input->label_column = l == 0 ? KM_CSV_NO_LABEL : l > 0 ? (int)l - 1 : (int)l;
    input->label_column_given = 1;
    return 1;
}

int cli_kernel_data_option(cli_args *args, cli_kernel_specs *specs, cli_input *input)
{
    int handled = cli_kernel_spec_option(args, specs);
    return handled ? handled : cli_data_option(args, input);
}

int cli_need_kernels(const char *cmd, const cli_kernel_specs *specs)
{
    if (specs->n > 0)
        return 1;
    cli_error(cmd, "no kernels: give --kernel SPEC or --kernels FILE (see kernelmix %s --help)", cmd);
    return 0;
}

int cli_cluster_kernel_option(cli_args *args, km_params *params, const char **cluster_spec)
{
    if (!cli_args_is(args, NULL, "--cluster-kernel"))
        return 0;
    const char *text = cli_args_value(args);
    if (!text)
        return -1;
    if (text[0] < '0' || text[0] > '9') {
        *cluster_spec = text;
        return 1;
    }
    km_status st = km_params_set_text_as(params, KM_PARAM_CLUSTER_KERNEL, text, "option --cluster-kernel", 0);
    return st ? (cli_fail(args->cmd, st), -1) : 1;
}

void cli_mean_std(const double *x, size_t n, double *mean, double *std)
{
    double sum = 0.0, squares = 0.0;
    for (size_t i = 0; i < n; i++)
        sum += x[i];
    *mean = sum / (double)n;
    for (size_t i = 0; i < n; i++)
        squares += (x[i] - *mean) * (x[i] - *mean);
    *std = n > 1 ? sqrt(squares / (double)(n - 1)) : 0.0;
}
