/* All-or-nothing output files (core/atomic_file.h): a temporary file with a short name in the
 * destination's directory, fflush + fsync, rename over the destination, fsync of the directory;
 * symbolic links followed, non-regular destinations written through. */
#define _GNU_SOURCE /* fopencookie: a stream that records the errno of its first failed write */
#include "core/atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/error.h"

/* 17 bytes whatever the destination's name, so names up to NAME_MAX work */
static const char TEMP_NAME[] = ".kernelmix-XXXXXX";
enum { MAX_SYMLINKS = 40, STREAM_BUFFER = 1 << 16 };

/* ---- the temporary files a signal handler removes ---------------------------------------------- */

/* A list threaded through the open files. Writers change it under a spin lock; the signal handler
 * only reads it, and it is consistent at every instruction the handler can interrupt: a file is
 * linked in after its next pointer is set, and unlinked before its names are freed. */
static km_atomic_file *_Atomic live_files;
static atomic_flag live_lock = ATOMIC_FLAG_INIT;

static void lock_live(void)
{
    while (atomic_flag_test_and_set_explicit(&live_lock, memory_order_acquire))
        ;
}

static void unlock_live(void) { atomic_flag_clear_explicit(&live_lock, memory_order_release); }

static void list_live(km_atomic_file *file)
{
    lock_live();
    file->next_live = atomic_load(&live_files);
    atomic_store(&live_files, file);
    unlock_live();
}

static void unlist_live(km_atomic_file *file)
{
    lock_live();
    km_atomic_file *previous = NULL;
    for (km_atomic_file *f = atomic_load(&live_files); f; previous = f, f = f->next_live) {
        if (f != file)
            continue;
        if (previous)
            previous->next_live = f->next_live;
        else
            atomic_store(&live_files, f->next_live);
        break;
    }
    atomic_signal_fence(memory_order_seq_cst);
    unlock_live();
}

void km_atomic_remove_temporaries(void)
{
    for (km_atomic_file *f = atomic_load(&live_files); f; f = f->next_live)
        unlink(f->temp_path);
}

/* ---- names and permissions ----------------------------------------------------------------------- */

/* The file a write to path lands on: path with its symbolic links followed (a dangling link gives
 * the path the link names). NULL with *error set on a loop or an unreadable link. */
static char *follow_symlinks(const char *path, int *error)
{
    char *current = strdup(path);
    for (int hops = 0; current; hops++) {
        struct stat st;
        if (lstat(current, &st) != 0 || !S_ISLNK(st.st_mode))
            return current;
        char link[PATH_MAX];
        ssize_t n = hops == MAX_SYMLINKS ? (errno = ELOOP, -1) : readlink(current, link, sizeof link - 1);
        if (n < 0) {
            *error = errno;
            free(current);
            return NULL;
        }
        link[n] = '\0';
        /* a relative link is relative to the directory that holds it */
        const char *slash = strrchr(current, '/');
        size_t dir = link[0] == '/' || !slash ? 0 : (size_t)(slash - current) + 1;
        char *next = malloc(dir + (size_t)n + 1);
        if (next) {
            memcpy(next, current, dir);
            memcpy(next + dir, link, (size_t)n + 1);
        }
        free(current);
        current = next;
    }
    *error = ENOMEM;
    return NULL;
}

/* TEMP_NAME in the directory of target */
static char *temp_name(const char *target)
{
    const char *slash = strrchr(target, '/');
    size_t dir = slash ? (size_t)(slash - target) + 1 : 0;
    char *name = malloc(dir + sizeof TEMP_NAME);
    if (name) {
        memcpy(name, target, dir);
        memcpy(name + dir, TEMP_NAME, sizeof TEMP_NAME);
    }
    return name;
}

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

/* ---- the stream ---------------------------------------------------------------------------------- */

static void remember_error(km_atomic_file *file, int error)
{
    if (!file->error)
        file->error = error ? error : EIO;
}

