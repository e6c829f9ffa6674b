/* Dual coordinate descent on explicit features (svm/svm.h km_svc_solve_features, km_svr_solve_features).
 * The kernels are K_m(i, j) = s_mi s_mj <phi_mi, phi_mj> (kernel/feature_block.h) and the dual variables
 * x_i enter u_m(x) = sum_i x_i sign_i s_mi phi_mi (sign_i = y_i for C-SVC, 1 for SVR), so
 * 1/2 x^T Q x = 1/2 sum_m theta_m ||u_m(x)||^2. The u_m are kept, so a coordinate step costs
 * O(sum_m r_m), an epoch O(n sum_m r_m): no kernel value between two rows is ever computed.
 *  - C-SVC without bias: min_a 1/2 a^T Q a - sum_i a_i, 0 <= a_i <= C_i (Hsieh, Chang, Lin, Keerthi &
 *    Sundararajan, "A dual coordinate descent method for large-scale linear SVM", ICML 2008,
 *    Algorithm 3; LIBLINEAR's -s 3), the same problem as km_svc_solve_without_bias;
 *  - epsilon-SVR without bias: min_b 1/2 b^T Q b - sum_i z_i b_i + epsilon sum_i |b_i|, -C <= b_i <= C
 *    (Ho & Lin, "Large-scale linear support vector regression", JMLR 13, 2012, Algorithm 4 with the
 *    L1 loss; LIBLINEAR's -s 13), the same problem as km_svr_solve_without_bias with b = a - a*.
 * Both shrink as LIBLINEAR does, and both stop by the SMO's rule without bias: the largest violation
 * of the optimality conditions at most the tolerance, checked over every variable.
 * With the rows split over processes (km_row_partition), an epoch is a round of CoCoA+ (Ma, Smith,
 * Jaggi, Jordan, Richtarik & Takac, "Adding vs. averaging in distributed primal-dual optimization",
 * ICML 2015, aggregation gamma = 1 with the safe sigma' = K for K parts): each part steps on its own
 * variables against u_m of the round's start plus sigma' times its own change, with Q_ii scaled by
 * sigma' (the local subproblem G_k^sigma' of the paper's eq. 10); the parts then add their changes of
 * u_m, and agree on the violations, shrinking, limits and interrupts, so that they stop together. One
 * part alone (sigma' = 1, no rounds) is the method above.
 * With bias, the dual adds sum_i c_i = 0 (c_i = sign_i x_i), which coordinate steps cannot keep; the
 * descent then solves the machine whose bias is held at an offset b, and a search over b finds the bias
 * (bias_search below). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>

#include "core/clock.h"
#include "core/error.h"
#include "core/log.h"
#include "core/rng.h"
#include "dist/dist.h"
#include "svm/svm.h"

/* The order of the coordinates is shuffled every epoch from this seed: the same inputs, the same result. */
#define KM_DCD_SEED 0x6463645f73766375u
/* Coordinate steps between two polls of the interrupt. */
#define KM_DCD_POLL_STEPS 65536

typedef struct dcd dcd;
/* One coordinate step on variable i: returns 1 when i is shrunk (at a bound that its gradient points out
 * of further than the last epoch's extreme violations old[0] >= 0 >= old[1] allow), else widens
 * now[0] >= 0 >= now[1] by its violation and moves it. */
typedef int (*dcd_step)(dcd *d, size_t i, const double old[2], double now[2]);

struct dcd {
    size_t n, M;
    km_feature_block *blocks;
    const double *theta;
    double **u;              /* per kernel: r_m values (NULL where theta_m = 0) */
    double *x;               /* the dual variables */
    double *upper;           /* C-SVC: 0 <= x_i <= upper_i; SVR: -upper_i <= x_i <= upper_i */
    double *QD;              /* Q_ii */
    const signed char *y;    /* C-SVC's labels (sign_i); NULL for SVR (sign_i = 1) */
    const double *z;         /* SVR's targets */
    double epsilon;
    double offset;           /* the machine's bias, held fixed in a descent: f = decision + offset */
    size_t dimensions;       /* sum_m r_m over the weighted kernels: the values of all u_m */
    const km_row_partition *partition;   /* NULL: the rows are the whole problem */
    double sigma;            /* sigma': the number of parts (1 alone) */
    double *round;           /* with a partition: the u_m all parts hold at the round's start, one after
                                another */
    double *change;          /* with a partition: the parts' changes of them, and their steps */
};

