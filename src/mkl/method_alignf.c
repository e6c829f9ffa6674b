/* Alignment maximisation (Rostamizadeh's thesis §3.3.1): the weights whose combination has the largest
 * centred alignment with yy'. alignf (Prop. 3.3) over mu >= 0: v* = argmin_{v >= 0} v'Mv - 2 v'a, an
 * exact non-negative quadratic program on M x M (mkl/nnls.h), mu = v* / sum_k v*_k. alignf-linear (Prop. 3.2)
 * without the sign constraint, mu = M^-1 a, which can be negative (the thesis' claim that it is not,
 * §3.3.1, does not follow from the proof): such weights are refused, since the combination is then no
 * kernel. Both then train the machine once (mkl/two_stage.h). */
#include "mkl/method.h"
#include "mkl/nnls.h"
#include "mkl/two_stage.h"

static km_status alignf_weights(const km_mkl_params *mkl, const km_alignment_stats *s, double *v)
{
    (void)mkl;
    return km_nonnegative_qp(s->M, s->gram, s->a, v);
}

/* negative weights are refused by km_two_stage_learn */
static km_status alignf_linear_weights(const km_mkl_params *mkl, const km_alignment_stats *s, double *v)
{
    (void)mkl;
    return km_alignf_linear_solve(s->M, s->gram, s->a, v);
}

static km_status alignf_train(const km_mkl_problem *problem, km_mkl_result *result)
{
    return km_two_stage_learn(problem, 1, alignf_weights, result);
}

static km_status alignf_linear_train(const km_mkl_problem *problem, km_mkl_result *result)
{
    return km_two_stage_learn(problem, 1, alignf_linear_weights, result);
}

const km_mkl_method_entry km_method_alignf = {
    .id = KM_MKL_ALIGNF, .name = "alignf",
    .help = "weights >= 0 maximising the centred alignment of the combination with the labels "
            "(Cortes, Mohri & Rostamizadeh), then one training of the task",
    .flags = KM_METHOD_LEARNS_WEIGHTS | KM_METHOD_ALIGNMENT,
    .params = (const km_param[]){KM_PARAM_MKL_RADIUS, KM_PARAM_MKL_MAX_TIME, 0},
    .resolve = km_alignment_methods_resolve,
    .train = alignf_train,
    .describe = km_mkl_describe_alignment,
};

const km_mkl_method_entry km_method_alignf_linear = {
    .id = KM_MKL_ALIGNF_LINEAR, .name = "alignf-linear",
    .help = "alignf on the kernels' uncentred alignment, a linear program, then one training of the "
            "task",
    .flags = KM_METHOD_LEARNS_WEIGHTS | KM_METHOD_ALIGNMENT,
    .params = (const km_param[]){KM_PARAM_MKL_RADIUS, KM_PARAM_MKL_MAX_TIME, 0},
    .resolve = km_alignment_methods_resolve,
    .train = alignf_linear_train,
    .describe = km_mkl_describe_alignment,
};