static ssize_t stream_write(void *cookie, const char *data, size_t n)
{
    km_atomic_file *file = cookie;
    for (size_t done = 0; done < n;) {
        ssize_t written = write(file->fd, data + done, n - done);
        if (written < 0 && errno == EINTR)
            continue;
        if (written <= 0) {
            remember_error(file, written < 0 ? errno : 0);
            return 0; /* fopencookie's error return (a negative value is not allowed) */
        }
        done += (size_t)written;
    }
    return (ssize_t)n;
}

static int stream_close(void *cookie)
{
    km_atomic_file *file = cookie;
    int fd = file->fd;
    file->fd = -1;
    if (close(fd) != 0) {
        remember_error(file, errno);
        return -1;
    }
    return 0;
}

/* ---- the file's life ----------------------------------------------------------------------------- */

static km_status write_error(const km_atomic_file *file, int error)
{
    return km_error(KM_EIO, "%s: cannot write %s: %s", file->to_stdout ? "standard output" : file->path, file->what,
                    strerror(error));
}

static void release(km_atomic_file *file)
{
    if (file->temp_path)
        unlist_live(file);
    free(file->path);
    free(file->target);
    free(file->temp_path);
    free(file->held);
    file->stream = NULL;
    file->path = file->target = file->temp_path = file->held = NULL;
    file->to_stdout = 0;
}

/* Opens the descriptor: the destination itself when it is not a regular file (stat follows every
 * link, /proc's magic links such as /dev/stdout included), else a new temporary file beside the
 * link-resolved destination, with its permissions. Returns 0 or an errno. */
