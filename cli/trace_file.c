/* The trace file of kernelmix train --trace: one JSON object per line for every outer step of
 * kernel-weight learning, from the library's progress reports (stage "mkl"). Written all-or-nothing:
 * the file appears only when training succeeds. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

km_status cli_trace_open(cli_trace *trace, const char *path)
{
    memset(trace, 0, sizeof *trace);
    if (!path)
        return KM_OK;
    km_status st = km_atomic_open(&trace->file, path, "the trace");
    trace->open = !st;
    return st;
}

/* ", "key": value" for a finite value; nothing for NAN (JSON has no NaN). */
static void number_field(FILE *out, const char *key, double value)
{
    if (isfinite(value))
        fprintf(out, ", \"%s\": %.17g", key, value);
}

void cli_trace_step(cli_trace *trace, const km_progress *p)
{
    if (!trace->open || strcmp(p->stage, "mkl"))
        return;
    FILE *out = trace->file.stream;
    fprintf(out, "{\"iteration\": %ld, \"machine\": %zu", p->mkl_step, p->machine);
    if (p->fold)
        fprintf(out, ", \"fold\": %d", p->fold);
    number_field(out, "seconds", p->seconds);
    number_field(out, "objective", p->mkl_objective);
    number_field(out, "dual", p->mkl_dual);
    number_field(out, "primal", p->mkl_primal);
    number_field(out, "gap", p->mkl_gap);
    fputs(", \"weights\": [", out);
    for (size_t m = 0; m < p->mkl_n_weights; m++)
        fprintf(out, "%s%.17g", m ? ", " : "", p->mkl_weights[m]);
    fputs("]}\n", out);
}

km_status cli_trace_close(cli_trace *trace, int keep)
{
    if (!trace->open)
        return KM_OK;
    trace->open = 0;
    if (keep)
        return km_atomic_commit(&trace->file);
    km_atomic_abort(&trace->file);
    return KM_OK;
}
