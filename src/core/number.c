#include "core/number.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

int km_parse_user_number(const char *s, double *value, double *base, double *exponent)
{
    char *end;
    errno = 0;
    double x = strtod(s, &end);
    if (end == s || errno == ERANGE)
        return 0;
    double b = NAN, e = NAN;
    if (*end == '^') {
        const char *power = end + 1;
        e = strtod(power, &end);
        if (end == power || *end || !(x > 0))
            return 0;
        b = x;
        x = pow(b, e);
    } else if (*end) {
        return 0;
    }
    if (!isfinite(x))
        return 0;
    *value = x;
    *base = b;
    *exponent = e;
    return 1;
}