/* sum_m theta_m s_mi <phi_mi, u_m>: the combined decision value of row i. */
static double decision(const dcd *d, size_t i)
{
    double g = 0;
    for (size_t m = 0; m < d->M; m++)
        if (d->u[m]) {
            const km_feature_block *b = &d->blocks[m];
            g += d->theta[m] * km_feature_row_scale(b, i) * km_feature_dot(b, i, d->u[m]);
        }
    return g;
}

/* u_m += amount s_mi phi_mi for every weighted kernel. */
static void add_row(const dcd *d, size_t i, double amount)
{
    for (size_t m = 0; m < d->M; m++)
        if (d->u[m]) {
            const km_feature_block *b = &d->blocks[m];
            km_feature_axpy(b, i, amount * km_feature_row_scale(b, i), d->u[m]);
        }
}

/* A step of delta on x_i (sign_i folded in by the caller), as this part's subproblem sees it. */
static void move(const dcd *d, size_t i, double delta) { add_row(d, i, d->sigma * delta); }

/* Q_ii = sum_m theta_m s_mi^2 ||phi_mi||^2. */
static double diagonal(const dcd *d, size_t i)
{
    double q = 0;
    for (size_t m = 0; m < d->M; m++)
        if (d->u[m]) {
            const km_feature_block *b = &d->blocks[m];
            double s = km_feature_row_scale(b, i);
            q += d->theta[m] * s * s * km_feature_sqnorm(b, i);
        }
    return q;
}

static double sign_of(const dcd *d, size_t i) { return d->y ? d->y[i] : 1.0; }

/* The projected gradient of a_i at gradient G: 0 where the bound it points out of is active. */
static double projected(double G, double a, double C)
{
    if (a <= 0)
        return G < 0 ? G : 0.0;
    if (a >= C)
        return G > 0 ? G : 0.0;
    return G;
}

/* C-SVC: G = y_i (g_i + b) - 1, the step to the clipped minimiser along a_i (LIBLINEAR's solve_l2r_l1l2_svc). */
static int svc_step(dcd *d, size_t i, const double old[2], double now[2])
{
    double G = d->y[i] * (decision(d, i) + d->offset) - 1.0, a = d->x[i], C = d->upper[i], QD = d->QD[i];
    if ((a <= 0 && G > old[0]) || (a >= C && G < old[1]))
        return 1;
    double PG = projected(G, a, C);
    now[0] = fmax(now[0], PG);
    now[1] = fmin(now[1], PG);
    if (PG != 0) {
        double next = QD > 0 ? fmin(fmax(a - G / QD, 0.0), C) : (G < 0 ? C : 0.0);
        move(d, i, (next - a) * d->y[i]);
        d->x[i] = next;
    }
    return 0;
}

/* SVR: G = g_i + b - z_i; the objective along b_i is H/2 t^2 + G t + epsilon |b_i + t|, whose one-sided
 * derivatives at t = 0 are G + epsilon and G - epsilon (LIBLINEAR's solve_l2r_l1l2_svr: the violation
 * and the shrinking test from them, the step to the clipped minimiser). */
