/* Files written atomically (models, matrices, datasets, command outputs): the data goes to a
 * temporary file in the destination's directory, which is flushed, synced and renamed over the
 * destination, and the directory is synced. A reader sees the old file or the complete new one. */
#ifndef KM_CORE_ATOMIC_FILE_H
#define KM_CORE_ATOMIC_FILE_H

#include <stdio.h>

#include "kernelmix.h"

/* A file replaced atomically: written to a temporary file in the destination's directory, then
 * flushed, synced and renamed over the destination. */
typedef struct km_atomic_file {
    FILE *stream;           /* where to write */
    char *path;             /* destination */
    char *temp_path;        /* the temporary file */
    const char *what;       /* for messages: "PATH: cannot write WHAT: reason" */
    int error;              /* errno of the first failed write, 0 if none */
} km_atomic_file;
/* Creates the temporary file (KM_EIO when the directory is missing or not writable). */
km_status km_atomic_open(km_atomic_file *file, const char *path, const char *what);
/* Writes n bytes; a failure is remembered and reported by km_atomic_commit. */
void km_atomic_write(km_atomic_file *file, const void *data, size_t n);
/* Flushes, syncs, renames over the destination and syncs the directory; on failure removes the
 * temporary file and leaves the destination untouched. Releases the file either way. */
km_status km_atomic_commit(km_atomic_file *file);
/* Closes and removes the temporary file; the destination is untouched. errno is preserved. */
void km_atomic_abort(km_atomic_file *file);

#endif
