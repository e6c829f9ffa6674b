/* Rank-1 kernels (Rostamizadeh's thesis §3.2, §3.3.2; Cortes, Mohri & Rostamizadeh, "Two-stage learning
 * kernel algorithms", ICML 2010, §5): one kernel per feature j,
 *     K_j(x, x') = x~_j x~'_j,   x~_j = (x_j - mean_j) / ||x_j - mean_j 1||,
 * the feature centred on its training mean and scaled so that the centred training matrix has trace 1.
 * Fitted values: coef0 = mean_j, gamma = 1 / ||x_j - mean_j 1||^2 (0 for a feature that is constant on
 * the training rows: its kernel is 0 and the alignment methods give it weight 0). The source of a
 * kernel is the one column x_j of its rows; the provider serves combinations of many rank-1 kernels as
 * one weighted dot product of the rows (rank1_block.c), never as matrices. */
#include <math.h>
#include <stdlib.h>

#include "core/error.h"
#include "kernel/kernel_family.h"

typedef struct rank1_source {
    size_t n;
    double *x;       /* feature j of each row */
} rank1_source;

static km_status rank1_source_new(const km_kernel *k, const km_dataset *data, const size_t *rows, size_t n,
                                  size_t dim_all, void **source)
{
    (void)dim_all;
    if (data->text)
        return km_kernel_error(k, "rank-1 kernels need numeric feature rows, not strings");
    if (k->n_features != 1)
        return km_kernel_error(k, "a rank-1 kernel reads exactly one feature");
    rank1_source *s = malloc(sizeof *s);
    double *x = malloc((n ? n : 1) * sizeof *x);
    if (!s || !x) {
        free(s);
        free(x);
        return km_error_nomem("a rank-1 kernel's feature");
    }
    for (size_t r = 0; r < n; r++)
        x[r] = km_dataset_value(data, rows ? rows[r] : r, k->features[0]);
    s->n = n;
    s->x = x;
    *source = s;
    return KM_OK;
}

static void rank1_source_free(void *source)
{
    rank1_source *s = source;
    free(s->x);
    free(s);
}

/* mean and centred squared norm of the training column; a column whose centred norm is rounding of
 * its uncentred one (constant) gets gamma 0 */
static km_status rank1_fit(km_kernel *k, void *source)
{
    const rank1_source *s = source;
    double mean = 0.0, centred = 0.0, raw = 0.0;
    for (size_t i = 0; i < s->n; i++)
        mean += s->x[i];
    mean /= (double)s->n;
    for (size_t i = 0; i < s->n; i++) {
        double c = s->x[i] - mean;
        centred += c * c;
        raw += s->x[i] * s->x[i];
    }
    if (!isfinite(centred))
        return km_kernel_error(k, "the feature's variance overflows double precision: scale the features");
    k->coef0 = mean;
    k->gamma = centred > 1e-12 * raw ? 1.0 / centred : 0.0;
    k->gamma_mode = KM_GAMMA_ABSOLUTE;
    return KM_OK;
}

static double rank1_value(const km_kernel *k, const void *a, size_t i, const void *b, size_t j)
{
    const rank1_source *sa = a, *sb = b;
    return k->gamma * (sa->x[i] - k->coef0) * (sb->x[j] - k->coef0);
}

static void rank1_column(const km_kernel *k, const void *source, size_t i, const size_t *rows, size_t count,
                         double *out)
{
    const rank1_source *s = source;
    double xi = k->gamma * (s->x[i] - k->coef0), mean = k->coef0;
    for (size_t r = 0; r < count; r++)
        out[r] = (s->x[rows ? rows[r] : r] - mean) * xi;
}

const km_kernel_family km_family_rank1 = {
    .type = KM_KERNEL_RANK1,
    .input = KM_INPUT_ROWS,
    .params = KM_SPEC_FEATURES,
    .one_kernel_per_feature = 1,
    .fit = rank1_fit,
    .source_new = rank1_source_new,
    .source_free = rank1_source_free,
    .value = rank1_value,
    .column = rank1_column,
};
