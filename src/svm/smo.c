/* The SMO solver (smo.h): LIBSVM 3.24's Solver (Fan, Chen & Lin, JMLR 6 (2005) 1889-1918: second-order
 * working-set selection, shrinking with one gradient reconstruction near the end, rho as the mean of
 * the free y_t G_t), with per-variable upper bounds, Q = sum_m theta_m Q_m, and the MKL hook of
 * Kloft's thesis "lp-Norm Multiple Kernel Learning", Alg. 3.2.
 *
 * Hook bookkeeping. With c_r = sum over the variables s of row r of y_s a_s, the solver keeps
 * h_m = K_m c over the training rows (M x n). Then the per-kernel gradients are
 * (Q_m a)_t = y_t h_m[row_t], quad_m = 1/2 a'Q_m a = 1/2 c'h_m, and the gradient of the combination is
 * G_t = y_t sum_m theta_m h_m[row_t] + p_t. The h_m cover every variable, shrunk ones included, so after
 * a change of theta (and whenever shrunk gradients are needed) G is rebuilt from them in O(Mn + l)
 * without kernel evaluations; LIBSVM's G_bar is not needed in this mode. */
#include "svm/smo.h"

#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/error.h"
#include "svm/smo_qmatrix.h"

#define KM_SMO_TAU 1e-12   /* LIBSVM's TAU: curvature used for pairs with a_ii + a_jj - 2 a_ij <= 0 */

enum { AT_LOWER = 0, AT_UPPER = 1, IS_FREE = 2 };

typedef struct smo {
    const km_qp *qp;
    km_qmatrix qm;          /* owns y, row and QD in permuted order */
    size_t l, active;
    double eps;
    int unshrink;           /* the one reconstruction before the final iterations was done */
    int G_bar_pending;      /* start products were given: G_bar is computed when a reconstruction
                               first needs it (a short warm-started solve may never shrink) */
    /* permuted order */
    double *alpha, *G, *G_bar, *p, *C;
    char *status;
    size_t *active_set;     /* original index of each position */
    /* hook */
    size_t M, n;
    double *h;              /* h_m = K_m c, m-th block of n values */
    double *quad;           /* 1/2 c'h_m */
    double lin;             /* -p'a */
    double *combined;       /* sum_m theta_m h_m, n values */
    double *alpha_out;      /* a in the caller's order, for the hook */
    const km_smo_options *options;
    unsigned long polled_at; /* qm.computed at the last poll */
} smo;

/* The solver polls the interrupt (and the deadline) every 100 steps and whenever this many kernel
 * columns were computed since its last poll (one where values are costly: a column of string kernels
 * over thousands of rows can take a tenth of a second), in the iterations and in the passes over
 * columns outside them (the initial gradient of a warm start, its reconstruction after shrinking). */
#define KM_SMO_POLL_COLUMNS 4

/* Whether enough columns were computed since the last poll (which this one then is). */
static int columns_due(smo *s)
{
    if (s->qm.computed - s->polled_at < (s->qp->costly_values ? 1u : KM_SMO_POLL_COLUMNS))
        return 0;
    s->polled_at = s->qm.computed;
    return 1;
}

/* In the passes over columns: KM_EINTERRUPTED when the caller asked to stop. */
static km_status poll_column_pass(smo *s)
{
    const km_smo_options *o = s->options;
    if (o->interrupted && columns_due(s) && o->interrupted(o->interrupt_ctx))
        return km_error(KM_EINTERRUPTED, "interrupted while computing the solver's gradient");
    return KM_OK;
}

km_smo_options km_smo_options_default(void)
{
    km_smo_options options;
    memset(&options, 0, sizeof options);
    options.tolerance = 1e-3;
    options.shrinking = 1;
    options.cache_bytes = (size_t)100 << 20;
    options.max_iter = 0;
    options.hook_every = 1;
    return options;
}

static void update_status(smo *s, size_t t)
{
    if (s->alpha[t] >= s->C[t])
        s->status[t] = AT_UPPER;
    else if (s->alpha[t] <= 0)
        s->status[t] = AT_LOWER;
    else
        s->status[t] = IS_FREE;
}

#define SWAP(type, a, b) do { type swap_tmp_ = (a); (a) = (b); (b) = swap_tmp_; } while (0)

static void swap_positions(smo *s, size_t i, size_t j)
{
    km_qmatrix_swap(&s->qm, i, j);
    SWAP(double, s->G[i], s->G[j]);
    SWAP(char, s->status[i], s->status[j]);
    SWAP(double, s->alpha[i], s->alpha[j]);
    SWAP(double, s->p[i], s->p[j]);
    SWAP(double, s->C[i], s->C[j]);
    SWAP(size_t, s->active_set[i], s->active_set[j]);
    if (s->G_bar)
        SWAP(double, s->G_bar[i], s->G_bar[j]);
}

/* ---- hook bookkeeping ------------------------------------------------------------------------ */

/* The per-kernel products h_m (M x n values) are updated by several threads from this size on (below,
 * starting threads costs more than the pass). */
#define KM_HOOK_PARALLEL_MIN_VALUES ((size_t)1 << 18)

/* G_t = y_t sum_m theta_m h_m[row_t] + p_t for positions [from, l), from products h (M x n values) by
 * way of combined (n values). */
