/* The tasks of a run spread over its processes (dist.h): tasks 0 ... n - 1 in units (a unit: tasks
 * that one process must run in order, such as a chain of warm starts), the units dealt to the ranks in
 * rounds of size, every other round in reverse (a deterministic static schedule: what a rank computes
 * never depends on the others' timing, so the results are the same for every number of ranks), each
 * giving a record of a fixed number of doubles. Rank 0 collects the records as they come and, at the
 * end, every rank has them all, or every rank has the first failure of any rank, its message naming
 * the rank and host. With one process every call is local. */
#ifndef KM_DIST_TASK_EXCHANGE_H
#define KM_DIST_TASK_EXCHANGE_H

#include <stddef.h>

#include "kernelmix.h"

typedef struct km_task_exchange km_task_exchange;

/* Every rank calls it with the same arguments; unit[t] is task t's unit (NULL: each task its own). */
km_status km_task_exchange_new(size_t n_tasks, const size_t *unit, size_t record_length, km_task_exchange **out);
void km_task_exchange_free(km_task_exchange *exchange);
/* Whether this rank runs task t; whether this rank reports progress (rank 0). */
int km_task_exchange_mine(const km_task_exchange *exchange, size_t t);
int km_task_exchange_leads(const km_task_exchange *exchange);
/* The record of one of this rank's tasks (record_length doubles, copied); rank 0 then takes the
 * records that arrived meanwhile. KM_OK unless a message could not be sent. */
km_status km_task_exchange_post(km_task_exchange *exchange, size_t t, const double *record);
/* A rank other than 0 stops when rank 0 asked it to (a failure elsewhere); rank 0 when another rank
 * reported a failure. */
int km_task_exchange_stopped(km_task_exchange *exchange);
/* Rank 0: waits for the next record of another rank; 0 when none is still due (all tasks done or a
 * failure reported). Other ranks: 0. */
int km_task_exchange_wait(km_task_exchange *exchange);
/* The record of task t where this rank has it (NULL where not yet). */
const double *km_task_exchange_record(const km_task_exchange *exchange, size_t t);
/* Ends the run: local is this rank's status (its message in km_last_error). Every rank returns the
 * first failure of any rank (a message naming the other rank and its host), or KM_OK with every
 * record in place. Every rank calls it. */
km_status km_task_exchange_finish(km_task_exchange *exchange, km_status local);

#endif
