/* The SVM tasks on one combined kernel, set up as SMO problems the way LIBSVM does (solve_c_svc,
 * solve_epsilon_svr, solve_one_class, solve_nu_svc, solve_nu_svr), and their expansion coefficients. */
#ifndef KM_SVM_SVM_H
#define KM_SVM_SVM_H

#include "kernel/feature_block.h"
#include "svm/smo.h"

/* Kernel access for the task solvers: the same callback and diagonal as km_qp. Made from a kernel view
 * by km_kernel_access_from_view (svm/view_access.h). */
typedef struct km_kernel_access {
    size_t n_rows;
    size_t n_kernels;
    double *theta;                  /* combination weights (may be changed by an MKL hook) */
    km_column_fn column;
    void *column_ctx;
    const double *const *diag;
    km_combined_fn combined;        /* optional (same ctx): several combined columns at once */
    km_kernel_columns_fn kernel_columns;   /* optional (same ctx): the M kernels' columns of one row at once */
    km_kernel_blocks_fn kernel_blocks;     /* optional (same ctx): the M kernels' columns of several rows */
    int columns_derived;            /* kernel_columns are cheap to recompute (kernel_view.h
                                       km_kernel_view_columns_derived): solvers need not cache them */
    km_kernel_rows_fn kernel_rows;  /* optional (same ctx): the M kernels' columns of one row in place */
    size_t kernel_rows_size;        /* the size of their values (sizeof(float) or sizeof(double)) */
    int costly_values;              /* kernel values cost microseconds each (kernel_view.h
                                       km_kernel_view_costly_values): passes poll between smaller blocks */
    /* optional (same ctx): kernel m as explicit features (kernel/feature_block.h; out->phi NULL: none) */
    void (*feature_block)(void *ctx, size_t m, km_feature_block *out);
} km_kernel_access;

/* 1 when every kernel of the access has explicit features (blocks, unless NULL: M of them, filled), 0
 * otherwise. */
int km_kernel_access_features(const km_kernel_access *kernel, km_feature_block *blocks);

/* Kernel values in a block of columns between two polls of the interrupt where values are costly
 * (about 0.1 s of string kernels); a fixed number, so that blocks, and with them the last bits of
 * the dot-product kernels computed with them, depend on the inputs only. */
#define KM_COSTLY_BLOCK_VALUES ((size_t)1 << 15)
/* Columns of nrows rows and M kernels in such a block (at least 1). */
size_t km_costly_block_columns(size_t nrows, size_t M);

/* out[(t M + m) nrows + k] = K_m(rows[k], cols[t]) for the access's M kernels and t < ncols: one
 * kernel_blocks request when the access has it, else kernel_columns or column requests row by row. */
km_status km_kernel_access_blocks(const km_kernel_access *kernel, const size_t *cols, size_t ncols,
                                  const size_t *rows, size_t nrows, double *out);

/* Result of one binary / regression / one-class machine: f(x) = sum_i coef[i] K(x_i, x) + bias
 * over the n training rows (coef[i] = y_i a_i for SVC, a_i - a*_i for SVR, a_i for one-class). */
typedef struct km_svm_solution {
    double *coef;                   /* n_rows values, caller-allocated */
    double bias;                    /* -rho */
    double objective;               /* LIBSVM's dual objective value */
    long iterations;
    int converged;
    const double *start_products;   /* in, optional: h_m = K_m c at the warm start's c = y o alpha_start
                                       (M blocks of n_rows values, kernel m at [m n_rows, (m+1) n_rows)),
                                       where the caller has them: C-SVC's SMO then takes its start
                                       gradient from them instead of kernel columns; other solvers
                                       ignore it */
} km_svm_solution;

/* C-SVC on labels y_i in {+1,-1}: C_i = C * (y_i > 0 ? weight_pos : weight_neg).
 * alpha_start (n values, may be NULL) warm-starts the solver. */
km_status km_svc_solve(const km_kernel_access *kernel, const signed char *y, double C, double weight_pos,
                       double weight_neg, const km_smo_options *options, const double *alpha_start,
                       km_svm_solution *solution);

/* C-SVC without bias, f(x) = sum_i y_i alpha_i K(x_i, x): the dual without sum_i y_i alpha_i = 0, solved
 * by one-variable steps (smo.h, no_equality); bias 0. */
km_status km_svc_solve_without_bias(const km_kernel_access *kernel, const signed char *y, double C,
                                    double weight_pos, double weight_neg, const km_smo_options *options,
                                    const double *alpha_start, km_svm_solution *solution);

