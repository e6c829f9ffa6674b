/* The kernelized OBSCURE learner (Orabona, Jie & Caputo, JMLR 2012, Algorithms 1 and 2 with the
 * kernelized storage of §3.1): one coefficient matrix c = kappa c~ shared by all kernels, incremental
 * squared block norms, scores from kernel values against the rows with coefficients. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "mkl/obscure.h"

/* Kernel and score values of one objective pass are computed at most this many at a time. */
#define OBSCURE_PASS_VALUES ((size_t)1 << 21)

/* Recomputes ||theta||_{2,q} and the link weights d, beta = d / q from S. */
static void refresh_weights(km_obscure *o)
{
    for (size_t j = 0; j < o->F; j++)
        o->norms[j] = sqrt(fmax(o->S[j], 0.0));
    o->theta_norm = km_obscure_group_norm(o->norms, o->F, o->q);
    km_obscure_link_weights(o->norms, o->F, o->q, o->d);
    for (size_t j = 0; j < o->F; j++)
        o->beta[j] = o->d[j] / o->q;
}

km_status km_obscure_init(km_obscure *o, const km_kernel_access *kernel, size_t K, const signed char *y,
                          const size_t *class_of, double q, double lambda)
{
    memset(o, 0, sizeof *o);
    size_t n = kernel->n_rows, F = kernel->n_kernels;
    *o = (km_obscure){.kernel = kernel, .n = n, .F = F, .K = K, .y = y, .class_of = class_of, .q = q,
                      .lambda = lambda, .kappa = 1.0, .radius = INFINITY, .fold_low = 1e-150, .fold_high = 1e150};
    o->c = calloc(n * K, sizeof *o->c);
    o->S = calloc(F, sizeof *o->S);
    o->d = malloc(F * sizeof *o->d);
    o->beta = malloc(F * sizeof *o->beta);
    o->norms = malloc(F * sizeof *o->norms);
    o->grad = malloc(2 * F * sizeof *o->grad);
    o->support = malloc(n * sizeof *o->support);
    o->in_support = calloc(n, 1);
    o->kvalues = malloc(F * n * sizeof *o->kvalues);
    o->kbeta = malloc(n * sizeof *o->kbeta);
    o->scores = malloc(K * sizeof *o->scores);
    if (!o->c || !o->S || !o->d || !o->beta || !o->norms || !o->grad || !o->support || !o->in_support ||
        !o->kvalues || !o->kbeta || !o->scores) {
        km_obscure_free(o);
        return km_error_nomem("OBSCURE's coefficients");
    }
    refresh_weights(o);
    return KM_OK;
}

void km_obscure_free(km_obscure *o)
{
    free(o->c);
    free(o->S);
    free(o->d);
    free(o->beta);
    free(o->norms);
    free(o->grad);
    free(o->support);
    free(o->in_support);
    free(o->kvalues);
    free(o->kbeta);
    free(o->scores);
    memset(o, 0, sizeof *o);
}

double km_obscure_w_norm(const km_obscure *o) { return o->theta_norm / o->q; }

void km_obscure_fold(km_obscure *o)
{
    for (size_t s = 0; s < o->n_support; s++)
        for (size_t r = 0; r < o->K; r++)
            o->c[o->support[s] * o->K + r] *= o->kappa;
    o->kappa = 1.0;
}

void km_obscure_coefficients(const km_obscure *o, double *coef)
{
    for (size_t k = 0; k < o->n * o->K; k++)
        coef[k] = o->kappa * o->c[k];
}

/* kvalues[j n_support + s] = K^j(support[s], i). */
static km_status kernel_values(km_obscure *o, size_t i)
{
    const km_kernel_access *k = o->kernel;
    size_t ns = o->n_support;
    if (ns == 0)
        return KM_OK;
    if (k->kernel_columns)
        return k->kernel_columns(k->column_ctx, i, o->support, ns, o->kvalues);
    km_status st = KM_OK;
    for (size_t j = 0; !st && j < o->F; j++)
        st = k->column(k->column_ctx, j, i, o->support, ns, o->kvalues + j * ns);
    return st;
}

/* scores[r] = f_r(x_i) = kappa sum_s c~_{s,r} sum_j beta_j K^j(x_s, x_i), from kvalues. */
static void scores_from_kernel_values(km_obscure *o)
{
    size_t ns = o->n_support, K = o->K;
    for (size_t s = 0; s < ns; s++)
        o->kbeta[s] = 0.0;
    for (size_t j = 0; j < o->F; j++) {
        if (o->beta[j] == 0.0)
            continue;
        const double *kv = o->kvalues + j * ns;
        for (size_t s = 0; s < ns; s++)
            o->kbeta[s] += o->beta[j] * kv[s];
    }
    for (size_t r = 0; r < K; r++)
        o->scores[r] = 0.0;
    for (size_t s = 0; s < ns; s++) {
        const double *c = o->c + o->support[s] * K;
        for (size_t r = 0; r < K; r++)
            o->scores[r] += c[r] * o->kbeta[s];
    }
    for (size_t r = 0; r < K; r++)
        o->scores[r] *= o->kappa;
}

