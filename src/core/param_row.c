/* Reading and writing the value a parameter row describes, and its bounds (core/param_row.h). */
#include "core/param_row.h"

#include <math.h>
#include <stdio.h>

#include "core/error.h"

double km_param_row_read(const km_param_row *row, const void *base)
{
    const void *field = (const char *)base + row->offset;
    switch (row->field) {
    case KM_FIELD_DOUBLE: return *(const double *)field;
    case KM_FIELD_INT: return *(const int *)field;
    case KM_FIELD_LONG: return (double)*(const long *)field;
    case KM_FIELD_U64: return (double)*(const uint64_t *)field;
    }
    return NAN;
}

int64_t km_param_row_read_int(const km_param_row *row, const void *base)
{
    const void *field = (const char *)base + row->offset;
    switch (row->field) {
    case KM_FIELD_DOUBLE: return (int64_t)*(const double *)field;
    case KM_FIELD_INT: return *(const int *)field;
    case KM_FIELD_LONG: return (int64_t)*(const long *)field;
    case KM_FIELD_U64: return (int64_t)*(const uint64_t *)field;
    }
    return 0;
}

void km_param_row_write(const km_param_row *row, void *base, double value)
{
    if (row->field == KM_FIELD_DOUBLE)
        *(double *)((char *)base + row->offset) = value;
    else
        km_param_row_write_int(row, base, (int64_t)value);
}

void km_param_row_write_int(const km_param_row *row, void *base, int64_t value)
{
    void *field = (char *)base + row->offset;
    switch (row->field) {
    case KM_FIELD_DOUBLE: *(double *)field = (double)value; break;
    case KM_FIELD_INT: *(int *)field = (int)value; break;
    case KM_FIELD_LONG: *(long *)field = (long)value; break;
    case KM_FIELD_U64: *(uint64_t *)field = (uint64_t)value; break;
    }
}

void km_param_rows_defaults(const km_param_row *rows, size_t n, void *base)
{
    for (size_t k = 0; k < n; k++)
        km_param_row_write(&rows[k], base, rows[k].default_value);
}

int km_param_row_within(const km_param_row *row, double value)
{
    if ((row->flags & KM_PARAM_AUTOMATIC) && value == row->default_value)
        return 1;
    if (row->names)
        return value == (int)value && km_name_of(row->names(), (int)value) != NULL;
    int above = row->flags & KM_PARAM_LOWER_OPEN ? value > row->lower : value >= row->lower;
    int below = row->flags & KM_PARAM_UPPER_OPEN ? value < row->upper : value <= row->upper;
    return above && below;
}

km_status km_param_out_of_bounds(const km_param_row *row, double value)
{
    if (row->names)
        return km_error(KM_EINVAL, "parameter %s: %.17g is not one of its values", row->name, value);
    char automatic[64] = "";
    if (row->flags & KM_PARAM_AUTOMATIC)
        snprintf(automatic, sizeof automatic, ", or %g for the automatic choice", row->default_value);
    return km_error(KM_EINVAL, "parameter %s must be %s in %c%g, %g%c%s (got %.17g)", row->name,
                    row->flags & KM_PARAM_INTEGER ? "an integer" : "a number",
                    row->flags & KM_PARAM_LOWER_OPEN ? '(' : '[', row->lower, row->upper,
                    row->flags & KM_PARAM_UPPER_OPEN ? ')' : ']', automatic, value);
}
