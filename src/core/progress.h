/* Progress through the caller's callback (km_params_set_progress): one snapshot that the layers fill
 * in as they go (the machine, the MKL step and gap), reported whole at each event. */
#ifndef KM_CORE_PROGRESS_H
#define KM_CORE_PROGRESS_H

#include "kernelmix.h"

typedef struct km_progress_reporter {
    km_progress_fn fn;           /* NULL: nothing is reported */
    void *user;
    km_progress now;             /* what the next report says */
    int stop;                    /* the caller asked to stop (kept: every later report says so) */
    double started;              /* km_monotonic_seconds() at km_progress_init */
} km_progress_reporter;

/* A reporter with an empty snapshot (no machine, fold or MKL step). */
void km_progress_init(km_progress_reporter *reporter, km_progress_fn fn, void *user);
/* The snapshot holds no MKL step record (objective, dual, primal NAN; no weights). */
void km_progress_clear_mkl(km_progress_reporter *reporter);
/* The snapshot is now at machine k (0-based) of n_machines, before its first MKL step. */
void km_progress_machine(km_progress_reporter *reporter, size_t k, size_t n_machines);
/* Reports the snapshot as stage (with the seconds since km_progress_init); returns non-zero when the caller asked (now or before) to stop. */
int km_progress_report(km_progress_reporter *reporter, const char *stage);

#endif
