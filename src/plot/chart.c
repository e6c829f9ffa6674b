#include "plot/chart.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum { MAX_TICKS = 64 };

void km_axis_init(km_axis *axis, const char *label, int log)
{
    memset(axis, 0, sizeof *axis);
    axis->label = label;
    axis->log = log;
    axis->empty = 1;
}

int km_axis_shows(const km_axis *axis, double v) { return isfinite(v) && (!axis->log || v > 0); }

void km_axis_include(km_axis *axis, const double *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (!km_axis_shows(axis, v[i]))
            continue;
        if (axis->empty || v[i] < axis->lo)
            axis->lo = v[i];
        if (axis->empty || v[i] > axis->hi)
            axis->hi = v[i];
        axis->empty = 0;
    }
}

/* Half the distance from lo to hi: finite for all finite ends (hi - lo itself overflows from -1e308
 * to 1e308). */
static double half_span(double lo, double hi) { return 0.5 * hi - 0.5 * lo; }

/* 1, 2 or 5 times a power of ten near (hi - lo) / 5. */
static double round_step(double lo, double hi)
{
    double raw = half_span(lo, hi) * 0.4, power = pow(10, floor(log10(raw))), f = raw / power;
    return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * power;
}

void km_axis_finish(km_axis *axis)
{
    if (axis->log) {
        if (axis->empty) {
            axis->lo = 1;
            axis->hi = 10;
        }
        axis->lo = pow(10, floor(log10(axis->lo)));
        axis->hi = pow(10, ceil(log10(axis->hi)));
        if (axis->hi <= axis->lo)
            axis->hi = axis->lo * 10;
        return;
    }
    if (axis->empty) {
        axis->lo = 0;
        axis->hi = 1;
    }
    if (axis->hi <= axis->lo) {
        double pad = axis->lo != 0 ? fabs(axis->lo) * 0.1 : 1;
        axis->lo -= pad;
        axis->hi += pad;
    }
    double step = round_step(axis->lo, axis->hi);
    double lo = floor(axis->lo / step + 1e-9) * step, hi = ceil(axis->hi / step - 1e-9) * step;
    if (isfinite(lo) && isfinite(hi)) { /* ends near the largest doubles stay as they are */
        axis->lo = lo;
        axis->hi = hi;
    }
}

/* The fraction of the axis at v. */
static double fraction(const km_axis *axis, double v)
{
    if (axis->log)
        return (log10(v) - log10(axis->lo)) / (log10(axis->hi) - log10(axis->lo));
    return half_span(axis->lo, v) / half_span(axis->lo, axis->hi);
}

/* A fraction of the axis kept within a few panel sizes: a value the axis does not span (which no figure
 * draws) still gives a finite coordinate. */
static double bounded(double f) { return isnan(f) ? 0 : f < -4 ? -4 : f > 5 ? 5 : f; }

double km_panel_x(const km_panel *panel, double v)
{
    return panel->x + bounded(fraction(&panel->x_axis, v)) * panel->width;
}
double km_panel_y(const km_panel *panel, double v)
{
    return panel->y + panel->height - bounded(fraction(&panel->y_axis, v)) * panel->height;
}

void km_chart_number(char *buf, size_t size, double v, int digits)
{
    if (fabs(v) < 1e-12)
        v = 0; /* a tick at zero computed as 1e-17 */
    snprintf(buf, size, "%.*g", digits, v);
}

/* The ticks of an axis: round multiples of a step, or powers of ten (with 2 and 5 between when the
 * axis spans less than three decades). */
