/* km_plot_cv: cross-validation results over the options that vary across their lines. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/double_order.h"
#include "core/error.h"
#include "core/locale.h"
#include "core/number.h"
#include "plot/chart.h"
#include "plot/json_lines.h"

enum { MAX_OPTIONS = 32 };

typedef struct result {
    char *options;
    char *names[MAX_OPTIONS];    /* the options with a number (-c, --p) and their values */
    double values[MAX_OPTIONS];
    size_t n;
    double mean, std;
    size_t line;                 /* in the text */
    char *series;                /* the value of the series option as written, or NULL (no series) */
} result;

typedef struct results {
    result *lines;
    size_t n, capacity;
    char *best;                  /* the options of the {"best": {...}} line, or NULL */
    char *metric;                /* the first line's "metric", or NULL */
    char *title;                 /* of a {"title": "..."} line, or NULL (the default title) */
    int lower_is_better;         /* from "metric": mse, log-loss */
} results;

/* A number as the CLI reads it: NUMBER, BASE^EXPONENT, a fraction A/B (--p 4/3) or inf (--p inf). */
static int option_number(const char *text, double *out)
{
    double base, exponent, a, b;
    if (km_parse_user_number(text, out, &base, &exponent) == KM_USER_NUMBER_OK)
        return 1;
    if (!strcmp(text, "inf")) {
        *out = INFINITY;
        return 1;
    }
    const char *slash = strchr(text, '/');
    char head[64];
    if (!slash || (size_t)(slash - text) >= sizeof head)
        return 0;
    snprintf(head, sizeof head, "%.*s", (int)(slash - text), text);
    if (km_parse_user_number(head, &a, &base, &exponent) != KM_USER_NUMBER_OK ||
        km_parse_user_number(slash + 1, &b, &base, &exponent) != KM_USER_NUMBER_OK || b == 0)
        return 0;
    *out = a / b;
    return 1;
}

/* text as a one-line message shows it: control characters (a newline in a JSON string) as '?', cut to
 * size - 1 bytes. */
static const char *shown(const char *text, char *buf, size_t size)
{
    size_t k = 0;
    for (; text[k] && k + 1 < size; k++)
        buf[k] = (unsigned char)text[k] < 0x20 || text[k] == 0x7f ? '?' : text[k];
    buf[k] = '\0';
    return buf;
}

/* Adds option name = v to r; the name as a one-line message shows it, since messages and axis titles
 * name it. */
static km_status add_option(result *r, size_t line, const char *name, double v)
{
    if (r->n == MAX_OPTIONS)
        return km_error(KM_EFORMAT, "line %zu: more than %d numeric options", line, MAX_OPTIONS);
    size_t size = strlen(name) + 1;
    if (!(r->names[r->n] = malloc(size)))
        return km_error_nomem("the cross-validation figure");
    shown(name, r->names[r->n], size);
    r->values[r->n++] = v;
    return KM_OK;
}

/* The numeric parameters KEY=NUMBER of a kernel spec ("rbf:gamma=0.5:norm=mult" gives gamma 0.5; a
 * gamma relative to the mean distance, gamma=0.5/mean, gives "gamma/mean" 0.5). */
static km_status spec_numbers(result *r, size_t line, char *spec)
{
    km_status st = KM_OK;
    char *save = NULL;
    for (char *part = strtok_r(spec, ":", &save); part && !st; part = strtok_r(NULL, ":", &save)) {
        char *eq = strchr(part, '=');
        double v;
        if (eq && eq != part) {
            *eq = '\0';
            char *relative = strstr(eq + 1, "/mean");
            char name[64];
            snprintf(name, sizeof name, "%s%s", part, relative && !relative[5] ? "/mean" : "");
            if (relative && !relative[5])
                *relative = '\0';
            if (option_number(eq + 1, &v))
                st = add_option(r, line, name, v);
        }
    }
    return st;
}

/* The numeric options of an options string: -c 2 --kernel rbf:gamma=0.5 --p=4/3 gives -c 2, gamma
 * 0.5 and --p 4/3. */