static void gradient_from_products(smo *s, const double *h, double *combined, size_t from)
{
    const double *theta = s->qp->theta;
    size_t n = s->qp->n_rows;
    memset(combined, 0, n * sizeof *combined);
    for (size_t m = 0; m < s->qp->n_kernels; m++)
        if (theta[m] != 0.0)
            cblas_daxpy((int)n, theta[m], h + m * n, 1, combined, 1);
    const signed char *y = s->qm.y;
    const size_t *row = s->qm.row;
    for (size_t t = from; t < s->l; t++)
        s->G[t] = y[t] * combined[row[t]] + s->p[t];
}

/* The hook's gradient from its own products h for positions [from, l). */
static void rebuild_gradient_from_kernels(smo *s, size_t from) { gradient_from_products(s, s->h, s->combined, from); }

/* quad_m and lin recomputed from h and a (removes the drift of the incremental updates). */
static void refresh_quad(smo *s)
{
    const signed char *y = s->qm.y;
    const size_t *row = s->qm.row;
    for (size_t m = 0; m < s->M; m++) {
        const double *hm = s->h + m * s->n;
        double q = 0;
        for (size_t t = 0; t < s->l; t++)
            if (s->alpha[t] != 0.0)
                q += y[t] * s->alpha[t] * hm[row[t]];
        s->quad[m] = 0.5 * q;
    }
    double lin = 0;
    for (size_t t = 0; t < s->l; t++)
        lin -= s->p[t] * s->alpha[t];
    s->lin = lin;
}

static km_status hook_init(smo *s)
{
    size_t n = s->n;
    memset(s->h, 0, s->M * n * sizeof *s->h);
    for (size_t t = 0; t < s->l; t++) {
        if (s->alpha[t] == 0.0)
            continue;
        km_row_kernels K;
        km_status st = poll_column_pass(s);
        if (!st)
            st = km_qmatrix_kernel_columns(&s->qm, s->qm.row[t], &K);
        if (st)
            return st;
        double c = s->qm.y[t] * s->alpha[t];
        for (size_t m = 0; m < s->M; m++)
            km_row_kernel_axpy(&K, m, c, s->h + m * n, 0, n);
    }
    rebuild_gradient_from_kernels(s, 0);
    refresh_quad(s);
    return KM_OK;
}

/* h[k] += a K_m(k, row_i) + b K_m(k, row_j), k < n: both rows' columns of kernel m in one pass. */
static void add_kernel_columns(double *h, double a, const km_row_kernels *Ki, double b, const km_row_kernels *Kj,
                               size_t m, size_t n)
{
    if (Ki->single) {
        const float *x = Ki->values[m], *z = Kj->values[m];
        for (size_t k = 0; k < n; k++)
            h[k] += a * (double)x[k] + b * (double)z[k];
    } else {
        const double *x = Ki->values[m], *z = Kj->values[m];
        for (size_t k = 0; k < n; k++)
            h[k] += a * x[k] + b * z[k];
    }
}

/* After a step that changed a_i by da_i and a_j by da_j: quad_m += dc'h_m(old) + 1/2 dc'K_m dc on the
 * pair, lin -= p_i da_i + p_j da_j, h_m += dc_i K_m(., row_i) + dc_j K_m(., row_j). */
static km_status hook_after_step(smo *s, size_t i, size_t j, double da_i, double da_j)
{
    size_t n = s->n, ri = s->qm.row[i], rj = s->qm.row[j];
    km_row_kernels Ki, Kj;
    km_status st = km_qmatrix_kernel_columns(&s->qm, ri, &Ki);
    if (st || (st = km_qmatrix_kernel_columns(&s->qm, rj, &Kj)))
        return st;
    double dc_i = s->qm.y[i] * da_i, dc_j = s->qm.y[j] * da_j;
    /* kernels are independent (each updated by one thread: the same values for any thread count); the
     * two column updates of h_m are fused into one pass over it */
#ifdef _OPENMP
#pragma omp parallel for schedule(static) if (s->M * n >= KM_HOOK_PARALLEL_MIN_VALUES)
#endif
    for (size_t m = 0; m < s->M; m++) {
        double *hm = s->h + m * n;
        km_row_kernels_prefetch(&Ki, s->M, m + KM_ROW_KERNELS_PREFETCH, 0);
        km_row_kernels_prefetch(&Kj, s->M, m + KM_ROW_KERNELS_PREFETCH, 0);
        s->quad[m] += dc_i * hm[ri] + dc_j * hm[rj]
                    + 0.5 * (dc_i * dc_i * km_row_kernel_value(&Ki, m, ri) + dc_j * dc_j * km_row_kernel_value(&Kj, m, rj))
                    + dc_i * dc_j * km_row_kernel_value(&Ki, m, rj);
        add_kernel_columns(hm, dc_i, &Ki, dc_j, &Kj, m, n);
    }
    s->lin -= s->p[i] * da_i + s->p[j] * da_j;
    return KM_OK;
}

