/* The options of a training run, shared by kernelmix train and kernelmix cv (whose settings are
 * training runs): parsed with the parameter table (cli_param_option) and the options that need more
 * than their row, the kernel set they build and the checks of the run. */
#ifndef KM_CLI_TRAIN_OPTIONS_H
#define KM_CLI_TRAIN_OPTIONS_H

#include <stdint.h>

#include "cli.h"

typedef struct train_options {
    const char *cmd;            /* the subcommand, for messages */
    int max_positionals;        /* TRAIN_FILE [MODEL_FILE]: 2; TRAIN_FILE: 1 */
    int help;                   /* --help given */
    const char *const *other_options; /* the command's options besides these, NULL-terminated */
    km_params *params;
    int libsvm_kernel;          /* -t value */
    double degree, gamma, coef0;
    int have_gamma;
    cli_kernel_specs specs;
    int norm;                   /* km_normalization of the specs that set none */
    long landmarks;             /* --landmarks N: low-rank kernels of rank N (0: exact) */
    const char *low_rank_sampling; /* --low-rank: the landmark sampling (NULL: uniform) */
    double low_rank_icd;        /* --low-rank icd[=TOL]: the pivots' trace tolerance (0: a draw) */
    const char *weights;
    double *class_labels, *class_weights;
    size_t n_class_weights;
    int mkl_implied;            /* --p or --p-block given: lp-norm MKL unless --mkl says otherwise */
    int mkl_given;              /* --mkl given */
    char given[KM_PARAM_SLOTS][32]; /* by parameter: the option that set it, as written (else "") */
    const char *reg_param;      /* --reg-param, read once the regularizer is known */
    const char *cluster_spec;   /* --cluster-kernel SPEC: an extra clustering-only kernel */
    int folds;
    int json;                   /* --json: -v prints a JSON line */
    const char *trace_path;     /* --trace FILE */
    char *options_text;         /* the options as given, for --json */
    int quiet, verbose;
    cli_progress_mode progress;
    cli_input input;
    const char *train_path, *model_path;
} train_options;
/* An empty run of cmd (defaults set) taking up to max_positionals file names; 0 (reported) without memory. */
int train_options_init(train_options *o, const char *cmd, int max_positionals);
void train_options_free(train_options *o);
/* Parses argv[1..argc); returns 1 to go on, 0 after --help (o->help set), -1 on a usage error (reported). */
int train_options_parse(train_options *o, int argc, char **argv);
int64_t train_options_get_int(const train_options *o, km_param id);
/* The kernel set of the options (the LIBSVM -t kernel when no spec is given) on data's features. */
km_status train_options_build_kernels(const train_options *o, const km_dataset *data, km_kernel_set **out);
/* The kernel options as one text: runs whose texts are equal build equal kernel sets. */
void train_options_kernel_text(const train_options *o, char *buf, size_t size);
/* Whether TRAIN_FILE holds LIBSVM precomputed-kernel rows. */
int train_options_needs_precomputed_rows(const train_options *o);
/* Parses --weights into M values (*out: free it); 0 after reporting an error. */
int train_options_parse_weights(const char *cmd, const char *text, size_t M, double **out);
/* 0 (reported) when the default label column gives classes no classification could learn from. */
int train_options_check_label_column(const train_options *o, const km_dataset *data);
/* The names (", "-separated, into buf) of the tasks (tasks != 0) or the methods that read parameter
 * id (read != 0) or ignore it with the run's method or task; returns how many. */
size_t cli_param_readers(km_param id, int tasks, int read, km_task task, km_mkl_method method, char *buf, size_t size);

#endif
