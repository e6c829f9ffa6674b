/* kernelmix scale: svm-scale's job. Fits feature ranges on a LIBSVM file (-l/-u target interval,
 * -y for the label), saves them (-s) in LIBSVM's range-file format or applies saved ones (-r), and
 * writes the scaled rows byte for byte as svm-scale prints them (labels %.17g, features %g, a space
 * after every item, zeros left out, single-valued features dropped). */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "core/atomic_file.h"

#define CMD "scale"

static void usage(FILE *out)
{
    fprintf(out,
"usage: kernelmix scale [options] DATA_FILE [OUTPUT_FILE]\n"
"\n"
"Scales every feature of DATA_FILE (LIBSVM sparse format) linearly to [LOWER, UPPER], as LIBSVM's\n"
"svm-scale does, and writes the rows to OUTPUT_FILE (standard output when not given). Range files\n"
"are LIBSVM's, so files written by either tool work with the other.\n"
"\n"
"options:\n"
"  -l LOWER        lower end of the feature interval (default -1)\n"
"  -u UPPER        upper end (default 1)\n"
"  -y LOWER UPPER  also scale the labels to [LOWER, UPPER] (default: labels unchanged)\n"
"  -s FILE         save the fitted ranges to FILE (fit on training data)\n"
"  -r FILE         apply the ranges saved in FILE (test data); its intervals replace -l, -u, -y\n"
"\n"
"A feature with one value on the fitted data is dropped; with -r, a feature the range file does\n"
"not list is dropped with a warning. Numbers may be written B^k (e.g. -l 2^-1).\n"
"Outputs are all or nothing: written completely, or not at all.\n");
}

/* The ranges of svm-scale: per feature index 1..max_index its minimum and maximum. */
typedef struct ranges {
    double lower, upper;
    int y_scaling;
    double y_lower, y_upper, y_min, y_max;
    size_t max_index;
    double *min, *max;     /* [max_index + 1], index 0 unused */
} ranges;

typedef struct scale_options {
    ranges r;
    const char *save_path, *restore_path, *data_path, *output_path;
} scale_options;

static int parse_options(scale_options *o, int argc, char **argv)
{
    cli_args args;
    cli_args_init(&args, CMD, argc, argv);
    const char *positional, *v;
    int kind, n_positionals = 0;
    while ((kind = cli_args_next(&args, &positional)) != 0) {
        if (kind == 2) {
            if (n_positionals == 2) {
                cli_error(CMD, "unexpected argument '%s' (see kernelmix scale --help)", positional);
                return -1;
            }
            *(n_positionals++ ? &o->output_path : &o->data_path) = positional;
            continue;
        }
        int ok = 1;
        if (cli_args_is(&args, "-h", "--help")) {
            usage(stdout);
            return 0;
        } else if (cli_args_is(&args, "-l", NULL)) {
            ok = cli_parse_double(CMD, "-l", cli_args_value(&args), -DBL_MAX, DBL_MAX, &o->r.lower);
        } else if (cli_args_is(&args, "-u", NULL)) {
            ok = cli_parse_double(CMD, "-u", cli_args_value(&args), -DBL_MAX, DBL_MAX, &o->r.upper);
        } else if (cli_args_is(&args, "-y", NULL)) {
            o->r.y_scaling = 1;
            ok = cli_parse_double(CMD, "-y", cli_args_value(&args), -DBL_MAX, DBL_MAX, &o->r.y_lower) &&
                 cli_parse_double(CMD, "-y", (v = cli_args_value(&args)), -DBL_MAX, DBL_MAX, &o->r.y_upper);
        } else if (cli_args_is(&args, "-s", NULL)) {
            ok = (o->save_path = cli_args_value(&args)) != NULL;
        } else if (cli_args_is(&args, "-r", NULL)) {
            ok = (o->restore_path = cli_args_value(&args)) != NULL;
        } else {
            cli_args_unknown(&args);
            ok = 0;
        }
        if (!ok || args.failed)
            return -1;
    }
    if (args.failed)
        return -1;
    if (!o->data_path) {
        cli_error(CMD, "missing DATA_FILE (see kernelmix scale --help)");
        return -1;
    }
    if (o->save_path && o->restore_path) {
        cli_error(CMD, "-s and -r cannot be used together (fit ranges with -s on training data, apply them "
                       "with -r to test data)");
        return -1;
    }
    if (!(o->r.upper > o->r.lower) || (o->r.y_scaling && !(o->r.y_upper > o->r.y_lower))) {
        cli_error(CMD, "inconsistent interval: the upper end must exceed the lower end (-l, -u, -y)");
        return -1;
    }
    return 1;
}

