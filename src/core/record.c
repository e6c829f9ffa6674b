/* Named sections of named entries (values or text): core/record.h. */
#include "core/record.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

#define KM_RECORD_NAME_MAX 64

int km_record_name_valid(const char *name)
{
    size_t len = name ? strlen(name) : 0;
    if (len == 0 || len > KM_RECORD_NAME_MAX)
        return 0;
    for (size_t i = 0; i < len; i++)
        if (!((name[i] >= 'a' && name[i] <= 'z') || (name[i] >= '0' && name[i] <= '9') || name[i] == '_'))
            return 0;
    return 1;
}

static km_record_section *find_section(const km_record *record, const char *name)
{
    for (size_t s = 0; s < record->n_sections; s++)
        if (!strcmp(record->sections[s].name, name))
            return &record->sections[s];
    return NULL;
}

static km_record_entry *find_entry(const km_record *record, const char *section, const char *key)
{
    km_record_section *sec = find_section(record, section);
    for (size_t e = 0; sec && e < sec->n_entries; e++)
        if (!strcmp(sec->entries[e].name, key))
            return &sec->entries[e];
    return NULL;
}

static void entry_clear(km_record_entry *entry)
{
    free(entry->text);
    free(entry->values);
    entry->text = NULL;
    entry->values = NULL;
    entry->rows = entry->cols = 0;
}

/* The entry called key in section (both created when missing), emptied. */
static km_status entry_for(km_record *record, const char *section, const char *key, km_record_entry **out)
{
    if (!km_record_name_valid(section) || !km_record_name_valid(key))
        return km_error(KM_EINVAL, "data '%.70s' / '%.70s': names are 1 to %d characters of a-z, 0-9 and _",
                        section ? section : "", key ? key : "", KM_RECORD_NAME_MAX);
    km_record_entry *entry = find_entry(record, section, key);
    if (entry) {
        entry_clear(entry);
        *out = entry;
        return KM_OK;
    }
    km_record_section *sec = find_section(record, section);
    if (!sec) {
        km_record_section *grown = realloc(record->sections, (record->n_sections + 1) * sizeof *grown);
        if (!grown)
            return km_error_nomem("a data section");
        record->sections = grown;
        sec = &record->sections[record->n_sections];
        *sec = (km_record_section){.name = strdup(section)};
        if (!sec->name)
            return km_error_nomem("a data section");
        record->n_sections++;
    }
    km_record_entry *grown = realloc(sec->entries, (sec->n_entries + 1) * sizeof *grown);
    if (!grown)
        return km_error_nomem("a data entry");
    sec->entries = grown;
    entry = &sec->entries[sec->n_entries];
    *entry = (km_record_entry){.name = strdup(key)};
    if (!entry->name)
        return km_error_nomem("a data entry");
    sec->n_entries++;
    *out = entry;
    return KM_OK;
}

km_status km_record_set_values(km_record *record, const char *section, const char *key, size_t rows, size_t cols,
                              const double *values)
{
    if (rows == 0 || cols == 0 || rows > SIZE_MAX / sizeof(double) / cols || !values)
        return km_error(KM_EINVAL, "data %s/%s: a %zu x %zu matrix", section, key, rows, cols);
    for (size_t i = 0; i < rows * cols; i++)
        if (!isfinite(values[i]))
            return km_error(KM_EINVAL, "data %s/%s: value %zu is not finite", section, key, i + 1);
    km_record_entry *entry;
    km_status st = entry_for(record, section, key, &entry);
    if (st)
        return st;
    if (!(entry->values = malloc(rows * cols * sizeof *entry->values)))
        return km_error_nomem("data values");
    memcpy(entry->values, values, rows * cols * sizeof *entry->values);
    entry->rows = rows;
    entry->cols = cols;
    return KM_OK;
}

km_status km_record_set_scalar(km_record *record, const char *section, const char *key, double value)
{
    return km_record_set_values(record, section, key, 1, 1, &value);
}

km_status km_record_set_text(km_record *record, const char *section, const char *key, const char *text)
{
    if (!text)
        return km_error(KM_EINVAL, "data %s/%s: no text", section, key);
    km_record_entry *entry;
    km_status st = entry_for(record, section, key, &entry);
    if (st)
        return st;
    return (entry->text = strdup(text)) ? KM_OK : km_error_nomem("data text");
}

const double *km_record_values(const km_record *record, const char *section, const char *key, size_t *rows,
                              size_t *cols)
{
    const km_record_entry *entry = find_entry(record, section, key);
    if (!entry || !entry->values)
        return NULL;
    if (rows)
        *rows = entry->rows;
    if (cols)
        *cols = entry->cols;
    return entry->values;
}

const double *km_record_checked_values(const km_record *record, const char *section, const char *key, size_t rows,
                                       size_t cols, double lo, double hi, int whole, km_status *st)
{
    if (*st)
        return NULL;
    size_t r = 0, c = 0;
    const double *v = km_record_values(record, section, key, &r, &c);
    if (!v || r != rows || c != cols) {
        *st = km_error(KM_EFORMAT, "[data %s] %s: %s where the model's sizes need %zu x %zu values", section, key,
                       !find_entry(record, section, key) ? "missing" : v ? "another shape" : "a text", rows, cols);
        return NULL;
    }
    for (size_t k = 0; k < rows * cols; k++)
        if (!(v[k] >= lo && v[k] <= hi) || (whole && v[k] != floor(v[k]))) {
            *st = km_error(KM_EFORMAT, "[data %s] %s: value %zu is %.17g, not %s in [%g, %g]", section, key, k + 1,
                           v[k], whole ? "a whole number" : "a number", lo, hi);
            return NULL;
        }
    return v;
}

km_status km_record_scalar(const km_record *record, const char *section, const char *key, double *value)
{
    size_t rows, cols;
    const double *values = km_record_values(record, section, key, &rows, &cols);
    if (!values || rows != 1 || cols != 1)
        return km_error(KM_EINVAL, "no value %s/%s", section, key);
    *value = values[0];
    return KM_OK;
}

const char *km_record_text(const km_record *record, const char *section, const char *key)
{
    const km_record_entry *entry = find_entry(record, section, key);
    return entry ? entry->text : NULL;
}

void km_record_clear(km_record *record)
{
    for (size_t s = 0; s < record->n_sections; s++) {
        km_record_section *sec = &record->sections[s];
        for (size_t e = 0; e < sec->n_entries; e++) {
            entry_clear(&sec->entries[e]);
            free(sec->entries[e].name);
        }
        free(sec->entries);
        free(sec->name);
    }
    free(record->sections);
    record->sections = NULL;
    record->n_sections = 0;
}
