/* The one check of every subcommand's outputs against its inputs: an output that is one of the files
 * the command reads (data, test data, models, range files, test kernels, --kernels spec files, the
 * file= of precomputed kernels) is refused before anything is computed or written. "The same file" is
 * the same device and inode, so hard links and symbolic links count, whatever the names; "-" is
 * standard input as an input, standard output as an output. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* The file path names: stat of path, or of the standard stream "-" stands for. */
static int identify(const char *path, int standard_fd, struct stat *st)
{
    return strcmp(path, "-") == 0 ? fstat(standard_fd, st) == 0 : stat(path, st) == 0;
}

static int same_file(const struct stat *out, const char *input)
{
    struct stat in;
    return identify(input, STDIN_FILENO, &in) && out->st_dev == in.st_dev && out->st_ino == in.st_ino;
}

static const char *shown(const char *path, const char *standard)
{
    return strcmp(path, "-") == 0 ? standard : path;
}

static int refuse(const char *cmd, const char *output, const char *input)
{
    cli_error(cmd, "output %s is the same file as the input %s; refusing to overwrite an input",
              shown(output, "standard output"), shown(input, "standard input"));
    return 0;
}

int cli_inputs_add(const char *cmd, cli_inputs *inputs, const char *path)
{
    if (!path)
        return 1;
    for (size_t k = 0; k < inputs->n; k++)
        if (!strcmp(path, "-") && !strcmp(inputs->paths[k], "-")) {
            cli_error(cmd, "standard input ('-') is given for two inputs; it can be read once");
            return 0;
        }
    return cli_push(cmd, &inputs->paths, &inputs->n, path);
}

int cli_inputs_add_all(const char *cmd, cli_inputs *inputs, const char *const *paths, size_t n)
{
    for (size_t k = 0; k < n; k++)
        if (!cli_inputs_add(cmd, inputs, paths[k]))
            return 0;
    return 1;
}

void cli_inputs_free(cli_inputs *inputs)
{
    free(inputs->paths);
    inputs->paths = NULL;
    inputs->n = 0;
}

/* Checks output against the file= of kernel m, if it has one: its canonical spec ends with it
 * ("precomputed:...:file=PATH"). */
static int check_kernel_file(const char *cmd, const char *output, const struct stat *out, const km_kernel_set *set,
                             size_t m)
{
    char small[512], *spec = small;
    size_t len = km_kernel_set_describe(set, m, small, sizeof small);
    if (len >= sizeof small) {
        if (!(spec = malloc(len + 1)))
            return 1; /* the check is best effort; the run itself will report the memory shortage */
        km_kernel_set_describe(set, m, spec, len + 1);
    }
    const char *file = strstr(spec, ":file=");
    int ok = !file || !same_file(out, file + 6) || refuse(cmd, output, file + 6);
    if (spec != small)
        free(spec);
    return ok;
}

int cli_check_output(const char *cmd, const char *output, const cli_inputs *inputs)
{
    struct stat out;
    /* a new file cannot be an input; a device, pipe or terminal is written through, never replaced */
    if (!identify(output, STDOUT_FILENO, &out) || !S_ISREG(out.st_mode))
        return 1;
    for (size_t k = 0; k < inputs->n; k++)
        if (same_file(&out, inputs->paths[k]))
            return refuse(cmd, output, inputs->paths[k]);
    for (size_t m = 0; inputs->set && m < km_kernel_set_size(inputs->set); m++)
        if (!check_kernel_file(cmd, output, &out, inputs->set, m))
            return 0;
    return 1;
}
