/* The progress of long work on stderr, in one of three modes (--progress). bar: one line redrawn in place
 * (carriage return, erase to the end of the line) at most ten times a second, and at every new stage, fold
 * or machine and its first MKL step, cut to the terminal's width so that it never wraps, and erased before
 * any other message and at the end of the work. plain: a line of its own at every new stage and otherwise
 * at most every few seconds, for a log. none: nothing. Each line names what is being done, the fraction
 * done and the time left where the work so far tells them, and the seconds elapsed. The CLI is one
 * thread, so the line's state is the file's. */
#include <math.h>
#include <stdarg.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

/* Seconds between two plain lines of the same stage. */
#define PLAIN_EVERY 5.0

static struct {
    const char *cmd;
    cli_progress_mode mode;      /* NONE, PLAIN or BAR once started */
    int shown;                   /* bar: a line is on the terminal */
    int any_drawn;               /* something was shown since the start */
    struct timespec start, drawn;
    struct timespec measured;    /* when the fraction done was first known */
    double measured_from;        /* the fraction done then (< 0: not known yet) */
    const char *stage;           /* the stage of the last line */
    km_progress last;            /* training: the last report shown */
} line;

/* Seconds from a to b. */
static double seconds_between(const struct timespec *a, const struct timespec *b)
{
    return (double)(b->tv_sec - a->tv_sec) + 1e-9 * (double)(b->tv_nsec - a->tv_nsec);
}

int cli_parse_progress(const char *cmd, const char *text, cli_progress_mode *mode)
{
    if (text && !strcmp(text, "bar"))
        *mode = CLI_PROGRESS_BAR;
    else if (text && !strcmp(text, "plain"))
        *mode = CLI_PROGRESS_PLAIN;
    else if (text && !strcmp(text, "none"))
        *mode = CLI_PROGRESS_NONE;
    else {
        cli_error(cmd, "option --progress: '%s' is not one of bar, plain, none", text ? text : "");
        return 0;
    }
    return 1;
}

void cli_progress_start(const char *cmd, cli_progress_mode mode, int quiet)
{
    memset(&line, 0, sizeof line);
    line.cmd = cmd;
    if (mode == CLI_PROGRESS_AUTO)
        mode = !quiet && isatty(STDERR_FILENO) ? CLI_PROGRESS_BAR : CLI_PROGRESS_NONE;
    line.mode = mode;
    line.measured_from = -1;
    line.stage = "";
    clock_gettime(CLOCK_MONOTONIC, &line.start);
}

/* ", 40% done, about 12s left" from the fraction done (< 0: unknown): the time left is the time the
 * fraction took since it was first known, scaled to what remains, once a second of it has passed. */
static void describe_fraction(char *text, size_t size, double done, const struct timespec *now)
{
    text[0] = '\0';
    if (done < 0)
        return;
    if (line.measured_from < 0) {
        line.measured_from = done;
        line.measured = *now;
    }
    int n = snprintf(text, size, ", %.0f%% done", floor(100 * fmin(done, 1)));
    double spent = seconds_between(&line.measured, now), progress = done - line.measured_from;
    if (n > 0 && (size_t)n < size && spent >= 1 && progress > 0 && done < 1)
        snprintf(text + n, size - (size_t)n, ", about %.0fs left", spent * (1 - done) / progress);
}

void cli_progress_show(int force, const char *stage, double done, const char *fmt, ...)
{
    if (line.mode == CLI_PROGRESS_NONE || line.mode == CLI_PROGRESS_AUTO)
        return;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    int new_stage = strcmp(stage, line.stage) != 0;
    double since = seconds_between(&line.drawn, &now);
    if (line.any_drawn && !new_stage &&
        (line.mode == CLI_PROGRESS_PLAIN ? since < PLAIN_EVERY : !force && since < 0.1))
        return;
    line.stage = stage;
    line.drawn = now;
    line.any_drawn = 1;
    char text[512], fraction[96];
    int n = snprintf(text, sizeof text, "kernelmix %s: ", line.cmd);
    va_list ap;
    va_start(ap, fmt);
    if (n > 0 && (size_t)n < sizeof text)
        vsnprintf(text + n, sizeof text - (size_t)n, fmt, ap);
    va_end(ap);
    describe_fraction(fraction, sizeof fraction, done, &now);
    size_t used = strlen(text);
    snprintf(text + used, sizeof text - used, "%s, %.0fs", fraction, seconds_between(&line.start, &now));
    if (line.mode == CLI_PROGRESS_PLAIN) {
        fprintf(stderr, "%s\n", text);
        fflush(stderr);
        return;
    }
    struct winsize size;
    size_t width = ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 1 ? size.ws_col : 80;
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

/* The fraction of the machines (of every fold) done: those finished, and the current one when its
 * "machine" report says it is; < 0 for one joint machine or before the first. */
static double machines_done(const km_progress *progress)
{
    if (!progress->machine || !progress->n_machines)
        return -1;
    double folds = progress->n_folds > 0 ? progress->n_folds : 1, fold = progress->fold > 0 ? progress->fold - 1 : 0;
    double finished = (double)(progress->machine - 1) + !strcmp(progress->stage, "machine");
    return (fold * (double)progress->n_machines + finished) / (folds * (double)progress->n_machines);
}

void cli_progress_training(const km_progress *progress)
{
    line.last.fold = progress->fold;
    line.last.n_folds = progress->n_folds;
    line.last.machine = progress->machine;
    line.last.n_machines = progress->n_machines;
    char fold[64] = "", machine[64] = "", mkl[96] = "";
    if (progress->fold)
        snprintf(fold, sizeof fold, "fold %d/%d, ", progress->fold, progress->n_folds);
    if (!strcmp(progress->stage, "kernels")) {
        cli_progress_show(1, "kernels", -1, "%sfitting the kernels", fold);
        return;
    }
    if (!strcmp(progress->stage, "alignment")) {
        cli_progress_show(0, "alignment", -1, "%skernel alignments", fold);
        return;
    }
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
    int force = !strcmp(progress->stage, "start") || (progress->mkl_step == 1 && !strcmp(progress->stage, "mkl"));
    cli_progress_show(force, "machines", machines_done(progress), "%s%s%s", fold, machine, mkl);
}

size_t cli_progress_machine(size_t *n_machines)
{
    size_t folds = line.last.n_folds > 0 ? (size_t)line.last.n_folds : 1;
    size_t fold = line.last.fold > 0 ? (size_t)line.last.fold - 1 : 0;
    *n_machines = folds * line.last.n_machines;
    return line.last.machine ? fold * line.last.n_machines + line.last.machine : 0;
}

const char CLI_PROGRESS_HELP[] =
"progress (stderr):\n"
"  --progress MODE    bar: one line redrawn in place (the stage, fold, machine k/K, MKL\n"
"                     step and gap, fraction done, time elapsed and left); plain: such a\n"
"                     line of its own at each new stage and every few seconds, for logs;\n"
"                     none. Default: bar when stderr is a terminal (and not -q), else none\n";
