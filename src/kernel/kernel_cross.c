/* Kernel values between new rows and training (basis) rows with the fitted constants of a kernel set
 * (provider.h km_kernel_cross), for prediction and cross-validation. Dot-product kernels on one
 * feature subset share one dgemm of dot products. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/error.h"
#include "data/dataset.h"
#include "kernel/feature_view.h"
#include "kernel/kernel_eval.h"
#include "kernel/kernel_family.h"
#include "kernel/normalization.h"
#include "kernel/provider.h"

/* Blocks with at least this many operations are computed by several threads. */
#define KM_PARALLEL_MIN_WORK ((size_t)1 << 16)
/* Blocks of kernels read pair by pair (each pair a pass over two rows) with at least this many pairs
 * are computed by several threads. */
#define KM_PARALLEL_MIN_PAIRS ((size_t)1 << 12)

/* The basis side of cross values, prepared once (provider.h km_cross_basis): its rows, and for every
 * kernel that leads a group of dot-product kernels on one feature subset, the view of the basis rows;
 * for every kernel that reads rows itself, the family's source over the basis rows. */
struct km_cross_basis {
    const km_kernel_set *set;
    const km_dataset *a, *b;
    size_t *brows;                   /* a copy; 0..nb-1 when none was given */
    size_t nb, dim_all;
    const size_t *kcol;              /* NULL: brows */
    km_view *views;                  /* views[m]: set when kernel m leads its dot-product group */
    unsigned char *has_view;
    void **sources;                  /* sources[m]: KM_INPUT_ROWS kernels */
    const unsigned char *wanted;     /* the kernels computed (km_cross_basis_only); NULL: all */
};

/* One call: rows of a against the prepared basis. */
typedef struct cross_request {
    const km_cross_basis *basis;
    const km_dataset *a, *b;
    const size_t *arows, *brows;     /* never NULL here */
    size_t na, nb;
    const km_matrix *const *test_kernels;
    const double *const *test_diag;
    const size_t *kcol;              /* NULL: brows */
} cross_request;

/* Normalizes a raw na×nb block in place (normalization.h); diag_a/diag_b: raw self-similarities,
 * needed for spherical only. With centering, b must be every training row in training order. */
static km_status normalize_block(const km_kernel *k, double *block, size_t na, size_t nb, const double *diag_a,
                                 const double *diag_b)
{
    double *shift_a = NULL, *factor_a = NULL, *factor_b = NULL;
    const double *shift_b = k->center ? k->col_mean : NULL;
    km_status st = KM_OK;
    if (k->center) {
        /* r(x) = (1/n) sum_i k(x, x_i) over the training rows (K_c = HKH at a test row) */
        if (!(shift_a = malloc(na * sizeof *shift_a)))
            return km_error_nomem("centering");
        for (size_t t = 0; t < na; t++) {
            double s = 0.0;
            for (size_t j = 0; j < nb; j++)
                s += block[t * nb + j];
            shift_a[t] = s / (double)nb;
        }
    }
    if (k->norm == KM_NORM_SPHERICAL) {
        factor_a = malloc(na * sizeof *factor_a);
        factor_b = malloc(nb * sizeof *factor_b);
        if (!factor_a || !factor_b)
            st = km_error_nomem("spherical normalization");
        if (!st)
            st = km_norm_factors(k, diag_a, shift_a, na, factor_a);
        if (!st)
            st = km_norm_factors(k, diag_b, shift_b, nb, factor_b);
    }
    for (size_t t = 0; !st && t < na; t++)
        km_norm_apply(k, shift_b, shift_a ? shift_a[t] : 0.0, factor_b, factor_a ? factor_a[t] : 1.0, NULL, nb,
                      block + t * nb);
    free(shift_a);
    free(factor_a);
    free(factor_b);
    return st;
}

/* Raw block and self-similarities of a dot-product kernel from the dot products of the two views. */
static void dot_kernel_block(const km_kernel *k, const km_view *va, const km_view *vb, const double *dots,
                             double *block, double *diag_a, double *diag_b)
{
    size_t na = va->n, nb = vb->n;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) if (na * nb > KM_PARALLEL_MIN_WORK)
