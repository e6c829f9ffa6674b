/* Independent alignment (Rostamizadeh's thesis Eq. 3.5): mu_k = rho(K_k, yy'), the centred alignment
 * of each kernel alone; and align-q (Prop. 3.1): max <K_mu, yy'>_F subject to ||mu||_q <= Lambda, q > 1,
 * whose maximiser is mu_k proportional to b_k^{1/(q-1)} with b_k = <K_kc, yy'>_F >= 0 (q = 2 on
 * Frobenius-normalized kernels is align). Both then train the machine once (mkl/two_stage.h). */
#include <math.h>

#include "mkl/method.h"
#include "mkl/two_stage.h"

/* On rank-1 kernels rho = corr(x_k, y)^2; --rank1-weight corr takes |corr| instead (the weights
 * "proportional to the correlation" with which the thesis describes its Fig. 2.2). */
static km_status align_weights(const km_mkl_params *mkl, const km_alignment_stats *s, double *mu)
{
    int correlation = s->rank1 && mkl->rank1_weight == KM_RANK1_WEIGHT_CORR;
    for (size_t k = 0; k < s->M; k++) {
        double rho = km_alignment_rho(s, k);
        mu[k] = rho > 0 ? rho : 0.0; /* >= 0 for PSD kernels (Eq. 2.40) up to rounding */
        if (correlation)
            mu[k] = sqrt(mu[k]);
    }
    return KM_OK;
}

static km_status align_q_weights(const km_mkl_params *mkl, const km_alignment_stats *s, double *mu)
{
    for (size_t k = 0; k < s->M; k++)
        mu[k] = s->a[k] > 0 ? pow(s->a[k], 1.0 / (mkl->align_q - 1.0)) : 0.0;
    return KM_OK;
}

static km_status align_train(const km_mkl_problem *problem, km_mkl_result *result)
{
    return km_two_stage_learn(problem, 0, align_weights, result);
}

static km_status align_q_train(const km_mkl_problem *problem, km_mkl_result *result)
{
    return km_two_stage_learn(problem, 0, align_q_weights, result);
}

const km_mkl_method_entry km_method_align = {
    .id = KM_MKL_ALIGN, .name = "align",
    .help = "weights from the centred alignment of each kernel with the labels (Cortes, Mohri & "
            "Rostamizadeh), then one training of the task on the combination",
    .flags = KM_METHOD_LEARNS_WEIGHTS | KM_METHOD_ALIGNMENT,
    .params = (const km_param[]){KM_PARAM_MKL_RADIUS, KM_PARAM_RANK1_WEIGHT, KM_PARAM_MKL_MAX_TIME, 0},
    .resolve = km_alignment_methods_resolve,
    .train = align_train,
    .describe = km_mkl_describe_alignment,
};

static void align_q_describe(const km_mkl_description *d)
{
    km_mkl_describe_alignment_head(d);
    if (d->part != KM_DESCRIBE_SETTINGS)
        return;
    if (d->json)
        km_describe_json_member(d, "align_q", d->mkl->align_q);
    else
        fprintf(d->out, ", q = %.6g\n", d->mkl->align_q);
}

const km_mkl_method_entry km_method_align_q = {
    .id = KM_MKL_ALIGN_Q, .name = "align-q",
    .alias = "alignq",
    .help = "weights maximising the alignment of the combination under ||mu||_q <= 1 (Cortes, Mohri & "
            "Rostamizadeh), then one training of the task",
    .flags = KM_METHOD_LEARNS_WEIGHTS | KM_METHOD_ALIGNMENT,
    .params = (const km_param[]){KM_PARAM_MKL_RADIUS, KM_PARAM_ALIGN_Q, KM_PARAM_MKL_MAX_TIME, 0},
    .resolve = km_alignment_methods_resolve,
    .train = align_q_train,
    .describe = align_q_describe,
};
