/* The processes of a run: one, or the ranks of an Open MPI job (`mpirun -n K kernelmix cv ...`). This
 * folder is the only place that includes <mpi.h>; a build without MPI (KM_WITH_MPI off) is always
 * one process. MPI is started only in a process that an MPI launcher started (its environment names
 * the job's size), so a program run alone never starts it. */
#ifndef KM_DIST_DIST_H
#define KM_DIST_DIST_H

#include <stddef.h>

#include "kernelmix.h"

/* How the message of a step begins when it failed because another process of the run failed, which
 * reports why: the other processes need not say it again. */
#define KM_DIST_FAILED_ELSEWHERE "another process of the run failed"

/* Starts MPI when an MPI launcher started this process (once; later calls do nothing); KM_EINVAL
 * with a message when it cannot be started. */
km_status km_dist_start(int *argc, char ***argv);
/* Ends MPI where km_dist_start started it (safe to call more than once, and registered with atexit). */
void km_dist_end(void);
/* Whether any thread of this process may make the calls of this folder, one thread at a time (MPI's
 * "serialized" level; always when alone); where not, only the thread that started MPI may. */
int km_dist_threads_may_call(void);
/* This process's rank (0 when alone) and the number of processes (1 when alone). */
int km_dist_rank(void);
int km_dist_size(void);
/* The host this process runs on, as messages name it. */
const char *km_dist_host(void);
/* The largest of the ranks' values (value itself when alone): how ranks agree to go on or stop
 * together after a step that may fail on some of them. Every rank calls it. */
int km_dist_max(int value);
/* The ranks' statuses agreed: mine where this rank failed, else an error whose message is
 * KM_DIST_FAILED_ELSEWHERE followed by what where another rank failed, else KM_OK. Every rank calls it
 * (after a step that may fail on some ranks, before they communicate again). */
km_status km_dist_agree(km_status mine, const char *what);
/* Rank 0's n bytes at *bytes (malloc'ed) given to every rank: on the others *bytes and *n are
 * replaced by a malloc'ed copy. Every rank calls it. */
km_status km_dist_broadcast_bytes(void **bytes, size_t *n);
/* values[0..n) summed over the ranks, in place on every rank (unchanged when alone). Every rank calls
 * it with the same n. */
void km_dist_sum(double *values, size_t n);
/* Each of values[0..n) replaced by its largest over the ranks, in place on every rank. */
void km_dist_maximum(double *values, size_t n);
/* Every rank's n bytes at mine, concatenated in rank order, in *all (malloc'ed, *n_all bytes) on rank 0;
 * *all is NULL and *n_all 0 on the others. Every rank calls it. */
km_status km_dist_gather_bytes(const void *mine, size_t n, void **all, size_t *n_all);

#endif
