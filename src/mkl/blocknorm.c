/* The generalized block-norm family in Tikhonov (penalised) form, and its Ivanov (constrained)
 * equivalent (Tomioka & Suzuki, "Regularization Strategies and Empirical Bayesian Learning for MKL",
 * eqs. (3)-(6) and Table 1).
 *
 * The paper writes min sum loss + (C_T/2) sum_m (||f_m||^2/d_m + mu h(d_m)), its C_T multiplying the
 * regularizer. kernelmix speaks the SVM's C (the loss weight), C = 1/C_T, and solves
 *   J(f, b) = sum_m g(||f_m||^2) + C sum_i loss_i
 *           = min_{d >= 0} 1/2 sum_m (||f_m||^2/d_m + mu h(d_m)) + C sum_i loss_i.
 * With d fixed this is the SVM on K_d = sum_m d_m K_m with loss weight C; with f fixed the best d is
 * d_m = 1/(2 g'(||f_m||^2)) (km_block_weights), and ||f_m|| = d_m sqrt(a_m), a_m = c'K_m c.
 *
 * Duality gap (derived here): with phi(t) = g(t^2), the Fenchel dual of J is
 *   D(alpha) = lin(alpha) - sum_m phi*(sqrt(a_m)),
 * phi*(t) = t^{p*}/p* for g = t^p/p (p* = p/(p-1); p = 1: 0 for t <= 1, else infinite) and
 * phi*(t) = max(0, t - (1-lambda))^2/(2 lambda) for the elastic net. Any alpha in the SVM's box gives a
 * lower bound, and so does s alpha for s in [0, 1] (lin is linear in alpha for C-SVC and SVR): the
 * power rows use the best s, block 1 (and lambda = 0) the largest s inside phi*'s domain, which makes
 * the bound finite before convergence, and the elastic net s = 1. */
#include <math.h>
#include <stdlib.h>

#include "core/error.h"
#include "mkl/method.h"
#include "mkl/mkl.h"
#include "mkl/theta.h"

/* The block exponent p of the rows with g(x) = x^{p/2}/p: l_q gives 2q/(1+q), block 1 gives 1,
 * uniform 2 (Table 1; the l_q row is Kloft's thesis's block norm of q, Problem II.4). */
static double block_exponent(const km_mkl_params *mkl)
{
    switch (mkl->regularizer) {
    case KM_REG_LQ: return isinf(mkl->reg_param) ? 2.0 : 2.0 * mkl->reg_param / (1.0 + mkl->reg_param);
    case KM_REG_BLOCK1: return 1.0;
    case KM_REG_UNIFORM: return 2.0;
    case KM_REG_BLOCKP: return mkl->reg_param;
    case KM_REG_ELASTICNET: break;
    }
    return NAN;
}

