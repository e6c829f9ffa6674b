/* Single kernel columns of the provider (provider.h km_provider_column): dot products from the Gram
 * matrix, the column cache or computed directly; pairwise and precomputed raw values; normalization. */
#include <string.h>

#include "core/error.h"
#include "kernel/kernel_eval.h"
#include "kernel/normalization.h"
#include "kernel/provider_internal.h"
#include "kernel/vector_exp.h"

static void gather(const double *column, const size_t *rows, size_t nrows, double *out)
{
    for (size_t k = 0; k < nrows; k++)
        out[k] = column[rows[k]];
}

/* out[k] = <x_rows[k], x_i> on view v. */
km_status km_provider_fetch_dots(km_provider *p, km_provider_view *v, size_t i, const size_t *rows, size_t nrows, double *out)
{
    if (v->gram && v->gram_rows) {   /* a kernel context's Gram matrix over all dataset rows */
        const double *row = v->gram + v->gram_rows[i] * v->gram_ld;
        for (size_t k = 0; k < nrows; k++)
            out[k] = row[v->gram_rows[rows[k]]];
        return KM_OK;
    }
    if (v->gram) {
        gather(v->gram + i * v->gram_ld, rows, nrows, out);
        return KM_OK;
    }
    if (v->direct) {
        km_view_dots_direct(&v->view, i, rows, nrows, out);
        return KM_OK;
    }
    /* always whole columns (one dgemv), so that values never depend on what the cache held */
    double *column;
    int fresh;
    km_status st = km_provider_cached_column(p, v->source, i, &column, &fresh);
    if (st)
        return st;
    if (fresh) {
        km_provider_dots_computed(p, v->source, i);
        km_view_dot_column(&v->view, i, v->work, column);
    }
    gather(column, rows, nrows, out);
    return KM_OK;
}

/* Raw values k_m(x_rows[k], x_i) of a precomputed kernel (symmetric: column i is row i). */
static void matrix_values(const km_provider *p, size_t m, size_t i, const size_t *rows, size_t nrows, double *out)
{
    const km_provider_kernel *pk = &p->kernels[m];
    size_t at = (pk->map ? pk->map[i] : i) * pk->ld;
    if (rows == p->identity && !pk->map && pk->K32) {   /* whole columns: contiguous */
        for (size_t r = 0; r < nrows; r++)
            out[r] = pk->K32[at + r];
    } else if (rows == p->identity && !pk->map) {
        memcpy(out, pk->K + at, nrows * sizeof *out);
    } else if (pk->K32 && pk->map) {
        for (size_t r = 0; r < nrows; r++)
            out[r] = pk->K32[at + pk->map[rows[r]]];
    } else if (pk->K32) {
        for (size_t r = 0; r < nrows; r++)
            out[r] = pk->K32[at + rows[r]];
    } else if (pk->map) {
        for (size_t r = 0; r < nrows; r++)
            out[r] = pk->K[at + pk->map[rows[r]]];
    } else {
        gather(pk->K + at, rows, nrows, out);
    }
}

void km_provider_matrix_column(const km_provider *p, size_t m, size_t i, const size_t *rows, size_t nrows,
                               double *out)
{
    matrix_values(p, m, i, rows, nrows, out);
    km_provider_normalize(p, m, i, rows, nrows, out);
}

/* Column i (all n rows, raw values) of kernel m and of the kernels the family computes in one pass with it
 * (kernel_family.h columns) whose column i the cache lacks, up to together_most of them: each put in the
 * cache; *values: m's (the provider's work buffer, until the next call). */
static km_status together_columns(km_provider *p, size_t m, size_t i, const double **values)
{
    size_t n = p->n, lead = p->kernels[m].together, G = 1;
    p->together_members[0] = m;
    for (size_t o = lead; G < p->together_most && o < p->fitted->size; o++)
        if (o != m && p->kernels[o].together == lead && !km_cache_find(p->columns, p->kernels[o].source * n + i, n))
            p->together_members[G++] = o;
    for (size_t g = 0; g < G; g++)
        p->together_kernels[g] = &p->fitted->kernels[p->together_members[g]];
    const km_provider_kernel *pk = &p->kernels[m];
    pk->family->columns(p->together_kernels, G, pk->rows, i, NULL, n, p->together_work);
    for (size_t g = 0; g < G; g++) {
        double *column;
        int fresh;
        km_status st = km_provider_cached_column(p, p->kernels[p->together_members[g]].source, i, &column, &fresh);
        if (st)
            return st;
        if (fresh)
            memcpy(column, p->together_work + g * n, n * sizeof *column);
    }
    *values = p->together_work;
    return KM_OK;
}

