/* Tasks spread over the ranks of a run (task_exchange.h). Messages, on a communicator of the
 * exchange's own: each rank other than 0 sends rank 0 a RESULT per task it ran ([t, record...],
 * without waiting for it to arrive) and, last, one FINISHED (its status and message); rank 0 sends
 * each of them one STOP, early when a rank failed, otherwise once all have finished. Rank 0 takes
 * what arrived between its own tasks and, at the end, until every rank has finished; then it
 * broadcasts the outcome: the first failure, or every record. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if KM_HAVE_MPI
#include <mpi.h>
#endif

#include "core/error.h"
#include "dist/dist.h"
#include "dist/task_exchange.h"

enum { TAG_RESULT = 1, TAG_FINISHED = 2, TAG_STOP = 3 };

/* The longest message a rank's failure carries (longer ones are cut). */
#define MESSAGE_BYTES 2048

struct km_task_exchange {
    size_t n_tasks, length;      /* records of length doubles, stored as rows [t, record...] */
    int *owner;                  /* per task: the rank that runs it */
    double *rows;
    unsigned char *have;
    size_t due;                  /* rank 0: the other ranks' tasks whose records have not arrived */
    int rank, size;
    int stopped;                 /* rank 0: a rank failed; others: STOP received */
    km_status failure;           /* rank 0: the first failure another rank reported */
    char failure_message[MESSAGE_BYTES];
    double *scratch;             /* rank 0: one incoming row */
    int *finished, n_finished;   /* rank 0: which ranks sent FINISHED */
    unsigned char *stop_sent;    /* rank 0: to which ranks STOP went */
#if KM_HAVE_MPI
    MPI_Comm comm;
    MPI_Request *sends;          /* the RESULT sends of this rank */
    int n_sends;
#endif
};

static double *row_of(const km_task_exchange *x, size_t t) { return x->rows + t * (x->length + 1); }

/* The rank of unit u: the units are dealt to the K ranks in rounds of K, every other round in reverse
 * (ranks 0, 1, ..., K-1, then K-1, ..., 1, 0, ...), so that where the units' costs grow along the
 * order (a split's chains by increasing C) each rank gets a like share of them. */
static int owner_of(size_t u, int size)
{
    size_t round = u / (size_t)size, at = u % (size_t)size;
    return (int)(round % 2 ? (size_t)size - 1 - at : at);
}

km_status km_task_exchange_new(size_t n_tasks, const size_t *unit, size_t record_length, km_task_exchange **out)
{
    km_task_exchange *x = calloc(1, sizeof *x);
    *out = NULL;
    if (!x)
        return km_error_nomem("the task exchange");
    x->n_tasks = n_tasks;
    x->length = record_length;
    x->rank = km_dist_rank();
    x->size = km_dist_size();
    x->rows = malloc((n_tasks ? n_tasks : 1) * (record_length + 1) * sizeof *x->rows);
    x->have = calloc(n_tasks ? n_tasks : 1, 1);
    x->finished = calloc((size_t)x->size, sizeof *x->finished);
    x->stop_sent = calloc((size_t)x->size, 1);
    x->scratch = malloc((record_length + 1) * sizeof *x->scratch);
    x->owner = malloc((n_tasks ? n_tasks : 1) * sizeof *x->owner);
    int ok = x->rows && x->have && x->finished && x->stop_sent && x->scratch && x->owner;
    size_t mine = 0;
    for (size_t t = 0; ok && t < n_tasks; t++) {
        x->owner[t] = owner_of(unit ? unit[t] : t, x->size);
        x->due += x->owner[t] != x->rank && x->rank == 0;
        mine += x->owner[t] == x->rank;
    }
#if KM_HAVE_MPI
    if (x->size > 1) {
        x->sends = malloc((mine + 1) * sizeof *x->sends);
        ok = ok && x->sends;
        int all_ok = 0;
        MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        ok = all_ok;
        MPI_Comm_dup(MPI_COMM_WORLD, &x->comm);
    }
#endif
    if (!ok) {
        km_task_exchange_free(x);
        return km_error_nomem("the task exchange");
    }
    *out = x;
    return KM_OK;
}

void km_task_exchange_free(km_task_exchange *x)
{
    if (!x)
        return;
#if KM_HAVE_MPI
    if (x->size > 1) {
        if (x->comm != MPI_COMM_NULL && x->comm)
            MPI_Comm_free(&x->comm);
        free(x->sends);
    }
#endif
    free(x->rows);
    free(x->have);
    free(x->finished);
    free(x->stop_sent);
    free(x->scratch);
    free(x->owner);
    free(x);
}

int km_task_exchange_mine(const km_task_exchange *x, size_t t) { return t < x->n_tasks && x->owner[t] == x->rank; }

int km_task_exchange_leads(const km_task_exchange *x) { return x->rank == 0; }

const double *km_task_exchange_record(const km_task_exchange *x, size_t t)
{
    return t < x->n_tasks && x->have[t] ? row_of(x, t) + 1 : NULL;
}

#if KM_HAVE_MPI
/* Rank 0: STOP to every rank that has not had it. */
static void send_stops(km_task_exchange *x)
{
    for (int r = 1; r < x->size; r++)
        if (!x->stop_sent[r]) {
            MPI_Send(NULL, 0, MPI_BYTE, r, TAG_STOP, x->comm);
            x->stop_sent[r] = 1;
        }
}