static int svr_step(dcd *d, size_t i, const double old[2], double now[2])
{
    double G = decision(d, i) + d->offset - d->z[i], Gp = G + d->epsilon, Gn = G - d->epsilon;
    double b = d->x[i], U = d->upper[i], H = d->QD[i], violation = 0;
    if (b == 0) {
        if (Gp < 0)
            violation = -Gp;
        else if (Gn > 0)
            violation = Gn;
        else if (Gp > old[0] && Gn < -old[0])
            return 1;
    } else if (b >= U) {
        if (Gp > 0)
            violation = Gp;
        else if (Gp < -old[0])
            return 1;
    } else if (b <= -U) {
        if (Gn < 0)
            violation = -Gn;
        else if (Gn > old[0])
            return 1;
    } else
        violation = b > 0 ? fabs(Gp) : fabs(Gn);
    now[0] = fmax(now[0], violation);
    now[1] = fmin(now[1], -violation);
    if (violation == 0)
        return 0;
    /* the minimiser: on the side of 0 where the derivative vanishes, else 0 itself; along a row
     * without features (H = 0) the objective is piecewise linear and the minimiser a bound or 0 */
    double next = H > 0 ? (Gp < H * b ? b - Gp / H : Gn > H * b ? b - Gn / H : 0.0)
                        : (Gp < 0 ? U : Gn > 0 ? -U : 0.0);
    next = fmin(fmax(next, -U), U);
    move(d, i, next - b);
    d->x[i] = next;
    return 0;
}

/* After a round: each part's change of u_m since the round's start (in u, sigma' times its own) added
 * over the parts, so that every part holds the same u_m; *steps becomes every part's steps so far
 * (steps_round: this part's own in the round). */
static void share_round(dcd *d, long *steps, long steps_round)
{
    size_t at = 0;
    for (size_t m = 0; m < d->M; m++)
        if (d->u[m]) {
            for (size_t c = 0; c < d->blocks[m].r; c++)
                d->change[at + c] = (d->u[m][c] - d->round[at + c]) / d->sigma;
            at += d->blocks[m].r;
        }
    d->change[at] = (double)steps_round;
    d->partition->sum(d->change, at + 1);
    at = 0;
    for (size_t m = 0; m < d->M; m++)
        if (d->u[m]) {
            for (size_t c = 0; c < d->blocks[m].r; c++)
                d->u[m][c] = d->round[at + c] += d->change[at + c];
            at += d->blocks[m].r;
        }
    *steps += (long)d->change[at];
}

/* The epochs: every active variable in a shuffled order, shrinking, until the largest violation is at
 * most the tolerance over every variable or the step or time limit. Returns the status; *steps_out and
 * *converged_out tell how it ended. */
static km_status descend(dcd *d, dcd_step step, const km_smo_options *options, size_t *index, long *steps_out,
                         int *converged_out)
{
    size_t n = d->n;
    double rows = d->partition ? (double)d->partition->n_total : (double)n;
    long max_steps = options->max_iter > 0 ? options->max_iter : (long)fmin(1e3 * rows + 1e7, 2e18);
    long steps = 0, epochs = 0;
    int converged = 0;
    km_status st = KM_OK;
    km_rng rng;
    km_rng_seed(&rng, KM_DCD_SEED);
    size_t active = n;
    for (size_t i = 0; i < n; i++)
        index[i] = i;
    double old[2] = {INFINITY, -INFINITY};
    while (steps < max_steps) {
        int past_deadline = options->deadline > 0 && km_monotonic_seconds() >= options->deadline;
        if (past_deadline && !d->partition)
            break;   /* the caller reports its time limit; the point is feasible */
        epochs++;
        km_rng_shuffle(&rng, index, active);
        double now[2] = {-INFINITY, INFINITY};
        long round_start = steps;
        for (size_t t = 0; t < active && !st; t++) {
            size_t i = index[t];
            if (step(d, i, old, now)) {
                index[t--] = index[--active];   /* shrunk: the next variable takes its place */
                index[active] = i;
                continue;
            }
            if (++steps % KM_DCD_POLL_STEPS == 0 && options->interrupted && options->interrupted(options->interrupt_ctx))
                st = km_error(KM_EINTERRUPTED, "interrupted after %ld coordinate steps", steps);
        }
        int shrunk = active < n;   /* some variable (of some part) is shrunk */
        if (d->partition) {   /* the round's end: the parts add their changes and agree on what follows */
            long own = steps - round_start;
            steps = round_start;
            share_round(d, &steps, own);
            double agreed[5] = {now[0], -now[1], shrunk, st != KM_OK, past_deadline};
            d->partition->maximum(agreed, 5);
            now[0] = agreed[0];
            now[1] = -agreed[1];
            shrunk = agreed[2] != 0;
            if (agreed[3] && !st)
                st = km_error(KM_EINTERRUPTED, "another process of the run was interrupted");
            if (agreed[4])
                break;
        }
        if (st)
            break;
        if (fmax(now[0], -now[1]) <= options->tolerance) {
            if (!shrunk) {
                converged = 1;
                break;
            }
            active = n;   /* optimal on the active set: check every variable before stopping */
            old[0] = INFINITY;
            old[1] = -INFINITY;
            continue;
        }
        old[0] = now[0] > 0 ? now[0] : INFINITY;
        old[1] = now[1] < 0 ? now[1] : -INFINITY;
    }
    if (!st && !converged && steps >= max_steps)
        km_log(&options->logger, KM_LOG_WARNING, "coordinate descent: reached the maximal number of steps (%ld)",
               max_steps);
    if (!st)
        km_log(&options->logger, KM_LOG_DEBUG, "coordinate descent on explicit features: %ld steps in %ld epochs",
               steps, epochs);
    *steps_out = steps;
    *converged_out = converged;
    return st;
}

