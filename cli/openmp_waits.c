/* The OpenMP threads of the command-line tool wait passively (OMP_WAIT_POLICY=PASSIVE) unless the
 * environment chooses a wait policy or spin count itself.
 *
 * Why: the SMO asks for a kernel column at every step, and each column is one short parallel region.
 * With the runtime's default, an idle worker spins for a few milliseconds between regions; on a
 * machine where another process wants that core, the spinning worker and the solver's own thread
 * fight for it (bench/NOTES.md, "OpenMP waits on a shared machine").
 *
 * How: the OpenMP runtime reads the variable once, in its library initializer, before main() runs,
 * and nothing set earlier survives (C library start-up resets the environment to the one the kernel
 * passed). So main() sets the variable and executes the same program again, once. Under Valgrind,
 * whose preloaded core would not follow the new program, and when the program's path
 * (/proc/self/exe) cannot be read or executed, the process goes on with the runtime's default. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

void cli_use_passive_openmp_waits(char **argv)
{
    const char *preload = getenv("LD_PRELOAD");
    if (getenv("OMP_WAIT_POLICY") || getenv("GOMP_SPINCOUNT") || (preload && strstr(preload, "vgpreload")))
        return;
    /* the program's own path, so that the process keeps its name (ps, top, pkill kernelmix) */
    char path[4096];
    ssize_t length = readlink("/proc/self/exe", path, sizeof path - 1);
    if (length <= 0 || (size_t)length >= sizeof path - 1 || setenv("OMP_WAIT_POLICY", "PASSIVE", 0) != 0)
        return;
    path[length] = '\0';
    execv(path, argv);
    unsetenv("OMP_WAIT_POLICY");   /* not executed: leave the environment of the children as it was */
}
