/* One SMO core (the machine seam of docs/architecture.md, "The four seams") for C-SVC, epsilon-SVR,
 * one-class SVM, nu-SVC and nu-SVR.
 *
 * It solves LIBSVM's generic dual
 *     min_a  1/2 a'Qa + p'a   s.t.  y'a = const (set by the starting point),  0 <= a_t <= upper_t,
 * over l variables (with nu_constraints, the sum of a over each sign of y is fixed too; with
 * no_equality, only the box: the dual of a machine without bias),
 * Q_st = y_s y_t K(row_s, row_t), K = sum_m theta_m K_m, with second-order working-set
 * selection (Fan, Chen & Lin 2005), shrinking, and warm start from any feasible a.
 *
 * With a hook, it keeps per-kernel gradients g_m = Q_m a and after every working-set step reports
 * lin = -p'a and quad_m = 1/2 a'Q_m a to the MKL layer, which may change theta; the solver then
 * rebuilds its gradient from the g_m without kernel evaluations (Kloft's thesis "lp-Norm Multiple Kernel
 * Learning", Alg. 3.2). */
#ifndef KM_SVM_SMO_H
#define KM_SVM_SMO_H

#include <stddef.h>

#include "core/log.h"
#include "kernelmix.h"

/* K_m(rows[k], i) for k < nrows; i and rows index training rows; rows NULL: all of them in order
 * (nrows = n_rows), which lets a source copy whole columns. */
typedef km_status (*km_column_fn)(void *ctx, size_t m, size_t i, const size_t *rows, size_t nrows, double *out);

/* out[t*nrows + k] = sum_m theta_m K_m(rows[k], cols[t]) for t < ncols; rows NULL: all training rows
 * (nrows = n_rows). Several columns of the combination in one call. */
typedef km_status (*km_combined_fn)(void *ctx, const double *theta, const size_t *cols, size_t ncols,
                                    const size_t *rows, size_t nrows, double *out);

/* out[m*nrows + k] = K_m(rows[k], i) for every kernel m (rows as in km_column_fn): the M base-kernel
 * columns of one training row in one call, from shared base columns. */
typedef km_status (*km_kernel_columns_fn)(void *ctx, size_t i, const size_t *rows, size_t nrows, double *out);

/* values[m] = the n_rows values K_m(., i) of every kernel m where the kernel layer holds them (read in
 * place, never copied; their size is given beside the function: sizeof(float) or sizeof(double)). */
typedef km_status (*km_kernel_rows_fn)(void *ctx, size_t i, const void **values);

/* out[(t*M + m)*nrows + k] = K_m(rows[k], cols[t]) for t < ncols: km_kernel_columns_fn for several rows
 * in one call (their dot products from one matrix product). */
typedef km_status (*km_kernel_blocks_fn)(void *ctx, const size_t *cols, size_t ncols, const size_t *rows, size_t nrows,
                                         double *out);

typedef struct km_qp {
    size_t n_vars;                  /* l: n for SVC and one-class, 2n for SVR */
    size_t n_rows;                  /* training rows the kernels are defined on */
    const size_t *row_of;           /* variable -> training row; NULL: identity (l == n_rows) */
    const signed char *y;           /* +1 / -1 per variable */
    const double *p;                /* linear term per variable */
    const double *upper;            /* upper bound per variable (> 0) */
    size_t n_kernels;               /* M >= 1 */
    double *theta;                  /* M weights of the combination; the hook may change them */
    km_column_fn column;            /* kernel access */
    void *column_ctx;
    const double *const *diag;      /* diag[m][row] = K_m(row, row) */
    km_combined_fn combined;        /* optional (same ctx): the combination directly, used without hook */
    km_kernel_columns_fn kernel_columns;   /* optional (same ctx): all M kernels' columns, used with a hook */
    int columns_derived;            /* kernel_columns recomputed cheaply from columns the kernel layer
                                       caches: the solver keeps only a few of them */
    int nu_constraints;             /* 1: LIBSVM's Solver_NU (nu-SVC, nu-SVR): the sums of a over y = +1
                                       and over y = -1 each stay fixed (set by the start), so pairs are
                                       chosen within one sign of y, and the result has r */
    int no_equality;                /* 1: no y'a = const either (the dual of a machine without bias):
                                       one-variable steps on the variable of the largest second-order
                                       decrease, no shrinking, rho = 0 */
    km_kernel_rows_fn kernel_rows;  /* optional (same ctx): the M kernels' columns in place, used with a
                                       hook instead of kernel_columns (nothing cached) */
    size_t kernel_rows_size;        /* the size of their values */
    int costly_values;              /* svm.h km_kernel_access: the full kernel matrix is filled in
                                       blocks of KM_COSTLY_BLOCK_VALUES values */
    const double *start_products;   /* optional: h_m = K_m c at the start a (c_r = sum of y_t a_t over the
                                       variables t on row r; kernel m at [m n_rows, (m+1) n_rows)), where
                                       the caller has them (the MKL layer's certificate): the start
                                       gradient comes from them instead of the columns of the non-zero
                                       a_t. Ignored with a hook */
} km_qp;

