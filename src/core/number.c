#include "core/number.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>

/* A finite value, or why not: strtod and pow report overflow and underflow (ERANGE, or a zero or
 * subnormal result of nonzero parts). */
static km_user_number_status classify(double x, int range_error, int nonzero)
{
    if (isnan(x))
        return KM_USER_NUMBER_SYNTAX;
    if (isinf(x) || (range_error && fabs(x) > 1))
        return KM_USER_NUMBER_INFINITE;
    if (nonzero && fabs(x) < DBL_MIN)
        return KM_USER_NUMBER_SUBNORMAL;
    return KM_USER_NUMBER_OK;
}

km_user_number_status km_parse_user_number(const char *s, double *value, double *base, double *exponent)
{
    char *end;
    errno = 0;
    double x = strtod(s, &end);
    if (end == s)
        return KM_USER_NUMBER_SYNTAX;
    /* a nonzero mantissa digit before the exponent marks a nonzero number */
    int nonzero = 0;
    for (const char *c = s; c < end && *c != 'e' && *c != 'E'; c++)
        nonzero |= *c >= '1' && *c <= '9';
    km_user_number_status st = classify(x, errno == ERANGE, nonzero);
    double b = NAN, e = NAN;
    if (*end == '^') {
        const char *power = end + 1;
        errno = 0;
        e = strtod(power, &end);
        if (end == power || *end || isnan(e))
            return KM_USER_NUMBER_SYNTAX;
        if (st)
            return st;
        if (!(x > 0))
            return KM_USER_NUMBER_BASE;
        b = x;
        errno = 0;
        x = pow(b, e);
        st = classify(x, errno == ERANGE, 1);
    } else if (*end) {
        return KM_USER_NUMBER_SYNTAX;
    }
    if (st)
        return st;
    *value = x;
    *base = b;
    *exponent = e;
    return KM_USER_NUMBER_OK;
}

const char *km_number_problem(km_user_number_status status)
{
    switch (status) {
    case KM_USER_NUMBER_OK: return "a number";
    case KM_USER_NUMBER_INFINITE: return "not finite (beyond the largest double, about 1.8e308)";
    case KM_USER_NUMBER_SUBNORMAL:
        return "below the smallest positive normal double, about 2.2e-308 (subnormal or 0 after rounding)";
    case KM_USER_NUMBER_BASE: return "a power BASE^EXPONENT whose base is not positive";
    default: return "not a number";
    }
}
