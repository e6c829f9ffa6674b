/* The kernelized OBSCURE learner (Orabona, Jie & Caputo, JMLR 2012, Algorithms 1 and 2 with the
 * kernelized storage of §3.1): one coefficient matrix c = kappa c~ shared by all kernels, incremental
 * squared block norms, scores from kernel values against the rows with coefficients, computed for
 * blocks of the rows visited next by one matrix product. */
#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "mkl/obscure.h"

/* Default memory for a prefetch's kernel values, and the most rows one prefetch takes: a block's own
 * kernel values grow with its square, and the scores within it with its length. */
#define OBSCURE_BLOCK_BYTES ((size_t)64 << 20)
#define OBSCURE_BLOCK_MAX_ROWS 256
/* Rows a prefetch takes on explicit features (it fetches nothing): the caller polls between them. */
#define OBSCURE_FEATURE_ROWS 4096

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

static void free_block(km_obscure *o)
{
    free(o->block);
    free(o->block_products);
    free(o->block_kernels);
    free(o->block_delta);
    free(o->block_updated);
    free(o->block_values);
    free(o->block_coef);
}

/* Makes *buffer hold at least count doubles (its contents are not kept), growing by half again, within
 * limit doubles when count is, so that a support that grows row by row reallocates rarely. */
static int reserve(double **buffer, size_t *capacity, size_t count, size_t limit)
{
    if (count <= *capacity)
        return 1;
    size_t grown = count + count / 2;
    grown = grown > limit && count <= limit ? limit : grown;
    free(*buffer);
    *buffer = malloc(grown * sizeof **buffer);
    *capacity = *buffer ? grown : 0;
    return *buffer != NULL;
}

/* The block's arrays for len rows (kept between blocks: allocating hundreds of MiB per block spent
 * more time faulting pages in than computing at 60,000 rows). */
static int reserve_block(km_obscure *o, size_t len)
{
    size_t F = o->F, K = o->K;
    if (len > o->block_cap) {
        free(o->block);
        free(o->block_products);
        free(o->block_kernels);
        free(o->block_delta);
        free(o->block_updated);
        o->block = malloc(len * sizeof *o->block);
        o->block_products = malloc(len * F * K * sizeof *o->block_products);
        o->block_kernels = malloc(len * F * len * sizeof *o->block_kernels);
        o->block_delta = malloc(len * K * sizeof *o->block_delta);
        o->block_updated = malloc(len);
        o->block_cap = o->block && o->block_products && o->block_kernels && o->block_delta && o->block_updated ? len : 0;
    }
    size_t ns = o->n_support, limit = o->block_bytes / sizeof(double);
    return o->block_cap >= len && reserve(&o->block_values, &o->block_values_cap, len * F * ns, limit) &&
           reserve(&o->block_coef, &o->block_coef_cap, ns * K, SIZE_MAX);
}

