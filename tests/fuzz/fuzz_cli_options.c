/* Fuzz target: command-line parsing of every subcommand. The input is the argument list, one
 * argument per line (the first is the subcommand), run through the kernelmix entry point (cli/main.c,
 * built with main renamed to kernelmix_main) in an empty directory: names containing '/' are
 * skipped, so no input file exists and no output can be written anywhere else. Every run must end
 * with an exit status of 0, 1 or 2 and leave the directory empty. Standard input, which the argument
 * '-' reads, is empty (/dev/null), so that no run waits for a terminal. Run libFuzzer with
 * -close_fd_mask=3 to silence the commands' messages. */
#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include "fuzz_support.h"

#define MAX_ARGS 64

int kernelmix_main(int argc, char **argv);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_enter_empty_directory();
    int empty = open("/dev/null", O_RDONLY);
    if (empty >= 0) {
        dup2(empty, STDIN_FILENO);
        close(empty);
    }
    /* with a wait policy set, the entry point does not execute the program again to set one
     * (cli/openmp_waits.c): here the program is the fuzzer, not kernelmix */
    setenv("OMP_WAIT_POLICY", "PASSIVE", 0);
    return 0;
}

static int directory_is_empty(void)
{
    DIR *dir = opendir(".");
    if (!dir)
        return 0;
    struct dirent *entry;
    int empty = 1;
    while (empty && (entry = readdir(dir)))
        empty = !strcmp(entry->d_name, ".") || !strcmp(entry->d_name, "..");
    closedir(dir);
    return empty;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (memchr(data, '/', size))
        return 0;
    char *text = fuzz_string(data, size);
    if (!text)
        return 0;
    char *argv[MAX_ARGS + 2] = {"kernelmix"};
    int argc = 1;
    for (char *arg = text; argc <= MAX_ARGS; argc++) {
        argv[argc] = arg;
        char *newline = strchr(arg, '\n');
        if (!newline) {
            argc++;
            break;
        }
        *newline = '\0';
        arg = newline + 1;
    }
    argv[argc] = NULL;
    int status = kernelmix_main(argc, argv);
    fflush(stdout);
    if (status < 0 || status > 2)
        fuzz_fail("an exit status outside 0, 1, 2");
    if (!directory_is_empty())
        fuzz_fail("a command created a file from arguments alone");
    free(text);
    return 0;
}
