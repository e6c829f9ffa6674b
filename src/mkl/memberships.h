/* Soft cluster memberships of localized MKL (Lei, Binder, Dogan & Kloft, "Localized Multiple Kernel
 * Learning - A Convex Approach", Eq. (11)): c_j(x) proportional to exp(-tau d^2(x, S_j)), from the
 * kernel k-means scores e_j(x) = d^2(x, S_j) - k_0(x, x) (kernel_kmeans.h). With the gaps
 * Delta_j(x) = e_j(x) - min_j' e_j'(x) >= 0 the shared term cancels:
 *     c_j(x) = exp(-tau Delta_j(x)) / sum_j' exp(-tau Delta_j'(x)),
 * which cannot overflow (the denominator is at least 1). tau = 0 gives 1/l everywhere, tau = infinity
 * the one-hot row of the nearest centre (ties: the smallest cluster).
 * The average evenness AE(tau) = (1/(n l)) sum_i sum_j exp(-tau Delta_ij) falls strictly from 1 at
 * tau = 0 to (number of ties)/(n l) at infinity; the user gives AE and tau follows by bisection. */
#ifndef KM_MKL_MEMBERSHIPS_H
#define KM_MKL_MEMBERSHIPS_H

#include <stddef.h>

#include "kernelmix.h"

/* In place: the scores e (n x l) become the gaps Delta (n x l). */
void km_membership_gaps(size_t n, size_t l, double *e);

/* c (n x l) from the gaps and tau >= 0 (INFINITY: hard). Rows sum to 1. */
void km_memberships(size_t n, size_t l, const double *delta, double tau, double *c);

/* AE(tau) of the gaps (tau = INFINITY: the fraction of zero gaps). */
double km_average_evenness(size_t n, size_t l, const double *delta, double tau);

/* The tau with AE(tau) = target (to 1e-12 relative in tau): 0 for target >= 1, INFINITY for targets
 * at or below AE(infinity). KM_EINVAL for a target outside (0, 1]. */
km_status km_tau_for_evenness(size_t n, size_t l, const double *delta, double target, double *tau);

#endif
