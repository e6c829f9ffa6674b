/* Labelled sequences (kernelmix.h km_dataset_read_sequences): "LABEL<TAB>SEQUENCE" lines or FASTA with
 * the label as the first word of each header, every character checked against an alphabet, into a
 * dataset of string rows. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/locale.h"
#include "data/dataset.h"
#include "data/readers.h"
#include "data/text_input.h"

#define KM_DEFAULT_ALPHABET "ACGT"

/* The sequences read so far: their bytes, each followed by a NUL, and their labels. */
typedef struct sequences {
    char *text;
    size_t length, text_cap;
    size_t *start;              /* n + 1 offsets */
    size_t start_cap;
    double *labels;
    size_t labels_cap;
    size_t n;
    size_t header_line;         /* FASTA: line of the current record's header */
} sequences;

/* Which bytes a sequence may hold, and whether lower-case letters are read as upper case. */
typedef struct alphabet {
    const char *letters;
    unsigned char allowed[256];
    int fold_case;
} alphabet;

static km_status alphabet_init(const char *name, const char *letters, alphabet *a)
{
    memset(a, 0, sizeof *a);
    a->letters = letters ? letters : KM_DEFAULT_ALPHABET;
    if (!*a->letters)
        return km_error(KM_EINVAL, "%s: the alphabet is empty", name);
    a->fold_case = 1;
    for (const unsigned char *c = (const unsigned char *)a->letters; *c; c++) {
        if (*c <= ' ' || *c == '>' || *c == 127)
            return km_error(KM_EINVAL, "%s: the alphabet may not hold blanks, control characters or '>'", name);
        a->allowed[*c] = 1;
        if (*c >= 'a' && *c <= 'z')
            a->fold_case = 0;
    }
    return KM_OK;
}

/* The character as a message shows it: 'c', or \xNN for what does not print. */
static void shown_char(unsigned char c, char *buf, size_t size)
{
    if (c > ' ' && c < 127)
        snprintf(buf, size, "'%c'", c);
    else
        snprintf(buf, size, "\\x%02X", c);
}

/* Appends the characters of text (column of text[0] given) to the current sequence, checked. */
static km_status append_checked(sequences *s, const alphabet *a, const km_line_reader *in, const char *text,
                                size_t column)
{
    size_t len = strlen(text);
    char *grown = km_grow(s->text, &s->text_cap, s->length + len + 1, 1);
    if (!grown)
        return km_error_nomem("sequences");
    s->text = grown;
    for (size_t j = 0; j < len; j++) {
        unsigned char c = (unsigned char)text[j];
        if (a->fold_case && c >= 'a' && c <= 'z')
            c = (unsigned char)(c - 'a' + 'A');
        if (!a->allowed[c]) {
            char shown[8];
            shown_char((unsigned char)text[j], shown, sizeof shown);
            return km_error(KM_EFORMAT, "%s:%zu:%zu: character %s is not in the alphabet %s", in->name, in->line_no,
                            column + j, shown, a->letters);
        }
        s->text[s->length++] = (char)c;
    }
    return KM_OK;
}

/* Starts a sequence with its label (the text of a label field at column `column`). */
static km_status begin_sequence(sequences *s, const km_line_reader *in, const char *label, size_t column)
{
    double value;
    if (km_parse_number(label, &value) != KM_NUMBER_OK)
        return km_error(KM_EFORMAT, "%s:%zu:%zu: the label \"%.40s\" is not a finite number", in->name, in->line_no,
                        column, label);
    size_t *start = km_grow(s->start, &s->start_cap, s->n + 2, sizeof *start);
    if (!start)
        return km_error_nomem("sequences");
    s->start = start;
    double *labels = km_grow(s->labels, &s->labels_cap, s->n + 1, sizeof *labels);
    if (!labels)
        return km_error_nomem("sequence labels");
    s->labels = labels;
    s->start[s->n] = s->length;
    s->labels[s->n] = value;
    s->n++;
    return KM_OK;
}