static void dcd_free(dcd *d)
{
    for (size_t m = 0; d->u && m < d->M; m++)
        free(d->u[m]);
    free(d->u);
    free(d->x);
    free(d->upper);
    free(d->QD);
    free(d->blocks);
    free(d->round);
    free(d->change);
}

/* The features, u_m = 0 and the arrays of n variables; the caller fills x and upper, then calls start. */
static km_status dcd_open(dcd *d, const km_kernel_access *kernel, const km_row_partition *partition, const char *who)
{
    size_t n = kernel->n_rows, M = kernel->n_kernels;
    km_feature_block *blocks = malloc(M * sizeof *blocks);
    *d = (dcd){.n = n, .M = M, .blocks = blocks, .theta = kernel->theta, .partition = partition, .sigma = 1.0};
    if (!blocks)
        return km_error_nomem("the feature blocks");
    if (!km_kernel_access_features(kernel, blocks))
        return km_error(KM_EINVAL, "%s: a kernel has no explicit features", who);
    d->u = calloc(M, sizeof *d->u);
    d->x = malloc(n * sizeof *d->x);
    d->upper = malloc(n * sizeof *d->upper);
    d->QD = malloc(n * sizeof *d->QD);
    if (!d->u || !d->x || !d->upper || !d->QD)
        return km_error_nomem("the coordinate descent");
    size_t dimensions = 0;
    for (size_t m = 0; m < M; m++) {
        if (kernel->theta[m] > 0 && !(d->u[m] = calloc(blocks[m].r ? blocks[m].r : 1, sizeof **d->u)))
            return km_error_nomem("the coordinate descent");
        dimensions += d->u[m] ? blocks[m].r : 0;
    }
    d->dimensions = dimensions;
    if (partition) {
        d->sigma = (double)partition->parts;
        d->round = malloc((dimensions ? dimensions : 1) * sizeof *d->round);
        d->change = malloc((dimensions + 1) * sizeof *d->change);
        if (!d->round || !d->change)
            return km_error_nomem("the coordinate descent's rounds");
    }
    return KM_OK;
}

/* The u_m one after another in flat (d->dimensions values). */
static void u_to_flat(const dcd *d, double *flat)
{
    for (size_t m = 0, at = 0; m < d->M; m++)
        if (d->u[m]) {
            memcpy(flat + at, d->u[m], d->blocks[m].r * sizeof *flat);
            at += d->blocks[m].r;
        }
}

/* Q_ii (sigma' Q_ii in a part's subproblem) and u_m(x) at the filled start x (summed over the parts). */
static void dcd_start(dcd *d)
{
    for (size_t i = 0; i < d->n; i++) {
        d->QD[i] = d->sigma * diagonal(d, i);
        if (d->x[i] != 0)
            add_row(d, i, d->x[i] * sign_of(d, i));
    }
    if (!d->partition)
        return;
    for (size_t m = 0; m < d->M; m++)
        if (d->u[m])
            d->partition->sum(d->u[m], d->blocks[m].r);
    u_to_flat(d, d->round);
}