static int alloc_ranges(ranges *r, size_t max_index)
{
    r->max_index = max_index;
    r->min = malloc((max_index + 1) * sizeof *r->min);
    r->max = malloc((max_index + 1) * sizeof *r->max);
    if (!r->min || !r->max) {
        cli_error(CMD, "not enough memory for the ranges of %zu features", max_index);
        return 0;
    }
    for (size_t j = 0; j <= max_index; j++) {
        r->min[j] = DBL_MAX;
        r->max[j] = -DBL_MAX;
    }
    return 1;
}

/* Ranges over the data; a feature a row does not list counts as 0 there (as in svm-scale). */
static void fit_ranges(ranges *r, const km_dataset *data)
{
    size_t n = km_dataset_rows(data);
    const double *y = km_dataset_labels(data);
    double y_min = DBL_MAX, y_max = -DBL_MAX;
    for (size_t i = 0; i < n; i++) {
        y_min = fmin(y_min, y[i]);
        y_max = fmax(y_max, y[i]);
        for (size_t j = 1; j <= r->max_index; j++) {
            double v = km_dataset_value(data, i, j - 1);
            r->min[j] = fmin(r->min[j], v);
            r->max[j] = fmax(r->max[j], v);
        }
    }
    if (r->y_scaling) {
        r->y_min = y_min;
        r->y_max = y_max;
    }
}

/* ---- range files ------------------------------------------------------------------------------ */

/* The next line of text (NUL-terminated in place), or NULL at the end. */
static char *next_line(char **cursor)
{
    char *line = *cursor;
    if (!*line)
        return NULL;
    char *end = strchr(line, '\n');
    if (end) {
        *end = '\0';
        *cursor = end + 1;
    } else {
        *cursor = line + strlen(line);
    }
    return line;
}

/* "A B" with nothing else on the line */
static int two_numbers(const char *line, double *a, double *b)
{
    int used = -1;
    return line && sscanf(line, "%lf %lf %n", a, b, &used) == 2 && used >= 0 && !line[used] && isfinite(*a) &&
           isfinite(*b);
}

/* The whole file as a string (range files are small: at most 1 GiB is read). */
static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t size = 0, cap = 4096;
    char *text = malloc(cap);
    while (text) {
        size += fread(text + size, 1, cap - 1 - size, f);
        if (size < cap - 1 || cap >= ((size_t)1 << 30))
            break;
        char *grown = realloc(text, cap *= 2);
        if (!grown)
            free(text);
        text = grown;
    }
    int failed = ferror(f) || !feof(f);
    fclose(f);
    if (!text || failed) {
        free(text);
        return NULL;
    }
    text[size] = '\0';
    return text;
}

/* Largest feature index a range file lists: svm-scale scales up to max(data, range file). The lines
 * are checked here; restore_ranges then reads them into the arrays. */
static int range_file_max_index(const char *path, const char *text, size_t *max_index)
{
    char *copy = strdup(text), *cursor = copy, *line;
    int ok = copy != NULL, number = 0;
    double a, b;
    *max_index = 0;
    line = ok ? next_line(&cursor) : NULL;
    number++;
    if (line && !strcmp(line, "y")) {
        ok = two_numbers(next_line(&cursor), &a, &b) && two_numbers(next_line(&cursor), &a, &b);
        number += 2;
        line = ok ? next_line(&cursor) : NULL;
        number++;
    }
    if (!copy || !ok || !line || strcmp(line, "x") || !two_numbers(next_line(&cursor), &a, &b) || !(b > a)) {
        if (copy)
            cli_error(CMD, "%s: not a range file (expected an optional 'y' section of two 'LOWER UPPER' lines, "
                           "then 'x' and 'LOWER UPPER', near line %d)", path, number);
        else
            cli_error(CMD, "not enough memory to read %s", path);
        free(copy);
        return 0;
    }
    number++;
    long previous = 0;
    while (ok && (line = next_line(&cursor))) {
        number++;
        long index;
        int used = -1;
        if (sscanf(line, "%ld %lf %lf %n", &index, &a, &b, &used) != 3 || used < 0 || line[used] || index <= previous ||
            index > INT_MAX || !isfinite(a) || !isfinite(b)) {
            cli_error(CMD, "%s:%d: expected 'INDEX MIN MAX' with indices ascending from 1 (up to %d)", path, number,
                      INT_MAX);
            ok = 0;
        }
        previous = index;
    }
    if (ok)
        *max_index = (size_t)previous;
    free(copy);
    return ok;
}

