/* Independent computations in numpy/scipy for the unit tests: writes a script, runs it with Debian's
 * /usr/bin/python3 and reads the numbers it prints. A test whose python has no numpy is skipped. */
#ifndef KM_TEST_NUMPY_H
#define KM_TEST_NUMPY_H

#include <stdio.h>
#include <stdlib.h>

#include "check.h"

/* Runs script (which reads what the test wrote into the working directory) and reads up to max numbers
 * of its output into out; returns how many it read, -1 when the script failed. */
static int numpy_run(const char *script, double *out, int max)
{
    if (system("/usr/bin/python3 -c 'import numpy, scipy' 2>/dev/null") != 0)
        KM_TEST_SKIP("/usr/bin/python3 with numpy and scipy is not available");
    FILE *f = fopen("check.py", "w");
    if (!f)
        return -1;
    fputs(script, f);
    fclose(f);
    FILE *p = popen("/usr/bin/python3 check.py", "r");
    if (!p)
        return -1;
    int got = 0;
    while (got < max && fscanf(p, "%lf", &out[got]) == 1)
        got++;
    return pclose(p) == 0 ? got : -1;
}

/* Writes an n x d row-major matrix as text, one row a line. */
static int numpy_write(const char *path, size_t n, size_t d, const double *X)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < d; j++)
            fprintf(f, "%.17g%c", X[i * d + j], j + 1 < d ? ' ' : '\n');
    return fclose(f) == 0;
}

#endif
