/* l1-norm MKL on rank-1 kernels as linear programs (--solver simplex; docs/mkl.md).
 *
 * With K_k = x~_k x~_k' (kernel/family_rank1.c) a kernel's block of w is one number w_k, and minimising over
 * theta on the simplex turns l1-MKL's C-SVC (Kloft's thesis, Problem II.4, p_block = 1) into
 *     min_{w,b} P(w, b) = 1/2 ||w||_1^2 + sum_i C_i max(0, 1 - y_i (x~_i'w + b)),
 * the squared form of the 1-norm SVM (Zhu, Rosset, Hastie & Tibshirani, "1-norm support vector machines",
 * NIPS 2003). Its dual is max_alpha sum_i alpha_i - 1/2 ||X~'(y alpha)||_inf^2 over 0 <= alpha_i <= C_i,
 * y'alpha = 0: the MKL dual with max_k alpha'Y K_k Y alpha. Since 1/2 s^2 = max_t (t s - 1/2 t^2),
 *     min_w P = max_t [ g(t) - 1/2 t^2 ],   g(t) = min_{w,b} t ||w||_1 + sum_i C_i hinge_i(w, b),
 * and g(t) is a linear program (w = w+ - w-, slacks xi) whose row duals are the alpha above. g is concave and
 * piecewise linear; w(t) solves P exactly where ||w(t)||_1 = t. phi(t) = ||w(t)||_1 does not increase with t,
 * so the solver brackets the fixed point t* (phi(t) >= t below it, phi(t) <= t above), bisects, and tries
 * the fixed-point guess t = phi(t) between bisections. t* is usually a breakpoint of g, where the LP jumps
 * between two vertices w_lo, w_hi: both solve the LP at t*, and so does the combination of them with
 * l1-norm t*, the optimum of P. Each point is certified by the duality certificate of every lp solver
 * (certificate.c) at theta_k = |w_k| / ||w||_1 and c = y alpha: at t* that is the point w itself
 * (theta_k u_k = w_k, u = X~'c, since |u_k| = t* where w_k != 0).
 *
 * Only the objective's coefficients of w+- change with t, so each LP after the first is warm-started by
 * GLPK's primal simplex from the last basis, which stays primal feasible. The LP holds each column x~_k shifted by its most
 * frequent value (the bias absorbs the shift, and y'alpha = 0 leaves u unchanged): count features are then as
 * sparse as the data. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef KM_HAVE_GLPK
#include <glpk.h>
#endif

#include "core/double_order.h"
#include "core/error.h"
#include "mkl/mkl.h"
#include "mkl/two_stage.h"

#ifdef KM_HAVE_GLPK

/* Stop bisecting when the bracket of t* is this narrow (relative): the LP's own rounding. */
#define BRACKET_FLOOR 1e-13
/* GLPK's simplex runs in slices of this many milliseconds, the caller's interrupt polled between them. */
#define SLICE_MS 500

/* One solved LP: t, its primal point and its row duals. */
typedef struct lp_point {
    double t, norm;          /* ||w||_1 */
    double *w, bias;         /* d values; the bias of x~'w (the shift undone) */
    double *alpha;           /* n values in [0, C_i] */
} lp_point;

typedef struct rank1_lp {
    const km_mkl_problem *pr;
    size_t n, M, d;
    double *X;               /* n x d: the rank-1 kernels' feature columns x~_k (up to sign) */
    size_t *kept;            /* d: the kernel of column k */
    double *shift;           /* d: the column's most frequent value, left out of the LP's matrix */
    glp_prob *lp;            /* columns w+ (1..d), w- (d+1..2d), xi (2d+1..2d+n), the bias (2d+n+1) */
    int basis;               /* an optimal basis of an earlier solve is there to start from */
    lp_point lo, hi, last;   /* the bracket's ends (phi(t) >= t, phi(t) <= t) and the newest solve */
    int have_lo, have_hi;
    double *coef, *h, *a;    /* scratch of a certificate: c = y alpha, K_k c (n x M), c'K_k c */
    double *scratch_w;       /* d: a combination of two LP points */
    /* the best certified point */
    km_mkl_certificate best;
    double *best_coef, *best_theta;
    int have_best;
} rank1_lp;

