/* kernelmix command-line entry point: dispatches to one subcommand per file. */
#include <stdio.h>
#include <string.h>

#include "kernelmix.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: kernelmix COMMAND [options] ...\n"
            "\n"
            "Learning with multiple kernels.\n"
            "\n"
            "commands:\n"
            "  --version   print the version\n"
            "\n"
            "Run 'kernelmix COMMAND --help' for a command's options.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("kernelmix %s\n", km_version());
        return 0;
    }
    fprintf(stderr, "kernelmix: unknown command '%s' (see kernelmix --help)\n", argv[1]);
    return 2;
}
