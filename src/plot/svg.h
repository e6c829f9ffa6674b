/* The SVG text of a figure, written into a growing buffer: elements with a class for each kind of
 * mark (so that tests and stylesheets can find them), text as real <text> elements, colours of the
 * Okabe–Ito palette (distinguishable with the common colour-vision deficiencies) and a viridis map for
 * values (perceptually uniform, readable in grey). Callers hold the "C" numeric locale (core/locale.h) while they write. */
#ifndef KM_PLOT_SVG_H
#define KM_PLOT_SVG_H

#include <stddef.h>

#include "kernelmix.h"

typedef struct km_svg {
    char *text;                  /* NUL-terminated */
    size_t length, capacity;
    int failed;                  /* out of memory: everything after is dropped */
} km_svg;

/* Starts a document of width x height pixels with a white background and the default font. */
void km_svg_begin(km_svg *svg, double width, double height);
/* Closes the document and hands its text to *out (free with free); KM_ENOMEM when a write failed. */
km_status km_svg_end(km_svg *svg, char **out);
/* Drops the document (after an error). */
void km_svg_discard(km_svg *svg);

/* Appends formatted text as is (markup). */
void km_svg_printf(km_svg *svg, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends text with &, <, > and " escaped. */
void km_svg_escaped(km_svg *svg, const char *text);
/* A <text> element at (x, y): anchor "start", "middle" or "end", size in pixels, rotate in degrees
 * about (x, y) (0: none), cls its class (NULL: "label"). */
void km_svg_text(km_svg *svg, double x, double y, const char *anchor, double size, double rotate, const char *cls,
                 const char *text);

/* The width in pixels of text at a font size, estimated (0.6 em per character, as DejaVu Sans averages),
 * for layout. */
double km_svg_text_width(const char *text, double size);

/* Colour k of the Okabe–Ito palette (cycled every KM_SVG_CATEGORY_COLOURS; black excluded), "#rrggbb". */
enum { KM_SVG_CATEGORY_COLOURS = 7 };
const char *km_svg_category_colour(size_t k);
/* The viridis colour at t in [0, 1] (clamped; NAN gives light grey) into buf (8 bytes: "#rrggbb"). */
void km_svg_sequential_colour(double t, char buf[8]);

#endif
