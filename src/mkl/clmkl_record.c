/* The clustering a localized model keeps (clmkl.h): reading it back and the memberships of new rows. */
#include <math.h>
#include <string.h>

#include "core/error.h"
#include "mkl/clmkl.h"
#include "mkl/memberships.h"

/* The section's entry key, checked (core/record.h). */
static const double *entry(const km_record *record, const char *key, size_t rows, size_t cols, double lo, double hi,
                           int whole, km_status *st)
{
    return km_record_checked_values(record, KM_CLMKL_SECTION, key, rows, cols, lo, hi, whole, st);
}

/* Every row's memberships sum to 1 (the softmax of memberships.c, or a hard assignment). */
static km_status check_membership_sums(const double *memberships, size_t n, size_t l)
{
    for (size_t i = 0; i < n; i++) {
        double sum = 0;
        for (size_t j = 0; j < l; j++)
            sum += memberships[i * l + j];
        if (!(fabs(sum - 1) <= 1e-6))
            return km_error(KM_EFORMAT, "[data %s] memberships: row %zu sums to %g, not 1", KM_CLMKL_SECTION, i + 1,
                            sum);
    }
    return KM_OK;
}

/* The gating of LMKL: one gate per kernel, gated[m] 0 exactly for the clustering-only kernel. */
static km_status read_gating(const km_record *record, size_t n, size_t l, size_t M, km_clustering *out)
{
    km_status st = KM_OK;
    out->gating = entry(record, "gating", n, l, -INFINITY, INFINITY, 0, &st);
    out->gating_bias = entry(record, "gating_bias", l, 1, -INFINITY, INFINITY, 0, &st);
    out->gated = entry(record, "gated", l, 1, 0, 1, 1, &st);
    if (!st && l != M)
        st = km_error(KM_EFORMAT, "[data %s] gating: %zu gates for %zu kernels", KM_CLMKL_SECTION, l, M);
    for (size_t m = 0; !st && m < l; m++)
        if ((out->gated[m] == 0) != !km_clustering_learns(out, m))
            st = km_error(KM_EFORMAT, "[data %s] gated: kernel %zu is %s, but the clustering kernel is %zu%s",
                          KM_CLMKL_SECTION, m + 1, out->gated[m] == 0 ? "off" : "on", out->cluster_kernel,
                          out->cluster_only ? " (clustering only)" : "");
    out->tau = NAN;
    out->evenness = NAN;
    return st;
}

/* The k-means clusters: every row's cluster below l, the centres' sizes its counts (none empty). */
static km_status read_clusters(const km_record *record, size_t n, size_t l, km_clustering *out)
{
    km_status st = KM_OK;
    if (l > n)
        return km_error(KM_EFORMAT, "[data %s]: %zu clusters of %zu training rows", KM_CLMKL_SECTION, l, n);
    out->labels = entry(record, "labels", n, 1, 0, (double)l - 1, 1, &st);
    out->centres = entry(record, "centres", l, 2, -INFINITY, INFINITY, 0, &st);
    const double *tau = entry(record, "tau", 1, 1, 0, INFINITY, 0, &st);
    const double *hard = entry(record, "hard", 1, 1, 0, 1, 1, &st);
    const double *evenness = entry(record, "evenness", 1, 1, 0, 1, 0, &st);
    for (size_t j = 0; !st && j < l; j++) {
        size_t members = 0;
        for (size_t i = 0; i < n; i++)
            members += out->labels[i] == (double)j;
        if (out->centres[2 * j + 1] != (double)members || members == 0)
            st = km_error(KM_EFORMAT, "[data %s] centres: cluster %zu has size %g, but %zu rows are labelled with it%s",
                          KM_CLMKL_SECTION, j + 1, out->centres[2 * j + 1], members,
                          members ? "" : " (training leaves no cluster empty)");
    }
    if (st)
        return st;
    out->tau = *hard != 0 ? INFINITY : *tau;
    out->evenness = *evenness;
    return KM_OK;
}

km_status km_clustering_read(const km_record *record, size_t n, size_t l, size_t M, km_clustering *out)
{
    km_status st = KM_OK;
    memset(out, 0, sizeof *out);
    out->n = n;
    out->l = l;
    out->memberships = entry(record, "memberships", n, l, 0, 1, 0, &st);
    const double *kernel = entry(record, "cluster_kernel", 1, 1, 0, (double)M, 1, &st);
    const double *only = entry(record, "cluster_only", 1, 1, 0, 1, 1, &st);
    if (!st && *only == 1 && (*kernel == 0 || M < 2))
        st = km_error(KM_EFORMAT, "[data %s] cluster_only: kernel %g of %zu cannot cluster only (it needs one of "
                      "two or more kernels)", KM_CLMKL_SECTION, *kernel, M);
    if (!st)
        st = check_membership_sums(out->memberships, n, l);
    if (st)
        return st;
    out->cluster_kernel = (size_t)*kernel;
    out->cluster_only = *only == 1;
    return km_record_values(record, KM_CLMKL_SECTION, "gating", NULL, NULL) ? read_gating(record, n, l, M, out)
                                                                            : read_clusters(record, n, l, out);
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
