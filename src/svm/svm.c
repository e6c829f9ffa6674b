/* C-SVC, epsilon-SVR, one-class SVM, nu-SVC and nu-SVR as SMO problems, set up as LIBSVM 3.24's
 * solve_c_svc, solve_epsilon_svr, solve_one_class, solve_nu_svc and solve_nu_svr do. */
#include "svm/svm.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

/* The SMO problem on the task's variables; arrays owned here. */
typedef struct task_qp {
    km_qp qp;
    double *alpha;
    signed char *y;
    double *p;
    double *upper;
    size_t *row_of;
} task_qp;

static void task_free(task_qp *t)
{
    free(t->alpha);
    free(t->y);
    free(t->p);
    free(t->upper);
    free(t->row_of);
}

static km_status task_alloc(task_qp *t, const km_kernel_access *kernel, size_t n_vars, int rows_mapped)
{
    memset(t, 0, sizeof *t);
    if (!kernel || !kernel->column || !kernel->diag || !kernel->theta || kernel->n_rows == 0)
        return km_error(KM_EINVAL, "SVM: incomplete kernel access (column, diag, theta and rows required)");
    t->alpha = calloc(n_vars, sizeof *t->alpha);
    t->y = malloc(n_vars * sizeof *t->y);
    t->p = malloc(n_vars * sizeof *t->p);
    t->upper = malloc(n_vars * sizeof *t->upper);
    if (rows_mapped)
        t->row_of = malloc(n_vars * sizeof *t->row_of);
    if (!t->alpha || !t->y || !t->p || !t->upper || (rows_mapped && !t->row_of)) {
        task_free(t);
        return km_error_nomem("the SVM dual problem");
    }
    t->qp = (km_qp){
        .n_vars = n_vars,
        .n_rows = kernel->n_rows,
        .row_of = t->row_of,
        .y = t->y,
        .p = t->p,
        .upper = t->upper,
        .n_kernels = kernel->n_kernels,
        .theta = kernel->theta,
        .column = kernel->column,
        .column_ctx = kernel->column_ctx,
        .combined = kernel->combined,
        .kernel_columns = kernel->kernel_columns,
        .columns_derived = kernel->columns_derived,
        .kernel_rows = kernel->kernel_rows,
        .kernel_rows_size = kernel->kernel_rows_size,
        .costly_values = kernel->costly_values,
        .diag = kernel->diag,
    };
    return KM_OK;
}

/* Solves; *r receives Solver_NU's r (0 for the other tasks). */
static km_status task_solve(task_qp *t, const km_smo_options *options, km_svm_solution *solution, double *r)
{
    km_smo_result result;
    km_status st = km_smo_solve(&t->qp, options, t->alpha, &result);
    if (st)
        return st;
    if (r)
        *r = result.r;
    solution->bias = -result.rho;
    solution->objective = result.objective;
    solution->iterations = result.iterations;
    solution->converged = result.converged;
    return KM_OK;
}

/* C-SVC with (bias 1) or without (bias 0) the bias and its constraint sum_i y_i alpha_i = 0. */
static km_status svc_solve(const km_kernel_access *kernel, const signed char *y, double C, double weight_pos,
                           double weight_neg, int bias, const km_smo_options *options, const double *alpha_start,
                           km_svm_solution *solution)
{
    if (!y || !solution || !solution->coef)
        return km_error(KM_EINVAL, "km_svc_solve: NULL labels or solution coefficients");
    if (!(C > 0) || !(weight_pos > 0) || !(weight_neg > 0) || isinf(C * weight_pos * weight_neg))
        return km_error(KM_EINVAL, "km_svc_solve: C = %g and class weights %g, %g must be positive and finite", C,
                        weight_pos, weight_neg);
    task_qp t;
    km_status st = task_alloc(&t, kernel, kernel ? kernel->n_rows : 0, 0);
    if (st)
        return st;
    size_t n = kernel->n_rows, n_pos = 0;
    for (size_t i = 0; i < n; i++) {
        if (y[i] != 1 && y[i] != -1) {
            task_free(&t);
            return km_error(KM_EINVAL, "km_svc_solve: label %d of row %zu is not +1 or -1", y[i], i);
        }
        n_pos += y[i] > 0;
        t.y[i] = y[i];
        t.p[i] = -1;
        t.upper[i] = C * (y[i] > 0 ? weight_pos : weight_neg);
        t.alpha[i] = alpha_start ? alpha_start[i] : 0;
    }
    if (n_pos == 0 || n_pos == n) {
        task_free(&t);
        return km_error(KM_EINVAL, "km_svc_solve: both classes are needed (%zu of %zu rows positive)", n_pos, n);
    }
    t.qp.no_equality = !bias;
    t.qp.start_products = alpha_start ? solution->start_products : NULL;   /* c = y o alpha_start */
    st = task_solve(&t, options, solution, NULL);
    if (!st)
        for (size_t i = 0; i < n; i++)
            solution->coef[i] = y[i] * t.alpha[i];
    task_free(&t);
    return st;
}