static size_t ticks(const km_axis *axis, double *out)
{
    size_t n = 0;
    if (axis->log) {
        double decades = log10(axis->hi) - log10(axis->lo);   /* hi / lo may overflow */
        if (!isfinite(decades))
            return 0;
        int every = decades > 12 ? (int)ceil(decades / 6) : 1;
        for (double e = round(log10(axis->lo)); e <= log10(axis->hi) + 1e-9 && n < MAX_TICKS; e += every) {
            out[n++] = pow(10, e);
            if (decades < 3)
                for (int f = 2; f <= 5 && n < MAX_TICKS; f += 3)
                    if (f * pow(10, e) < axis->hi)
                        out[n++] = f * pow(10, e);
        }
        return n;
    }
    double step = round_step(axis->lo, axis->hi);
    for (double t = ceil(axis->lo / step - 1e-9) * step; t <= axis->hi + step * 1e-9 && n < MAX_TICKS; t += step)
        out[n++] = t;
    return n;
}

/* Significant digits that tell the ticks of a linear axis apart: 4, or more where the ticks are close
 * to each other beside their size (an objective that moves in its fifth digit). */
static int tick_digits(const km_axis *axis, const double *t, size_t n)
{
    if (axis->log || n < 2)
        return 4;
    double largest = fmax(fabs(t[0]), fabs(t[n - 1])), step = t[1] - t[0];
    int digits = step > 0 && largest > 0 ? (int)ceil(log10(largest / step)) + 1 : 4;
    return digits < 4 ? 4 : digits > 12 ? 12 : digits;
}

void km_chart_frame(km_svg *svg, const km_panel *p)
{
    double t[MAX_TICKS];
    char label[32];
    km_svg_printf(svg, "<g class=\"panel\">\n");
    size_t n = ticks(&p->y_axis, t);
    int digits = tick_digits(&p->y_axis, t, n);
    double widest = 0; /* characters of the longest y tick label: the axis label stands left of it */
    for (size_t k = 0; k < n; k++) {
        double y = km_panel_y(p, t[k]);
        km_svg_printf(svg, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e5e5e5\"/>\n",
                      p->x, y, p->x + p->width, y);
        km_chart_number(label, sizeof label, t[k], digits);
        km_svg_text(svg, p->x - 6, y + 4, "end", 12, 0, "tick", label);
        widest = fmax(widest, (double)strlen(label));
    }
    n = p->x_axis.categorical ? 0 : ticks(&p->x_axis, t);
    digits = tick_digits(&p->x_axis, t, n);
    for (size_t k = 0; k < n; k++) {
        double x = km_panel_x(p, t[k]);
        km_svg_printf(svg, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e5e5e5\"/>\n",
                      x, p->y, x, p->y + p->height);
        km_chart_number(label, sizeof label, t[k], digits);
        km_svg_text(svg, x, p->y + p->height + 17, "middle", 12, 0, "tick", label);
    }
    km_svg_printf(svg, "<rect class=\"frame\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
                       "stroke=\"#333333\"/>\n", p->x, p->y, p->width, p->height);
    if (p->x_axis.label)
        km_svg_text(svg, p->x + p->width / 2, p->y + p->height + 36, "middle", 13, 0, "axis-label", p->x_axis.label);
    if (p->y_axis.label)
        km_svg_text(svg, fmax(14, p->x - 18 - 7 * widest), p->y + p->height / 2, "middle", 13, -90, "axis-label",
                    p->y_axis.label);
    if (p->title)
        km_svg_text(svg, p->x, p->y - 8, "start", 14, 0, "title", p->title);
    km_svg_printf(svg, "</g>\n");
}

/* Series k's dash pattern: solid for the first round of colours, then dashed, then dotted. */
static const char *dashes(size_t k)
{
    static const char *const pattern[] = {"none", "7 4", "2 3"};
    return pattern[(k / KM_SVG_CATEGORY_COLOURS) % 3];
}

