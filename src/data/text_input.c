/* Opening inputs, line reading, strict number parsing and array growth for the file readers. */
#include "data/text_input.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "core/error.h"

void km_line_reader_init(km_line_reader *reader, FILE *stream, const char *name)
{
    reader->stream = stream;
    reader->name = name;
    reader->buffer = NULL;
    reader->capacity = 0;
    reader->line_no = 0;
}

void km_line_reader_free(km_line_reader *reader)
{
    free(reader->buffer);
    reader->buffer = NULL;
    reader->capacity = 0;
}

km_status km_open_input(const char *path, FILE **out)
{
    *out = fopen(path, "rb");
    if (!*out)
        return km_error(KM_EIO, "%s: cannot open: %s", path, strerror(errno));
    return KM_OK;
}

static int is_blank(char c) { return c == ' ' || c == '\t'; }

km_status km_line_next(km_line_reader *reader, char **line)
{
    *line = NULL;
    for (;;) {
        errno = 0;
        ssize_t got = getline(&reader->buffer, &reader->capacity, reader->stream);
        if (got < 0) {
            if (ferror(reader->stream))
                return km_error(KM_EIO, "%s:%zu: read error: %s", reader->name, reader->line_no + 1,
                                errno ? strerror(errno) : "unknown error");
            if (errno == ENOMEM)
                return km_error(KM_ENOMEM, "%s:%zu: out of memory while reading a line", reader->name,
                                reader->line_no + 1);
            return KM_OK;
        }
        reader->line_no++;
        char *text = reader->buffer;
        size_t len = (size_t)got;
        if (reader->line_no == 1 && len >= 2 && memcmp(text, "\x1F\x8B", 2) == 0)
            return km_error(KM_EFORMAT, "%s:1: gzip-compressed input (decompress it first)", reader->name);
        if (reader->line_no == 1 && len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) {
            text += 3;
            len -= 3;
        }
        while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == '\r' || is_blank(text[len - 1])))
            len--;
        for (size_t i = 0; i < len; i++) {
            unsigned char c = (unsigned char)text[i];
            if ((c < 0x20 && c != '\t') || c == 0x7F)
                return km_error(KM_EFORMAT, "%s:%zu: unexpected byte 0x%02X at column %zu", reader->name,
                                reader->line_no, c, i + 1);
        }
        text[len] = '\0';
        size_t start = 0;
        while (start < len && is_blank(text[start]))
            start++;
        if (start < len) {
            *line = text;
            return KM_OK;
        }
    }
}

km_number_result km_parse_number(const char *text, double *value)
{
    if (*text == '\0')
        return KM_NUMBER_EMPTY;
    /* strtod would skip leading white space; a field with it is malformed here */
    if (*text == ' ' || *text == '\t')
        return KM_NUMBER_INVALID;
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || *end != '\0')
        return KM_NUMBER_INVALID;
    if (isnan(v) || isinf(v))
        return errno == ERANGE ? KM_NUMBER_RANGE : KM_NUMBER_NOT_FINITE;
    /* ERANGE with a finite result is underflow to a subnormal or zero: the nearest double, kept */
    *value = v;
    return KM_NUMBER_OK;
}

void *km_grow(void *items, size_t *capacity, size_t needed, size_t item_size)
{
    if (needed <= *capacity)
        return items;
    size_t grown = *capacity ? *capacity : 16;
    while (grown < needed) {
        if (grown > SIZE_MAX / 2 / item_size)
            return NULL;
        grown *= 2;
    }
    void *resized = realloc(items, grown * item_size);
    if (!resized)
        return NULL;
    *capacity = grown;
    return resized;
}
