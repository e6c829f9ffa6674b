/* MKL diagnostics (Kloft, "lp-Norm Multiple Kernel Learning", thesis eq. 5.1 and §5.1.1): centred kernel
 * alignment and the bound factors for choosing p. */
#include "mkl/diagnostics.h"

#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

/* Columns fetched per block of the second pass: about 2^20 doubles of M x block x n. */
static size_t block_columns(size_t M, size_t n)
{
    size_t per_column = M * n;
    size_t b = per_column ? ((size_t)1 << 20) / per_column : 1;
    return b < 1 ? 1 : b > n ? n : b;
}

typedef struct alignment_work {
    const km_kernel_access *kernel;
    size_t n, M, T, block;
    int pairs;           /* the M x M alignments are asked for, not only the norms */
    size_t *rows;        /* 0..n-1 */
    double *mean;        /* M x n: column means (= row means) of each kernel */
    double *total;       /* M: mean of all entries */
    double *raw;         /* M: sum of squared entries, to recognise a centred matrix that is zero */
    double *centred;     /* M x (block n): centred columns; row m is kernel m's block of columns */
    double *fetched;     /* block x M x n: a block of columns as the access returns them */
    size_t *cols;        /* block: the columns of a block */
    double *u;           /* n x T: centred targets */
    double *projection;  /* (M block) x T: centred columns times u */
    double *gram;        /* M x M: <HK_aH, HK_bH> (upper triangle) */
    double *target_dot;  /* M: <HK_mH, U U'> */
} alignment_work;

static void work_free(alignment_work *w)
{
    free(w->rows);
    free(w->mean);
    free(w->total);
    free(w->raw);
    free(w->centred);
    free(w->fetched);
    free(w->cols);
    free(w->u);
    free(w->projection);
    free(w->gram);
    free(w->target_dot);
}

static km_status work_init(alignment_work *w, const km_kernel_access *kernel, size_t T, const double *targets,
                           int pairs)
{
    memset(w, 0, sizeof *w);
    w->kernel = kernel;
    w->pairs = pairs;
    w->n = kernel->n_rows;
    w->M = kernel->n_kernels;
    w->T = T;
    w->block = block_columns(w->M, w->n);
    size_t n = w->n, M = w->M;
    w->rows = malloc(n * sizeof *w->rows);
    w->mean = calloc(M * n, sizeof *w->mean);
    w->total = calloc(M, sizeof *w->total);
    w->raw = calloc(M, sizeof *w->raw);
    w->centred = malloc(M * w->block * n * sizeof *w->centred);
    w->fetched = malloc(M * w->block * n * sizeof *w->fetched);
    w->cols = malloc(w->block * sizeof *w->cols);
    w->gram = calloc(M * M, sizeof *w->gram);
    w->target_dot = calloc(M, sizeof *w->target_dot);
    w->u = T ? malloc(n * T * sizeof *w->u) : NULL;
    w->projection = T ? malloc(M * w->block * T * sizeof *w->projection) : NULL;
    if (!w->rows || !w->mean || !w->total || !w->raw || !w->centred || !w->fetched || !w->cols || !w->gram ||
        !w->target_dot ||
        (T && (!w->u || !w->projection)))
        return km_error_nomem("kernel alignments");
    for (size_t i = 0; i < n; i++)
        w->rows[i] = i;
    for (size_t t = 0; t < T; t++) {
        double mean = 0;
        for (size_t i = 0; i < n; i++)
            mean += targets[i * T + t];
        mean /= (double)n;
        for (size_t i = 0; i < n; i++)
            w->u[i * T + t] = targets[i * T + t] - mean;
    }
    return KM_OK;
}

/* centred[(m b + c) n + i] = K_m(i, j0 + c) for the b columns from j0, from one block request of the
 * access (km_kernel_access_blocks: dot products from one matrix product). */
static km_status fetch_columns(alignment_work *w, size_t j0, size_t b)
{
    size_t n = w->n, M = w->M;
    for (size_t c = 0; c < b; c++)
        w->cols[c] = j0 + c;
    km_status st = km_kernel_access_blocks(w->kernel, w->cols, b, w->rows, n, w->fetched);
    if (st)
        return st;
    for (size_t c = 0; c < b; c++)
        for (size_t m = 0; m < M; m++)
            memcpy(w->centred + (m * b + c) * n, w->fetched + (c * M + m) * n, n * sizeof *w->centred);
    return KM_OK;
}