static km_status numeric_options(result *r, size_t line)
{
    char *copy = strdup(r->options), *save = NULL, *previous = NULL;
    if (!copy)
        return km_error_nomem("the cross-validation figure");
    km_status st = KM_OK;
    for (char *token = strtok_r(copy, " \t", &save); token && !st; token = strtok_r(NULL, " \t", &save)) {
        char *eq = token[0] == '-' && token[1] == '-' ? strchr(token, '=') : NULL;
        char *name = eq ? token : previous, *value = eq ? eq + 1 : token;
        if (eq)
            *eq = '\0';
        double v;
        if (name && name[0] == '-' && !(name[1] >= '0' && name[1] <= '9') && option_number(value, &v))
            st = add_option(r, line, name, v);
        else if (name && strchr(value, ':'))
            st = spec_numbers(r, line, value);
        previous = eq ? NULL : token;
    }
    free(copy);
    return st;
}

static km_status read_result(void *ctx, size_t line, const km_json *v)
{
    results *rs = ctx;
    const km_json *best = km_json_get(v, "best"), *options = km_json_get(v, "options"), *metric;
    const km_json *title = km_json_get(v, "title");
    if (title && title->type == KM_JSON_STRING && !options) {
        free(rs->title);
        return (rs->title = strdup(title->string)) ? KM_OK : km_error_nomem("the cross-validation figure");
    }
    if (best) {
        const km_json *o = km_json_get(best, "options");
        free(rs->best);
        rs->best = o && o->type == KM_JSON_STRING ? strdup(o->string) : NULL;
        return KM_OK;
    }
    if (!options || options->type != KM_JSON_STRING)
        return km_error(KM_EFORMAT, "line %zu: no \"options\" string (a cross-validation result needs \"options\", "
                        "\"mean\" and \"std\")", line);
    double mean = km_json_number(v, "mean"), std = km_json_number(v, "std");
    if (isnan(mean))
        return km_error(KM_EFORMAT, "line %zu: no number \"mean\"", line);
    if (rs->n == rs->capacity) {
        size_t capacity = rs->capacity ? 2 * rs->capacity : 64;
        result *grown = realloc(rs->lines, capacity * sizeof *grown);
        if (!grown)
            return km_error_nomem("the cross-validation figure");
        rs->lines = grown;
        rs->capacity = capacity;
    }
    if (!rs->metric && (metric = km_json_get(v, "metric")) && metric->type == KM_JSON_STRING) {
        if (!(rs->metric = strdup(metric->string)))
            return km_error_nomem("the cross-validation figure");
        rs->lower_is_better = !strcmp(metric->string, "mse") || !strcmp(metric->string, "log-loss");
    }
    result *r = &rs->lines[rs->n];
    memset(r, 0, sizeof *r);
    r->mean = mean;
    r->std = std;
    r->line = line;
    if (!(r->options = strdup(options->string)))
        return km_error_nomem("the cross-validation figure");
    rs->n++;
    return numeric_options(r, line);
}

/* The value of option name in r (NAN: absent). */
static double value_of(const result *r, const char *name)
{
    for (size_t k = 0; k < r->n; k++)
        if (!strcmp(r->names[k], name))
            return r->values[k];
    return NAN;
}

/* The options whose values differ across the lines (at most two, in order of first appearance), the
 * series option (NULL: none) left out. */
static km_status varying(const results *rs, const char *series, const char **axes, size_t *n_axes)
{
    *n_axes = 0;
    for (size_t i = 0; i < rs->n; i++)
        for (size_t k = 0; k < rs->lines[i].n; k++) {
            const char *name = rs->lines[i].names[k];
            int known = series && !strcmp(name, series), differs = 0;
            for (size_t a = 0; a < *n_axes; a++)
                known |= !strcmp(axes[a], name);
            double first = value_of(&rs->lines[0], name);
            for (size_t j = 1; j < rs->n && !known; j++) {
                double v = value_of(&rs->lines[j], name);
                differs |= !(v == first || (isnan(v) && isnan(first)));
            }
            if (known || !differs)
                continue;
            if (*n_axes == 2)
                return km_error(KM_EFORMAT, "more than two options vary across the results (%s, %s, %s): plot a "
                                "slice with fewer", axes[0], axes[1], name);
            axes[(*n_axes)++] = name;
        }
    if (*n_axes == 0)
        return km_error(KM_EFORMAT, "no numeric option varies across the %zu results", rs->n);
    for (size_t i = 0; i < rs->n; i++)
        for (size_t a = 0; a < *n_axes; a++)
            if (isnan(value_of(&rs->lines[i], axes[a])))
                return km_error(KM_EFORMAT, "line %zu: no number for %s, which the other results vary", rs->lines[i].line,
                                axes[a]);
    /* two lines at one point of the axes must not differ elsewhere (a figure would hide one) */
    for (size_t i = 0; i < rs->n; i++)
        for (size_t j = i + 1; j < rs->n; j++) {
            int same = !series || !strcmp(rs->lines[i].series, rs->lines[j].series);
            for (size_t a = 0; a < *n_axes; a++)
                same &= value_of(&rs->lines[i], axes[a]) == value_of(&rs->lines[j], axes[a]);
            if (same && strcmp(rs->lines[i].options, rs->lines[j].options)) {
                char a[160], b[160];
                return km_error(KM_EFORMAT, "results %zu and %zu differ in options that are not numbers (\"%s\", "
                                "\"%s\"): plot them apart", i + 1, j + 1, shown(rs->lines[i].options, a, sizeof a),
                                shown(rs->lines[j].options, b, sizeof b));
            }
        }
    char name[160];
    if (series && *n_axes == 2)
        return km_error(KM_EFORMAT, "with the series %s one other option may vary, not two (%s, %s)",
                        shown(series, name, sizeof name), axes[0], axes[1]);
    return KM_OK;
}