/* km_svc_solve_without_bias where every kernel has explicit features (km_kernel_access_features): dual
 * coordinate descent with shrinking, O(sum_m r_m) a step and no kernel value computed (svm/dcd.c). The
 * tolerance bounds the largest projected gradient, as the SMO's without bias does. */
km_status km_svc_solve_features(const km_kernel_access *kernel, const signed char *y, double C, double weight_pos,
                                double weight_neg, const km_smo_options *options, const double *alpha_start,
                                km_svm_solution *solution);

/* km_svc_solve where every kernel has explicit features: the same descent with the bias held at an offset,
 * and a search over the offset for the bias (svm/dcd.c bias_search), O(sum_m r_m) a step. It stops by
 * the SMO's rule (LIBSVM's violation at most the tolerance) at a point that keeps sum_i y_i alpha_i = 0;
 * alpha_start (may be NULL) need only be in the box. */
km_status km_svc_solve_features_with_bias(const km_kernel_access *kernel, const signed char *y, double C,
                                          double weight_pos, double weight_neg, const km_smo_options *options,
                                          const double *alpha_start, km_svm_solution *solution);

/* epsilon-SVR on real targets z. alpha_start (may be NULL) holds the 2n solver variables: alpha_1..alpha_n,
 * then alpha*_1..alpha*_n (from a previous coef: alpha_i = max(coef_i, 0), alpha*_i = max(-coef_i, 0)). */
km_status km_svr_solve(const km_kernel_access *kernel, const double *z, double C, double epsilon,
                       const km_smo_options *options, const double *alpha_start, km_svm_solution *solution);

/* epsilon-SVR without bias, f(x) = sum_i (alpha_i - alpha*_i) K(x_i, x): the dual without
 * sum_i (alpha_i - alpha*_i) = 0, solved by one-variable steps (smo.h, no_equality); bias 0. */
km_status km_svr_solve_without_bias(const km_kernel_access *kernel, const double *z, double C, double epsilon,
                                    const km_smo_options *options, const double *alpha_start,
                                    km_svm_solution *solution);

/* km_svr_solve_without_bias where every kernel has explicit features: dual coordinate descent on
 * b = alpha - alpha* in [-C, C]^n (svm/dcd.c), O(sum_m r_m) a step. coef_start (n values, may be NULL)
 * warm-starts it. The tolerance bounds the largest violation of the optimality conditions. */
km_status km_svr_solve_features(const km_kernel_access *kernel, const double *z, double C, double epsilon,
                                const km_smo_options *options, const double *coef_start, km_svm_solution *solution);

/* km_svr_solve where every kernel has explicit features: km_svr_solve_features with the bias found by the
 * search of km_svc_solve_features_with_bias, at a point that keeps sum_i (alpha_i - alpha*_i) = 0. */
km_status km_svr_solve_features_with_bias(const km_kernel_access *kernel, const double *z, double C, double epsilon,
                                          const km_smo_options *options, const double *coef_start,
                                          km_svm_solution *solution);

/* One-class SVM with parameter nu in (0, 1] (LIBSVM scaling: sum a = nu n, 0 <= a <= 1). alpha_start
 * (n values, may be NULL: LIBSVM's start) must satisfy the same constraints. */
km_status km_oneclass_solve(const km_kernel_access *kernel, double nu, const km_smo_options *options,
                            const double *alpha_start, km_svm_solution *solution);

/* nu-SVC on labels y_i in {+1,-1}, nu in (0, 1] with nu n / 2 at most the smaller class (LIBSVM's
 * feasibility condition). Solved with sum of a over each class = nu n / 2, 0 <= a <= 1, then scaled
 * by 1/r as LIBSVM does: coef = y a / r, bias = -rho / r, objective / r^2 (the C-SVC solution with
 * C = 1/r). coef_start (n values, may be NULL) warm-starts from earlier coefficients: rescaled to the
 * class sums when that is feasible, LIBSVM's start otherwise. */
km_status km_nu_svc_solve(const km_kernel_access *kernel, const signed char *y, double nu,
                          const km_smo_options *options, const double *coef_start, km_svm_solution *solution);

/* nu-SVR on real targets z with C > 0 and nu in (0, 1]: the 2n variables of epsilon-SVR with
 * sum a = sum a* = C nu n / 2 and no epsilon (the solver finds it: epsilon = -r). coef_start (n values,
 * may be NULL) warm-starts from earlier coefficients c = a - a*: a = max(c, 0) and a* = max(-c, 0)
 * rescaled to the sums when that is feasible, LIBSVM's start otherwise. */
km_status km_nu_svr_solve(const km_kernel_access *kernel, const double *z, double C, double nu,
                          const km_smo_options *options, const double *coef_start, km_svm_solution *solution);

#endif
