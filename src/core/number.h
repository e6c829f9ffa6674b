/* The one parser of numbers as users write them: NUMBER (strtod's syntax) or BASE^EXPONENT (LIBSVM's
 * grid habit, e.g. 2^-5), for kernel specs and every numeric command-line option. */
#ifndef KM_CORE_NUMBER_H
#define KM_CORE_NUMBER_H

/* Parses all of s: *value receives the finite number; for the power form *base and *exponent receive
 * its parts (base > 0), for a plain number *base is NAN. Returns 0 (nothing written) when s is not
 * such a number or its value is not finite. */
int km_parse_user_number(const char *s, double *value, double *base, double *exponent);

#endif