/* Each line's value of the series option as written (NAME VALUE or NAME=VALUE in its options). */
static km_status series_values(results *rs, const char *series)
{
    size_t length = strlen(series);
    for (size_t i = 0; i < rs->n; i++) {
        const char *text = rs->lines[i].options, *value = NULL;
        while (*text && !value) {
            text += strspn(text, " \t");
            size_t word = strcspn(text, " \t");
            if (word > length && !strncmp(text, series, length) && text[length] == '=')
                value = text + length + 1;
            else if (word == length && !strncmp(text, series, length))
                value = text + word + strspn(text + word, " \t");
            text += word;
        }
        char name[160];
        if (!value || !*value)
            return km_error(KM_EFORMAT, "line %zu: no option %s (the series)", rs->lines[i].line,
                            shown(series, name, sizeof name));
        if (!(rs->lines[i].series = strndup(value, strcspn(value, " \t"))))
            return km_error_nomem("the cross-validation figure");
    }
    return KM_OK;
}

/* The distinct values of option name over the lines, ascending, into out; their count. */
static size_t distinct(const results *rs, const char *name, double *out)
{
    size_t n = 0;
    for (size_t i = 0; i < rs->n; i++) {
        double v = value_of(&rs->lines[i], name);
        int seen = 0;
        for (size_t k = 0; k < n && !seen; k++)
            seen = out[k] == v || (isnan(v) && isnan(out[k]));
        if (!seen)
            out[n++] = v;
    }
    qsort(out, n, sizeof *out, km_double_ascending);
    return n;
}

static size_t best_line(const results *rs, int higher)
{
    for (size_t i = 0; rs->best && i < rs->n; i++)
        if (!strcmp(rs->lines[i].options, rs->best))
            return i;
    size_t best = 0;
    for (size_t i = 1; i < rs->n; i++)
        if (higher ? rs->lines[i].mean > rs->lines[best].mean : rs->lines[i].mean < rs->lines[best].mean)
            best = i;
    return best;
}

static size_t index_of(const double *values, size_t n, double v)
{
    for (size_t k = 0; k < n; k++)
        if (values[k] == v || (isnan(v) && isnan(values[k])))
            return k;
    return 0;
}

/* The label of the metric's axis or colour bar: "mean squared error" for mse, else the metric's name. */
static const char *metric_label(const results *rs)
{
    return !rs->metric ? "score" : !strcmp(rs->metric, "mse") ? "mean squared error" : rs->metric;
}

/* A series of the line figure: its place in the legend (the value as a number, or the order of first
 * appearance when some value is not a number) and its first line. */
typedef struct series_entry {
    double key;
    size_t first;
} series_entry;

static int by_key(const void *a, const void *b)
{
    return km_double_ascending(&((const series_entry *)a)->key, &((const series_entry *)b)->key);
}

/* Whether line i belongs to the series of line first (no series option: every line does). */
static int same_series(const results *rs, size_t i, size_t first)
{
    return !rs->lines[i].series || !strcmp(rs->lines[i].series, rs->lines[first].series);
}

/* Mean +- std against one option: one line, or with a series option a line per its value (numbers in
 * ascending order, other values in order of appearance) and a legend. An axis with an infinite value
 * (--p inf) places the values as evenly spaced categories in ascending order. */
