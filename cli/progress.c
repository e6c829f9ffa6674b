/* The progress line: one line on stderr, redrawn in place (carriage return, erase to the end of the
 * line) at most ten times a second, and at every new fold or machine and its first MKL step, cut to the terminal's width so that it never wraps, and erased
 * before any other message and at the end of the work. Only a terminal gets it: redirected stderr
 * stays a clean log. The CLI is one thread, so the line's state is the file's. */
#include <math.h>
#include <stdarg.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

static struct {
    const char *cmd;
    int enabled;
    int shown;                   /* a line is on the terminal */
    struct timespec start, drawn;
    km_progress last;            /* training: the last report drawn */
} line;

/* Seconds from a to b. */
static double seconds_between(const struct timespec *a, const struct timespec *b)
{
    return (double)(b->tv_sec - a->tv_sec) + 1e-9 * (double)(b->tv_nsec - a->tv_nsec);
}

void cli_progress_start(const char *cmd, int quiet)
{
    memset(&line, 0, sizeof line);
    line.cmd = cmd;
    line.enabled = !quiet && isatty(STDERR_FILENO);
    clock_gettime(CLOCK_MONOTONIC, &line.start);
}

void cli_progress_show(int force, const char *fmt, ...)
{
    if (!line.enabled)
        return;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (line.shown && !force && seconds_between(&line.drawn, &now) < 0.1)
        return;
    line.drawn = now;
    struct winsize size;
    size_t width = ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 1 ? size.ws_col : 80;
    char text[512];
    int n = snprintf(text, sizeof text, "kernelmix %s: ", line.cmd);
    va_list ap;
    va_start(ap, fmt);
    if (n > 0 && (size_t)n < sizeof text)
        vsnprintf(text + n, sizeof text - (size_t)n, fmt, ap);
    va_end(ap);
    snprintf(text + strlen(text), sizeof text - strlen(text), ", %.0fs", seconds_between(&line.start, &now));
    if (strlen(text) > width - 1)
        text[width - 1] = '\0'; /* a wrapped line could not be redrawn in place */
    fprintf(stderr, "\r%s\033[K", text);
    fflush(stderr);
    line.shown = 1;
}

void cli_progress_clear(void)
{
    if (!line.shown)
        return;
    fputs("\r\033[K", stderr);
    fflush(stderr);
    line.shown = 0;
}

void cli_progress_training(const km_progress *progress)
{
    char fold[64] = "", machine[64] = "", mkl[96] = "";
    if (progress->fold)
        snprintf(fold, sizeof fold, "fold %d/%d, ", progress->fold, progress->n_folds);
    if (progress->machine)
        snprintf(machine, sizeof machine, "machine %zu/%zu", progress->machine, progress->n_machines);
    else if (progress->n_machines)
        snprintf(machine, sizeof machine, "%zu machines jointly", progress->n_machines);
    else
        snprintf(machine, sizeof machine, "preparing");
    if (progress->mkl_step && !isnan(progress->mkl_gap))
        snprintf(mkl, sizeof mkl, ", MKL step %ld, gap %.2e", progress->mkl_step, progress->mkl_gap);
    else if (progress->mkl_step)
        snprintf(mkl, sizeof mkl, ", MKL step %ld", progress->mkl_step);
    /* every fold and machine, and the first MKL step of each, appear however fast they pass */
    int force = progress->fold != line.last.fold || progress->machine != line.last.machine ||
                progress->n_machines != line.last.n_machines || (progress->mkl_step && !line.last.mkl_step);
    line.last = *progress;
    cli_progress_show(force, "%s%s%s", fold, machine, mkl);
}
