/* kernelmix cluster: the partition and soft memberships localized MKL trains on (kernel k-means on the
 * clustering kernel; docs/clmkl.md), one line per training row. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char *const CMD = "cluster";

/* The parameters the command reads (their options and help come from the parameter table). */
static const km_param cluster_params[] = {KM_PARAM_CLUSTERS, KM_PARAM_CLUSTER_AE, KM_PARAM_CLUSTER_TAU,
                                          KM_PARAM_CLUSTER_RESTARTS, KM_PARAM_SEED, 0};

static void usage(FILE *out)
{
    fputs(
"usage: kernelmix cluster [options] [--kernel SPEC]... [--kernels FILE] TRAIN_FILE [OUTPUT]\n"
"\n"
"Clusters the rows of TRAIN_FILE by kernel k-means on the clustering kernel (the mean of\n"
"the kernels, one of them, or an extra one) as --mkl clmkl does before it learns one set\n"
"of kernel weights per cluster, and writes one line per row: its cluster (1..L), then its\n"
"memberships c_1 .. c_L (they sum to 1; c_j ~ exp(-tau d^2(x, centre_j))). The first\n"
"line, '# clusters L tau T', names the memberships' tau. OUTPUT defaults to\n"
"standard output ('-'); TRAIN_FILE '-' is standard input. An OUTPUT that is one of the\n"
"inputs is refused.\n"
"\n"
"options:\n"
"  --kernel SPEC      add the kernels of SPEC (repeatable; see kernelmix kernel --help)\n"
"  --kernels FILE     add one spec per line of FILE\n", out);
    for (const km_param *id = cluster_params; *id; id++)
        cli_param_help(out, *id, NULL);
    cli_param_help(out, KM_PARAM_CLUSTER_KERNEL, NULL);
    fputs("  --help             show this help\n\ninput:\n", out);
    fputs(CLI_INPUT_HELP, out);
}

typedef struct cluster_options {
    km_params *params;
    cli_kernel_specs specs;
    const char *cluster_spec;
    cli_input input;
    cli_positionals positionals;    /* TRAIN_FILE [OUTPUT] */
} cluster_options;

static int parse_options(cluster_options *o, int argc, char **argv)
{
    cli_args args;
    cli_args_init(&args, CMD, argc, argv);
    o->positionals = (cli_positionals){.max = 2};
    int handled;
    while (cli_args_next_option(&args, &o->positionals)) {
        int ok = 1;
        km_param id;
        if (cli_args_is(&args, NULL, "--help")) {
            usage(stdout);
            return 0;
        } else if ((handled = cli_kernel_data_option(&args, &o->specs, &o->input)) ||
                   (handled = cli_cluster_kernel_option(&args, o->params, &o->cluster_spec)) ||
                   (handled = cli_param_option(&args, o->params, cluster_params, &id))) {
            ok = handled > 0;
        } else {
            cli_args_unknown(&args);
            ok = 0;
        }
        if (!ok || args.failed)
            return -1;
    }
    if (args.failed || !cli_need_kernels(CMD, &o->specs))
        return -1;
    return cli_positionals_given(CMD, &o->positionals, 1, "missing TRAIN_FILE") ? 1 : -1;
}

km_status cli_add_cluster_kernel(km_params *params, km_kernel_set *set, const char *spec)
{
    size_t before = km_kernel_set_size(set);
    km_status st = km_kernel_set_add_spec(set, spec);
    if (!st && km_kernel_set_size(set) != before + 1)
        return km_error(KM_EINVAL, "option --cluster-kernel: '%s' gives %zu kernels; the clustering kernel is one",
                        spec, km_kernel_set_size(set) - before);
    if (!st)
        st = km_params_set_int(params, KM_PARAM_CLUSTER_KERNEL, (int64_t)before + 1);
    if (!st)
        st = km_params_set_int(params, KM_PARAM_CLUSTER_ONLY, 1);
    return st;
}

static void write_memberships(FILE *out, size_t n, size_t l, const size_t *labels, const double *c, double tau)
{
    fprintf(out, "# clusters %zu tau %.17g\n", l, tau);
    for (size_t i = 0; i < n; i++) {
        fprintf(out, "%zu", labels[i] + 1);
        for (size_t j = 0; j < l; j++)
            fprintf(out, " %.17g", c[i * l + j]);
        fputc('\n', out);
    }
}

static int run(cluster_options *o)
{
    km_dataset *data = NULL;
    km_kernel_set *set = NULL;
    size_t *labels = NULL;
    double *c = NULL, tau;
    int64_t l = 0;
    int rc = CLI_OK;
    const char *output = o->positionals.n > 1 ? o->positionals.values[1] : "-";
    cli_inputs inputs = {0};
    if (!cli_inputs_add(CMD, &inputs, o->positionals.values[0]) ||
        !cli_inputs_add_all(CMD, &inputs, o->specs.files, o->specs.n_files) ||
        !cli_check_output(CMD, output, &inputs)) {
        cli_inputs_free(&inputs);
        return CLI_USAGE;
    }
    km_status st = cli_read_data(o->positionals.values[0], &o->input, 0, &data);
    if (!st)
        st = km_kernel_set_new(&set);
    if (!st)
        st = km_kernel_set_set_dimension(set, km_dataset_dim(data));
    if (!st)
        st = cli_kernel_specs_add(&o->specs, set);
    if (!st && o->cluster_spec)
        st = cli_add_cluster_kernel(o->params, set, o->cluster_spec);
    inputs.set = set;
    if (!st && !cli_check_output(CMD, output, &inputs))   /* a file= of the specs */
        rc = CLI_USAGE;   /* reported */
    if (!st && !rc)
        st = km_params_get_int(o->params, KM_PARAM_CLUSTERS, &l);
    size_t n = data ? km_dataset_rows(data) : 0;
    if (!st && !rc && (uint64_t)l > n)   /* before the n x l memberships are allocated */
        st = km_error(KM_EINVAL, "%s: --clusters %lld: kernel k-means needs 1 to %zu clusters for its %zu rows",
                      o->positionals.values[0], (long long)l, n, n);
    if (!st && !rc && (!(labels = malloc(n * sizeof *labels)) || !(c = malloc(n * (size_t)l * sizeof *c))))
        st = km_error_nomem("the memberships");
    if (!st && !rc)
        st = km_cluster(data, set, o->params, labels, c, &tau);
    if (st) {
        rc = cli_fail(CMD, st);
    } else if (!rc) {
        km_atomic_file file;
        if (!(st = km_atomic_open(&file, output, "memberships"))) {
            write_memberships(file.stream, n, (size_t)l, labels, c, tau);
            st = km_atomic_commit(&file);
        }
        if (st)
            rc = cli_fail(CMD, st);
    }
    cli_inputs_free(&inputs);
    free(labels);
    free(c);
    km_kernel_set_free(set);
    km_dataset_free(data);
    return rc;
}

int cmd_cluster(int argc, char **argv)
{
    cluster_options o = {0};
    if (km_params_new(&o.params)) {
        cli_error(CMD, "out of memory");
        return CLI_FAILURE;
    }
    int parsed = parse_options(&o, argc, argv);
    int rc = parsed < 0 ? CLI_USAGE : parsed == 0 ? CLI_OK : run(&o);
    cli_kernel_specs_free(&o.specs);
    km_params_free(o.params);
    return rc;
}