/* The loss at scores f for row i: the hinge |1 - y f|_+ (K = 1), or Crammer and Singer's
 * |1 - f_y + max_{r != y} f_r|_+ with the runner-up class (ties to the smallest index) in *rival. */
static double row_loss(const km_obscure *o, size_t i, const double *f, size_t *rival)
{
    if (o->K == 1)
        return fmax(0.0, 1.0 - o->y[i] * f[0]);
    size_t y = o->class_of[i], best = y == 0 ? 1 : 0;
    for (size_t r = best + 1; r < o->K; r++)
        if (r != y && f[r] > f[best])
            best = r;
    *rival = best;
    return fmax(0.0, 1.0 - f[y] + f[best]);
}

/* G_j = theta^{j,r} . phi^j(x_i) for class r (K = 1: the single block) from kvalues, F values. */
static void block_products(const km_obscure *o, size_t r, double *G)
{
    size_t ns = o->n_support;
    for (size_t j = 0; j < o->F; j++) {
        const double *kv = o->kvalues + j * ns;
        double sum = 0.0;
        for (size_t s = 0; s < ns; s++)
            sum += o->c[o->support[s] * o->K + r] * kv[s];
        G[j] = o->kappa * sum;
    }
}

/* ||z||_{2,q} of the subgradient at row i: (sum_j K^j(x_i,x_i)^{q/2})^{1/q}, times sqrt 2 for the
 * Crammer-Singer loss (two class blocks). */
static double subgradient_norm(km_obscure *o, size_t i)
{
    for (size_t j = 0; j < o->F; j++)
        o->norms[j] = sqrt(fmax(o->kernel->diag[j][i], 0.0));
    double norm = km_obscure_group_norm(o->norms, o->F, o->q);
    return o->K > 1 ? sqrt(2.0) * norm : norm;
}

static void add_support(km_obscure *o, size_t i)
{
    if (o->in_support[i])
        return;
    o->in_support[i] = 1;
    o->support[o->n_support++] = i;
}

/* theta <- a theta - eta z at row i (the loss positive when updated), with the block norms
 * S_j <- a^2 S_j + 2 a eta (G_{j,y} - G_{j,rival}) + 2 eta^2 K^j(x_i,x_i) (Crammer-Singer) or
 * a^2 S_j + 2 a eta y G_j + eta^2 K^j(x_i,x_i) (hinge), G taken before the step. */
static void take_step(km_obscure *o, size_t i, size_t rival, double a, double eta, int updated)
{
    size_t F = o->F, K = o->K;
    double *Gy = o->grad, *Gr = o->grad + F;
    if (updated) {
        block_products(o, K == 1 ? 0 : o->class_of[i], Gy);
        if (K > 1)
            block_products(o, rival, Gr);
    }
    if (a == 0.0) {
        /* Pegasos' first step multiplies theta by 0 */
        for (size_t s = 0; s < o->n_support; s++) {
            memset(o->c + o->support[s] * K, 0, K * sizeof *o->c);
            o->in_support[o->support[s]] = 0;
        }
        o->n_support = 0;
        o->kappa = 1.0;
        memset(o->S, 0, F * sizeof *o->S);
    } else if (a != 1.0) {
        o->kappa *= a;
        for (size_t j = 0; j < F; j++)
            o->S[j] *= a * a;
    }
    if (updated) {
        const double *const *diag = o->kernel->diag;
        if (K == 1) {
            double y = o->y[i];
            for (size_t j = 0; j < F; j++)
                o->S[j] = fmax(0.0, o->S[j] + 2.0 * a * eta * y * Gy[j] + eta * eta * diag[j][i]);
            o->c[i] += eta * y / o->kappa;
        } else {
            for (size_t j = 0; j < F; j++)
                o->S[j] = fmax(0.0, o->S[j] + 2.0 * a * eta * (Gy[j] - Gr[j]) + 2.0 * eta * eta * diag[j][i]);
            o->c[i * K + o->class_of[i]] += eta / o->kappa;
            o->c[i * K + rival] -= eta / o->kappa;
        }
        add_support(o, i);
    }
    refresh_weights(o);
}

static void keep_kappa_in_range(km_obscure *o)
{
    if (o->kappa < o->fold_low || o->kappa > o->fold_high)
        km_obscure_fold(o);
}

