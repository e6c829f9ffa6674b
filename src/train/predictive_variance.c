/* The Gaussian-process reading of an empirical-Bayes model (Tomioka & Suzuki, "Regularization strategies
 * and empirical Bayesian learning for MKL", §4): f ~ GP(0, sum_m d_m k_m), y = f + noise of variance
 * sigma^2 (centred by the training mean). The posterior of f(x) given the training targets has the mean
 * the model predicts and the variance
 *   var f(x) = k_d(x, x) - k_x'(K_d + sigma^2 I)^-1 k_x,   k_d = sum_m d_m k_m,  k_x = k_d(X, x),
 * computed from one Cholesky factor L of K_d + sigma^2 I as k_d(x, x) - ||L^-1 k_x||^2. The model's
 * record keeps sigma^2, the evidence and the kernels kept (mkl/method_eb.c, section "eb"). */
#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/sized_struct.h"
#include "data/dataset.h"
#include "kernel/provider.h"
#include "mkl/method.h"
#include "train/model.h"

/* Kernel values computed at once are at most about this many doubles. */
#define VARIANCE_BLOCK_VALUES ((size_t)1 << 22)

static int is_empirical_bayes(const km_model *model)
{
    return model && (km_mkl_method_flags(model->mkl.method) & KM_METHOD_EMPIRICAL_BAYES);
}

static km_status eb_scalar(const km_model *model, const char *what, size_t machine, double *value)
{
    char key[64];
    snprintf(key, sizeof key, "%s_%zu", what, machine + 1);
    return km_record_scalar(&model->data, "eb", key, value);
}

km_status km_model_evidence(const km_model *model, size_t machine, km_evidence_info *out)
{
    if (!is_empirical_bayes(model))
        return km_error(KM_EINVAL, "the model has no evidence: only empirical-Bayes models (eb-rw, eb-mackay) have one");
    if (machine >= model->n_machines)
        return km_error(KM_EINVAL, "machine %zu does not exist (the model has %zu)", machine, model->n_machines);
    km_evidence_info full = KM_EVIDENCE_INFO_INIT;
    double kept;
    if (eb_scalar(model, "neg_log_evidence", machine, &full.neg_log_evidence) ||
        eb_scalar(model, "noise", machine, &full.noise) || eb_scalar(model, "kernels_kept", machine, &kept))
        return km_error(KM_EINVAL, "the empirical-Bayes model lacks its evidence, noise or kernel count (section eb)");
    full.kernels_kept = (size_t)kept;
    return km_sized_struct_fill(out, &full, sizeof full, sizeof full, "km_evidence_info");
}

int km_model_has_variance(const km_model *model)
{
    double noise;
    return is_empirical_bayes(model) && model->n_machines == 1 && eb_scalar(model, "noise", 0, &noise) == KM_OK;
}

/* What the variance needs beyond an empirical-Bayes model: every training row kept, kernels whose
 * k(x, x) and normalization are known for new rows. */
static km_status check_variance_model(const km_model *model)
{
    if (!km_model_has_variance(model))
        return km_error(KM_EINVAL, "the model has no predictive variance: only kernel ridge regression with "
                                   "empirical-Bayes weights (--mkl eb-rw or eb-mackay) has one");
    if (model->basis->n != model->n_train)
        return km_error(KM_EINVAL, "the model keeps %zu of its %zu training rows: the predictive variance needs all",
                        model->basis->n, model->n_train);
    for (size_t m = 0; m < model->kernels->size; m++) {
        const km_kernel *k = &model->kernels->kernels[m];
        if (k->type == KM_KERNEL_PRECOMPUTED || k->center)
            return km_kernel_error(k, "the predictive variance needs k(x, x) of new rows: not for %s kernels",
                                   k->center ? "centred" : "precomputed");
    }
    return KM_OK;
}

/* out[i * n + j] += sum_m d_m K_m(a_i, b_j) for rows a (arows, na) of the dataset `basis` was
 * prepared for and the model's basis rows, computed kernel by kernel for all M at once into K
 * (M na nb values). */
static km_status add_combined(const km_model *model, const km_cross_basis *basis, const size_t *arows, size_t na,
                              double *K, double *out)
{
    size_t M = model->kernels->size, nb = model->basis->n;
    const double *d = model->machines[0].theta;
    km_status st = km_cross_basis_values(basis, arows, na, NULL, NULL, K);
    for (size_t m = 0; !st && m < M; m++)
        if (d[m] != 0.0)
            cblas_daxpy((int)(na * nb), d[m], K + m * na * nb, 1, out, 1);
    return st;
}

