/* C-SVC without bias on explicit features (svm/svm.h km_svc_solve_features): the dual
 *     min_a 1/2 sum_m theta_m ||u_m(a)||^2 - sum_i a_i,  0 <= a_i <= C_i,  u_m(a) = sum_i a_i y_i s_mi phi_mi,
 * the same problem as km_svc_solve_without_bias on the kernels K_m(i, j) = s_mi s_mj <phi_mi, phi_mj>
 * (kernel/feature_block.h), solved by dual coordinate descent with shrinking (Hsieh, Chang, Lin, Keerthi &
 * Sundararajan, "A dual coordinate descent method for large-scale linear SVM", ICML 2008, Algorithm 3;
 * LIBLINEAR's -s 3). The u_m are kept, so a coordinate step costs O(sum_m r_m), an epoch O(n sum_m r_m):
 * no kernel value between two rows is ever computed. The stopping rule is the SMO's without bias: the
 * largest projected gradient |PG_i| at most the tolerance, checked over every variable. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>

#include "core/clock.h"
#include "core/error.h"
#include "core/log.h"
#include "core/rng.h"
#include "svm/svm.h"

/* The order of the coordinates is shuffled every epoch from this seed: the same inputs, the same result. */
#define KM_DCD_SEED 0x6463645f73766375u
/* Coordinate steps between two polls of the interrupt. */
#define KM_DCD_POLL_STEPS 65536

typedef struct dcd {
    size_t n, M;
    const km_feature_block *blocks;
    const double *theta;
    double **u;              /* per kernel: r_m values (NULL where theta_m = 0) */
} dcd;

/* sum_m theta_m s_mi <phi_mi, u_m>: the combined decision value of row i. */
static double decision(const dcd *d, size_t i)
{
    double g = 0;
    for (size_t m = 0; m < d->M; m++)
        if (d->u[m]) {
            const km_feature_block *b = &d->blocks[m];
            g += d->theta[m] * km_feature_row_scale(b, i) * cblas_ddot((int)b->r, km_feature_row(b, i), 1, d->u[m], 1);
        }
    return g;
}

/* u_m += delta s_mi phi_mi for every weighted kernel. */
static void move(const dcd *d, size_t i, double delta)
{
    for (size_t m = 0; m < d->M; m++)
        if (d->u[m]) {
            const km_feature_block *b = &d->blocks[m];
            cblas_daxpy((int)b->r, delta * km_feature_row_scale(b, i), km_feature_row(b, i), 1, d->u[m], 1);
        }
}

/* Q_ii = sum_m theta_m s_mi^2 ||phi_mi||^2. */
static double diagonal(const dcd *d, size_t i)
{
    double q = 0;
    for (size_t m = 0; m < d->M; m++)
        if (d->u[m]) {
            const km_feature_block *b = &d->blocks[m];
            const double *x = km_feature_row(b, i);
            double s = km_feature_row_scale(b, i);
            q += d->theta[m] * s * s * cblas_ddot((int)b->r, x, 1, x, 1);
        }
    return q;
}

/* The projected gradient of a_i at gradient G: 0 where the bound it points out of is active. */
static double projected(double G, double a, double C)
{
    if (a <= 0)
        return G < 0 ? G : 0.0;
    if (a >= C)
        return G > 0 ? G : 0.0;
    return G;
}

