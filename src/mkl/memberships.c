/* Soft memberships and the average-evenness bisection (memberships.h). */
#include "mkl/memberships.h"

#include <math.h>
#include <stdlib.h>

#include "core/double_order.h"
#include "core/error.h"

void km_membership_gaps(size_t n, size_t l, double *e)
{
    for (size_t i = 0; i < n; i++) {
        double *row = e + i * l, low = INFINITY;
        for (size_t j = 0; j < l; j++)
            low = fmin(low, row[j]);
        for (size_t j = 0; j < l; j++)
            row[j] = isinf(row[j]) ? INFINITY : row[j] - low; /* an empty cluster is infinitely far */
    }
}

/* exp(-tau delta) with a zero gap a full weight at any tau and an empty cluster (infinite gap) none. */
static double weight(double tau, double delta) { return delta == 0.0 ? 1.0 : isinf(delta) ? 0.0 : exp(-tau * delta); }

void km_memberships(size_t n, size_t l, const double *delta, double tau, double *c)
{
    for (size_t i = 0; i < n; i++) {
        const double *d = delta + i * l;
        double *row = c + i * l, sum = 0;
        size_t first_zero = l;
        for (size_t j = 0; j < l; j++) {
            row[j] = weight(tau, d[j]);
            sum += row[j];
            if (d[j] == 0.0 && first_zero == l)
                first_zero = j;
        }
        if (isinf(tau)) { /* hard: the nearest centre only, ties to the smallest cluster */
            for (size_t j = 0; j < l; j++)
                row[j] = j == first_zero ? 1.0 : 0.0;
            continue;
        }
        for (size_t j = 0; j < l; j++)
            row[j] /= sum;
    }
}

double km_average_evenness(size_t n, size_t l, const double *delta, double tau)
{
    double sum = 0;
    for (size_t k = 0; k < n * l; k++)
        sum += weight(tau, delta[k]);
    return sum / ((double)n * (double)l);
}

km_status km_tau_for_evenness(size_t n, size_t l, const double *delta, double target, double *tau)
{
    if (!(target > 0 && target <= 1))
        return km_error(KM_EINVAL, "the average evenness must be in (0, 1] (got %g)", target);
    *tau = 0;
    if (target >= 1)
        return KM_OK;
    *tau = INFINITY;
    if (target <= km_average_evenness(n, l, delta, INFINITY) + 1e-12)
        return KM_OK;
    /* start at 1 / median of the positive finite gaps, doubled until AE falls below the target */
    double *positive = malloc(n * l * sizeof *positive);
    if (!positive)
        return km_error_nomem("the membership bisection");
    size_t count = 0;
    for (size_t k = 0; k < n * l; k++)
        if (delta[k] > 0 && isfinite(delta[k]))
            positive[count++] = delta[k];
    if (count == 0) { /* every gap 0 or infinite: AE does not depend on tau */
        free(positive);
        return KM_OK;
    }
    qsort(positive, count, sizeof *positive, km_double_ascending);
    double lo = 0, hi = 1.0 / positive[count / 2];
    free(positive);
    while (km_average_evenness(n, l, delta, hi) > target) {
        lo = hi;
        hi *= 2;
    }
    for (int step = 0; step < 200 && hi - lo > 1e-12 * hi; step++) {
        double mid = 0.5 * (lo + hi);
        if (km_average_evenness(n, l, delta, mid) > target)
            lo = mid;
        else
            hi = mid;
    }
    *tau = 0.5 * (lo + hi);
    return KM_OK;
}