static double row_weight(const km_machine_problem *machine, size_t i)
{
    return machine->C * (machine->y[i] > 0 ? machine->weight_pos : machine->weight_neg);
}

/* The most frequent value of column k (values are equal exactly: the family computes a feature value the
 * same way on every row with the same input). */
static double most_frequent(const double *X, size_t n, size_t d, size_t k, double *sorted)
{
    for (size_t i = 0; i < n; i++)
        sorted[i] = X[i * d + k];
    qsort(sorted, n, sizeof *sorted, km_double_ascending);
    double best = sorted[0];
    size_t run = 0, best_run = 0;
    for (size_t i = 0; i < n; i++) {
        run = i > 0 && sorted[i] == sorted[i - 1] ? run + 1 : 1;
        if (run > best_run) {
            best_run = run;
            best = sorted[i];
        }
    }
    return best;
}

static int column_of_w(size_t k) { return (int)k + 1; }
static int column_of_xi(const rank1_lp *s, size_t i) { return (int)(2 * s->d + i) + 1; }
static int column_of_bias(const rank1_lp *s) { return (int)(2 * s->d + s->n) + 1; }

/* The LP of g(t) without its objective on w+-: row i is y_i (a_i'(w+ - w-) + b) + xi_i >= 1. */
static km_status build_lp(rank1_lp *s)
{
    const km_machine_problem *machine = s->pr->machine;
    size_t n = s->n, d = s->d, bias = machine->bias != 0;
    size_t nonzeros = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < d; k++)
            nonzeros += s->X[i * d + k] != s->shift[k];
    nonzeros = 2 * nonzeros + n * (1 + bias);
    if (nonzeros >= (size_t)INT32_MAX)
        return km_error(KM_ENOMEM, "the simplex solver's linear program has %zu nonzeros, more than GLPK holds",
                        nonzeros);
    int *ia = malloc((nonzeros + 1) * sizeof *ia), *ja = malloc((nonzeros + 1) * sizeof *ja);
    double *ar = malloc((nonzeros + 1) * sizeof *ar);
    s->lp = glp_create_prob();
    if (!ia || !ja || !ar || !s->lp) {
        free(ia);
        free(ja);
        free(ar);
        return km_error_nomem("the simplex solver's linear program");
    }
    glp_set_obj_dir(s->lp, GLP_MIN);
    glp_add_rows(s->lp, (int)n);
    glp_add_cols(s->lp, (int)(2 * d + n + bias));
    size_t e = 0;
    for (size_t i = 0; i < n; i++) {
        int row = (int)i + 1;
        double y = machine->y[i];
        glp_set_row_bnds(s->lp, row, GLP_LO, 1.0, 0.0);
        for (size_t k = 0; k < d; k++) {
            double v = s->X[i * d + k] - s->shift[k];
            if (v == 0)
                continue;
            e++, ia[e] = row, ja[e] = column_of_w(k), ar[e] = y * v;
            e++, ia[e] = row, ja[e] = column_of_w(d + k), ar[e] = -y * v;
        }
        e++, ia[e] = row, ja[e] = column_of_xi(s, i), ar[e] = 1.0;
        if (bias)
            e++, ia[e] = row, ja[e] = column_of_bias(s), ar[e] = y;
    }
    glp_load_matrix(s->lp, (int)e, ia, ja, ar);
    free(ia);
    free(ja);
    free(ar);
    for (size_t k = 0; k < 2 * d; k++)
        glp_set_col_bnds(s->lp, column_of_w(k), GLP_LO, 0.0, 0.0);
    for (size_t i = 0; i < n; i++) {
        glp_set_col_bnds(s->lp, column_of_xi(s, i), GLP_LO, 0.0, 0.0);
        glp_set_obj_coef(s->lp, column_of_xi(s, i), row_weight(machine, i));
    }
    if (bias)
        glp_set_col_bnds(s->lp, column_of_bias(s), GLP_FR, 0.0, 0.0);
    return KM_OK;
}

