#include "core/progress.h"

#include <math.h>
#include <string.h>

void km_progress_init(km_progress_reporter *reporter, km_progress_fn fn, void *user)
{
    memset(reporter, 0, sizeof *reporter);
    reporter->fn = fn;
    reporter->user = user;
    reporter->now.size = sizeof reporter->now;
    reporter->now.stage = "";
    reporter->now.mkl_gap = NAN;
}

void km_progress_machine(km_progress_reporter *reporter, size_t k, size_t n_machines)
{
    reporter->now.machine = k + 1;
    reporter->now.n_machines = n_machines;
    reporter->now.mkl_step = 0;
    reporter->now.mkl_gap = NAN;
}

int km_progress_report(km_progress_reporter *reporter, const char *stage)
{
    reporter->now.stage = stage;
    if (reporter->fn && reporter->fn(reporter->user, &reporter->now))
        reporter->stop = 1;
    return reporter->stop;
}
