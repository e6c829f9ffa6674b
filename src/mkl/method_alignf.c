/* Alignment maximisation (Rostamizadeh's thesis §3.3.1): the weights whose combination has the largest
 * centred alignment with yy'. alignf (Prop. 3.3) over mu >= 0: v* = argmin_{v >= 0} v'Mv - 2 v'a, an
 * exact non-negative quadratic program on M x M (mkl/nnls.h), mu = v* / sum_k v*_k. alignf-linear (Prop. 3.2)
 * without the sign constraint, mu = M^-1 a, which can be negative (the thesis' claim that it is not,
 * §3.3.1, does not follow from the proof): such weights are refused, since the combination is then no
 * kernel. Both then train the machine once (mkl/two_stage.h). */
#include <stdlib.h>

#include "core/error.h"
#include "mkl/method.h"
#include "mkl/nnls.h"
#include "mkl/two_stage.h"

typedef km_status (*solve_fn)(size_t M, const double *gram, const double *a, double *v);

static km_status train_with(const km_mkl_problem *problem, km_mkl_result *result, solve_fn solve)
{
    km_alignment_stats stats;
    km_status st = km_two_stage_stats(problem, 1, &stats);
    if (st)
        return st;
    double *v = malloc(stats.M * sizeof *v);
    if (!v)
        st = km_error_nomem("kernel weights");
    if (!st)
        st = solve(stats.M, stats.gram, stats.a, v);
    for (size_t k = 0; !st && k < stats.M; k++)
        if (v[k] < 0)
            st = km_error(KM_EINVAL, "alignf-linear gives kernel %zu the negative weight %g: the combination is no "
                          "kernel (use alignf, which constrains the weights to be non-negative)", k + 1, v[k]);
    if (!st)
        st = km_two_stage_train(problem, v, result);
    free(v);
    km_alignment_stats_free(&stats);
    return st;
}

static km_status alignf_train(const km_mkl_problem *problem, km_mkl_result *result)
{
    return train_with(problem, result, km_nonnegative_qp);
}

static km_status alignf_linear_train(const km_mkl_problem *problem, km_mkl_result *result)
{
    return train_with(problem, result, km_alignf_linear_solve);
}

const km_mkl_method_entry km_method_alignf = {
    .id = KM_MKL_ALIGNF,
    .learns_weights = 1,
    .resolve = km_alignment_methods_resolve,
    .train = alignf_train,
};

const km_mkl_method_entry km_method_alignf_linear = {
    .id = KM_MKL_ALIGNF_LINEAR,
    .learns_weights = 1,
    .resolve = km_alignment_methods_resolve,
    .train = alignf_linear_train,
};