/* The machine's parts of the descent: its step, the linear part of its dual objective at x, and its
 * LIBSVM variables at row i given the row's decision value without bias (bias_search). */
typedef struct libsvm_rule libsvm_rule;
typedef struct dcd_machine {
    dcd_step step;
    double (*linear)(const dcd *d);
    void (*variables)(const dcd *d, size_t i, double decision, libsvm_rule *rule);
} dcd_machine;

/* LIBSVM's stopping rule and rho over its variables (value a in [0, C], label y, score v = -y G with
 * G the gradient of the dual with bias): the violation max_{I_up} v - min_{I_low} v, and rho the mean of
 * -v over the free variables, else the middle of the bounds the others give (smo.c calculate_rho). */
struct libsvm_rule {
    double up;        /* max of v over I_up = {y = +1, a < C} u {y = -1, a > 0} */
    double low;       /* min of v over I_low = {y = +1, a > 0} u {y = -1, a < C} */
    double lb, ub;    /* the bounds on rho from the variables at a bound */
    double sum_free;  /* of -v over the free variables */
    double free;      /* their number */
};

static void libsvm_variable(libsvm_rule *rule, int y, double a, double C, double v)
{
    if ((y > 0 && a < C) || (y < 0 && a > 0))
        rule->up = fmax(rule->up, v);
    if ((y > 0 && a > 0) || (y < 0 && a < C))
        rule->low = fmin(rule->low, v);
    if (a >= C && y < 0)
        rule->ub = fmin(rule->ub, -v);
    else if (a >= C)
        rule->lb = fmax(rule->lb, -v);
    else if (a <= 0 && y > 0)
        rule->ub = fmin(rule->ub, -v);
    else if (a <= 0)
        rule->lb = fmax(rule->lb, -v);
    else {
        rule->sum_free -= v;
        rule->free++;
    }
}

/* C-SVC: the variable a_i, G = y_i f_i - 1, so v = y_i - f_i. */
static void svc_variables(const dcd *d, size_t i, double decision, libsvm_rule *rule)
{
    libsvm_variable(rule, d->y[i], d->x[i], d->upper[i], d->y[i] - decision);
}

/* SVR: a_i = max(b_i, 0) with y = +1, G = f_i + epsilon - z_i; a*_i = max(-b_i, 0) with y = -1,
 * G = -f_i + epsilon + z_i. */
static void svr_variables(const dcd *d, size_t i, double decision, libsvm_rule *rule)
{
    libsvm_variable(rule, 1, fmax(d->x[i], 0.0), d->upper[i], d->z[i] - d->epsilon - decision);
    libsvm_variable(rule, -1, fmax(-d->x[i], 0.0), d->upper[i], d->z[i] + d->epsilon - decision);
}

/* The rule at the current x and u (over every part): its violation, and rho in *rho. */
static double libsvm_violation(const dcd *d, const dcd_machine *machine, double *rho)
{
    libsvm_rule rule = {-INFINITY, INFINITY, -INFINITY, INFINITY, 0, 0};
    for (size_t i = 0; i < d->n; i++)
        machine->variables(d, i, decision(d, i), &rule);
    if (d->partition) {
        double extremes[4] = {rule.up, -rule.low, rule.lb, -rule.ub}, sums[2] = {rule.sum_free, rule.free};
        d->partition->maximum(extremes, 4);
        d->partition->sum(sums, 2);
        rule = (libsvm_rule){extremes[0], -extremes[1], extremes[2], -extremes[3], sums[0], sums[1]};
    }
    /* a side without variables (only away from the equality: a search stopped early) leaves the other */
    double middle = isfinite(rule.ub) && isfinite(rule.lb) ? (rule.ub + rule.lb) / 2
                    : isfinite(rule.ub)                    ? rule.ub
                    : isfinite(rule.lb)                    ? rule.lb
                                                           : 0.0;
    *rho = rule.free > 0 ? rule.sum_free / rule.free : middle;
    return rule.up - rule.low;
}