/* What the solver tells the MKL layer. The hook is called every hook_every working-set steps (before
 * the next step) and whenever the fixed-theta problem is solved (optimal = 1; quad is then recomputed
 * exactly rather than updated). quad is reported for every kernel, those with theta_m = 0 included. */
typedef struct km_smo_step {
    long iteration;                 /* working-set steps done so far */
    double lin;                     /* -p'a */
    const double *quad;             /* quad_m = 1/2 a'Q_m a, M values */
    double violation;               /* maximal KKT violation (m(a) - M(a) in LIBSVM terms) over the
                                       active variables (all of them when optimal = 1) */
    int optimal;                    /* violation <= tolerance: the fixed-theta problem is solved */
    const double *alpha;            /* current a (l values) */
    const double *kernel_products;  /* h_m = K_m c over the training rows (c_r = sum of y_t a_t over the
                                       variables t on row r), kernel m at [m n_rows, (m+1) n_rows) */
    double rho;                     /* when optimal = 1: rho of the current point (as in the result);
                                       NAN otherwise */
    double *tolerance;              /* the solver's stopping tolerance: when optimal = 1 the hook may
                                       lower it and return KM_HOOK_CONTINUE to solve the same theta
                                       further */
} km_smo_step;

typedef enum km_hook_action {
    KM_HOOK_CONTINUE = 0,           /* keep theta, go on (the solver stops by itself when optimal,
                                       unless the hook lowered its tolerance below the violation) */
    KM_HOOK_THETA_CHANGED = 1,      /* theta was changed in place (finite, >= 0): the gradient is
                                       rebuilt from the per-kernel gradients, shrinking undone, go on */
    KM_HOOK_STOP = 2                /* stop now (the MKL layer is satisfied or was interrupted) */
} km_hook_action;

typedef km_hook_action (*km_smo_hook_fn)(void *ctx, const km_smo_step *step, double *theta);

/* The rows of a machine that are one process's part of a problem whose rows are split over the
 * processes of a run (data-parallel training, docs/large-scale.md). The solvers on explicit features
 * reduce over it the sums they take over rows; every process calls them in the same order. */
typedef struct km_row_partition {
    size_t n_total;                             /* rows of the whole problem */
    size_t parts;                               /* the processes it is split over */
    void (*sum)(double *values, size_t n);      /* values summed over every part, in place on each */
    void (*maximum)(double *values, size_t n);  /* each value's largest over the parts, in place on each */
} km_row_partition;

/* Whether any part failed (failed: this part's own status is not KM_OK), as every part learns it. */
static inline int km_row_partition_failed(const km_row_partition *partition, int failed)
{
    double any = failed;
    partition->maximum(&any, 1);
    return any != 0;
}

typedef struct km_smo_options {
    double tolerance;               /* stop when m(a) - M(a) <= tolerance (LIBSVM -e); default 1e-3 */
    int shrinking;                  /* default 1 */
    size_t cache_bytes;             /* cache of Q columns, default 100 MiB (raised to two columns);
                                       with a hook it holds the M base-kernel columns of a training
                                       row (M n doubles per entry), which a theta change leaves valid;
                                       without a hook, when the whole combined kernel matrix (n_rows^2
                                       values) fits, it is computed once at the start */
    struct km_cache *cache;         /* the kernel cache shared with the kernel provider (kernel/cache.h),
                                       whose budget then replaces cache_bytes; NULL: the solver's own */
    int cache_float;                /* 1: without a hook, cached kernel values are floats (twice the
                                       columns; Q values rounded to float precision); default 0 */
    long max_iter;                  /* steps plus hook theta changes; <= 0: LIBSVM's max(10^7, 100 l) */
    km_smo_hook_fn hook;            /* NULL: plain SVM on the fixed combination */
    void *hook_ctx;
    int hook_every;                 /* call the hook every this many steps (default 1) */
    int (*interrupted)(void *ctx);  /* polled every 100 steps and every few kernel columns computed (also
                                       while filling the kernel matrix and building a warm start's
                                       gradient); non-zero stops with KM_EINTERRUPTED */
    void *interrupt_ctx;
    double deadline;                /* km_monotonic_seconds() at which the solve ends early with its feasible
                                       point and converged = 0, as at max_iter but silently (the caller
                                       reports its time limit); checked when the interrupt is, in the
                                       steps; 0: none */
    km_logger logger;
    const km_row_partition *partition; /* NULL: the rows are the whole problem */
} km_smo_options;

km_smo_options km_smo_options_default(void);

typedef struct km_smo_result {
    double objective;               /* 1/2 a'Qa + p'a at the solution (LIBSVM's "obj") */
    double rho;                     /* decision function sum_t y_t a_t K(row_t, x) - rho */
    double r;                       /* nu_constraints: LIBSVM's r, the mean of the free y = +1 and the
                                       free y = -1 gradients (rho is half their difference); 0 otherwise */
    double violation;               /* final maximal KKT violation */
    long iterations;
    int converged;                  /* 0 when stopped by max_iter (a warning is logged); 1 when
                                       optimal or stopped by the hook */
} km_smo_result;

/* alpha: in: feasible start (l values); out: solution. */
km_status km_smo_solve(const km_qp *qp, const km_smo_options *options, double *alpha, km_smo_result *result);

#endif
