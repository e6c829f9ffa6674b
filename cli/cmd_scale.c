/* kernelmix scale: svm-scale's job. Fits feature ranges on a LIBSVM file (-l/-u target interval,
 * -y for the label), saves them (-s) in LIBSVM's range-file format or applies saved ones (-r), and
 * writes the scaled rows byte for byte as svm-scale prints them (labels %.17g, features %g, a space
 * after every item, zeros left out, single-valued features dropped). */
#include <float.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

#define CMD "scale"

static void usage(FILE *out)
{
    fprintf(out,
"usage: kernelmix scale [options] DATA_FILE [OUTPUT_FILE]\n"
"\n"
"Scales every feature of DATA_FILE linearly to [LOWER, UPPER], as LIBSVM's svm-scale does, and\n"
"writes the rows in LIBSVM format to OUTPUT_FILE (standard output when not given or '-').\n"
"DATA_FILE is read as train reads it (LIBSVM, CSV or .npy; the input options below); '-' is\n"
"standard input. Range files are LIBSVM's, so files written by either tool work with the other.\n"
"\n"
"options:\n"
"  -l LOWER        lower end of the feature interval (default -1)\n"
"  -u UPPER        upper end (default 1)\n"
"  -y LOWER UPPER  also scale the labels to [LOWER, UPPER] (default: labels unchanged)\n"
"  -s FILE         save the fitted ranges to FILE (fit on training data)\n"
"  -r FILE         apply the ranges saved in FILE (test data); its intervals replace -l, -u, -y\n"
"\n"
"input:\n"
"%s"
"\n"
"A feature with one value on the fitted data is dropped; with -r, a feature the range file does\n"
"not list is dropped with a warning. Numbers may be written B^k (e.g. -l 2^-1). Ranges whose\n"
"scaling overflows double precision (bounds near +-1e308) are refused, naming the range file's\n"
"line (or the data file when fitted), rather than written as inf or nan.\n"
"Outputs are all or nothing: written completely, or not at all.\n", CLI_INPUT_HELP);
}

/* One feature's range. */
typedef struct feature_range {
    uint32_t index;        /* 1-based, as in the files */
    double min, max;
    size_t line;           /* its line in the range file, 0 when fitted on the data */
} feature_range;

/* The ranges of svm-scale, kept only for the features that have one (those listed by the data, or by
 * a range file), in ascending index: memory follows the stored values, not the largest index. */
typedef struct ranges {
    double lower, upper;
    int y_scaling;
    double y_lower, y_upper, y_min, y_max;
    const char *file;      /* the range file they come from (-r), or NULL when fitted */
    size_t x_line;         /* the range file's lines of the x interval, */
    size_t y_interval_line, y_line; /* of the label's interval and of its range */
    size_t count;
    feature_range *features;
} ranges;

typedef struct scale_options {
    ranges r;
    cli_input input;
    const char *save_path, *restore_path, *data_path, *output_path;
} scale_options;

static int parse_options(scale_options *o, int argc, char **argv)
{
    cli_args args;
    cli_args_init(&args, CMD, argc, argv);
    const char *v;
    cli_positionals positionals = {.max = 2};
    int handled;
    while (cli_args_next_option(&args, &positionals)) {
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
        } else if ((handled = cli_data_option(&args, &o->input))) {
            ok = handled > 0;
        } else {
            cli_args_unknown(&args);
            ok = 0;
        }
        if (!ok || args.failed)
            return -1;
    }
    if (args.failed || !cli_positionals_given(CMD, &positionals, 1, "missing DATA_FILE"))
        return -1;
    o->data_path = positionals.values[0];
    o->output_path = positionals.values[1];
    if (o->save_path && o->restore_path) {
        cli_error(CMD, "-s and -r cannot be used together (fit ranges with -s on training data, apply them "
                       "with -r to test data)");
        return -1;
    }
    if (!o->output_path)
        o->output_path = "-";
    cli_inputs inputs = {0};
    int checked = cli_inputs_add(CMD, &inputs, o->data_path) && cli_inputs_add(CMD, &inputs, o->restore_path) &&
                  cli_check_output(CMD, o->output_path, &inputs) &&
                  (!o->save_path || cli_check_output(CMD, o->save_path, &inputs));
    cli_inputs_free(&inputs);
    if (!checked)
        return -1;
    struct stat a, b;
    if (o->output_path && o->save_path &&
        (!strcmp(o->output_path, o->save_path) || (stat(o->output_path, &a) == 0 && stat(o->save_path, &b) == 0 &&
                                                   a.st_dev == b.st_dev && a.st_ino == b.st_ino))) {
        cli_error(CMD, "the range file (-s) and OUTPUT_FILE are the same file: %s", o->save_path);
        return -1;
    }
    if (!(o->r.upper > o->r.lower) || (o->r.y_scaling && !(o->r.y_upper > o->r.y_lower))) {
        cli_error(CMD, "inconsistent interval: the upper end must exceed the lower end (-l, -u, -y)");
        return -1;
    }
    return 1;
}

