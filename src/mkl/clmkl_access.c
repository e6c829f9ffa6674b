/* The localized kernel access of convex localized MKL (clmkl.h): V = M l kernels
 * K_{jM+m}(x_i, x_i') = c_ij c_i'j K_m(x_i, x_i') over the base kernels of a machine, their combination
 * with beta the kernel of Eq. (6) of Lei, Binder, Dogan & Kloft. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "mkl/clmkl.h"

struct km_localized_access {
    km_kernel_access kernels;    /* what the solvers see; column_ctx is this struct */
    const km_kernel_access *base;
    size_t *learned;             /* M base-kernel indices */
    size_t M, l;
    double *gamma;               /* n x l memberships (own copy) */
    double **diag;               /* V arrays of n values: c_ij^2 K_m(x_i, x_i) */
    double *values;              /* scratch: M_all x n base columns */
};

/* K_u(rows[k], i) = c_{rows[k] j} c_ij K_m(rows[k], i). */
static km_status localized_column(void *ctx, size_t u, size_t i, const size_t *rows, size_t nrows, double *out)
{
    km_localized_access *a = ctx;
    size_t j = u / a->M, m = a->learned[u % a->M], l = a->l;
    km_status st = a->base->column(a->base->column_ctx, m, i, rows, nrows, out);
    double ci = a->gamma[i * l + j];
    for (size_t k = 0; !st && k < nrows; k++)
        out[k] *= ci * a->gamma[(rows ? rows[k] : k) * l + j];
    return st;
}

/* sum_u theta_u K_u(rows[k], cols[t]) = sum_m K_m(rows[k], cols[t]) sum_j beta_jm c_{rows[k] j} c_{cols[t] j}. */
static km_status localized_combined(void *ctx, const double *theta, const size_t *cols, size_t ncols,
                                    const size_t *rows, size_t nrows, double *out)
{
    km_localized_access *a = ctx;
    const km_kernel_access *b = a->base;
    size_t M = a->M, l = a->l;
    km_status st = KM_OK;
    for (size_t t = 0; !st && t < ncols; t++) {
        size_t i = cols[t];
        double *target = out + t * nrows;
        memset(target, 0, nrows * sizeof *target);
        if (b->kernel_columns)
            st = b->kernel_columns(b->column_ctx, i, rows, nrows, a->values);
        for (size_t m = 0; !st && m < M; m++) {
            size_t base_m = a->learned[m];
            double *column = a->values + (b->kernel_columns ? base_m : 0) * nrows;
            if (!b->kernel_columns && (st = b->column(b->column_ctx, base_m, i, rows, nrows, column)))
                break;
            for (size_t k = 0; k < nrows; k++) {
                const double *ck = a->gamma + (rows ? rows[k] : k) * l, *ci = a->gamma + i * l;
                double w = 0;
                for (size_t j = 0; j < l; j++)
                    w += theta[j * M + m] * ck[j] * ci[j];
                target[k] += w * column[k];
            }
        }
    }
    return st;
}

km_status km_localized_access_new(const km_kernel_access *base, const size_t *learned, size_t M, size_t l,
                                  const double *gamma, double *theta, km_localized_access **out)
{
    size_t n = base->n_rows, V = M * l;
    km_localized_access *a = calloc(1, sizeof *a);
    if (!a)
        return km_error_nomem("the localized kernels");
    a->base = base;
    a->M = M;
    a->l = l;
    a->learned = malloc(M * sizeof *a->learned);
    a->gamma = malloc(n * l * sizeof *a->gamma);
    a->diag = calloc(V, sizeof *a->diag);
    a->values = malloc(base->n_kernels * n * sizeof *a->values);
    if (!a->learned || !a->gamma || !a->diag || !a->values) {
        km_localized_access_free(a);
        return km_error_nomem("the localized kernels");
    }
    memcpy(a->learned, learned, M * sizeof *learned);
    for (size_t u = 0; u < V; u++) {
        if (!(a->diag[u] = malloc(n * sizeof *a->diag[u]))) {
            km_localized_access_free(a);
            return km_error_nomem("the localized kernels");
        }
    }
    km_localized_access_set_memberships(a, gamma);
    a->kernels = (km_kernel_access){.n_rows = n, .n_kernels = V, .theta = theta, .column = localized_column,
                                    .column_ctx = a, .diag = (const double *const *)a->diag,
                                    .combined = localized_combined, .costly_values = base->costly_values};
    *out = a;
    return KM_OK;
}

void km_localized_access_set_memberships(km_localized_access *a, const double *gamma)
{
    size_t n = a->base->n_rows, l = a->l;
    memcpy(a->gamma, gamma, n * l * sizeof *gamma);
    for (size_t u = 0; u < a->M * l; u++) {
        const double *d = a->base->diag[a->learned[u % a->M]];
        for (size_t i = 0; i < n; i++) {
            double c = gamma[i * l + u / a->M];
            a->diag[u][i] = c * c * d[i];
        }
    }
}

const km_kernel_access *km_localized_access_kernels(const km_localized_access *access) { return &access->kernels; }

void km_localized_access_free(km_localized_access *a)
{
    if (!a)
        return;
    for (size_t u = 0; a->diag && u < a->M * a->l; u++)
        free(a->diag[u]);
    free(a->diag);
    free(a->learned);
    free(a->gamma);
    free(a->values);
    free(a);
}
