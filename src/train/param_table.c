/* The parameter table (train/param_table.h) and the public access to parameters by id. */
#include "train/param_table.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "core/sized_struct.h"
#include "mkl/mkl_params.h"

const km_param_row *km_param_row_at(size_t k)
{
    size_t n_fields, n_mkl;
    const km_param_row *fields = km_params_field_rows(&n_fields), *mkl = km_mkl_params_rows(&n_mkl);
    return k < n_fields ? &fields[k] : k < n_fields + n_mkl ? &mkl[k - n_fields] : NULL;
}

const km_param_row *km_param_row_of(km_param id)
{
    const km_param_row *row;
    for (size_t k = 0; (row = km_param_row_at(k)); k++)
        if (row->id == id)
            return row;
    return NULL;
}

int km_param_is_method_param(km_param id)
{
    return km_mkl_param_row(id) != NULL;
}

/* Whether the row's value is a field of km_params (else a slot: another layer's parameter). */
static int is_field(const km_param_row *row)
{
    return !km_param_is_method_param(row->id);
}

static void store(km_params *params, const km_param_row *row, double real, int64_t integer)
{
    if (is_field(row)) {
        if (row->flags & KM_PARAM_INTEGER)
            km_param_row_write_int(row, params, integer);
        else
            km_param_row_write(row, params, real);
        return;
    }
    km_param_slot *slot = &params->slots[row->id];
    slot->real = real;
    slot->integer = integer;
    slot->set = 1;
}

static double stored(const km_params *params, const km_param_row *row)
{
    if (is_field(row))
        return km_param_row_read(row, params);
    const km_param_slot *slot = &params->slots[row->id];
    return !slot->set ? row->default_value : row->flags & KM_PARAM_INTEGER ? (double)slot->integer : slot->real;
}

static int64_t stored_int(const km_params *params, const km_param_row *row)
{
    if (is_field(row))
        return km_param_row_read_int(row, params);
    const km_param_slot *slot = &params->slots[row->id];
    return slot->set ? slot->integer : (int64_t)row->default_value;
}

static km_status row_of(km_param id, const km_param_row **out)
{
    if (!(*out = km_param_row_of(id)))
        return km_error(KM_EINVAL, "unknown parameter id %d", (int)id);
    return KM_OK;
}

/* The row of parameter id, which must be an integer parameter (integer != 0) or a real one. */
static km_status typed_row(km_param id, int integer, const km_param_row **out)
{
    km_status st = row_of(id, out);
    if (st)
        return st;
    if (!((*out)->flags & KM_PARAM_INTEGER) == !integer)
        return KM_OK;
    const char *type = (*out)->flags & KM_PARAM_INTEGER ? "int" : "double";
    return km_error(KM_EINVAL, "parameter %s is read and written by km_params_set_%s and km_params_get_%s",
                    (*out)->name, type, type);
}

km_status km_params_set_double(km_params *params, km_param id, double value)
{
    const km_param_row *row;
    km_status st = typed_row(id, 0, &row);
    if (st)
        return st;
    if (!km_param_row_within(row, value))
        return km_param_out_of_bounds(row, value);
    store(params, row, value, 0);
    return KM_OK;
}

km_status km_params_set_int(km_params *params, km_param id, int64_t value)
{
    const km_param_row *row;
    km_status st = typed_row(id, 1, &row);
    if (st)
        return st;
    if (!km_param_row_within(row, (double)value))
        return km_param_out_of_bounds(row, (double)value);
    store(params, row, (double)value, value);
    return KM_OK;
}

km_status km_params_get_double(const km_params *params, km_param id, double *value)
{
    const km_param_row *row;
    km_status st = typed_row(id, 0, &row);
    if (!st)
        *value = stored(params, row);
    return st;
}

km_status km_params_get_int(const km_params *params, km_param id, int64_t *value)
{
    const km_param_row *row;
    km_status st = typed_row(id, 1, &row);
    if (!st)
        *value = stored_int(params, row);
    return st;
}

km_status km_params_set_text_as(km_params *params, km_param id, const char *text, const char *as, int automatic)
{
    const km_param_row *row;
    km_status st = row_of(id, &row);
    double real;
    int64_t integer;
    if (!st)
        st = km_param_row_parse(row, as, text, automatic, &real, &integer);
    if (!st)
        store(params, row, real, integer);
    return st;
}

km_status km_params_set_text(km_params *params, km_param id, const char *text)
{
    const char *name = km_param_name(id);
    char as[96];
    snprintf(as, sizeof as, "parameter %s", name ? name : "?");
    return km_params_set_text_as(params, id, text, as, 1);
}

/* The range of the row: an enumeration's from its names. */
static void bounds_of(const km_param_row *row, double *lower, double *upper)
{
    *lower = row->lower;
    *upper = row->upper;
    if (!row->names)
        return;
    *lower = INFINITY;
    *upper = -INFINITY;
    for (const km_name *name = row->names(); name->name; name++) {
        *lower = fmin(*lower, name->value);
        *upper = fmax(*upper, name->value);
    }
}

km_status km_param_bounds(km_param id, double *lower, double *upper, unsigned *flags)
{
    const km_param_row *row;
    km_status st = row_of(id, &row);
    if (st)
        return st;
    double lo, hi;
    bounds_of(row, &lo, &hi);
    if (lower)
        *lower = lo;
    if (upper)
        *upper = hi;
    if (flags)
        *flags = row->flags;
    return KM_OK;
}

km_status km_param_from_name(const char *name, km_param *id)
{
    const km_param_row *row;
    for (size_t k = 0; name && (row = km_param_row_at(k)); k++)
        if (!strcmp(row->name, name)) {
            *id = row->id;
            return KM_OK;
        }
    return km_error(KM_EINVAL, "unknown parameter '%s'", name ? name : "(null)");
}

const char *km_param_name(km_param id)
{
    const km_param_row *row = km_param_row_of(id);
    return row ? row->name : NULL;
}

km_param km_param_at(size_t index)
{
    const km_param_row *row = km_param_row_at(index);
    return row ? row->id : (km_param)0;
}

km_status km_param_describe(km_param id, km_param_info *info)
{
    const km_param_row *row;
    km_status st = row_of(id, &row);
    if (st)
        return st;
    km_param_info full = {.size = sizeof full, .id = row->id, .name = row->name, .flags = row->flags,
                          .default_value = row->default_value, .enumeration = row->enumeration,
                          .options = row->options, .value_name = row->value_name,
                          .switch_value = row->switch_value, .help = row->help};
    bounds_of(row, &full.lower, &full.upper);
    return km_sized_struct_fill(info, &full, sizeof full, sizeof full, "km_param_info");
}
