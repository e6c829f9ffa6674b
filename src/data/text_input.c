/* Opening inputs, line reading, strict number parsing and array growth for the file readers. */
#include "data/text_input.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "core/error.h"

const char *km_input_name(const char *path) { return strcmp(path, "-") == 0 ? "standard input" : path; }

/* Standard input as a seekable stream of its own descriptor: a regular file read from its start as it
 * is, anything else copied to an unnamed temporary file first. */
static km_status open_standard_input(FILE **out)
{
    struct stat st;
    int fd = dup(STDIN_FILENO);
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && lseek(fd, 0, SEEK_CUR) == 0) {
        if ((*out = fdopen(fd, "rb")))
            return KM_OK;
    }
    int error = fd < 0 ? errno : 0;
    FILE *copy = fd < 0 ? NULL : tmpfile();
    if (!copy && !error)
        error = errno;
    char chunk[1 << 16];
    for (ssize_t got = 1; copy && !error && got > 0;) {
        got = read(fd, chunk, sizeof chunk);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0 || (got > 0 && fwrite(chunk, 1, (size_t)got, copy) != (size_t)got))
            error = errno ? errno : EIO;
    }
    if (fd >= 0)
        close(fd);
    if (!error && (fflush(copy) != 0 || fseeko(copy, 0, SEEK_SET) != 0))
        error = errno;
    if (error) {
        if (copy)
            fclose(copy);
        return km_error(KM_EIO, "standard input: cannot read: %s", strerror(error));
    }
    *out = copy;
    return KM_OK;
}

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

/* The inputs whose bytes were given in memory (km_input_provide), by path. */
typedef struct provided_input {
    char *path;
    void *bytes;
    size_t n;
} provided_input;
static provided_input *provided;
static size_t n_provided;

km_status km_input_provide(const char *path, const void *bytes, size_t n)
{
    provided_input *grown = realloc(provided, (n_provided + 1) * sizeof *provided);
    if (!grown)
        return km_error_nomem("an input's copy");
    provided = grown;
    provided_input *p = &provided[n_provided];
    p->path = strdup(path);
    p->bytes = malloc(n ? n : 1);
    if (!p->path || !p->bytes) {
        free(p->path);
        free(p->bytes);
        return km_error_nomem("an input's copy");
    }
    memcpy(p->bytes, bytes, n);
    p->n = n;
    n_provided++;
    return KM_OK;
}

void km_input_forget_provided(void)
{
    for (size_t k = 0; k < n_provided; k++) {
        free(provided[k].path);
        free(provided[k].bytes);
    }
    free(provided);
    provided = NULL;
    n_provided = 0;
}

/* A given input as a stream of its own: an unnamed temporary file holding its bytes, so that readers
 * that map a file's descriptor read it too. */
static km_status open_provided(const provided_input *p, FILE **out)
{
    FILE *copy = tmpfile();
    if (!copy || fwrite(p->bytes, 1, p->n, copy) != p->n || fflush(copy) || fseeko(copy, 0, SEEK_SET)) {
        int error = errno ? errno : EIO;
        if (copy)
            fclose(copy);
        return km_error(KM_EIO, "%s: cannot copy the input received: %s", km_input_name(p->path), strerror(error));
    }
    *out = copy;
    return KM_OK;
}

km_status km_open_input(const char *path, FILE **out)
{
    for (size_t k = 0; k < n_provided; k++)
        if (!strcmp(provided[k].path, path))
            return open_provided(&provided[k], out);
    if (strcmp(path, "-") == 0)
        return open_standard_input(out);
    *out = fopen(path, "rb");
    if (!*out)
        return km_error(KM_EIO, "%s: cannot open: %s", path, strerror(errno));
    return KM_OK;
}

static int is_blank(char c) { return c == ' ' || c == '\t'; }

/* A line longer than this is refused, so that a stream without line ends (/dev/zero, a binary file
 * through a pipe) fails at once instead of filling memory; 256 MiB holds a dense row of about ten
 * million features. */
#define KM_LINE_MAX_BYTES ((size_t)1 << 28)

/* Bytes no text input holds: control bytes other than tab and the line ends, and DEL. */
static int control_byte(unsigned char c) { return (c < 0x20 && c != '\t' && c != '\r' && c != '\n') || c == 0x7F; }

static km_status unexpected_byte(const km_line_reader *reader, size_t line_no, unsigned char c, size_t column)
{
    return km_error(KM_EFORMAT, "%s:%zu: unexpected byte 0x%02X at column %zu", reader->name, line_no, c, column);
}

/* The next line as read, with its LF when there is one, into the reader's buffer (*len bytes, then a
 * NUL; 0 bytes at the end of input). Binary input fails at its first control byte. */
static km_status read_raw_line(km_line_reader *reader, size_t *len)
{
    size_t n = 0, line_no = reader->line_no + 1;
    int c;
    *len = 0;
    while ((c = getc_unlocked(reader->stream)) != EOF) {
        if (n + 2 > reader->capacity) {
            if (reader->capacity >= KM_LINE_MAX_BYTES)
                return km_error(KM_EFORMAT, "%s:%zu: line longer than %zu MiB (not a text file?)", reader->name,
                                line_no, KM_LINE_MAX_BYTES >> 20);
            size_t capacity = reader->capacity ? 2 * reader->capacity : 4096;
            char *grown = realloc(reader->buffer, capacity);
            if (!grown)
                return km_error(KM_ENOMEM, "%s:%zu: out of memory while reading a line", reader->name, line_no);
            reader->buffer = grown;
            reader->capacity = capacity;
        }
        reader->buffer[n++] = (char)c;
        if (c == '\n')
            break;
        /* gzip's magic 1F 8B is named on line 1; any other control byte ends the reading at once */
        int gzip_start = line_no == 1 && n <= 2 && (unsigned char)reader->buffer[0] == 0x1F;
        if (gzip_start && n == 2 && (unsigned char)c == 0x8B)
            return km_error(KM_EFORMAT, "%s:1: gzip-compressed input (decompress it first)", reader->name);
        if (control_byte((unsigned char)c) && !(gzip_start && n == 1))
            return unexpected_byte(reader, line_no, (unsigned char)c, n);
        if (gzip_start && n == 2)
            return unexpected_byte(reader, line_no, 0x1F, 1);
    }
    if (c == EOF && ferror(reader->stream))
        return km_error(KM_EIO, "%s:%zu: read error: %s", reader->name, line_no, errno ? strerror(errno) : "unknown error");
    if (reader->buffer)
        reader->buffer[n] = '\0';
    *len = n;
    return KM_OK;
}

km_status km_line_next(km_line_reader *reader, char **line)
{
    *line = NULL;
    for (;;) {
        size_t len;
        errno = 0;
        km_status st = read_raw_line(reader, &len);
        if (st || len == 0)
            return st;
        reader->line_no++;
        char *text = reader->buffer;
        if (reader->line_no == 1 && len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) {
            text += 3;
            len -= 3;
        }
        while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == '\r' || is_blank(text[len - 1])))
            len--;
        for (size_t i = 0; i < len; i++)   /* a CR within the line */
            if (text[i] == '\r')
                return unexpected_byte(reader, reader->line_no, '\r', i + 1);
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