km_status km_obscure_init(km_obscure *o, const km_kernel_access *kernel, size_t K, const signed char *y,
                          const size_t *class_of, double q, double lambda)
{
    memset(o, 0, sizeof *o);
    size_t n = kernel->n_rows, F = kernel->n_kernels;
    *o = (km_obscure){.kernel = kernel, .n = n, .F = F, .K = K, .y = y, .class_of = class_of, .q = q,
                      .lambda = lambda, .kappa = 1.0, .radius = INFINITY, .fold_low = 1e-150, .fold_high = 1e150,
                      .block_bytes = OBSCURE_BLOCK_BYTES};
    o->c = calloc(n * K, sizeof *o->c);
    o->S = calloc(F, sizeof *o->S);
    o->d = malloc(F * sizeof *o->d);
    o->beta = malloc(F * sizeof *o->beta);
    o->norms = malloc(F * sizeof *o->norms);
    o->support = malloc(n * sizeof *o->support);
    o->in_support = calloc(n, 1);
    o->P = malloc(F * K * sizeof *o->P);
    o->scores = malloc(K * sizeof *o->scores);
    if (!o->c || !o->S || !o->d || !o->beta || !o->norms || !o->support || !o->in_support || !o->P || !o->scores) {
        km_obscure_free(o);
        return km_error_nomem("OBSCURE's coefficients");
    }
    km_status st = km_obscure_features_open(o);
    if (st) {
        km_obscure_free(o);
        return st;
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
    free(o->support);
    free(o->in_support);
    free(o->P);
    free(o->scores);
    free_block(o);
    km_obscure_features_close(o);
    memset(o, 0, sizeof *o);
}

double km_obscure_w_norm(const km_obscure *o) { return o->theta_norm / o->q; }

/* c~ <- kappa c~: the block's products and changes of c~, in units of c~, scale with it. */
void km_obscure_fold(km_obscure *o)
{
    size_t K = o->K, FK = o->F * K;
    for (size_t s = 0; s < o->n_support; s++)
        for (size_t r = 0; r < K; r++)
            o->c[o->support[s] * K + r] *= o->kappa;
    for (size_t b = o->block_next; b < o->block_len; b++)
        for (size_t k = 0; k < FK; k++)
            o->block_products[b * FK + k] *= o->kappa;
    for (size_t k = 0; k < o->block_next * K; k++)
        o->block_delta[k] *= o->kappa;
    if (o->V)
        km_obscure_features_scale(o, o->kappa);
    o->kappa = 1.0;
}

void km_obscure_coefficients(const km_obscure *o, double *coef)
{
    for (size_t k = 0; k < o->n * o->K; k++)
        coef[k] = o->kappa * o->c[k];
}

/* Rows of a prefetch: as many as block_bytes holds of their kernel values against the support (and
 * the kernel layer's dot products behind them) and among themselves, at least 1. */
static size_t block_length(const km_obscure *o, size_t count)
{
    size_t per_row = ((o->F + 1) * o->n_support + o->F * OBSCURE_BLOCK_MAX_ROWS) * sizeof(double);
    size_t len = o->block_bytes / per_row;
    len = len > OBSCURE_BLOCK_MAX_ROWS ? OBSCURE_BLOCK_MAX_ROWS : len;
    len = len > count ? count : len;
    return len ? len : 1;
}

/* block_products = kernel values (len F x ns) times the support's coefficients c~ (ns x K). */
static km_status support_products(km_obscure *o, size_t len)
{
    size_t ns = o->n_support, F = o->F, K = o->K;
    if (ns == 0) {
        memset(o->block_products, 0, len * F * K * sizeof *o->block_products);
        return KM_OK;
    }
    double *values = o->block_values, *coef = o->block_coef;
    km_status st = km_kernel_access_blocks(o->kernel, o->block, len, o->support, ns, values);
    if (!st) {
        for (size_t s = 0; s < ns; s++)
            memcpy(coef + s * K, o->c + o->support[s] * K, K * sizeof *coef);
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)(len * F), (int)K, (int)ns, 1.0, values, (int)ns,
                    coef, (int)K, 0.0, o->block_products, (int)K);
    }
    return st;
}

km_status km_obscure_prefetch(km_obscure *o, const size_t *rows, size_t count, size_t *taken)
{
    if (o->V) {   /* the steps compute their products from the features: nothing to fetch */
        *taken = count < OBSCURE_FEATURE_ROWS ? count : OBSCURE_FEATURE_ROWS;
        return KM_OK;
    }
    size_t len = block_length(o, count), K = o->K;
    o->block_len = o->block_next = 0;
    if (!reserve_block(o, len))
        return km_error_nomem("OBSCURE's block of rows");
    memcpy(o->block, rows, len * sizeof *o->block);
    memset(o->block_delta, 0, len * K * sizeof *o->block_delta);
    memset(o->block_updated, 0, len);
    km_status st = support_products(o, len);
    if (!st)
        st = km_kernel_access_blocks(o->kernel, o->block, len, o->block, len, o->block_kernels);
    if (st)
        return st;
    o->block_len = len;
    o->block_base = 1;
    *taken = len;
    return KM_OK;
}

/* P at the block's next row: its products at prefetch time plus those of the changes of c~ since. */
static void current_products(km_obscure *o)
{
    size_t b = o->block_next, len = o->block_len, F = o->F, K = o->K;
    if (o->block_base)
        memcpy(o->P, o->block_products + b * F * K, F * K * sizeof *o->P);
    else
        memset(o->P, 0, F * K * sizeof *o->P);
    for (size_t e = 0; e < b; e++) {
        if (!o->block_updated[e])
            continue;
        const double *delta = o->block_delta + e * K;
        for (size_t j = 0; j < F; j++) {
            double kernel = o->block_kernels[(b * F + j) * len + e];
            for (size_t r = 0; r < K; r++)
                o->P[j * K + r] += kernel * delta[r];
        }
    }
}