/* First pass: column means, overall means and raw squared norms. */
static km_status column_means(alignment_work *w)
{
    size_t n = w->n, M = w->M;
    for (size_t j0 = 0; j0 < n; j0 += w->block) {
        size_t b = n - j0 < w->block ? n - j0 : w->block;
        km_status st = fetch_columns(w, j0, b);
        if (st)
            return st;
        for (size_t m = 0; m < M; m++)
            for (size_t c = 0; c < b; c++) {
                const double *column = w->centred + (m * b + c) * n;
                double s = 0;
                for (size_t i = 0; i < n; i++)
                    s += column[i];
                w->mean[m * n + j0 + c] = s / (double)n;
                w->total[m] += s;
                w->raw[m] += cblas_ddot((int)n, column, 1, column, 1);
            }
    }
    for (size_t m = 0; m < M; m++)
        w->total[m] /= (double)n * (double)n;
    return KM_OK;
}

/* Second pass over blocks of columns j0..j0+b: (HKH)_ij = K_ij - mean_i - mean_j + total, then
 * gram += C C' over the stacked centred columns (its diagonal only without pairs) and target_dot_m += sum_j
 * sum_t u_jt (HK_mH u_t)_j. */
static km_status centred_products(alignment_work *w)
{
    size_t n = w->n, M = w->M, T = w->T;
    for (size_t j0 = 0; j0 < n; j0 += w->block) {
        size_t b = n - j0 < w->block ? n - j0 : w->block;
        km_status st = fetch_columns(w, j0, b);
        if (st)
            return st;
        for (size_t m = 0; m < M; m++) {
            const double *mean = w->mean + m * n;
            for (size_t c = 0; c < b; c++) {
                double *col = w->centred + m * b * n + c * n;
                double shift = w->total[m] - mean[j0 + c];
                for (size_t i = 0; i < n; i++)
                    col[i] += shift - mean[i];
            }
        }
        if (w->pairs)
            cblas_dsyrk(CblasRowMajor, CblasUpper, CblasNoTrans, (int)M, (int)(b * n), 1.0, w->centred, (int)(b * n),
                        1.0, w->gram, (int)M);
        else   /* the norms |HK_mH|_F alone */
            for (size_t m = 0; m < M; m++)
                w->gram[m * M + m] += cblas_ddot((int)(b * n), w->centred + m * b * n, 1, w->centred + m * b * n, 1);
        if (!T)
            continue;
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)(M * b), (int)T, (int)n, 1.0, w->centred, (int)n,
                    w->u, (int)T, 0.0, w->projection, (int)T);
        for (size_t m = 0; m < M; m++)
            for (size_t c = 0; c < b; c++)
                w->target_dot[m] += cblas_ddot((int)T, w->projection + (m * b + c) * T, 1, w->u + (j0 + c) * T, 1);
    }
    return KM_OK;
}

/* |HK_mH|_F from its square, or 0 when it vanishes up to rounding relative to raw = |K_m|_F^2. */
static double centred_norm(double sq, double raw) { return sq > 1e-24 * raw && sq > 0 ? sqrt(sq) : 0.0; }

/* The alignments from the centred products: gram (M x M, upper triangle; read only for matrix), the
 * squared centred norms centred_sq[m * stride], the raw squared norms, <HK_mH, U U'> and |U'U|_F. */
static void normalize_alignments(size_t M, const double *gram, const double *centred_sq, size_t stride,
                                 const double *raw, const double *target_dot, double target_norm, double *matrix,
                                 double *target)
{
    for (size_t a = 0; matrix && a < M; a++) {
        for (size_t b = a; b < M; b++) {
            double na = centred_norm(centred_sq[a * stride], raw[a]), nb = centred_norm(centred_sq[b * stride], raw[b]);
            double value = na > 0 && nb > 0 ? gram[a * M + b] / (na * nb) : 0.0;
            matrix[a * M + b] = matrix[b * M + a] = value;
        }
    }
    for (size_t m = 0; target && m < M; m++) {
        double nm = centred_norm(centred_sq[m * stride], raw[m]);
        target[m] = nm > 0 && target_norm > 0 ? target_dot[m] / (nm * target_norm) : 0.0;
    }
}