static int compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static int compare_range_index(const void *key, const void *item)
{
    uint32_t x = *(const uint32_t *)key, y = ((const feature_range *)item)->index;
    return (x > y) - (x < y);
}

/* The range of feature `index` (1-based), or NULL. */
static feature_range *find_range(const ranges *r, uint32_t index)
{
    return bsearch(&index, r->features, r->count, sizeof *r->features, compare_range_index);
}

/* Ranges over the data's stored features; a feature a row does not list counts as 0 there (as in
 * svm-scale). O(stored values) memory and O(stored values log features) time. */
static int fit_ranges(ranges *r, const km_dataset *data)
{
    size_t n = data->n, stored = data->row_start[n];
    uint32_t *columns = malloc((stored ? stored : 1) * sizeof *columns);
    size_t *listed = NULL;
    if (columns) {
        memcpy(columns, data->col, stored * sizeof *columns);
        qsort(columns, stored, sizeof *columns, compare_u32);
        size_t distinct = 0;
        for (size_t k = 0; k < stored; k++)
            if (!distinct || columns[k] != columns[distinct - 1])
                columns[distinct++] = columns[k];
        r->count = distinct;
        r->features = malloc((distinct ? distinct : 1) * sizeof *r->features);
        listed = calloc(distinct ? distinct : 1, sizeof *listed);
    }
    if (!columns || !r->features || !listed) {
        free(columns);
        free(listed);
        cli_error(CMD, "not enough memory for the feature ranges");
        return 0;
    }
    for (size_t j = 0; j < r->count; j++)
        r->features[j] = (feature_range){columns[j] + 1, DBL_MAX, -DBL_MAX, 0};
    free(columns);
    double y_min = DBL_MAX, y_max = -DBL_MAX;
    for (size_t i = 0; i < n; i++) {
        y_min = fmin(y_min, data->labels[i]);
        y_max = fmax(y_max, data->labels[i]);
    }
    for (size_t k = 0; k < stored; k++) {
        feature_range *f = find_range(r, data->col[k] + 1);
        f->min = fmin(f->min, data->val[k]);
        f->max = fmax(f->max, data->val[k]);
        listed[f - r->features]++;
    }
    for (size_t j = 0; j < r->count; j++)
        if (listed[j] < n) {
            r->features[j].min = fmin(r->features[j].min, 0);
            r->features[j].max = fmax(r->features[j].max, 0);
        }
    free(listed);
    if (r->y_scaling) {
        r->y_min = y_min;
        r->y_max = y_max;
    }
    return 1;
}

/* ---- range files ------------------------------------------------------------------------------ */

/* "A B" with nothing else on the line */
static int two_numbers(const char *line, double *a, double *b)
{
    int used = -1;
    return line && sscanf(line, "%lf %lf %n", a, b, &used) == 2 && used >= 0 && !line[used] && isfinite(*a) &&
           isfinite(*b);
}

/* The next line of a range file into *line (NULL at the end); 0 with the reader's message, and *failed
 * set, on an error. */
static int next_line(km_line_reader *reader, char **line, int *failed)
{
    km_status st = km_line_next(reader, line);
    if (st) {
        cli_fail(CMD, st);
        *failed = 1;
    }
    return !st;
}

/* Reads a range file into *out: base (the options and the data's fitted label range) with the file's
 * intervals (they replace -l, -u, and -y when the file has a 'y' section) and its features' ranges.
 * The line reader bounds what a stream that is not a range file (/dev/zero) can make it read. */
