/* Atomic replacement of a file: temporary file in the same directory, fflush + fsync, rename over the
 * destination, fsync of the directory. A reader sees the old file or the complete new one. */
#include "core/atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/error.h"

/* Permission bits a newly created file gets from open(path, O_CREAT, 0666): 0666 minus the umask,
 * read from /proc (umask() itself would change the process-wide mask for a moment). */
static mode_t new_file_mode(void)
{
    mode_t mask = 022;
    FILE *status = fopen("/proc/self/status", "r");
    if (status) {
        char line[256];
        unsigned value;
        while (fgets(line, sizeof line, status))
            if (sscanf(line, "Umask: %o", &value) == 1) {
                mask = (mode_t)value;
                break;
            }
        fclose(status);
    }
    return 0666 & ~mask;
}

/* The replaced file keeps the destination's permissions; a new one gets the usual ones. */
static mode_t destination_mode(const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0)
        return st.st_mode & 07777;
    return new_file_mode();
}

static km_status write_error(const km_atomic_file *file, int error)
{
    return km_error(KM_EIO, "%s: cannot write %s: %s", file->path, file->what, strerror(error));
}

static void release(km_atomic_file *file)
{
    free(file->path);
    free(file->temp_path);
    file->stream = NULL;
    file->path = file->temp_path = NULL;
}

km_status km_atomic_open(km_atomic_file *file, const char *path, const char *what)
{
    static const char suffix[] = ".XXXXXX";
    memset(file, 0, sizeof *file);
    file->what = what;
    size_t len = strlen(path);
    file->path = malloc(len + 1);
    file->temp_path = malloc(len + sizeof suffix);
    if (!file->path || !file->temp_path) {
        release(file);
        return km_error_nomem("a file name");
    }
    memcpy(file->path, path, len + 1);
    memcpy(file->temp_path, path, len);
    memcpy(file->temp_path + len, suffix, sizeof suffix);
    int fd = mkstemp(file->temp_path);
    if (fd < 0) {
        km_status st = write_error(file, errno);
        release(file);
        return st;
    }
    if (fchmod(fd, destination_mode(path)) != 0 || !(file->stream = fdopen(fd, "w"))) {
        km_status st = write_error(file, errno);
        close(fd);
        unlink(file->temp_path);
        release(file);
        return st;
    }
    return KM_OK;
}

void km_atomic_write(km_atomic_file *file, const void *data, size_t n)
{
    if (file->error)
        return;
    errno = 0;
    if (fwrite(data, 1, n, file->stream) != n)
        file->error = errno ? errno : EIO;
}

void km_atomic_abort(km_atomic_file *file)
{
    int saved = errno;
    if (file->stream)
        fclose(file->stream);
    if (file->temp_path)
        unlink(file->temp_path);
    release(file);
    errno = saved;
}

/* Makes the rename durable. Some file systems cannot sync a directory (EINVAL): nothing to do there. */
static int sync_directory(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
    if (!dir)
        return ENOMEM;
    int error = 0;
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    if (fd < 0 || (fsync(fd) != 0 && errno != EINVAL))
        error = errno;
    if (fd >= 0)
        close(fd);
    free(dir);
    return error;
}

km_status km_atomic_commit(km_atomic_file *file)
{
    errno = 0;
    if (file->error || fflush(file->stream) != 0 || ferror(file->stream) || fsync(fileno(file->stream)) != 0) {
        km_status st = write_error(file, file->error ? file->error : errno ? errno : EIO);
        km_atomic_abort(file);
        return st;
    }
    FILE *stream = file->stream;
    file->stream = NULL;
    if (fclose(stream) != 0 || rename(file->temp_path, file->path) != 0) {
        km_status st = write_error(file, errno);
        km_atomic_abort(file);
        return st;
    }
    int error = sync_directory(file->path);
    km_status st = error ? write_error(file, error) : KM_OK;
    release(file);
    return st;
}
