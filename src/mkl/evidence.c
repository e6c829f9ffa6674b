/* The evidence (10) of empirical-Bayes MKL and its gradient (mkl/evidence.h). */
#include "mkl/evidence.h"

#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/cholesky.h"
#include "core/error.h"
#include "mkl/evidence_features.h"

km_status km_evidence_alloc(size_t n, size_t M, const double *K, km_evidence *ev)
{
    memset(ev, 0, sizeof *ev);
    ev->n = n;
    ev->M = M;
    ev->K = K;
    ev->log_2pi_term = 0.5 * (double)n * log(2.0 * 3.14159265358979323846);
    if (n > 0 && n > (size_t)-1 / sizeof(double) / n)
        return km_error(KM_ENOMEM, "the evidence of %zu rows needs more memory than can be addressed", n);
    ev->factor = malloc(n * n * sizeof *ev->factor);
    ev->alpha = malloc(n * sizeof *ev->alpha);
    ev->outer = malloc(n * n * sizeof *ev->outer);
    ev->T = calloc(M ? M : 1, sizeof *ev->T);
    ev->Q = calloc(M ? M : 1, sizeof *ev->Q);
    if (ev->factor && ev->alpha && ev->outer && ev->T && ev->Q)
        return KM_OK;
    km_evidence_free(ev);
    return km_error_nomem("the evidence");
}

void km_evidence_free(km_evidence *ev)
{
    km_evidence_features_free(ev->features);
    free(ev->factor);
    free(ev->alpha);
    free(ev->outer);
    free(ev->T);
    free(ev->Q);
    memset(ev, 0, sizeof *ev);
}

km_status km_evidence_eval(km_evidence *ev, const double *y, const double *d, double noise, int with_traces)
{
    if (ev->features)
        return km_evidence_features_eval(ev, y, d, noise, with_traces);
    size_t n = ev->n, M = ev->M, nn = n * n;
    double *A = ev->factor;
    /* the M Gram matrices side by side are one nn x M matrix: Kbar = sum_m d_m K_m is one product, and
     * Q_m, T_m are inner products of vec(K_m) with vec(alpha alpha') and vec(Kbar^-1), one product each
     * (M small symmetric products would each pay the BLAS call and threading cost: 1760 kernels) */
    cblas_dgemv(CblasColMajor, CblasNoTrans, (int)nn, (int)M, 1.0, ev->K, (int)nn, d, 1, 0.0, A, 1);
    for (size_t i = 0; i < n; i++)
        A[i * n + i] += noise;
    size_t failed_minor;
    km_status st = km_cholesky(n, A, n, ev->interrupted, ev->interrupt_ctx, &failed_minor);
    if (st)
        return st;
    if (failed_minor)
        return km_error(KM_EINVAL, "the evidence's covariance sigma^2 I + sum_m d_m K_m is not positive definite "
                                   "(noise %g; leading minor %zu of %zu): give a larger --noise",
                        noise, failed_minor, n);
    /* u = L^-1 y: 1/2 y'Kbar^-1 y = 1/2 u'u; alpha = L^-T u */
    memcpy(ev->alpha, y, n * sizeof *y);
    cblas_dtrsv(CblasColMajor, CblasLower, CblasNoTrans, CblasNonUnit, (int)n, A, (int)n, ev->alpha, 1);
    ev->data_fit = 0.5 * cblas_ddot((int)n, ev->alpha, 1, ev->alpha, 1);
    cblas_dtrsv(CblasColMajor, CblasLower, CblasTrans, CblasNonUnit, (int)n, A, (int)n, ev->alpha, 1);
    ev->half_log_det = 0;
    for (size_t i = 0; i < n; i++)
        ev->half_log_det += log(A[i * n + i]);
    ev->value = ev->data_fit + ev->half_log_det;
    ev->alpha_sq = cblas_ddot((int)n, ev->alpha, 1, ev->alpha, 1);
    memset(ev->outer, 0, nn * sizeof *ev->outer);
    cblas_dger(CblasColMajor, (int)n, (int)n, 1.0, ev->alpha, 1, ev->alpha, 1, ev->outer, (int)n);
    cblas_dgemv(CblasColMajor, CblasTrans, (int)nn, (int)M, 1.0, ev->K, (int)nn, ev->outer, 1, 0.0, ev->Q, 1);
    if (!with_traces)
        return KM_OK;
    /* T_m = sum_ij (Kbar^-1)_ij (K_m)_ij = vec(Kbar^-1)'vec(K_m); Kbar^-1 replaces alpha alpha' */
    double *inverse = ev->outer;
    if ((st = km_cholesky_inverse(n, A, n, inverse, ev->interrupted, ev->interrupt_ctx)))
        return st;
    ev->trace_inverse = 0;
    for (size_t j = 0; j < n; j++)
        ev->trace_inverse += inverse[j * n + j];
    cblas_dgemv(CblasColMajor, CblasTrans, (int)nn, (int)M, 1.0, ev->K, (int)nn, inverse, 1, 0.0, ev->T, 1);
    return KM_OK;
}

void km_evidence_gradient(const km_evidence *ev, double *grad, double *noise_grad)
{
    for (size_t m = 0; m < ev->M; m++)
        grad[m] = 0.5 * (ev->T[m] - ev->Q[m]);
    if (noise_grad)
        *noise_grad = 0.5 * (ev->trace_inverse - ev->alpha_sq);
}

km_status km_evidence_gram(const km_kernel_access *k, double *K)
{
    size_t n = k->n_rows;
    for (size_t m = 0; m < k->n_kernels; m++)
        for (size_t j = 0; j < n; j++) {
            km_status st = k->column(k->column_ctx, m, j, NULL, n, K + (m * n + j) * n);
            if (st)
                return st;
        }
    return KM_OK;
}
