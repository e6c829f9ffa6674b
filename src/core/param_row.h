/* A training parameter described by one row: its name, command-line options, help, bounds, default
 * and where its value lies. Rows are defined by the layer that owns the value (core/params.c: the
 * machine's and the run's; mkl/mkl_params.c: the kernel-weight methods'); src/train gathers them into
 * the one table behind km_params_set_*, km_param_describe and the generated options and help. */
#ifndef KM_CORE_PARAM_ROW_H
#define KM_CORE_PARAM_ROW_H

#include <stddef.h>
#include <stdint.h>

#include "core/names.h"
#include "kernelmix.h"

/* How the value is stored in the struct a row's offset points into (an enumeration is an int). */
typedef enum km_param_field { KM_FIELD_DOUBLE, KM_FIELD_INT, KM_FIELD_LONG, KM_FIELD_U64 } km_param_field;

typedef struct km_param_row {
    km_param id;
    const char *name;            /* the library's and the model file's name */
    km_param_field field;
    size_t offset;               /* of the value in the owner's struct (km_params or km_mkl_params) */
    double lower, upper;         /* bounds; an enumeration's are those of its names */
    unsigned flags;              /* KM_PARAM_* of kernelmix.h */
    double default_value;
    km_enum enumeration;         /* 0: not an enumeration */
    const km_name *(*names)(void); /* the enumeration's name table (decides the valid values) */
    /* The command line: options ("|"-separated, the preferred one first, aliases after; NULL: none),
     * the value's name in the help (NULL: a switch, which sets switch_value) and one paragraph of help. */
    const char *options;
    const char *value_name;
    double switch_value;
    const char *help;
    int diagnostic;              /* 1: changes what a run reports, not what it learns (models do not keep it) */
} km_param_row;

/* The value a row describes in base (the owner's struct), as a double (integers exactly up to 2^53). */
double km_param_row_read(const km_param_row *row, const void *base);
/* Its value as an integer (integer rows; a double row's value truncated). */
int64_t km_param_row_read_int(const km_param_row *row, const void *base);
/* Stores value (within the row's bounds, not checked here) at the row's place in base. */
void km_param_row_write(const km_param_row *row, void *base, double value);
void km_param_row_write_int(const km_param_row *row, void *base, int64_t value);
/* Writes the default of each of the n rows into base. */
void km_param_rows_defaults(const km_param_row *rows, size_t n, void *base);
/* Whether value is within the row's bounds (an enumeration: one of its names' values), or is the
 * default of a KM_PARAM_AUTOMATIC row. */
int km_param_row_within(const km_param_row *row, double value);
/* KM_EINVAL with a message naming the row's parameter and its bounds. */
km_status km_param_out_of_bounds(const km_param_row *row, double value);

/* Parses a value of the row from text as users write it (param_text.c): an enumeration's name, an
 * integer (digits, or 2^4, 1e3), a number (1e-3, 2^-5; a fraction "a/b" for a KM_PARAM_FRACTION row;
 * "inf" where the upper bound is an included infinity), within the bounds, or (automatic != 0) the
 * automatic choice of a KM_PARAM_AUTOMATIC row; both forms are set. On failure KM_EINVAL with a message
 * "AS: ..." (as: how the caller names it, "option -c", "parameter C"). */
km_status km_param_row_parse(const km_param_row *row, const char *as, const char *text, int automatic,
                             double *real, int64_t *integer);

#endif