/* The first kernel whose centred matrix vanishes, or the targets when H Y Y' H does (|U'U|_F = target_norm,
 * up to rounding relative to |Y|_F^2 = target_raw) and target alignments are asked for: KM_EINVAL naming
 * it; KM_OK when every alignment asked for is defined. */
static km_status check_defined(const alignment_work *w, double target_norm, double target_raw)
{
    for (size_t m = 0; m < w->M; m++)
        if (centred_norm(w->gram[m * w->M + m], w->raw[m]) == 0)
            return km_error(KM_EINVAL, "the centred alignment of kernel %zu is undefined: the kernel is constant "
                            "after centring", m + 1);
    if (w->T && !(target_norm > 1e-12 * target_raw))
        return km_error(KM_EINVAL, "the centred alignment with the targets is undefined: they are constant");
    return KM_OK;
}

static km_status alignments(const km_kernel_access *kernel, size_t n_targets, const double *targets, double *matrix,
                            double *target, int refuse_undefined)
{
    size_t T = target && targets ? n_targets : 0;
    if (kernel->n_rows == 0 || kernel->n_kernels == 0)
        return km_error(KM_EINVAL, "kernel alignment needs at least one row and one kernel");
    alignment_work w;
    km_status st = work_init(&w, kernel, T, targets, matrix != NULL);
    if (!st)
        st = column_means(&w);
    if (!st)
        st = centred_products(&w);
    if (st) {
        work_free(&w);
        return st;
    }
    /* |H Y Y' H|_F = |U'U|_F */
    double target_norm = 0;
    for (size_t s = 0; s < T; s++)
        for (size_t t = 0; t < T; t++) {
            double d = cblas_ddot((int)w.n, w.u + s, (int)T, w.u + t, (int)T);
            target_norm += d * d;
        }
    double target_raw = 0;
    for (size_t i = 0; refuse_undefined && i < w.n * T; i++)
        target_raw += targets[i] * targets[i];
    st = refuse_undefined ? check_defined(&w, sqrt(target_norm), target_raw) : KM_OK;
    if (!st)
        normalize_alignments(w.M, w.gram, w.gram, w.M + 1, w.raw, w.target_dot, sqrt(target_norm), matrix, target);
    work_free(&w);
    return st;
}

km_status km_alignments(const km_kernel_access *kernel, size_t n_targets, const double *targets, double *matrix,
                        double *target)
{
    return alignments(kernel, n_targets, targets, matrix, target, 0);
}

km_status km_alignments_defined(const km_kernel_access *kernel, size_t n_targets, const double *targets,
                                double *matrix, double *target)
{
    return alignments(kernel, n_targets, targets, matrix, target, 1);
}

void km_alignments_of_stats(const km_alignment_stats *stats, double *matrix, double *target)
{
    /* U = y~: <HK_mH, U U'> = y~'K_c y~ = a_m, |U'U|_F = |y~|^2; the norms from the Gram matrix's diagonal
     * when there is one, so that the matrix's own diagonal is 1 to rounding, as km_alignments' */
    size_t M = stats->M;
    const double *centred_sq = stats->gram ? stats->gram : stats->centred_sq;
    normalize_alignments(M, stats->gram, centred_sq, stats->gram ? M + 1 : 1, stats->frobenius_sq, stats->a,
                         stats->y_centred_sq, stats->gram ? matrix : NULL, target);
}

void km_mkl_block_norms(const km_mkl_problem *pr, const double *coef, const double *h, double *block_norm)
{
    const km_kernel_access *k = pr->machine->kernel;
    size_t M = k->n_kernels;
    km_mkl_kernel_terms(pr, coef, h, block_norm);
    double scale = pr->machine->ops->certificate_scale(pr->machine);
    for (size_t m = 0; m < M; m++)
        block_norm[m] = block_norm[m] > 0 ? k->theta[m] * sqrt(block_norm[m]) * scale : 0.0;
}

/* |x|_p of non-negative values, scaled by the largest to avoid overflow (p = inf: the largest). */
static double lp_norm(size_t M, double p, const double *x)
{
    double top = 0;
    for (size_t m = 0; m < M; m++)
        top = fmax(top, fabs(x[m]));
    if (top == 0 || isinf(p))
        return top;
    double s = 0;
    for (size_t m = 0; m < M; m++)
        s += pow(fabs(x[m]) / top, p);
    return top * pow(s, 1.0 / p);
}

