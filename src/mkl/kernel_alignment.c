/* Centred kernel alignment of kernel matrices the caller holds (km_kernel_alignment): the alignment
 * diagnostics of km_train (diagnostics.c) over an access that reads the matrices. */
#include <math.h>

#include "core/error.h"
#include "mkl/diagnostics.h"

typedef struct matrices {
    const km_matrix *const *kernels;
} matrices;

/* out[k] = K_m(rows[k], i) */
static km_status matrix_column(void *ctx, size_t m, size_t i, const size_t *rows, size_t nrows, double *out)
{
    const km_matrix *K = ((const matrices *)ctx)->kernels[m];
    for (size_t k = 0; k < nrows; k++)
        out[k] = km_matrix_value(K, rows[k], i);
    return KM_OK;
}

/* Kernel m (0-based) is an n x n matrix of finite values, symmetric to 1e-8 relative (the alignments
 * read its columns as its rows). */
static km_status check_kernel(const km_matrix *K, size_t m, size_t n)
{
    if (!K)
        return km_error(KM_EINVAL, "kernel alignment: kernel %zu is NULL", m + 1);
    if (km_matrix_rows(K) != n || km_matrix_cols(K) != n)
        return km_error(KM_EINVAL, "kernel alignment: kernel %zu is %zu x %zu, not %zu x %zu (a kernel matrix on "
                        "one set of rows is square, and all are on the same rows)", m + 1, km_matrix_rows(K),
                        km_matrix_cols(K), n, n);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j <= i; j++) {
            double a = km_matrix_value(K, i, j), b = km_matrix_value(K, j, i);
            if (!isfinite(a) || !isfinite(b))
                return km_error(KM_EINVAL, "kernel alignment: kernel %zu has the value %g at (%zu, %zu)", m + 1,
                                isfinite(a) ? b : a, isfinite(a) ? j + 1 : i + 1, isfinite(a) ? i + 1 : j + 1);
            if (fabs(a - b) > 1e-8 * (fabs(a) + fabs(b)))
                return km_error(KM_EINVAL, "kernel alignment: kernel %zu is not symmetric: K[%zu][%zu] = %.17g, "
                                "K[%zu][%zu] = %.17g", m + 1, i + 1, j + 1, a, j + 1, i + 1, b);
        }
    return KM_OK;
}

km_status km_kernel_alignment(const km_matrix *const *kernels, size_t M, size_t n_targets, const double *targets,
                              double *matrix, double *target)
{
    if (!kernels || M == 0 || !kernels[0])
        return km_error(KM_EINVAL, "kernel alignment needs at least one kernel matrix");
    if (target && (!targets || n_targets == 0))
        return km_error(KM_EINVAL, "kernel alignment: target alignments need the targets (n x n_targets values)");
    size_t n = km_matrix_rows(kernels[0]);
    for (size_t m = 0; m < M; m++) {
        km_status st = check_kernel(kernels[m], m, n);
        if (st)
            return st;
    }
    for (size_t i = 0; target && i < n * n_targets; i++)
        if (!isfinite(targets[i]))
            return km_error(KM_EINVAL, "kernel alignment: target %zu of row %zu is %g", i % n_targets + 1,
                            i / n_targets + 1, targets[i]);
    matrices ctx = {kernels};
    km_kernel_access access = {.n_rows = n, .n_kernels = M, .column = matrix_column, .column_ctx = &ctx};
    return km_alignments_defined(&access, target ? n_targets : 0, target ? targets : NULL, matrix, target);
}
