/* Duality certificate of an MKL point (Kloft's thesis "lp-Norm Multiple Kernel Learning", Problem 2.2,
 * Problem II.3 and eq. II.5): the per-kernel products h_m = K_m c, a_m = c'K_m c, the dual D = lin - 1/2 ||a||_r
 * (elastic net: elasticnet_dual_term), the primal P = Omega(w) + L with |w_m| = theta_m sqrt(a_m), and the
 * relative gap (P - D)/|P|. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>

#include "core/double_order.h"
#include "core/error.h"
#include "mkl/mkl.h"
#include "mkl/theta.h"
#include "svm/interruptible_access.h"

km_status km_mkl_products(const km_mkl_problem *problem, const double *coef, double *h)
{
    return km_mkl_products_of(problem, coef, NULL, h);
}

/* h_m = K_m c from explicit features: K_m c = s_m o (Phi_m v_m), v_m = Phi_m' (s_m o c), O(n r_m); v_m summed
 * over the partition's parts when the rows are split (each part's h_m then holds its own rows). */
static km_status feature_products(const km_kernel_access *k, const km_feature_block *blocks, const double *coef,
                                  const unsigned char *wanted, const km_row_partition *partition, double *h)
{
    size_t n = k->n_rows, r_max = 1;
    for (size_t m = 0; m < k->n_kernels; m++)
        r_max = blocks[m].r > r_max ? blocks[m].r : r_max;
    double *v = malloc(r_max * sizeof *v);
    if (!v)
        return km_error_nomem("kernel products");
    for (size_t m = 0; m < k->n_kernels; m++) {
        const km_feature_block *b = &blocks[m];
        if (wanted && !wanted[m])
            continue;
        memset(v, 0, b->r * sizeof *v);
        for (size_t j = 0; j < n; j++)
            if (coef[j] != 0.0)
                km_feature_axpy(b, j, coef[j] * km_feature_row_scale(b, j), v);
        if (partition)
            partition->sum(v, b->r);
        for (size_t i = 0; i < n; i++)
            h[m * n + i] = km_feature_row_scale(b, i) * km_feature_dot(b, i, v);
    }
    free(v);
    return KM_OK;
}

/* Kernel values fetched for the products at once: the support columns of a block, every kernel's. */
#define KM_PRODUCT_BLOCK_VALUES ((size_t)1 << 18)

/* Whether wanted leaves some kernel out (NULL: none). */
static int some_unwanted(const unsigned char *wanted, size_t M)
{
    for (size_t m = 0; wanted && m < M; m++)
        if (!wanted[m])
            return 1;
    return 0;
}

/* h_m += c_j K_m(., j) over the support columns j in ascending order: every kernel's column of a row
 * fetched at once, and several rows a block (km_kernel_access_blocks: the dot products of a block from
 * one product, the RBF widths of a view from one distance pass), or, with kernels left out, only the
 * wanted kernels' columns. */
static km_status kernel_products(const km_kernel_access *k, const double *coef, const unsigned char *wanted,
                                 const size_t *rows, double *h)
{
    size_t n = k->n_rows, M = k->n_kernels;
    int by_column = some_unwanted(wanted, M);
    size_t support_size = 0;
    for (size_t j = 0; j < n; j++)
        support_size += coef[j] != 0.0;
    size_t per_block = by_column ? 1 : KM_PRODUCT_BLOCK_VALUES / (M * n + 1) + 1;
    per_block = per_block < support_size ? per_block : support_size ? support_size : 1;
    size_t *support = malloc(per_block * sizeof *support);
    double *values = malloc(per_block * (by_column ? 1 : M) * n * sizeof *values);
    km_status st = support && values ? KM_OK : km_error_nomem("kernel products");
    for (size_t j = 0; !st && j < n;) {
        size_t count = 0;
        for (; j < n && count < per_block; j++)
            if (coef[j] != 0.0)
                support[count++] = j;
        if (!by_column)
            st = km_kernel_access_blocks(k, support, count, rows, n, values);
        for (size_t t = 0; !st && t < count; t++)
            for (size_t m = 0; !st && m < M; m++) {
                if (wanted && !wanted[m])
                    continue;
                const double *column = by_column ? values : values + (t * M + m) * n;
                if (by_column)
                    st = k->column(k->column_ctx, m, support[t], rows, n, values);
                for (size_t i = 0; !st && i < n; i++)
                    h[m * n + i] += coef[support[t]] * column[i];
            }
    }
    free(support);
    free(values);
    return st;
}