static int read_range_file(const char *path, const ranges *base, ranges *out)
{
    FILE *f;
    const char *name = km_input_name(path);   /* "standard input" for "-" */
    km_status st = km_open_input(path, &f);
    if (st) {
        cli_fail(CMD, st);
        return 0;
    }
    km_line_reader reader;
    km_line_reader_init(&reader, f, name);
    ranges file = *base;
    file.count = 0;
    file.features = NULL;
    size_t capacity = 0;
    char *line;
    int failed = 0, ok = next_line(&reader, &line, &failed) && line;
    if (ok && !strcmp(line, "y")) {
        file.y_scaling = 1;
        ok = next_line(&reader, &line, &failed) && two_numbers(line, &file.y_lower, &file.y_upper) &&
             (file.y_interval_line = reader.line_no) && next_line(&reader, &line, &failed) && two_numbers(line, &file.y_min, &file.y_max) &&
             (file.y_line = reader.line_no) && next_line(&reader, &line, &failed) && line;
    }
    ok = ok && !strcmp(line, "x") && next_line(&reader, &line, &failed) &&
         two_numbers(line, &file.lower, &file.upper) && file.upper > file.lower;
    file.file = name;
    file.x_line = reader.line_no;
    if (!ok && !failed)
        cli_error(CMD, "%s: not a range file (expected an optional 'y' section of two 'LOWER UPPER' lines, "
                       "then 'x' and 'LOWER UPPER', near line %zu)", name, reader.line_no ? reader.line_no : 1);
    long previous = 0;
    while (ok && (ok = next_line(&reader, &line, &failed)) && line) {
        long index;
        double lo, hi;
        int used = -1;
        if (sscanf(line, "%ld %lf %lf %n", &index, &lo, &hi, &used) != 3 || used < 0 || line[used] ||
            index <= previous || index > INT_MAX || !isfinite(lo) || !isfinite(hi)) {
            cli_error(CMD, "%s:%zu: expected 'INDEX MIN MAX' with indices ascending from 1 (up to %d)", name,
                      reader.line_no, INT_MAX);
            ok = 0;
        } else if (!(file.features = km_grow(file.features, &capacity, file.count + 1, sizeof *file.features))) {
            cli_error(CMD, "not enough memory to read %s", name);
            ok = 0;
        } else {
            file.features[file.count++] = (feature_range){(uint32_t)index, lo, hi, reader.line_no};
            previous = index;
        }
    }
    km_line_reader_free(&reader);
    fclose(f);
    if (!ok) {
        free(file.features);
        return 0;
    }
    *out = file;
    return 1;
}

/* Replaces the data's ranges by the range file's. A feature with a range on the data but none in the
 * file is dropped (scaled to 0), as svm-scale does, with a warning naming the first. */
static void apply_range_file(ranges *fitted, ranges *file, const char *restore_path, const char *data_path)
{
    size_t dropped = 0, first = 0;
    for (size_t j = 0; j < fitted->count; j++) {
        const feature_range *f = &fitted->features[j];
        if (f->min != f->max && !find_range(file, f->index) && !dropped++)
            first = f->index;
    }
    if (dropped)
        fprintf(stderr,
                "kernelmix scale: warning: %zu feature(s) of %s (first: index %zu) have no range in %s; they are "
                "scaled to 0\n",
                dropped, data_path, first, restore_path);
    free(fitted->features);
    *fitted = *file;
    file->features = NULL;
}

