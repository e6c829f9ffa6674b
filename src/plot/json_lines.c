#include "plot/json_lines.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

typedef struct parser {
    const char *at, *end;
    size_t line;
    int depth;
} parser;

enum { MAX_DEPTH = 32 };

static void skip_space(parser *p)
{
    while (p->at < p->end && (*p->at == ' ' || *p->at == '\t' || *p->at == '\r'))
        p->at++;
}

static km_status fail(const parser *p, const char *what)
{
    return km_error(KM_EFORMAT, "line %zu: %s", p->line, what);
}

static km_status parse_value(parser *p, km_json *out);

static km_status parse_string(parser *p, char **out)
{
    p->at++; /* the opening quote */
    char *s = malloc((size_t)(p->end - p->at) + 1);
    if (!s)
        return km_error_nomem("a JSON line");
    size_t n = 0;
    while (p->at < p->end && *p->at != '"') {
        char c = *p->at++;
        if (c == '\\') {
            if (p->at >= p->end)
                break;
            c = *p->at++;
            switch (c) {
            case 'n': c = '\n'; break;
            case 't': c = '\t'; break;
            case 'r': c = '\r'; break;
            case 'b': c = '\b'; break;
            case 'f': c = '\f'; break;
            case 'u': /* \u00XX only: the writers escape control characters so */
                if (p->end - p->at < 4 || strncmp(p->at, "00", 2)) {
                    free(s);
                    return fail(p, "a \\u escape beyond \\u00ff in a string");
                }
                c = (char)strtol((char[]){p->at[2], p->at[3], 0}, NULL, 16);
                p->at += 4;
                break;
            default: break; /* \" \\ \/ */
            }
        }
        s[n++] = c;
    }
    if (p->at >= p->end) {
        free(s);
        return fail(p, "a string without its closing quote");
    }
    p->at++;
    s[n] = '\0';
    *out = s;
    return KM_OK;
}

/* The members (object: key: value) or items (array) up to the closing bracket. */
static km_status parse_list(parser *p, km_json *out, int object)
{
    char close = object ? '}' : ']';
    p->at++;
    skip_space(p);
    if (p->at < p->end && *p->at == close) {
        p->at++;
        return KM_OK;
    }
    for (;;) {
        km_json *items = realloc(out->items, (out->n + 1) * sizeof *items);
        char **keys = object ? realloc(out->keys, (out->n + 1) * sizeof *keys) : NULL;
        if (items)
            out->items = items;
        if (keys)
            out->keys = keys;
        if (!items || (object && !keys))
            return km_error_nomem("a JSON line");
        skip_space(p);
        km_status st;
        if (object) {
            if (p->at >= p->end || *p->at != '"')
                return fail(p, "expected a member name in quotes");
            if ((st = parse_string(p, &out->keys[out->n])))
                return st;
            skip_space(p);
            if (p->at >= p->end || *p->at != ':') {
                free(out->keys[out->n]);
                return fail(p, "expected ':' after a member name");
            }
            p->at++;
        }
        memset(&out->items[out->n], 0, sizeof out->items[out->n]);
        st = parse_value(p, &out->items[out->n]);
        out->n++; /* freed with the rest, even half-parsed */
        if (st)
            return st;
        skip_space(p);
        if (p->at < p->end && *p->at == ',') {
            p->at++;
            continue;
        }
        if (p->at < p->end && *p->at == close) {
            p->at++;
            return KM_OK;
        }
        return fail(p, object ? "expected ',' or '}'" : "expected ',' or ']'");
    }
}

static km_status parse_value(parser *p, km_json *out)
{
    skip_space(p);
    if (p->at >= p->end)
        return fail(p, "a value is missing");
    if (++p->depth > MAX_DEPTH)
        return fail(p, "nested too deeply");
    km_status st = KM_OK;
    char c = *p->at;
    if (c == '{' || c == '[') {
        out->type = c == '{' ? KM_JSON_OBJECT : KM_JSON_ARRAY;
        st = parse_list(p, out, c == '{');
    } else if (c == '"') {
        out->type = KM_JSON_STRING;
        st = parse_string(p, &out->string);
    } else if (p->end - p->at >= 4 && !strncmp(p->at, "null", 4)) {
        out->type = KM_JSON_NULL;
        out->number = NAN;
        p->at += 4;
    } else if (p->end - p->at >= 4 && !strncmp(p->at, "true", 4)) {
        out->type = KM_JSON_BOOL;
        out->number = 1;
        p->at += 4;
    } else if (p->end - p->at >= 5 && !strncmp(p->at, "false", 5)) {
        out->type = KM_JSON_BOOL;
        p->at += 5;
    } else {
        const char *start = p->at;
        while (p->at < p->end && strchr("+-0123456789.eE", *p->at))
            p->at++;
        char buf[64];
        size_t n = (size_t)(p->at - start);
        if (n == 0 || n >= sizeof buf)
            return fail(p, "expected a value (number, string, array or object)");
        memcpy(buf, start, n);
        buf[n] = '\0';
        out->type = KM_JSON_NUMBER;
        char *rest;
        out->number = strtod(buf, &rest); /* the caller holds the "C" numeric locale */
        if (*rest || !isfinite(out->number))
            return fail(p, "a malformed number");
    }
    p->depth--;
    return st;
}

km_status km_json_parse_line(const char *text, size_t length, size_t line, km_json *out)
{
    memset(out, 0, sizeof *out);
    parser p = {text, text + length, line, 0};
    km_status st = parse_value(&p, out);
    skip_space(&p);
    if (!st && p.at < p.end)
        st = fail(&p, "text after the value");
    if (st)
        km_json_free(out);
    return st;
}

void km_json_free(km_json *value)
{
    for (size_t k = 0; k < value->n; k++) {
        km_json_free(&value->items[k]);
        if (value->keys)
            free(value->keys[k]);
    }
    free(value->items);
    free(value->keys);
    free(value->string);
    memset(value, 0, sizeof *value);
}

const km_json *km_json_get(const km_json *object, const char *key)
{
    if (object->type != KM_JSON_OBJECT)
        return NULL;
    for (size_t k = 0; k < object->n; k++)
        if (!strcmp(object->keys[k], key))
            return &object->items[k];
    return NULL;
}

double km_json_number(const km_json *object, const char *key)
{
    const km_json *v = km_json_get(object, key);
    return v && v->type == KM_JSON_NUMBER ? v->number : NAN;
}

km_status km_json_lines(const char *text, km_status (*fn)(void *ctx, size_t line, const km_json *value), void *ctx)
{
    km_status st = KM_OK;
    for (size_t line = 1; !st && *text; line++) {
        const char *end = strchr(text, '\n');
        size_t length = end ? (size_t)(end - text) : strlen(text);
        size_t k = 0;
        while (k < length && strchr(" \t\r", text[k]))
            k++;
        if (k < length) {
            km_json value;
            if (!(st = km_json_parse_line(text, length, line, &value)))
                st = fn(ctx, line, &value);
            km_json_free(&value);
        }
        text += end ? length + 1 : length;
    }
    return st;
}
