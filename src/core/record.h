/* A record: named sections of named entries, each a rows x cols matrix of finite doubles or a text.
 * A trained model carries one for the data of its kernel-weight method beyond the machines (KRR's
 * regularizer, cluster centres and memberships, OBSCURE's weights); a method fills the record its
 * problem points to, and model files write and read every section generically ([data NAME]).
 * Section and entry names are 1 to 64 characters of [a-z0-9_]. */
#ifndef KM_CORE_RECORD_H
#define KM_CORE_RECORD_H

#include <stddef.h>

#include "kernelmix.h"

typedef struct km_record_entry {
    char *name;
    char *text;             /* a text entry, or NULL for values */
    size_t rows, cols;      /* values: a rows x cols matrix, row-major (a scalar is 1 x 1) */
    double *values;
} km_record_entry;

typedef struct km_record_section {
    char *name;
    size_t n_entries;
    km_record_entry *entries;
} km_record_section;

typedef struct km_record {
    size_t n_sections;
    km_record_section *sections;
} km_record;

/* Whether name is a valid section or entry name. */
int km_record_name_valid(const char *name);
/* Sets entry `key` of section `section` (both created when missing) to a copy of rows x cols finite
 * values (rows, cols >= 1), replacing what it held. KM_EINVAL for a bad name or a non-finite value. */
km_status km_record_set_values(km_record *record, const char *section, const char *key, size_t rows, size_t cols,
                               const double *values);
/* The same for one value (a 1 x 1 entry). */
km_status km_record_set_scalar(km_record *record, const char *section, const char *key, double value);
/* Sets entry `key` to a copy of text (any bytes but NUL). */
km_status km_record_set_text(km_record *record, const char *section, const char *key, const char *text);
/* The values of an entry and their shape (rows, cols may be NULL); NULL when the section has no such
 * entry or it holds text. */
const double *km_record_values(const km_record *record, const char *section, const char *key, size_t *rows,
                               size_t *cols);
/* The values of an entry as a reader trusts them: rows x cols values, each within [lo, hi] and a whole
 * number when `whole`. NULL with KM_EFORMAT in *st ("[data SECTION] KEY: ...") otherwise; nothing is
 * done when *st already holds a failure. */
const double *km_record_checked_values(const km_record *record, const char *section, const char *key, size_t rows,
                                       size_t cols, double lo, double hi, int whole, km_status *st);
/* The value of a 1 x 1 entry; KM_EINVAL when there is none. */
km_status km_record_scalar(const km_record *record, const char *section, const char *key, double *value);
/* The text of an entry; NULL when there is none or it holds values. */
const char *km_record_text(const km_record *record, const char *section, const char *key);
/* Releases every section (the record is then empty). */
void km_record_clear(km_record *record);

#endif