km_status km_tikhonov_resolve(const km_mkl_params *in, km_mkl_params *out)
{
    *out = *in;
    out->solver = KM_MKL_WRAPPER; /* the alternation below is the only solver of this form */
    if (in->shared_weights)
        return km_error(KM_EINVAL, "the Tikhonov form learns one set of kernel weights per machine (no shared weights)");
    int takes_param = in->regularizer == KM_REG_LQ || in->regularizer == KM_REG_BLOCKP;
    if (!takes_param && in->reg_param != 0)
        return km_error(KM_EINVAL, "the %s regularizer takes no parameter (got %g)",
                        in->regularizer == KM_REG_ELASTICNET ? "elastic-net (it takes lambda)"
                        : in->regularizer == KM_REG_BLOCK1    ? "block-1"
                                                              : "uniform",
                        in->reg_param);
    switch (in->regularizer) {
    case KM_REG_LQ:
        out->reg_param = in->reg_param != 0 ? in->reg_param : 2.0;
        if (!(out->reg_param >= 1))
            return km_error(KM_EINVAL, "the l_q regularizer needs q >= 1 (got %g)", out->reg_param);
        break;
    case KM_REG_BLOCKP:
        out->reg_param = in->reg_param != 0 ? in->reg_param : 4.0;
        if (!(out->reg_param > 2) || isinf(out->reg_param))
            return km_error(KM_EINVAL, "the block-p regularizer needs a finite p > 2 (got %g)", out->reg_param);
        break;
    case KM_REG_ELASTICNET:
        if (!(in->lambda >= 0 && in->lambda <= 1))
            return km_error(KM_EINVAL, "elastic-net lambda must be in [0, 1] (got %g)", in->lambda);
        /* lambda = 1 would make d = |f|/|f| undefined for a kernel with f_m = 0 */
        out->lambda = fmin(in->lambda, 1 - 1e-12);
        break;
    case KM_REG_BLOCK1:
    case KM_REG_UNIFORM: break;
    default: return km_error(KM_EINVAL, "unknown block-norm regularizer %d", (int)in->regularizer);
    }
    /* p and p_block name the block norm of the penalty (elastic net: 1, that of its l1 part) */
    out->p_block = in->regularizer == KM_REG_ELASTICNET ? 1.0 : block_exponent(out);
    out->p = in->regularizer == KM_REG_LQ ? out->reg_param
             : out->p_block < 2          ? out->p_block / (2 - out->p_block)
             : out->p_block == 2         ? INFINITY
                                         : NAN;
    if (!(in->gap > 0) || !(in->eps_mkl > 0))
        return km_error(KM_EINVAL, "the MKL tolerances must be positive (gap %g, eps %g)", in->gap, in->eps_mkl);
    if (in->max_outer <= 0)
        return km_error(KM_EINVAL, "max-outer must be positive (got %ld)", in->max_outer);
    return KM_OK;
}

double km_tikhonov_penalty(const km_mkl_params *mkl, size_t M, const double *block_norm)
{
    double sum = 0;
    if (mkl->regularizer == KM_REG_ELASTICNET) {
        for (size_t m = 0; m < M; m++)
            sum += (1.0 - mkl->lambda) * block_norm[m] + 0.5 * mkl->lambda * block_norm[m] * block_norm[m];
        return sum;
    }
    double p = block_exponent(mkl);
    for (size_t m = 0; m < M; m++)
        sum += pow(block_norm[m], p) / p;
    return sum;
}

double km_tikhonov_dual(const km_mkl_params *mkl, size_t M, double lin, const double *a)
{
    double top = 0;
    for (size_t m = 0; m < M; m++)
        top = fmax(top, a[m]);
    if (top == 0)
        return lin;
    if (mkl->regularizer == KM_REG_ELASTICNET && mkl->lambda > 0) {
        double sum = 0;
        for (size_t m = 0; m < M; m++) {
            double excess = (a[m] > 0 ? sqrt(a[m]) : 0.0) - (1.0 - mkl->lambda);
            sum += excess > 0 ? excess * excess / (2.0 * mkl->lambda) : 0.0;
        }
        return lin - sum;
    }
    double p = mkl->regularizer == KM_REG_ELASTICNET ? 1.0 : block_exponent(mkl);
    if (p == 1.0) /* phi* is the indicator of sqrt(a) <= 1: scale alpha into it */
        return fmin(1.0, 1.0 / sqrt(top)) * lin;
    if (!(lin > 0))
        return 0.0; /* the best scaling is s = 0 */
    /* max over s in [0,1] of s lin - s^{q} S/q with q = p/(p-1), S = sum a^{q/2}, in logs (q is large near p = 1) */
    double dual_p = p / (p - 1.0), sum = 0;
    for (size_t m = 0; m < M; m++)
        sum += a[m] > 0 ? exp(0.5 * dual_p * (log(a[m]) - log(top))) : 0.0;
    double log_S = 0.5 * dual_p * log(top) + log(sum);
    double log_s = fmin(0.0, (log(lin) - log_S) / (dual_p - 1.0));
    return exp(log_s) * lin - exp(dual_p * log_s + log_S) / dual_p;
}

