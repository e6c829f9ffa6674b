/* Text input primitives shared by the file readers: opening, a line reader over any FILE stream
 * (files, pipes, fmemopen buffers), strict number parsing and array growth. */
#ifndef KM_DATA_TEXT_INPUT_H
#define KM_DATA_TEXT_INPUT_H

#include <stddef.h>
#include <stdio.h>

#include "kernelmix.h"

/* Opens path for reading in binary mode; KM_EIO "PATH: cannot open: REASON" on failure. The path "-"
 * is standard input, as Unix tools take it: the stream is seekable either way (a pipe or terminal is
 * first copied to an unnamed temporary file), so that every reader, binary ones included, reads it as
 * a file. Closing the stream leaves standard input open. */
km_status km_open_input(const char *path, FILE **out);
/* From now on km_open_input(path) reads a copy of these n bytes instead of the file (an input that
 * another process read and sent, `kernelmix cv --bcast`); km_input_forget_provided drops them all. */
km_status km_input_provide(const char *path, const void *bytes, size_t n);
void km_input_forget_provided(void);
/* The name of path in messages: "standard input" for "-", else path. */
const char *km_input_name(const char *path);

typedef struct km_line_reader {
    FILE *stream;
    const char *name;   /* file name for messages */
    char *buffer;       /* getline buffer, owned */
    size_t capacity;
    size_t line_no;     /* 1-based number of the line last returned */
} km_line_reader;

void km_line_reader_init(km_line_reader *reader, FILE *stream, const char *name);
void km_line_reader_free(km_line_reader *reader);

/* Reads the next line that is not blank, without its line ending (LF or CRLF) and trailing spaces or
 * tabs; a UTF-8 byte-order mark on line 1 is dropped. *line points into the reader's buffer and stays
 * valid until the next call; it is NULL at end of input. Fails with KM_EIO on a read error and with
 * KM_EFORMAT on a control byte (NUL included) other than tab or on gzip-compressed input. */
km_status km_line_next(km_line_reader *reader, char **line);

typedef enum km_number_result {
    KM_NUMBER_OK = 0,
    KM_NUMBER_EMPTY,       /* no characters */
    KM_NUMBER_INVALID,     /* not a number, or trailing characters */
    KM_NUMBER_RANGE,       /* magnitude overflows a double */
    KM_NUMBER_NOT_FINITE   /* "nan", "inf", ... */
} km_number_result;

/* Parses the whole NUL-terminated text as one finite double (strtod syntax, no surrounding spaces). */
km_number_result km_parse_number(const char *text, double *value);

/* Returns items (item_size bytes each) grown, by doubling *capacity, to hold at least `needed` >= 1
 * items; NULL when out of memory, in which case items is unchanged and still owned by the caller. */
void *km_grow(void *items, size_t *capacity, size_t needed, size_t item_size);

#endif