/* Features [from, to] with a range on the data but none in the file are dropped (scaled to 0), as
 * svm-scale does; counts them and remembers the first. */
static void drop_unlisted(ranges *r, size_t from, size_t to, size_t *dropped, size_t *first)
{
    for (size_t j = from; j <= to && j <= r->max_index; j++)
        if (r->min[j] != r->max[j]) {
            if (!(*dropped)++)
                *first = j;
            r->min[j] = r->max[j] = 0;
        }
}

/* Reads the range file checked by range_file_max_index into r, whose arrays hold the data's ranges. */
static void restore_ranges(ranges *r, char *text, const char *restore_path, const char *data_path)
{
    char *cursor = text, *line = next_line(&cursor);
    if (!strcmp(line, "y")) {
        r->y_scaling = 1;
        two_numbers(next_line(&cursor), &r->y_lower, &r->y_upper);
        two_numbers(next_line(&cursor), &r->y_min, &r->y_max);
        next_line(&cursor);   /* "x" */
    }
    two_numbers(next_line(&cursor), &r->lower, &r->upper);
    size_t next = 1, dropped = 0, first = 0;
    while ((line = next_line(&cursor))) {
        long index;
        double lo, hi;
        sscanf(line, "%ld %lf %lf", &index, &lo, &hi);
        drop_unlisted(r, next, (size_t)index - 1, &dropped, &first);
        r->min[index] = lo;
        r->max[index] = hi;
        next = (size_t)index + 1;
    }
    drop_unlisted(r, next, r->max_index, &dropped, &first);
    if (dropped)
        fprintf(stderr,
                "kernelmix scale: warning: %zu feature(s) of %s (first: index %zu) have no range in %s; they are "
                "scaled to 0\n",
                dropped, data_path, first, restore_path);
}

static void write_ranges(FILE *out, const ranges *r)
{
    if (r->y_scaling)
        fprintf(out, "y\n%.17g %.17g\n%.17g %.17g\n", r->y_lower, r->y_upper, r->y_min, r->y_max);
    fprintf(out, "x\n%.17g %.17g\n", r->lower, r->upper);
    for (size_t j = 1; j <= r->max_index; j++)
        if (r->min[j] != r->max[j])
            fprintf(out, "%zu %.17g %.17g\n", j, r->min[j], r->max[j]);
}

/* ---- scaling ---------------------------------------------------------------------------------- */

static double scaled(double v, double min, double max, double lower, double upper)
{
    if (v == min)
        return lower;
    if (v == max)
        return upper;
    return lower + (upper - lower) * (v - min) / (max - min);
}

/* The scaled rows into out; *nonzeros counts the values written (svm-scale's sparsity warning). */
static void write_scaled(FILE *out, const ranges *r, const km_dataset *data, size_t *nonzeros)
{
    size_t n = km_dataset_rows(data);
    const double *y = km_dataset_labels(data);
    *nonzeros = 0;
    for (size_t i = 0; i < n; i++) {
        double label = r->y_scaling ? scaled(y[i], r->y_min, r->y_max, r->y_lower, r->y_upper) : y[i];
        fprintf(out, "%.17g ", label);
        for (size_t j = 1; j <= r->max_index; j++) {
            if (r->min[j] == r->max[j])
                continue;   /* single-valued feature */
            double v = scaled(km_dataset_value(data, i, j - 1), r->min[j], r->max[j], r->lower, r->upper);
            if (v != 0) {
                fprintf(out, "%zu:%g ", j, v);
                ++*nonzeros;
            }
        }
        fputc('\n', out);
    }
}

static size_t count_nonzeros(const km_dataset *data)
{
    size_t count = 0, n = km_dataset_rows(data), d = km_dataset_dim(data);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < d; j++)
            count += km_dataset_value(data, i, j) != 0;
    return count;
}

/* The range file (-s) and the output file, both opened (temporary files) before either is committed,
 * so that a missing directory or a full disk leaves neither behind. */