/* sum_i c_i over every part: the dual's equality constraint with bias. */
static double coefficient_sum(const dcd *d)
{
    double sum = 0;
    for (size_t i = 0; i < d->n; i++)
        sum += sign_of(d, i) * d->x[i];
    if (d->partition)
        d->partition->sum(&sum, 1);
    return sum;
}

/* A descent's optimum at offset b: x, the u_m (flat) and s = sum_i c_i. */
typedef struct offset_point {
    double b, s;
    double *x, *u;
} offset_point;

static void offset_point_save(const dcd *d, offset_point *p, double b, double s)
{
    p->b = b;
    p->s = s;
    memcpy(p->x, d->x, d->n * sizeof *p->x);
    u_to_flat(d, p->u);
}

/* x = t lo + (1 - t) hi and the same combination of u (u is linear in x); where both ends are at one
 * value it is kept exactly, so that bounds stay bounds. With a partition the round starts there. */
static void combine(dcd *d, const offset_point *lo, const offset_point *hi, double t)
{
    for (size_t i = 0; i < d->n; i++) {
        double a = lo->x[i], b = hi->x[i], lower = d->y ? 0.0 : -d->upper[i];
        d->x[i] = a == b ? a : fmin(fmax(t * a + (1 - t) * b, lower), d->upper[i]);
    }
    for (size_t m = 0, at = 0; m < d->M; m++)
        for (size_t c = 0; d->u[m] && c < d->blocks[m].r; c++, at++) {
            double a = lo->u[at], b = hi->u[at];
            d->u[m][c] = a == b ? a : t * a + (1 - t) * b;
        }
    if (d->round)
        u_to_flat(d, d->round);
}

/* Offsets the search tries at most. */
#define KM_DCD_BIAS_OFFSETS 200

/* The machine with bias. The optimum of the descent at offset b has the sum s(b) = sum_i c_i, which is
 * non-increasing in b, and -s(b) is a subgradient at b of P(b), the primal optimum with the bias held
 * at b: convex (a partial minimum of a jointly convex function), so the machine's bias is where s
 * changes sign. The search brackets that offset (steps doubling from b = 0), narrows the bracket by false
 * position, bisecting when one end stays twice, and at each bracket takes the combination of its ends
 * whose sum is 0: feasible for the dual with bias, since the box is convex. As the bracket closes both
 * ends tend to optima of the same problem, whose optima are a convex set, so the combination tends to
 * an optimum. It stops when the combination meets the SMO's rule, LIBSVM's violation at most the
 * tolerance (each descent stops at a quarter of it), and writes LIBSVM's rho there. */
static km_status bias_search(dcd *d, const dcd_machine *machine, const km_smo_options *options, size_t *index,
                             long *steps, int *converged, double *rho)
{
    km_smo_options descent = *options;
    descent.tolerance = options->tolerance / 4;
    size_t dimensions = d->dimensions ? d->dimensions : 1;
    offset_point lo = {.x = malloc(d->n * sizeof(double)), .u = malloc(dimensions * sizeof(double))};
    offset_point hi = {.x = malloc(d->n * sizeof(double)), .u = malloc(dimensions * sizeof(double))};
    km_status st = lo.x && lo.u && hi.x && hi.u ? KM_OK : km_error_nomem("the search for the bias");
    int have_lo = 0, have_hi = 0, same_end = 0, last_end = 0, offsets = 0, descended = 1;
    double b = 0, reach = 1;
    *steps = 0;
    *converged = 0;
    while (!st && offsets++ < KM_DCD_BIAS_OFFSETS) {
        d->offset = b;
        long descent_steps;
        st = descend(d, machine->step, &descent, index, &descent_steps, &descended);
        *steps += descent_steps;
        if (st || !descended)   /* interrupted, or a limit the descent has reported: the point as it is */
            break;
        double s = coefficient_sum(d);
        int end = s > 0 ? -1 : 1;   /* which end of the bracket b becomes (s = 0: both) */
        same_end = end == last_end ? same_end + 1 : 0;
        last_end = end;
        if (s >= 0)
            offset_point_save(d, &lo, b, s), have_lo = 1;
        if (s <= 0)
            offset_point_save(d, &hi, b, s), have_hi = 1;
        if (!have_lo || !have_hi) {   /* the bias lies further on */
            b = have_lo ? lo.b + reach : hi.b - reach;
            reach *= 2;
            continue;
        }
        double t = lo.s == hi.s ? 1.0 : -hi.s / (lo.s - hi.s);
        combine(d, &lo, &hi, t);
        if (libsvm_violation(d, machine, rho) <= options->tolerance) {
            *converged = 1;
            break;
        }
        b = t * lo.b + (1 - t) * hi.b;
        if (same_end >= 1 || !(b > lo.b && b < hi.b)) {
            b = 0.5 * (lo.b + hi.b);
            combine(d, &lo, &hi, 0.5);
        }
        if (!(b > lo.b && b < hi.b))   /* the bracket is as narrow as doubles make it */
            break;
    }
    if (!st && !*converged && descended)
        km_log(&options->logger, KM_LOG_WARNING, "coordinate descent: the search for the bias stopped after %d "
               "offsets before LIBSVM's violation met the tolerance", offsets);
    if (!st && !*converged)
        libsvm_violation(d, machine, rho);
    if (!st)
        km_log(&options->logger, KM_LOG_DEBUG, "coordinate descent: bias %.17g after %d offsets", -*rho, offsets);
    free(lo.x);
    free(lo.u);
    free(hi.x);
    free(hi.u);
    return st;
}