static km_block_regularizer block_row(km_mkl_regularizer reg)
{
    switch (reg) {
    case KM_REG_BLOCK1: return KM_BLOCK_ONE;
    case KM_REG_UNIFORM: return KM_BLOCK_UNIFORM;
    case KM_REG_ELASTICNET: return KM_BLOCK_ELASTICNET;
    case KM_REG_BLOCKP: return KM_BLOCK_P_ABOVE_2;
    case KM_REG_LQ: break;
    }
    return KM_BLOCK_LQ;
}

int km_tikhonov_step(const km_mkl_params *mkl, size_t M, const double *a, double *scratch, double *d)
{
    double top = 0;
    for (size_t m = 0; m < M; m++)
        top = fmax(top, a[m]);
    if (top == 0)
        return 0; /* every a_m <= 0: nothing to learn from */
    if (mkl->regularizer == KM_REG_BLOCKP) {
        /* block p > 2: the primal map d = |f|^{2-p} oscillates (log-slope 2 - p < 0;
         * Tomioka & Suzuki eq. (17) make the row a saddle problem); its
         * fixed point at this alpha, |f_m|^{p-1} = sqrt(a_m), gives the dual form
         * d_m = a_m^{(2-p)/(2(p-1))}, with a_m clamped away from 0 (kernelmix's
         * safeguard, as for lp-norm MKL) */
        double p = mkl->reg_param;
        for (size_t m = 0; m < M; m++)
            d[m] = pow(fmax(a[m], 1e-12 * top), (2.0 - p) / (2.0 * (p - 1.0)));
        return 1;
    }
    for (size_t m = 0; m < M; m++)
        scratch[m] = a[m] > 0 ? d[m] * sqrt(a[m]) : 0.0;
    km_block_weights(block_row(mkl->regularizer),
                     mkl->regularizer == KM_REG_ELASTICNET ? mkl->lambda : mkl->reg_param, M, scratch, d);
    double largest = 0;
    for (size_t m = 0; m < M; m++)
        largest = fmax(largest, d[m]);
    for (size_t m = 0; m < M; m++) /* zero weights are absorbing; drop what is numerically zero */
        if (d[m] < 1e-12 * largest)
            d[m] = 0.0;
    return 1;
}

