/* A duality certificate of an OBSCURE iterate (Orabona, Jie & Caputo, JMLR 2012, problem (5)):
 * f(w) = lambda/2 ||w||_{2,p}^2 + 1/N sum_i loss_i(w) is bounded below by the Fenchel dual
 *
 *   D(alpha) = 1/N sum_i sum_{r != y_i} alpha_ir - 1/(2 lambda) ||v||_{2,q}^2,
 *   v^{j,r} = 1/N sum_i gamma_ir phi^j(x_i),
 *
 * the conjugate of lambda/2 ||.||_{2,p}^2 being 1/(2 lambda) ||.||_{2,q}^2 (1/p + 1/q = 1). For
 * Crammer and Singer's loss, loss_i(w) = max_{alpha_i in simplex} sum_r alpha_ir (1[r != y_i] + f_r(x_i)
 * - f_{y_i}(x_i)), so alpha_i is on the simplex and gamma_ir = 1[r = y_i] - alpha_ir; for the hinge
 * (K = 1) alpha_i in [0, 1] and gamma_i = y_i alpha_i. Any such alpha gives D(alpha) <= f(w*) <= f(w).
 *
 * The dual point comes from the iterate itself: the link of Lemma 1 maps theta to w as the dual map
 * of the problem maps v to w when v = lambda theta / q, i.e. gamma = (lambda N / q) c for the shared
 * coefficients c. Rows whose off-class mass exceeds 1 are scaled back into the simplex (box), and the
 * whole alpha is then scaled by the s that maximises D(s alpha), a concave parabola in s, within the
 * feasible range. The quadratic terms Q_j = sum_r gamma_r' K^j gamma_r come from one pass over the
 * kernel values among the support rows, which also gives the exact S_j = sum_r c_r' K^j c_r and with
 * them the regularizer of the primal (the learner's S_j are updated incrementally); on explicit features
 * they come from the feature rows of the support instead (obscure_features.c). */
#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "mkl/obscure.h"

/* The dual point's gamma (ns x K, up to the scale s) and off-class mass (ns) of support row s from
 * the coefficients kappa c: gamma = (lambda N / q) c on the sign pattern the updates give (c_{i,y} >= 0
 * and c_{i,r} <= 0 elsewhere; hinge: y_i c_i >= 0), each row scaled into alpha's box. */
static void dual_point(const km_obscure *o, double *gamma, double *mass)
{
    size_t K = o->K;
    double scale = o->lambda * (double)o->n / o->q;
    for (size_t s = 0; s < o->n_support; s++) {
        size_t i = o->support[s];
        const double *c = o->c + i * K;
        double *g = gamma + s * K, total = 0.0;
        if (K == 1) {
            total = fmax(0.0, scale * o->kappa * o->y[i] * c[0]);
        } else {
            size_t y = o->class_of[i];
            for (size_t r = 0; r < K; r++) {
                g[r] = r == y ? 0.0 : -fmax(0.0, -scale * o->kappa * c[r]);
                total -= g[r];
            }
        }
        double shrink = total > 1.0 ? 1.0 / total : 1.0;   /* into the simplex / [0, 1] */
        mass[s] = total * shrink;
        if (K == 1) {
            g[0] = o->y[i] * mass[s];
        } else {
            for (size_t r = 0; r < K; r++)
                g[r] *= shrink;
            g[o->class_of[i]] = mass[s];
        }
    }
}

/* S_j = sum_r c_r' K^j c_r and Q_j = sum_r gamma_r' K^j gamma_r over the support, by blocks of support
 * rows (their kernel values against the whole support within block_bytes). */
