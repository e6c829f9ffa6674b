#include "plot/svg.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

void km_svg_begin(km_svg *svg, double width, double height)
{
    memset(svg, 0, sizeof *svg);
    km_svg_printf(svg,
                  "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                  "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
                  "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"13\">\n"
                  "<rect class=\"background\" x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"#ffffff\"/>\n",
                  width, height, width, height, width, height);
}

km_status km_svg_end(km_svg *svg, char **out)
{
    km_svg_printf(svg, "</svg>\n");
    if (svg->failed) {
        free(svg->text);
        return km_error_nomem("an SVG figure");
    }
    *out = svg->text;
    return KM_OK;
}

void km_svg_discard(km_svg *svg)
{
    free(svg->text);
    svg->text = NULL;
}

static int reserve(km_svg *svg, size_t more)
{
    if (svg->failed)
        return 0;
    if (svg->length + more + 1 <= svg->capacity)
        return 1;
    size_t capacity = svg->capacity ? svg->capacity : 4096;
    while (capacity < svg->length + more + 1)
        capacity *= 2;
    char *text = realloc(svg->text, capacity);
    if (!text) {
        svg->failed = 1;
        return 0;
    }
    svg->text = text;
    svg->capacity = capacity;
    return 1;
}

void km_svg_printf(km_svg *svg, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || !reserve(svg, (size_t)n))
        return;
    va_start(ap, fmt);
    vsnprintf(svg->text + svg->length, (size_t)n + 1, fmt, ap);
    va_end(ap);
    svg->length += (size_t)n;
}

void km_svg_escaped(km_svg *svg, const char *text)
{
    for (; *text; text++) {
        switch (*text) {
        case '&': km_svg_printf(svg, "&amp;"); break;
        case '<': km_svg_printf(svg, "&lt;"); break;
        case '>': km_svg_printf(svg, "&gt;"); break;
        case '"': km_svg_printf(svg, "&quot;"); break;
        default:
            if ((unsigned char)*text >= 0x20 || *text == '\t')
                km_svg_printf(svg, "%c", *text); /* other control characters are not XML */
        }
    }
}

void km_svg_text(km_svg *svg, double x, double y, const char *anchor, double size, double rotate, const char *cls,
                 const char *text)
{
    km_svg_printf(svg, "<text class=\"%s\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%.0f\"", cls ? cls : "label",
                  x, y, anchor, size);
    if (rotate != 0)
        km_svg_printf(svg, " transform=\"rotate(%.0f %.1f %.1f)\"", rotate, x, y);
    km_svg_printf(svg, ">");
    km_svg_escaped(svg, text);
    km_svg_printf(svg, "</text>\n");
}

double km_svg_text_width(const char *text, double size)
{
    size_t characters = 0;
    for (; *text; text++)
        characters += ((unsigned char)*text & 0xC0) != 0x80; /* UTF-8 continuation bytes are no characters */
    return 0.6 * size * (double)characters;
}

const char *km_svg_category_colour(size_t k)
{
    /* Okabe & Ito, "Color Universal Design" (2008): blue, orange, bluish green, vermillion, reddish
     * purple, sky blue, yellow (last: weakest on white) */
    static const char *const palette[] = {"#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442"};
    return palette[k % KM_SVG_CATEGORY_COLOURS];
}

void km_svg_sequential_colour(double t, char buf[8])
{
    /* viridis (van der Walt & Smith, matplotlib) at nine equally spaced stops, linearly interpolated */
    static const unsigned char stops[9][3] = {{68, 1, 84},    {71, 44, 122},  {59, 81, 139},
                                              {44, 113, 142}, {33, 144, 141}, {39, 173, 129},
                                              {92, 200, 99},  {170, 220, 50}, {253, 231, 37}};
    if (isnan(t)) {
        snprintf(buf, 8, "#dddddd");
        return;
    }
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    double at = t * 8;
    int k = at >= 8 ? 7 : (int)at;
    double f = at - k;
    int rgb[3];
    for (int c = 0; c < 3; c++)
        rgb[c] = (int)lround(stops[k][c] + f * (stops[k + 1][c] - stops[k][c]));
    snprintf(buf, 8, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
}
