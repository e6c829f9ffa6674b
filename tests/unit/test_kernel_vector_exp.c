/* Vectorised exponentials (kernel/vector_exp.h) and the RBF values computed with them agree with the
 * scalar formula exp(-gamma ||x - x'||^2) to 1e-13 relative, over arguments from 0 down to -700 and
 * array lengths that exercise the vector loops' remainders; values below 3.4e-308 are 0; a value
 * does not depend on where in an array it is computed; squares of exponentials are exp(2a) to 1e-13. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "kernel/kernel_eval.h"
#include "kernel/vector_exp.h"

#define N 1001

static int close_relative(double a, double b, double tol)
{
    return fabs(a - b) <= tol * fabs(b);
}

static void check_arrays(void)
{
    static double x[N], out[N], acc[N];
    for (size_t k = 0; k < N; k++)
        x[k] = -700.0 * (double)k / (N - 1) + 0.37 * sin((double)k);   /* [-700, 0.37] */
    for (size_t len = 0; len <= 17; len++) {   /* remainders of 2-, 4- and 8-wide loops */
        km_vexp(x + 3, 1.0, len, out);
        for (size_t k = 0; k < len; k++)
            CHECK(close_relative(out[k], exp(x[3 + k]), 1e-13));
    }
    km_vexp(x, 0.25, N, out);
    memcpy(acc, out, sizeof acc);
    km_vsquare(acc, N, acc);   /* in place: exp(0.5 x) */
    int bad = 0, bad_square = 0;
    for (size_t k = 0; k < N; k++) {
        bad += !close_relative(out[k], exp(0.25 * x[k]), 1e-13);
        bad_square += !close_relative(acc[k], exp(0.5 * x[k]), 1e-13);
    }
    CHECK(bad == 0);
    CHECK(bad_square == 0);
    /* squares below 3.4e-308 are 0, as km_vexp's values there are */
    double small[3] = {1e-154, 2e-154, 1.0};
    km_vsquare(small, 3, small);
    CHECK(small[0] == 0.0 && close_relative(small[1], 4e-308, 1e-15) && small[2] == 1.0);
    /* in place; exp(0) and exp of a tiny argument are exactly 1; results below 3.4e-308 (arguments
     * below about -707.97, where exp is tiny, subnormal or 0) are exactly 0 */
    double y[5] = {0.0, -1e-300, -707.9, -708.0, -745.2};
    km_vexp(y, 1.0, 5, y);
    CHECK(y[0] == 1.0);
    CHECK(y[1] == 1.0);
    CHECK(close_relative(y[2], exp(-707.9), 1e-13));
    CHECK(y[3] == 0.0);
    CHECK(y[4] == 0.0);
}

/* A value does not depend on its position in the array, on the length asked for, or on the output
 * being the input (bitwise). */
static void check_position_independence(void)
{
    static double x[N], whole[N], part[N];
    for (size_t k = 0; k < N; k++)
        x[k] = -30.0 * sin(0.37 * (double)k) * sin(0.37 * (double)k);
    km_vexp(x, 1.0, N, whole);
    int differs = 0;
    for (size_t start = 0; start < 17; start++) {
        for (size_t len = 1; start + len <= N; len += 1 + len / 3) {
            km_vexp(x + start, 1.0, len, part);
            differs += memcmp(part, whole + start, len * sizeof *part) != 0;
            for (size_t k = 0; k < len; k++)
                part[k] = x[start + k];
            km_vexp(part, 1.0, len, part);
            differs += memcmp(part, whole + start, len * sizeof *part) != 0;
        }
    }
    CHECK(differs == 0);
}

static void check_rbf(void)
{
    /* dot products and squared norms of points on a line: x_k = k/10, x_i = 0.35 */
    static double dot[N], sqnorm[N], out[N];
    double xi = 0.35;
    for (size_t k = 0; k < N; k++) {
        double xk = (double)k / 10.0;
        dot[k] = xk * xi;
        sqnorm[k] = xk * xk;
    }
    km_kernel rbf = {.type = KM_KERNEL_RBF, .gamma = 0.7};
    km_kernel_from_dots(&rbf, dot, sqnorm, NULL, xi * xi, N, out);
    int bad = 0;
    for (size_t k = 0; k < N; k++) {
        double d2 = sqnorm[k] + xi * xi - 2.0 * dot[k];
        double expected = exp(-0.7 * (d2 > 0 ? d2 : 0.0));
        bad += !(close_relative(out[k], expected, 1e-13) || (expected < 3.4e-308 && out[k] == 0.0));
    }
    CHECK(bad == 0);
    CHECK_NEAR(out[3], exp(-0.7 * 0.05 * 0.05), 1e-15);   /* x_3 = 0.3: distance 0.05 */
}

KM_TEST_CASE(arrays) { check_arrays(); }
KM_TEST_CASE(position_independence) { check_position_independence(); }
KM_TEST_CASE(rbf) { check_rbf(); }