#endif
    for (size_t t = 0; t < na; t++)
        km_kernel_from_dots(k, dots + t * nb, vb->sqnorm, NULL, va->sqnorm[t], nb, block + t * nb);
    for (size_t t = 0; t < na; t++)
        diag_a[t] = km_kernel_from_dot(k, va->sqnorm[t], va->sqnorm[t], va->sqnorm[t]);
    for (size_t j = 0; j < nb; j++)
        diag_b[j] = km_kernel_from_dot(k, vb->sqnorm[j], vb->sqnorm[j], vb->sqnorm[j]);
}

/* Raw block and self-similarities of a kernel that reads the rows itself (kernel_family.h
 * KM_INPUT_ROWS), through one source over the a rows and one over the b rows. */
static km_status rows_kernel_block(const km_kernel *k, const cross_request *r, void *b, double *block,
                                   double *diag_a, double *diag_b)
{
    const km_kernel_family *family = km_family(k);
    size_t na = r->na, nb = r->nb;
    void *a = NULL;
    km_status st = family->source_new(k, r->a, r->arows, na, r->basis->dim_all, &a);
    if (!st) {
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 8) if (na * nb > KM_PARALLEL_MIN_PAIRS)
#endif
        for (size_t t = 0; t < na; t++) {
            for (size_t j = 0; j < nb; j++)
                block[t * nb + j] = family->value(k, a, t, b, j);
            diag_a[t] = family->value(k, a, t, a, t);
        }
        for (size_t j = 0; j < nb; j++)
            diag_b[j] = family->value(k, b, j, b, j);
    }
    if (a)
        family->source_free(a);
    return st;
}

static int wanted(const km_cross_basis *basis, size_t m)
{
    return !basis->wanted || basis->wanted[m];
}

/* The distances of the last exp-of-distance kernel (kernel_family.h distance) of one cross call: every
 * later width of the same family on the same features takes its values from them. */
typedef struct distance_block {
    const km_kernel *lead;           /* the kernel they were computed for; NULL: none yet */
    double *pairs, *self_a, *self_b; /* na x nb, na and nb distances */
} distance_block;

/* Raw block and self-similarities of an exp-of-distance kernel, exp(-gamma D), from the distances held
 * in held (computed first when they belong to another family or feature subset). The same values as the
 * family's value function, one exp per value. */
static km_status distance_kernel_block(const km_kernel *k, const cross_request *r, void *b, distance_block *held,
                                       double *block, double *diag_a, double *diag_b)
{
    const km_kernel_family *family = km_family(k);
    size_t na = r->na, nb = r->nb;
    if (!held->lead || km_family(held->lead) != family || !km_kernel_same_features(held->lead, k)) {
        void *a = NULL;
        km_status st = family->source_new(k, r->a, r->arows, na, r->basis->dim_all, &a);
        if (st)
            return st;
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 8) if (na * nb > KM_PARALLEL_MIN_PAIRS)
#endif
        for (size_t t = 0; t < na; t++) {
            for (size_t j = 0; j < nb; j++)
                held->pairs[t * nb + j] = family->distance(a, t, b, j);
            held->self_a[t] = family->distance(a, t, a, t);
        }
        for (size_t j = 0; j < nb; j++)
            held->self_b[j] = family->distance(b, j, b, j);
        family->source_free(a);
        held->lead = k;
    }
    for (size_t e = 0; e < na * nb; e++)
        block[e] = exp(-k->gamma * held->pairs[e]);
    for (size_t t = 0; t < na; t++)
        diag_a[t] = exp(-k->gamma * held->self_a[t]);
    for (size_t j = 0; j < nb; j++)
        diag_b[j] = exp(-k->gamma * held->self_b[j]);
    return KM_OK;
}

/* 1 when k is a dot-product kernel on the feature subset of lead. */
static int in_group(const km_kernel *k, const km_kernel *lead)
{
    return km_family(k)->input == KM_INPUT_DOT && km_kernel_same_features(k, lead);
}

/* All dot-product kernels on the feature subset of kernel `first` (those after it with the same subset):
 * one product of the rows of a's view and the basis view vb. */