/* Takes up a changed theta: new diagonal, full gradient from h, every variable active again. */
static km_status hook_theta_changed(smo *s)
{
    const double *theta = s->qp->theta;
    for (size_t m = 0; m < s->M; m++)
        if (!(theta[m] >= 0.0) || isinf(theta[m]))
            return km_error(KM_EINVAL, "SMO hook: theta[%zu] = %g is not a finite non-negative weight", m, theta[m]);
    km_qmatrix_update_diagonal(&s->qm);
    rebuild_gradient_from_kernels(s, 0);
    s->active = s->l;
    s->unshrink = 0;
    return KM_OK;
}

static double calculate_rho(const smo *s, double *r);

static km_hook_action call_hook(smo *s, const km_smo_options *options, long iter, double violation, int optimal)
{
    if (optimal)
        refresh_quad(s);
    for (size_t t = 0; t < s->l; t++)
        s->alpha_out[s->active_set[t]] = s->alpha[t];
    double r;
    km_smo_step step = {iter, s->lin, s->quad, violation, optimal, s->alpha_out, s->h,
                        optimal ? calculate_rho(s, &r) : NAN, &s->eps};
    return options->hook(options->hook_ctx, &step, s->qp->theta);
}

/* ---- LIBSVM's Solver ------------------------------------------------------------------------- */

/* One pass over the columns of the non-zero a_t: G_bar = sum over the a_t at their upper bound of C_t Q_t,
 * and with gradient also G += sum of a_t Q_t (LIBSVM's initial gradient when G starts at p). */
static km_status column_pass(smo *s, int gradient)
{
    size_t l = s->l;
    memset(s->G_bar, 0, l * sizeof *s->G_bar);
    for (size_t t = 0; t < l; t++) {
        if (s->status[t] == AT_LOWER || (!gradient && s->status[t] != AT_UPPER))
            continue;
        km_status st = poll_column_pass(s);
        if (st)
            return st;
        const double *Q_t = km_qmatrix_column(&s->qm, t, l);
        if (!Q_t)
            return s->qm.failure;
        if (gradient)
            cblas_daxpy((int)l, s->alpha[t], Q_t, 1, s->G, 1);
        if (s->status[t] == AT_UPPER)
            cblas_daxpy((int)l, s->C[t], Q_t, 1, s->G_bar, 1);
    }
    s->G_bar_pending = 0;
    return KM_OK;
}

/* Gradient of the inactive positions [active, l): from G_bar and the free variables, or in hook
 * mode from h. */
static km_status reconstruct_gradient(smo *s)
{
    size_t l = s->l, active = s->active;
    if (active == l)
        return KM_OK;
    if (s->h) {
        rebuild_gradient_from_kernels(s, active);
        return KM_OK;
    }
    if (s->G_bar_pending) {   /* from the statuses of now */
        km_status st = column_pass(s, 0);
        if (st)
            return st;
    }
    for (size_t t = active; t < l; t++)
        s->G[t] = s->G_bar[t] + s->p[t];
    size_t nr_free = 0;
    for (size_t t = 0; t < active; t++)
        if (s->status[t] == IS_FREE)
            nr_free++;
    if (nr_free * l > 2 * active * (l - active)) {
        for (size_t i = active; i < l; i++) {
            km_status st = poll_column_pass(s);
            if (st)
                return st;
            const double *Q_i = km_qmatrix_column(&s->qm, i, active);
            if (!Q_i)
                return s->qm.failure;
            double g = 0;
            for (size_t t = 0; t < active; t++)
                if (s->status[t] == IS_FREE)
                    g += s->alpha[t] * Q_i[t];
            s->G[i] += g;
        }
    } else {
        for (size_t i = 0; i < active; i++) {
            if (s->status[i] != IS_FREE)
                continue;
            km_status st = poll_column_pass(s);
            if (st)
                return st;
            const double *Q_i = km_qmatrix_column(&s->qm, i, l);
            if (!Q_i)
                return s->qm.failure;
            double a = s->alpha[i];
            for (size_t t = active; t < l; t++)
                s->G[t] += a * Q_i[t];
        }
    }
    return KM_OK;
}

/* Without the equality constraint (no_equality) one variable moves at a time. Its violation is the
 * projected gradient: -G_t below the upper bound, G_t above zero. Of the violators the one whose
 * unclipped step -G_t / Q_tt decreases the objective most (G_t^2 / (2 Q_tt)) is chosen; i = j marks
 * the one-variable step. Returns as select_working_set. */
static int select_variable(smo *s, size_t *out_i, size_t *out_j, const double **out_Q_i, double *violation)
{
    size_t best = (size_t)-1;
    double largest = 0, best_decrease = 0;
    for (size_t t = 0; t < s->active; t++) {
        double G = s->G[t];
        double v = G < 0 && s->status[t] != AT_UPPER ? -G : G > 0 && s->status[t] != AT_LOWER ? G : 0.0;
        if (v == 0)
            continue;
        largest = fmax(largest, v);
        double decrease = v * v / (s->qm.QD[t] > 0 ? s->qm.QD[t] : KM_SMO_TAU);
        if (decrease > best_decrease) {
            best_decrease = decrease;
            best = t;
        }
    }
    *violation = largest;
    if (largest < s->eps || best == (size_t)-1)
        return 1;
    *out_i = *out_j = best;
    *out_Q_i = km_qmatrix_column(&s->qm, best, s->active);
    return *out_Q_i ? 0 : -1;
}