/* Scores of row i at the current w and its loss. */
static km_status row_scores(km_obscure *o, size_t i, size_t *rival, double *loss)
{
    km_status st = kernel_values(o, i);
    if (st)
        return st;
    scores_from_kernel_values(o);
    *rival = 0;
    *loss = row_loss(o, i, o->scores, rival);
    return KM_OK;
}

km_status km_obscure_online_step(km_obscure *o, size_t i, double eta, int *updated)
{
    size_t rival;
    double loss;
    km_status st = row_scores(o, i, &rival, &loss);
    if (st)
        return st;
    *updated = loss > 0.0;
    if (*updated)
        take_step(o, i, rival, 1.0, eta, 1);
    return KM_OK;
}

km_status km_obscure_stochastic_step(km_obscure *o, size_t i, int *updated)
{
    size_t rival;
    double loss;
    km_status st = row_scores(o, i, &rival, &loss);
    if (st)
        return st;
    *updated = loss > 0.0;
    double lambda = o->lambda, q = o->q;
    long t = ++o->t;
    /* L_t = lambda ||w_t||_{2,p} + ||z_t||_{2,q}; D_t = lambda t + s; eta_t = q / (lambda t + s) */
    double L = lambda * o->theta_norm / q + (*updated ? subgradient_norm(o, i) : 0.0);
    o->s += km_obscure_xi(lambda * (double)t + o->s, q, L, o->radius);
    double denominator = lambda * (double)t + o->s;
    double eta = q / denominator, shrink = (lambda * (double)(t - 1) + o->s) / denominator;
    take_step(o, i, rival, shrink, eta, *updated);
    /* projection on ||w||_{2,p} <= R, i.e. ||theta||_{2,q} <= q R */
    if (o->theta_norm > q * o->radius) {
        double b = q * o->radius / o->theta_norm;
        o->kappa *= b;
        for (size_t j = 0; j < o->F; j++)
            o->S[j] *= b * b;
        o->theta_norm *= b;
    }
    keep_kappa_in_range(o);
    return KM_OK;
}

/* Adds row i's loss and error at scores f to the sums. */
static void count_row(const km_obscure *o, size_t i, const double *f, double *loss, size_t *errors)
{
    size_t rival = 0;
    *loss += row_loss(o, i, f, &rival);
    if (o->K == 1) {
        *errors += (f[0] > 0.0 ? 1 : -1) != o->y[i];
        return;
    }
    size_t best = 0;
    for (size_t r = 1; r < o->K; r++)
        if (f[r] > f[best])
            best = r;
    *errors += best != o->class_of[i];
}

km_status km_obscure_objective(km_obscure *o, double *objective, double *error)
{
    size_t n = o->n, K = o->K, ns = o->n_support;
    double loss = 0.0;
    size_t errors = 0;
    km_status st = KM_OK;
    double *f = calloc(K, sizeof *f);
    if (!f)
        return km_error_nomem("OBSCURE's objective");
    if (ns == 0 || !o->kernel->combined) {
        for (size_t i = 0; !st && i < n; i++) {
            if (ns && (st = kernel_values(o, i)))
                break;
            if (ns)
                scores_from_kernel_values(o);
            count_row(o, i, ns ? o->scores : f, &loss, &errors);
        }
    } else {
        size_t block = OBSCURE_PASS_VALUES / ns;
        block = block < 1 ? 1 : block > n ? n : block;
        double *values = malloc(block * ns * sizeof *values);
        size_t *cols = malloc(block * sizeof *cols);
        if (!values || !cols)
            st = km_error_nomem("OBSCURE's objective");
        for (size_t first = 0; !st && first < n; first += block) {
            size_t len = n - first < block ? n - first : block;
            for (size_t t = 0; t < len; t++)
                cols[t] = first + t;
            st = o->kernel->combined(o->kernel->column_ctx, o->beta, cols, len, o->support, ns, values);
            for (size_t t = 0; !st && t < len; t++) {
                memset(f, 0, K * sizeof *f);
                const double *kv = values + t * ns;
                for (size_t s = 0; s < ns; s++) {
                    const double *c = o->c + o->support[s] * K;
                    for (size_t r = 0; r < K; r++)
                        f[r] += c[r] * kv[s];
                }
                for (size_t r = 0; r < K; r++)
                    f[r] *= o->kappa;
                count_row(o, first + t, f, &loss, &errors);
            }
        }
        free(values);
        free(cols);
    }
    free(f);
    if (st)
        return st;
    double w = km_obscure_w_norm(o);
    *objective = 0.5 * o->lambda * w * w + loss / (double)n;
    *error = (double)errors / (double)n;
    return KM_OK;
}
