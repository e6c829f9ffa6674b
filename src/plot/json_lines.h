/* A small JSON reader for the line-oriented files the figures read (train --trace, cross-validation
 * results): one value per line, parsed into a tree. */
#ifndef KM_PLOT_JSON_LINES_H
#define KM_PLOT_JSON_LINES_H

#include <stddef.h>

#include "kernelmix.h"

typedef enum km_json_type { KM_JSON_NULL, KM_JSON_BOOL, KM_JSON_NUMBER, KM_JSON_STRING, KM_JSON_ARRAY, KM_JSON_OBJECT } km_json_type;

typedef struct km_json {
    km_json_type type;
    double number;               /* NUMBER, BOOL (0 or 1) */
    char *string;                /* STRING */
    struct km_json *items;       /* ARRAY, OBJECT: n values */
    char **keys;                 /* OBJECT: n keys */
    size_t n;
} km_json;

/* Parses one line (up to a newline or the end) as a JSON value into *out; KM_EFORMAT with the message
 * "line LINE: problem" on bad syntax. */
km_status km_json_parse_line(const char *text, size_t length, size_t line, km_json *out);
void km_json_free(km_json *value);
/* The member key of an object (NULL: none, or not an object). */
const km_json *km_json_get(const km_json *object, const char *key);
/* The number of member key, or NAN when it is missing or not a number. */
double km_json_number(const km_json *object, const char *key);

/* Numbers are read in the current numeric locale: callers hold the "C" one (core/locale.h).
 * Calls fn for every non-blank line of text (1-based line numbers) with its parsed value; stops at
 * the first error (of parsing or of fn). */
km_status km_json_lines(const char *text, km_status (*fn)(void *ctx, size_t line, const km_json *value), void *ctx);

#endif
