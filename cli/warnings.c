/* The log callback of the commands: a warning that every machine of a run gives (45 one-vs-one machines,
 * each with its own gap) is printed once, at the end, with the range of each of its numbers and the
 * number of machines that gave it, rather than once per machine. Warnings are the same when their texts
 * agree outside the numbers. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* One number of a warning over its occurrences: the smallest and the largest, as written. */
typedef struct number_range {
    double low, high;
    char low_text[32], high_text[32];
} number_range;

struct cli_warning {
    char *text;                  /* the first occurrence */
    size_t n_numbers;
    number_range *numbers;
    size_t count;                /* occurrences */
    size_t machines;             /* distinct machines among them */
    size_t last_machine;         /* of the latest occurrence (0: outside any machine) */
    int outside_machines;        /* some occurrence came outside any machine */
};

/* Whether a number starts at text[i]: a digit, or '-' or '.' before one, not inside a word (x1, p-2). */
static int number_at(const char *text, size_t i)
{
    const unsigned char *s = (const unsigned char *)text;
    if (i > 0 && (isalnum(s[i - 1]) || s[i - 1] == '_' || s[i - 1] == '.'))
        return 0;
    if (isdigit(s[i]))
        return 1;
    if (s[i] == '-' && isdigit(s[i + 1]))
        return 1;
    return s[i] == '.' && isdigit(s[i + 1]);
}

/* Calls visit(ctx, k, start, end, value) for the k-th number of text, and returns how many there are. */
static size_t scan_numbers(const char *text, void (*visit)(void *, size_t, const char *, const char *, double),
                           void *ctx)
{
    size_t k = 0;
    for (size_t i = 0; text[i];) {
        char *end;
        double value;
        if (number_at(text, i) && (value = strtod(text + i, &end), end > text + i)) {
            if (visit)
                visit(ctx, k, text + i, end, value);
            k++;
            i = (size_t)(end - text);
        } else {
            i++;
        }
    }
    return k;
}

/* Whether a and b agree outside their numbers. */
static int same_template(const char *a, const char *b)
{
    size_t i = 0, j = 0;
    while (a[i] && b[j]) {
        char *end_a, *end_b;
        int number_a = number_at(a, i) && (strtod(a + i, &end_a), end_a > a + i);
        int number_b = number_at(b, j) && (strtod(b + j, &end_b), end_b > b + j);
        if (number_a != number_b)
            return 0;
        if (number_a) {
            i = (size_t)(end_a - a);
            j = (size_t)(end_b - b);
        } else if (a[i++] != b[j++]) {
            return 0;
        }
    }
    return !a[i] && !b[j];
}

static void copy_token(char *out, size_t size, const char *start, const char *end)
{
    size_t n = (size_t)(end - start) < size - 1 ? (size_t)(end - start) : size - 1;
    memcpy(out, start, n);
    out[n] = '\0';
}

static void widen_range(void *ctx, size_t k, const char *start, const char *end, double value)
{
    number_range *r = &((cli_warning *)ctx)->numbers[k];
    if (value < r->low) {
        r->low = value;
        copy_token(r->low_text, sizeof r->low_text, start, end);
    }
    if (value > r->high) {
        r->high = value;
        copy_token(r->high_text, sizeof r->high_text, start, end);
    }
}

static void start_range(void *ctx, size_t k, const char *start, const char *end, double value)
{
    number_range *r = &((cli_warning *)ctx)->numbers[k];
    r->low = r->high = value;
    copy_token(r->low_text, sizeof r->low_text, start, end);
    copy_token(r->high_text, sizeof r->high_text, start, end);
}

/* Counts message as an occurrence of the warning it matches, or adds it; 0 when out of memory. */
static int gather(cli_log *log, const char *message)
{
    size_t n_machines, machine = cli_progress_machine(&n_machines);
    cli_warning *w = NULL;
    for (size_t k = 0; k < log->n_warnings && !w; k++)
        if (same_template(log->warnings[k].text, message))
            w = &log->warnings[k];
    if (!w) {
        cli_warning *grown = realloc(log->warnings, (log->n_warnings + 1) * sizeof *grown);
        if (!grown)
            return 0;
        log->warnings = grown;
        w = &grown[log->n_warnings];
        memset(w, 0, sizeof *w);
        w->n_numbers = scan_numbers(message, NULL, NULL);
        w->text = strdup(message);
        w->numbers = calloc(w->n_numbers ? w->n_numbers : 1, sizeof *w->numbers);
        if (!w->text || !w->numbers) {
            free(w->text);
            free(w->numbers);
            return 0;
        }
        log->n_warnings++;
        scan_numbers(message, start_range, w);
    } else {
        scan_numbers(message, widen_range, w);
    }
    w->count++;
    if (!machine)
        w->outside_machines = 1;
    else if (machine != w->last_machine)
        w->machines++;
    w->last_machine = machine;
    return 1;
}

void cli_log_fn(void *user, km_log_level level, const char *message)
{
    cli_log *log = user;
    if (level == KM_LOG_WARNING) {
        if (!log->quiet && !gather(log, message)) {
            cli_progress_clear();
            fprintf(stderr, "kernelmix %s: warning: %s\n", log->cmd, message);
        }
        return;
    }
    if (level != KM_LOG_ERROR && log->verbose < (level == KM_LOG_INFO ? 1 : 2))
        return;
    cli_progress_clear();
    if (level == KM_LOG_ERROR)
        fprintf(stderr, "kernelmix %s: error: %s\n", log->cmd, message);
    else
        fprintf(stderr, "%s\n", message);
}

/* Prints the text of the warning's first occurrence with each number that varied as LOW..HIGH. */
typedef struct printer {
    const cli_warning *w;
    const char *from;            /* the text not yet printed */
} printer;

static void print_number(void *ctx, size_t k, const char *start, const char *end, double value)
{
    (void)value;
    printer *p = ctx;
    const number_range *r = &p->w->numbers[k];
    fwrite(p->from, 1, (size_t)(start - p->from), stderr);
    if (r->low == r->high)
        fwrite(start, 1, (size_t)(end - start), stderr);
    else
        fprintf(stderr, "%s..%s", r->low_text, r->high_text);
    p->from = end;
}

void cli_log_flush(cli_log *log)
{
    size_t n_machines;
    cli_progress_machine(&n_machines);
    if (log->n_warnings)
        cli_progress_clear();
    for (size_t k = 0; k < log->n_warnings; k++) {
        cli_warning *w = &log->warnings[k];
        fprintf(stderr, "kernelmix %s: warning: ", log->cmd);
        printer p = {w, w->text};
        scan_numbers(w->text, print_number, &p);
        fputs(p.from, stderr);
        if (!w->outside_machines && n_machines > 1 && w->count > w->machines)
            fprintf(stderr, " (%zu times in %zu of %zu machines)", w->count, w->machines, n_machines);
        else if (!w->outside_machines && n_machines > 1)
            fprintf(stderr, " (in %zu of %zu machines)", w->machines, n_machines);
        else if (w->count > 1)
            fprintf(stderr, " (%zu times)", w->count);
        fputc('\n', stderr);
        free(w->text);
        free(w->numbers);
    }
    free(log->warnings);
    log->warnings = NULL;
    log->n_warnings = 0;
}