/* WSS2: i maximises -y_i G_i over I_up; j minimises the second-order decrease over I_low. With
 * nu_constraints (LIBSVM's Solver_NU) i and j share the sign of y: the best i of each sign is the
 * partner of the j of that sign. Returns 1 when optimal (m(a) - M(a) < eps), 0 with a pair (and the Q
 * column of i, valid through the step's next column request), -1 when a kernel column failed. */
static int select_working_set(smo *s, size_t *out_i, size_t *out_j, const double **out_Q_i, double *violation)
{
    if (s->qp->no_equality)
        return select_variable(s, out_i, out_j, out_Q_i, violation);
    const signed char *y = s->qm.y;
    const double *G = s->G, *QD = s->qm.QD;
    const char *status = s->status;
    size_t active = s->active, none = (size_t)-1;
    /* by sign of y (0: +1, 1: -1): the best i, its -y_i G_i, and the largest y_j G_j over I_low */
    double Gmax[2] = {-INFINITY, -INFINITY}, Gmax2[2] = {-INFINITY, -INFINITY}, obj_diff_min = INFINITY;
    size_t Gmax_idx[2] = {none, none}, Gmin_idx = none;

    for (size_t t = 0; t < active; t++) {
        if (y[t] == +1) {
            if (status[t] != AT_UPPER && -G[t] >= Gmax[0]) {
                Gmax[0] = -G[t];
                Gmax_idx[0] = t;
            }
        } else if (status[t] != AT_LOWER && G[t] >= Gmax[1]) {
            Gmax[1] = G[t];
            Gmax_idx[1] = t;
        }
    }
    if (!s->qp->nu_constraints) {
        /* one i for both signs: the larger, the later position on a tie (LIBSVM's scan order) */
        int k = Gmax[0] > Gmax[1] ? 0 : Gmax[1] > Gmax[0] ? 1 : Gmax_idx[0] + 1 > Gmax_idx[1] + 1 ? 0 : 1;
        Gmax[1 - k] = Gmax[k];
        Gmax_idx[1 - k] = Gmax_idx[k];
    }
    const double *Q[2] = {NULL, NULL};
    for (int k = 0; k < 2; k++) {
        if (Gmax_idx[k] == none)
            continue;
        Q[k] = k == 1 && Gmax_idx[1] == Gmax_idx[0] ? Q[0] : km_qmatrix_column(&s->qm, Gmax_idx[k], active);
        if (!Q[k])
            return -1;
    }
    for (size_t j = 0; j < active; j++) {
        int k = y[j] == +1 ? 0 : 1;
        if (status[j] == (k == 0 ? AT_LOWER : AT_UPPER))
            continue;
        double yG = y[j] * G[j], grad_diff = Gmax[k] + yG;
        if (yG >= Gmax2[k])
            Gmax2[k] = yG;
        if (grad_diff > 0) {
            size_t i = Gmax_idx[k];
            double quad_coef = QD[i] + QD[j] - 2.0 * (y[i] * y[j]) * Q[k][j];
            double obj_diff = -(grad_diff * grad_diff) / (quad_coef > 0 ? quad_coef : KM_SMO_TAU);
            if (obj_diff <= obj_diff_min) {
                Gmin_idx = j;
                obj_diff_min = obj_diff;
            }
        }
    }
    double gap[2] = {Gmax[0] + Gmax2[0], Gmax[1] + Gmax2[1]};
    *violation = gap[0] > gap[1] ? gap[0] : gap[1];
    if (*violation < s->eps || Gmin_idx == none)
        return 1;
    int k = y[Gmin_idx] == +1 ? 0 : 1;
    *out_i = Gmax_idx[k];
    *out_j = Gmin_idx;
    /* the first of two fetched columns would not outlive the step's request for the column of j */
    *out_Q_i = k == 0 && Q[1] && Q[1] != Q[0] ? km_qmatrix_column(&s->qm, Gmax_idx[0], active) : Q[k];
    return *out_Q_i ? 0 : -1;
}

/* Shrinking bounds: a variable at a bound leaves the active set when its gradient shows that it stays
 * there; the standard solver compares across both signs of y, Solver_NU within one. */
typedef struct shrink_bounds {
    double at_upper[2], at_lower[2];  /* by sign of y: shrink at upper when -G exceeds, at lower when G */
    double gap;                       /* the maximal violation these bounds imply */
} shrink_bounds;

static shrink_bounds shrinking_bounds(const smo *s)
{
    /* by_sign[k] for y = +1 (k = 0) and y = -1: the largest -G below the upper bound, G above zero */
    double by_sign[2][2] = {{-INFINITY, -INFINITY}, {-INFINITY, -INFINITY}};
    for (size_t t = 0; t < s->active; t++) {
        int k = s->qm.y[t] == +1 ? 0 : 1;
        double G = s->G[t];
        if (s->status[t] != AT_UPPER && -G >= by_sign[k][0])
            by_sign[k][0] = -G;
        if (s->status[t] != AT_LOWER && G >= by_sign[k][1])
            by_sign[k][1] = G;
    }
    shrink_bounds b;
    if (s->qp->nu_constraints) {
        for (int k = 0; k < 2; k++) {
            b.at_upper[k] = by_sign[k][0];
            b.at_lower[k] = by_sign[k][1];
        }
        double gap_pos = by_sign[0][0] + by_sign[0][1], gap_neg = by_sign[1][0] + by_sign[1][1];
        b.gap = gap_pos > gap_neg ? gap_pos : gap_neg;
    } else {
        /* Gmax1 = max { -y_t G_t | t in I_up }, Gmax2 = max { y_t G_t | t in I_low } */
        double Gmax1 = fmax(by_sign[0][0], by_sign[1][1]), Gmax2 = fmax(by_sign[0][1], by_sign[1][0]);
        b.at_upper[0] = b.at_lower[1] = Gmax1;
        b.at_upper[1] = b.at_lower[0] = Gmax2;
        b.gap = Gmax1 + Gmax2;
    }
    return b;
}

