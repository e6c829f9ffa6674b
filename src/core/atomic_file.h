/* Output files written all-or-nothing (models, matrices, datasets, command outputs): every writer of
 * the library and the CLI goes through this one implementation.
 *
 * A regular file (or a path that does not exist yet) is written to a temporary file with a short
 * name in the destination's directory (".kernelmix-XXXXXX", so that any destination name up to
 * NAME_MAX works), which is flushed, synced and renamed over the destination; the directory is then
 * synced. A reader sees the old file or the complete new one. The replaced file keeps its permission
 * bits.
 *
 * A symbolic link at the destination is followed (to any depth): its target is written atomically
 * and the link stays. A destination that exists and is not a regular file (a device such as
 * /dev/null, a FIFO, a socket, a terminal) is written through, in place: it is never replaced, and
 * such a write cannot be all-or-nothing. A directory is refused.
 *
 * The path "-" is standard output, as Unix tools take it: what is written is held in memory and
 * written to standard output when published (after fflush(stdout)), so that a failed or aborted output
 * writes nothing there either.
 *
 * Several finished files are published together, all or none, by km_atomic_publish_all.
 *
 * The temporary files of the files still open (or finished and not yet published) are listed, so that
 * km_atomic_remove_temporaries can delete them from a signal handler. */
#ifndef KM_CORE_ATOMIC_FILE_H
#define KM_CORE_ATOMIC_FILE_H

#include <stdio.h>

#include "kernelmix.h"

typedef struct km_atomic_file {
    FILE *stream;           /* where to write (NULL once finished) */
    char *path;             /* destination as given, for messages */
    char *target;           /* destination with symbolic links followed (NULL when written through) */
    char *temp_path;        /* the temporary file; NULL when written through */
    const char *what;       /* for messages: "PATH: cannot write WHAT: reason" */
    int fd;                 /* the descriptor under stream */
    int error;              /* errno of the first failed write, 0 if none */
    int to_stdout;          /* the path is "-": written to standard output when published */
    char *held;             /* standard output: the bytes written so far */
    size_t held_size;
    struct km_atomic_file *next_live; /* the list of temporary files to remove on a signal */
} km_atomic_file;

/* Creates the temporary file, or opens a non-regular destination for writing through (KM_EIO when
 * the directory is missing or not writable, or the destination is a directory). The file must stay
 * at its address until committed, published or aborted. */
km_status km_atomic_open(km_atomic_file *file, const char *path, const char *what);
/* Writes n bytes; a failure is remembered and reported by km_atomic_finish or km_atomic_commit.
 * Writing to file->stream directly is equivalent: the stream records its first failure too. */
void km_atomic_write(km_atomic_file *file, const void *data, size_t n);
/* Flushes, syncs and closes the temporary file without touching the destination yet, so that several
 * files can be published together once all are complete. On failure removes the temporary file and
 * releases the file. */
km_status km_atomic_finish(km_atomic_file *file);
/* Renames a finished file over its destination and syncs the directory. Releases the file. */
km_status km_atomic_publish(km_atomic_file *file);
/* Publishes n finished files together: all of them, or (on a failure, reported) none, the files they
 * replace put back. SIGINT, SIGTERM and SIGHUP are held while the names change, so that a signal takes
 * effect before or after the whole set. Releases every file. */
km_status km_atomic_publish_all(km_atomic_file *files, size_t n);
/* km_atomic_publish_all with a call between two renames, after `published` of them, whose non-zero
 * return counts as a failed rename: how the tests reach that moment. */
km_status km_atomic_publish_all_observed(km_atomic_file *files, size_t n, int (*between)(size_t published, void *user),
                                         void *user);
/* km_atomic_finish, then km_atomic_publish. */
km_status km_atomic_commit(km_atomic_file *file);
/* Closes and removes the temporary file (open or finished); the destination is untouched (a file
 * written through keeps what was written). errno is preserved. */
void km_atomic_abort(km_atomic_file *file);
/* Removes the temporary file of every file open or finished and not yet published. Only unlink(2) is
 * called: safe in a signal handler that interrupts the thread that writes. */
void km_atomic_remove_temporaries(void);

#endif