static void line_figure(km_svg *svg, const results *rs, const char *series, const char *axis, size_t best)
{
    double *x = malloc(rs->n * sizeof *x), *y = malloc(rs->n * sizeof *y), *e = malloc(rs->n * sizeof *e);
    double *sorted = malloc(rs->n * sizeof *sorted);
    series_entry *order = malloc(rs->n * sizeof *order);
    char (*names)[96] = malloc(rs->n * sizeof *names);
    const char **legend = malloc(rs->n * sizeof *legend);
    if (!x || !y || !e || !sorted || !order || !names || !legend) {
        svg->failed = 1;
    } else {
        size_t n = distinct(rs, axis, sorted), n_series = 0;
        int categorical = !isfinite(sorted[0]) || !isfinite(sorted[n - 1]), all_numbers = 1;
        for (size_t i = 0; i < rs->n; i++) {
            size_t g = 0;
            while (g < n_series && !same_series(rs, i, order[g].first))
                g++;
            if (g == n_series) {
                all_numbers &= series && option_number(rs->lines[i].series, &order[g].key);
                order[n_series++].first = i;
            }
        }
        for (size_t g = 0; !all_numbers && g < n_series; g++)
            order[g].key = (double)g;
        qsort(order, n_series, sizeof *order, by_key);
        km_panel p = {.x = 90, .y = 50, .width = 520, .height = 300,
                      .title = rs->title ? rs->title : "cross-validation: mean +- std over folds"};
        km_axis_init(&p.x_axis, axis, 0);
        if (categorical) {
            p.x_axis.categorical = 1;
            p.x_axis.lo = 0;
            p.x_axis.hi = (double)n;
        } else {
            km_axis_include(&p.x_axis, sorted, n);
            p.x_axis.log = p.x_axis.lo > 0 && p.x_axis.hi / p.x_axis.lo > 20;
            km_axis_finish(&p.x_axis);
        }
        km_axis_init(&p.y_axis, metric_label(rs), 0);
        for (size_t i = 0; i < rs->n; i++) { /* an end of mean +- std may overflow: the mean stays */
            const result *r = &rs->lines[i];
            double span[3] = {r->mean, r->mean - r->std, r->mean + r->std};
            km_axis_include(&p.y_axis, span, isfinite(r->std) ? 3 : 1);
        }
        km_axis_finish(&p.y_axis);
        double legend_width = 0;
        for (size_t g = 0; g < n_series; g++) {
            const result *first = &rs->lines[order[g].first];
            snprintf(names[g], sizeof names[g], "%s %s", series ? series : "mean", series ? first->series : "");
            legend[g] = names[g];
            legend_width = fmax(legend_width, km_svg_text_width(names[g], 12));
        }
        int failed = svg->failed;
        km_svg_begin(svg, series ? p.x + p.width + 60 + legend_width : 660, 430);
        svg->failed = failed;
        km_chart_frame(svg, &p);
        for (size_t k = 0; categorical && k < n; k++) {
            char label[32];
            km_chart_number(label, sizeof label, sorted[k], 4);
            km_svg_text(svg, km_panel_x(&p, (double)k + 0.5), p.y + p.height + 17, "middle", 12, 0, "tick", label);
        }
        for (size_t g = 0; g < n_series; g++) {
            size_t m = 0, first = order[g].first;
            for (size_t k = 0; k < n; k++) /* the series' points in ascending order of the option */
                for (size_t i = 0; i < rs->n; i++)
                    if (same_series(rs, i, first) && value_of(&rs->lines[i], axis) == sorted[k]) {
                        x[m] = categorical ? (double)k + 0.5 : sorted[k];
                        y[m] = rs->lines[i].mean;
                        e[m++] = rs->lines[i].std;
                    }
            km_chart_line(svg, &p, series ? names[g] : "mean", g, x, y, e, m);
        }
        if (series)
            km_chart_legend(svg, p.x + p.width + 20, p.y + 10, legend, n_series, 1);
        double bv = value_of(&rs->lines[best], axis), by = rs->lines[best].mean;
        double bx = categorical ? (double)index_of(sorted, n, bv) + 0.5 : bv;
        if (km_axis_shows(&p.x_axis, bx))
            km_svg_printf(svg, "<circle class=\"best\" cx=\"%.1f\" cy=\"%.1f\" r=\"8\" fill=\"none\" stroke=\"#D55E00\" "
                               "stroke-width=\"3\"/>\n", km_panel_x(&p, bx), km_panel_y(&p, by));
    }
    free(x);
    free(y);
    free(e);
    free(sorted);
    free(order);
    free(names);
    free(legend);
}