static double dual_exponent(double p) { return p > 1 ? (isinf(p) ? 1.0 : p / (p - 1)) : INFINITY; }

double km_bound_global(size_t M, double p, const double *block_norm)
{
    double s = fmax(1.0, fmin(dual_exponent(p), 2.0 * log((double)M)));
    return lp_norm(M, p, block_norm) * sqrt(s) * pow((double)M, 1.0 / s);
}

double km_bound_local(size_t M, double p, double alpha, const double *block_norm)
{
    double s = fmax(2.0, fmin(dual_exponent(p), log((double)M)));
    double e = 2.0 / (1.0 + alpha);
    return pow(lp_norm(M, p, block_norm), e) * pow(s, e) * pow((double)M, 1.0 + e * (1.0 / s - 1.0));
}

typedef struct bound_curve {
    size_t M;
    const double *block_norm;
    double alpha;
} bound_curve;

static double factor_at(const bound_curve *c, double p)
{
    return c->alpha > 0 ? km_bound_local(c->M, p, c->alpha, c->block_norm) : km_bound_global(c->M, p, c->block_norm);
}

#define KM_BOUND_GRID 1000

/* Golden-section search for the minimum on [lo, hi]. */
static double golden_minimum(const bound_curve *c, double lo, double hi)
{
    const double r = 0.5 * (sqrt(5.0) - 1.0);
    double x1 = hi - r * (hi - lo), x2 = lo + r * (hi - lo);
    double f1 = factor_at(c, x1), f2 = factor_at(c, x2);
    for (int it = 0; it < 100 && hi - lo > 1e-13; it++) {
        if (f1 <= f2) {
            hi = x2;
            x2 = x1;
            f2 = f1;
            x1 = hi - r * (hi - lo);
            f1 = factor_at(c, x1);
        } else {
            lo = x1;
            x1 = x2;
            f1 = f2;
            x2 = lo + r * (hi - lo);
            f2 = factor_at(c, x2);
        }
    }
    return 0.5 * (lo + hi);
}

/* Boundary between a p inside the flat minimum (factor <= level) and one outside, by bisection. */
static double flat_edge(const bound_curve *c, double inside, double outside, double level)
{
    for (int it = 0; it < 60; it++) {
        double mid = 0.5 * (inside + outside);
        if (factor_at(c, mid) <= level)
            inside = mid;
        else
            outside = mid;
    }
    return inside;
}

void km_bound_choose(size_t M, const double *block_norm, double alpha, km_bound_choice *out)
{
    bound_curve c = {M, block_norm, alpha};
    double f[KM_BOUND_GRID + 1];
    size_t best = 0;
    for (size_t i = 0; i <= KM_BOUND_GRID; i++) {
        f[i] = factor_at(&c, 1.0 + (double)i / KM_BOUND_GRID);
        if (f[i] < f[best])
            best = i;
    }
    double lo = 1.0 + (double)(best ? best - 1 : 0) / KM_BOUND_GRID;
    double hi = 1.0 + (double)(best < KM_BOUND_GRID ? best + 1 : KM_BOUND_GRID) / KM_BOUND_GRID;
    double p = golden_minimum(&c, lo, hi), value = factor_at(&c, p);
    if (f[best] <= value) {
        p = 1.0 + (double)best / KM_BOUND_GRID;
        value = f[best];
    }
    /* a flat minimum (e.g. one active kernel: |w|_p does not depend on p) spans several grid points */
    double level = value * (1.0 + 1e-12);
    size_t first = best, last = best;
    while (first > 0 && f[first - 1] <= level)
        first--;
    while (last < KM_BOUND_GRID && f[last + 1] <= level)
        last++;
    out->flat_low = out->flat_high = p;
    if (first < last) {
        double p_first = 1.0 + (double)first / KM_BOUND_GRID, p_last = 1.0 + (double)last / KM_BOUND_GRID;
        out->flat_low = first == 0 ? 1.0 : flat_edge(&c, p_first, p_first - 1.0 / KM_BOUND_GRID, level);
        out->flat_high = last == KM_BOUND_GRID ? 2.0 : flat_edge(&c, p_last, p_last + 1.0 / KM_BOUND_GRID, level);
        p = out->flat_high; /* the least sparse of the equally good choices */
    }
    out->p_block = p;
    out->p = p < 2 ? p / (2.0 - p) : INFINITY;
    out->factor = value;
}