static int open_descriptor(km_atomic_file *file)
{
    struct stat st;
    int exists = stat(file->path, &st) == 0;
    if (exists && S_ISDIR(st.st_mode))
        return EISDIR;
    if (exists && !S_ISREG(st.st_mode)) {
        file->fd = open(file->path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
        return file->fd < 0 ? errno : 0;
    }
    int error = 0;
    if (!(file->target = follow_symlinks(file->path, &error)))
        return error;
    if (!(file->temp_path = temp_name(file->target)))
        return ENOMEM;
    list_live(file); /* before the file exists: a signal while it is created finds it */
    file->fd = mkstemp(file->temp_path);
    if (file->fd < 0)
        return errno;
    if (fchmod(file->fd, exists ? st.st_mode & 07777 : new_file_mode()) != 0) {
        error = errno;
        close(file->fd);
        unlink(file->temp_path);
        return error;
    }
    return 0;
}

km_status km_atomic_open(km_atomic_file *file, const char *path, const char *what)
{
    memset(file, 0, sizeof *file);
    file->what = what;
    file->fd = -1;
    if (!(file->path = strdup(path)))
        return km_error_nomem("a file name");
    if (strcmp(path, "-") == 0) {   /* standard output: held in memory until published */
        file->to_stdout = 1;
        if ((file->stream = open_memstream(&file->held, &file->held_size)))
            return KM_OK;
        release(file);
        return km_error_nomem("the output held for standard output");
    }
    int error = open_descriptor(file);
    static const cookie_io_functions_t io = {.write = stream_write, .close = stream_close};
    if (!error && !(file->stream = fopencookie(file, "w", io))) {
        error = errno ? errno : ENOMEM;
        close(file->fd);
        if (file->temp_path)
            unlink(file->temp_path);
    }
    if (error) {
        km_status st = error == ENOMEM ? km_error_nomem("a file name") : write_error(file, error);
        release(file);
        return st;
    }
    setvbuf(file->stream, NULL, _IOFBF, STREAM_BUFFER);
    return KM_OK;
}

void km_atomic_write(km_atomic_file *file, const void *data, size_t n)
{
    if (!file->error && fwrite(data, 1, n, file->stream) != n)
        remember_error(file, errno);
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

km_status km_atomic_finish(km_atomic_file *file)
{
    FILE *stream = file->stream;
    file->stream = NULL;
    if (fflush(stream) != 0 || ferror(stream))
        remember_error(file, errno);
    /* a device or a pipe written through has nothing to sync */
    if (!file->error && file->temp_path && fsync(file->fd) != 0)
        remember_error(file, errno);
    fclose(stream); /* a failed close is remembered by stream_close */
    if (!file->error)
        return KM_OK;
    km_status st = write_error(file, file->error);
    km_atomic_abort(file);
    return st;
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

/* The held bytes of a standard-output file onto standard output (after what stdio holds of it). 0 or
 * an errno. */
static int write_held(const km_atomic_file *file)
{
    if (fflush(stdout) != 0)
        return errno ? errno : EIO;
    for (size_t done = 0; done < file->held_size;) {
        ssize_t written = write(STDOUT_FILENO, file->held + done, file->held_size - done);
        if (written < 0 && errno == EINTR)
            continue;
        if (written <= 0)
            return written < 0 ? errno : EIO;
        done += (size_t)written;
    }
    return 0;
}

/* A second name of the file a publication replaces ("TEMP~", beside its temporary file), or NULL with
 * *error 0 when there is no such file, or with *error set when the name cannot be made. */
static char *keep_replaced(const km_atomic_file *file, int *error)
{
    size_t len = strlen(file->temp_path);
    char *name = malloc(len + 2);
    if (!name) {
        *error = ENOMEM;
        return NULL;
    }
    memcpy(name, file->temp_path, len);
    memcpy(name + len, "~", 2);
    if (link(file->target, name) == 0)
        return name;
    *error = errno == ENOENT ? 0 : errno;
    free(name);
    return NULL;
}

km_status km_atomic_publish_all_observed(km_atomic_file *files, size_t n, int (*between)(size_t published, void *user),
                                         void *user)
{
    sigset_t held, previous;
    sigemptyset(&held);
    sigaddset(&held, SIGINT);
    sigaddset(&held, SIGTERM);
    sigaddset(&held, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &held, &previous);
    /* with several files, each replaced file keeps a second name until all are published, so that a
     * failure can put it back */
    char **kept = n > 1 ? calloc(n, sizeof *kept) : NULL;
    int error = n > 1 && !kept ? ENOMEM : 0;
    size_t failed = 0, renamed = 0;
    for (size_t k = 0; !error && n > 1 && k < n; k++)
        if (files[k].temp_path && !(kept[k] = keep_replaced(&files[k], &error)) && error)
            failed = k;
    /* the renames, then what standard output is to receive: nothing left that can fail after it */
    for (; !error && renamed < n; renamed++) {
        if (renamed > 0 && between && between(renamed, user))
            error = EIO;
        else if (files[renamed].temp_path && rename(files[renamed].temp_path, files[renamed].target) != 0)
            error = errno;
        if (error) {
            failed = renamed;
            break;
        }
    }
    for (size_t k = 0; !error && k < n; k++)
        if (files[k].to_stdout && (error = write_held(&files[k])))
            failed = k;
    for (size_t k = 0; error && k < renamed; k++) {   /* put the replaced files back */
        if (files[k].temp_path && kept && kept[k] && rename(kept[k], files[k].target) == 0) {
            free(kept[k]);
            kept[k] = NULL;
        } else if (files[k].temp_path && !(kept && kept[k])) {
            unlink(files[k].target);   /* it replaced nothing */
        }
    }
    for (size_t k = 0; !error && k < n; k++)
        if (files[k].temp_path && (error = sync_directory(files[k].target)))
            failed = k;
    km_status st = error ? write_error(&files[failed], error) : KM_OK;
    for (size_t k = 0; k < n; k++) {
        if (kept && kept[k])
            unlink(kept[k]);
        if (error && k >= renamed && files[k].temp_path)
            unlink(files[k].temp_path);
        free(kept ? kept[k] : NULL);
        release(&files[k]);
    }
    free(kept);
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    return st;
}

km_status km_atomic_publish_all(km_atomic_file *files, size_t n)
{
    return km_atomic_publish_all_observed(files, n, NULL, NULL);
}

km_status km_atomic_publish(km_atomic_file *file)
{
    return km_atomic_publish_all(file, 1);
}

km_status km_atomic_commit(km_atomic_file *file)
{
    km_status st = km_atomic_finish(file);
    return st ? st : km_atomic_publish(file);
}