static void write_ranges(FILE *out, const ranges *r)
{
    if (r->y_scaling)
        fprintf(out, "y\n%.17g %.17g\n%.17g %.17g\n", r->y_lower, r->y_upper, r->y_min, r->y_max);
    fprintf(out, "x\n%.17g %.17g\n", r->lower, r->upper);
    for (size_t j = 0; j < r->count; j++)
        fprintf(out, "%" PRIu32 " %.17g %.17g\n", r->features[j].index, r->features[j].min, r->features[j].max);
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

/* Whether svm-scale's formula on v overflows double precision anywhere: the interval's width, the
 * range's width, v - min, or the result (bounds near +-1e308 give inf and then nan). */
static int scaling_overflows(double v, double min, double max, double lower, double upper)
{
    if (v == min || v == max)
        return 0;
    return !isfinite(upper - lower) || !isfinite(max - min) || !isfinite(v - min) ||
           !isfinite(scaled(v, min, max, lower, upper));
}

/* Where a range came from, for messages: "RANGE_FILE:LINE" or the data file it was fitted on. */
static void range_origin(char *buf, size_t size, const ranges *r, size_t line, const char *data_path)
{
    if (r->file)
        snprintf(buf, size, "%s:%zu", r->file, line);
    else
        snprintf(buf, size, "%s", data_path);
}

/* Checks every value the rows will be written with (the labels when scaled, each feature's stored
 * values and its unlisted 0) before anything is written; 0 (reported) when one would overflow. */
static int check_scaling(const ranges *r, const km_dataset *data, const char *data_path)
{
    char origin[4096];
    if (r->y_scaling && !isfinite(r->y_upper - r->y_lower)) {
        if (r->file)
            range_origin(origin, sizeof origin, r, r->y_interval_line, data_path);
        else
            snprintf(origin, sizeof origin, "option -y");
        cli_error(CMD, "%s: scaling the labels to [%.17g, %.17g] overflows double precision", origin, r->y_lower,
                  r->y_upper);
        return 0;
    }
    for (size_t i = 0; r->y_scaling && i < data->n; i++)
        if (scaling_overflows(data->labels[i], r->y_min, r->y_max, r->y_lower, r->y_upper)) {
            range_origin(origin, sizeof origin, r, r->y_line, data_path);
            cli_error(CMD, "%s: scaling the label %.17g of %s row %zu from [%.17g, %.17g] to [%.17g, %.17g] overflows "
                      "double precision", origin, data->labels[i], data_path, i + 1, r->y_min, r->y_max, r->y_lower,
                      r->y_upper);
            return 0;
        }
    if (r->count && !isfinite(r->upper - r->lower)) {
        if (r->file)
            range_origin(origin, sizeof origin, r, r->x_line, data_path);
        else
            snprintf(origin, sizeof origin, "options -l and -u");
        cli_error(CMD, "%s: scaling features to [%.17g, %.17g] overflows double precision", origin, r->lower, r->upper);
        return 0;
    }
    for (size_t j = 0; j < r->count; j++) {
        const feature_range *f = &r->features[j];
        if (scaling_overflows(0, f->min, f->max, r->lower, r->upper)) {
            range_origin(origin, sizeof origin, r, f->line, data_path);
            cli_error(CMD, "%s: scaling feature %" PRIu32 " from [%.17g, %.17g] to [%.17g, %.17g] overflows double "
                      "precision", origin, f->index, f->min, f->max, r->lower, r->upper);
            return 0;
        }
    }
    for (size_t i = 0; i < data->n; i++)
        for (size_t k = data->row_start[i]; k < data->row_start[i + 1]; k++) {
            const feature_range *f = find_range(r, data->col[k] + 1);
            if (f && scaling_overflows(data->val[k], f->min, f->max, r->lower, r->upper)) {
                range_origin(origin, sizeof origin, r, f->line, data_path);
                cli_error(CMD, "%s: scaling feature %" PRIu32 " = %.17g of %s row %zu by the range [%.17g, %.17g] "
                          "overflows double precision", origin, f->index, data->val[k], data_path, i + 1, f->min,
                          f->max);
                return 0;
            }
        }
    return 1;
}

/* Drops the single-valued features (svm-scale leaves them out of the output and the range file). */
static void drop_single_valued(ranges *r)
{
    size_t kept = 0;
    for (size_t j = 0; j < r->count; j++)
        if (r->features[j].min != r->features[j].max)
            r->features[kept++] = r->features[j];
    r->count = kept;
}

/* The features (positions in r) whose unlisted value 0 scales to a non-zero value: every row prints
 * them whether it lists them or not. */
static size_t *zero_moving_features(const ranges *r, size_t *count)
{
    size_t *moving = malloc((r->count ? r->count : 1) * sizeof *moving);
    *count = 0;
    for (size_t j = 0; moving && j < r->count; j++)
        if (scaled(0, r->features[j].min, r->features[j].max, r->lower, r->upper) != 0)
            moving[(*count)++] = j;
    return moving;
}

static void write_feature(FILE *out, const ranges *r, size_t position, double value, size_t *nonzeros)
{
    const feature_range *f = &r->features[position];
    double v = scaled(value, f->min, f->max, r->lower, r->upper);
    if (v != 0) {
        fprintf(out, "%" PRIu32 ":%g ", f->index, v);
        ++*nonzeros;
    }
}

/* The scaled rows into out; *nonzeros counts the values written (svm-scale's sparsity warning). Each
 * row merges its listed features with the features whose 0 moves, so the time follows the output. */
static int write_scaled(FILE *out, const ranges *r, const km_dataset *data, size_t *nonzeros)
{
    size_t n_moving;
    size_t *moving = zero_moving_features(r, &n_moving);
    if (!moving) {
        cli_error(CMD, "not enough memory for the feature ranges");
        return 0;
    }
    *nonzeros = 0;
    for (size_t i = 0; i < data->n; i++) {
        double label = data->labels[i];
        if (r->y_scaling)
            label = scaled(label, r->y_min, r->y_max, r->y_lower, r->y_upper);
        fprintf(out, "%.17g ", label);
        size_t k = data->row_start[i], end = data->row_start[i + 1], next_moving = 0;
        for (;;) {
            const feature_range *listed = NULL;
            while (k < end && !(listed = find_range(r, data->col[k] + 1)))
                k++;
            size_t listed_at = listed ? (size_t)(listed - r->features) : SIZE_MAX;
            size_t moving_at = next_moving < n_moving ? moving[next_moving] : SIZE_MAX;
            if (listed_at == SIZE_MAX && moving_at == SIZE_MAX)
                break;
            if (listed_at <= moving_at) {
                write_feature(out, r, listed_at, data->val[k++], nonzeros);
                next_moving += listed_at == moving_at;
            } else {
                write_feature(out, r, moving_at, 0, nonzeros);
                next_moving++;
            }
        }
        fputc('\n', out);
    }
    free(moving);
    return 1;
}

static size_t count_nonzeros(const km_dataset *data)
{
    size_t count = 0;
    for (size_t k = 0; k < data->row_start[data->n]; k++)
        count += data->val[k] != 0;
    return count;
}

/* Writes the scaled rows to OUTPUT_FILE (standard output for "-") and the ranges to the -s file,
 * published together when both are complete (km_atomic_publish_all): a missing directory or a full disk
 * leaves neither behind, and standard output receives nothing. Returns the exit status. */
static int emit(const scale_options *o, const km_dataset *data, size_t *nonzeros)
{
    km_atomic_file files[2];   /* the rows, then the ranges */
    size_t opened = 0;
    km_status st = km_atomic_open(&files[0], o->output_path, "scaled data");
    if (!st)
        opened = 1;
    if (!st && o->save_path && !(st = km_atomic_open(&files[1], o->save_path, "range file")))
        opened = 2;
    if (st) {
        while (opened > 0)
            km_atomic_abort(&files[--opened]);
        return cli_fail(CMD, st);
    }
    if (!write_scaled(files[0].stream, &o->r, data, nonzeros)) {
        while (opened > 0)
            km_atomic_abort(&files[--opened]);
        return CLI_FAILURE;
    }
    if (opened == 2)
        write_ranges(files[1].stream, &o->r);
    for (size_t k = 0; !st && k < opened; k++)
        st = km_atomic_finish(&files[k]);
    if (st) {
        for (size_t k = 0; k < opened; k++)
            km_atomic_abort(&files[k]);   /* also safe on a file already released */
        return cli_fail(CMD, st);
    }
    st = km_atomic_publish_all(files, opened);
    return st ? cli_fail(CMD, st) : CLI_OK;
}

static int run(scale_options *o)
{
    km_dataset *data = NULL;
    ranges file = {0};
    size_t nonzeros;
    int rc = CLI_USAGE;
    km_status st = cli_read_data(o->data_path, &o->input, 0, &data);
    if (!st)
        st = km_dataset_make_sparse(data);
    if (st) {
        rc = cli_fail(CMD, st);
        goto done;
    }
    if (!data->labels || !data->sparse) {
        cli_error(CMD, "%s: %s", o->data_path,
                  !data->sparse ? "rows of sequences have no numeric features to scale"
                                : "rows have no labels (the scaled rows are LIBSVM rows, which start with a label)");
        goto done;
    }
    rc = CLI_FAILURE;
    if (!fit_ranges(&o->r, data))
        goto done;
    rc = CLI_USAGE;
    if (o->restore_path) {
        if (!read_range_file(o->restore_path, &o->r, &file))
            goto done;
        apply_range_file(&o->r, &file, o->restore_path, o->data_path);
    }
    drop_single_valued(&o->r);
    if (!check_scaling(&o->r, data, o->data_path))
        goto done;
    if ((rc = emit(o, data, &nonzeros)) != CLI_OK)
        goto done;
    size_t before = count_nonzeros(data);
    if (nonzeros > before)
        fprintf(stderr,
                "kernelmix scale: warning: %zu non-zero values before scaling, %zu after; for non-negative sparse "
                "features use -l 0 rather than the default -l -1\n",
                before, nonzeros);
    rc = CLI_OK;
done:
    free(file.features);
    free(o->r.features);
    km_dataset_free(data);
    return rc;
}

int cmd_scale(int argc, char **argv)
{
    scale_options o;
    memset(&o, 0, sizeof o);
    o.r.lower = -1;
    o.r.upper = 1;
    o.input = (cli_input)CLI_INPUT_INIT;
    int parsed = parse_options(&o, argc, argv);
    return parsed < 0 ? CLI_USAGE : parsed == 0 ? CLI_OK : run(&o);
}