km_status km_svc_solve(const km_kernel_access *kernel, const signed char *y, double C, double weight_pos,
                       double weight_neg, const km_smo_options *options, const double *alpha_start,
                       km_svm_solution *solution)
{
    return svc_solve(kernel, y, C, weight_pos, weight_neg, 1, options, alpha_start, solution);
}

km_status km_svc_solve_without_bias(const km_kernel_access *kernel, const signed char *y, double C,
                                    double weight_pos, double weight_neg, const km_smo_options *options,
                                    const double *alpha_start, km_svm_solution *solution)
{
    return svc_solve(kernel, y, C, weight_pos, weight_neg, 0, options, alpha_start, solution);
}

/* epsilon-SVR with (bias 1) or without (bias 0) the bias and its constraint sum_i (alpha_i - alpha*_i) = 0. */
static km_status svr_solve(const km_kernel_access *kernel, const double *z, double C, double epsilon, int bias,
                           const km_smo_options *options, const double *alpha_start, km_svm_solution *solution)
{
    if (!z || !solution || !solution->coef)
        return km_error(KM_EINVAL, "km_svr_solve: NULL targets or solution coefficients");
    if (!(C > 0) || isinf(C) || !(epsilon >= 0) || isinf(epsilon))
        return km_error(KM_EINVAL, "km_svr_solve: C = %g must be positive and epsilon = %g non-negative", C, epsilon);
    size_t n = kernel ? kernel->n_rows : 0;
    task_qp t;
    km_status st = task_alloc(&t, kernel, 2 * n, 1);
    if (st)
        return st;
    /* variables i < n: alpha_i, y = +1, p = epsilon - z_i; i >= n: alpha*_i, y = -1, p = epsilon + z_i */
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(z[i])) {
            task_free(&t);
            return km_error(KM_EINVAL, "km_svr_solve: target of row %zu is not finite", i);
        }
        t.y[i] = 1;
        t.y[i + n] = -1;
        t.p[i] = epsilon - z[i];
        t.p[i + n] = epsilon + z[i];
        t.upper[i] = t.upper[i + n] = C;
        t.row_of[i] = t.row_of[i + n] = i;
        t.alpha[i] = alpha_start ? alpha_start[i] : 0;
        t.alpha[i + n] = alpha_start ? alpha_start[i + n] : 0;
    }
    t.qp.no_equality = !bias;
    st = task_solve(&t, options, solution, NULL);
    if (!st)
        for (size_t i = 0; i < n; i++)
            solution->coef[i] = t.alpha[i] - t.alpha[i + n];
    task_free(&t);
    return st;
}

km_status km_svr_solve(const km_kernel_access *kernel, const double *z, double C, double epsilon,
                       const km_smo_options *options, const double *alpha_start, km_svm_solution *solution)
{
    return svr_solve(kernel, z, C, epsilon, 1, options, alpha_start, solution);
}

