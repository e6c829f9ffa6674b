/* The non-negative quadratic program of alignf (Rostamizadeh's thesis Prop. 3.3):
 * v* = argmin_{v >= 0} v'Mv - 2 v'a for a symmetric positive semi-definite M x M matrix, solved exactly by
 * Lawson and Hanson's active-set method ("Solving Least Squares Problems", ch. 23) on the quadratic
 * form: the free set grows by the most violated gradient component, each trial point solves the
 * free block M_FF s_F = a_F by Cholesky, and steps back to the boundary when a free component would
 * turn negative. Ends at the KKT point v >= 0, Mv - a >= 0, v_k (Mv - a)_k = 0. */
#ifndef KM_MKL_NNLS_H
#define KM_MKL_NNLS_H

#include <stddef.h>

#include "kernelmix.h"

/* v: M values out. KM_ENOTCONV when the active set cycles (more than 3M + 10 changes). */
km_status km_nonnegative_qp(size_t M, const double *gram, const double *a, double *v);

/* The unconstrained maximiser of alignf-linear (Prop. 3.2): M^+ a with the pseudo-inverse of M from its
 * eigendecomposition (LAPACKE dsyevd), eigenvalues below 1e-12 of the largest dropped. */
km_status km_alignf_linear_solve(size_t M, const double *gram, const double *a, double *v);

#endif