void km_chart_line(km_svg *svg, const km_panel *p, const char *name, size_t k, const double *x, const double *y,
                   const double *err, size_t n)
{
    const char *colour = km_svg_category_colour(k);
    km_svg_printf(svg, "<polyline class=\"series\" data-name=\"");
    km_svg_escaped(svg, name);
    km_svg_printf(svg, "\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\" stroke-dasharray=\"%s\" points=\"", colour,
                  dashes(k));
    for (size_t i = 0; i < n; i++)
        if (km_axis_shows(&p->x_axis, x[i]) && km_axis_shows(&p->y_axis, y[i]))
            km_svg_printf(svg, "%.1f,%.1f ", km_panel_x(p, x[i]), km_panel_y(p, y[i]));
    km_svg_printf(svg, "\"/>\n");
    for (size_t i = 0; i < n; i++) {
        if (!km_axis_shows(&p->x_axis, x[i]) || !km_axis_shows(&p->y_axis, y[i]))
            continue;
        double px = km_panel_x(p, x[i]), py = km_panel_y(p, y[i]);
        if (err && isfinite(err[i]) && err[i] > 0) {
            /* an end beyond what the axis shows (below a log axis, past the largest doubles) at the
             * panel's edge */
            double lo = y[i] - err[i], hi = y[i] + err[i];
            double y_lo = km_axis_shows(&p->y_axis, lo) ? km_panel_y(p, lo) : p->y + p->height;
            double y_hi = km_axis_shows(&p->y_axis, hi) ? km_panel_y(p, hi) : p->y;
            km_svg_printf(svg, "<path class=\"errorbar\" d=\"M%.1f %.1fV%.1fM%.1f %.1fH%.1fM%.1f %.1fH%.1f\" "
                               "stroke=\"%s\" stroke-width=\"1.5\" fill=\"none\"/>\n",
                          px, y_lo, y_hi, px - 4, y_lo, px + 4, px - 4, y_hi, px + 4, colour);
        }
        if (n <= 200)
            km_svg_printf(svg, "<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n", px, py,
                          colour);
    }
}

void km_chart_bar(km_svg *svg, const km_panel *p, double x, double width, double y, const char *colour, int hollow,
                  const char *title)
{
    double base = p->y_axis.log || p->y_axis.lo > 0 ? p->y + p->height : km_panel_y(p, 0);
    double top = km_axis_shows(&p->y_axis, y) ? km_panel_y(p, y) : base;
    double px = km_panel_x(p, x) - width / 2;
    km_svg_printf(svg, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" ", px, fmin(top, base),
                  width, fabs(base - top));
    if (hollow)
        km_svg_printf(svg, "fill=\"none\" stroke=\"%s\" stroke-dasharray=\"3 2\"", colour);
    else
        km_svg_printf(svg, "fill=\"%s\"", colour);
    km_svg_printf(svg, "><title>");
    km_svg_escaped(svg, title);
    km_svg_printf(svg, "</title></rect>\n");
}

void km_chart_legend(km_svg *svg, double x, double y, const char *const *names, size_t n, int lines)
{
    for (size_t k = 0; k < n; k++) {
        double row = y + 18.0 * (double)k;
        km_svg_printf(svg, "<g class=\"legend-entry\">");
        if (lines)
            km_svg_printf(svg, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\" "
                               "stroke-dasharray=\"%s\"/>", x, row - 4, x + 18, row - 4, km_svg_category_colour(k), dashes(k));
        else
            km_svg_printf(svg, "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\" fill=\"%s\"/>", x + 3, row - 10,
                          km_svg_category_colour(k));
        km_svg_text(svg, x + 24, row, "start", 12, 0, "legend", names[k]);
        km_svg_printf(svg, "</g>\n");
    }
}

static double longest_label(const char *const *labels, size_t n, double size)
{
    double longest = 0;
    for (size_t k = 0; k < n; k++)
        longest = fmax(longest, km_svg_text_width(labels[k], size));
    return longest;
}

/* Column labels are rotated by 60 degrees when the widest does not fit its cell. */
static int rotated_columns(const km_heatmap *map, double cell_width)
{
    return longest_label(map->col_labels, map->cols, 12) > cell_width - 6;
}

void km_heatmap_margins(const km_heatmap *map, double cell_width, double *left, double *bottom)
{
    *left = longest_label(map->row_labels, map->rows, 12) + 34;
    *bottom = (rotated_columns(map, cell_width) ? 0.87 * longest_label(map->col_labels, map->cols, 12) + 16 : 22) + 26;
}