static km_status feature_group(const km_kernel_set *set, size_t first, const cross_request *r, const km_view *vb,
                               double *out, double *diag_a, double *diag_b)
{
    const km_kernel *lead = &set->kernels[first];
    km_view va;
    km_status st = km_view_build(r->a, r->arows, r->na, lead->features, lead->n_features, r->basis->dim_all, &va);
    if (st)
        return st;
    double *dots = NULL, *owned_dots = NULL;
    size_t dot_kernels = 0, only_dot = 0;
    for (size_t m = first; m < set->size; m++) {
        if (in_group(&set->kernels[m], lead) && wanted(r->basis, m)) {
            dot_kernels++;
            only_dot = m;
        }
    }
    if (dot_kernels == 0) {
        km_view_free(&va);
        return KM_OK;
    }
    /* one dot-product kernel: its own block holds the dot products, turned into values in place */
    if (dot_kernels == 1)
        dots = out + only_dot * r->na * r->nb;
    else if (!(dots = owned_dots = malloc((r->na * r->nb != 0 ? r->na * r->nb : 1) * sizeof *dots)))
        st = km_error_nomem("cross-kernel dot products");
    if (!st)
        st = km_view_dots(&va, 0, r->na, vb, dots);
    for (size_t m = first; !st && m < set->size; m++) {
        const km_kernel *k = &set->kernels[m];
        if (!in_group(k, lead) || !wanted(r->basis, m))
            continue;
        double *block = out + m * r->na * r->nb;
        dot_kernel_block(k, &va, vb, dots, block, diag_a, diag_b);
        st = normalize_block(k, block, r->na, r->nb, diag_a, diag_b);
    }
    free(owned_dots);
    km_view_free(&va);
    return st;
}

/* Column of basis row j in kernel values: kcol, else the LIBSVM 0:id of b's row, else its position. */
static size_t basis_column(const cross_request *r, size_t j)
{
    if (r->kcol)
        return r->kcol[j];
    if (r->b->ids)
        return (size_t)r->b->ids[r->brows[j]] - 1;
    return r->brows[j];
}

/* Precomputed from a matrix: test_kernels[m] (rows: test rows, columns: training rows), or the
 * training matrix itself when no test matrix is given (a then indexes training rows). */
static km_status matrix_kernel_block(const km_kernel *k, const km_matrix *T, const double *test_diag,
                                     const cross_request *r, double *block, double *diag_a, double *diag_b)
{
    const char *name = k->file ? k->file : "the kernel matrix";
    for (size_t t = 0; t < r->na; t++) {
        size_t row = r->arows[t];
        if (row >= T->rows)
            return km_kernel_error(k, "test kernel has %zu rows; row %zu requested", T->rows, row + 1);
        for (size_t j = 0; j < r->nb; j++) {
            size_t c = basis_column(r, j);
            if (c >= T->cols)
                return km_kernel_error(k, "test kernel has %zu columns; training row %zu requested", T->cols, c + 1);
            block[t * r->nb + j] = km_matrix_value(T, row, c);
        }
    }
    if (k->norm != KM_NORM_SPHERICAL)
        return KM_OK;
    for (size_t t = 0; t < r->na; t++) {
        size_t row = r->arows[t];
        if (test_diag)
            diag_a[t] = test_diag[row];
        else if (T == k->matrix && row < T->cols)
            diag_a[t] = km_matrix_value(T, row, row);
        else
            return km_kernel_error(k, "spherical normalization needs the test rows' self-similarities k(x,x)");
    }
    if (!k->matrix)
        return km_kernel_error(k, "spherical normalization needs the training matrix %s", name);
    for (size_t j = 0; j < r->nb; j++) {
        size_t c = basis_column(r, j);
        if (c >= k->matrix->rows)
            return km_kernel_error(k, "training row %zu is beyond %s", c + 1, name);
        diag_b[j] = km_matrix_value(k->matrix, c, c);
    }
    return KM_OK;
}

