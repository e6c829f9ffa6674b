/* Alignment diagnostics kept in the model (train/alignment_record.h) and the accessor of kernelmix.h.
 * For kernels K_k on n rows and targets y, y~ = y - mean y (Rostamizadeh's thesis Def. 2.4, Eq. 2.41,
 * Def. 2.6; Cortes, Mohri & Rostamizadeh), with a_k = y~'K_k y~, b_k = y'K_k y, G_kl = <K_kc, K_lc>_F
 * and F_kl = <K_k, K_l>_F, a combination K_mu = sum_k mu_k K_k has
 *   rho(K_mu, yy') = mu'a / (sqrt(mu'G mu) ||y~||^2),  A(K_mu, yy') = mu'b / (sqrt(mu'F mu) ||y||^2),
 *   eta(K_mu, yy') = mu'a / n^2,
 * and a single kernel is the combination e_k (G_kk = ||K_kc||_F^2, F_kk = ||K_k||_F^2). */
#include "train/alignment_record.h"

#include <math.h>
#include <stdlib.h>

#include "core/error.h"
#include "mkl/alignment_stats.h"

#define SECTION "target_alignment"

km_status km_model_store_target_alignment(km_model *model, const km_alignment_stats *s)
{
    size_t M = s->M;
    int with_gram = s->gram != NULL;
    km_record *r = &model->data;
    const double labels[3] = {(double)s->n, s->y_centred_sq, s->y_sq};
    km_status st = km_record_set_values(r, SECTION, "labels", 1, 3, labels);
    if (!st)
        st = km_record_set_values(r, SECTION, "a", 1, M, s->a);
    if (!st)
        st = km_record_set_values(r, SECTION, "b", 1, M, s->b);
    if (!st)
        st = km_record_set_values(r, SECTION, "centred_sq", 1, M, s->centred_sq);
    if (!st)
        st = km_record_set_values(r, SECTION, "frobenius_sq", 1, M, s->frobenius_sq);
    if (!st && with_gram)
        st = km_record_set_values(r, SECTION, "gram", M, M, s->gram);
    if (!st && with_gram)
        st = km_record_set_values(r, SECTION, "uncentred_gram", M, M, s->uncentred_gram);
    return st;
}

/* An entry of the section with `count` values, or NULL. */
static const double *entry(const km_model *model, const char *key, size_t count)
{
    size_t rows = 0, cols = 0;
    const double *values = km_record_values(&model->data, SECTION, key, &rows, &cols);
    return values && rows * cols == count ? values : NULL;
}

/* u'v and u'Q u over M values */
static double dot(const double *u, const double *v, size_t M)
{
    double sum = 0;
    for (size_t l = 0; l < M; l++)
        sum += u[l] * v[l];
    return sum;
}

static double quadratic(const double *u, const double *Q, size_t M)
{
    double sum = 0;
    for (size_t k = 0; k < M; k++)
        sum += u[k] * dot(u, Q + k * M, M);
    return sum;
}

/* a / sqrt(q) / norm, NAN when the denominator is 0 (the alignment is undefined) */
static double ratio(double a, double q, double norm)
{
    double d = sqrt(q > 0 ? q : 0) * norm;
    return d > 0 ? a / d : NAN;
}

km_status km_model_alignment(const km_model *model, size_t machine, size_t m, double *rho, double *uncentred,
                             double *eta)
{
    size_t M = model->kernels->size;
    const double *labels = entry(model, "labels", 3), *a = entry(model, "a", M), *b = entry(model, "b", M);
    const double *csq = entry(model, "centred_sq", M), *fsq = entry(model, "frobenius_sq", M);
    if (!labels || !a || !b || !csq || !fsq)
        return km_error(KM_EINVAL, "the model stores no alignments with the targets (they are kept for learned "
                                   "kernel weights with two classes or regression targets)");
    if (m > M || machine >= model->n_machines)
        return km_error(KM_EINVAL, "no kernel %zu or machine %zu in a model of %zu kernels and %zu machines", m,
                        machine, M, model->n_machines);
    double n = labels[0], num_a, num_b, q_centred, q_uncentred;
    if (m < M) {
        num_a = a[m];
        num_b = b[m];
        q_centred = csq[m];
        q_uncentred = fsq[m];
    } else {
        const double *G = entry(model, "gram", M * M), *F = entry(model, "uncentred_gram", M * M);
        const double *mu = model->machines[machine].theta;
        if (!G || !F || model->weight_groups != 1)
            return km_error(KM_EINVAL, "the model stores no alignment of the combination (kept for one set of "
                                       "weights per machine and at most 100 kernels)");
        num_a = dot(mu, a, M);
        num_b = dot(mu, b, M);
        q_centred = quadratic(mu, G, M);
        q_uncentred = quadratic(mu, F, M);
    }
    if (rho)
        *rho = ratio(num_a, q_centred, labels[1]);
    if (uncentred)
        *uncentred = ratio(num_b, q_uncentred, labels[2]);
    if (eta)
        *eta = num_a / (n * n);
    return KM_OK;
}
