/* The one parser of numbers as users write them: NUMBER (strtod's syntax) or BASE^EXPONENT (LIBSVM's
 * grid habit, e.g. 2^-5), for kernel specs and every numeric command-line option. */
#ifndef KM_CORE_NUMBER_H
#define KM_CORE_NUMBER_H

/* Why a text is not a usable number (0: it is one). */
typedef enum km_user_number_status {
    KM_USER_NUMBER_OK = 0,
    KM_USER_NUMBER_SYNTAX,       /* not a number at all (or NaN) */
    KM_USER_NUMBER_INFINITE,     /* "inf", or beyond the largest double */
    KM_USER_NUMBER_SUBNORMAL,    /* nonzero but below the smallest positive normal double (or rounded to 0) */
    KM_USER_NUMBER_BASE          /* BASE^EXPONENT with a base that is not positive */
} km_user_number_status;

/* Parses all of s: *value receives the finite number; for the power form *base and *exponent receive
 * its parts (base > 0), for a plain number *base is NAN. Returns why s is not such a number (nothing
 * written then). A written zero ("0", "0e5") is a number; a nonzero value that rounds below
 * DBL_MIN is KM_USER_NUMBER_SUBNORMAL. */
km_user_number_status km_parse_user_number(const char *s, double *value, double *base, double *exponent);

/* What the status says of a text, for "OPTION: TEXT is ..." messages: "not a number", "beyond the
 * largest double (1.8e308)", ... */
const char *km_number_problem(km_user_number_status status);

#endif
