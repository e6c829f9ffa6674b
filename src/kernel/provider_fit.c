/* Fitting the kernel set on the provider's training rows (provider_internal.h): default and relative
 * widths, the raw diagonals and row sums the normalization needs (one blocked pass over the dot
 * products of each feature view), the normalization constants and the normalized diagonals. */
#include <math.h>
#include <stdlib.h>

#include "core/error.h"
#include "kernel/kernel_eval.h"
#include "kernel/normalization.h"
#include "kernel/provider_internal.h"

/* Values (rows × n) per block of the fitting pass over the whole training matrix. */
#define KM_FIT_BLOCK_VALUES ((size_t)1 << 22)

/* The mean training distance mean_of on rows (a feature view or a rows source), computed once. */
static km_status mean_distance(km_provider *p, const void *rows, km_status (*mean_of)(const void *, double *),
                               double *mean)
{
    for (size_t t = 0; t < p->n_means; t++)
        if (p->means[t].rows == rows && p->means[t].mean_of == mean_of) {
            *mean = p->means[t].value;
            return KM_OK;
        }
    km_status st = mean_of(rows, mean);
    if (!st)   /* at most one mean per kernel */
        p->means[p->n_means++] = (km_provider_mean){rows, mean_of, *mean};
    return st;
}

/* The provider's mean training distance of one kernel (km_kernel_fit_gamma's question). */
typedef struct gamma_fit {
    km_provider *p;
    size_t m;
} gamma_fit;

static km_status provider_mean(void *ctx, double *mean)
{
    const gamma_fit *g = ctx;
    km_provider *p = g->p;
    const km_provider_kernel *pk = &p->kernels[g->m];
    const km_provider_view *view = pk->view != KM_PROVIDER_NONE ? &p->views[pk->view] : NULL;
    km_status st = mean_distance(p, view ? (const void *)&view->view : pk->rows, pk->family->mean_distance, mean);
    if (!st)
        km_log(&p->logger, KM_LOG_DEBUG, "kernel %zu: mean training distance %.6g", g->m + 1, *mean);
    return st;
}

/* gamma relative to the mean training distance (rbf, chi2), LIBSVM's 1/features (poly, sigmoid). */
static km_status resolve_gamma(km_provider *p, size_t m)
{
    const km_provider_kernel *pk = &p->kernels[m];
    size_t dim = pk->view != KM_PROVIDER_NONE ? p->views[pk->view].view.dim : 0;
    gamma_fit g = {p, m};
    return km_kernel_fit_gamma(&p->fitted->kernels[m], pk->family, dim, provider_mean, &g);
}

/* Row sums of a kernel linear in its argument: sum_j <x_i, x_j> = <x_i, sum_j x_j>. */
static km_status linear_row_sums(const km_view *view, double *sums)
{
    double *column_sum;
    km_status st = km_view_column_sums(view, &column_sum);
    if (st)
        return st;
    km_view_dot_vector(view, column_sum, sums);
    free(column_sum);
    return KM_OK;
}

/* The diagonal k_m(x, x) of every training row: where a kernel that overflows (poly degree 1000,
 * features of 1e300) shows first. */
static km_status check_finite_diagonal(const km_provider *p, size_t m, const double *diag)
{
    for (size_t i = 0; i < p->n; i++)
        if (!isfinite(diag[i]))
            return km_kernel_error(&p->fitted->kernels[m],
                                   "k(x, x) of training row %zu is %g: the kernel overflows double precision (scale "
                                   "the features or choose smaller kernel parameters)",
                                   p->rows[i] + 1, diag[i]);
    return KM_OK;
}