void km_chart_heatmap(km_svg *svg, double x, double y, double width, double height, const km_heatmap *map)
{
    double lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < map->rows * map->cols; i++)
        if (isfinite(map->values[i])) {
            lo = fmin(lo, map->values[i]);
            hi = fmax(hi, map->values[i]);
        }
    double cw = width / (double)map->cols, ch = height / (double)map->rows;
    int show_values = cw >= 44 && ch >= 18;
    char colour[8], label[32];
    for (size_t r = 0; r < map->rows; r++)
        for (size_t c = 0; c < map->cols; c++) {
            double v = map->values[r * map->cols + c];
            double t = hi > lo ? half_span(lo, v) / half_span(lo, hi) : isfinite(v) ? 0.5 : NAN;
            km_svg_sequential_colour(t, colour);
            double cx = x + cw * (double)c, cy = y + ch * (double)r;
            km_svg_printf(svg, "<rect class=\"cell\" data-row=\"%zu\" data-col=\"%zu\" x=\"%.1f\" y=\"%.1f\" "
                               "width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>", r, c, cx, cy, cw, ch, colour);
            km_chart_number(label, sizeof label, v, 6);
            km_svg_escaped(svg, label);
            km_svg_printf(svg, "</title></rect>\n");
            if (show_values && isfinite(v)) {
                km_chart_number(label, sizeof label, v, 4);
                km_svg_printf(svg, "<text class=\"cell-value\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
                                   "font-size=\"11\" fill=\"%s\">%s</text>\n",
                              cx + cw / 2, cy + ch / 2 + 4, t > 0.6 ? "#000000" : "#ffffff", label);
            }
        }
    if (map->best_row < map->rows && map->best_col < map->cols)
        km_svg_printf(svg, "<rect class=\"best\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
                           "stroke=\"#D55E00\" stroke-width=\"3\"/>\n",
                      x + cw * (double)map->best_col + 1.5, y + ch * (double)map->best_row + 1.5, cw - 3, ch - 3);
    for (size_t r = 0; r < map->rows; r++)
        km_svg_text(svg, x - 6, y + ch * ((double)r + 0.5) + 4, "end", 12, 0, "tick", map->row_labels[r]);
    int rotated = rotated_columns(map, cw);
    for (size_t c = 0; c < map->cols; c++) {
        double cx = x + cw * ((double)c + 0.5);
        if (rotated)
            km_svg_text(svg, cx + 4, y + height + 10, "end", 12, -60, "tick", map->col_labels[c]);
        else
            km_svg_text(svg, cx, y + height + 17, "middle", 12, 0, "tick", map->col_labels[c]);
    }
    double left, bottom;
    km_heatmap_margins(map, cw, &left, &bottom);
    if (map->col_title)
        km_svg_text(svg, x + width / 2, y + height + bottom - 8, "middle", 13, 0, "axis-label", map->col_title);
    if (map->row_title)
        km_svg_text(svg, x - left + 14, y + height / 2, "middle", 13, -90, "axis-label", map->row_title);
    /* the colour bar */
    double bx = x + width + 24, steps = 32, bh = height < 240 ? height : 240;
    for (int k = 0; k < (int)steps; k++) {
        km_svg_sequential_colour(1 - (k + 0.5) / steps, colour);
        km_svg_printf(svg, "<rect class=\"colourbar\" x=\"%.1f\" y=\"%.2f\" width=\"14\" height=\"%.2f\" fill=\"%s\"/>\n",
                      bx, y + bh * k / steps, bh / steps + 0.5, colour);
    }
    km_chart_number(label, sizeof label, hi, 4);
    km_svg_text(svg, bx + 18, y + 10, "start", 12, 0, "tick", isfinite(hi) ? label : "");
    km_chart_number(label, sizeof label, lo, 4);
    km_svg_text(svg, bx + 18, y + bh, "start", 12, 0, "tick", isfinite(lo) ? label : "");
    if (map->value_label)
        km_svg_text(svg, bx, y - 8, "start", 12, 0, "axis-label", map->value_label);
}