km_status km_mkl_products_of(const km_mkl_problem *problem, const double *coef, const unsigned char *wanted,
                             double *h)
{
    const km_machine_problem *machine = problem->machine;
    km_feature_block *blocks = malloc(machine->kernel->n_kernels * sizeof *blocks);
    if (!blocks)
        return km_error_nomem("kernel products");
    if (km_kernel_access_features(machine->kernel, blocks)) {
        km_status st = feature_products(machine->kernel, blocks, coef, wanted, machine->solver.partition, h);
        free(blocks);
        return st;
    }
    free(blocks);
    km_interruptible_access polled; /* up to M columns per support vector */
    km_interruptible_access_init(&polled, machine->kernel, machine->solver.interrupted, machine->solver.interrupt_ctx,
                                 "the kernel products");
    const km_kernel_access *k = &polled.access;
    size_t n = k->n_rows, M = k->n_kernels;
    for (size_t m = 0; m < M; m++)
        if (!wanted || wanted[m])
            memset(h + m * n, 0, n * sizeof *h);
    size_t *rows = malloc(n * sizeof *rows);
    km_status st = rows ? KM_OK : km_error_nomem("kernel products");
    for (size_t i = 0; !st && i < n; i++)
        rows[i] = i;
    if (!st)
        st = kernel_products(k, coef, wanted, rows, h);
    free(rows);
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

void km_mkl_kernel_terms(const km_mkl_problem *problem, const double *coef, const double *h, double *a)
{
    const km_machine_problem *machine = problem->machine;
    km_mkl_quadratic_terms(machine->kernel->n_rows, machine->kernel->n_kernels, coef, h, a);
    if (machine->solver.partition)
        machine->solver.partition->sum(a, machine->kernel->n_kernels);
}

/* Elastic-net dual term min_{delta >= 0} delta + 1/(2 lambda) sum_m max(0, sqrt(a_m) - s)^2 with
 * s = sqrt(2 (1 - lambda) delta), the dual of SHOGUN's elastic net as kernelmix derives it: in s the
 * stationarity condition is piecewise linear; with the k largest sqrt(a) above s,
 * s = (sum_top_k sqrt(a) / lambda) / (1/(1-lambda) + k/lambda). */
static double elasticnet_dual_term(size_t M, const double *a, double lambda)
{
    double *root = malloc(M * sizeof *root);
    if (!root)
        return NAN;
    for (size_t m = 0; m < M; m++)
        root[m] = a[m] > 0 ? sqrt(a[m]) : 0.0;
    qsort(root, M, sizeof *root, km_double_ascending); /* ascending; the largest are at the end */
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

/* Omega(w) of the regularizer from the block norms (lp: 1/2 ||w||_{2,p}^2; elastic net:
 * SHOGUN's ((1-lambda)/2) ||w||_{2,1}^2 + (lambda/2) ||w||_{2,2}^2). */
static double regularizer(const km_mkl_problem *pr, const double *w)
{
    size_t M = pr->machine->kernel->n_kernels;
    if (pr->mkl.method != KM_MKL_ELASTICNET)
        return 0.5 * km_block_norm_squared(M, pr->mkl.p_block, w);
    double l1 = 0, l2 = 0, lambda = pr->mkl.lambda;
    for (size_t m = 0; m < M; m++) {
        l1 += w[m];
        l2 += w[m] * w[m];
    }
    return 0.5 * (1.0 - lambda) * l1 * l1 + 0.5 * lambda * l2;
}

/* With L = lin - 1/2 sum_m theta_m a_m the SVM's dual at theta, P - D = (P - L) + (L - D). For lp-norm MKL with
 * p_block <= 2 the regularizer is at most the SVM's 1/2 sum theta_m a_m (1/2 ||w||_{2,p_block}^2 is the least
 * 1/2 sum |w_m|^2 / beta_m over ||beta||_p <= 1, theta among them; Kloft's thesis, Problem II.4), so P - L is at
 * most the SVM's own gap at theta; L - D >= 0 (1/2 ||a||_r is the largest 1/2 sum beta_m a_m over the same
 * beta) is the part theta steps can close. Hence the SVM's gap is at least P - D - (L - D). */
double km_mkl_svm_share(const km_mkl_problem *pr, const double *a, double kernel_term, double absolute_gap)
{
    if (pr->mkl.method != KM_MKL_LP || !(pr->mkl.p_block <= 2))
        return 0.0; /* no such variational form: the bound says nothing */
    const double *theta = pr->machine->kernel->theta;
    size_t M = pr->machine->kernel->n_kernels;
    double combined = 0;
    for (size_t m = 0; m < M; m++)
        combined += theta[m] * a[m];
    double weights_share = kernel_term - 0.5 * combined;
    /* theta on the boundary of its set makes L - D a difference of equal sums: rounding may leave it below 0 */
    if (weights_share < -1e-12 * fabs(kernel_term))
        return 0.0; /* theta outside its feasible set: the bound says nothing */
    return fmax(absolute_gap - fmax(weights_share, 0.0), 0.0);
}

void km_mkl_certify(const km_mkl_problem *pr, const double *coef, double bias, const double *a, const double *h,
                    km_mkl_certificate *out)
{
    const km_kernel_access *k = pr->machine->kernel;
    size_t n = k->n_rows, M = k->n_kernels;
    double scale = pr->machine->ops->certificate_scale(pr->machine);
    double *g = malloc(n * sizeof *g), *w = malloc(M * sizeof *w), *as = malloc(M * sizeof *as);
    if (!g || !w || !as) {
        out->lin = out->dual = out->primal = out->gap = NAN;
        out->bias = bias;
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
    const km_machine_problem *machine = pr->machine;
    double best_bias;
    double lin = machine->ops->linear_term(machine, coef), loss = machine->ops->loss(machine, g, bias * scale, &best_bias);
    if (machine->solver.partition) {   /* sums over the rows (machines without bias: best_bias is 0) */
        double sums[2] = {lin, loss};
        machine->solver.partition->sum(sums, 2);
        lin = sums[0];
        loss = sums[1];
    }
    double kernel_term = pr->mkl.method == KM_MKL_ELASTICNET
                             ? elasticnet_dual_term(M, as, pr->mkl.lambda)
                             : 0.5 * km_mkl_dual_norm(M, pr->mkl.p_block, as);
    out->bias = best_bias / scale;
    out->lin = lin;
    out->dual = lin - kernel_term;
    out->primal = regularizer(pr, w) + loss;
    /* equal objectives certify the optimum, also where both are 0 (a constant target fitted by the bias
     * alone), whose relative gap would be 0/0 */
    out->gap = out->primal == out->dual ? 0.0 : (out->primal - out->dual) / fabs(out->primal);
    out->svm_share = km_mkl_svm_share(pr, as, kernel_term, out->primal - out->dual);
    free(g);
    free(w);
    free(as);
}

void km_mkl_result_certified(km_mkl_result *result, const km_mkl_certificate *cert)
{
    result->bias = cert->bias;
    result->dual = cert->dual;
    result->primal = cert->primal;
    result->gap = cert->gap;
}
