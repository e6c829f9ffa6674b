#include "svm/hinge_loss.h"

#include <stdlib.h>

static int by_breakpoint(const void *x, const void *y)
{
    double a = ((const km_hinge *)x)->t, b = ((const km_hinge *)y)->t;
    return (a > b) - (a < b);
}

/* Minimiser of sum_k w_k max(0, +-(b - t_k)): the breakpoint where the slope turns non-negative. */
static double best_bias(km_hinge *terms, size_t count, double fallback)
{
    if (count == 0)
        return fallback;
    qsort(terms, count, sizeof *terms, by_breakpoint);
    double slope = 0;
    for (size_t k = 0; k < count; k++)
        if (!terms[k].up)
            slope -= terms[k].w;
    for (size_t k = 0; k < count; k++) {
        slope += terms[k].w; /* passing t_k: a "down" term stops pulling, an "up" term starts */
        if (slope >= 0)
            return terms[k].t;
    }
    return terms[count - 1].t;
}

double km_refined_hinge_loss(const km_machine_problem *problem, const double *g, double bias, double *best,
                             size_t max_hinges, km_hinges_fn hinges, km_loss_at_fn loss_at)
{
    double at_bias = loss_at(problem, g, bias);
    *best = bias;
    km_hinge *terms = malloc((max_hinges ? max_hinges : 1) * sizeof *terms);
    if (!terms)
        return at_bias; /* the solver's bias is a valid (if not the best) primal point */
    double b = best_bias(terms, hinges(problem, g, terms), bias);
    free(terms);
    double at_b = loss_at(problem, g, b);
    if (!(at_b < at_bias))
        return at_bias;
    *best = b;
    return at_b;
}