km_status km_mkl_ivanov_form(const km_mkl_params *tikhonov, double C, size_t M, const double *d,
                             km_mkl_params *ivanov, double *C_ivanov, double *theta)
{
    if (tikhonov->method != KM_MKL_TIKHONOV)
        return km_error(KM_EINVAL, "the Ivanov conversion needs a Tikhonov-form solution (method %d)",
                        (int)tikhonov->method);
    if (!(C > 0))
        return km_error(KM_EINVAL, "the Ivanov conversion needs a positive C (got %g)", C);
    double largest = 0;
    for (size_t m = 0; m < M; m++) {
        if (!(d[m] >= 0) || isinf(d[m]))
            return km_error(KM_EINVAL, "kernel weight %zu is not a finite value >= 0 (%g)", m + 1, d[m]);
        largest = fmax(largest, d[m]);
    }
    if (!(largest > 0))
        return km_error(KM_EINVAL, "the Ivanov conversion needs a positive kernel weight");
    *ivanov = *tikhonov;
    ivanov->method = KM_MKL_LP;
    /* theta = s d and C_ivanov = C/s give the same f: K_theta = s K_d and SVM(s K, C/s) = SVM(K, C).
     * s makes theta optimal for the constraint (Kloft's thesis Lemma B.1: the penalised and the constrained
     * form agree where the constraint is active; for the elastic net, derived here: matching the stationarity
     * conditions of (1-lambda) n_m + lambda/2 n_m^2 and of
     * SHOGUN's ((1-l)/2)(sum n)^2 + (l/2) sum n^2 gives s = lambda + (1-lambda)/sum_m n_m, l = lambda/s,
     * with n_m = d_m (1-lambda)/(1 - lambda d_m) from d_m = n_m/((1-lambda) + lambda n_m)). */
    double s = 0;
    switch (tikhonov->regularizer) {
    case KM_REG_LQ:
    case KM_REG_BLOCK1:
    case KM_REG_UNIFORM: {
        /* theta = d/||d||_q, the l_q row with q = p (block 1: q = 1; uniform: q = inf) */
        double q = tikhonov->regularizer == KM_REG_BLOCK1 ? 1.0
                   : tikhonov->regularizer == KM_REG_UNIFORM ? INFINITY
                                                             : tikhonov->reg_param;
        double norm = 0;
        if (isinf(q))
            norm = largest;
        else {
            for (size_t m = 0; m < M; m++)
                norm += pow(d[m] / largest, q);
            norm = largest * pow(norm, 1.0 / q);
        }
        s = 1.0 / norm;
        ivanov->p = q;
        ivanov->p_block = isinf(q) ? 2.0 : 2.0 * q / (1.0 + q);
        break;
    }
    case KM_REG_BLOCKP: {
        /* |f_m| = d_m^{1/(2-p)}; theta_m = |f_m|^{2-p}/||f||_p^{2-p} (dual form of Kloft's thesis Prop. 3.1) */
        double p = tikhonov->reg_param, sum = 0;
        for (size_t m = 0; m < M; m++)
            sum += d[m] > 0 ? pow(d[m], p / (2.0 - p)) : 0.0;
        s = pow(sum, (p - 2.0) / p);
        ivanov->p_block = p;
        ivanov->p = NAN;
        break;
    }
    case KM_REG_ELASTICNET: {
        double lambda = tikhonov->lambda, total = 0;
        for (size_t m = 0; m < M; m++)
            total += d[m] * (1.0 - lambda) / (1.0 - lambda * d[m]);
        s = lambda + (1.0 - lambda) / total;
        ivanov->method = KM_MKL_ELASTICNET;
        ivanov->lambda = lambda / s;
        break;
    }
    default: return km_error(KM_EINVAL, "unknown block-norm regularizer %d", (int)tikhonov->regularizer);
    }
    for (size_t m = 0; m < M; m++)
        theta[m] = s * d[m];
    *C_ivanov = C / s;
    return KM_OK;
}

km_status km_mkl_ivanov(const km_params *tikhonov, size_t M, const double *d, km_params **ivanov, double *theta)
{
    *ivanov = NULL;
    km_params *out = NULL;
    km_mkl_params given = km_mkl_params_of(tikhonov), form;
    km_status st = km_params_copy(tikhonov, &out);
    if (!st)
        st = km_mkl_ivanov_form(&given, tikhonov->C, M, d, &form, &out->C, theta);
    if (!st)
        km_mkl_params_write(&form, out);
    if (st) {
        km_params_free(out);
        return st;
    }
    *ivanov = out;
    return KM_OK;
}

static void describe_ivanov(const km_mkl_description *d, const km_mkl_params *ivanov, double C, const double *theta)
{
    int elasticnet = ivanov->method == KM_MKL_ELASTICNET;
    if (d->json) {
        fprintf(d->out, ", \"ivanov\": {\"method\": \"%s\"", km_describe_name(KM_ENUM_MKL_METHOD, ivanov->method));
        km_describe_json_member(d, "p", ivanov->p);
        km_describe_json_member(d, "p_block", ivanov->p_block);
        if (elasticnet)
            km_describe_json_member(d, "lambda", ivanov->lambda);
        km_describe_json_member(d, "C", C);
        fprintf(d->out, ", \"kernel_weights\": ");
        km_describe_json_array(d, theta, d->M);
        fprintf(d->out, "}");
        return;
    }
    if (elasticnet)
        fprintf(d->out, "    Ivanov form: --mkl elasticnet --lambda %.10g -c %.10g, weights", ivanov->lambda, C);
    else if (isnan(ivanov->p))
        fprintf(d->out, "    Ivanov form: --mkl lp --p-block %.10g -c %.10g, weights", ivanov->p_block, C);
    else
        fprintf(d->out, "    Ivanov form: --mkl lp --p %.10g -c %.10g, weights", ivanov->p, C);
    for (size_t m = 0; m < d->M; m++)
        fprintf(d->out, " %.6g", theta[m]);
    fprintf(d->out, "\n");
}

