/* km_parse_user_number, the parser of every numeric option and kernel-spec value: each form is read
 * to strtod's and pow's value, and every text that is not a usable number says why (not a number,
 * not finite, subnormal, a power with a non-positive base), at the boundaries of double's range. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "check.h"
#include "core/number.h"

static km_user_number_status parse(const char *text, double *value, double *base)
{
    double exponent;
    *value = -12345;
    *base = -12345;
    return km_parse_user_number(text, value, base, &exponent);
}

KM_TEST_CASE(values)
{
    double v, base;
    CHECK(parse("0.125", &v, &base) == KM_USER_NUMBER_OK && v == 0.125 && isnan(base));
    CHECK(parse("2^-3", &v, &base) == KM_USER_NUMBER_OK && v == 0.125 && base == 2);
    CHECK(parse("-0", &v, &base) == KM_USER_NUMBER_OK && v == 0);
    CHECK(parse("0e5", &v, &base) == KM_USER_NUMBER_OK && v == 0);
    CHECK(parse("1.7976931348623157e308", &v, &base) == KM_USER_NUMBER_OK && v == DBL_MAX);
    CHECK(parse("2.2250738585072014e-308", &v, &base) == KM_USER_NUMBER_OK && v == DBL_MIN);
    CHECK(parse("2^-1022", &v, &base) == KM_USER_NUMBER_OK && v == DBL_MIN);
}

KM_TEST_CASE(problems)
{
    static const struct { const char *text; km_user_number_status why; } cases[] = {
        {"", KM_USER_NUMBER_SYNTAX},         {"1x", KM_USER_NUMBER_SYNTAX},
        {"nan", KM_USER_NUMBER_SYNTAX},      {"2^", KM_USER_NUMBER_SYNTAX},
        {"^3", KM_USER_NUMBER_SYNTAX},       {"2^3^4", KM_USER_NUMBER_SYNTAX},
        {"2^nan", KM_USER_NUMBER_SYNTAX},    {"inf", KM_USER_NUMBER_INFINITE},
        {"-inf", KM_USER_NUMBER_INFINITE},   {"1e309", KM_USER_NUMBER_INFINITE},
        {"-1e309", KM_USER_NUMBER_INFINITE}, {"2^1024", KM_USER_NUMBER_INFINITE},
        {"1e-320", KM_USER_NUMBER_SUBNORMAL}, {"-1e-320", KM_USER_NUMBER_SUBNORMAL},
        {"1e-400", KM_USER_NUMBER_SUBNORMAL}, {"2^-1023", KM_USER_NUMBER_SUBNORMAL},
        {"2^-2000", KM_USER_NUMBER_SUBNORMAL}, {"0x1p-1030", KM_USER_NUMBER_SUBNORMAL},
        {"0^1", KM_USER_NUMBER_BASE},        {"-2^2", KM_USER_NUMBER_BASE},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        double v, base;
        km_user_number_status why = parse(cases[k].text, &v, &base);
        if (why != cases[k].why)
            fprintf(stderr, "'%s': status %d, expected %d\n", cases[k].text, (int)why, (int)cases[k].why);
        CHECK(why == cases[k].why);
        CHECK(v == -12345 && base == -12345);   /* nothing written */
        CHECK(strlen(km_number_problem(why)) > 0 && strcmp(km_number_problem(why), km_number_problem(KM_USER_NUMBER_OK)));
    }
}
