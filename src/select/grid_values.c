/* km_grid_values: the value list of a grid option, "a,b,c" with ranges as items. A range follows the
 * kernel specs' a..b and B^a..B^b (docs/kernels.md) with an optional step after ':' — on the value for
 * a..b:s, on the exponent for B^a..B^b:s (2^-5..2^15:2 is 2^-5, 2^-3, ..., 2^15); a list item without
 * ".." is kept as written for the parameter's own parser (4/3, inf, a method's name). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/number.h"
#include "kernelmix.h"

enum { MAX_VALUES = 10000 };

typedef struct value_list {
    char *text;
    size_t used, capacity, n;
} value_list;

static km_status push(value_list *list, const char *value, size_t len)
{
    if (list->n == MAX_VALUES)
        return km_error(KM_EINVAL, "grid: more than %d values", MAX_VALUES);
    if (list->used + len + 1 > list->capacity) {
        size_t capacity = 2 * (list->used + len + 1);
        char *grown = realloc(list->text, capacity);
        if (!grown)
            return km_error_nomem("grid values");
        list->text = grown;
        list->capacity = capacity;
    }
    memcpy(list->text + list->used, value, len);
    list->text[list->used + len] = '\0';
    list->used += len + 1;
    list->n++;
    return KM_OK;
}

static km_status range_error(const char *item, size_t len, const char *problem)
{
    return km_error(KM_EINVAL, "grid range '%.*s': %s (ranges are a..b, a..b:STEP, B^a..B^b or B^a..B^b:STEP)",
                    (int)len, item, problem);
}

/* One range item[0..len) with ".." at dots. */
static km_status push_range(value_list *list, const char *item, size_t len, const char *dots)
{
    char lo_text[64], hi_text[64], step_text[64] = "1";
    const char *colon = memchr(dots, ':', (size_t)(item + len - dots));
    const char *hi_end = colon ? colon : item + len;
    if ((size_t)(dots - item) >= sizeof lo_text || (size_t)(hi_end - dots - 2) >= sizeof hi_text ||
        (colon && (size_t)(item + len - colon - 1) >= sizeof step_text))
        return range_error(item, len, "too long");
    snprintf(lo_text, sizeof lo_text, "%.*s", (int)(dots - item), item);
    snprintf(hi_text, sizeof hi_text, "%.*s", (int)(hi_end - dots - 2), dots + 2);
    if (colon)
        snprintf(step_text, sizeof step_text, "%.*s", (int)(item + len - colon - 1), colon + 1);
    double lo, hi, step, base_lo, base_hi, base_step, e_lo = 0, e_hi = 0, e_step;
    if (km_parse_user_number(lo_text, &lo, &base_lo, &e_lo) || km_parse_user_number(hi_text, &hi, &base_hi, &e_hi) ||
        km_parse_user_number(step_text, &step, &base_step, &e_step))
        return range_error(item, len, "its ends and step must be numbers");
    int powers = !isnan(base_lo);
    if (powers != !isnan(base_hi) || (powers && base_lo != base_hi))
        return range_error(item, len, "it mixes forms");
    double from = powers ? e_lo : lo, to = powers ? e_hi : hi;
    if (!(step > 0))
        return range_error(item, len, "the step must be > 0");
    if (from > to)
        return range_error(item, len, "it is empty");
    double steps = floor((to - from) / step + 1e-9);
    if (!(steps < MAX_VALUES))
        return range_error(item, len, "more than 10000 values");
    for (double k = 0; k <= steps; k++) {
        char value[64];
        double x = from + k * step;
        if (powers)
            snprintf(value, sizeof value, "%.17g^%.15g", base_lo, x);
        else
            snprintf(value, sizeof value, "%.15g", x);
        km_status st = push(list, value, strlen(value));
        if (st)
            return st;
    }
    return KM_OK;
}

km_status km_grid_values(const char *text, char **values, size_t *n)
{
    if (!text || !values || !n)
        return km_error(KM_EINVAL, "km_grid_values: NULL argument");
    value_list list = {0};
    km_status st = KM_OK;
    for (const char *item = text; !st;) {
        size_t len = strcspn(item, ",");
        const char *dots = strstr(item, "..");
        if (len == 0)
            st = km_error(KM_EINVAL, "grid '%s': an empty value", text);
        else if (dots && dots < item + len)
            st = push_range(&list, item, len, dots);
        else
            st = push(&list, item, len);
        if (!item[len])
            break;
        item += len + 1;
    }
    if (st) {
        free(list.text);
        return st;
    }
    *values = list.text;
    *n = list.n;
    return KM_OK;
}
