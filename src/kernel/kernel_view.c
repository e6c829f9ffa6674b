/* Kernel views (kernel_view.h): view rows mapped to provider rows, mapped and scaled diagonals. */
#include "kernel/kernel_view.h"

#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/finite.h"
#include "kernel/normalization.h"

struct km_kernel_view {
    km_provider *provider;
    size_t n_rows;
    size_t *to_provider;         /* view row -> provider row; NULL: identity */
    size_t n_kernels;
    size_t *base;                /* provider kernel of each view kernel */
    double **scale;              /* per view kernel: n_rows row scales, or NULL */
    int plain;                   /* the provider's kernels in order, unscaled */
    size_t in_place_size;        /* km_kernel_view_in_place_size, fixed at creation */
    const double **diag;         /* per view kernel: the provider's diagonal or one of own_diag */
    double **own_diag;           /* mapped or scaled diagonals */
    size_t *mapped;              /* scratch for mapped row lists */
    size_t *mapped_cols;         /* scratch for mapped column lists */
    double *scratch;             /* one view kernel's column while summing scaled kernels */
};

void km_kernel_view_free(km_kernel_view *view)
{
    if (!view)
        return;
    for (size_t v = 0; v < view->n_kernels; v++) {
        if (view->scale)
            free(view->scale[v]);
        if (view->own_diag)
            free(view->own_diag[v]);
    }
    free(view->to_provider);
    free(view->base);
    free(view->scale);
    free(view->diag);
    free(view->own_diag);
    free(view->mapped);
    free(view->mapped_cols);
    free(view->scratch);
    free(view);
}

int km_kernel_view_rank1(const km_kernel_view *view)
{
    const km_kernel_set *set = km_provider_fitted_set(view->provider);
    for (size_t m = 0; m < set->size; m++)
        if (set->kernels[m].type != KM_KERNEL_RANK1)
            return 0;
    return view->plain;
}

void km_kernel_view_feature_block(void *ctx, size_t v, km_feature_block *out)
{
    km_kernel_view *view = ctx;
    *out = (km_feature_block){0};
    if (view->scale && view->scale[v])
        return;
    km_provider_feature_block(view->provider, view->base[v], out);
    out->rows = view->to_provider;
}

/* Diagonal of view kernel v: the provider's own when the view neither maps rows nor scales. */
static km_status view_diagonal(km_kernel_view *view, size_t v)
{
    const double *full = km_provider_diag(view->provider, view->base[v]);
    const double *scale = view->scale[v];
    if (!view->to_provider && !scale) {
        view->diag[v] = full;
        return KM_OK;
    }
    double *diag = view->own_diag[v] = malloc(view->n_rows * sizeof *diag);
    if (!diag)
        return km_error_nomem("a kernel view's diagonal");
    for (size_t i = 0; i < view->n_rows; i++) {
        diag[i] = full[view->to_provider ? view->to_provider[i] : i];
        if (scale)
            diag[i] *= scale[i] * scale[i];
    }
    view->diag[v] = diag;
    return KM_OK;
}

