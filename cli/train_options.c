/* The options of a training run (train_options.h). */
#include "train_options.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>


size_t cli_param_readers(km_param id, int tasks, int read, km_task task, km_mkl_method method, char *buf, size_t size)
{
    size_t count = 0, used = 0;
    int value;
    const char *name;
    buf[0] = '\0';
    for (size_t k = 0; (name = km_enum_name_at(tasks ? KM_ENUM_TASK : KM_ENUM_MKL_METHOD, k, &value)); k++) {
        int reads = tasks ? km_param_read_by(id, (km_task)value, method) : km_param_read_by(id, task, value);
        if (!reads == !read && used < size) {
            used += (size_t)snprintf(buf + used, size - used, "%s%s", count ? ", " : "", name);
            count++;
        }
    }
    return count;
}


static int add_class_weight(train_options *o, const char *label_text, const char *weight_text)
{
    double label, weight;
    if (!cli_parse_double(o->cmd, "-w", label_text, -HUGE_VAL, HUGE_VAL, &label) ||
        !cli_parse_double(o->cmd, "-w", weight_text, 1e-300, HUGE_VAL, &weight))
        return 0;
    size_t k = o->n_class_weights++;
    double *l = realloc(o->class_labels, (k + 1) * sizeof *l);
    if (l)
        o->class_labels = l;
    double *w = realloc(o->class_weights, (k + 1) * sizeof *w);
    if (w)
        o->class_weights = w;
    if (!l || !w) {
        cli_error(o->cmd, "out of memory");
        return 0;
    }
    o->class_labels[k] = label;
    o->class_weights[k] = weight;
    return 1;
}

/* Sets a parameter the options parser has checked already; returns 0 after reporting a failure. */
static int set_double(train_options *o, km_param id, double value)
{
    km_status st = km_params_set_double(o->params, id, value);
    return st ? (cli_fail(o->cmd, st), 0) : 1;
}

static int set_int(train_options *o, km_param id, int64_t value)
{
    km_status st = km_params_set_int(o->params, id, value);
    return st ? (cli_fail(o->cmd, st), 0) : 1;
}

int64_t train_options_get_int(const train_options *o, km_param id)
{
    int64_t value = 0;
    km_params_get_int(o->params, id, &value);
    return value;
}

/* Sets parameter id from an option's text as the parameter table reads it. */
static int set_text(train_options *o, km_param id, const char *option, const char *text)
{
    char as[64];
    snprintf(as, sizeof as, "option %s", option);
    km_status st = km_params_set_text_as(o->params, id, text, as, 0);
    return st ? (cli_fail(o->cmd, st), 0) : 1;
}

/* Appends the n arguments of an option to o->options_text, space-separated (an argument with a
 * space or a quote in single quotes, shell-style); 0 (reported) without memory. */
static int append_option(train_options *o, char *const *argv, int n)
{
    size_t used = o->options_text ? strlen(o->options_text) : 0, size = used + 1;
    for (int k = 0; k < n; k++)
        size += 4 * strlen(argv[k]) + 3; /* a quote becomes '\'' */
    char *text = realloc(o->options_text, size);
    if (!text) {
        cli_error(o->cmd, "out of memory");
        return 0;
    }
    o->options_text = text;
    for (int k = 0; k < n; k++) {
        const char *a = argv[k];
        int quoted = strpbrk(a, " \t'\"\\") != NULL;
        if (used)
            text[used++] = ' ';
        if (quoted)
            text[used++] = '\'';
        for (; *a; a++) {
            if (*a == '\'') {
                memcpy(text + used, "'\\''", 4);
                used += 4;
            } else {
                text[used++] = *a;
            }
        }
        if (quoted)
            text[used++] = '\'';
    }
    text[used] = '\0';
    return 1;
}

