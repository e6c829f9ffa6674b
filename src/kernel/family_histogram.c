/* The histogram families (kernel_family.h KM_INPUT_ROWS, on a feature view), for features >= 0:
 * chi2 exp(-gamma sum_j (x_j - x'_j)^2 / (x_j + x'_j)) (0/0 := 0), gamma relative to the mean chi^2
 * distance by default; histint sum_j min(x_j, x'_j). Pair by pair over dense or sparse rows. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/error.h"
#include "kernel/feature_view.h"
#include "kernel/kernel_family.h"
#include "kernel/vector_exp.h"

/* Columns with at least this many feature operations are computed by several threads (below it,
 * starting threads costs more than it saves, and idle threads compete with BLAS). */
#define KM_PARALLEL_MIN_WORK ((size_t)1 << 20)

/* Visits the union of the stored columns of two rows (a dense row stores every column). */
#define FOR_EACH_COLUMN_PAIR(a, b, x, y, BODY)                                                       \
    do {                                                                                           \
        size_t p_ = 0, q_ = 0;                                                                     \
        while (p_ < (a).nnz || q_ < (b).nnz) {                                                     \
            size_t ca_ = p_ < (a).nnz ? ((a).col ? (a).col[p_] : p_) : SIZE_MAX;                   \
            size_t cb_ = q_ < (b).nnz ? ((b).col ? (b).col[q_] : q_) : SIZE_MAX;                   \
            double x = 0.0, y = 0.0;                                                               \
            if (ca_ <= cb_)                                                                        \
                x = (a).val[p_++];                                                                 \
            if (cb_ <= ca_)                                                                        \
                y = (b).val[q_++];                                                                 \
            BODY;                                                                                  \
        }                                                                                          \
    } while (0)

static double chi2_term(double x, double y)
{
    double s = x + y;
    return s > 0 ? (x - y) * (x - y) / s : 0.0;
}

/* chi^2 distance sum_j (a_j - b_j)^2 / (a_j + b_j), 0/0 := 0 */
static double chi2_distance(km_view_row a, km_view_row b)
{
    double sum = 0.0;
    if (!a.col && !b.col) {
        for (size_t j = 0; j < a.nnz; j++)
            sum += chi2_term(a.val[j], b.val[j]);
        return sum;
    }
    FOR_EACH_COLUMN_PAIR(a, b, x, y, sum += chi2_term(x, y));
    return sum;
}

/* The source of the histogram kernels: the rows on the kernel's feature subset, all >= 0. */
static km_status view_source_new(const km_kernel *k, const km_dataset *data, const size_t *rows, size_t n,
                                 size_t dim_all, void **source)
{
    km_view *view = malloc(sizeof *view);
    if (!view)
        return km_error_nomem("a feature view");
    km_status st = km_view_build(data, rows, n, k->features, k->n_features, dim_all, view);
    if (st) {
        free(view);
        return st;
    }
    if (km_view_min_value(view) < 0) {
        st = km_kernel_error(k, "features must be >= 0 (found %g)", km_view_min_value(view));
        km_view_free(view);
        free(view);
        return st;
    }
    *source = view;
    return KM_OK;
}

static void view_source_free(void *source)
{
    km_view_free(source);
    free(source);
}

/* Mean chi^2 distance over the training pairs i < j (per-row partial sums keep it reproducible). */
static km_status mean_chi2_distance(const void *source, double *mean)
{
    const km_view *v = source;
    size_t n = v->n;
    if (n < 2)
        return km_error(KM_EINVAL, "a mean chi2 distance needs at least 2 training rows (got %zu)", n);
    double *partial = malloc(n * sizeof *partial);
    if (!partial)
        return km_error_nomem("chi2 distances");
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 16)
#endif
    for (size_t i = 0; i < n; i++) {
        km_view_row a = km_view_get_row(v, i);
        double s = 0.0;
        for (size_t j = i + 1; j < n; j++)
            s += chi2_distance(a, km_view_get_row(v, j));
        partial[i] = s;
    }
    double total = 0.0;
    for (size_t i = 0; i < n; i++)
        total += partial[i];
    free(partial);
    *mean = total / ((double)n * (double)(n - 1) / 2.0);
    return KM_OK;
}

static double chi2_pair_distance(const void *a, size_t i, const void *b, size_t j)
{
    return chi2_distance(km_view_get_row(a, i), km_view_get_row(b, j));
}

static double chi2_value(const km_kernel *k, const void *a, size_t i, const void *b, size_t j)
{
    return exp(-k->gamma * chi2_pair_distance(a, i, b, j));
}

/* out[r] = f(x_{rows[r]}, x_i) for a pair function f, on threads for large columns. */
static void pair_loop(const km_view *v, size_t i, const size_t *rows, size_t count,
                      double (*f)(km_view_row, km_view_row), double *out)
{
    km_view_row xi = km_view_get_row(v, i);
#ifdef _OPENMP
#pragma omp parallel for schedule(static) if (count * (v->dim + 1) > KM_PARALLEL_MIN_WORK)
#endif
    for (size_t r = 0; r < count; r++)
        out[r] = f(km_view_get_row(v, rows ? rows[r] : r), xi);
}

static void chi2_distances(const void *v, size_t i, const size_t *rows, size_t count, double *out)
{
    pair_loop(v, i, rows, count, chi2_distance, out);
}

/* chi2 columns as the distances, then one vectorised exp pass */
static void chi2_column(const km_kernel *k, const void *v, size_t i, const size_t *rows, size_t count, double *out)
{
    chi2_distances(v, i, rows, count, out);
    km_vexp(out, -k->gamma, count, out);
}

static double histogram_intersection(km_view_row a, km_view_row b)
{
    double sum = 0.0;
    if (!a.col && !b.col) {
        for (size_t j = 0; j < a.nnz; j++)
            sum += a.val[j] < b.val[j] ? a.val[j] : b.val[j];
        return sum;
    }
    FOR_EACH_COLUMN_PAIR(a, b, x, y, sum += x < y ? x : y);
    return sum;
}

static double histint_value(const km_kernel *k, const void *a, size_t i, const void *b, size_t j)
{
    (void)k;
    return histogram_intersection(km_view_get_row(a, i), km_view_get_row(b, j));
}

static void histint_column(const km_kernel *k, const void *v, size_t i, const size_t *rows, size_t count,
                           double *out)
{
    (void)k;
    pair_loop(v, i, rows, count, histogram_intersection, out);
}

const km_kernel_family km_family_chi2 = {
    .type = KM_KERNEL_CHI2,
    .input = KM_INPUT_ROWS,
    .params = KM_SPEC_FEATURES | KM_SPEC_GAMMA,
    .mean_distance = mean_chi2_distance,
    .source_new = view_source_new,
    .source_free = view_source_free,
    .value = chi2_value,
    .column = chi2_column,
    .distance_column = chi2_distances,
    .distance = chi2_pair_distance,
};

const km_kernel_family km_family_histint = {
    .type = KM_KERNEL_HISTINT,
    .input = KM_INPUT_ROWS,
    .params = KM_SPEC_FEATURES,
    .source_new = view_source_new,
    .source_free = view_source_free,
    .value = histint_value,
    .column = histint_column,
};