static int be_shrunk(const smo *s, size_t t, const shrink_bounds *b)
{
    int k = s->qm.y[t] == +1 ? 0 : 1;
    if (s->status[t] == AT_UPPER)
        return -s->G[t] > b->at_upper[k];
    if (s->status[t] == AT_LOWER)
        return s->G[t] > b->at_lower[k];
    return 0;
}

static km_status do_shrinking(smo *s)
{
    shrink_bounds b = shrinking_bounds(s);
    if (!s->unshrink && b.gap <= s->eps * 10) {
        s->unshrink = 1;
        km_status st = reconstruct_gradient(s);
        if (st)
            return st;
        s->active = s->l;
    }
    for (size_t t = 0; t < s->active; t++) {
        if (!be_shrunk(s, t, &b))
            continue;
        s->active--;
        while (s->active > t) {
            if (!be_shrunk(s, s->active, &b)) {
                swap_positions(s, t, s->active);
                break;
            }
            s->active--;
        }
    }
    return KM_OK;
}

/* Solver_NU's rho and r: from the free variables of each sign of y their mean gradient (or the middle
 * of the bounds the others give), r1 for y = +1 and r2 for y = -1; rho = (r1 - r2)/2, r = (r1 + r2)/2. */
static double calculate_rho_nu(const smo *s, double *r)
{
    size_t nr_free[2] = {0, 0};
    double ub[2] = {INFINITY, INFINITY}, lb[2] = {-INFINITY, -INFINITY}, sum_free[2] = {0, 0}, mean[2];
    for (size_t t = 0; t < s->active; t++) {
        int k = s->qm.y[t] == +1 ? 0 : 1;
        double G = s->G[t];
        if (s->status[t] == AT_UPPER)
            lb[k] = fmax(lb[k], G);
        else if (s->status[t] == AT_LOWER)
            ub[k] = fmin(ub[k], G);
        else {
            nr_free[k]++;
            sum_free[k] += G;
        }
    }
    for (int k = 0; k < 2; k++)
        mean[k] = nr_free[k] > 0 ? sum_free[k] / (double)nr_free[k] : (ub[k] + lb[k]) / 2;
    *r = (mean[0] + mean[1]) / 2;
    return (mean[0] - mean[1]) / 2;
}

static double calculate_rho(const smo *s, double *r)
{
    *r = 0;
    if (s->qp->no_equality)
        return 0.0; /* no bias */
    if (s->qp->nu_constraints)
        return calculate_rho_nu(s, r);
    size_t nr_free = 0;
    double ub = INFINITY, lb = -INFINITY, sum_free = 0;
    for (size_t t = 0; t < s->active; t++) {
        double yG = s->qm.y[t] * s->G[t];
        if (s->status[t] == AT_UPPER) {
            if (s->qm.y[t] == -1)
                ub = fmin(ub, yG);
            else
                lb = fmax(lb, yG);
        } else if (s->status[t] == AT_LOWER) {
            if (s->qm.y[t] == +1)
                ub = fmin(ub, yG);
            else
                lb = fmax(lb, yG);
        } else {
            nr_free++;
            sum_free += yG;
        }
    }
    return nr_free > 0 ? sum_free / (double)nr_free : (ub + lb) / 2;
}

/* Moves a_i, a_j along the feasible direction (two-variable subproblem, LIBSVM's bound handling). */
static void solve_pair(smo *s, size_t i, size_t j, const double *Q_i)
{
    double *alpha = s->alpha;
    double C_i = s->C[i], C_j = s->C[j];
    if (s->qm.y[i] != s->qm.y[j]) {
        double quad_coef = s->qm.QD[i] + s->qm.QD[j] + 2 * Q_i[j];
        if (quad_coef <= 0)
            quad_coef = KM_SMO_TAU;
        double delta = (-s->G[i] - s->G[j]) / quad_coef;
        double diff = alpha[i] - alpha[j];
        alpha[i] += delta;
        alpha[j] += delta;
        if (diff > 0) {
            if (alpha[j] < 0) {
                alpha[j] = 0;
                alpha[i] = diff;
            }
        } else if (alpha[i] < 0) {
            alpha[i] = 0;
            alpha[j] = -diff;
        }
        if (diff > C_i - C_j) {
            if (alpha[i] > C_i) {
                alpha[i] = C_i;
                alpha[j] = C_i - diff;
            }
        } else if (alpha[j] > C_j) {
            alpha[j] = C_j;
            alpha[i] = C_j + diff;
        }
    } else {
        double quad_coef = s->qm.QD[i] + s->qm.QD[j] - 2 * Q_i[j];
        if (quad_coef <= 0)
            quad_coef = KM_SMO_TAU;
        double delta = (s->G[i] - s->G[j]) / quad_coef;
        double sum = alpha[i] + alpha[j];
        alpha[i] -= delta;
        alpha[j] += delta;
        if (sum > C_i) {
            if (alpha[i] > C_i) {
                alpha[i] = C_i;
                alpha[j] = sum - C_i;
            }
        } else if (alpha[j] < 0) {
            alpha[j] = 0;
            alpha[i] = sum;
        }
        if (sum > C_j) {
            if (alpha[j] > C_j) {
                alpha[j] = C_j;
                alpha[i] = sum - C_j;
            }
        } else if (alpha[i] < 0) {
            alpha[i] = 0;
            alpha[j] = sum;
        }
    }
}