km_status km_kernel_view_new_scaled(km_provider *provider, const size_t *rows, size_t n_rows, size_t n_kernels,
                                    const size_t *base, const double *const *row_scale, km_kernel_view **out)
{
    *out = NULL;
    size_t provider_rows = km_provider_n_rows(provider), M = km_provider_n_kernels(provider);
    if (!rows && n_rows != provider_rows)
        return km_error(KM_EINVAL, "a kernel view of all %zu provider rows was given %zu rows", provider_rows, n_rows);
    for (size_t k = 0; rows && k < n_rows; k++)
        if (rows[k] >= provider_rows)
            return km_error(KM_EINVAL, "view row %zu maps to provider row %zu of %zu", k + 1, rows[k] + 1, provider_rows);
    for (size_t v = 0; v < n_kernels; v++)
        if (base[v] >= M)
            return km_error(KM_EINVAL, "view kernel %zu is provider kernel %zu of %zu", v + 1, base[v] + 1, M);
    km_kernel_view *view = calloc(1, sizeof *view);
    if (!view)
        return km_error_nomem("a kernel view");
    view->provider = provider;
    view->n_rows = n_rows;
    view->n_kernels = n_kernels;
    size_t count = n_rows ? n_rows : 1, kernels = n_kernels ? n_kernels : 1;
    view->base = malloc(kernels * sizeof *view->base);
    view->scale = calloc(kernels, sizeof *view->scale);
    view->diag = calloc(kernels, sizeof *view->diag);
    view->own_diag = calloc(kernels, sizeof *view->own_diag);
    view->mapped = malloc(count * sizeof *view->mapped);
    view->mapped_cols = malloc(count * sizeof *view->mapped_cols);
    view->scratch = malloc(count * sizeof *view->scratch);
    km_status st = KM_OK;
    if (!view->base || !view->scale || !view->diag || !view->own_diag || !view->mapped || !view->mapped_cols ||
        !view->scratch)
        st = km_error_nomem("a kernel view");
    if (!st && rows) {
        if ((view->to_provider = malloc(count * sizeof *view->to_provider)))
            memcpy(view->to_provider, rows, n_rows * sizeof *rows);
        else
            st = km_error_nomem("a kernel view");
    }
    view->plain = n_kernels == M;
    for (size_t v = 0; !st && v < n_kernels; v++) {
        view->base[v] = base[v];
        view->plain &= base[v] == v;
        if (row_scale && row_scale[v]) {
            view->plain = 0;
            if ((view->scale[v] = malloc(count * sizeof **view->scale)))
                memcpy(view->scale[v], row_scale[v], n_rows * sizeof **view->scale);
            else
                st = km_error_nomem("a kernel view's row scales");
        }
        if (!st)
            st = view_diagonal(view, v);
    }
    if (st) {
        km_kernel_view_free(view);
        return st;
    }
    /* in place: the provider's kernels on all its rows, in order, unscaled */
    if (view->plain && !view->to_provider && n_rows == provider_rows)
        view->in_place_size = km_provider_in_place_size(provider);
    *out = view;
    return KM_OK;
}

km_status km_kernel_view_new(km_provider *provider, const size_t *rows, size_t n_rows, km_kernel_view **out)
{
    size_t M = km_provider_n_kernels(provider);
    size_t *base = malloc(M * sizeof *base);
    if (!base)
        return km_error_nomem("a kernel view");
    for (size_t m = 0; m < M; m++)
        base[m] = m;
    km_status st = km_kernel_view_new_scaled(provider, rows, n_rows, M, base, NULL, out);
    free(base);
    return st;
}

int km_kernel_view_costly_values(const km_kernel_view *view)
{
    return km_provider_costly_values(view->provider);
}

int km_kernel_view_columns_derived(const km_kernel_view *view)
{
    return view->plain && km_provider_columns_from_dots(view->provider);
}

size_t km_kernel_view_in_place_size(const km_kernel_view *view) { return view->in_place_size; }

size_t km_kernel_view_n_rows(const km_kernel_view *view) { return view->n_rows; }
size_t km_kernel_view_n_kernels(const km_kernel_view *view) { return view->n_kernels; }
const double *const *km_kernel_view_diag(const km_kernel_view *view) { return view->diag; }

/* Provider rows of the view rows asked for (rows NULL: the first nrows view rows). */
static const size_t *provider_rows(km_kernel_view *view, const size_t *rows, size_t nrows)
{
    if (!view->to_provider)
        return rows;
    if (!rows)
        return view->to_provider;
    for (size_t k = 0; k < nrows; k++)
        view->mapped[k] = view->to_provider[rows[k]];
    return view->mapped;
}

/* Kernel values that overflowed (a high degree, features of 1e300) are stopped where they leave the
 * kernel layer, before a solver runs on them: count values of view kernel v (v = n_kernels: of a
 * combination). */
static km_status finite_values(const km_kernel_view *view, size_t v, const double *values, size_t count)
{
    if (km_all_finite(values, count))
        return KM_OK;
    for (size_t k = 0; k < count; k++) {
        if (isfinite(values[k]))
            continue;
        char spec[256] = "combination";
        if (v < view->n_kernels)
            km_kernel_describe(&km_provider_fitted_set(view->provider)->kernels[view->base[v]], spec, sizeof spec);
        return km_error(KM_EINVAL, "kernel %s: a kernel value is %g: it overflows double precision (scale the "
                        "features or choose smaller kernel parameters)", spec, values[k]);
    }
    return KM_OK;
}