/* Refuses the parameter options given that the run does not read, naming the tasks or methods that do. */
static int check_options_read(const train_options *o)
{
    km_task task = (km_task)train_options_get_int(o, KM_PARAM_TASK);
    km_mkl_method method = (km_mkl_method)train_options_get_int(o, KM_PARAM_MKL_METHOD);
    const char *task_name = km_enum_name(KM_ENUM_TASK, task), *method_name = km_enum_name(KM_ENUM_MKL_METHOD, method);
    for (km_param id = 0; id < KM_PARAM_SLOTS; id++) {
        const char *given = o->given[id];
        if (!given[0] || km_param_read_by(id, task, method))
            continue;
        char names[512], others[512];
        size_t n_read = cli_param_readers(id, 0, 1, task, method, names, sizeof names);
        size_t n_ignored = cli_param_readers(id, 0, 0, task, method, others, sizeof others);
        if (n_read > n_ignored)   /* most methods read it: the few that do not */
            cli_error(o->cmd, "%s is not read by --mkl %s (this run uses --mkl %s)", given, others, method_name);
        else if (n_read)
            cli_error(o->cmd, "%s is read by --mkl %s only (this run uses --mkl %s)", given, names, method_name);
        else if (cli_param_readers(id, 1, 1, task, method, names, sizeof names))
            cli_error(o->cmd, "%s is read by -s %s only (this run uses -s %s)", given, names, task_name);
        else
            cli_error(o->cmd, "%s is not read by -s %s with --mkl %s", given, task_name, method_name);
        return 0;
    }
    return 1;
}

/* The options whose parameter needs more than its row: LIBSVM's task numbers, --ridge (C = 1/L), the
 * cache's two switches, --reg-param (read once the regularizer is known), --cluster-kernel SPEC.
 * Returns 1 when taken, -1 on an error (reported), 0 when the option is none of them; *id: the
 * parameter it sets. */
static int special_param_option(train_options *o, cli_args *args, km_param *id)
{
    const char *v;
    double x;
    int handled;
    if (cli_args_is(args, "-s", "--task")) {
        /* LIBSVM's -s numbers, or the task's name */
        static const km_task by_number[] = {KM_TASK_SVC, KM_TASK_NU_SVC, KM_TASK_ONECLASS, KM_TASK_SVR,
                                             KM_TASK_NU_SVR};
        int task;
        *id = KM_PARAM_TASK;
        if (!(v = cli_args_value(args)))
            return -1;
        if (v[0] >= '0' && v[0] <= '4' && !v[1])
            return set_int(o, KM_PARAM_TASK, by_number[v[0] - '0']) ? 1 : -1;
        if (km_enum_value(KM_ENUM_TASK, v, &task) == KM_OK)
            return set_int(o, KM_PARAM_TASK, task) ? 1 : -1;
        cli_error(o->cmd, "option -s: '%s' is not a supported task (0 C-SVC, 1 nu-SVC, 2 one-class, 3 epsilon-SVR, "
                  "4 nu-SVR, krr)", v);
        return -1;
    }
    if (cli_args_is(args, NULL, "--ridge")) {
        *id = KM_PARAM_C;
        return cli_parse_double(o->cmd, "--ridge", cli_args_value(args), 1e-300, HUGE_VAL, &x) &&
                       set_double(o, KM_PARAM_C, 1.0 / x) ? 1 : -1;
    }
    *id = KM_PARAM_CACHE_VALUES;
    if (cli_args_is(args, NULL, "--cache-float"))
        return set_int(o, KM_PARAM_CACHE_VALUES, KM_CACHE_FLOAT) ? 1 : -1;
    if (cli_args_is(args, NULL, "--cache-double"))
        return set_int(o, KM_PARAM_CACHE_VALUES, KM_CACHE_DOUBLE) ? 1 : -1;
    *id = KM_PARAM_REG_PARAM;
    if (cli_args_is(args, NULL, "--reg-param"))
        return (o->reg_param = cli_args_value(args)) ? 1 : -1;
    *id = KM_PARAM_CLUSTER_KERNEL;
    if ((handled = cli_cluster_kernel_option(args, o->params, &o->cluster_spec)))
        return handled;
    return 0;
}

/* The options that set a parameter: the special ones, then the table's. Returns as those do. */
static int param_option(train_options *o, cli_args *args)
{
    km_param id;
    int handled = special_param_option(o, args, &id);
    if (!handled)
        handled = cli_param_option(args, o->params, NULL, &id);
    if (handled <= 0)
        return handled;
    snprintf(o->given[id], sizeof o->given[id], "%.*s", (int)args->name_len, args->name);
    if (id == KM_PARAM_P || id == KM_PARAM_P_BLOCK)
        o->mkl_implied = 1;
    if (id == KM_PARAM_MKL_METHOD)
        o->mkl_given = 1;
    return 1;
}

