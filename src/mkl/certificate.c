/* Duality certificate of an MKL point (spec/lpmkl.md §2 and §4): the per-kernel products h_m = K_m c,
 * a_m = c'K_m c, the dual D = lin - 1/2 ||a||_r (elastic net: §5), the primal P = Omega(w) + L with
 * |w_m| = theta_m sqrt(a_m), and the relative gap (P - D)/|P|. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "mkl/mkl.h"
#include "mkl/theta.h"

km_status km_mkl_products(const km_mkl_problem *problem, const double *coef, double *h)
{
    const km_kernel_access *k = problem->kernel;
    size_t n = k->n_rows, M = k->n_kernels;
    memset(h, 0, n * M * sizeof *h);
    size_t *rows = malloc(n * sizeof *rows);
    double *column = malloc(n * sizeof *column);
    km_status st = rows && column ? KM_OK : km_error_nomem("kernel products");
    for (size_t i = 0; !st && i < n; i++)
        rows[i] = i;
    for (size_t j = 0; !st && j < n; j++) {
        if (coef[j] == 0.0)
            continue;
        for (size_t m = 0; !st && m < M; m++) {
            st = k->column(k->column_ctx, m, j, rows, n, column);
            for (size_t i = 0; !st && i < n; i++)
                h[m * n + i] += coef[j] * column[i];
        }
    }
    free(rows);
    free(column);
    return st;
}

void km_mkl_quadratic_terms(size_t n, size_t M, const double *coef, const double *h, double *a)
{
    for (size_t m = 0; m < M; m++) {
        double s = 0;
        for (size_t i = 0; i < n; i++)
            s += coef[i] * h[m * n + i];
        a[m] = s;
    }
}

/* One hinge term of a piecewise-linear loss in the bias b: w max(0, b - t) (up) or w max(0, t - b). */
typedef struct hinge {
    double t, w;
    int up;
} hinge;

static int by_breakpoint(const void *x, const void *y)
{
    double a = ((const hinge *)x)->t, b = ((const hinge *)y)->t;
    return (a > b) - (a < b);
}

/* Minimiser of sum_k w_k max(0, +-(b - t_k)): the breakpoint where the slope turns non-negative. */
static double best_bias(hinge *terms, size_t count, double fallback)
{
    if (count == 0)
        return fallback;
    qsort(terms, count, sizeof *terms, by_breakpoint);
    double slope = 0;
    for (size_t k = 0; k < count; k++)
        if (!terms[k].up)
            slope -= terms[k].w;
    for (size_t k = 0; k < count; k++) {
        slope += terms[k].w; /* passing t_k: a "down" term stops pulling, an "up" term starts */
        if (slope >= 0)
            return terms[k].t;
    }
    return terms[count - 1].t;
}

/* Loss L(b) of the task at decision values g + b (spec §4 table). */
static double task_loss(const km_mkl_problem *pr, const double *g, double b)
{
    size_t n = pr->kernel->n_rows;
    double L = 0;
    for (size_t i = 0; i < n; i++) {
        double f = g[i] + b;
        if (pr->task == KM_TASK_SVC) {
            double C = pr->C * (pr->y[i] > 0 ? pr->weight_pos : pr->weight_neg);
            double margin = 1.0 - pr->y[i] * f;
            L += margin > 0 ? C * margin : 0.0;
        } else {
            double excess = fabs(pr->z[i] - f) - pr->epsilon;
            L += excess > 0 ? pr->C * excess : 0.0;
        }
    }
    return L;
}

/* Bias minimising the loss over its breakpoints (SVC: y_i - g_i; SVR: z_i - g_i +- epsilon), or the
 * solver's bias when that is at least as good. */
static double refine_bias(const km_mkl_problem *pr, const double *g, double bias)
{
    size_t n = pr->kernel->n_rows, count = 0;
    hinge *terms = malloc(2 * n * sizeof *terms);
    if (!terms)
        return bias; /* the solver's bias is a valid (if not the best) primal point */
    for (size_t i = 0; i < n; i++) {
        if (pr->task == KM_TASK_SVC) {
            double C = pr->C * (pr->y[i] > 0 ? pr->weight_pos : pr->weight_neg);
            /* y = +1: C max(0, (1 - g) - b); y = -1: C max(0, b - (-1 - g)) */
            terms[count++] = (hinge){pr->y[i] > 0 ? 1 - g[i] : -1 - g[i], C, pr->y[i] < 0};
        } else {
            terms[count++] = (hinge){pr->z[i] - g[i] - pr->epsilon, pr->C, 0};
            terms[count++] = (hinge){pr->z[i] - g[i] + pr->epsilon, pr->C, 1};
        }
    }
    double b = best_bias(terms, count, bias);
    free(terms);
    return task_loss(pr, g, b) < task_loss(pr, g, bias) ? b : bias;
}