/* The one-variable step without the equality constraint: a_i - G_i / Q_ii clipped to [0, C_i]. */
static void solve_single(smo *s, size_t i)
{
    double quad_coef = s->qm.QD[i] > 0 ? s->qm.QD[i] : KM_SMO_TAU;
    s->alpha[i] = fmin(s->C[i], fmax(0.0, s->alpha[i] - s->G[i] / quad_coef));
}

/* G_bar += sign C_t Q_t when a_t enters (+1) or leaves (-1) its upper bound (nothing while G_bar is
 * pending: it is then computed from the statuses of that time). */
static km_status update_G_bar(smo *s, size_t t, double sign)
{
    if (s->G_bar_pending)
        return KM_OK;
    const double *Q_t = km_qmatrix_column(&s->qm, t, s->l);
    if (!Q_t)
        return s->qm.failure;
    cblas_daxpy((int)s->l, sign * s->C[t], Q_t, 1, s->G_bar, 1);
    return KM_OK;
}

/* One working-set step on the pair (i, j), or on variable i alone when j = i (no_equality); Q_i is the
 * column of i over the active positions. */
static km_status take_step(smo *s, size_t i, size_t j, const double *Q_i)
{
    size_t active = s->active;
    const double *Q_j = j == i ? Q_i : km_qmatrix_column(&s->qm, j, active);
    if (!Q_j)
        return s->qm.failure;
    double old_i = s->alpha[i], old_j = s->alpha[j];
    if (j == i)
        solve_single(s, i);
    else
        solve_pair(s, i, j, Q_i);
    double da_i = s->alpha[i] - old_i, da_j = j == i ? 0.0 : s->alpha[j] - old_j;

    double *G = s->G;
    for (size_t k = 0; k < active; k++)
        G[k] += Q_i[k] * da_i + Q_j[k] * da_j;

    int was_upper_i = s->status[i] == AT_UPPER, was_upper_j = s->status[j] == AT_UPPER;
    update_status(s, i);
    update_status(s, j);
    if (s->h)
        return hook_after_step(s, i, j, da_i, da_j);
    km_status st = KM_OK;
    if (was_upper_i != (s->status[i] == AT_UPPER))
        st = update_G_bar(s, i, was_upper_i ? -1.0 : 1.0);
    if (!st && j != i && was_upper_j != (s->status[j] == AT_UPPER))
        st = update_G_bar(s, j, was_upper_j ? -1.0 : 1.0);
    return st;
}

/* LIBSVM's initial gradient: G = p + sum over non-zero a_t of a_t Q_t, G_bar = sum over a_t at C_t; with
 * start products given, G comes from them and G_bar waits until a reconstruction needs it. */
static km_status initial_gradient(smo *s)
{
    if (s->qp->start_products) {
        double *combined = malloc(s->qp->n_rows * sizeof *combined);
        if (!combined)
            return km_error_nomem("the SMO's start gradient");
        gradient_from_products(s, s->qp->start_products, combined, 0);
        free(combined);
        for (size_t t = 0; t < s->l; t++)
            if (!isfinite(s->G[t]))
                return km_error(KM_EINVAL, "SMO: the start products give variable %zu a gradient that is not finite", t);
        s->G_bar_pending = 1;
        return KM_OK;
    }
    memcpy(s->G, s->p, s->l * sizeof *s->G);
    return column_pass(s, 1);
}