/* The incomplete Cholesky tolerance of --low-rank icd (docs/large-scale.md). */
#define CLI_DEFAULT_ICD_TOLERANCE 1e-3

/* --low-rank APPROX: nystrom (uniform landmarks), uniform, kmeans++, leverage, icd or icd=TOL. */
static int parse_low_rank(train_options *o, const char *text)
{
    o->low_rank_sampling = NULL;
    o->low_rank_icd = 0;
    if (!strcmp(text, "nystrom") || !strcmp(text, "uniform"))
        return 1;
    if (!strcmp(text, "kmeans++") || !strcmp(text, "leverage")) {
        o->low_rank_sampling = text;
        return 1;
    }
    if (!strcmp(text, "icd")) {
        o->low_rank_icd = CLI_DEFAULT_ICD_TOLERANCE;
        return 1;
    }
    if (!strncmp(text, "icd=", 4)) {
        if (!cli_parse_double(o->cmd, "--low-rank icd=", text + 4, 0.0, 1.0, &o->low_rank_icd))
            return 0;
        if (o->low_rank_icd > 0 && o->low_rank_icd < 1)
            return 1;
        cli_error(o->cmd, "option --low-rank icd=%s: the tolerance must be between 0 and 1, exclusive", text + 4);
        return 0;
    }
    cli_error(o->cmd, "option --low-rank: unknown approximation '%s' (nystrom, kmeans++, leverage, icd or icd=TOL)",
              text);
    return 0;
}