static km_status emit_files(const scale_options *o, const char *ranges_text, size_t ranges_size,
                            const char *rows_text, size_t rows_size)
{
    km_atomic_file ranges_file, rows_file;
    km_status st = KM_OK;
    int have_ranges = 0, have_rows = 0;
    if (o->save_path && !(st = km_atomic_open(&ranges_file, o->save_path, "range file")))
        have_ranges = 1;
    if (!st && o->output_path && !(st = km_atomic_open(&rows_file, o->output_path, "scaled data")))
        have_rows = 1;
    if (st) {
        if (have_ranges)
            km_atomic_abort(&ranges_file);
        return st;
    }
    if (have_ranges)
        km_atomic_write(&ranges_file, ranges_text, ranges_size);
    if (have_rows)
        km_atomic_write(&rows_file, rows_text, rows_size);
    if (have_rows && (st = km_atomic_commit(&rows_file))) {
        if (have_ranges)
            km_atomic_abort(&ranges_file);
        return st;
    }
    return have_ranges ? km_atomic_commit(&ranges_file) : KM_OK;
}

static int run(scale_options *o)
{
    km_dataset *data = NULL;
    char *restore_text = NULL, *rows_text = NULL, *ranges_text = NULL;
    size_t rows_size = 0, ranges_size = 0, restore_max = 0, nonzeros;
    FILE *rows = NULL, *range_out = NULL;
    int rc = CLI_USAGE;
    km_status st = km_dataset_read_libsvm(o->data_path, 0, &data);
    if (st) {
        rc = cli_fail(CMD, st);
        goto done;
    }
    if (!km_dataset_labels(data)) {
        cli_error(CMD, "%s: rows have no labels (LIBSVM format starts each row with its label)", o->data_path);
        goto done;
    }
    if (o->restore_path) {
        if (!(restore_text = read_text(o->restore_path))) {
            cli_error(CMD, "%s: cannot read the range file", o->restore_path);
            goto done;
        }
        if (!range_file_max_index(o->restore_path, restore_text, &restore_max))
            goto done;
    }
    size_t dim = km_dataset_dim(data);
    rc = CLI_FAILURE;
    if (!alloc_ranges(&o->r, dim > restore_max ? dim : restore_max))
        goto done;
    fit_ranges(&o->r, data);
    if (o->restore_path)
        restore_ranges(&o->r, restore_text, o->restore_path, o->data_path);
    /* everything is produced in memory first: the outputs appear complete or not at all */
    if (!(rows = open_memstream(&rows_text, &rows_size)) ||
        (o->save_path && !(range_out = open_memstream(&ranges_text, &ranges_size)))) {
        cli_error(CMD, "not enough memory for the output");
        goto done;
    }
    write_scaled(rows, &o->r, data, &nonzeros);
    if (range_out)
        write_ranges(range_out, &o->r);
    int failed = fclose(rows) != 0;
    rows = NULL;
    if (range_out) {
        failed |= fclose(range_out) != 0;
        range_out = NULL;
    }
    if (failed) {
        cli_error(CMD, "not enough memory for the output");
        goto done;
    }
    if ((st = emit_files(o, ranges_text, ranges_size, rows_text, rows_size))) {
        rc = cli_fail(CMD, st);
        goto done;
    }
    if (!o->output_path && (fwrite(rows_text, 1, rows_size, stdout) != rows_size || fflush(stdout) != 0)) {
        cli_error(CMD, "cannot write the scaled data to standard output");
        goto done;
    }
    size_t before = count_nonzeros(data);
    if (nonzeros > before)
        fprintf(stderr,
                "kernelmix scale: warning: %zu non-zero values before scaling, %zu after; for non-negative sparse "
                "features use -l 0 rather than the default -l -1\n",
                before, nonzeros);
    rc = CLI_OK;
done:
    if (rows)
        fclose(rows);
    if (range_out)
        fclose(range_out);
    free(rows_text);
    free(ranges_text);
    free(restore_text);
    free(o->r.min);
    free(o->r.max);
    km_dataset_free(data);
    return rc;
}

int cmd_scale(int argc, char **argv)
{
    scale_options o;
    memset(&o, 0, sizeof o);
    o.r.lower = -1;
    o.r.upper = 1;
    int parsed = parse_options(&o, argc, argv);
    return parsed < 0 ? CLI_USAGE : parsed == 0 ? CLI_OK : run(&o);
}