/* Precomputed in the rows themselves (LIBSVM 0:id): k(a_t, b_j) = row a_t at b_j's column. */
static km_status row_kernel_block(const km_kernel *k, const double *test_diag, const cross_request *r,
                                  double *block, double *diag_a, double *diag_b)
{
    for (size_t j = 0; j < r->nb; j++) {
        size_t c = basis_column(r, j);
        if (c >= r->a->d || c >= r->b->d)
            return km_kernel_error(k, "kernel rows have %zu values; column %zu requested",
                                r->a->d < r->b->d ? r->a->d : r->b->d, c + 1);
        for (size_t t = 0; t < r->na; t++)
            block[t * r->nb + j] = km_dataset_value(r->a, r->arows[t], c);
        diag_b[j] = km_dataset_value(r->b, r->brows[j], c);
    }
    if (k->norm != KM_NORM_SPHERICAL)
        return KM_OK;
    for (size_t t = 0; t < r->na; t++) {
        size_t row = r->arows[t];
        if (test_diag)
            diag_a[t] = test_diag[row];
        else if (r->a == r->b && r->a->ids)
            diag_a[t] = km_dataset_value(r->a, row, (size_t)r->a->ids[row] - 1);
        else
            return km_kernel_error(k, "spherical normalization needs the test rows' self-similarities k(x,x)");
    }
    return KM_OK;
}

/* 1 when kernel m is the first dot-product kernel of its feature subset (it leads the group). */
static int leads_group(const km_kernel_set *set, size_t m)
{
    const km_kernel *k = &set->kernels[m];
    if (km_family(k)->input != KM_INPUT_DOT)
        return 0;
    for (size_t earlier = 0; earlier < m; earlier++)
        if (in_group(&set->kernels[earlier], k))
            return 0;
    return 1;
}

static km_status cross(const cross_request *r, double *out)
{
    const km_kernel_set *set = r->basis->set;
    for (size_t t = 0; t < r->na; t++)
        if (r->arows[t] >= r->a->n)
            return km_error(KM_EINVAL, "row %zu requested from data of %zu rows", r->arows[t] + 1, r->a->n);
    double *diag_a = malloc((r->na ? r->na : 1) * sizeof *diag_a);
    double *diag_b = malloc((r->nb ? r->nb : 1) * sizeof *diag_b);
    distance_block held = {NULL, malloc((r->na * r->nb + r->na + r->nb + 1) * sizeof(double)), NULL, NULL};
    held.self_a = held.pairs ? held.pairs + r->na * r->nb : NULL;
    held.self_b = held.pairs ? held.self_a + r->na : NULL;
    km_status st = (diag_a && diag_b && held.pairs) ? KM_OK : km_error_nomem("cross-kernel diagonals");
    for (size_t m = 0; !st && m < set->size; m++) {
        const km_kernel *k = &set->kernels[m];
        double *block = out + m * r->na * r->nb;
        if (km_family(k)->input != KM_INPUT_DOT && !wanted(r->basis, m))
            continue;   /* a dot-product group skips its own kernels */
        if (km_family(k)->input == KM_INPUT_MATRIX) {
            const double *td = r->test_diag ? r->test_diag[m] : NULL;
            if (k->matrix || k->file) {
                const km_matrix *T = (r->test_kernels && r->test_kernels[m]) ? r->test_kernels[m] : k->matrix;
                st = T ? matrix_kernel_block(k, T, td, r, block, diag_a, diag_b)
                       : km_kernel_error(k, "needs a test kernel matrix");
            } else {
                st = row_kernel_block(k, td, r, block, diag_a, diag_b);
            }
            if (!st)
                st = normalize_block(k, block, r->na, r->nb, diag_a, diag_b);
        } else if (km_family(k)->input == KM_INPUT_ROWS) {
            st = km_family(k)->distance ? distance_kernel_block(k, r, r->basis->sources[m], &held, block, diag_a, diag_b)
                                        : rows_kernel_block(k, r, r->basis->sources[m], block, diag_a, diag_b);
            if (!st)
                st = normalize_block(k, block, r->na, r->nb, diag_a, diag_b);
        } else if (r->basis->has_view[m]) {
            st = feature_group(set, m, r, &r->basis->views[m], out, diag_a, diag_b);
        }
    }
    free(diag_a);
    free(diag_b);
    free(held.pairs);
    return st;
}

void km_cross_basis_free(km_cross_basis *basis)
{
    if (!basis)
        return;
    for (size_t m = 0; m < basis->set->size; m++) {
        if (basis->has_view && basis->has_view[m])
            km_view_free(&basis->views[m]);
        if (basis->sources && basis->sources[m])
            km_family(&basis->set->kernels[m])->source_free(basis->sources[m]);
    }
    free(basis->views);
    free(basis->has_view);
    free(basis->sources);
    free(basis->brows);
    free(basis);
}

