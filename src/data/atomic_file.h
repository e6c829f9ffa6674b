/* Files written atomically: the data goes to a temporary file in the target's directory, which is
 * flushed, fsync'ed and renamed over the target, so a reader sees the old file or the whole new one. */
#ifndef KM_DATA_ATOMIC_FILE_H
#define KM_DATA_ATOMIC_FILE_H

#include <stdio.h>

#include "kernelmix.h"

typedef struct km_atomic_file {
    FILE *stream;       /* write here (binary mode) */
    char *temp_path;
    const char *path;   /* the target, not copied */
} km_atomic_file;

/* Creates the temporary file next to path. */
km_status km_atomic_open(km_atomic_file *file, const char *path);
/* Flushes, syncs, closes and renames the temporary file to the target; on any failure the temporary
 * file is removed, the target is left untouched and KM_EIO names the problem. */
km_status km_atomic_commit(km_atomic_file *file);
/* Closes and removes the temporary file (after a failure while writing). */
void km_atomic_abort(km_atomic_file *file);

#endif