int train_options_parse(train_options *o, int argc, char **argv)
{
    cli_args args;
    cli_args_init(&args, o->cmd, argc, argv);
    const char *positional, *v;
    const char *positionals[2] = {NULL, NULL};
    int n_positionals = 0, kind, handled, help = 0, low_rank_given = 0;
    long l;
    while ((kind = cli_args_next(&args, &positional))) {
        if (kind == 2) {
            if (n_positionals == o->max_positionals) {
                cli_error(o->cmd, "unexpected argument '%s' (see kernelmix %s --help)", positional, o->cmd);
                return -1;
            }
            positionals[n_positionals++] = positional;
            continue;
        }
        int ok = 1, start = args.index, controls_run = 0; /* -v, --json, --trace, -q, --verbose */
        if (cli_args_is(&args, NULL, "--help")) {
            help = 1;
            controls_run = 1;
        } else if ((handled = param_option(o, &args))) {
            ok = handled > 0;
        } else if (cli_args_is(&args, "-t", NULL)) {
            if ((ok = cli_parse_long(o->cmd, "-t", cli_args_value(&args), 0, 4, &l)))
                o->libsvm_kernel = (int)l;
        } else if (cli_args_is(&args, "-d", "--degree")) {
            ok = cli_parse_double(o->cmd, "-d", cli_args_value(&args), 0, 1e6, &o->degree);
        } else if (cli_args_is(&args, "-g", "--gamma")) {
            ok = cli_parse_double(o->cmd, "-g", cli_args_value(&args), 0, HUGE_VAL, &o->gamma);
            o->have_gamma = 1;
        } else if (cli_args_is(&args, "-r", "--coef0")) {
            ok = cli_parse_double(o->cmd, "-r", cli_args_value(&args), -HUGE_VAL, HUGE_VAL, &o->coef0);
        } else if ((handled = cli_kernel_spec_option(&args, &o->specs))) {
            ok = handled > 0;
        } else if (cli_args_is(&args, NULL, "--norm")) {
            ok = cli_parse_name(o->cmd, "--norm", cli_args_value(&args), KM_ENUM_NORMALIZATION, &o->norm);
        } else if (cli_args_is(&args, NULL, "--landmarks")) {
            if ((ok = cli_parse_long(o->cmd, "--landmarks", cli_args_value(&args), 1, 1000000, &l)))
                o->landmarks = l;
        } else if (cli_args_is(&args, NULL, "--low-rank")) {
            ok = (v = cli_args_value(&args)) && parse_low_rank(o, v);
            low_rank_given = 1;
        } else if (cli_args_is(&args, NULL, "--weights")) {
            ok = (o->weights = cli_args_value(&args)) != NULL;
        } else if (cli_args_is(&args, "-v", "--cross-validation")) {
            if ((ok = cli_parse_long(o->cmd, "-v", cli_args_value(&args), 2, 1000000, &l)))
                o->folds = (int)l;
            controls_run = 1;
        } else if (cli_args_is(&args, NULL, "--json")) {
            o->json = controls_run = 1;
        } else if (cli_args_is(&args, NULL, "--trace")) {
            ok = (o->trace_path = cli_args_value(&args)) != NULL;
            controls_run = 1;
        } else if ((handled = cli_data_option(&args, &o->input))) {
            ok = handled > 0;
        } else if (cli_args_is(&args, "-q", "--quiet")) {
            o->quiet = controls_run = 1;
        } else if (cli_args_is(&args, NULL, "--progress")) {
            ok = cli_parse_progress(o->cmd, cli_args_value(&args), &o->progress);
            controls_run = 1;
        } else if (cli_args_is(&args, NULL, "--verbose")) {
            o->verbose = 2;
            controls_run = 1;
            ok = set_int(o, KM_PARAM_OBSCURE_TRACE, 1);
        } else if (cli_args_has_prefix(&args, "-w")) {
            ok = (v = cli_args_value(&args)) && add_class_weight(o, args.name + 2, v);
        } else {
            for (const char *const *other = o->other_options; other && *other; other++)
                cli_args_is(&args, NULL, *other);   /* the command's own names, for "did you mean" */
            cli_args_unknown(&args);
            ok = 0;
        }
        if (!ok || args.failed || (!controls_run && !append_option(o, argv + start, args.index - start + 1)))
            return -1;
    }
    if (args.failed)
        return -1;
    if (help) {
        o->help = 1;
        return 0;
    }
    if (low_rank_given && !o->landmarks) {
        cli_error(o->cmd, "option --low-rank: give --landmarks N too (the most landmark rows of each kernel)");
        return -1;
    }
    if (o->mkl_implied && !o->mkl_given && !set_int(o, KM_PARAM_MKL_METHOD, KM_MKL_LP))
        return -1;
    if (!check_options_read(o))
        return -1;
    int elasticnet = train_options_get_int(o, KM_PARAM_REGULARIZER) == KM_REG_ELASTICNET;
    if (o->reg_param && !set_text(o, elasticnet ? KM_PARAM_LAMBDA : KM_PARAM_REG_PARAM, "--reg-param", o->reg_param))
        return -1;
    if (n_positionals < 1) {
        cli_error(o->cmd, "missing TRAIN_FILE (see kernelmix %s --help)", o->cmd);
        return -1;
    }
    if (o->json && !o->folds) {
        cli_error(o->cmd, "option --json: only with -v K (training prints its summary as text)");
        return -1;
    }
    o->train_path = positionals[0];
    o->model_path = n_positionals > 1 ? positionals[1] : NULL;
    return 1;
}

/* The kernel spec of LIBSVM's -t/-d/-g/-r options. */
static void libsvm_spec(const train_options *o, char *buf, size_t size)
{
    char gamma[64] = "";
    if (o->have_gamma)
        snprintf(gamma, sizeof gamma, ":gamma=%.17g", o->gamma);
    switch (o->libsvm_kernel) {
    case 0: snprintf(buf, size, "linear"); break;
    case 1: snprintf(buf, size, "poly:degree=%.17g:coef0=%.17g%s", o->degree, o->coef0, gamma); break;
    case 3: snprintf(buf, size, "sigmoid:coef0=%.17g%s", o->coef0, gamma); break;
    case 4: snprintf(buf, size, "precomputed"); break;
    default: snprintf(buf, size, "rbf%s", gamma); break;
    }
}

int train_options_needs_precomputed_rows(const train_options *o)
{
    if (o->specs.n == 0)
        return o->libsvm_kernel == 4;
    for (size_t k = 0; k < o->specs.n; k++)
        if (!o->specs.is_file[k] && !strncmp(o->specs.items[k], "precomputed", 11) &&
            !strstr(o->specs.items[k], "file="))
            return 1;
    return 0;
}