/* The regularizer, its parameter and the target gap; per machine the Ivanov (constrained) equivalent: the
 * --mkl lp / elasticnet problem with the same decision function, its C and kernel weights. */
static void tikhonov_describe(const km_mkl_description *d)
{
    const km_mkl_params *mkl = d->mkl;
    const char *regularizer = km_describe_name(KM_ENUM_MKL_REGULARIZER, mkl->regularizer);
    if (d->part == KM_DESCRIBE_SETTINGS && d->json) {
        km_describe_json_p(d);
        if (mkl->regularizer == KM_REG_ELASTICNET)
            km_describe_json_member(d, "lambda", mkl->lambda);
        fprintf(d->out, ", \"regularizer\": \"%s\"", regularizer);
        km_describe_json_member(d, "reg_param", mkl->reg_param);
        km_describe_json_solver(d);
    } else if (d->part == KM_DESCRIBE_SETTINGS) {
        fprintf(d->out, "tikhonov MKL, regularizer %s", regularizer);
        if (mkl->regularizer == KM_REG_LQ)
            fprintf(d->out, ", q = %.6g", mkl->reg_param);
        else if (mkl->regularizer == KM_REG_BLOCKP)
            fprintf(d->out, ", p = %.6g", mkl->reg_param);
        else if (mkl->regularizer == KM_REG_ELASTICNET)
            fprintf(d->out, ", lambda = %g", mkl->lambda);
        fprintf(d->out, ", target gap %g\n", mkl->gap);
    } else if (d->part == KM_DESCRIBE_MACHINE) {
        km_mkl_params ivanov;
        double C, *theta = malloc((d->M ? d->M : 1) * sizeof *theta);
        if (theta && !km_mkl_ivanov_form(mkl, d->C, d->M, d->theta, &ivanov, &C, theta))
            describe_ivanov(d, &ivanov, C, theta);
        free(theta);
    }
}

static km_param tikhonov_path_parameter(const km_mkl_params *mkl, const char **title)
{
    *title = mkl->regularizer == KM_REG_ELASTICNET ? "lambda" : "regularizer parameter";
    return mkl->regularizer == KM_REG_ELASTICNET ? KM_PARAM_LAMBDA : KM_PARAM_REG_PARAM;
}

/* d = 1: the uniform sum (Tomioka & Suzuki, Table 1, the uniform row). */
static void tikhonov_start(const km_mkl_params *mkl, size_t M, double *d)
{
    (void)mkl;
    for (size_t m = 0; m < M; m++)
        d[m] = 1.0;
}

const km_mkl_method_entry km_method_tikhonov = {
    .id = KM_MKL_TIKHONOV, .name = "tikhonov",
    .help = "the penalised (Tikhonov) form of a block-norm regularizer (Tomioka & Suzuki)",
    .flags = KM_METHOD_LEARNS_WEIGHTS,
    .params = (const km_param[]){KM_PARAM_REGULARIZER, KM_PARAM_REG_PARAM, KM_PARAM_LAMBDA, KM_PARAM_MKL_GAP,
                                 KM_PARAM_MKL_EPS, KM_PARAM_MKL_MAX_OUTER, KM_PARAM_MKL_MAX_TIME, 0},
    .resolve = km_tikhonov_resolve,
    .start = tikhonov_start,
    .train = km_mkl_tikhonov,
    .describe = tikhonov_describe,
    .path_parameter = tikhonov_path_parameter,
};