/* Raw diagonal and, when the normalization needs them, raw row sums of every kernel. */
static km_status raw_statistics(km_provider *p, double *const *diag, double *const *sums)
{
    size_t n = p->n, M = p->fitted->size;
    for (size_t m = 0; m < M; m++) {
        const km_kernel *k = &p->fitted->kernels[m];
        km_provider_kernel *pk = &p->kernels[m];
        if (pk->family->input == KM_INPUT_MATRIX) {
            for (size_t i = 0; i < n; i++) {
                diag[m][i] = km_provider_stored_value(pk, i, i);
                if (sums[m]) {
                    double s = 0.0;
                    for (size_t j = 0; j < n; j++)
                        s += km_provider_stored_value(pk, i, j);
                    sums[m][i] = s;
                }
            }
            continue;
        }
        if (pk->family->input == KM_INPUT_DOT) {
            const km_view *v = &p->views[pk->view].view;
            for (size_t i = 0; i < n; i++)
                diag[m][i] = km_kernel_from_dot(k, v->sqnorm[i], v->sqnorm[i], v->sqnorm[i]);
            continue;   /* row sums below, from the view's dot products */
        }
        const void *rows = pk->rows;
        double (*value)(const km_kernel *, const void *, size_t, const void *, size_t) = pk->family->value;
        for (size_t i = 0; i < n; i++)
            diag[m][i] = value(k, rows, i, rows, i);
        if (sums[m]) {
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 16)
#endif
            for (size_t i = 0; i < n; i++) {
                double s = 0.0;
                for (size_t j = 0; j < n; j++)
                    s += value(k, rows, j, rows, i);
                sums[m][i] = s;
            }
        }
    }
    /* dot-product kernels: one pass over the dot products of each view, in blocks of rows */
    size_t block = KM_FIT_BLOCK_VALUES / n ? KM_FIT_BLOCK_VALUES / n : 1;
    double *dots = NULL, *values = NULL;
    km_status st = KM_OK;
    for (size_t v = 0; !st && v < p->n_views; v++) {
        km_provider_view *view = &p->views[v];
        /* the provider's rows of a Gram matrix, in order: blocks of it are read in place */
        int whole = view->gram && !view->gram_rows && view->gram_ld == n;
        int needed = 0;
        for (size_t t = 0; !st && t < view->n_dot_kernels; t++) {
            size_t m = view->dot_kernels[t];
            if (sums[m] && p->kernels[m].family->linear_in_argument)
                st = linear_row_sums(&view->view, sums[m]);
            else
                needed |= sums[m] != NULL;
        }
        if (st || !needed)
            continue;
        if (!values && !(values = malloc(block * n * sizeof *values))) {
            st = km_error_nomem("the normalization pass");
            break;
        }
        if (!whole && !dots && !(dots = malloc(block * n * sizeof *dots))) {
            st = km_error_nomem("the normalization pass");
            break;
        }
        for (size_t r0 = 0; !st && r0 < n; r0 += block) {
            size_t len = n - r0 < block ? n - r0 : block;
            const double *d = whole ? view->gram + r0 * n : dots;
            for (size_t r = 0; view->gram && !whole && !st && r < len; r++)
                st = km_provider_fetch_dots(p, view, r0 + r, p->identity, n, dots + r * n);
            if (!view->gram)
                st = km_view_dots(&view->view, r0, len, &view->view, dots);
            for (size_t t = 0; !st && t < view->n_dot_kernels; t++) {
                size_t m = view->dot_kernels[t];
                const km_kernel *k = &p->fitted->kernels[m];
                if (!sums[m] || p->kernels[m].family->linear_in_argument)   /* done above */
                    continue;
#ifdef _OPENMP
#pragma omp parallel for schedule(static)
#endif
                for (size_t r = 0; r < len; r++) {
                    double *row = values + r * n;
                    km_kernel_from_dots(k, d + r * n, view->view.sqnorm, NULL, view->view.sqnorm[r0 + r], n, row);
                    double s = 0.0;
                    for (size_t j = 0; j < n; j++)
                        s += row[j];
                    sums[m][r0 + r] = s;
                }
            }
        }
    }
    free(dots);
    free(values);
    return st;
}

/* A kernel whose spec makes it zero on every pair of training rows (a k-mer longer than every string). */
static km_status check_possible(const km_provider *p, size_t m)
{
    const km_provider_kernel *pk = &p->kernels[m];
    char why[256];
    if (pk->family->zero_on && pk->family->zero_on(&p->fitted->kernels[m], pk->rows, why, sizeof why))
        return km_kernel_error(&p->fitted->kernels[m], "%s: the kernel is 0 on every pair of training rows", why);
    return KM_OK;
}

static int all_zero(const double *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (x[i] != 0)
            return 0;
    return 1;
}

