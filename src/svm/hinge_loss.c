#include "svm/hinge_loss.h"

#include <stdlib.h>

static void swap_terms(km_hinge *a, km_hinge *b)
{
    km_hinge t = *a;
    *a = *b;
    *b = t;
}

static double median_of_three(double a, double b, double c)
{
    return a < b ? (b < c ? b : a < c ? c : a) : (a < c ? a : b < c ? c : b);
}

/* The smallest breakpoint t whose terms with t_k <= t weigh at least need together (the largest
 * breakpoint when none does): a weighted quantile by selection, in expected linear time. Each round
 * splits terms[lo, hi) around a pivot into the breakpoints below, equal to and above it and keeps
 * the part that holds the answer; below_weight is the weight of the terms left of lo. */
static double weighted_quantile(km_hinge *terms, size_t count, double need)
{
    size_t lo = 0, hi = count;
    double below_weight = 0;
    while (hi - lo > 1) {
        double pivot = median_of_three(terms[lo].t, terms[lo + (hi - lo) / 2].t, terms[hi - 1].t);
        size_t less = lo, more = hi; /* [lo, less) < pivot, [less, k) == pivot, [more, hi) > pivot */
        double less_weight = 0, equal_weight = 0;
        for (size_t k = lo; k < more;) {
            if (terms[k].t < pivot) {
                less_weight += terms[k].w;
                swap_terms(&terms[k++], &terms[less++]);
            } else if (terms[k].t > pivot) {
                swap_terms(&terms[k], &terms[--more]);
            } else {
                equal_weight += terms[k++].w;
            }
        }
        if (less > lo && below_weight + less_weight >= need) {
            hi = less;
        } else if (more == hi || below_weight + less_weight + equal_weight >= need) {
            return pivot;
        } else {
            below_weight += less_weight + equal_weight;
            lo = more;
        }
    }
    return terms[lo].t;
}

/* Minimiser of sum_k w_k max(0, +-(b - t_k)): the breakpoint where the slope turns non-negative. The
 * slope is -(the weight of the "down" terms) left of every breakpoint and grows by w_k past t_k (a
 * "down" term stops pulling, an "up" term starts), so that breakpoint is the weighted quantile at
 * the "down" terms' weight. */
static double best_bias(km_hinge *terms, size_t count, double fallback)
{
    if (count == 0)
        return fallback;
    double down_weight = 0;
    for (size_t k = 0; k < count; k++)
        if (!terms[k].up)
            down_weight += terms[k].w;
    return weighted_quantile(terms, count, down_weight);
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