/* Ends the current sequence: its NUL; an empty one is an error at line `line`. */
static km_status end_sequence(sequences *s, const char *name, size_t line)
{
    if (s->length == s->start[s->n - 1])
        return km_error(KM_EFORMAT, "%s:%zu: the sequence is empty", name, line);
    char *grown = km_grow(s->text, &s->text_cap, s->length + 1, 1);
    if (!grown)
        return km_error_nomem("sequences");
    s->text = grown;
    s->text[s->length++] = '\0';
    s->start[s->n] = s->length;
    return KM_OK;
}

/* "LABEL<TAB>SEQUENCE" */
static km_status read_tab_line(sequences *s, const alphabet *a, const km_line_reader *in, char *line)
{
    char *tab = strchr(line, '\t');
    if (!tab)
        return km_error(KM_EFORMAT, "%s:%zu: expected LABEL<TAB>SEQUENCE (no tab on the line)", in->name, in->line_no);
    *tab = '\0';
    km_status st = begin_sequence(s, in, line, 1);
    if (!st)
        st = append_checked(s, a, in, tab + 1, (size_t)(tab - line) + 2);
    return st ? st : end_sequence(s, in->name, in->line_no);
}

/* ">LABEL [description]" starts a record; other lines continue its sequence. */
static km_status read_fasta_line(sequences *s, const alphabet *a, const km_line_reader *in, char *line)
{
    if (*line != '>') {
        if (s->n == 0)
            return km_error(KM_EFORMAT, "%s:%zu: sequence before the first '>' header", in->name, in->line_no);
        return append_checked(s, a, in, line, 1);
    }
    km_status st = s->n ? end_sequence(s, in->name, s->header_line) : KM_OK;
    if (st)
        return st;
    char *label = line + 1;
    size_t skipped = strspn(label, " \t");
    label += skipped;
    label[strcspn(label, " \t")] = '\0';
    if (!*label)
        return km_error(KM_EFORMAT, "%s:%zu: the header has no label (expected >LABEL)", in->name, in->line_no);
    s->header_line = in->line_no;
    return begin_sequence(s, in, label, 2 + skipped);
}

static km_status read_sequences(FILE *stream, const char *name, const alphabet *a, km_dataset **out)
{
    km_line_reader in;
    km_line_reader_init(&in, stream, name);
    sequences s = {0};
    int fasta = -1;
    char *line;
    km_status st;
    while (!(st = km_line_next(&in, &line)) && line) {
        if (*line == '#' || (fasta == 1 && *line == ';'))
            continue;
        if (fasta < 0)
            fasta = *line == '>';
        st = fasta ? read_fasta_line(&s, a, &in, line) : read_tab_line(&s, a, &in, line);
        if (st)
            break;
    }
    if (!st && s.n == 0)
        st = km_error(KM_EFORMAT, "%s: no sequences", name);
    if (!st && fasta == 1)
        st = end_sequence(&s, name, s.header_line);
    km_dataset *data = NULL;
    if (!st)
        st = km_dataset_alloc(&data);
    if (!st) {
        data->n = s.n;
        data->text = s.text;
        data->text_start = s.start;
        data->labels = s.labels;
        s.text = NULL;
        s.start = NULL;
        s.labels = NULL;
        if (!(data->source = strdup(name))) {
            km_dataset_free(data);
            st = km_error_nomem("a file name");
        }
    }
    free(s.text);
    free(s.start);
    free(s.labels);
    km_line_reader_free(&in);
    if (!st)
        *out = data;
    return st;
}

km_status km_read_sequences_stream(FILE *stream, const char *name, const char *alphabet_letters, km_dataset **out)
{
    *out = NULL;
    alphabet a;
    km_status st = alphabet_init(name, alphabet_letters, &a);
    if (st)
        return st;
    km_numeric_locale locale;
    if ((st = km_numeric_locale_enter(&locale)))
        return st;
    st = read_sequences(stream, name, &a, out);
    km_numeric_locale_leave(&locale);
    return st;
}

km_status km_dataset_read_sequences(const char *path, const char *alphabet_letters, km_dataset **out)
{
    *out = NULL;
    FILE *stream;
    km_status st = km_open_input(path, &stream);
    if (st)
        return st;
    st = km_read_sequences_stream(stream, km_input_name(path), alphabet_letters, out);
    fclose(stream);
    return st;
}