static km_status quadratic_terms(const km_obscure *o, const double *coef_gamma, double *S, double *Q)
{
    size_t ns = o->n_support, F = o->F, K = o->K, K2 = 2 * K;
    size_t len = o->block_bytes / ((F + 1) * ns * sizeof(double) + 1);
    len = len < 1 ? 1 : len > ns ? ns : len;
    double *values = malloc((len * F * ns + 1) * sizeof *values);
    double *products = malloc((len * F * K2 + 1) * sizeof *products);
    km_status st = values && products ? KM_OK : km_error_nomem("OBSCURE's duality certificate");
    memset(S, 0, F * sizeof *S);
    memset(Q, 0, F * sizeof *Q);
    for (size_t first = 0; !st && first < ns; first += len) {
        size_t rows = ns - first < len ? ns - first : len;
        if ((st = km_kernel_access_blocks(o->kernel, o->support + first, rows, o->support, ns, values)))
            break;
        /* products (rows F x 2K) = kernel values (rows F x ns) times [c | gamma] (ns x 2K) */
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)(rows * F), (int)K2, (int)ns, 1.0, values,
                    (int)ns, coef_gamma, (int)K2, 0.0, products, (int)K2);
        for (size_t t = 0; t < rows; t++)
            for (size_t j = 0; j < F; j++) {
                const double *row = coef_gamma + (first + t) * K2, *product = products + (t * F + j) * K2;
                for (size_t r = 0; r < K; r++) {
                    S[j] += row[r] * product[r];
                    Q[j] += row[K + r] * product[K + r];
                }
            }
    }
    free(values);
    free(products);
    return st;
}

km_status km_obscure_certify(const km_obscure *o, double objective, double *primal, double *dual)
{
    size_t ns = o->n_support, F = o->F, K = o->K, N = o->n;
    double lambda = o->lambda, p = km_obscure_p_of_q(o->q);
    double w_incremental = km_obscure_w_norm(o);
    double loss = objective - 0.5 * lambda * w_incremental * w_incremental;   /* 1/N sum loss_i */
    /* (+1: no support rows yet, at theta = 0, is no allocation failure) */
    double *coef_gamma = malloc((ns * 2 * K + ns + 1) * sizeof *coef_gamma), *S = malloc(2 * F * sizeof *S);
    double *gamma = malloc((ns * K + 1) * sizeof *gamma), *mass = coef_gamma ? coef_gamma + ns * 2 * K : NULL;
    km_status st = coef_gamma && S && gamma ? KM_OK : km_error_nomem("OBSCURE's duality certificate");
    if (!st) {
        dual_point(o, gamma, mass);
        for (size_t s = 0; s < ns; s++)
            for (size_t r = 0; r < K; r++) {
                coef_gamma[s * 2 * K + r] = o->kappa * o->c[o->support[s] * K + r];
                coef_gamma[s * 2 * K + K + r] = gamma[s * K + r];
            }
        st = o->V ? km_obscure_features_quadratic(o, coef_gamma, S, S + F) : quadratic_terms(o, coef_gamma, S, S + F);
    }
    if (!st) {
        double *Q = S + F, lin = 0.0, largest = 0.0;
        /* the primal with the exact block norms |w^j| = beta_j sqrt(S_j) */
        for (size_t j = 0; j < F; j++) {
            S[j] = o->beta[j] * sqrt(fmax(S[j], 0.0));
            Q[j] = sqrt(fmax(Q[j], 0.0));
        }
        double w = km_obscure_group_norm(S, F, p);
        *primal = 0.5 * lambda * w * w + loss;
        for (size_t s = 0; s < ns; s++) {
            lin += mass[s] / (double)N;
            largest = fmax(largest, mass[s]);
        }
        /* D(s alpha) = s lin - s^2 G / (2 lambda N^2), G = ||(sqrt Q_j)||_{2,q}^2, s alpha within its box */
        double G = pow(km_obscure_group_norm(Q, F, o->q), 2) / ((double)N * (double)N);
        double s_max = largest > 0 ? 1.0 / largest : 0.0;
        double s = G > 0 ? fmin(s_max, lambda * lin / G) : s_max;
        *dual = fmax(0.0, s * lin - 0.5 * s * s * G / lambda);   /* alpha = 0 gives D = 0 */
    }
    free(coef_gamma);
    free(S);
    free(gamma);
    return st;
}
