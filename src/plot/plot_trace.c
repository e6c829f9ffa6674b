/* km_plot_trace: the objective, the dual value and the relative duality gap of train --trace's steps. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/locale.h"
#include "plot/chart.h"
#include "plot/json_lines.h"
#include "plot/series.h"

enum { MAX_SERIES = 64 };

typedef struct trace {
    km_series series[MAX_SERIES]; /* one per (fold, machine), in order of appearance */
    int fold[MAX_SERIES];
    double machine[MAX_SERIES];
    size_t n;
    int x_seconds;
} trace;

static km_status read_step(void *ctx, size_t line, const km_json *v)
{
    trace *t = ctx;
    double iteration = km_json_number(v, "iteration"), machine = km_json_number(v, "machine");
    double fold = km_json_number(v, "fold"), x = t->x_seconds ? km_json_number(v, "seconds") : iteration;
    if (v->type != KM_JSON_OBJECT || isnan(iteration))
        return km_error(KM_EFORMAT, "line %zu: not a trace step (an object with a number \"iteration\")", line);
    if (isnan(x))
        return km_error(KM_EFORMAT, "line %zu: no \"seconds\"", line);
    if (!isnan(fold) && !(fold >= 0 && fold <= INT_MAX && fold == floor(fold)))
        return km_error(KM_EFORMAT, "line %zu: \"fold\" %g is not a fold number", line, fold);
    machine = isnan(machine) ? 1 : machine;
    int f = isnan(fold) ? 0 : (int)fold;
    size_t k = 0;
    while (k < t->n && !(t->fold[k] == f && t->machine[k] == machine))
        k++;
    if (k == t->n) {
        if (t->n == MAX_SERIES)
            return km_error(KM_EFORMAT, "line %zu: more than %d machines and folds to draw", line, MAX_SERIES);
        t->fold[k] = f;
        t->machine[k] = machine;
        if (f)
            snprintf(t->series[k].name, sizeof t->series[k].name, "fold %d, machine %g", f, machine);
        else
            snprintf(t->series[k].name, sizeof t->series[k].name, "machine %g", machine);
        t->n++;
    }
    if (!km_series_add(&t->series[k], x, km_json_number(v, "objective"), km_json_number(v, "dual"),
                       km_json_number(v, "gap")))
        return km_error_nomem("the trace figure");
    return KM_OK;
}

static int any_finite(const trace *t, int y)
{
    for (size_t k = 0; k < t->n; k++)
        for (size_t i = 0; i < t->series[k].n; i++)
            if (isfinite(t->series[k].y[y][i]) && (y < 2 || t->series[k].y[y][i] > 0))
                return 1;
    return 0;
}

static void draw(km_svg *svg, const trace *t)
{
    static const char *const titles[3] = {"objective", "dual value", "relative duality gap (P - D) / |P|"};
    int shown[3], panels = 0;
    for (int y = 0; y < 3; y++)
        panels += shown[y] = any_finite(t, y);
    if (!panels) /* no values: the objective's empty panel says so */
        panels = shown[0] = 1;
    double width = 560, height = 180, top = 40, gap = 70;
    km_svg_begin(svg, 90 + width + 190, top + panels * (height + gap) + 10);
    const char *names[MAX_SERIES];
    for (size_t k = 0; k < t->n; k++)
        names[k] = t->series[k].name;
    km_chart_legend(svg, 90 + width + 20, top + 10, names, t->n < 20 ? t->n : 20, 1);
    for (int y = 0, row = 0; y < 3; y++) {
        if (!shown[y])
            continue;
        km_panel p = {.x = 90, .y = top + row++ * (height + gap), .width = width, .height = height,
                      .title = titles[y]};
        km_axis_init(&p.x_axis, t->x_seconds ? "seconds" : "iteration", 0);
        km_axis_init(&p.y_axis, y == 2 ? "gap (log)" : y == 0 ? "objective" : "dual", y == 2);
        for (size_t k = 0; k < t->n; k++) {
            km_axis_include(&p.x_axis, t->series[k].x, t->series[k].n);
            km_axis_include(&p.y_axis, t->series[k].y[y], t->series[k].n);
        }
        km_axis_finish(&p.x_axis);
        km_axis_finish(&p.y_axis);
        km_chart_frame(svg, &p);
        for (size_t k = 0; k < t->n; k++)
            km_chart_line(svg, &p, t->series[k].name, k, t->series[k].x, t->series[k].y[y], NULL, t->series[k].n);
    }
}

km_status km_plot_trace(const char *text, int x_seconds, char **out)
{
    if (!text || !out)
        return km_error(KM_EINVAL, "km_plot_trace: no text or no output");
    trace *t = calloc(1, sizeof *t);
    if (!t)
        return km_error_nomem("the trace figure");
    t->x_seconds = x_seconds;
    km_numeric_locale locale;
    km_status st = km_numeric_locale_enter(&locale);
    if (!st) {
        st = km_json_lines(text, read_step, t);
        if (!st && t->n == 0)
            st = km_error(KM_EFORMAT, "no trace steps (an empty trace: was kernel-weight learning on?)");
        if (!st) {
            km_svg svg = {0};
            draw(&svg, t);
            st = km_svg_end(&svg, out);
        }
        km_numeric_locale_leave(&locale);
    }
    for (size_t k = 0; k < t->n; k++)
        km_series_free(&t->series[k]);
    free(t);
    return st;
}
