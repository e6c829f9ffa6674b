/* What the readers of both model format versions share: the checks on the raw bytes (header,
 * checksum), a line cursor, and parsers of the values on the rest of the current line. Every parser
 * checks what it reads, so a damaged or hostile file gives KM_EFORMAT naming the line, never a
 * crash or an allocation the file cannot justify. */
#ifndef KM_MODEL_MODEL_TEXT_H
#define KM_MODEL_MODEL_TEXT_H

#include <stddef.h>

#include "core/names.h"
#include "train/model.h"

/* A cursor over the lines of the body; lines are NUL-terminated in place as they are read. */
typedef struct km_text_reader {
    const char *path;
    char *next;             /* start of the next line */
    char *end;              /* end of the body: start of the checksum line */
    size_t line_no;         /* number of the current line in the file */
    char *cursor;           /* position within the current line */
} km_text_reader;

/* Whether buf[0..size), the first bytes read of a file, can begin a model: the magic (as far as read)
 * and no NUL byte in buf[from..size). Checked chunk by chunk, a stream that is not a model
 * (/dev/zero, /dev/urandom) fails at its first chunk instead of filling memory. */
km_status km_text_check_start(const char *path, const char *buf, size_t size, size_t from);
/* Checks "kernelmix-model VERSION\n" (a version this kernelmix reads), that the bytes hold no NUL
 * and that the last line is "checksum crc32 XXXXXXXX\n" with the CRC-32 of every byte before it.
 * Sets *version, and [*body, *body_end) to the lines between the two. */
km_status km_text_check(const char *path, const char *buf, size_t size, unsigned *version, size_t *body,
                        size_t *body_end);

/* Makes the next line current; KM_EFORMAT "expected WHAT" at the end of the body. */
km_status km_text_next_line(km_text_reader *r, const char *expected);
/* Next blank-separated token of the current line (NUL-terminated in place), or NULL at its end. */
char *km_text_token(km_text_reader *r);
km_status km_text_required_token(km_text_reader *r, const char *what, char **out);
/* KM_EFORMAT when the current line goes on after what was read. */
km_status km_text_end_of_line(km_text_reader *r, const char *what);
km_status km_text_bad_value(const km_text_reader *r, const char *what, const char *text);
/* KM_EFORMAT unless count items, each taking at least one byte, fit in the rest of the body. */
km_status km_text_check_count(const km_text_reader *r, const char *what, size_t count);
/* Whether the rest of the current line is "none". */
int km_text_rest_is_none(const km_text_reader *r);

/* Conversions of a whole token: a finite double; a non-negative integer at most max. */
km_status km_text_convert_double(const km_text_reader *r, const char *what, const char *text, double *value);
km_status km_text_convert_size(const km_text_reader *r, const char *what, const char *text, size_t max,
                               size_t *value);

/* Parsers of the next token(s) of the current line. */
km_status km_text_parse_double(km_text_reader *r, const char *what, double *value);
km_status km_text_parse_size(km_text_reader *r, const char *what, size_t *value);
km_status km_text_parse_long(km_text_reader *r, const char *what, long min, long max, long *value);
/* The rest of the line as exactly n doubles, into a new array. */
km_status km_text_parse_doubles(km_text_reader *r, const char *what, size_t n, double **out);
/* The rest of the line as one or more doubles, their count in *n, into a new array. */
km_status km_text_parse_double_list(km_text_reader *r, const char *what, size_t *n, double **out);
/* One name of table, the rest of the line. */
km_status km_text_parse_name(km_text_reader *r, const char *what, const km_name *table, int *value);
/* An exponent that may be infinite, "inf" or a number >= 1, the rest of the line. */
km_status km_text_parse_exponent(km_text_reader *r, const char *what, double *value);
/* "all" or "COUNT i_1 .. i_COUNT": 1-based strictly ascending feature indices within dimension (when
 * not 0), the rest of the line. */
km_status km_text_parse_features(km_text_reader *r, km_kernel *kernel, size_t dimension);
/* The rest of the line: "none" (*out = NULL) or "TEXT" with the escapes \\ \" \xHH (a new string). */
km_status km_text_parse_quoted(km_text_reader *r, const char *what, char **out);
/* One support vector line "INDEX C_1 .. C_outputs" of machine into entry j. */
km_status km_text_parse_support_vector(km_text_reader *r, km_machine *machine, size_t outputs, size_t j);
/* Allocates the basis of n rows of dimension d (sparse: 0 dense, 1 sparse, KM_BASIS_STRINGS string
 * rows; with labels and ids when asked); dense rows must fit in the rest of the body, sparse d must be
 * at most 2^32. *capacity: the room of the sparse arrays or the strings, for km_text_parse_basis_row. */
#define KM_BASIS_STRINGS 2
km_status km_text_basis_alloc(km_text_reader *r, km_model *model, size_t n, size_t d, int sparse, int labels,
                              int ids, size_t *capacity);
/* Basis row i, the whole current line: "KCOL [LABEL] [ID] FEATURES" (string rows: "... \"TEXT\""). */
km_status km_text_parse_basis_row(km_text_reader *r, km_model *model, size_t i, size_t *capacity);

/* At least one element (malloc(0) may return NULL). */
void *km_text_alloc_array(size_t n, size_t size);

#endif