static km_status validate(const km_qp *qp, const km_smo_options *options, const double *alpha)
{
    if (!qp->y || !qp->p || !qp->upper || !qp->theta || !qp->column || !qp->diag)
        return km_error(KM_EINVAL, "SMO: incomplete problem (y, p, upper, theta, column and diag are required)");
    if (qp->n_vars == 0 || qp->n_rows == 0 || qp->n_kernels == 0)
        return km_error(KM_EINVAL, "SMO: empty problem (%zu variables, %zu rows, %zu kernels)", qp->n_vars,
                        qp->n_rows, qp->n_kernels);
    if (qp->n_vars > (size_t)2147483647 || qp->n_rows > (size_t)2147483647)
        return km_error(KM_EINVAL, "SMO: %zu variables exceed the supported size", qp->n_vars);
    if (qp->no_equality && qp->nu_constraints)
        return km_error(KM_EINVAL, "SMO: nu constraints are equality constraints (no_equality excludes them)");
    if (!qp->row_of && qp->n_vars != qp->n_rows)
        return km_error(KM_EINVAL, "SMO: %zu variables on %zu rows need a row_of map", qp->n_vars, qp->n_rows);
    if (!(options->tolerance > 0))
        return km_error(KM_EINVAL, "SMO: tolerance %g must be positive", options->tolerance);
    for (size_t m = 0; m < qp->n_kernels; m++) {
        if (!(qp->theta[m] >= 0.0) || isinf(qp->theta[m]))
            return km_error(KM_EINVAL, "SMO: kernel weight theta[%zu] = %g must be finite and >= 0", m,
                            qp->theta[m]);
        if (!qp->diag[m])
            return km_error(KM_EINVAL, "SMO: missing diagonal of kernel %zu", m);
    }
    for (size_t t = 0; t < qp->n_vars; t++) {
        if (qp->y[t] != 1 && qp->y[t] != -1)
            return km_error(KM_EINVAL, "SMO: y[%zu] = %d is not +1 or -1", t, qp->y[t]);
        if (!(qp->upper[t] > 0) || isinf(qp->upper[t]))
            return km_error(KM_EINVAL, "SMO: upper bound %g of variable %zu must be finite and positive",
                            qp->upper[t], t);
        if (!isfinite(qp->p[t]))
            return km_error(KM_EINVAL, "SMO: linear term of variable %zu is not finite", t);
        if (!(alpha[t] >= 0 && alpha[t] <= qp->upper[t]))
            return km_error(KM_EINVAL, "SMO: start alpha[%zu] = %g is outside [0, %g]", t, alpha[t], qp->upper[t]);
        if (qp->row_of && qp->row_of[t] >= qp->n_rows)
            return km_error(KM_EINVAL, "SMO: variable %zu maps to row %zu of %zu", t, qp->row_of[t], qp->n_rows);
    }
    return KM_OK;
}

static void smo_free(smo *s)
{
    km_qmatrix_destroy(&s->qm);
    free(s->alpha);
    free(s->G);
    free(s->G_bar);
    free(s->p);
    free(s->C);
    free(s->status);
    free(s->active_set);
    free(s->h);
    free(s->quad);
    free(s->combined);
    free(s->alpha_out);
}

static km_status smo_setup(smo *s, const km_qp *qp, const km_smo_options *options, const double *alpha)
{
    size_t l = qp->n_vars;
    s->qp = qp;
    s->options = options;
    s->l = l;
    s->active = l;
    s->eps = options->tolerance;
    s->alpha = malloc(l * sizeof *s->alpha);
    s->G = malloc(l * sizeof *s->G);
    s->p = malloc(l * sizeof *s->p);
    s->C = malloc(l * sizeof *s->C);
    s->status = malloc(l);
    s->active_set = malloc(l * sizeof *s->active_set);
    if (!s->alpha || !s->G || !s->p || !s->C || !s->status || !s->active_set)
        return km_error_nomem("the SMO solver state");
    if (options->hook) {
        s->M = qp->n_kernels;
        s->n = qp->n_rows;
        if (s->n > SIZE_MAX / sizeof(double) / s->M)
            return km_error(KM_EINVAL, "SMO: %zu kernels x %zu rows do not fit in memory", s->M, s->n);
        s->h = malloc(s->M * s->n * sizeof *s->h);
        s->quad = malloc(s->M * sizeof *s->quad);
        s->combined = malloc(s->n * sizeof *s->combined);
        s->alpha_out = malloc(l * sizeof *s->alpha_out);
        if (!s->h || !s->quad || !s->combined || !s->alpha_out)
            return km_error_nomem("the per-kernel gradients of the MKL hook");
    } else {
        s->G_bar = malloc(l * sizeof *s->G_bar);
        if (!s->G_bar)
            return km_error_nomem("the SMO solver state");
    }
    memcpy(s->alpha, alpha, l * sizeof *alpha);
    memcpy(s->p, qp->p, l * sizeof *s->p);
    memcpy(s->C, qp->upper, l * sizeof *s->C);
    for (size_t t = 0; t < l; t++) {
        s->active_set[t] = t;
        update_status(s, t);
    }
    km_status st = km_qmatrix_init(&s->qm, qp, options->cache, options->cache_bytes, options->hook != NULL,
                                   options->cache_float, options->interrupted, options->interrupt_ctx);
    if (st)
        return st;
    return options->hook ? hook_init(s) : initial_gradient(s);
}

/* Iterations per stall check, at least: when rounding in the steps exceeds the tolerance (features of
 * 1e5 make kernel values of 1e10 whose gradient updates cancel) the violation stops falling, and the
 * solve would run on to the iteration limit. A window whose smallest violation does not improve on the
 * previous window's ends it with a message. */
#define KM_SMO_STALL_WINDOW 1000000L

typedef struct stall_watch {
    long window, left;
    double best, previous_best;   /* smallest violation in this window and in the previous one */
} stall_watch;

static void stall_watch_init(stall_watch *w, size_t l)
{
    w->window = (long)l > KM_SMO_STALL_WINDOW / 10 ? 10 * (long)l : KM_SMO_STALL_WINDOW;
    w->left = w->window;
    w->best = w->previous_best = INFINITY;
}

/* 1 when a window ends without improving on the one before it. */
static int stalled(stall_watch *w, double violation)
{
    if (violation < w->best)
        w->best = violation;
    if (--w->left > 0)
        return 0;
    int no_progress = isfinite(w->previous_best) && w->best >= w->previous_best;
    w->previous_best = w->best;
    w->best = INFINITY;
    w->left = w->window;
    return no_progress;
}