km_status km_svr_solve_without_bias(const km_kernel_access *kernel, const double *z, double C, double epsilon,
                                    const km_smo_options *options, const double *alpha_start,
                                    km_svm_solution *solution)
{
    return svr_solve(kernel, z, C, epsilon, 0, options, alpha_start, solution);
}

km_status km_oneclass_solve(const km_kernel_access *kernel, double nu, const km_smo_options *options,
                            const double *alpha_start, km_svm_solution *solution)
{
    if (!solution || !solution->coef)
        return km_error(KM_EINVAL, "km_oneclass_solve: NULL solution coefficients");
    if (!(nu > 0 && nu <= 1))
        return km_error(KM_EINVAL, "km_oneclass_solve: nu = %g is outside (0, 1]", nu);
    size_t n = kernel ? kernel->n_rows : 0;
    task_qp t;
    km_status st = task_alloc(&t, kernel, n, 0);
    if (st)
        return st;
    /* LIBSVM's start: the first floor(nu n) variables at 1, the next one at the remainder */
    size_t n_full = (size_t)(nu * (double)n);
    for (size_t i = 0; i < n; i++) {
        t.y[i] = 1;
        t.p[i] = 0;
        t.upper[i] = 1;
        if (alpha_start)
            t.alpha[i] = alpha_start[i];
        else if (i < n_full)
            t.alpha[i] = 1;
        else if (i == n_full)
            t.alpha[i] = nu * (double)n - (double)n_full;
    }
    st = task_solve(&t, options, solution, NULL);
    if (!st)
        memcpy(solution->coef, t.alpha, n * sizeof *t.alpha);
    task_free(&t);
    return st;
}

/* Puts a total of `total` on the variables of one sign of y, proportional to weight (which may be
 * t->alpha itself), when every value then stays within [0, upper]; returns 0 (nothing changed)
 * otherwise. */
static int rescaled_start(task_qp *t, const double *weight, int sign, double total, double upper)
{
    double sum = 0;
    for (size_t k = 0; k < t->qp.n_vars; k++)
        if (t->y[k] == sign)
            sum += weight[k];
    if (!(sum > 0))
        return 0;
    /* a value at its bound before may come back a rounding error above it */
    double scale = total / sum, slack = upper * (1 + 1e-12);
    for (size_t k = 0; k < t->qp.n_vars; k++)
        if (t->y[k] == sign && !(weight[k] * scale <= slack))
            return 0;
    for (size_t k = 0; k < t->qp.n_vars; k++)
        if (t->y[k] == sign)
            t->alpha[k] = fmin(weight[k] * scale, upper);
    return 1;
}

/* LIBSVM's nu start: each sign's total spread over its variables in order, upper at a time. */
static void nu_start(task_qp *t, double total, double upper)
{
    double left[2] = {total, total};
    for (size_t k = 0; k < t->qp.n_vars; k++) {
        double *rest = &left[t->y[k] > 0 ? 0 : 1];
        t->alpha[k] = *rest < upper ? *rest : upper;
        *rest -= t->alpha[k];
    }
}

/* The warm start from per-variable weights when both signs rescale feasibly, else LIBSVM's start. */
static void nu_warm_or_cold_start(task_qp *t, const double *weight, double total, double upper)
{
    if (weight && rescaled_start(t, weight, +1, total, upper) && rescaled_start(t, weight, -1, total, upper))
        return;
    nu_start(t, total, upper);
}