/* Runs the descent (with bias: the search for it) and writes the solution: coef_i = sign_i x_i, the bias,
 * and the objective 1/2 sum_m theta_m ||u_m||^2 + the machine's linear part at the final x. */
static km_status dcd_solve(dcd *d, const dcd_machine *machine, int bias, const km_smo_options *options,
                           km_svm_solution *solution)
{
    size_t *index = malloc(d->n * sizeof *index);
    if (!index)
        return km_error_nomem("the coordinate descent");
    long steps;
    int converged;
    double rho = 0;
    km_status st = bias ? bias_search(d, machine, options, index, &steps, &converged, &rho)
                        : descend(d, machine->step, options, index, &steps, &converged);
    free(index);
    if (st)
        return st;
    double quad = 0, linear = machine->linear(d);
    for (size_t m = 0; m < d->M; m++)
        if (d->u[m])
            quad += d->theta[m] * cblas_ddot((int)d->blocks[m].r, d->u[m], 1, d->u[m], 1);
    if (d->partition)   /* the u_m are every part's; the linear part is a sum over the rows */
        d->partition->sum(&linear, 1);
    for (size_t i = 0; i < d->n; i++)
        solution->coef[i] = sign_of(d, i) * d->x[i];
    solution->bias = -rho;
    solution->objective = 0.5 * quad + linear;
    solution->iterations = steps;
    solution->converged = converged;
    km_log(&options->logger, KM_LOG_DEBUG, "coordinate descent: objective %.17g", solution->objective);
    return KM_OK;
}

/* -sum_i a_i */
static double svc_linear(const dcd *d)
{
    double sum = 0;
    for (size_t i = 0; i < d->n; i++)
        sum += d->x[i];
    return -sum;
}

/* sum_i epsilon |b_i| - z_i b_i */
static double svr_linear(const dcd *d)
{
    double sum = 0;
    for (size_t i = 0; i < d->n; i++)
        sum += d->epsilon * fabs(d->x[i]) - d->z[i] * d->x[i];
    return sum;
}

static const dcd_machine svc_machine = {svc_step, svc_linear, svc_variables};
static const dcd_machine svr_machine = {svr_step, svr_linear, svr_variables};