km_status km_smo_solve(const km_qp *qp, const km_smo_options *options, double *alpha, km_smo_result *result)
{
    km_smo_options defaults = km_smo_options_default();
    if (!options)
        options = &defaults;
    if (!qp || !alpha || !result)
        return km_error(KM_EINVAL, "km_smo_solve: NULL problem, alpha or result");
    km_status st = validate(qp, options, alpha);
    if (st)
        return st;

    smo s;
    memset(&s, 0, sizeof s);
    st = smo_setup(&s, qp, options, alpha);
    if (st) {
        smo_free(&s);
        return st;
    }

    size_t l = s.l;
    long max_iter = options->max_iter;
    if (max_iter <= 0) {   /* LIBSVM: max(10^7, 100 l), capped at INT_MAX */
        long hundred_l = l > 2147483647 / 100 ? 2147483647 : (long)(100 * l);
        max_iter = hundred_l > 10000000 ? hundred_l : 10000000;
    }
    long hook_every = options->hook_every > 0 ? options->hook_every : 1;
    size_t shrink_period = l < 1000 ? l : 1000;
    size_t counter = shrink_period + 1;
    long iter = 0, since_hook = 0, theta_changes = 0;   /* theta changes count against max_iter too */
    int converged = 0, stopped = 0, timed_out = 0;
    double violation = INFINITY;
    stall_watch watch;
    stall_watch_init(&watch, l);

    while (iter + theta_changes < max_iter && !st) {
        int poll_now = iter % 100 == 99 || columns_due(&s);
        if (options->interrupted && poll_now && options->interrupted(options->interrupt_ctx)) {
            st = km_error(KM_EINTERRUPTED, "interrupted after %ld solver iterations", iter + 1);
            break;
        }
        if (options->deadline > 0 && poll_now && km_monotonic_seconds() >= options->deadline) {
            timed_out = 1;
            break;
        }
        if (--counter == 0) {
            counter = shrink_period;
            if (options->shrinking && !qp->no_equality && (st = do_shrinking(&s)))
                break;
            if (s.h)
                refresh_quad(&s);
        }
        size_t i = 0, j = 0;
        const double *Q_i = NULL;
        int optimal = select_working_set(&s, &i, &j, &Q_i, &violation);
        if (optimal == 1) {
            if ((st = reconstruct_gradient(&s)))
                break;
            s.active = l;
            optimal = select_working_set(&s, &i, &j, &Q_i, &violation);
            if (optimal == 1) {
                if (s.h) {
                    km_hook_action action = call_hook(&s, options, iter, violation, 1);
                    since_hook = 0;
                    if (action == KM_HOOK_THETA_CHANGED) {
                        theta_changes++;
                        st = hook_theta_changed(&s);
                        continue;
                    }
                    if (action == KM_HOOK_CONTINUE && violation >= s.eps) {
                        stall_watch_init(&watch, l);   /* the same theta, to a tighter tolerance */
                        continue;
                    }
                }
                converged = 1;
                break;
            }
            counter = 1;   /* shrink at the next iteration */
        }
        if (optimal < 0) {
            st = s.qm.failure;
            break;
        }
        if (s.h && since_hook >= hook_every) {
            since_hook = 0;
            km_hook_action action = call_hook(&s, options, iter, violation, 0);
            if (action == KM_HOOK_STOP) {
                stopped = 1;
                break;
            }
            if (action == KM_HOOK_THETA_CHANGED) {
                theta_changes++;
                st = hook_theta_changed(&s);
                stall_watch_init(&watch, l);   /* a new problem */
                continue;
            }
        }
        if (stalled(&watch, violation)) {
            st = km_error(KM_ENOTCONV, "the SVM solver makes no progress after %ld iterations (violation %.3g, "
                          "tolerance %g): the kernel values are too large or too close to singular for "
                          "double-precision steps; scale the features (kernelmix scale) or choose smaller kernel "
                          "parameters", iter, watch.previous_best, options->tolerance);
            break;
        }
        ++iter;
        ++since_hook;
        st = take_step(&s, i, j, Q_i);
    }
    if (st) {
        smo_free(&s);
        return st;
    }
    if (!converged) {
        if ((st = reconstruct_gradient(&s))) {
            smo_free(&s);
            return st;
        }
        s.active = l;
        if (!stopped && !timed_out)
            km_log(&options->logger, KM_LOG_WARNING, "SMO: reached the maximal number of iterations (%ld)", max_iter);
    }

    result->rho = calculate_rho(&s, &result->r);
    double v = 0;
    for (size_t t = 0; t < l; t++)
        v += s.alpha[t] * (s.G[t] + s.p[t]);
    result->objective = v / 2;
    result->violation = violation;
    result->iterations = iter;
    result->converged = converged || stopped;
    for (size_t t = 0; t < l; t++)
        alpha[s.active_set[t]] = s.alpha[t];
    km_log(&options->logger, KM_LOG_DEBUG, "SMO: %ld iterations, objective %.17g, rho %.17g", iter,
           result->objective, result->rho);
    smo_free(&s);
    return KM_OK;
}
