#include "core/progress.h"

#include "core/clock.h"

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
    reporter->started = km_monotonic_seconds();
    km_progress_clear_mkl(reporter);
}

void km_progress_clear_mkl(km_progress_reporter *reporter)
{
    reporter->now.mkl_objective = reporter->now.mkl_dual = reporter->now.mkl_primal = NAN;
    reporter->now.mkl_weights = NULL;
    reporter->now.mkl_n_weights = 0;
}

void km_progress_machine(km_progress_reporter *reporter, size_t k, size_t n_machines)
{
    reporter->now.machine = k + 1;
    reporter->now.n_machines = n_machines;
    reporter->now.mkl_step = 0;
    reporter->now.mkl_gap = NAN;
    km_progress_clear_mkl(reporter);
}

int km_progress_report(km_progress_reporter *reporter, const char *stage)
{
    reporter->now.stage = stage;
    reporter->now.seconds = km_monotonic_seconds() - reporter->started;
    if (reporter->fn && reporter->fn(reporter->user, &reporter->now))
        reporter->stop = 1;
    return reporter->stop;
}
