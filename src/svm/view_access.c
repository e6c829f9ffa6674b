/* A kernel access from a kernel view (svm/view_access.h). */
#include "svm/view_access.h"

km_kernel_access km_kernel_access_from_view(km_kernel_view *view, double *theta)
{
    size_t in_place = km_kernel_view_in_place_size(view);
    return (km_kernel_access){
        .n_rows = km_kernel_view_n_rows(view),
        .n_kernels = km_kernel_view_n_kernels(view),
        .theta = theta,
        .column = km_kernel_view_column,
        .column_ctx = view,
        .diag = km_kernel_view_diag(view),
        .combined = km_kernel_view_combined,
        .kernel_columns = km_kernel_view_kernel_columns,
        .kernel_blocks = km_kernel_view_kernel_blocks,
        .columns_derived = km_kernel_view_columns_derived(view),
        .kernel_rows = in_place ? km_kernel_view_columns_in_place : NULL,
        .kernel_rows_size = in_place,
        .costly_values = km_kernel_view_costly_values(view),
        .feature_block = km_kernel_view_feature_block,
    };
}

const km_kernel_view *km_kernel_access_view(const km_kernel_access *access)
{
    return access->column == km_kernel_view_column ? access->column_ctx : NULL;
}
