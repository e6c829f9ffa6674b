/* Shared pieces of the kernelmix subcommands: argument scanning, number parsing, messages, exit
 * codes and input reading. Beyond kernelmix.h the tool uses only the internals cli_internals.h names;
 * output files are written with its atomic files, so that they appear under their final name only
 * when complete. */
#ifndef KM_CLI_CLI_H
#define KM_CLI_CLI_H

/* The CLI reports what the experimental tier of kernelmix.h reads (info: the evidence, memberships,
 * the Ivanov form, the diagnostics); it ships with the library it is built with. Every cli/ source
 * includes this header before any other header of the project. */
#define KM_EXPERIMENTAL_API

#include <stdio.h>

#include "cli_internals.h"
#include "kernelmix.h"

/* Exit statuses: 0 success, 1 failure, 2 bad usage or bad input. */
enum { CLI_OK = 0, CLI_FAILURE = 1, CLI_USAGE = 2 };

int cmd_train(int argc, char **argv);
int cmd_predict(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_kernel(int argc, char **argv);
int cmd_scale(int argc, char **argv);
int cmd_bound(int argc, char **argv);
int cmd_cluster(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_cv(int argc, char **argv);

/* Prints "kernelmix CMD: message" on stderr. */
void cli_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Reports a failed library call with km_last_error() and returns the exit status for it. */
int cli_fail(const char *cmd, km_status status);

/* Argument scanner: options "-x VALUE", "--name VALUE", "--name=VALUE", flags, and positionals. */
typedef struct cli_args {
    const char *cmd;
    int argc;
    char **argv;
    int index;              /* current argument */
    const char *name;       /* current option as written, up to '=' */
    size_t name_len;
    const char *inline_value; /* value after '=', or NULL */
    int only_positionals;   /* after "--" */
    int failed;
    /* the option names the current option was compared with (cli_args_is), for "did you mean" */
    const char *compared[128];
    size_t n_compared;
} cli_args;

void cli_args_init(cli_args *args, const char *cmd, int argc, char **argv);
/* Advances; returns 1 for an option, 2 for a positional (in *positional), 0 at the end. */
int cli_args_next(cli_args *args, const char **positional);
/* Whether the current option is short_name or long_name (either may be NULL). */
int cli_args_is(cli_args *args, const char *short_name, const char *long_name);
/* Whether the current option starts with prefix (for LIBSVM's -wLABEL). */
int cli_args_has_prefix(const cli_args *args, const char *prefix);
/* The current option's value; on a missing value prints an error and sets failed. */
const char *cli_args_value(cli_args *args);
/* Reports an unknown option, with the nearest of the names it was compared with, and sets failed. */
void cli_args_unknown(cli_args *args);

/* The positional arguments of a command, in command-line order: up to max (at most 3) in values, and
 * where rest is not NULL every further one appended to the list *rest of *n_rest (cli_push). */
typedef struct cli_positionals {
    size_t max;
    const char *values[3];
    size_t n;
    const char ***rest;
    size_t *n_rest;
} cli_positionals;
/* Advances to the next option and returns 1, or returns 0 at the end; the positional arguments on
 * the way go into positionals. One beyond max (without rest) is reported, "unexpected argument 'X'
 * (see kernelmix CMD --help)", and ends the scan with failed set. */
int cli_args_next_option(cli_args *args, cli_positionals *positionals);
/* 1 when at least min positional arguments were given; else reports "WHAT (see kernelmix CMD --help)"
 * (what: "missing TRAIN_FILE") and returns 0. */
int cli_positionals_given(const char *cmd, const cli_positionals *positionals, size_t min, const char *what);

/* Number parsing with range checks; on error prints "option X: ..." and returns 0. A NULL text (a
 * missing value, already reported by cli_args_value) returns 0 silently. */
int cli_parse_double(const char *cmd, const char *option, const char *text, double lo, double hi, double *out);
int cli_parse_long(const char *cmd, const char *option, const char *text, long lo, long hi, long *out);
/* The value of enumeration e called text (km_enum_value); on error prints "option X: 'text' is not
 * a, b or c" and returns 0. */
int cli_parse_name(const char *cmd, const char *option, const char *text, km_enum e, int *out);
/* The task as reports name it: "C-SVC", "epsilon-SVR", "one-class SVM". */
const char *cli_task_title(km_task task);

/* Appends value to a growing list of strings; on failure prints an error and returns 0. */
int cli_push(const char *cmd, const char ***list, size_t *n, const char *value);

/* Input data format. */
typedef enum cli_format { CLI_FORMAT_AUTO, CLI_FORMAT_LIBSVM, CLI_FORMAT_CSV, CLI_FORMAT_SEQUENCES } cli_format;
int cli_parse_format(const char *cmd, const char *text, cli_format *out);
/* How the subcommands read their data files. */
typedef struct cli_input {
    cli_format format;
    int label_column;           /* CSV label column in km_csv_options' convention */
    int label_column_given;     /* --label-column was given (predict otherwise takes the model's) */
    char delimiter;             /* CSV field delimiter; 0: detected from the first line */
    const char *alphabet;       /* sequences: the letters they may hold (NULL: ACGT) */
} cli_input;
#define CLI_INPUT_INIT {CLI_FORMAT_AUTO, -1, 0, 0, NULL}
/* Handles the input options every subcommand shares, --format F, --label-column K (1-based, negative
 * from the end, 0: none) and --delimiter C. Returns 0 when the current option is not one of them, 1
 * when it was parsed, -1 on a bad value (reported). */
int cli_data_option(cli_args *args, cli_input *input);
/* Reads a dataset: CSV when asked or the name ends in .csv, a numpy array when the name ends in .npy
 * (without precomputed rows), labelled sequences when asked or the name ends in .seq, .fa, .fasta or
 * .fna, else LIBSVM (precomputed rows when precomputed != 0). */
km_status cli_read_data(const char *path, const cli_input *input, int precomputed, km_dataset **out);
/* The bytes of the file at path ("-": standard input) into *bytes (malloc'ed, *n of them). */
km_status cli_read_file(const char *path, void **bytes, size_t *n);
/* The mean and sample standard deviation (0 for one value) of n values: the per-split figures that
 * cv and train -v print. */
void cli_mean_std(const double *x, size_t n, double *mean, double *std);
/* Whether cli_read_data takes the label of path's rows from a column (CSV, numpy arrays): --label-column
 * chooses it. */
int cli_label_from_column(const char *path, const cli_input *input, int precomputed);
/* The help lines of the input options, for every subcommand's usage. */
extern const char CLI_INPUT_HELP[];

/* The kernel options --kernel SPEC and --kernels FILE, in command-line order. */
typedef struct cli_kernel_specs {
    const char **items;         /* spec, or spec file name */
    unsigned char *is_file;     /* per item: 1 for --kernels FILE */
    size_t n;
    const char **files;         /* the spec files alone (inputs an output must not overwrite) */
    size_t n_files;
} cli_kernel_specs;
/* Handles --kernel and --kernels: 0 when the current option is neither, 1 when taken, -1 on an error
 * (reported). */
int cli_kernel_spec_option(cli_args *args, cli_kernel_specs *specs);
/* Adds every spec to set in command-line order. */
km_status cli_kernel_specs_add(const cli_kernel_specs *specs, km_kernel_set *set);
void cli_kernel_specs_free(cli_kernel_specs *specs);
/* --cluster-kernel SPEC of localized MKL: adds SPEC (one kernel) to set as a kernel that only clusters
 * (KM_PARAM_CLUSTER_KERNEL, KM_PARAM_CLUSTER_ONLY); KM_EINVAL for a SPEC of several kernels. */
km_status cli_add_cluster_kernel(km_params *params, km_kernel_set *set, const char *spec);
/* The kernel options (cli_kernel_spec_option) and the input options (cli_data_option) of a command
 * that reads a dataset and kernel specs: 0 when the current option is none of them, 1 when taken, -1
 * on an error (reported). */
int cli_kernel_data_option(cli_args *args, cli_kernel_specs *specs, cli_input *input);
/* 1 when specs names a kernel, else 0 with the error "no kernels: ..." of the command. */
int cli_need_kernels(const char *cmd, const cli_kernel_specs *specs);
/* --cluster-kernel K of localized MKL: a kernel number into params (KM_PARAM_CLUSTER_KERNEL), or the
 * SPEC of an extra kernel, kept in *cluster_spec: 0 when the current option is not it, 1 when taken,
 * -1 on an error (reported). */
int cli_cluster_kernel_option(cli_args *args, km_params *params, const char **cluster_spec);

/* The options that set training parameters (cli/param_options.c), from the parameter table: when the
 * current option is one of the options of a parameter in ids (0-terminated; NULL: any parameter), sets
 * it from its value (bounds and forms of km_param_describe) and returns 1 with *id the parameter, -1
 * after reporting a bad value; 0 when it is no such option. */
int cli_param_option(cli_args *args, km_params *params, const km_param *ids, km_param *id);
/* Whether the current option is the option of a parameter that takes a value (not a switch). */
int cli_param_value_option(cli_args *args);
/* The help of parameter id's option: "  OPTION VALUE   PREFIXtext (default D); also ALIASES", wrapped
 * (prefix may be NULL). */
void cli_param_help(FILE *out, km_param id, const char *prefix);
/* One help entry: head in the option column, text wrapped beside it. */
void cli_help_paragraph(FILE *out, const char *head, const char *text);

/* The files a command reads, which none of its outputs may be (cli_check_output): data, test data,
 * models, range files, test kernels and --kernels spec files by name ("-": standard input), and the
 * file= of the precomputed kernels of set (NULL: none). */
typedef struct cli_inputs {
    const char **paths;
    size_t n;
    const km_kernel_set *set;
} cli_inputs;
/* Adds path (NULL: nothing); 0 (reported) when out of memory or when path is a second "-". */
int cli_inputs_add(const char *cmd, cli_inputs *inputs, const char *path);
int cli_inputs_add_all(const char *cmd, cli_inputs *inputs, const char *const *paths, size_t n);
void cli_inputs_free(cli_inputs *inputs);
/* Whether output may be written: 0 (reported: one line naming both) when it is the same file (device
 * and inode: links count) as one of inputs; "-" is standard output. Every subcommand calls it for
 * each output before any work, so a refused command writes nothing. */
int cli_check_output(const char *cmd, const char *output, const cli_inputs *inputs);
/* SIGINT, SIGTERM and SIGHUP remove the temporary files of unfinished outputs, then end the process
 * as the signal would have. */
void cli_remove_partial_output_on_signals(void);
/* Executes the program again with OMP_WAIT_POLICY=PASSIVE unless the environment sets a wait policy
 * (openmp_waits.c); returns when it does not. */
void cli_use_passive_openmp_waits(char **argv);

/* The progress of long work on stderr (progress.c). --progress bar: one line redrawn in place (erased by
 * cli_progress_clear, which every message on stderr and the end of the work call first); plain: a line
 * at each new stage and at most every few seconds; none. AUTO: bar when stderr is a terminal and the
 * command is not quiet, else none. */
typedef enum cli_progress_mode {
    CLI_PROGRESS_AUTO = 0, CLI_PROGRESS_NONE, CLI_PROGRESS_PLAIN, CLI_PROGRESS_BAR
} cli_progress_mode;
/* --progress MODE: bar, plain or none; 0 (reported) on another value. */
int cli_parse_progress(const char *cmd, const char *text, cli_progress_mode *mode);
/* The --progress help line of the commands that take it. */
extern const char CLI_PROGRESS_HELP[];
void cli_progress_start(const char *cmd, cli_progress_mode mode, int quiet);
/* Shows what is being done (fmt), in stage (a short name: a new stage is shown at once), with the
 * fraction done (< 0: unknown); force: a new step the bar shows at once (else at most ten times a
 * second; plain mode: every few seconds). */
void cli_progress_show(int force, const char *stage, double done, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void cli_progress_clear(void);
/* Shows where training is: fitting the kernels, the fold, the machine, the MKL outer step and its gap. */
void cli_progress_training(const km_progress *progress);
/* The machine training is at, 1-based over all folds (0: none), of *n_machines. */
size_t cli_progress_machine(size_t *n_machines);

/* The trace file of train --trace (trace_file.c): a JSON line per outer MKL step (iteration, machine,
 * fold under -v, seconds, objective, dual, primal, gap where the method has them, weights). */
typedef struct cli_trace {
    km_atomic_file file;
    int open;
} cli_trace;
/* Opens the trace at path (NULL: no trace; every call then does nothing). */
km_status cli_trace_open(cli_trace *trace, const char *path);
/* Writes the line of a progress report of stage "mkl"; other reports write nothing. */
void cli_trace_step(cli_trace *trace, const km_progress *progress);
/* Publishes the trace (keep) or removes it (the work failed: no partial output). */
km_status cli_trace_close(cli_trace *trace, int keep);

/* Log callback of a command: errors at once; warnings (unless quiet) gathered by their text with the
 * numbers taken out, and printed by cli_log_flush once each, with the range of each number and how many
 * machines gave them; information when verbose, at once. To stderr, unbuffered, so that a redirected
 * log shows each line when it happens. */
typedef struct cli_warning cli_warning;
typedef struct cli_log {
    const char *cmd;
    int verbose;
    int quiet;                   /* warnings are dropped */
    cli_warning *warnings;       /* gathered, not yet printed */
    size_t n_warnings;
} cli_log;
void cli_log_fn(void *user, km_log_level level, const char *message);
/* Prints the gathered warnings and forgets them. */
void cli_log_flush(cli_log *log);

/* The regression figures of predict and train -v: "PREFIXMean squared error = MSESUFFIX" and the squared
 * correlation coefficient, or "= undefined (constant target)" (or constant predictions) where it is. */
void cli_print_regression_report(FILE *out, const char *prefix, const char *suffix, const double *truth,
                                 const double *predicted, size_t n);
/* JSON values: a string with quotes, backslashes and control characters escaped; a number with 17
 * digits, null when not finite (JSON has no NaN or infinity). */
void cli_json_string(FILE *out, const char *s);
void cli_json_number(FILE *out, double v);

/* Formats a label: integral values without decimals, others with 17 significant digits. */
void cli_format_value(char *buf, size_t size, double value);

#endif