/* L: the lower Cholesky factor of K_d + sigma^2 I over the basis rows (nb x nb, column-major). */
static km_status factor_covariance(const km_model *model, double noise, size_t block, double *K, size_t *rows,
                                   double *L)
{
    size_t nb = model->basis->n;
    memset(L, 0, nb * nb * sizeof *L);
    km_cross_basis *basis;
    km_status st = km_cross_basis_new(model->kernels, model->basis, model->basis, NULL, nb, model->basis_kcol, &basis);
    for (size_t start = 0; !st && start < nb; start += block) {
        size_t len = nb - start < block ? nb - start : block;
        for (size_t t = 0; t < len; t++)
            rows[t] = start + t;
        /* rows start.. of the symmetric matrix are its columns start.. in column-major order */
        st = add_combined(model, basis, rows, len, K, L + start * nb);
    }
    km_cross_basis_free(basis);
    for (size_t i = 0; i < nb; i++)
        L[i * nb + i] += noise;
    lapack_int info = st ? 0 : LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', (lapack_int)nb, L, (lapack_int)nb);
    if (!st && info != 0)
        st = km_error(KM_EINVAL, "the model's covariance sum_m d_m K_m + sigma^2 I is not positive definite "
                                 "(LAPACK dpotrf info %d)", (int)info);
    return st;
}

/* k_d(x_t, x_t) of one test row: its kernel values with itself. */
static km_status self_value(const km_model *model, const km_dataset *test, size_t row, double *values, double *out)
{
    size_t M = model->kernels->size;
    const double *d = model->machines[0].theta;
    km_status st = km_kernel_cross(model->kernels, test, &row, 1, test, &row, 1, NULL, NULL, NULL, values);
    *out = 0;
    for (size_t m = 0; !st && m < M; m++)
        *out += d[m] * values[m];
    return st;
}

km_status km_predict_variance(const km_model *model, const km_dataset *data, double *variance)
{
    km_status st = check_variance_model(model);
    double noise = 0;
    const km_dataset *test = NULL;
    km_dataset *restricted = NULL;
    if (!st)
        st = eb_scalar(model, "noise", 0, &noise);
    if (!st)
        st = km_model_test_rows(model, data, &test, &restricted);
    if (st)
        return st;
    size_t M = model->kernels->size, nb = model->basis->n, n = test->n;
    size_t block = VARIANCE_BLOCK_VALUES / ((M + 1) * (nb ? nb : 1));
    block = block < 1 ? 1 : block > (n > nb ? n : nb) ? (n > nb ? n : nb) : block;
    double *L = malloc(nb * nb * sizeof *L), *K = malloc(M * block * nb * sizeof *K);
    double *V = malloc(block * nb * sizeof *V), *self = malloc((M ? M : 1) * sizeof *self);
    size_t *rows = malloc(block * sizeof *rows);
    km_cross_basis *basis = NULL;
    if (!L || !K || !V || !self || !rows)
        st = km_error_nomem("the predictive variance");
    if (!st)
        st = factor_covariance(model, noise, block, K, rows, L);
    if (!st)
        st = km_cross_basis_new(model->kernels, test, model->basis, NULL, nb, model->basis_kcol, &basis);
    for (size_t start = 0; !st && start < n; start += block) {
        size_t len = n - start < block ? n - start : block;
        for (size_t t = 0; t < len; t++)
            rows[t] = start + t;
        memset(V, 0, len * nb * sizeof *V);
        st = add_combined(model, basis, rows, len, K, V);   /* column t of V (nb x len) is k_x of row t */
        if (st)
            break;
        cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasNonUnit, (int)nb, (int)len, 1.0, L,
                    (int)nb, V, (int)nb);
        for (size_t t = 0; !st && t < len; t++) {
            double prior;
            st = self_value(model, test, start + t, self, &prior);
            double explained = cblas_ddot((int)nb, V + t * nb, 1, V + t * nb, 1);
            if (!st && !(isfinite(prior) && isfinite(explained)))
                st = km_error(KM_EINVAL, "%s: row %zu: kernel values overflow double precision (scale the features)",
                              test->source ? test->source : "test data", start + t + 1);
            /* round-off can take the difference of two nearly equal values below 0 */
            variance[start + t] = st ? 0.0 : fmax(0.0, prior - explained);
        }
    }
    free(L);
    free(K);
    free(V);
    free(self);
    free(rows);
    km_cross_basis_free(basis);
    km_dataset_free(restricted);
    return st;
}
