/* What a kernel access offers beyond single columns (svm/svm.h): per-kernel columns of several rows
 * (km_kernel_access_blocks) and explicit features (km_kernel_access_features). */
#include "svm/svm.h"

size_t km_costly_block_columns(size_t nrows, size_t M)
{
    size_t values = nrows * (M ? M : 1);
    return values && values < KM_COSTLY_BLOCK_VALUES ? KM_COSTLY_BLOCK_VALUES / values : 1;
}

km_status km_kernel_access_blocks(const km_kernel_access *k, const size_t *cols, size_t ncols, const size_t *rows,
                                  size_t nrows, double *out)
{
    if (nrows == 0 || ncols == 0)
        return KM_OK;
    if (k->kernel_blocks)
        return k->kernel_blocks(k->column_ctx, cols, ncols, rows, nrows, out);
    size_t M = k->n_kernels;
    km_status st = KM_OK;
    for (size_t t = 0; !st && t < ncols; t++) {
        double *block = out + t * M * nrows;
        if (k->kernel_columns)
            st = k->kernel_columns(k->column_ctx, cols[t], rows, nrows, block);
        for (size_t m = 0; !st && !k->kernel_columns && m < M; m++)
            st = k->column(k->column_ctx, m, cols[t], rows, nrows, block + m * nrows);
    }
    return st;
}

int km_kernel_access_features(const km_kernel_access *k, km_feature_block *blocks)
{
    if (!k->feature_block)
        return 0;
    for (size_t m = 0; m < k->n_kernels; m++) {
        km_feature_block block;
        k->feature_block(k->column_ctx, m, &block);
        if (!km_feature_block_present(&block))
            return 0;
        if (blocks)
            blocks[m] = block;
    }
    return 1;
}
