/* km_kernel_set lifecycle: creation, growth, deep copies, release, dimension, default normalization and
 * in-memory matrices. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/names.h"
#include "kernel/kernel.h"

km_status km_kernel_set_new(km_kernel_set **out)
{
    *out = calloc(1, sizeof **out);
    return *out ? KM_OK : km_error_nomem("a kernel set");
}

void km_kernel_clear(km_kernel *kernel)
{
    free(kernel->features);
    free(kernel->file);
    free(kernel->col_mean);
    free(kernel->landmarks);
    free(kernel->projection);
    km_matrix_free(kernel->owned_matrix);
    memset(kernel, 0, sizeof *kernel);
}

void km_kernel_set_free(km_kernel_set *set)
{
    if (!set)
        return;
    for (size_t m = 0; m < set->size; m++)
        km_kernel_clear(&set->kernels[m]);
    free(set->kernels);
    free(set);
}

size_t km_kernel_set_size(const km_kernel_set *set) { return set->size; }

km_status km_kernel_set_append(km_kernel_set *set, const km_kernel *kernel)
{
    if (set->size == set->capacity) {
        size_t capacity = set->capacity ? 2 * set->capacity : 8;
        km_kernel *grown = realloc(set->kernels, capacity * sizeof *grown);
        if (!grown)
            return km_error_nomem("a kernel set");
        set->kernels = grown;
        set->capacity = capacity;
    }
    set->kernels[set->size++] = *kernel;
    return KM_OK;
}

static void *duplicate(const void *src, size_t bytes, int *failed)
{
    if (!src)
        return NULL;
    void *dst = malloc(bytes ? bytes : 1);
    if (!dst)
        *failed = 1;
    else
        memcpy(dst, src, bytes);
    return dst;
}

km_status km_kernel_set_copy(const km_kernel_set *src, km_kernel_set **out)
{
    km_kernel_set *dst;
    km_status st = km_kernel_set_new(&dst);
    if (st)
        return st;
    for (size_t m = 0; m < src->size; m++) {
        const km_kernel *k = &src->kernels[m];
        km_kernel copy = *k;
        int failed = 0;
        copy.features = duplicate(k->features, k->n_features * sizeof *k->features, &failed);
        copy.file = k->file ? duplicate(k->file, strlen(k->file) + 1, &failed) : NULL;
        copy.col_mean = duplicate(k->col_mean, k->n_train * sizeof *k->col_mean, &failed);
        copy.landmarks = duplicate(k->landmarks, k->n_landmarks * k->landmark_dim * sizeof *k->landmarks, &failed);
        copy.projection = duplicate(k->projection, k->n_landmarks * k->rank_kept * sizeof *k->projection, &failed);
        copy.owned_matrix = NULL; /* the matrix stays with src */
        if (failed || km_kernel_set_append(dst, &copy)) {
            km_kernel_clear(&copy);
            km_kernel_set_free(dst);
            return km_error_nomem("a kernel set copy");
        }
    }
    *out = dst;
    return KM_OK;
}

km_status km_kernel_set_set_dimension(km_kernel_set *set, size_t n_features)
{
    for (size_t m = 0; n_features && m < set->size; m++) {
        const km_kernel *k = &set->kernels[m];
        if (k->features && k->n_features && k->features[k->n_features - 1] >= n_features)
            return km_error(KM_EINVAL, "kernel %zu uses feature %u but the data has %zu features", m + 1,
                            k->features[k->n_features - 1] + 1, n_features);
    }
    set->dimension = n_features;
    return KM_OK;
}

km_status km_kernel_set_set_default_norm(km_kernel_set *set, km_normalization norm)
{
    if (!km_enum_name(KM_ENUM_NORMALIZATION, (int)norm))
        return km_error(KM_EINVAL, "km_kernel_set_set_default_norm: unknown normalization %d", (int)norm);
    set->default_norm = norm;
    return KM_OK;
}

km_status km_kernel_set_set_default_low_rank(km_kernel_set *set, size_t rank, const char *sampling,
                                            double icd_tolerance)
{
    int value = KM_LANDMARKS_UNIFORM;
    if (sampling && !km_value_of(km_landmark_sampling_names, sampling, &value)) {
        char names[64];
        return km_error(KM_EINVAL, "unknown landmark sampling '%s' (%s)", sampling,
                        km_names_phrase(km_landmark_sampling_names, names, sizeof names));
    }
    if (rank > KM_KERNEL_MAX_RANK)
        return km_error(KM_EINVAL, "a low-rank kernel takes at most %d landmark rows (got %zu)", KM_KERNEL_MAX_RANK,
                        rank);
    if (icd_tolerance != 0 && !(icd_tolerance > 0 && icd_tolerance < 1))
        return km_error(KM_EINVAL, "the incomplete Cholesky tolerance must be between 0 and 1, exclusive (got %g)",
                        icd_tolerance);
    if (icd_tolerance > 0 && value != KM_LANDMARKS_UNIFORM)
        return km_error(KM_EINVAL, "landmarks come from an incomplete Cholesky factorization or a draw (%s), not both",
                        sampling);
    set->default_rank = rank;
    set->default_icd = rank ? icd_tolerance : 0.0;
    set->default_sampling = rank ? (km_landmark_sampling)value : KM_LANDMARKS_UNIFORM;
    return KM_OK;
}

km_status km_kernel_set_add_matrix(km_kernel_set *set, const km_matrix *train_kernel, km_normalization norm,
                                   int center)
{
    if (!train_kernel || train_kernel->rows != train_kernel->cols || train_kernel->rows == 0 ||
        (!train_kernel->data == !train_kernel->data32))
        return km_error(KM_EINVAL, "a training kernel matrix must be square, non-empty and hold one storage (got %zu x %zu)",
                        train_kernel ? train_kernel->rows : 0, train_kernel ? train_kernel->cols : 0);
    if (norm < KM_NORM_NONE || norm > KM_NORM_TRACE || (center != 0 && center != 1))
        return km_error(KM_EINVAL, "invalid normalization %d or centering %d for a kernel matrix", (int)norm, center);
    km_kernel k = {.type = KM_KERNEL_PRECOMPUTED, .matrix = train_kernel, .norm = norm, .center = center};
    return km_kernel_set_append(set, &k);
}

uint64_t km_kernel_features_hash(const km_kernel *k)
{
    uint64_t h = 14695981039346656037ull;   /* FNV-1a */
    for (size_t f = 0; k->features && f < k->n_features; f++)
        h = (h ^ k->features[f]) * 1099511628211ull;
    return k->features ? h ^ k->n_features : 0;
}

int km_kernel_same_features(const km_kernel *a, const km_kernel *b)
{
    if (!a->features || !b->features)
        return !a->features && !b->features;
    return a->n_features == b->n_features && memcmp(a->features, b->features, a->n_features * sizeof *a->features) == 0;
}
