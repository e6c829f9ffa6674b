/* --kernel SPEC and --kernels FILE, kept in command-line order: kernel m of the set (and so the m-th
 * --weights value) is the m-th kernel in the order the options were written. */
#include <stdlib.h>

#include "cli.h"

int cli_kernel_spec_option(cli_args *args, cli_kernel_specs *specs)
{
    int is_file = cli_args_is(args, NULL, "--kernels");
    if (!is_file && !cli_args_is(args, NULL, "--kernel"))
        return 0;
    const char *value = cli_args_value(args);
    if (!value)
        return -1;
    unsigned char *kinds = realloc(specs->is_file, specs->n + 1);
    if (kinds)
        specs->is_file = kinds;
    if (!kinds || !cli_push(args->cmd, &specs->items, &specs->n, value) ||
        (is_file && !cli_push(args->cmd, &specs->files, &specs->n_files, value))) {
        if (!kinds)
            cli_error(args->cmd, "out of memory");
        return -1;
    }
    specs->is_file[specs->n - 1] = (unsigned char)is_file;
    return 1;
}

km_status cli_kernel_specs_add(const cli_kernel_specs *specs, km_kernel_set *set)
{
    km_status st = KM_OK;
    for (size_t k = 0; !st && k < specs->n; k++)
        st = specs->is_file[k] ? km_kernel_set_add_file(set, specs->items[k]) : km_kernel_set_add_spec(set, specs->items[k]);
    return st;
}

void cli_kernel_specs_free(cli_kernel_specs *specs)
{
    free(specs->items);
    free(specs->is_file);
    free(specs->files);
}