static int by_value(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* One-class loss at the best rho (the ceil(nu n)-th smallest f): -rho + 1/(nu n) sum max(0, rho - f). */
static double oneclass_loss(const double *f, size_t n, double nu)
{
    double *sorted = malloc(n * sizeof *sorted);
    if (!sorted)
        return NAN;
    memcpy(sorted, f, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, by_value);
    size_t k = (size_t)ceil(nu * (double)n);
    double rho = sorted[(k ? k : 1) - 1], excess = 0;
    for (size_t i = 0; i < n; i++)
        excess += rho > f[i] ? rho - f[i] : 0.0;
    free(sorted);
    return -rho + excess / (nu * (double)n);
}

/* Elastic-net dual term min_{delta >= 0} delta + 1/(2 lambda) sum_m max(0, sqrt(a_m) - s)^2 with
 * s = sqrt(2 (1 - lambda) delta) (spec §5): in s the stationarity condition is piecewise linear;
 * with the k largest sqrt(a) above s, s = (sum_top_k sqrt(a) / lambda) / (1/(1-lambda) + k/lambda). */
static double elasticnet_dual_term(size_t M, const double *a, double lambda)
{
    double *root = malloc(M * sizeof *root);
    if (!root)
        return NAN;
    for (size_t m = 0; m < M; m++)
        root[m] = a[m] > 0 ? sqrt(a[m]) : 0.0;
    qsort(root, M, sizeof *root, by_value); /* ascending; the largest are at the end */
    double s = 0, top = 0;
    for (size_t k = 1; k <= M; k++) {
        top += root[M - k];
        s = (top / lambda) / (1.0 / (1.0 - lambda) + (double)k / lambda);
        if (k == M || root[M - k - 1] <= s)
            break;
    }
    double value = s * s / (2.0 * (1.0 - lambda));
    for (size_t m = 0; m < M; m++)
        value += root[m] > s ? (root[m] - s) * (root[m] - s) / (2.0 * lambda) : 0.0;
    free(root);
    return value;
}

/* Omega(w) of the regularizer from the block norms (lp: 1/2 ||w||_{2,p}^2; elastic net §5). */
static double regularizer(const km_mkl_problem *pr, const double *w)
{
    size_t M = pr->kernel->n_kernels;
    if (pr->mkl.method != KM_MKL_ELASTICNET)
        return 0.5 * km_block_norm_squared(M, pr->mkl.p_block, w);
    double l1 = 0, l2 = 0, lambda = pr->mkl.lambda;
    for (size_t m = 0; m < M; m++) {
        l1 += w[m];
        l2 += w[m] * w[m];
    }
    return 0.5 * (1.0 - lambda) * l1 * l1 + 0.5 * lambda * l2;
}

void km_mkl_certify(const km_mkl_problem *pr, const double *coef, double bias, const double *a, const double *h,
                    km_mkl_certificate *out)
{
    const km_kernel_access *k = pr->kernel;
    size_t n = k->n_rows, M = k->n_kernels;
    /* one-class: spec scaling c / (nu n) */
    double scale = pr->task == KM_TASK_ONECLASS ? 1.0 / (pr->nu * (double)n) : 1.0;
    double *g = malloc(n * sizeof *g), *w = malloc(M * sizeof *w), *as = malloc(M * sizeof *as);
    if (!g || !w || !as) {
        out->lin = out->dual = out->primal = out->gap = NAN;
        free(g);
        free(w);
        free(as);
        return;
    }
    for (size_t m = 0; m < M; m++) {
        as[m] = a[m] * scale * scale;
        w[m] = as[m] > 0 ? k->theta[m] * sqrt(as[m]) : 0.0;
    }
    for (size_t i = 0; i < n; i++) {
        double s = 0;
        for (size_t m = 0; m < M; m++)
            s += k->theta[m] * h[m * n + i];
        g[i] = s * scale;
    }
    double lin = 0, loss;
    if (pr->task == KM_TASK_SVC) {
        for (size_t i = 0; i < n; i++)
            lin += pr->y[i] * coef[i];
        loss = task_loss(pr, g, refine_bias(pr, g, bias));
    } else if (pr->task == KM_TASK_SVR) {
        for (size_t i = 0; i < n; i++)
            lin += pr->z[i] * coef[i] - pr->epsilon * fabs(coef[i]);
        loss = task_loss(pr, g, refine_bias(pr, g, bias));
    } else {
        loss = oneclass_loss(g, n, pr->nu);
    }
    double kernel_term = pr->mkl.method == KM_MKL_ELASTICNET
                             ? elasticnet_dual_term(M, as, pr->mkl.lambda)
                             : 0.5 * km_mkl_dual_norm(M, pr->mkl.p_block, as);
    out->lin = lin;
    out->dual = lin - kernel_term;
    out->primal = regularizer(pr, w) + loss;
    out->gap = (out->primal - out->dual) / fabs(out->primal);
    free(g);
    free(w);
    free(as);
}
