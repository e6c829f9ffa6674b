/* Atomic file replacement: temporary file + fflush + fsync + rename. */
#include "data/atomic_file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/error.h"

km_status km_atomic_open(km_atomic_file *file, const char *path)
{
    static const char suffix[] = ".tmp-XXXXXX";
    file->stream = NULL;
    file->path = path;
    size_t len = strlen(path);
    if (!(file->temp_path = malloc(len + sizeof suffix)))
        return km_error_nomem("a temporary file name");
    memcpy(file->temp_path, path, len);
    memcpy(file->temp_path + len, suffix, sizeof suffix);
    int fd = mkstemp(file->temp_path);
    if (fd < 0) {
        km_status st = km_error(KM_EIO, "%s: cannot create a temporary file: %s", path, strerror(errno));
        free(file->temp_path);
        file->temp_path = NULL;
        return st;
    }
    /* mkstemp creates the file private (0600); written data files are ordinary readable files */
    if (fchmod(fd, 0644) != 0 || !(file->stream = fdopen(fd, "wb"))) {
        km_status st = km_error(KM_EIO, "%s: cannot open a temporary file: %s", path, strerror(errno));
        close(fd);
        unlink(file->temp_path);
        free(file->temp_path);
        file->temp_path = NULL;
        return st;
    }
    return KM_OK;
}

void km_atomic_abort(km_atomic_file *file)
{
    if (file->stream)
        fclose(file->stream);
    if (file->temp_path) {
        unlink(file->temp_path);
        free(file->temp_path);
    }
    file->stream = NULL;
    file->temp_path = NULL;
}

km_status km_atomic_commit(km_atomic_file *file)
{
    const char *step = NULL;
    if (fflush(file->stream) != 0 || ferror(file->stream))
        step = "write";
    else if (fsync(fileno(file->stream)) != 0)
        step = "sync";
    int saved = errno;
    int close_failed = fclose(file->stream) != 0;
    file->stream = NULL;
    if (!step && close_failed) {
        step = "close";
        saved = errno;
    }
    if (!step && rename(file->temp_path, file->path) != 0) {
        step = "rename";
        saved = errno;
    }
    if (step) {
        km_status st = km_error(KM_EIO, "%s: cannot %s: %s", file->path, step, saved ? strerror(saved) : "I/O error");
        km_atomic_abort(file);
        return st;
    }
    free(file->temp_path);
    file->temp_path = NULL;
    return KM_OK;
}
