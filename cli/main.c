/* kernelmix command-line entry point: dispatches to one subcommand per file. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: kernelmix COMMAND [options] ...\n"
            "\n"
            "Learning with multiple kernels: SVMs (C-SVC, nu-SVC, epsilon-SVR, nu-SVR, one-class) on\n"
            "combinations of base kernels.\n"
            "\n"
            "commands:\n"
            "  train     learn a model from a training file (or cross-validate with -v)\n"
            "  cv        choose training options by cross-validation over a grid\n"
            "  predict   apply a model to a test file\n"
            "  info      describe a model\n"
            "  kernel    expand kernel specs; compute and save kernel matrices\n"
            "  scale     scale features to an interval, as LIBSVM's svm-scale\n"
            "  bound     compute a generalization bound of learning kernels\n"
            "  cluster   kernel k-means and soft memberships of localized MKL\n"
            "  plot      draw kernel weights, training traces, cross-validation results and\n"
            "            regularization paths as SVG figures\n"
            "\n"
            "  --version print the version\n"
            "\n"
            "Run 'kernelmix COMMAND --help' for a command's options.\n"
            "Exit status: 0 success, 1 failure, 2 bad usage or bad input.\n");
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        int (*run)(int, char **);
    } commands[] = {{"train", cmd_train}, {"predict", cmd_predict}, {"info", cmd_info}, {"kernel", cmd_kernel},
                    {"scale", cmd_scale}, {"bound", cmd_bound},
                    {"cluster", cmd_cluster}, {"plot", cmd_plot}, {"cv", cmd_cv}};
    cli_use_passive_openmp_waits(argv);
    if (argc < 2) {
        usage(stderr);
        return CLI_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return CLI_OK;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("kernelmix %s\n", km_version());
        return CLI_OK;
    }
    cli_remove_partial_output_on_signals();
    for (size_t k = 0; k < sizeof commands / sizeof commands[0]; k++)
        if (!strcmp(argv[1], commands[k].name))
            return commands[k].run(argc - 1, argv + 1);
    const char *names[sizeof commands / sizeof commands[0]];
    char hint[96];
    for (size_t k = 0; k < sizeof commands / sizeof commands[0]; k++)
        names[k] = commands[k].name;
    km_did_you_mean(km_suggest(argv[1], names, sizeof names / sizeof names[0]), hint, sizeof hint);
    fprintf(stderr, "kernelmix: unknown command '%s'%s (see kernelmix --help)\n", argv[1], hint);
    return CLI_USAGE;
}
