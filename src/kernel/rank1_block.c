/* Combinations of rank-1 kernels as one weighted dot product (rank1_block.h). */
#include "kernel/rank1_block.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "kernel/dot_products.h"
#include "kernel/feature_view.h"

#define NO_SLOT SIZE_MAX

struct km_rank1_block {
    const km_kernel_set *fitted;
    km_view view;            /* the rows on the distinct features of the rank-1 kernels */
    size_t *slot;            /* per kernel of the set: its feature's slot in the view (km_view_width
                                entries), NO_SLOT for other kernels and for features 0 on every row */
    double *weights;         /* the weights c, h and g were computed for */
    int computed;
    double *c;               /* per slot: sum of w_m gamma_m over its kernels */
    double *c_mean;          /* per slot: c * mean */
    double *h;               /* per row: <x, c∘mean> */
    double g;                /* <mean, c∘mean> */
    double *u;               /* per slot: c∘x of the column's row (zero between calls) */
};

void km_rank1_block_free(km_rank1_block *b)
{
    if (!b)
        return;
    km_view_free(&b->view);
    free(b->slot);
    free(b->weights);
    free(b->c);
    free(b->c_mean);
    free(b->h);
    free(b->u);
    free(b);
}

static int ascending(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Position of feature f in the ascending list, as a slot of the view (sparse views number only the
 * columns their rows use). */
static size_t slot_of(const km_view *view, const uint32_t *features, size_t count, uint32_t f)
{
    const uint32_t *at = bsearch(&f, features, count, sizeof *features, ascending);
    uint32_t column = (uint32_t)(at - features);
    if (!view->sparse)
        return column;
    const uint32_t *s = bsearch(&column, view->columns, view->n_slots, sizeof *view->columns, ascending);
    return s ? (size_t)(s - view->columns) : NO_SLOT;
}

km_status km_rank1_block_new(const km_dataset *data, const size_t *rows, size_t n, const km_kernel_set *fitted,
                             km_rank1_block **out)
{
    *out = NULL;
    size_t M = fitted->size, count = 0;
    for (size_t m = 0; m < M; m++)
        count += fitted->kernels[m].type == KM_KERNEL_RANK1;
    if (count == 0)
        return KM_OK;
    uint32_t *features = malloc(count * sizeof *features);
    km_rank1_block *b = calloc(1, sizeof *b);
    if (!features || !b) {
        free(features);
        free(b);
        return km_error_nomem("the rank-1 kernels");
    }
    count = 0;
    for (size_t m = 0; m < M; m++)
        if (fitted->kernels[m].type == KM_KERNEL_RANK1)
            features[count++] = fitted->kernels[m].features[0];
    qsort(features, count, sizeof *features, ascending);
    size_t distinct = 0;
    for (size_t k = 0; k < count; k++)
        if (k == 0 || features[k] != features[distinct - 1])
            features[distinct++] = features[k];
    b->fitted = fitted;
    km_status st = km_view_build(data, rows, n, features, distinct, data->d, &b->view);
    size_t width = st ? 0 : km_view_width(&b->view) + 1;
    if (!st) {
        b->slot = malloc(M * sizeof *b->slot);
        b->weights = malloc(M * sizeof *b->weights);
        b->c = malloc(width * sizeof *b->c);
        b->c_mean = malloc(width * sizeof *b->c_mean);
        b->u = calloc(width, sizeof *b->u);
        b->h = malloc(n * sizeof *b->h);
        if (!b->slot || !b->weights || !b->c || !b->c_mean || !b->u || !b->h)
            st = km_error_nomem("the rank-1 kernels");
    }
    for (size_t m = 0; !st && m < M; m++)
        b->slot[m] = fitted->kernels[m].type == KM_KERNEL_RANK1
                         ? slot_of(&b->view, features, distinct, fitted->kernels[m].features[0])
                         : NO_SLOT;
    free(features);
    if (st) {
        km_rank1_block_free(b);
        return st;
    }
    *out = b;
    return KM_OK;
}

/* c, c∘mean, h and g for the weights (kept until the weights change) */
static void prepare(km_rank1_block *b, const double *weights)
{
    size_t M = b->fitted->size, width = km_view_width(&b->view);
    if (b->computed && memcmp(weights, b->weights, M * sizeof *weights) == 0)
        return;
    memcpy(b->weights, weights, M * sizeof *weights);
    memset(b->c, 0, width * sizeof *b->c);
    memset(b->c_mean, 0, width * sizeof *b->c_mean);
    b->g = 0.0;
    for (size_t m = 0; m < M; m++) {
        const km_kernel *k = &b->fitted->kernels[m];
        if (b->slot[m] == NO_SLOT || weights[m] == 0.0)
            continue;
        double c = weights[m] * k->gamma;
        b->c[b->slot[m]] += c;
        b->c_mean[b->slot[m]] += c * k->coef0;
        b->g += c * k->coef0 * k->coef0;
    }
    km_view_dot_vector(&b->view, b->c_mean, b->h);
    b->computed = 1;
}

km_status km_rank1_block_add(km_rank1_block *b, const double *weights, const size_t *cols, size_t ncols,
                             const size_t *rows, size_t nrows, double *out)
{
    prepare(b, weights);
    for (size_t t = 0; t < ncols; t++) {
        size_t i = cols[t];
        km_view_row xi = km_view_get_row(&b->view, i);
        for (size_t p = 0; p < xi.nnz; p++) {
            size_t s = xi.slot ? xi.slot[p] : p;
            b->u[s] = b->c[s] * xi.val[p];
        }
        double offset = b->g - b->h[i];
        double *column = out + t * nrows;
        for (size_t k = 0; k < nrows; k++) {
            size_t r = rows ? rows[k] : k;
            column[k] += km_view_row_dot(km_view_get_row(&b->view, r), b->u) - b->h[r] + offset;
        }
        for (size_t p = 0; p < xi.nnz; p++)
            b->u[xi.slot ? xi.slot[p] : p] = 0.0;
    }
    return KM_OK;
}
