/* The processes of a run (dist.h). */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if KM_HAVE_MPI
#include <mpi.h>
#endif

#include "core/error.h"
#include "dist/dist.h"

static int started;              /* MPI started here (and not yet ended) */
static char host[256];

/* An MPI launcher names the job's size in its processes' environment: Open MPI's mpirun, PMIx and
 * PMI (MPICH's hydra, Slurm's srun). */
static int launched_by_mpi(void)
{
    return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMIX_RANK") || getenv("PMI_SIZE");
}

km_status km_dist_start(int *argc, char ***argv)
{
#if KM_HAVE_MPI
    int already = 0;
    MPI_Initialized(&already);
    if (already || !launched_by_mpi())
        return KM_OK;
    int provided;
    /* the threads of a rank make MPI calls one at a time (cv's chains, select/cv_run.c) */
    if (MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS)
        return km_error(KM_EINVAL, "MPI could not be started");
    started = 1;
    atexit(km_dist_end);
    return KM_OK;
#else
    (void)argc;
    (void)argv;
    if (launched_by_mpi() && getenv("OMPI_COMM_WORLD_SIZE") && strcmp(getenv("OMPI_COMM_WORLD_SIZE"), "1"))
        return km_error(KM_EINVAL, "started by mpirun as one of %s processes, but this kernelmix was built without "
                        "MPI (configure with -DKM_WITH_MPI=ON and libopenmpi-dev installed)",
                        getenv("OMPI_COMM_WORLD_SIZE"));
    return KM_OK;
#endif
}

void km_dist_end(void)
{
#if KM_HAVE_MPI
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (started && !finalized)
        MPI_Finalize();
#endif
    started = 0;
}

#if KM_HAVE_MPI
/* Whether this process is one of an MPI job's. */
static int in_job(void)
{
    int initialized = 0, finalized = 0;
    MPI_Initialized(&initialized);
    MPI_Finalized(&finalized);
    return initialized && !finalized;
}
#endif

int km_dist_threads_may_call(void)
{
#if KM_HAVE_MPI
    int level = MPI_THREAD_SERIALIZED;
    if (in_job())
        MPI_Query_thread(&level);
    return level >= MPI_THREAD_SERIALIZED;
#else
    return 1;
#endif
}

int km_dist_rank(void)
{
    int rank = 0;
#if KM_HAVE_MPI
    if (in_job())
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
#endif
    return rank;
}

int km_dist_size(void)
{
    int size = 1;
#if KM_HAVE_MPI
    if (in_job())
        MPI_Comm_size(MPI_COMM_WORLD, &size);
#endif
    return size;
}

const char *km_dist_host(void)
{
    if (!host[0] && gethostname(host, sizeof host - 1))
        strcpy(host, "unknown host");
    return host;
}

int km_dist_max(int value)
{
#if KM_HAVE_MPI
    if (km_dist_size() > 1) {
        int largest = value;
        MPI_Allreduce(&value, &largest, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        return largest;
    }
#endif
    return value;
}

km_status km_dist_agree(km_status mine, const char *what)
{
    if (!km_dist_max(mine != KM_OK) || mine)
        return mine;
    return km_error(KM_EINVAL, "%s%s", KM_DIST_FAILED_ELSEWHERE, what);
}

#if KM_HAVE_MPI
/* The count of one MPI call on the next of `left` items: MPI counts are ints. */
static int piece(unsigned long long left) { return left > INT_MAX ? INT_MAX : (int)left; }
#endif

km_status km_dist_broadcast_bytes(void **bytes, size_t *n)
{
#if KM_HAVE_MPI
    if (km_dist_size() == 1)
        return KM_OK;
    int rank = km_dist_rank();
    unsigned long long length = rank == 0 ? (unsigned long long)*n : 0;
    MPI_Bcast(&length, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
    char *buffer = rank == 0 ? *bytes : malloc(length ? (size_t)length : 1);
    int ok = buffer != NULL, all_ok = 0;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!all_ok) {
        if (rank != 0)
            free(buffer);
        return km_error_nomem("the broadcast input");
    }
    for (unsigned long long sent = 0; sent < length;) {
        int chunk = piece(length - sent);
        MPI_Bcast(buffer + sent, chunk, MPI_BYTE, 0, MPI_COMM_WORLD);
        sent += (unsigned long long)chunk;
    }
    if (rank != 0) {
        *bytes = buffer;
        *n = (size_t)length;
    }
#else
    (void)bytes;
    (void)n;
#endif
    return KM_OK;
}

/* values reduced by op over the ranks, in place, in pieces of at most INT_MAX values. */
#if KM_HAVE_MPI
static void all_reduce(double *values, size_t n, MPI_Op op)
{
    for (size_t done = 0; km_dist_size() > 1 && done < n;) {
        int chunk = piece(n - done);
        MPI_Allreduce(MPI_IN_PLACE, values + done, chunk, MPI_DOUBLE, op, MPI_COMM_WORLD);
        done += (size_t)chunk;
    }
}
#endif

void km_dist_sum(double *values, size_t n)
{
#if KM_HAVE_MPI
    all_reduce(values, n, MPI_SUM);
#else
    (void)values;
    (void)n;
#endif
}

void km_dist_maximum(double *values, size_t n)
{
#if KM_HAVE_MPI
    all_reduce(values, n, MPI_MAX);
#else
    (void)values;
    (void)n;
#endif
}

km_status km_dist_gather_bytes(const void *mine, size_t n, void **all, size_t *n_all)
{
    *all = NULL;
    *n_all = 0;
    int rank = km_dist_rank(), size = km_dist_size();
    if (size == 1) {
        if (!(*all = malloc(n ? n : 1)))
            return km_error_nomem("the gathered results");
        memcpy(*all, mine, n);
        *n_all = n;
        return KM_OK;
    }
#if KM_HAVE_MPI
    unsigned long long length = n, *lengths = rank == 0 ? malloc((size_t)size * sizeof *lengths) : NULL;
    unsigned long long total = 0;
    int ok = rank != 0 || lengths, all_ok = 0;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!all_ok) {
        free(lengths);
        return km_error_nomem("the gathered results");
    }
    MPI_Gather(&length, 1, MPI_UNSIGNED_LONG_LONG, lengths, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
    for (int r = 0; rank == 0 && r < size; r++)
        total += lengths[r];
    char *buffer = rank == 0 ? malloc(total ? (size_t)total : 1) : NULL;
    ok = rank != 0 || buffer;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!all_ok) {
        free(lengths);
        free(buffer);
        return km_error_nomem("the gathered results");
    }
    /* point to point in rank order, in pieces of at most INT_MAX bytes */
    if (rank == 0) {
        memcpy(buffer, mine, n);
        unsigned long long at = n;
        for (int r = 1; r < size; r++)
            for (unsigned long long got = 0; got < lengths[r];) {
                int chunk = piece(lengths[r] - got);
                MPI_Recv(buffer + at, chunk, MPI_BYTE, r, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                got += (unsigned long long)chunk;
                at += (unsigned long long)chunk;
            }
        *all = buffer;
        *n_all = (size_t)total;
    } else {
        for (size_t sent = 0; sent < n;) {
            int chunk = piece(n - sent);
            MPI_Send((const char *)mine + sent, chunk, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
            sent += (size_t)chunk;
        }
    }
    free(lengths);
#else
    (void)rank;
#endif
    return KM_OK;
}