static void grid_figure(km_svg *svg, const results *rs, const char *const *axes, size_t best)
{
    double *rows = malloc(rs->n * sizeof *rows), *cols = malloc(rs->n * sizeof *cols);
    size_t n_rows = rows ? distinct(rs, axes[0], rows) : 0, n_cols = cols ? distinct(rs, axes[1], cols) : 0;
    double *values = malloc((n_rows * n_cols + 1) * sizeof *values);
    char (*labels)[32] = malloc((n_rows + n_cols + 1) * sizeof *labels);
    const char **names = malloc((n_rows + n_cols + 1) * sizeof *names);
    if (!rows || !cols || !values || !labels || !names) {
        svg->failed = 1;
    } else {
        for (size_t k = 0; k < n_rows * n_cols; k++)
            values[k] = NAN;
        for (size_t i = 0; i < rs->n; i++) {
            size_t r = index_of(rows, n_rows, value_of(&rs->lines[i], axes[0]));
            size_t c = index_of(cols, n_cols, value_of(&rs->lines[i], axes[1]));
            values[r * n_cols + c] = rs->lines[i].mean;
        }
        for (size_t k = 0; k < n_rows + n_cols; k++) {
            km_chart_number(labels[k], sizeof labels[k], k < n_rows ? rows[k] : cols[k - n_rows], 4);
            names[k] = labels[k];
        }
        char value_label[96];
        snprintf(value_label, sizeof value_label, "mean %s", metric_label(rs));
        double cw = n_cols > 12 ? 40 : 60, ch = n_rows > 16 ? 22 : 32;
        km_heatmap map = {.rows = n_rows, .cols = n_cols, .values = values, .row_labels = names,
                          .col_labels = names + n_rows, .row_title = axes[0], .col_title = axes[1],
                          .value_label = value_label,
                          .best_row = index_of(rows, n_rows, value_of(&rs->lines[best], axes[0])),
                          .best_col = index_of(cols, n_cols, value_of(&rs->lines[best], axes[1]))};
        double left, bottom;
        km_heatmap_margins(&map, cw, &left, &bottom);
        double x = left + 10, y = 50;
        km_svg_begin(svg, fmax(x + cw * (double)n_cols + 150, 420), y + ch * (double)n_rows + bottom + 10);
        km_svg_text(svg, 10, y - 22, "start", 14, 0, "title",
                    rs->title ? rs->title : "cross-validation: mean over folds, best outlined");
        km_chart_heatmap(svg, x, y, cw * (double)n_cols, ch * (double)n_rows, &map);
    }
    free(rows);
    free(cols);
    free(values);
    free(labels);
    free(names);
}

km_status km_plot_cv(const char *text, int higher_is_better, char **out)
{
    return km_plot_cv_series(text, higher_is_better, NULL, out);
}

km_status km_plot_cv_series(const char *text, int higher_is_better, const char *series, char **out)
{
    if (!text || !out)
        return km_error(KM_EINVAL, "km_plot_cv: no text or no output");
    if (series && !*series)
        return km_error(KM_EINVAL, "km_plot_cv: an empty series option");
    results rs = {0};
    km_numeric_locale locale;
    km_status st = km_numeric_locale_enter(&locale);
    if (st)
        return st;
    st = km_json_lines(text, read_result, &rs);
    if (!st && rs.n == 0)
        st = km_error(KM_EFORMAT, "no cross-validation results");
    const char *axes[2];
    size_t n_axes = 0;
    if (!st && series)
        st = series_values(&rs, series);
    if (!st)
        st = varying(&rs, series, axes, &n_axes);
    if (!st) {
        int higher = higher_is_better >= 0 ? higher_is_better : !rs.lower_is_better;
        size_t best = best_line(&rs, higher);
        km_svg svg = {0};
        if (series || n_axes == 1)
            line_figure(&svg, &rs, series, axes[0], best);
        else
            grid_figure(&svg, &rs, axes, best);
        st = km_svg_end(&svg, out);
    }
    km_numeric_locale_leave(&locale);
    for (size_t i = 0; i < rs.n; i++) {
        free(rs.lines[i].options);
        free(rs.lines[i].series);
        for (size_t k = 0; k < rs.lines[i].n; k++)
            free(rs.lines[i].names[k]);
    }
    free(rs.lines);
    free(rs.best);
    free(rs.metric);
    free(rs.title);
    return st;
}