km_status km_svc_solve_features(const km_kernel_access *kernel, const signed char *y, double C, double weight_pos,
                                double weight_neg, const km_smo_options *options, const double *alpha_start,
                                km_svm_solution *solution)
{
    size_t n = kernel->n_rows, M = kernel->n_kernels;
    km_feature_block *blocks = malloc(M * sizeof *blocks);
    if (!blocks)
        return km_error_nomem("the feature blocks");
    if (!km_kernel_access_features(kernel, blocks)) {
        free(blocks);
        return km_error(KM_EINVAL, "km_svc_solve_features: a kernel has no explicit features");
    }
    dcd d = {n, M, blocks, kernel->theta, calloc(M, sizeof(double *))};
    double *alpha = malloc(n * sizeof *alpha), *upper = malloc(n * sizeof *upper), *QD = malloc(n * sizeof *QD);
    size_t *index = malloc(n * sizeof *index);
    km_status st = d.u && alpha && upper && QD && index ? KM_OK : km_error_nomem("the coordinate descent");
    for (size_t m = 0; !st && m < M; m++)
        if (kernel->theta[m] > 0 && !(d.u[m] = calloc(blocks[m].r ? blocks[m].r : 1, sizeof **d.u)))
            st = km_error_nomem("the coordinate descent");
    size_t n_pos = 0;
    for (size_t i = 0; !st && i < n; i++) {
        if (y[i] != 1 && y[i] != -1)
            st = km_error(KM_EINVAL, "km_svc_solve_features: label %d of row %zu is not +1 or -1", y[i], i);
        n_pos += y[i] > 0;
        upper[i] = C * (y[i] > 0 ? weight_pos : weight_neg);
        alpha[i] = alpha_start ? fmin(fmax(alpha_start[i], 0.0), upper[i]) : 0.0;
        QD[i] = diagonal(&d, i);
        if (alpha[i] != 0)
            move(&d, i, alpha[i] * y[i]);
    }
    if (!st && (n_pos == 0 || n_pos == n))
        st = km_error(KM_EINVAL, "km_svc_solve_features: both classes are needed (%zu of %zu rows positive)", n_pos, n);

    long max_steps = options->max_iter > 0 ? options->max_iter : (long)fmin(1e3 * (double)n + 1e7, 2e18);
    long steps = 0;
    int converged = 0;
    km_rng rng;
    km_rng_seed(&rng, KM_DCD_SEED);
    size_t active = n;
    for (size_t i = 0; i < n; i++)
        index[i] = i;
    /* shrinking bounds (LIBLINEAR): a variable at a bound whose gradient points out of the box further
     * than the last epoch's extreme projected gradients leaves the active set */
    double PGmax_old = INFINITY, PGmin_old = -INFINITY;
    long epochs = 0;
    while (!st && steps < max_steps) {
        if (options->deadline > 0 && km_monotonic_seconds() >= options->deadline)
            break;   /* the caller reports its time limit; the point is feasible */
        epochs++;
        km_rng_shuffle(&rng, index, active);
        double PGmax = -INFINITY, PGmin = INFINITY;
        for (size_t t = 0; t < active && !st; t++) {
            size_t i = index[t];
            double G = y[i] * decision(&d, i) - 1.0;
            if ((alpha[i] <= 0 && G > PGmax_old) || (alpha[i] >= upper[i] && G < PGmin_old)) {
                index[t--] = index[--active];   /* shrunk: the next variable takes its place */
                index[active] = i;
                continue;
            }
            double PG = projected(G, alpha[i], upper[i]);
            PGmax = fmax(PGmax, PG);
            PGmin = fmin(PGmin, PG);
            if (PG != 0) {
                double next = QD[i] > 0 ? fmin(fmax(alpha[i] - G / QD[i], 0.0), upper[i]) : (G < 0 ? upper[i] : 0.0);
                move(&d, i, (next - alpha[i]) * y[i]);
                alpha[i] = next;
            }
            if (++steps % KM_DCD_POLL_STEPS == 0 && options->interrupted && options->interrupted(options->interrupt_ctx))
                st = km_error(KM_EINTERRUPTED, "interrupted after %ld coordinate steps", steps);
        }
        if (st)
            break;
        if (fmax(PGmax, -PGmin) <= options->tolerance) {
            if (active == n) {
                converged = 1;
                break;
            }
            active = n;   /* optimal on the active set: check every variable before stopping */
            PGmax_old = INFINITY;
            PGmin_old = -INFINITY;
            continue;
        }
        PGmax_old = PGmax > 0 ? PGmax : INFINITY;
        PGmin_old = PGmin < 0 ? PGmin : -INFINITY;
    }
    if (!st && !converged && steps >= max_steps)
        km_log(&options->logger, KM_LOG_WARNING, "coordinate descent: reached the maximal number of steps (%ld)",
               max_steps);
    if (!st) {
        double quad = 0, sum = 0;
        for (size_t m = 0; m < M; m++)
            if (d.u[m])
                quad += kernel->theta[m] * cblas_ddot((int)blocks[m].r, d.u[m], 1, d.u[m], 1);
        for (size_t i = 0; i < n; i++) {
            solution->coef[i] = y[i] * alpha[i];
            sum += alpha[i];
        }
        solution->bias = 0.0;
        solution->objective = 0.5 * quad - sum;
        solution->iterations = steps;
        solution->converged = converged;
        km_log(&options->logger, KM_LOG_DEBUG, "coordinate descent on explicit features: %ld steps in %ld epochs, "
               "objective %.17g", steps, epochs, solution->objective);
    }
    for (size_t m = 0; d.u && m < M; m++)
        free(d.u[m]);
    free(d.u);
    free(alpha);
    free(upper);
    free(QD);
    free(index);
    free(blocks);
    return st;
}