/* Raw (unnormalized) values k_m(x_rows[k], x_i) of a pairwise or precomputed kernel. */
static km_status fetch_raw(km_provider *p, size_t m, size_t i, const size_t *rows, size_t nrows, double *out)
{
    const km_kernel *k = &p->fitted->kernels[m];
    km_provider_kernel *pk = &p->kernels[m];
    if (pk->family->input == KM_INPUT_MATRIX) {
        matrix_values(p, m, i, rows, nrows, out);
        return KM_OK;
    }
    void (*distances)(const void *, size_t, const size_t *, size_t, double *) = pk->family->distance_column;
    const double *cached = km_cache_find(p->columns, pk->source * p->n + i, p->n);
    if (!cached && 2 * nrows < p->n) {
        pk->family->column(k, pk->rows, i, rows, nrows, out);
        return KM_OK;
    }
    if (!cached && pk->together != KM_PROVIDER_NONE && p->together_most > 1) {
        km_status st = together_columns(p, m, i, &cached);
        if (st)
            return st;
    }
    if (!cached) {
        double *column;
        int fresh;
        km_status st = km_provider_cached_column(p, pk->source, i, &column, &fresh);
        if (st)
            return st;
        if (distances)
            distances(pk->rows, i, NULL, p->n, column);
        else
            pk->family->column(k, pk->rows, i, NULL, p->n, column);
        cached = column;
    }
    gather(cached, rows, nrows, out);
    if (distances)   /* the cached column holds the distances, shared by every width */
        km_vexp(out, -k->gamma, nrows, out);
    return KM_OK;
}

/* values[k] (raw k(x_rows[k], x_i)) -> normalized (normalization.h). */
void km_provider_normalize(const km_provider *p, size_t m, size_t i, const size_t *rows, size_t nrows, double *values)
{
    const km_kernel *k = &p->fitted->kernels[m];
    const double *factor = p->kernels[m].factor;
    km_norm_apply(k, k->col_mean, k->center ? k->col_mean[i] : 0.0, factor, factor ? factor[i] : 1.0, rows, nrows,
                  values);
}

/* Normalized column of one kernel; dots: the view's dot products for these rows when already fetched. */
km_status km_provider_kernel_column(km_provider *p, size_t m, size_t i, const size_t *rows, size_t nrows,
                               const double *dots, double *out)
{
    const km_kernel *k = &p->fitted->kernels[m];
    km_status st = KM_OK;
    if (km_kernel_uses_dot(k)) {
        const km_provider_view *v = &p->views[p->kernels[m].view];
        if (!dots) {
            st = km_provider_fetch_dots(p, &p->views[p->kernels[m].view], i, rows, nrows, out);
            dots = out;
        }
        if (!st && p->kernels[m].exp_squares > 0) {   /* as the blocks of columns compute it */
            km_squared_distances(dots, v->view.sqnorm, rows, v->view.sqnorm[i], nrows, out);
            km_provider_exp_values(p, m, out, nrows, out);
        } else if (!st) {
            km_kernel_from_dots(k, dots, v->view.sqnorm, rows, v->view.sqnorm[i], nrows, out);
        }
    } else {
        st = fetch_raw(p, m, i, rows, nrows, out);
    }
    if (!st)
        km_provider_normalize(p, m, i, rows, nrows, out);
    return st;
}

km_status km_provider_check_request(const km_provider *p, size_t i)
{
    if (i >= p->n)
        return km_error(KM_EINVAL, "kernel column %zu requested from a provider of %zu rows", i, p->n);
    return KM_OK;
}

km_status km_provider_column(km_provider *p, size_t m, size_t i, const size_t *rows, size_t nrows, double *out)
{
    if (m >= p->fitted->size)
        return km_error(KM_EINVAL, "kernel %zu requested from a provider of %zu kernels", m + 1, p->fitted->size);
    if (!rows)
        rows = p->identity;
    km_status st = km_provider_check_request(p, i);
    return st ? st : km_provider_kernel_column(p, m, i, rows, nrows, NULL, out);
}

km_status km_provider_kernel_columns(km_provider *p, size_t i, const size_t *rows, size_t nrows, double *out)
{
    return km_provider_kernel_blocks(p, &i, 1, rows, nrows, out);
}
