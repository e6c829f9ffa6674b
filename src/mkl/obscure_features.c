/* OBSCURE on explicit features (mkl/obscure.h): where every kernel is low-rank, K^j(x_i, x_k) =
 * s_ji s_jk <phi_ji, phi_jk> (kernel/feature_block.h), the learner keeps the blocks of theta itself,
 * theta^{j,r} = kappa V~_{j,r} with V~_{j,r} = sum_i c~_{i,r} s_ji phi_ji (r_j values, in the units of
 * c~), instead of scoring rows against the support. A step's products P_{j,r} = V~_{j,r} . s_ji phi_ji
 * and its update V~_j += s_ji phi_ji delta' cost O(sum_j r_j K), whatever the support (the primal form
 * of Orabona, Jie & Caputo, JMLR 2012, Algorithms 1 and 2, on the feature maps). */
#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "mkl/obscure.h"

km_status km_obscure_features_open(km_obscure *o)
{
    size_t F = o->F, K = o->K;
    km_feature_block *blocks = malloc(F * sizeof *blocks);
    if (!blocks)
        return km_error_nomem("OBSCURE's feature blocks");
    if (!km_kernel_access_features(o->kernel, blocks)) {
        free(blocks);
        return KM_OK;   /* the kernelized form */
    }
    o->features = blocks;
    o->V = calloc(F, sizeof *o->V);
    o->step_delta = calloc(K, sizeof *o->step_delta);
    size_t r_max = 1;
    for (size_t j = 0; j < F; j++)
        r_max = blocks[j].r > r_max ? blocks[j].r : r_max;
    o->row_values = malloc(r_max * sizeof *o->row_values);
    if (!o->V || !o->step_delta || !o->row_values)
        return km_error_nomem("OBSCURE's weight blocks");
    for (size_t j = 0; j < F; j++)
        if (!(o->V[j] = calloc(blocks[j].r * K + 1, sizeof **o->V)))
            return km_error_nomem("OBSCURE's weight blocks");
    return KM_OK;
}

void km_obscure_features_close(km_obscure *o)
{
    for (size_t j = 0; o->V && j < o->F; j++)
        free(o->V[j]);
    free(o->V);
    free(o->features);
    free(o->step_delta);
    free(o->row_values);
}

void km_obscure_features_products(km_obscure *o, size_t i)
{
    size_t K = o->K;
    for (size_t j = 0; j < o->F; j++) {
        const km_feature_block *b = &o->features[j];
        cblas_dgemv(CblasRowMajor, CblasTrans, (int)b->r, (int)K, km_feature_row_scale(b, i), o->V[j], (int)K,
                    km_feature_row_values(b, i, o->row_values), 1, 0.0, o->P + j * K, 1);
    }
}

void km_obscure_features_add(km_obscure *o, size_t i, const double *delta)
{
    size_t K = o->K;
    for (size_t j = 0; j < o->F; j++) {
        const km_feature_block *b = &o->features[j];
        cblas_dger(CblasRowMajor, (int)b->r, (int)K, km_feature_row_scale(b, i),
                   km_feature_row_values(b, i, o->row_values), 1, delta, 1, o->V[j], (int)K);
    }
}

void km_obscure_features_scale(km_obscure *o, double a)
{
    for (size_t j = 0; j < o->F; j++) {
        size_t count = o->features[j].r * o->K;
        if (a == 0.0)
            memset(o->V[j], 0, count * sizeof *o->V[j]);
        else
            cblas_dscal((int)count, a, o->V[j], 1);
    }
}

void km_obscure_features_scores(const km_obscure *o, size_t i, double *f)
{
    size_t K = o->K;
    memset(f, 0, K * sizeof *f);
    for (size_t j = 0; j < o->F; j++) {
        const km_feature_block *b = &o->features[j];
        if (o->beta[j] != 0.0)
            cblas_dgemv(CblasRowMajor, CblasTrans, (int)b->r, (int)K, o->kappa * o->beta[j] * km_feature_row_scale(b, i),
                        o->V[j], (int)K, km_feature_row_values(b, i, o->row_values), 1, 1.0, f, 1);
    }
}

km_status km_obscure_features_quadratic(const km_obscure *o, const double *coef_gamma, double *S, double *Q)
{
    size_t F = o->F, K = o->K, K2 = 2 * K, r_max = 0;
    for (size_t j = 0; j < F; j++)
        r_max = o->features[j].r > r_max ? o->features[j].r : r_max;
    /* A_j (r_j x 2K) = sum_s s_js phi_js [c_s | gamma_s]: the blocks of theta and of v, up to their scales */
    double *A = malloc((r_max * K2 + 1) * sizeof *A);
    if (!A)
        return km_error_nomem("OBSCURE's duality certificate");
    for (size_t j = 0; j < F; j++) {
        const km_feature_block *b = &o->features[j];
        memset(A, 0, b->r * K2 * sizeof *A);
        for (size_t s = 0; s < o->n_support; s++) {
            size_t i = o->support[s];
            cblas_dger(CblasRowMajor, (int)b->r, (int)K2, km_feature_row_scale(b, i),
                       km_feature_row_values(b, i, o->row_values), 1,
                       coef_gamma + s * K2, 1, A, (int)K2);
        }
        S[j] = Q[j] = 0.0;
        for (size_t t = 0; t < b->r; t++)
            for (size_t r = 0; r < K; r++) {
                S[j] += A[t * K2 + r] * A[t * K2 + r];
                Q[j] += A[t * K2 + K + r] * A[t * K2 + K + r];
            }
    }
    free(A);
    return KM_OK;
}
