/* An output that is one of the command's inputs is refused before anything is computed or written:
 * "the same file" is the same device and inode, so hard links and symbolic links count, whatever
 * the names. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

static int same_file(const struct stat *a, const char *path)
{
    struct stat b;
    return stat(path, &b) == 0 && a->st_dev == b.st_dev && a->st_ino == b.st_ino;
}

static int refuse(const char *cmd, const char *output, const char *input)
{
    cli_error(cmd, "output %s is the same file as the input %s; refusing to overwrite an input", output, input);
    return 0;
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

int cli_check_output(const char *cmd, const char *output, const char *const *inputs, size_t n_inputs,
                     const km_kernel_set *set)
{
    struct stat out;
    if (stat(output, &out) != 0)
        return 1; /* a new file cannot be an input */
    for (size_t k = 0; k < n_inputs; k++)
        if (inputs[k] && same_file(&out, inputs[k]))
            return refuse(cmd, output, inputs[k]);
    for (size_t m = 0; set && m < km_kernel_set_size(set); m++)
        if (!check_kernel_file(cmd, output, &out, set, m))
            return 0;
    return 1;
}
