/* The clustering a localized model keeps (clmkl.h): reading it back and the memberships of new rows. */
#include <math.h>
#include <string.h>

#include "core/error.h"
#include "mkl/clmkl.h"
#include "mkl/memberships.h"

static const double *entry(const km_record *record, const char *key, size_t rows, size_t cols, km_status *st)
{
    size_t r, c;
    const double *v = km_record_values(record, KM_CLMKL_SECTION, key, &r, &c);
    if (*st)
        return NULL;
    if (!v || r != rows || c != cols)
        *st = km_error(KM_EFORMAT, "[data %s] needs %s as %zu x %zu values", KM_CLMKL_SECTION, key, rows, cols);
    return v;
}

km_status km_clustering_read(const km_record *record, size_t n, size_t l, size_t M, km_clustering *out)
{
    km_status st = KM_OK;
    memset(out, 0, sizeof *out);
    out->n = n;
    out->l = l;
    out->memberships = entry(record, "memberships", n, l, &st);
    const double *kernel = entry(record, "cluster_kernel", 1, 1, &st), *only = entry(record, "cluster_only", 1, 1, &st);
    if (km_record_values(record, KM_CLMKL_SECTION, "gating", NULL, NULL)) {
        out->gating = entry(record, "gating", n, l, &st);
        out->gating_bias = entry(record, "gating_bias", l, 1, &st);
        out->gated = entry(record, "gated", l, 1, &st);
        if (!st && l != M)
            st = km_error(KM_EFORMAT, "[data %s]: %zu gates for %zu kernels", KM_CLMKL_SECTION, l, M);
        if (st)
            return st;
        out->tau = NAN;
        out->evenness = NAN;
        out->cluster_kernel = (size_t)*kernel;
        out->cluster_only = *only == 1;
        return KM_OK;
    }
    out->labels = entry(record, "labels", n, 1, &st);
    out->centres = entry(record, "centres", l, 2, &st);
    const double *tau = entry(record, "tau", 1, 1, &st), *hard = entry(record, "hard", 1, 1, &st);
    const double *ae = entry(record, "evenness", 1, 1, &st);
    if (st)
        return st;
    for (size_t i = 0; i < n; i++)
        if (!(out->labels[i] >= 0 && out->labels[i] < (double)l && out->labels[i] == floor(out->labels[i])))
            return km_error(KM_EFORMAT, "[data %s] labels: row %zu has cluster %g of %zu", KM_CLMKL_SECTION, i + 1,
                            out->labels[i], l);
    if (!(*tau >= 0) || !(*kernel >= 0 && *kernel <= (double)M && *kernel == floor(*kernel)) ||
        (*only != 0 && *only != 1) || (*only == 1 && (*kernel == 0 || M < 2)))
        return km_error(KM_EFORMAT, "[data %s]: tau %g, cluster kernel %g (cluster only %g) do not fit %zu kernels",
                        KM_CLMKL_SECTION, *tau, *kernel, *only, M);
    out->tau = *hard != 0 ? INFINITY : *tau;
    out->evenness = *ae;
    out->cluster_kernel = (size_t)*kernel;
    out->cluster_only = *only == 1;
    return KM_OK;
}

void km_gates(const double *z0, size_t nt, size_t n, size_t l, const double *r, const double *v,
              const double *gated, double *c)
{
    for (size_t t = 0; t < nt; t++) {
        double *row = c + t * l, top = -INFINITY, sum = 0;
        for (size_t m = 0; m < l; m++) {
            double z = v[m];
            for (size_t i = 0; i < n; i++)
                z += r[i * l + m] * z0[t * n + i];
            row[m] = z;
            if (gated[m] != 0)
                top = fmax(top, z);
        }
        for (size_t m = 0; m < l; m++) {
            row[m] = gated[m] != 0 ? exp(row[m] - top) : 0.0;
            sum += row[m];
        }
        for (size_t m = 0; m < l; m++)
            row[m] /= sum;
    }
}

int km_clustering_learns(const km_clustering *clustering, size_t m)
{
    return !(clustering->cluster_only && m + 1 == clustering->cluster_kernel);
}

void km_clustering_memberships(const km_clustering *cl, size_t M, const double *K, size_t nt, double *scratch,
                               double *c)
{
    size_t n = cl->n, l = cl->l;
    double *k0 = scratch, *e = scratch + n;
    for (size_t t = 0; t < nt; t++) {
        /* k0(x_t, x_i): one kernel's block, or the mean of the learned kernels' blocks */
        size_t first = cl->cluster_kernel ? cl->cluster_kernel - 1 : 0, last = cl->cluster_kernel ? first + 1 : M;
        double used = (double)(last - first);
        memset(k0, 0, n * sizeof *k0);
        for (size_t m = first; m < last; m++)
            for (size_t i = 0; i < n; i++)
                k0[i] += K[(m * nt + t) * n + i] / used;
        if (cl->gating) {
            km_gates(k0, 1, n, l, cl->gating, cl->gating_bias, cl->gated, c + t * l);
            continue;
        }
        /* e_j = A_j - 2 B_j(x_t), B_j the mean of k0 over cluster j */
        memset(e, 0, l * sizeof *e);
        for (size_t i = 0; i < n; i++)
            e[(size_t)cl->labels[i]] += k0[i];
        for (size_t j = 0; j < l; j++)
            e[j] = cl->centres[2 * j + 1] > 0 ? cl->centres[2 * j] - 2.0 * e[j] / cl->centres[2 * j + 1] : INFINITY;
        km_membership_gaps(1, l, e);
        km_memberships(1, l, e, cl->tau, c + t * l);
    }
}