/* Checks the set and the basis rows, and builds the views and sources of the basis side. */
static km_status prepare_basis(km_cross_basis *basis)
{
    const km_kernel_set *set = basis->set;
    for (size_t m = 0; m < set->size; m++) {
        const km_kernel *k = &set->kernels[m];
        km_status st = km_kernel_check_fitted(k);
        if (st)
            return st;
        if (k->center && basis->nb != k->n_train)
            return km_kernel_error(k, "centering needs all %zu training rows as basis (got %zu)", k->n_train,
                                   basis->nb);
    }
    for (size_t j = 0; j < basis->nb; j++)
        if (basis->brows[j] >= basis->b->n)
            return km_error(KM_EINVAL, "basis row %zu requested from data of %zu rows", basis->brows[j] + 1,
                            basis->b->n);
    for (size_t m = 0; m < set->size; m++) {
        const km_kernel *k = &set->kernels[m];
        km_status st = KM_OK;
        if (km_family(k)->input == KM_INPUT_ROWS)
            st = km_family(k)->source_new(k, basis->b, basis->brows, basis->nb, basis->dim_all, &basis->sources[m]);
        else if (leads_group(set, m)) {
            st = km_view_build(basis->b, basis->brows, basis->nb, k->features, k->n_features, basis->dim_all,
                               &basis->views[m]);
            basis->has_view[m] = !st;
        }
        if (st)
            return st;
    }
    return KM_OK;
}

void km_cross_basis_only(km_cross_basis *basis, const unsigned char *wanted) { basis->wanted = wanted; }

km_status km_cross_basis_new(const km_kernel_set *fitted, const km_dataset *a, const km_dataset *b,
                             const size_t *brows, size_t nb, const size_t *kcol, km_cross_basis **out)
{
    *out = NULL;
    km_cross_basis *basis = calloc(1, sizeof *basis);
    size_t slots = fitted->size ? fitted->size : 1;
    if (!basis)
        return km_error_nomem("cross-kernel basis");
    *basis = (km_cross_basis){.set = fitted, .a = a, .b = b, .nb = nb, .kcol = kcol,
                              .dim_all = a->d > b->d ? a->d : b->d};
    basis->brows = malloc((nb ? nb : 1) * sizeof *basis->brows);
    basis->views = calloc(slots, sizeof *basis->views);
    basis->has_view = calloc(slots, 1);
    basis->sources = calloc(slots, sizeof *basis->sources);
    km_status st = (basis->brows && basis->views && basis->has_view && basis->sources)
                       ? KM_OK : km_error_nomem("cross-kernel basis");
    for (size_t j = 0; !st && j < nb; j++)
        basis->brows[j] = brows ? brows[j] : j;
    if (!st)
        st = prepare_basis(basis);
    if (st)
        km_cross_basis_free(basis);
    else
        *out = basis;
    return st;
}

km_status km_cross_basis_values(const km_cross_basis *basis, const size_t *arows, size_t na,
                                const km_matrix *const *test_kernels, const double *const *test_diag, double *out)
{
    cross_request r = {basis, basis->a, basis->b, arows, basis->brows, na, basis->nb, test_kernels, test_diag,
                       basis->kcol};
    size_t *all_a = NULL;
    km_status st = KM_OK;
    if (!arows) {
        if (!(all_a = malloc((na ? na : 1) * sizeof *all_a)))
            return km_error_nomem("row indices");
        for (size_t t = 0; t < na; t++)
            all_a[t] = t;
        r.arows = all_a;
    }
    st = cross(&r, out);
    free(all_a);
    return st;
}

km_status km_kernel_cross(const km_kernel_set *fitted, const km_dataset *a, const size_t *arows, size_t na,
                          const km_dataset *b, const size_t *brows, size_t nb,
                          const km_matrix *const *test_kernels, const double *const *test_diag,
                          const size_t *kcol, double *out)
{
    km_cross_basis *basis;
    km_status st = km_cross_basis_new(fitted, a, b, brows, nb, kcol, &basis);
    if (!st)
        st = km_cross_basis_values(basis, arows, na, test_kernels, test_diag, out);
    km_cross_basis_free(basis);
    return st;
}