/* Runs GLPK's simplex in slices of SLICE_MS, polling the caller's interrupt between them. */
static km_status run_simplex(rank1_lp *s, int method, int *ret)
{
    const km_machine_problem *machine = s->pr->machine;
    glp_smcp parm;
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    parm.meth = method;
    parm.tm_lim = SLICE_MS;
    int terminal = glp_term_out(GLP_OFF); /* the library never prints; the caller's setting comes back */
    while ((*ret = glp_simplex(s->lp, &parm)) == GLP_ETMLIM) {
        if (machine->solver.interrupted && machine->solver.interrupted(machine->solver.interrupt_ctx)) {
            glp_term_out(terminal);
            return km_error(KM_EINTERRUPTED, "interrupted in a linear program of the simplex solver");
        }
    }
    glp_term_out(terminal);
    return KM_OK;
}

/* Solves the LP at t into s->last: the first by the dual simplex from the slack basis (dual feasible: every
 * cost is >= 0), then by the primal simplex from the last optimal basis (a new t changes costs only, so it
 * stays primal feasible). */
static km_status solve_at(rank1_lp *s, double t)
{
    size_t d = s->d, n = s->n;
    for (size_t k = 0; k < 2 * d; k++)
        glp_set_obj_coef(s->lp, column_of_w(k), t);
    int ret;
    km_status st = run_simplex(s, s->basis ? GLP_PRIMAL : GLP_DUAL, &ret);
    if (!st && (ret != 0 || glp_get_status(s->lp) != GLP_OPT) && s->basis) {
        glp_std_basis(s->lp); /* a warm start GLPK refused: from scratch */
        st = run_simplex(s, GLP_DUAL, &ret);
    }
    if (st)
        return st;
    int status = glp_get_status(s->lp);
    if (ret != 0 || status != GLP_OPT)
        return km_error(KM_ENOTCONV, "the simplex solver's linear program failed at t = %g (GLPK return code %d, "
                                     "status %d)", t, ret, status);
    s->basis = 1;
    lp_point *p = &s->last;
    p->t = t;
    p->norm = 0;
    double shifted = 0;
    for (size_t k = 0; k < d; k++) {
        p->w[k] = glp_get_col_prim(s->lp, column_of_w(k)) - glp_get_col_prim(s->lp, column_of_w(d + k));
        p->norm += fabs(p->w[k]);
        shifted += p->w[k] * s->shift[k];
    }
    p->bias = (s->pr->machine->bias ? glp_get_col_prim(s->lp, column_of_bias(s)) : 0.0) - shifted;
    for (size_t i = 0; i < n; i++)
        p->alpha[i] = fmin(fmax(glp_get_row_dual(s->lp, (int)i + 1), 0.0), row_weight(s->pr->machine, i));
    return KM_OK;
}

static void copy_point(lp_point *to, const lp_point *from, size_t d, size_t n)
{
    to->t = from->t;
    to->norm = from->norm;
    to->bias = from->bias;
    memcpy(to->w, from->w, d * sizeof *to->w);
    memcpy(to->alpha, from->alpha, n * sizeof *to->alpha);
}

/* The dual point c = y alpha and its products K_k c and c'K_k c, which every certificate at it shares. */
static km_status dual_products(rank1_lp *s, const double *alpha)
{
    for (size_t i = 0; i < s->n; i++)
        s->coef[i] = s->pr->machine->y[i] * alpha[i];
    km_status st = km_kernel_products(s->pr, s->coef, s->h);
    if (!st)
        km_mkl_quadratic_terms(s->n, s->M, s->coef, s->h, s->a);
    return st;
}

/* Certifies the point of the last dual_products with theta_k = |w_k| / ||w||_1 (w: d values; none when all
 * are 0); keeps it when its gap is the smallest so far. */
static void certify(rank1_lp *s, const double *w, double bias)
{
    size_t M = s->M, d = s->d;
    double norm = 0;
    for (size_t k = 0; k < d; k++)
        norm += fabs(w[k]);
    if (!(norm > 0))
        return; /* no weights to certify */
    double *theta = s->pr->machine->kernel->theta;
    memset(theta, 0, M * sizeof *theta);
    for (size_t k = 0; k < d; k++)
        theta[s->kept[k]] = fabs(w[k]) / norm;
    km_mkl_certificate cert;
    km_mkl_certify(s->pr, s->coef, bias, s->a, s->h, &cert);
    if (isfinite(cert.gap) && (!s->have_best || cert.gap < s->best.gap)) {
        s->have_best = 1;
        s->best = cert;
        memcpy(s->best_coef, s->coef, s->n * sizeof *s->coef);
        memcpy(s->best_theta, theta, M * sizeof *theta);
    }
}