km_status km_nu_svc_solve(const km_kernel_access *kernel, const signed char *y, double nu,
                          const km_smo_options *options, const double *coef_start, km_svm_solution *solution)
{
    if (!y || !solution || !solution->coef)
        return km_error(KM_EINVAL, "km_nu_svc_solve: NULL labels or solution coefficients");
    if (!(nu > 0 && nu <= 1))
        return km_error(KM_EINVAL, "km_nu_svc_solve: nu = %g is outside (0, 1]", nu);
    size_t n = kernel ? kernel->n_rows : 0, n_pos = 0;
    for (size_t i = 0; i < n; i++) {
        if (y[i] != 1 && y[i] != -1)
            return km_error(KM_EINVAL, "km_nu_svc_solve: label %d of row %zu is not +1 or -1", y[i], i);
        n_pos += y[i] > 0;
    }
    size_t n_small = n_pos < n - n_pos ? n_pos : n - n_pos;
    if (kernel && nu * (double)n / 2 > (double)n_small)
        return km_error(KM_EINVAL, "nu-SVC: nu = %g is infeasible for classes of %zu and %zu rows (nu n / 2 = %g "
                        "exceeds the smaller class; nu must be at most %g)", nu, n_pos, n - n_pos,
                        nu * (double)n / 2, 2.0 * (double)n_small / (double)n);
    task_qp t;
    km_status st = task_alloc(&t, kernel, n, 0);
    if (st)
        return st;
    t.qp.nu_constraints = 1;
    for (size_t i = 0; i < n; i++) {
        t.y[i] = y[i];
        t.p[i] = 0;
        t.upper[i] = 1;
        t.alpha[i] = coef_start ? y[i] * coef_start[i] : 0;   /* the start's weights, before rescaling */
    }
    nu_warm_or_cold_start(&t, coef_start ? t.alpha : NULL, nu * (double)n / 2, 1.0);
    double r = 0;
    st = task_solve(&t, options, solution, &r);
    if (!st && !(r > 0 && isfinite(r)))
        st = km_error(KM_ENOTCONV, "nu-SVC: the solution has r = %g (it must be positive); the kernel cannot "
                      "separate the classes at nu = %g", r, nu);
    if (!st) {
        if (options)
            km_log(&options->logger, KM_LOG_DEBUG, "nu-SVC: C = %.17g", 1 / r);
        for (size_t i = 0; i < n; i++)
            solution->coef[i] = y[i] * t.alpha[i] / r;
        solution->bias /= r;
        solution->objective /= r * r;
    }
    task_free(&t);
    return st;
}

km_status km_nu_svr_solve(const km_kernel_access *kernel, const double *z, double C, double nu,
                          const km_smo_options *options, const double *coef_start, km_svm_solution *solution)
{
    if (!z || !solution || !solution->coef)
        return km_error(KM_EINVAL, "km_nu_svr_solve: NULL targets or solution coefficients");
    if (!(C > 0) || isinf(C) || !(nu > 0 && nu <= 1))
        return km_error(KM_EINVAL, "km_nu_svr_solve: C = %g must be positive and nu = %g in (0, 1]", C, nu);
    size_t n = kernel ? kernel->n_rows : 0;
    task_qp t;
    km_status st = task_alloc(&t, kernel, 2 * n, 1);
    if (st)
        return st;
    t.qp.nu_constraints = 1;
    /* variables i < n: alpha_i, y = +1, p = -z_i; i >= n: alpha*_i, y = -1, p = z_i */
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(z[i])) {
            task_free(&t);
            return km_error(KM_EINVAL, "km_nu_svr_solve: target of row %zu is not finite", i);
        }
        t.y[i] = 1;
        t.y[i + n] = -1;
        t.p[i] = -z[i];
        t.p[i + n] = z[i];
        t.upper[i] = t.upper[i + n] = C;
        t.row_of[i] = t.row_of[i + n] = i;
        t.alpha[i] = coef_start && coef_start[i] > 0 ? coef_start[i] : 0;
        t.alpha[i + n] = coef_start && coef_start[i] < 0 ? -coef_start[i] : 0;
    }
    nu_warm_or_cold_start(&t, coef_start ? t.alpha : NULL, C * nu * (double)n / 2, C);
    double r = 0;
    st = task_solve(&t, options, solution, &r);
    if (!st) {
        if (options)
            km_log(&options->logger, KM_LOG_DEBUG, "nu-SVR: epsilon = %.17g", -r);
        for (size_t i = 0; i < n; i++)
            solution->coef[i] = t.alpha[i] - t.alpha[i + n];
    }
    task_free(&t);
    return st;
}