/* Rank 0: receives the message that Probe found. */
static void take(km_task_exchange *x, const MPI_Status *probed)
{
    int source = probed->MPI_SOURCE;
    if (probed->MPI_TAG == TAG_RESULT) {
        MPI_Recv(x->scratch, (int)(x->length + 1), MPI_DOUBLE, source, TAG_RESULT, x->comm, MPI_STATUS_IGNORE);
        size_t t = (size_t)x->scratch[0];
        if (t < x->n_tasks && !x->have[t]) {
            memcpy(row_of(x, t), x->scratch, (x->length + 1) * sizeof *x->scratch);
            x->have[t] = 1;
            x->due--;
        }
        return;
    }
    char text[MESSAGE_BYTES];
    MPI_Recv(text, MESSAGE_BYTES, MPI_CHAR, source, TAG_FINISHED, x->comm, MPI_STATUS_IGNORE);
    text[MESSAGE_BYTES - 1] = '\0';
    x->finished[source] = 1;
    x->n_finished++;
    int status = atoi(text);
    if (status && !x->failure) {
        const char *message = strchr(text, ' ');
        x->failure = (km_status)status;
        snprintf(x->failure_message, MESSAGE_BYTES, "%s", message ? message + 1 : "");
        x->stopped = 1;
        send_stops(x);
    }
}

/* Rank 0: takes every message that has arrived. */
static void take_arrived(km_task_exchange *x)
{
    for (int flag = 1; flag;) {
        MPI_Status probed;
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, x->comm, &flag, &probed);
        if (flag)
            take(x, &probed);
    }
}
#endif

km_status km_task_exchange_post(km_task_exchange *x, size_t t, const double *record)
{
    double *row = row_of(x, t);
    row[0] = (double)t;
    memcpy(row + 1, record, x->length * sizeof *record);
    x->have[t] = 1;
#if KM_HAVE_MPI
    if (x->size > 1) {
        if (x->rank == 0) {
            take_arrived(x);
            return KM_OK;
        }
        MPI_Isend(row, (int)(x->length + 1), MPI_DOUBLE, 0, TAG_RESULT, x->comm, &x->sends[x->n_sends++]);
    }
#endif
    return KM_OK;
}

int km_task_exchange_stopped(km_task_exchange *x)
{
#if KM_HAVE_MPI
    if (x->size > 1 && x->rank != 0 && !x->stopped) {
        int flag = 0;
        MPI_Iprobe(0, TAG_STOP, x->comm, &flag, MPI_STATUS_IGNORE);
        if (flag) {
            MPI_Recv(NULL, 0, MPI_BYTE, 0, TAG_STOP, x->comm, MPI_STATUS_IGNORE);
            x->stopped = 1;
        }
    }
#endif
    return x->stopped;
}

int km_task_exchange_wait(km_task_exchange *x)
{
#if KM_HAVE_MPI
    if (x->size > 1 && x->rank == 0 && x->due > 0 && !x->stopped && x->n_finished < x->size - 1) {
        MPI_Status probed;
        MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, x->comm, &probed);
        take(x, &probed);
        return 1;
    }
#else
    (void)x;
#endif
    return 0;
}

#if KM_HAVE_MPI
/* Rank 0's outcome to every rank: the status, then the failure's message or every record. */
static km_status broadcast_outcome(km_task_exchange *x, km_status outcome, const char *message)
{
    int status = (int)outcome;
    MPI_Bcast(&status, 1, MPI_INT, 0, x->comm);
    if (status) {
        char text[MESSAGE_BYTES];
        snprintf(text, sizeof text, "%s", x->rank == 0 ? message : "");
        MPI_Bcast(text, MESSAGE_BYTES, MPI_CHAR, 0, x->comm);
        text[MESSAGE_BYTES - 1] = '\0';
        return km_error((km_status)status, "%s", text);
    }
    size_t total = x->n_tasks * (x->length + 1);
    for (size_t sent = 0; sent < total;) {
        int chunk = total - sent > INT_MAX ? INT_MAX : (int)(total - sent);
        MPI_Bcast(x->rows + sent, chunk, MPI_DOUBLE, 0, x->comm);
        sent += (size_t)chunk;
    }
    memset(x->have, 1, x->n_tasks);
    return KM_OK;
}

/* The rank's FINISHED message: "STATUS MESSAGE", the message naming the rank and host. */
static void send_finished(km_task_exchange *x, km_status local)
{
    char text[MESSAGE_BYTES];
    if (local)
        snprintf(text, sizeof text, "%d rank %d on %s: %s", (int)local, x->rank, km_dist_host(), km_last_error());
    else
        snprintf(text, sizeof text, "0");
    MPI_Send(text, (int)strlen(text) + 1, MPI_CHAR, 0, TAG_FINISHED, x->comm);
}
#endif

km_status km_task_exchange_finish(km_task_exchange *x, km_status local)
{
#if KM_HAVE_MPI
    if (x->size > 1) {
        if (x->rank != 0) {
            send_finished(x, local);
            MPI_Waitall(x->n_sends, x->sends, MPI_STATUSES_IGNORE);
            if (!x->stopped)
                MPI_Recv(NULL, 0, MPI_BYTE, 0, TAG_STOP, x->comm, MPI_STATUS_IGNORE);
            x->stopped = 1;
            return broadcast_outcome(x, KM_OK, NULL);
        }
        char own[MESSAGE_BYTES];
        snprintf(own, sizeof own, "%s", local ? km_last_error() : "");
        if (local)
            send_stops(x);
        while (x->n_finished < x->size - 1) {
            MPI_Status probed;
            MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, x->comm, &probed);
            take(x, &probed);
        }
        send_stops(x);
        km_status outcome = local ? local : x->failure;
        return broadcast_outcome(x, outcome, local ? own : x->failure_message);
    }
#else
    (void)x;
#endif
    return local;
}
