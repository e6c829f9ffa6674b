/* Public kernel-matrix computation: fit a set on training rows, and full matrices of one fitted
 * kernel between any rows and the training rows (through the provider's cross evaluation). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/finite.h"
#include "data/dataset.h"
#include "data/matrix.h"
#include "kernel/provider.h"

/* Fitting needs no kernel cache beyond the provider's minimum, and what its low-rank kernels hold. */
#define KM_FIT_CACHE_BYTES ((size_t)16 << 20)

km_status km_kernel_set_fit(const km_kernel_set *set, const km_dataset *train, km_kernel_set **fitted)
{
    km_provider *provider;
    double low_rank = km_provider_low_rank_bytes(set, train->n, train->d);
    if (low_rank > (double)(SIZE_MAX / 2))
        return km_error(KM_EINVAL, "the low-rank kernels' features on %zu rows exceed the memory they may take: lower "
                        "the rank", train->n);
    km_status st = km_provider_new(train, NULL, train->n, set, KM_FIT_CACHE_BYTES + (size_t)low_rank, NULL, &provider);
    if (st)
        return st;
    st = km_kernel_set_copy(km_provider_fitted_set(provider), fitted);
    km_provider_free(provider);
    return st;
}

/* Every value finite, else KM_EINVAL naming the first that is not: kernel values that overflow (a
 * polynomial of large test features) are refused rather than returned. */
static km_status check_finite(const km_kernel *k, const km_matrix *K, const km_dataset *a, const km_dataset *b)
{
    if (km_all_finite(K->data, K->rows * K->cols))
        return KM_OK;
    size_t e = 0;
    while (isfinite(K->data[e]))
        e++;
    return km_kernel_error(k, "its value on row %zu of %s and row %zu of %s is %g: the kernel overflows double precision "
                              "(scale the features or choose smaller kernel parameters)", e / K->cols + 1,
                           a->source ? a->source : "the rows", e % K->cols + 1, b->source ? b->source : "the rows",
                           K->data[e]);
}

km_status km_kernel_matrix(const km_kernel_set *fitted, size_t m, const km_dataset *a, const km_dataset *b,
                           km_matrix **out)
{
    *out = NULL;
    if (m >= fitted->size)
        return km_error(KM_EINVAL, "kernel %zu does not exist (the set has %zu)", m + 1, fitted->size);
    const km_kernel *k = &fitted->kernels[m];
    if (!k->fitted)
        return km_error(KM_EINVAL, "kernel %zu is not fitted (use km_kernel_set_fit)", m + 1);
    /* evaluate kernel m alone: a one-kernel view of the fitted set */
    km_kernel_set single = {.dimension = fitted->dimension, .size = 1, .capacity = 1, .kernels = (km_kernel *)k};
    const km_matrix *matrices[1] = {k->matrix};
    size_t *arows = malloc(a->n * sizeof *arows);
    size_t *brows = malloc(b->n * sizeof *brows);
    /* every value is written: no zero fill */
    km_status st = arows && brows ? km_matrix_alloc(a->n, b->n, KM_FLOAT64, 0, out) : km_error_nomem("row lists");
    for (size_t i = 0; !st && i < a->n; i++)
        arows[i] = i;
    for (size_t j = 0; !st && j < b->n; j++)
        brows[j] = j;
    if (!st)
        st = km_kernel_cross(&single, a, arows, a->n, b, brows, b->n, matrices, NULL, brows, (*out)->data);
    if (!st)
        st = check_finite(k, *out, a, b);
    free(arows);
    free(brows);
    if (st) {
        km_matrix_free(*out);
        *out = NULL;
    }
    return st;
}