/* C-SVC with (bias 1) or without (bias 0) the bias. */
static km_status svc_features(const km_kernel_access *kernel, const signed char *y, double C, double weight_pos,
                              double weight_neg, int bias, const km_smo_options *options, const double *alpha_start,
                              km_svm_solution *solution)
{
    dcd d;
    const km_row_partition *partition = options->partition;
    km_status st = dcd_open(&d, kernel, partition, "km_svc_solve_features");
    size_t n = kernel->n_rows;
    double counts[2] = {0, (double)n};   /* positive rows, rows: over every part */
    d.y = y;
    for (size_t i = 0; !st && i < n; i++) {
        if (y[i] != 1 && y[i] != -1)
            st = km_error(KM_EINVAL, "km_svc_solve_features: label %d of row %zu is not +1 or -1", y[i], i);
        counts[0] += y[i] > 0;
        d.upper[i] = C * (y[i] > 0 ? weight_pos : weight_neg);
        d.x[i] = alpha_start ? fmin(fmax(alpha_start[i], 0.0), d.upper[i]) : 0.0;
    }
    if (partition && km_row_partition_failed(partition, st != KM_OK) && !st)
        st = km_error(KM_EINVAL, KM_DIST_FAILED_ELSEWHERE " to start the coordinate descent");
    if (partition && !st)
        partition->sum(counts, 2);
    if (!st && (counts[0] == 0 || counts[0] == counts[1]))
        st = km_error(KM_EINVAL, "km_svc_solve_features: both classes are needed (%.0f of %.0f rows positive)",
                      counts[0], counts[1]);
    if (!st) {
        dcd_start(&d);
        st = dcd_solve(&d, &svc_machine, bias, options, solution);
    }
    dcd_free(&d);
    return st;
}

km_status km_svc_solve_features(const km_kernel_access *kernel, const signed char *y, double C, double weight_pos,
                                double weight_neg, const km_smo_options *options, const double *alpha_start,
                                km_svm_solution *solution)
{
    return svc_features(kernel, y, C, weight_pos, weight_neg, 0, options, alpha_start, solution);
}

km_status km_svc_solve_features_with_bias(const km_kernel_access *kernel, const signed char *y, double C,
                                          double weight_pos, double weight_neg, const km_smo_options *options,
                                          const double *alpha_start, km_svm_solution *solution)
{
    return svc_features(kernel, y, C, weight_pos, weight_neg, 1, options, alpha_start, solution);
}

/* epsilon-SVR with (bias 1) or without (bias 0) the bias. */
static km_status svr_features(const km_kernel_access *kernel, const double *z, double C, double epsilon, int bias,
                              const km_smo_options *options, const double *coef_start, km_svm_solution *solution)
{
    if (!(C > 0) || isinf(C) || !(epsilon >= 0) || isinf(epsilon))
        return km_error(KM_EINVAL, "km_svr_solve_features: C = %g must be positive and epsilon = %g non-negative",
                        C, epsilon);
    dcd d;
    const km_row_partition *partition = options->partition;
    km_status st = dcd_open(&d, kernel, partition, "km_svr_solve_features");
    d.z = z;
    d.epsilon = epsilon;
    for (size_t i = 0; !st && i < kernel->n_rows; i++) {
        if (!isfinite(z[i]))
            st = km_error(KM_EINVAL, "km_svr_solve_features: target of row %zu is not finite", i);
        d.upper[i] = C;
        d.x[i] = coef_start ? fmin(fmax(coef_start[i], -C), C) : 0.0;
    }
    if (partition && km_row_partition_failed(partition, st != KM_OK) && !st)
        st = km_error(KM_EINVAL, KM_DIST_FAILED_ELSEWHERE " to start the coordinate descent");
    if (!st) {
        dcd_start(&d);
        st = dcd_solve(&d, &svr_machine, bias, options, solution);
    }
    dcd_free(&d);
    return st;
}

km_status km_svr_solve_features(const km_kernel_access *kernel, const double *z, double C, double epsilon,
                                const km_smo_options *options, const double *coef_start, km_svm_solution *solution)
{
    return svr_features(kernel, z, C, epsilon, 0, options, coef_start, solution);
}

km_status km_svr_solve_features_with_bias(const km_kernel_access *kernel, const double *z, double C, double epsilon,
                                          const km_smo_options *options, const double *coef_start,
                                          km_svm_solution *solution)
{
    return svr_features(kernel, z, C, epsilon, 1, options, coef_start, solution);
}