/* Whether kernel m is 0 on every pair of training rows, from its diagonal before and after the
 * normalization: a positive semi-definite kernel has |k(x, x')| <= sqrt(k(x, x) k(x', x')); stored
 * matrices, which need not be, are read whole. */
static int zero_kernel(const km_provider *p, size_t m, int raw_zero)
{
    const km_provider_kernel *pk = &p->kernels[m];
    if (!raw_zero && !all_zero(pk->diag, p->n))
        return 0;
    if (pk->family->input != KM_INPUT_MATRIX)
        return 1;
    for (size_t i = 0; i < p->n; i++)
        for (size_t j = 0; j < p->n; j++)
            if (km_provider_stored_value(pk, i, j) != 0)
                return 0;
    return 1;
}

/* Fits gamma and normalization of every kernel and prepares its normalized diagonal. */
km_status km_provider_fit(km_provider *p)
{
    size_t n = p->n, M = p->fitted->size;
    km_status st = KM_OK;
    for (size_t m = 0; !st && m < M; m++) {
        km_kernel *k = &p->fitted->kernels[m];
        if (p->kernels[m].family->input == KM_INPUT_MATRIX)
            st = km_provider_setup_precomputed(p, k, &p->kernels[m]);
        else
            st = resolve_gamma(p, m);
        if (!st && p->kernels[m].family->fit)
            st = p->kernels[m].family->fit(k, p->kernels[m].rows);
        if (!st)
            st = check_possible(p, m);
    }
    double **diag = calloc(M, sizeof *diag), **sums = calloc(M, sizeof *sums);
    if (!st && (!diag || !sums))
        st = km_error_nomem("normalization statistics");
    for (size_t m = 0; !st && m < M; m++) {
        if (!(diag[m] = malloc(n * sizeof **diag)) ||
            (km_norm_needs_row_sums(&p->fitted->kernels[m]) && !(sums[m] = malloc(n * sizeof **sums))))
            st = km_error_nomem("normalization statistics");
    }
    if (!st)
        st = raw_statistics(p, diag, sums);
    for (size_t m = 0; !st && m < M; m++)
        st = check_finite_diagonal(p, m, diag[m]);
    unsigned char *raw_zero = st ? NULL : malloc(M);
    if (!st && !raw_zero)
        st = km_error_nomem("normalization statistics");
    for (size_t m = 0; !st && m < M; m++)
        raw_zero[m] = (unsigned char)all_zero(diag[m], n);
    for (size_t m = 0; !st && m < M; m++) {
        km_kernel *k = &p->fitted->kernels[m];
        km_provider_kernel *pk = &p->kernels[m];
        st = km_norm_fit(k, diag[m], sums[m], n);
        if (!st && k->norm == KM_NORM_SPHERICAL) {
            if (!(pk->factor = malloc(n * sizeof *pk->factor)))
                st = km_error_nomem("spherical normalization");
            else
                st = km_norm_factors(k, diag[m], k->col_mean, n, pk->factor);
        }
        if (st)
            break;
        pk->mu = km_norm_mu(k);
        pk->global = km_norm_global(k);
        /* normalized diagonal: (k_ii - 2 m_i + mu) f_i^2 g */
        pk->diag = diag[m];
        diag[m] = NULL;
        for (size_t i = 0; i < n; i++) {
            double v = pk->diag[i] - (k->center ? 2.0 * k->col_mean[i] - pk->mu : 0.0);
            double f = pk->factor ? pk->factor[i] : 1.0;
            pk->diag[i] = v * f * f * pk->global;
        }
    }
    size_t zero = 0;
    while (!st && zero < M && zero_kernel(p, zero, raw_zero[zero]))
        zero++;
    if (!st && zero == M)
        st = M == 1 ? km_kernel_error(p->fitted->kernels, "it is 0 on every pair of training rows: nothing to learn")
                    : km_error(KM_EINVAL, "all %zu kernels are 0 on every pair of training rows: nothing to learn", M);
    free(raw_zero);
    for (size_t m = 0; m < M && diag && sums; m++) {
        free(diag[m]);
        free(sums[m]);
    }
    free(diag);
    free(sums);
    return st;
}
