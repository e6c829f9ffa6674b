/* A parameter's value from text as users write it (core/param_row.h: km_param_row_parse): numbers in
 * km_parse_user_number's forms, integers exactly, fractions of exponents, "inf" where the bounds take
 * it, enumeration names. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/number.h"
#include "core/param_row.h"
#include "core/suggest.h"

static int names_infinity(const char *text)
{
    return !strcmp(text, "inf") || !strcmp(text, "infinity");
}

static km_status not_a_number(const char *as, const char *text, km_user_number_status problem)
{
    return km_error(KM_EINVAL, "%s: '%s' is %s", as, text, km_number_problem(problem));
}

/* A number, or a fraction a/b (b nonzero) where the row takes one. */
static km_status parse_real(const km_param_row *row, const char *as, const char *text, double *value)
{
    const char *slash = (row->flags & KM_PARAM_FRACTION) ? strchr(text, '/') : NULL;
    double base, exponent;
    if (!slash) {
        km_user_number_status problem = km_parse_user_number(text, value, &base, &exponent);
        return problem ? not_a_number(as, text, problem) : KM_OK;
    }
    char numerator[64];
    size_t len = (size_t)(slash - text);
    double a, b;
    if (len >= sizeof numerator)
        return not_a_number(as, text, KM_USER_NUMBER_SYNTAX);
    memcpy(numerator, text, len);
    numerator[len] = '\0';
    km_user_number_status problem = km_parse_user_number(numerator, &a, &base, &exponent);
    if (!problem)
        problem = km_parse_user_number(slash + 1, &b, &base, &exponent);
    if (problem)
        return not_a_number(as, text, problem);
    if (b == 0)
        return km_error(KM_EINVAL, "%s: %s: division by zero", as, text);
    if (!isfinite(a / b))
        return km_error(KM_EINVAL, "%s: %s is %s", as, text, km_number_problem(KM_USER_NUMBER_INFINITE));
    if (a / b < row->lower)
        return km_error(KM_EINVAL, "%s: %s is below %g", as, text, row->lower);
    *value = a / b;
    return KM_OK;
}

/* Digits exactly (a seed may need all 63 bits), or an integral value in another form of
 * km_parse_user_number (2^4, 1e3) within int64's range. */
static km_status parse_integer(const char *as, const char *text, int64_t *value)
{
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (end != text && *end == '\0' && errno != ERANGE) {
        *value = v;
        return KM_OK;
    }
    double x, base, exponent;
    km_user_number_status problem = km_parse_user_number(text, &x, &base, &exponent);
    if (problem && problem != KM_USER_NUMBER_SYNTAX)
        return not_a_number(as, text, problem);
    if (problem || x != floor(x))
        return km_error(KM_EINVAL, "%s: '%s' is not an integer", as, text);
    if (!(fabs(x) < 0x1p63))
        return km_error(KM_EINVAL, "%s: %s is out of range", as, text);
    *value = (int64_t)x;
    return KM_OK;
}

static km_status parse_name(const km_param_row *row, const char *as, const char *text, int64_t *value)
{
    const km_name *names = row->names();
    int v;
    if (km_value_of(names, text, &v)) {
        *value = v;
        return KM_OK;
    }
    char phrase[256], hint[96];
    return km_error(KM_EINVAL, "%s: '%s' is not %s%s", as, text, km_names_phrase(names, phrase, sizeof phrase),
                    km_did_you_mean(km_suggest_name(names, text), hint, sizeof hint));
}

static km_status out_of_range(const km_param_row *row, const char *as, const char *text)
{
    return km_error(KM_EINVAL, "%s: %s is out of range %c%g, %g%c", as, text,
                    row->flags & KM_PARAM_LOWER_OPEN ? '(' : '[', row->lower, row->upper,
                    row->flags & KM_PARAM_UPPER_OPEN ? ')' : ']');
}

km_status km_param_row_parse(const km_param_row *row, const char *as, const char *text, int automatic,
                             double *real, int64_t *integer)
{
    if (!text)
        return km_error(KM_EINVAL, "%s: no value", as);
    km_status st;
    if (row->names) {
        if ((st = parse_name(row, as, text, integer)))
            return st;
        *real = (double)*integer;
        return KM_OK;
    }
    if (row->flags & KM_PARAM_INTEGER) {
        if ((st = parse_integer(as, text, integer)))
            return st;
        *real = (double)*integer;
    } else if (names_infinity(text) && row->upper == INFINITY && !(row->flags & KM_PARAM_UPPER_OPEN)) {
        *real = INFINITY;
    } else {
        if ((st = parse_real(row, as, text, real)))
            return st;
        *integer = 0;
    }
    int is_automatic = (row->flags & KM_PARAM_AUTOMATIC) && *real == row->default_value;
    return km_param_row_within(row, *real) && (automatic || !is_automatic) ? KM_OK : out_of_range(row, as, text);
}