/* Certifies the newest solve and, with both ends of the bracket known, the combination of their points
 * whose l1-norm is the middle of the bracket, with both ends' duals: the newest solve's (one end) and
 * other's. */
static km_status certify_candidates(rank1_lp *s, const lp_point *other)
{
    km_status st = dual_products(s, s->last.alpha);
    if (st)
        return st;
    certify(s, s->last.w, s->last.bias);
    if (!s->have_lo || !s->have_hi)
        return KM_OK;
    const lp_point *lo = &s->lo, *hi = &s->hi;
    double target = 0.5 * (lo->t + hi->t), lambda = 1.0;
    if (lo->norm > hi->norm)
        lambda = fmin(fmax((target - hi->norm) / (lo->norm - hi->norm), 0.0), 1.0);
    for (size_t k = 0; k < s->d; k++)
        s->scratch_w[k] = lambda * lo->w[k] + (1 - lambda) * hi->w[k];
    double bias = lambda * lo->bias + (1 - lambda) * hi->bias;
    certify(s, s->scratch_w, bias);
    if (!(st = dual_products(s, other->alpha)))
        certify(s, s->scratch_w, bias);
    return st;
}

/* The next t: outside a bracket, the fixed-point guess phi(t), at least doubling or halving t (phi(t) = 0,
 * above every useful t: an eighth); inside one, the guess when it falls inside and the last step was no
 * guess, else the bracket's geometric middle (so the bracket halves at least every second step). */
static double next_t(const rank1_lp *s, int *guessed)
{
    const lp_point *p = &s->last;
    if (!s->have_lo)
        return p->norm > 0 ? fmin(p->norm, 0.5 * p->t) : 0.125 * p->t;
    if (!s->have_hi)
        return fmax(p->norm, 2.0 * p->t);
    if (!*guessed && p->norm > s->lo.t && p->norm < s->hi.t) {
        *guessed = 1;
        return p->norm;
    }
    *guessed = 0;
    return sqrt(s->lo.t * s->hi.t);
}

static km_status allocate(rank1_lp *s)
{
    size_t n = s->n, M = s->M;
    s->X = malloc(n * M * sizeof *s->X);
    s->kept = malloc(M * sizeof *s->kept);
    s->shift = calloc(M, sizeof *s->shift);
    s->coef = malloc(n * sizeof *s->coef);
    s->a = malloc(M * sizeof *s->a);
    s->h = malloc(n * M * sizeof *s->h);
    s->scratch_w = malloc(M * sizeof *s->scratch_w);
    s->best_coef = malloc(n * sizeof *s->best_coef);
    s->best_theta = malloc(M * sizeof *s->best_theta);
    int ok = s->X && s->kept && s->shift && s->coef && s->a && s->h && s->scratch_w && s->best_coef &&
             s->best_theta;
    lp_point *points[] = {&s->lo, &s->hi, &s->last};
    for (size_t j = 0; j < 3; j++) {
        points[j]->w = malloc(M * sizeof *points[j]->w);
        points[j]->alpha = malloc(n * sizeof *points[j]->alpha);
        ok = ok && points[j]->w && points[j]->alpha;
    }
    return ok ? KM_OK : km_error_nomem("the simplex solver");
}

static void release(rank1_lp *s)
{
    if (s->lp)
        glp_delete_prob(s->lp);
    free(s->X);
    free(s->kept);
    free(s->shift);
    free(s->coef);
    free(s->a);
    free(s->h);
    free(s->scratch_w);
    free(s->best_coef);
    free(s->best_theta);
    lp_point *points[] = {&s->lo, &s->hi, &s->last};
    for (size_t j = 0; j < 3; j++) {
        free(points[j]->w);
        free(points[j]->alpha);
    }
}

/* The features, their shifts (only where a bias absorbs them) and the LP. */
static km_status set_up(rank1_lp *s)
{
    km_status st = km_rank1_features(s->pr->machine->kernel, s->X, s->kept, &s->d);
    if (st)
        return st;
    if (s->d == 0)
        return km_error(KM_EINVAL, "every rank-1 kernel is 0 on the training rows: no weights to learn");
    if (s->pr->machine->bias) {
        double *sorted = s->h; /* n values of scratch */
        for (size_t k = 0; k < s->d; k++)
            s->shift[k] = most_frequent(s->X, s->n, s->d, k, sorted);
    }
    return build_lp(s);
}

