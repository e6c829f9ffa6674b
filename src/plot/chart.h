/* The parts every figure draws with: axes (linear or logarithmic, with round ticks), a panel's frame,
 * line series with markers and error bars, bars, a legend and a heat map with its colour bar. Marks carry
 * classes: "series" (a polyline, data-name its name), "point", "errorbar", "bar", "cell", "best",
 * "legend-entry", "panel". */
#ifndef KM_PLOT_CHART_H
#define KM_PLOT_CHART_H

#include <stddef.h>

#include "plot/svg.h"

typedef struct km_axis {
    double lo, hi;               /* the range shown (log: positive) */
    int log;                     /* 1: logarithmic */
    const char *label;
    int empty;                   /* no value included yet */
    int categorical;             /* positions of categories: no ticks, the figure labels them */
} km_axis;

void km_axis_init(km_axis *axis, const char *label, int log);
/* Widens the range to the finite values of v (n values; a log axis takes the positive ones only). */
void km_axis_include(km_axis *axis, const double *v, size_t n);
/* Rounds the range out to round ticks (log: to powers of ten); an empty range becomes [0, 1] (log:
 * [1, 10]), a single value a range about it. */
void km_axis_finish(km_axis *axis);
/* Whether v can be drawn on the axis (finite; positive on a log axis). */
int km_axis_shows(const km_axis *axis, double v);

typedef struct km_panel {
    double x, y, width, height;  /* the plotting area in pixels (ticks and labels lie outside it) */
    km_axis x_axis, y_axis;
    const char *title;           /* above the area (NULL: none) */
} km_panel;

/* The pixel position of v on the panel's x or y axis. */
double km_panel_x(const km_panel *panel, double v);
double km_panel_y(const km_panel *panel, double v);
/* Grid lines, axes, tick labels, axis labels and title. */
void km_chart_frame(km_svg *svg, const km_panel *panel);
/* Series k (colour k) of n points through the drawable ones, with a marker at each and, when err is
 * given, a vertical error bar y +- err. */
void km_chart_line(km_svg *svg, const km_panel *panel, const char *name, size_t k, const double *x, const double *y,
                   const double *err, size_t n);
/* A vertical bar from the axis bottom (or 0 when inside the range) to y, centred at x with the given
 * pixel width; hollow (outline only) when hollow. */
void km_chart_bar(km_svg *svg, const km_panel *panel, double x, double width, double y, const char *colour,
                  int hollow, const char *title);
/* A legend of n entries (colours 0..n-1, lines when lines, else squares) from (x, y) downwards. */
void km_chart_legend(km_svg *svg, double x, double y, const char *const *names, size_t n, int lines);

/* A heat map of rows x cols values (row-major; NAN: no value, grey) in the rectangle (x, y, width,
 * height), coloured between the finite minimum and maximum, with row and column labels, the value in
 * each cell when the cells are large enough, the cell (best_row, best_col) outlined (best_row >= rows:
 * none) and a colour bar right of it titled value_label. */
typedef struct km_heatmap {
    size_t rows, cols;
    const double *values;
    const char *const *row_labels, *const *col_labels;
    const char *row_title, *col_title, *value_label;
    size_t best_row, best_col;
} km_heatmap;
void km_chart_heatmap(km_svg *svg, double x, double y, double width, double height, const km_heatmap *map);
/* The room a heat map with cells cell_width wide needs left of it (row labels and title) and below it
 * (column labels, rotated when wider than a cell, and title); right of it the colour bar takes 150. */
void km_heatmap_margins(const km_heatmap *map, double cell_width, double *left, double *bottom);

/* Formats v for a label with at most `digits` significant digits ("%.*g"). */
void km_chart_number(char *buf, size_t size, double v, int digits);

#endif
