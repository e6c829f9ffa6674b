/* The Tikhonov loop's per-iteration log line (src/mkl/tikhonov.c), as the block-norm tests read it:
 * "tikhonov T: objective J ..." or "tikhonov T (extrapolated): objective J ..." (SQUAREM's points). */
#ifndef KM_TEST_TIKHONOV_LOG_H
#define KM_TEST_TIKHONOV_LOG_H

#include <stdio.h>
#include <string.h>

/* 1 and J, *extrapolated when message is such a line; 0 otherwise. */
static inline int tikhonov_log_objective(const char *message, double *J, int *extrapolated)
{
    static const char marker[] = " (extrapolated)";
    long t;
    int at = 0;
    if (sscanf(message, "tikhonov %ld%n", &t, &at) != 1)
        return 0;
    *extrapolated = strncmp(message + at, marker, sizeof marker - 1) == 0;
    return sscanf(message + at + (*extrapolated ? sizeof marker - 1 : 0), ": objective %lf", J) == 1;
}

#endif
