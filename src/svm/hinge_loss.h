/* Losses that are sums of hinges in the bias b (C-SVC, epsilon-SVR): the bias minimising the primal
 * loss at fixed decision values g, found exactly over the hinges' breakpoints. Certificates use it:
 * the solver's bias is only optimal at the solver's tolerance, and a better bias only lowers P. */
#ifndef KM_SVM_HINGE_LOSS_H
#define KM_SVM_HINGE_LOSS_H

#include <stddef.h>

#include "svm/machine.h"

/* One hinge term w max(0, b - t) (up) or w max(0, t - b) (down). */
typedef struct km_hinge {
    double t, w;
    int up;
} km_hinge;

/* Writes the hinges of the loss at decision values g + b into out; returns their number. */
typedef size_t (*km_hinges_fn)(const km_machine_problem *problem, const double *g, km_hinge *out);
/* The loss at decision values g + b. */
typedef double (*km_loss_at_fn)(const km_machine_problem *problem, const double *g, double b);

/* min(L(b*), L(bias)) with b* the minimiser over the breakpoints of the at most max_hinges hinges
 * (L(bias) when no memory is left for them); *best_bias receives the bias of the returned loss. */
double km_refined_hinge_loss(const km_machine_problem *problem, const double *g, double bias, double *best_bias,
                             size_t max_hinges, km_hinges_fn hinges, km_loss_at_fn loss_at);

#endif