/* scores[r] = f_r(x_i) = kappa sum_j beta_j P_{j,r}. */
static void scores_from_products(km_obscure *o)
{
    for (size_t r = 0; r < o->K; r++) {
        double sum = 0.0;
        for (size_t j = 0; j < o->F; j++)
            sum += o->beta[j] * o->P[j * o->K + r];
        o->scores[r] = o->kappa * sum;
    }
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
 * a^2 S_j + 2 a eta y G_j + eta^2 K^j(x_i,x_i) (hinge), G_{j,r} = kappa P_{j,r} taken before the step.
 * slot: the row's place in the block, whose change of c~ it records. */
static void take_step(km_obscure *o, size_t i, size_t slot, size_t rival, double a, double eta, int updated)
{
    size_t F = o->F, K = o->K;
    size_t ry = K == 1 ? 0 : o->class_of[i];
    double kappa = o->kappa;   /* of G, before the step */
    if (a == 0.0) {
        /* Pegasos' first step multiplies theta by 0, and with it every change made in the block */
        for (size_t s = 0; s < o->n_support; s++) {
            memset(o->c + o->support[s] * K, 0, K * sizeof *o->c);
            o->in_support[o->support[s]] = 0;
        }
        o->n_support = 0;
        o->kappa = 1.0;
        memset(o->S, 0, F * sizeof *o->S);
        o->block_base = 0;
        if (o->block_len)
            memset(o->block_updated, 0, o->block_len);
        if (o->V)
            km_obscure_features_scale(o, 0.0);
    } else if (a != 1.0) {
        o->kappa *= a;
        for (size_t j = 0; j < F; j++)
            o->S[j] *= a * a;
    }
    if (updated) {
        const double *const *diag = o->kernel->diag;
        double *delta = o->V ? o->step_delta : o->block_delta + slot * K;
        if (o->V)
            memset(delta, 0, K * sizeof *delta);
        if (K == 1) {
            double y = o->y[i];
            for (size_t j = 0; j < F; j++)
                o->S[j] = fmax(0.0, o->S[j] + 2.0 * a * eta * y * kappa * o->P[j] + eta * eta * diag[j][i]);
            delta[0] = eta * y / o->kappa;
        } else {
            for (size_t j = 0; j < F; j++) {
                double G = kappa * (o->P[j * K + ry] - o->P[j * K + rival]);
                o->S[j] = fmax(0.0, o->S[j] + 2.0 * a * eta * G + 2.0 * eta * eta * diag[j][i]);
            }
            delta[ry] = eta / o->kappa;
            delta[rival] = -eta / o->kappa;
        }
        for (size_t r = 0; r < K; r++)
            o->c[i * K + r] += delta[r];
        if (o->V)
            km_obscure_features_add(o, i, delta);
        else
            o->block_updated[slot] = 1;
        add_support(o, i);
    }
    refresh_weights(o);
}

static void keep_kappa_in_range(km_obscure *o)
{
    if (o->kappa < o->fold_low || o->kappa > o->fold_high)
        km_obscure_fold(o);
}

/* Scores of row i at the current w and its loss, from the prefetched block (a block of row i alone
 * unless i is the block's next row); *slot: its place in the block. */
static km_status row_scores(km_obscure *o, size_t i, size_t *slot, size_t *rival, double *loss)
{
    if (o->V) {
        km_obscure_features_products(o, i);
        *slot = 0;
    } else {
        if (o->block_next >= o->block_len || o->block[o->block_next] != i) {
            size_t taken;
            km_status st = km_obscure_prefetch(o, &i, 1, &taken);
            if (st)
                return st;
        }
        current_products(o);
        *slot = o->block_next++;
    }
    scores_from_products(o);
    *rival = 0;
    *loss = row_loss(o, i, o->scores, rival);
    return KM_OK;
}

km_status km_obscure_online_step(km_obscure *o, size_t i, double eta, int *updated)
{
    size_t slot, rival;
    double loss;
    km_status st = row_scores(o, i, &slot, &rival, &loss);
    if (st)
        return st;
    *updated = loss > 0.0;
    if (*updated)
        take_step(o, i, slot, rival, 1.0, eta, 1);
    return KM_OK;
}

km_status km_obscure_stochastic_step(km_obscure *o, size_t i, int *updated)
{
    size_t slot, rival;
    double loss;
    km_status st = row_scores(o, i, &slot, &rival, &loss);
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
    take_step(o, i, slot, rival, shrink, eta, *updated);
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

/* values[t ns + s] = sum_j beta_j K^j(x_support[s], x_cols[t]): the access's combination, or the
 * weighted sum of its kernel values (F len ns values of scratch). */
static km_status combined_values(const km_obscure *o, const size_t *cols, size_t len, double *values, double *scratch)
{
    const km_kernel_access *k = o->kernel;
    size_t ns = o->n_support, F = o->F;
    if (k->combined)
        return k->combined(k->column_ctx, o->beta, cols, len, o->support, ns, values);
    km_status st = km_kernel_access_blocks(k, cols, len, o->support, ns, scratch);
    for (size_t t = 0; !st && t < len; t++)
        for (size_t s = 0; s < ns; s++) {
            double sum = 0.0;
            for (size_t j = 0; j < F; j++)
                sum += o->beta[j] * scratch[(t * F + j) * ns + s];
            values[t * ns + s] = sum;
        }
    return st;
}

/* The loss and errors summed over the rows, their scores from kernel values against the support. */
static km_status kernel_objective(km_obscure *o, double *loss_out, size_t *errors_out)
{
    size_t n = o->n, K = o->K, ns = o->n_support, F = o->F;
    /* rows at a time: their kernel values and the kernel layer's dot products in block_bytes, in the
     * prefetch's buffers (each block gathers the support rows' features once: the fewer the better) */
    size_t values_per_row = ns * (o->kernel->combined ? 1 : F + 1);
    size_t block = o->block_bytes / ((values_per_row + ns + K + 1) * sizeof(double));
    block = block < 1 ? 1 : block > n ? n : block;
    double *f = calloc(block * K, sizeof *f);
    size_t *cols = malloc(block * sizeof *cols);
    km_status st = KM_OK;
    if (!f || !cols || !reserve(&o->block_values, &o->block_values_cap, block * values_per_row,
                                o->block_bytes / sizeof(double)) ||
        !reserve(&o->block_coef, &o->block_coef_cap, ns * K, SIZE_MAX))
        st = km_error_nomem("OBSCURE's objective");
    double *values = o->block_values, *coef = o->block_coef;
    double *scratch = o->kernel->combined || st ? NULL : values + block * ns;
    for (size_t s = 0; !st && s < ns; s++)
        for (size_t r = 0; r < K; r++)
            coef[s * K + r] = o->kappa * o->c[o->support[s] * K + r];
    double loss = 0.0;
    size_t errors = 0;
    for (size_t first = 0; !st && first < n; first += block) {
        size_t len = n - first < block ? n - first : block;
        for (size_t t = 0; t < len; t++)
            cols[t] = first + t;
        /* f (len x K) = combined values (len x ns) times the coefficients kappa c~ (ns x K) */
        if (ns && !(st = combined_values(o, cols, len, values, scratch)))
            cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)len, (int)K, (int)ns, 1.0, values, (int)ns,
                        coef, (int)K, 0.0, f, (int)K);
        for (size_t t = 0; !st && t < len; t++)
            count_row(o, first + t, f + t * K, &loss, &errors);
    }
    free(f);
    free(cols);
    *loss_out = loss;
    *errors_out = errors;
    return st;
}

/* The loss and errors summed over the rows, their scores from the features. */
static km_status feature_objective(const km_obscure *o, double *loss, size_t *errors)
{
    double *f = malloc(o->K * sizeof *f);
    if (!f)
        return km_error_nomem("OBSCURE's objective");
    for (size_t i = 0; i < o->n; i++) {
        km_obscure_features_scores(o, i, f);
        count_row(o, i, f, loss, errors);
    }
    free(f);
    return KM_OK;
}

km_status km_obscure_objective(km_obscure *o, double *objective, double *error)
{
    double loss = 0.0;
    size_t errors = 0;
    km_status st = o->V ? feature_objective(o, &loss, &errors) : kernel_objective(o, &loss, &errors);
    if (st)
        return st;
    double w = km_obscure_w_norm(o);
    *objective = 0.5 * o->lambda * w * w + loss / (double)o->n;
    *error = (double)errors / (double)o->n;
    return KM_OK;
}