km_status km_kernel_view_column(void *ctx, size_t v, size_t i, const size_t *rows, size_t nrows, double *out)
{
    km_kernel_view *view = ctx;
    if (v >= view->n_kernels || i >= view->n_rows)
        return km_error(KM_EINVAL, "kernel %zu, column %zu requested from a view of %zu kernels and %zu rows", v + 1,
                        i + 1, view->n_kernels, view->n_rows);
    size_t column = view->to_provider ? view->to_provider[i] : i;
    km_status st = km_provider_column(view->provider, view->base[v], column, provider_rows(view, rows, nrows), nrows, out);
    if (!st && view->scale[v])
        km_scale_rows(view->scale[v], view->scale[v][i], rows, nrows, out);
    return st ? st : finite_values(view, v, out, nrows);
}

km_status km_kernel_view_columns_in_place(void *ctx, size_t i, const void **values)
{
    km_kernel_view *view = ctx;
    if (i >= view->n_rows || !view->in_place_size)
        return km_error(KM_EINVAL, "kernel columns of row %zu requested in place from a view of %zu rows that "
                        "does not hold them so", i + 1, view->n_rows);
    km_provider_columns_in_place(view->provider, i, values);
    return KM_OK;
}

km_status km_kernel_view_kernel_columns(void *ctx, size_t i, const size_t *rows, size_t nrows, double *out)
{
    return km_kernel_view_kernel_blocks(ctx, &i, 1, rows, nrows, out);
}

km_status km_kernel_view_kernel_blocks(void *ctx, const size_t *cols, size_t ncols, const size_t *rows, size_t nrows,
                                       double *out)
{
    km_kernel_view *view = ctx;
    size_t V = view->n_kernels;
    km_status st = KM_OK;
    if (!view->plain) {   /* repeated or scaled kernels: one column each */
        for (size_t t = 0; !st && t < ncols; t++)
            for (size_t v = 0; !st && v < V; v++)
                st = km_kernel_view_column(view, v, cols[t], rows, nrows, out + (t * V + v) * nrows);
        return st;
    }
    for (size_t t = 0; !st && t < ncols; t++)
        if (cols[t] >= view->n_rows)
            st = km_error(KM_EINVAL, "column %zu requested from a view of %zu rows", cols[t] + 1, view->n_rows);
    if (st)
        return st;
    const size_t *mapped_cols = cols;
    if (view->to_provider) {
        for (size_t t = 0; t < ncols; t++)
            view->mapped_cols[t] = view->to_provider[cols[t]];
        mapped_cols = view->mapped_cols;
    }
    st = km_provider_kernel_blocks(view->provider, mapped_cols, ncols, provider_rows(view, rows, nrows), nrows, out);
    if (st || km_all_finite(out, ncols * V * nrows))   /* one pass over the block; each kernel only to name it */
        return st;
    for (size_t t = 0; !st && t < ncols; t++)
        for (size_t v = 0; !st && v < V; v++)
            st = finite_values(view, v, out + (t * V + v) * nrows, nrows);
    return st;
}

km_status km_kernel_view_combined(void *ctx, const double *theta, const size_t *cols, size_t ncols, const size_t *rows,
                                  size_t nrows, double *out)
{
    km_kernel_view *view = ctx;
    if (view->plain) {
        const size_t *mapped_cols = cols;
        if (view->to_provider) {
            for (size_t t = 0; t < ncols; t++)
                view->mapped_cols[t] = view->to_provider[cols[t]];
            mapped_cols = view->mapped_cols;
        }
        km_status st = km_provider_combined_columns(view->provider, theta, mapped_cols, ncols,
                                                    provider_rows(view, rows, nrows), nrows, out);
        return st ? st : finite_values(view, view->n_kernels, out, ncols * nrows);
    }
    memset(out, 0, ncols * nrows * sizeof *out);
    km_status st = KM_OK;
    for (size_t v = 0; !st && v < view->n_kernels; v++) {
        if (theta[v] == 0.0)
            continue;
        for (size_t t = 0; !st && t < ncols; t++) {
            st = km_kernel_view_column(view, v, cols[t], rows, nrows, view->scratch);
            if (!st)
                cblas_daxpy((int)nrows, theta[v], view->scratch, 1, out + t * nrows, 1);
        }
    }
    return st;
}