/* Brackets and bisects t* until the best certified point meets the gap target or a limit is reached. */
static km_status iterate(rank1_lp *s, km_mkl_result *result)
{
    const km_mkl_problem *pr = s->pr;
    const km_machine_problem *machine = pr->machine;
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    double t = machine->C; /* |u_k| <= C_i ||x~_k|| sqrt(n): t* is at most of that order */
    int guessed = 0;
    for (long step = 1;; step++) {
        if (machine->solver.interrupted && machine->solver.interrupted(machine->solver.interrupt_ctx))
            return km_error(KM_EINTERRUPTED, "interrupted after %ld linear programs", step - 1);
        km_status st = solve_at(s, t);
        if (st)
            return st;
        result->mkl_iterations = step;
        const lp_point *other;
        if (s->last.norm >= t) {
            copy_point(&s->lo, &s->last, s->d, s->n);
            s->have_lo = 1;
            other = &s->hi;
        } else {
            copy_point(&s->hi, &s->last, s->d, s->n);
            s->have_hi = 1;
            other = &s->lo;
        }
        if ((st = certify_candidates(s, other)))
            return st;
        double elapsed = km_mkl_seconds_since(&start), gap = s->have_best ? s->best.gap : INFINITY;
        km_log(&pr->logger, KM_LOG_INFO, "simplex %4ld: t %.10g |w|_1 %.10g dual %.10g primal %.10g gap %.3e %.2fs",
               step, t, s->last.norm, s->best.dual, s->best.primal, gap, elapsed);
        if (s->have_best)
            km_mkl_report_certified(pr, step, s->best_theta, s->M, s->best.dual, s->best.primal, gap);
        if (gap <= pr->mkl.gap) {
            result->converged = 1;
            return KM_OK;
        }
        if (km_mkl_limit_reached(pr, step, elapsed, gap))
            return KM_OK;
        if (s->last.norm == t || (s->have_lo && s->have_hi && s->hi.t - s->lo.t <= BRACKET_FLOOR * s->hi.t)) {
            /* t* found to the LP's rounding with the gap still open: the LP's tolerances limit it */
            km_log(&pr->logger, KM_LOG_WARNING,
                   "l1-MKL (simplex): the gap %.3e stays above its target %g at the fixed point of t (%.10g)", gap,
                   pr->mkl.gap, t);
            return KM_OK;
        }
        t = next_t(s, &guessed);
    }
}

km_status km_mkl_rank1_lp(const km_mkl_problem *pr, km_mkl_result *result)
{
    const km_machine_problem *machine = pr->machine;
    if (machine->ops->task != KM_TASK_SVC)
        return km_error(KM_EINVAL, "the simplex solver trains C-SVC only (got %s)", machine->ops->name);
    if (!km_rank1_access(machine->kernel))
        return km_error(KM_EINVAL, "the simplex solver needs rank-1 kernels only (the rank1 kernel type)");
    rank1_lp s = {.pr = pr, .n = machine->kernel->n_rows, .M = machine->kernel->n_kernels};
    km_status st = allocate(&s);
    if (!st)
        st = set_up(&s);
    if (!st)
        st = iterate(&s, result);
    if (!st && !s.have_best)
        st = km_error(KM_ENOTCONV, "the simplex solver found no point to certify (w = 0 at every t)");
    if (!st) {
        memcpy(result->coef, s.best_coef, s.n * sizeof *result->coef);
        memcpy(machine->kernel->theta, s.best_theta, s.M * sizeof *s.best_theta);
        km_mkl_result_certified(result, &s.best);
        st = km_kernel_products(pr, result->coef, result->products);
        result->products_valid = !st;
    }
    release(&s);
    return st;
}

#else

km_status km_mkl_rank1_lp(const km_mkl_problem *pr, km_mkl_result *result)
{
    (void)pr;
    (void)result;
    return km_error(KM_EINVAL, "the simplex solver needs GLPK (built without GLPK)");
}

#endif
