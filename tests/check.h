/* Minimal assertion helpers for the C unit tests: each failing check prints file:line and the values,
 * and the test's exit status is the number of failures (ctest reports non-zero as failed). */
#ifndef KM_TEST_CHECK_H
#define KM_TEST_CHECK_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static int check_failures;

#define CHECK(cond)                                                                     \
    do {                                                                                \
        if (!(cond)) {                                                                  \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);    \
            check_failures++;                                                           \
        }                                                                               \
    } while (0)

/* |a - b| <= tol * max(1, |b|)  (relative for large values, absolute near zero) */
#define CHECK_NEAR(a, b, tol)                                                                   \
    do {                                                                                        \
        double check_a_ = (a), check_b_ = (b), check_t_ = (tol);                                \
        double check_s_ = fabs(check_b_) > 1.0 ? fabs(check_b_) : 1.0;                          \
        if (!(fabs(check_a_ - check_b_) <= check_t_ * check_s_)) {                              \
            fprintf(stderr, "%s:%d: CHECK_NEAR failed: %s = %.17g, %s = %.17g, tol %g\n",       \
                    __FILE__, __LINE__, #a, check_a_, #b, check_b_, check_t_);                  \
            check_failures++;                                                                   \
        }                                                                                       \
    } while (0)

#define CHECK_STATUS(call, expected)                                                            \
    do {                                                                                        \
        int check_st_ = (int)(call);                                                            \
        if (check_st_ != (int)(expected)) {                                                     \
            fprintf(stderr, "%s:%d: %s returned %d, expected %d (%s)\n", __FILE__, __LINE__,    \
                    #call, check_st_, (int)(expected), km_last_error());                        \
            check_failures++;                                                                   \
        }                                                                                       \
    } while (0)

#define CHECK_OK(call) CHECK_STATUS(call, KM_OK)

#define CHECK_DONE()                                                                            \
    do {                                                                                        \
        if (check_failures)                                                                     \
            fprintf(stderr, "%d check(s) failed\n", check_failures);                            \
        return check_failures ? 1 : 0;                                                          \
    } while (0)

#endif
