/* Kernel columns that poll an interrupt (svm/interruptible_access.h). */
#include "svm/interruptible_access.h"

#include "core/error.h"

/* Polls every this many requests: a column costs at least n kernel values, so a poll per few
 * columns costs nothing measurable and still answers within milliseconds. */
#define KM_POLL_REQUESTS 8u

/* every: poll at every this many requests (1: pieces of block requests). */
static km_status poll(km_interruptible_access *a, unsigned every)
{
    if (a->interrupted && ++a->requests % every == 0 && a->interrupted(a->interrupt_ctx))
        return km_error(KM_EINTERRUPTED, "interrupted while computing %s", a->what);
    return KM_OK;
}

static km_status polled_column(void *ctx, size_t m, size_t i, const size_t *rows, size_t nrows, double *out)
{
    km_interruptible_access *a = ctx;
    km_status st = poll(a, KM_POLL_REQUESTS);
    return st ? st : a->inner->column(a->inner->column_ctx, m, i, rows, nrows, out);
}

static km_status polled_kernel_columns(void *ctx, size_t i, const size_t *rows, size_t nrows, double *out)
{
    km_interruptible_access *a = ctx;
    km_status st = poll(a, KM_POLL_REQUESTS);
    return st ? st : a->inner->kernel_columns(a->inner->column_ctx, i, rows, nrows, out);
}

static km_status polled_kernel_rows(void *ctx, size_t i, const void **values)
{
    km_interruptible_access *a = ctx;
    km_status st = poll(a, KM_POLL_REQUESTS);
    return st ? st : a->inner->kernel_rows(a->inner->column_ctx, i, values);
}

/* A block request piece by piece, polling before each: block computes the piece's columns into their
 * place in out, where consecutive columns are column_values apart. Pieces of km_costly_block_columns
 * where values are costly, else the whole request. */
typedef km_status (*block_fn)(const km_interruptible_access *a, const double *theta, const size_t *cols,
                              size_t ncols, const size_t *rows, size_t nrows, double *out);

static km_status in_pieces(km_interruptible_access *a, block_fn block, const double *theta, const size_t *cols,
                           size_t ncols, const size_t *rows, size_t nrows, size_t column_values, double *out)
{
    size_t piece = a->inner->costly_values ? km_costly_block_columns(nrows, a->inner->n_kernels) : ncols;
    for (size_t t = 0; t < ncols; t += piece) {
        km_status st = poll(a, 1);
        if (st)
            return st;
        size_t count = ncols - t < piece ? ncols - t : piece;
        if ((st = block(a, theta, cols + t, count, rows, nrows, out + t * column_values)))
            return st;
    }
    return KM_OK;
}

static km_status inner_kernel_blocks(const km_interruptible_access *a, const double *theta, const size_t *cols,
                                     size_t ncols, const size_t *rows, size_t nrows, double *out)
{
    (void)theta;
    return a->inner->kernel_blocks(a->inner->column_ctx, cols, ncols, rows, nrows, out);
}

static km_status inner_combined(const km_interruptible_access *a, const double *theta, const size_t *cols,
                                size_t ncols, const size_t *rows, size_t nrows, double *out)
{
    return a->inner->combined(a->inner->column_ctx, theta, cols, ncols, rows, nrows, out);
}

static km_status polled_kernel_blocks(void *ctx, const size_t *cols, size_t ncols, const size_t *rows, size_t nrows,
                                     double *out)
{
    km_interruptible_access *a = ctx;
    return in_pieces(a, inner_kernel_blocks, NULL, cols, ncols, rows, nrows, a->inner->n_kernels * nrows, out);
}

static km_status polled_combined(void *ctx, const double *theta, const size_t *cols, size_t ncols, const size_t *rows,
                                 size_t nrows, double *out)
{
    km_interruptible_access *a = ctx;
    return in_pieces(a, inner_combined, theta, cols, ncols, rows, nrows, nrows, out);
}

static void inner_feature_block(void *ctx, size_t m, km_feature_block *out)
{
    km_interruptible_access *a = ctx;
    a->inner->feature_block(a->inner->column_ctx, m, out);
}

void km_interruptible_access_init(km_interruptible_access *a, const km_kernel_access *inner,
                                  int (*interrupted)(void *ctx), void *interrupt_ctx, const char *what)
{
    a->inner = inner;
    a->interrupted = interrupted;
    a->interrupt_ctx = interrupt_ctx;
    a->what = what;
    a->requests = 0;
    a->access = (km_kernel_access){.n_rows = inner->n_rows,
                                   .n_kernels = inner->n_kernels,
                                   .theta = inner->theta,
                                   .column = polled_column,
                                   .column_ctx = a,
                                   .diag = inner->diag,
                                   .kernel_columns = inner->kernel_columns ? polled_kernel_columns : NULL,
                                   .combined = inner->combined ? polled_combined : NULL,
                                   .kernel_blocks = inner->kernel_blocks ? polled_kernel_blocks : NULL,
                                   .columns_derived = inner->columns_derived,
                                   .kernel_rows = inner->kernel_rows ? polled_kernel_rows : NULL,
                                   .kernel_rows_size = inner->kernel_rows_size,
                                   .costly_values = inner->costly_values,
                                   .feature_block = inner->feature_block ? inner_feature_block : NULL};
}