km_status train_options_build_kernels(const train_options *o, const km_dataset *data, km_kernel_set **out)
{
    km_kernel_set *set;
    km_status st = km_kernel_set_new(&set);
    if (!st)
        st = km_kernel_set_set_dimension(set, km_dataset_dim(data));
    if (!st)
        st = km_kernel_set_set_default_norm(set, (km_normalization)o->norm);
    if (!st && o->landmarks)
        st = km_kernel_set_set_default_low_rank(set, (size_t)o->landmarks, o->low_rank_sampling, o->low_rank_icd);
    if (!st && o->specs.n == 0) {
        char spec[256];
        libsvm_spec(o, spec, sizeof spec);
        st = km_kernel_set_add_spec(set, spec);
    }
    if (!st)
        st = cli_kernel_specs_add(&o->specs, set);
    if (!st && o->cluster_spec)
        st = cli_add_cluster_kernel(o->params, set, o->cluster_spec);
    if (st) {
        km_kernel_set_free(set);
        return st;
    }
    *out = set;
    return KM_OK;
}

int train_options_parse_weights(const char *cmd, const char *text, size_t M, double **out)
{
    double *w = malloc(M * sizeof *w);
    if (!w) {
        cli_error(cmd, "out of memory");
        return 0;
    }
    size_t count = 0;
    const char *p = text;
    while (*p) {
        char item[64];
        size_t len = strcspn(p, ",");
        if (len >= sizeof item || count == M) {
            cli_error(cmd, "option --weights: expected %zu comma-separated weights, got '%s'", M, text);
            free(w);
            return 0;
        }
        memcpy(item, p, len);
        item[len] = '\0';
        if (!cli_parse_double(cmd, "--weights", item, 0, HUGE_VAL, &w[count++])) {
            free(w);
            return 0;
        }
        p += len + (p[len] == ',');
    }
    if (count != M) {
        cli_error(cmd, "option --weights: expected %zu weights (one per kernel), got %zu", M, count);
        free(w);
        return 0;
    }
    *out = w;
    return 1;
}


/* Classes no classification could learn from a label column the user did not choose (the default, the
 * last): refused, naming the field read and how to choose another. */
int train_options_check_label_column(const train_options *o, const km_dataset *data)
{
    char why[512];
    if (o->input.label_column_given || !cli_label_from_column(o->train_path, &o->input, train_options_needs_precomputed_rows(o)) ||
        km_label_doubt_of(data, (km_task)train_options_get_int(o, KM_PARAM_TASK), why, sizeof why) != KM_LABELS_TOO_MANY)
        return 1;
    cli_error(o->cmd, "%s; give the label's column with --label-column K (1-based; default -1, the last), or train "
                   "a regression (-s svr, nu-svr or krr)", why);
    return 0;
}

void train_options_kernel_text(const train_options *o, char *buf, size_t size)
{
    size_t used = 0;
    if (o->specs.n == 0)
        libsvm_spec(o, buf, size);
    else
        buf[0] = '\0';
    used = strlen(buf);
    for (size_t k = 0; k < o->specs.n && used < size; k++)
        used += (size_t)snprintf(buf + used, size - used, "\n%s %s", o->specs.is_file[k] ? "file" : "spec",
                                 o->specs.items[k]);
    if (used < size)
        snprintf(buf + used, size - used, "\nnorm %d\nlow-rank %ld %s %.17g\ncluster %s", o->norm, o->landmarks,
                 o->low_rank_sampling ? o->low_rank_sampling : "uniform", o->low_rank_icd,
                 o->cluster_spec ? o->cluster_spec : "");
}

int train_options_init(train_options *o, const char *cmd, int max_positionals)
{
    memset(o, 0, sizeof *o);
    o->cmd = cmd;
    o->max_positionals = max_positionals;
    o->libsvm_kernel = 2;
    o->degree = 3;
    o->input = (cli_input)CLI_INPUT_INIT;
    km_status st = km_params_new(&o->params);
    return st ? (cli_fail(cmd, st), 0) : 1;
}

void train_options_free(train_options *o)
{
    cli_kernel_specs_free(&o->specs);
    free(o->class_labels);
    free(o->class_weights);
    free(o->options_text);
    km_params_free(o->params);
}
