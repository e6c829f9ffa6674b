/* Fuzz target: the text inputs of the figures, trace lines (km_plot_trace, against iterations and
 * seconds) and cross-validation results (km_plot_cv). A success gives an SVG document whose numeric
 * attributes are all finite; a failure a one-line message and no document. */
#include "fuzz_support.h"

/* Whether the value of a coordinate attribute (its text up to the closing quote) holds a number nan
 * or inf: one that starts the value or follows a space, comma, sign or parenthesis ("points" is
 * "x,y x,y ...", "transform" "rotate(a x y)"). */
static int non_finite(const char *value)
{
    for (const char *v = value; *v && *v != '"'; v++)
        if ((v == value || strchr(" ,-(", v[-1])) && (!strncmp(v, "nan", 3) || !strncmp(v, "inf", 3)))
            return 1;
    return 0;
}

/* A whole document whose coordinate attributes are finite (a coordinate computed from a value the
 * figure should have left out would not be). Text the input supplies (a metric name, an option value)
 * appears in text content and in names, which may say anything. */
static void check_svg(const char *svg)
{
    if (!svg || strncmp(svg, "<?xml", 5) || !strstr(svg, "</svg>"))
        fuzz_fail("a figure that is not a whole SVG document");
    static const char *const coordinates[] = {" x=\"", " y=\"", " x1=\"", " y1=\"", " x2=\"", " y2=\"", " cx=\"",
                                              " cy=\"", " r=\"", " width=\"", " height=\"", " points=\"",
                                              " transform=\""};
    for (size_t k = 0; k < sizeof coordinates / sizeof coordinates[0]; k++)
        for (const char *at = strstr(svg, coordinates[k]); at; at = strstr(at + 1, coordinates[k]))
            if (non_finite(at + strlen(coordinates[k])))
                fuzz_fail("a figure with a non-finite coordinate");
}

static void check(km_status st, char *svg)
{
    if (st == KM_OK) {
        check_svg(svg);
    } else if (svg || km_last_error()[0] == '\0' || strchr(km_last_error(), '\n')) {
        fuzz_fail("a failed figure returned a document or not one line");
    }
    km_free(svg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_string(data, size);
    if (!text)
        return 0;
    for (int x_seconds = 0; x_seconds <= 1; x_seconds++) {
        char *svg = NULL;
        km_status st = km_plot_trace(text, x_seconds, &svg);
        check(st, svg);
    }
    for (int higher = -1; higher <= 1; higher++) {
        char *svg = NULL;
        km_status st = km_plot_cv(text, higher, &svg);
        check(st, svg);
    }
    free(text);
    return 0;
}
