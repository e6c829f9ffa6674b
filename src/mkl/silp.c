/* The cutting-plane solver (Kloft, "lp-Norm Multiple Kernel Learning", thesis App. D, Alg. D.1). Each round
 * solves the SVM at the master's theta (warm-started from the previous round), adds one cut, and asks the
 * master for the next theta and a bound on the optimum. It stops when the relative duality gap of the
 * certificate reaches the target; when the SVM value at the master's theta and the master's bound agree first,
 * |1 - D_theta / bound| < eps_mkl (thesis App. D), theta cannot improve and the run ends unconverged with a
 * warning (the SVM tolerance limits the certificate).
 *
 * Cuts. For block p <= 2, MKL is min over theta of SVM(theta) = max_alpha lin - theta . quad; every
 * solved alpha^r gives SVM(theta) >= lin^r - theta . quad^r for all theta, and the master
 * min_theta max_r (lin^r - theta . quad^r) is a lower bound on the optimum. For block p > 2, MKL is
 * max over theta (thesis Problem II.4). With eta_m = 1/theta_m, the SVM value
 * g(eta) = min_w 1/2 sum_m eta_m |w_m|^2 + L(w) is concave in eta (a minimum of linear functions),
 * sum_m theta_m^q <= 1 is ||eta||_{p/(p-2)} <= 1, and every primal point w^r gives
 * g(eta) <= L(w^r) + eta . omega^r, omega^r_m = 1/2 |w^r_m|^2; the master max_eta min_r (L^r + eta . omega^r)
 * is an upper bound on the optimum.
 *
 * Both masters are one problem. With cut data (b^r, v^r) = (lin^r, quad^r) or (-L^r, omega^r) and
 * weights u = theta or eta on the ball ||u||_{e*} <= 1, u >= 0, where e = p/(2(p-1)) or e = p/(p-2):
 *     F* = min_u max_r (b^r - u . v^r) = max_{mu in simplex} sum_r mu_r b^r - ||s(mu)||_e,
 *     s(mu) = sum_r mu_r v^r,   u_m = (s_m / ||s||_e)^{e-1}
 * (minimax over the simplex of cut weights; the inner minimum over u is -||s||_e by Hölder's
 * inequality). The bound is F* for p <= 2 and -F* for p > 2.
 *   p = 1 (e = inf): the LP master of thesis Alg. D.1, solved by GLPK's dual simplex, warm-started from the
 *     previous round's basis (presolve runs on the first solve only: GLPK's presolver discards the
 *     basis, and after a new cut the old basis stays dual feasible, which is what the dual simplex
 *     wants).
 *   p > 1: the dual master above (kernelmix's own), maximised over mu by projected gradient. The
 *     thesis instead keeps theta as the master's variables and replaces ||theta||_q^q <= 1 by its
 *     second-order Taylor model at the last theta, solves that QCQP (CPLEX), projects theta back onto the
 *     sphere and repeats 3-4 times. Both solve the same master min_theta max_r (lin^r - theta . quad^r) over the
 *     q-ball; the dual form here handles the ball exactly through Hölder's inequality, so it needs
 *     neither the Taylor model's re-expansion rounds nor a QCQP solver, and it also covers p > 2. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cblas.h>
#ifdef KM_HAVE_GLPK
#include <glpk.h>
#endif

#include "core/double_order.h"
#include "core/error.h"
#include "mkl/alternate.h"
#include "mkl/mkl.h"
#include "mkl/theta.h"

enum {
    MIN_KEPT_CUTS = 100,      /* keep at most max(100, 2 * active) cuts (SHOGUN) */
    MASTER_MAX_STEPS = 20000  /* projected-gradient steps per master solve */
};

/* The master problem and its cuts. Cut r keeps the coefficients c^r of its SVM solution: with the
 * master's cut weights mu, the mixture sum_r mu_r c^r is dual feasible (the feasible set is convex)
 * and, for p <= 2, its dual value is at least the master's bound F* (a_m is convex in c and ||.||_e
 * monotone), which certifies the final point with a gap near |1 - D_theta / bound| rather than the
 * slowly shrinking gap of the last SVM solution alone. */
typedef struct silp_master {
    size_t M, n;
    double p;                 /* block norm */
    double e;                 /* exponent of ||s||_e in the mu form */
    size_t count, capacity;   /* cuts, in the LP's row order */
    double *b, *v, *mu;       /* capacity, capacity * M (row r = v^r), capacity */
    double *coef;             /* capacity * n: c^r */
#ifdef KM_HAVE_GLPK
    glp_prob *lp;             /* p = 1: theta_1..theta_M in [0, 1], eta free; row 1: sum theta = 1 */
    int lp_solved;            /* a basis of an earlier solve is there to warm-start from */
    int *index;               /* M + 2 scratch (GLPK arrays are 1-based) */
    double *value;
#endif
} silp_master;

/* Removes cut r, keeping the order of the others (the LP's rows). */
static void remove_cut(silp_master *ms, size_t r)
{
    size_t M = ms->M, n = ms->n, after = ms->count - r - 1;
    memmove(ms->b + r, ms->b + r + 1, after * sizeof *ms->b);
    memmove(ms->mu + r, ms->mu + r + 1, after * sizeof *ms->mu);
    memmove(ms->v + r * M, ms->v + (r + 1) * M, after * M * sizeof *ms->v);
    memmove(ms->coef + r * n, ms->coef + (r + 1) * n, after * n * sizeof *ms->coef);
    ms->count--;
}

#ifdef KM_HAVE_GLPK
static km_status lp_init(silp_master *ms)
{
    size_t M = ms->M;
    ms->index = malloc((M + 2) * sizeof *ms->index);
    ms->value = malloc((M + 2) * sizeof *ms->value);
    if (!ms->index || !ms->value)
        return km_error_nomem("the SILP master");
    ms->lp = glp_create_prob();
    glp_set_obj_dir(ms->lp, GLP_MIN);
    glp_add_cols(ms->lp, (int)M + 1);
    for (size_t m = 1; m <= M; m++) {
        glp_set_col_bnds(ms->lp, (int)m, GLP_DB, 0.0, 1.0);
        ms->index[m] = (int)m;
        ms->value[m] = 1.0;
    }
    glp_set_col_bnds(ms->lp, (int)M + 1, GLP_FR, 0.0, 0.0);
    glp_set_obj_coef(ms->lp, (int)M + 1, 1.0);
    glp_add_rows(ms->lp, 1);
    glp_set_row_bnds(ms->lp, 1, GLP_FX, 1.0, 1.0);
    glp_set_mat_row(ms->lp, 1, (int)M, ms->index, ms->value);
    return KM_OK;
}

/* Cut row: sum_m quad_m theta_m + eta >= lin (a new row is basic, so the basis stays valid). */
static void lp_add_cut(silp_master *ms, double b, const double *v)
{
    size_t M = ms->M;
    int row = glp_add_rows(ms->lp, 1);
    for (size_t m = 1; m <= M + 1; m++) {
        ms->index[m] = (int)m;
        ms->value[m] = m <= M ? v[m - 1] : 1.0;
    }
    glp_set_row_bnds(ms->lp, row, GLP_LO, b, 0.0);
    glp_set_mat_row(ms->lp, row, (int)M + 1, ms->index, ms->value);
}

/* Drops inactive cuts (basic rows), largest slack first, while more than max(100, 2 active) remain. */
static void lp_prune(silp_master *ms)
{
    int rows = glp_get_num_rows(ms->lp), active = 0;
    for (int i = 2; i <= rows; i++)
        active += glp_get_row_stat(ms->lp, i) != GLP_BS;
    int keep = 2 * active > MIN_KEPT_CUTS ? 2 * active : MIN_KEPT_CUTS;
    while (rows - 1 > keep) {
        int worst = 0;
        double worst_slack = -INFINITY;
        for (int i = 2; i <= rows; i++) {
            double slack = glp_get_row_prim(ms->lp, i) - glp_get_row_lb(ms->lp, i);
            if (glp_get_row_stat(ms->lp, i) == GLP_BS && slack > worst_slack) {
                worst = i;
                worst_slack = slack;
            }
        }
        if (!worst)
            return;
        int num[2] = {0, worst};
        glp_del_rows(ms->lp, 1, num);
        remove_cut(ms, (size_t)worst - 2);
        rows--;
    }
}

static km_status lp_solve(silp_master *ms, double *theta, double *bound)
{
    glp_smcp parm;
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    parm.meth = GLP_DUALP;
    parm.presolve = ms->lp_solved ? GLP_OFF : GLP_ON;
    int terminal = glp_term_out(GLP_OFF); /* the library never prints; the caller's setting comes back */
    int ret = glp_simplex(ms->lp, &parm);
    /* the warm start failed, by a return code or by a status other than optimal on this always feasible
     * and bounded problem (GLPK has returned 0 with status GLP_NOFEAS): solve from scratch */
    if ((ret != 0 || glp_get_status(ms->lp) != GLP_OPT) && ms->lp_solved) {
        glp_std_basis(ms->lp);
        parm.presolve = GLP_ON;
        ret = glp_simplex(ms->lp, &parm);
    }
    glp_term_out(terminal);
    int status = glp_get_status(ms->lp);
    if (ret != 0 || status != GLP_OPT)
        return km_error(KM_ENOTCONV, "SILP master: GLPK's simplex failed (return code %d, status %d)", ret, status);
    ms->lp_solved = 1;
    /* cut weights: the duals of the cut rows (>= 0, summing to 1 through eta's column) */
    double total = 0;
    for (size_t r = 0; r < ms->count; r++)
        total += ms->mu[r] = fmax(glp_get_row_dual(ms->lp, (int)r + 2), 0.0);
    for (size_t r = 0; r < ms->count && total > 0; r++)
        ms->mu[r] /= total;
    for (size_t m = 0; m < ms->M; m++)
        theta[m] = fmin(fmax(glp_get_col_prim(ms->lp, (int)m + 1), 0.0), 1.0);
    *bound = glp_get_obj_val(ms->lp);
    lp_prune(ms);
    return KM_OK;
}
#endif

/* F(mu) = b . mu - ||s||_e with s = V' mu, the weights u = grad of ||s||_e and the gradient
 * g_r = b_r - u . v^r. */
static double master_objective(const silp_master *ms, const double *mu, double *s, double *u, double *g)
{
    size_t M = ms->M, t = ms->count;
    cblas_dgemv(CblasRowMajor, CblasTrans, (int)t, (int)M, 1.0, ms->v, (int)M, mu, 1, 0.0, s, 1);
    double norm = km_mkl_norm(M, ms->e, s);
    for (size_t m = 0; m < M; m++)
        u[m] = norm > 0 ? pow(s[m] / norm, ms->e - 1.0) : 0.0;
    memcpy(g, ms->b, t * sizeof *g);
    cblas_dgemv(CblasRowMajor, CblasNoTrans, (int)t, (int)M, -1.0, ms->v, (int)M, u, 1, 1.0, g, 1);
    return cblas_ddot((int)t, ms->b, 1, mu, 1) - norm;
}

/* Euclidean projection of x onto the probability simplex (sort-based, Duchi et al. 2008). */
static void project_simplex(double *x, size_t t, double *sorted)
{
    memcpy(sorted, x, t * sizeof *sorted);
    qsort(sorted, t, sizeof *sorted, km_double_descending);
    double sum = 0, shift = 0;
    for (size_t k = 0; k < t; k++) {
        sum += sorted[k];
        double candidate = (sum - 1.0) / (double)(k + 1);
        if (sorted[k] - candidate > 0)
            shift = candidate;
    }
    for (size_t k = 0; k < t; k++)
        x[k] = fmax(x[k] - shift, 0.0);
}

/* Drops cuts with mu_r = 0, largest slack F - g_r first, while more than max(100, 2 active) remain. */
static void mu_prune(silp_master *ms, double F, const double *g)
{
    size_t active = 0;
    for (size_t r = 0; r < ms->count; r++)
        active += ms->mu[r] > 0;
    size_t keep = 2 * active > MIN_KEPT_CUTS ? 2 * active : MIN_KEPT_CUTS;
    double *slack = malloc(ms->count * sizeof *slack);
    if (!slack)
        return; /* pruning only saves time */
    for (size_t r = 0; r < ms->count; r++)
        slack[r] = F - g[r];
    while (ms->count > keep) {
        size_t worst = ms->count;
        for (size_t r = 0; r < ms->count; r++)
            if (ms->mu[r] == 0 && (worst == ms->count || slack[r] > slack[worst]))
                worst = r;
        if (worst == ms->count)
            break;
        memmove(slack + worst, slack + worst + 1, (ms->count - worst - 1) * sizeof *slack);
        remove_cut(ms, worst);
    }
    free(slack);
}

/* Appends a cut with weight 0 (the first one gets weight 1): the previous optimum warm-starts the
 * mu form. */
static km_status store_cut(silp_master *ms, double b, const double *v, const double *coef)
{
    size_t M = ms->M, n = ms->n;
    if (ms->count == ms->capacity) {
        size_t capacity = ms->capacity ? 2 * ms->capacity : 64;
        double *nb = realloc(ms->b, capacity * sizeof *nb);
        if (nb)
            ms->b = nb;
        double *nmu = realloc(ms->mu, capacity * sizeof *nmu);
        if (nmu)
            ms->mu = nmu;
        double *nv = realloc(ms->v, capacity * M * sizeof *nv);
        if (nv)
            ms->v = nv;
        double *nc = realloc(ms->coef, capacity * n * sizeof *nc);
        if (nc)
            ms->coef = nc;
        if (!nb || !nmu || !nv || !nc)
            return km_error_nomem("the SILP cuts");
        ms->capacity = capacity;
    }
    ms->b[ms->count] = b;
    ms->mu[ms->count] = ms->count == 0 ? 1.0 : 0.0;
    memcpy(ms->v + ms->count * M, v, M * sizeof *v);
    memcpy(ms->coef + ms->count * n, coef, n * sizeof *coef);
    ms->count++;
    return KM_OK;
}

/* Projected gradient ascent on F over the simplex, with backtracking on the quadratic model
 * F(mu') >= F(mu) + g.(mu' - mu) - |mu' - mu|^2 / (2 step), until the Frank-Wolfe gap
 * max_r g_r - g.mu (a bound on F* - F(mu)) is negligible. Each solve starts from step 1: a step
 * carried over from the last solve can have shrunk by backtracking near that solve's optimum
 * (to 1e-18 seen), and a new cut then leaves the master unable to move. */
static km_status mu_solve(silp_master *ms, double *theta, double *bound)
{
    size_t M = ms->M, t = ms->count;
    double *work = malloc((2 * M + 4 * t) * sizeof *work);
    if (!work)
        return km_error_nomem("the SILP master");
    double *s = work, *u = s + M, *g = u + M, *g_trial = g + t, *trial = g_trial + t, *sorted = trial + t;
    double F = master_objective(ms, ms->mu, s, u, g), step = 1.0;
    for (long k = 0; k < MASTER_MAX_STEPS; k++) {
        double best = -INFINITY;
        for (size_t r = 0; r < t; r++)
            best = fmax(best, g[r]);
        if (best - cblas_ddot((int)t, g, 1, ms->mu, 1) <= 1e-13 * (1.0 + fabs(F)))
            break;
        double F_trial = -INFINITY;
        for (;;) {
            for (size_t r = 0; r < t; r++)
                trial[r] = ms->mu[r] + step * g[r];
            project_simplex(trial, t, sorted);
            double model = F, dd = 0;
            for (size_t r = 0; r < t; r++) {
                double d = trial[r] - ms->mu[r];
                model += g[r] * d;
                dd += d * d;
            }
            F_trial = master_objective(ms, trial, s, u, g_trial);
            if (F_trial >= model - dd / (2.0 * step) || step < 1e-300)
                break;
            step *= 0.5;
        }
        if (!(F_trial >= F))
            break; /* no more progress in floating point */
        memcpy(ms->mu, trial, t * sizeof *trial);
        memcpy(g, g_trial, t * sizeof *g);
        F = F_trial;
        step *= 2.0;
    }
    F = master_objective(ms, ms->mu, s, u, g);
    if (km_mkl_norm(M, ms->e, s) > 0) {
        if (ms->p <= 2) {
            memcpy(theta, u, M * sizeof *u);
        } else {
            /* theta = 1/eta; eta_m = 0 (a kernel with w_m = 0 in every cut) is floored, as kernelmix floors
             * weights (theta.h) */
            double top = 0;
            for (size_t m = 0; m < M; m++)
                top = fmax(top, u[m]);
            for (size_t m = 0; m < M; m++)
                theta[m] = 1.0 / fmax(u[m], 1e-6 * top);
        }
    }
    *bound = ms->p <= 2 ? F : -F;
    mu_prune(ms, F, g);
    free(work);
    return KM_OK;
}

static km_status master_init(silp_master *ms, size_t M, size_t n, double p)
{
    memset(ms, 0, sizeof *ms);
    ms->M = M;
    ms->n = n;
    ms->p = p;
    ms->e = p <= 2 ? p / (2.0 * (p - 1.0)) : p / (p - 2.0);
    if (p != 1.0)
        return KM_OK;
#ifdef KM_HAVE_GLPK
    return lp_init(ms);
#else
    return km_error(KM_EINVAL, "the SILP solver for p = 1 needs GLPK (built without GLPK)");
#endif
}

static void master_free(silp_master *ms)
{
#ifdef KM_HAVE_GLPK
    if (ms->lp)
        glp_delete_prob(ms->lp);
    free(ms->index);
    free(ms->value);
#endif
    free(ms->b);
    free(ms->v);
    free(ms->mu);
    free(ms->coef);
}

static km_status master_add_cut(silp_master *ms, double b, const double *v, const double *coef)
{
    km_status st = store_cut(ms, b, v, coef);
#ifdef KM_HAVE_GLPK
    if (!st && ms->lp)
        lp_add_cut(ms, b, v);
#endif
    return st;
}

/* The mixture sum_r mu_r c^r of the cuts' solutions. */
static void master_mixture(const silp_master *ms, double *coef)
{
    /* divided by sum mu, which rounding leaves off 1 (1 + 7.5e-9 seen): a convex combination stays in the
     * box, where a mixture above C would certify a dual value above the optimum */
    double total = 0;
    for (size_t r = 0; r < ms->count; r++)
        total += ms->mu[r];
    cblas_dgemv(CblasRowMajor, CblasTrans, (int)ms->count, (int)ms->n, 1.0 / total, ms->coef, (int)ms->n, ms->mu, 1,
                0.0, coef, 1);
}

static km_status master_solve(silp_master *ms, double *theta, double *bound)
{
#ifdef KM_HAVE_GLPK
    if (ms->lp)
        return lp_solve(ms, theta, bound);
#endif
    return mu_solve(ms, theta, bound);
}

/* The cut of a solved round from a_m (the certificate's scaling, mkl.h) and the certificate: (lin, a/2) for
 * p <= 2, (-L, |w_m|^2 / 2) with |w_m| = theta_m sqrt(a_m) and L = P - 1/2 ||w||_{2,p}^2 for p > 2. */
static double cut_of(const km_mkl_problem *pr, const double *a, const km_mkl_certificate *cert, double *v)
{
    size_t M = pr->machine->kernel->n_kernels;
    double p = pr->mkl.p_block;
    if (p <= 2) {
        for (size_t m = 0; m < M; m++)
            v[m] = 0.5 * fmax(a[m], 0.0);
        return cert->lin;
    }
    for (size_t m = 0; m < M; m++)
        v[m] = a[m] > 0 ? pr->machine->kernel->theta[m] * sqrt(a[m]) : 0.0; /* block norms first */
    double loss = cert->primal - 0.5 * km_block_norm_squared(M, p, v);
    for (size_t m = 0; m < M; m++)
        v[m] = 0.5 * v[m] * v[m];
    return -loss;
}

/* Dual value of the mixture of the cuts' solutions (the certificate's scaling), a lower bound on the optimum
 * for p <= 2 (see silp_master). */
static km_status mixture_dual(const km_mkl_problem *pr, const silp_master *ms, double *coef, double *h, double *a,
                              double *dual)
{
    size_t n = pr->machine->kernel->n_rows, M = pr->machine->kernel->n_kernels;
    master_mixture(ms, coef);
    km_status st = km_mkl_products(pr, coef, h);
    if (st)
        return st;
    km_mkl_quadratic_terms(n, M, coef, h, a);
    km_mkl_certificate cert;
    km_mkl_certify(pr, coef, 0.0, a, h, &cert);
    *dual = cert.dual;
    return KM_OK;
}

/* The rounds' state: the master, the buffers of the last solve, the best dual value so far. */
typedef struct silp {
    km_alternating_state last;   /* first: km_alternating_evaluate's state */
    silp_master master;
    double scale;                /* one-class: cuts in the certificate's scaling c / (nu n) */
    double *v, *mixture;
    double b;                    /* the cut of the last solve: b - u . v */
    double bound, best_dual;     /* the master's bound on the optimum; the largest certified dual */
    int agreed;                  /* the SVM value at the master's theta meets its bound (thesis App. D) */
} silp;

static km_status silp_certify(void *ctx, long t, double elapsed, km_certified_values *out)
{
    silp *s = ctx;
    const km_mkl_problem *pr = s->last.pr;
    const km_kernel_access *k = pr->machine->kernel;
    size_t M = k->n_kernels;
    km_mkl_result *result = s->last.result;
    km_mkl_certificate cert;
    km_mkl_certify(pr, result->coef, result->bias, s->last.a, s->last.h, &cert);
    double svm_value = cert.lin; /* D_theta: the SVM dual value at the master's theta */
    for (size_t m = 0; m < M; m++) {
        s->last.a[m] *= s->scale * s->scale;
        svm_value -= 0.5 * k->theta[m] * s->last.a[m];
    }
    s->b = cut_of(pr, s->last.a, &cert, s->v);
    s->best_dual = fmax(s->best_dual, cert.dual);
    if (t > 1 && pr->mkl.p_block <= 2 && (cert.primal - s->best_dual) / fabs(cert.primal) > pr->mkl.gap) {
        double dual;
        km_status st = mixture_dual(pr, &s->master, s->mixture, s->last.h, s->last.a, &dual);
        s->last.h_at_coef = 0;   /* h now holds the mixture's products */
        if (st)
            return st;
        s->best_dual = fmax(s->best_dual, dual);
    }
    result->bias = cert.bias;
    result->dual = s->best_dual;
    result->primal = cert.primal;
    result->gap = (cert.primal - s->best_dual) / fabs(cert.primal);
    *out = (km_certified_values){result->dual, result->primal, result->gap, cert.svm_share};
    double agreement = fabs(1.0 - svm_value / s->bound);
    km_log(&pr->logger, KM_LOG_INFO,
           "silp %4ld: dual %.10g primal %.10g gap %.3e master bound %.10g active kernels %zu/%zu %.2fs", t,
           s->best_dual, cert.primal, result->gap, s->bound, km_mkl_count_active(k->theta, M), M, elapsed);
    /* the master's theta cannot improve once the SVM value meets its bound: with the gap still open the
     * SVM tolerance limits the certificate, and the step reports a fixed point */
    s->agreed = agreement < pr->mkl.eps_mkl;
    return KM_OK;
}

static km_status silp_step(void *ctx, const double *theta_used, km_weight_move *move)
{
    silp *s = ctx;
    const km_kernel_access *k = s->last.pr->machine->kernel;
    if (s->agreed) {
        *move = KM_AT_FIXED_POINT;
        return KM_OK;
    }
    km_status st = master_add_cut(&s->master, s->b, s->v, s->last.result->coef);
    if (!st)
        st = master_solve(&s->master, k->theta, &s->bound);
    *move = km_theta_moved(k->n_kernels, theta_used, k->theta) ? KM_MOVED : KM_AT_FIXED_POINT;
    return st;
}

km_status km_mkl_silp(const km_mkl_problem *pr, km_mkl_result *result)
{
    const km_kernel_access *k = pr->machine->kernel;
    size_t n = k->n_rows, M = k->n_kernels;
    silp s = {.last = {.pr = pr, .result = result}, .bound = NAN, .best_dual = -INFINITY,
              .scale = pr->machine->ops->certificate_scale(pr->machine)};
    s.last.h = malloc(n * M * sizeof *s.last.h);
    s.last.a = malloc(M * sizeof *s.last.a);
    s.v = malloc(M * sizeof *s.v);
    s.mixture = malloc(n * sizeof *s.mixture);
    int allocated = s.last.h && s.last.a && s.v && s.mixture;
    km_status st = allocated ? master_init(&s.master, M, n, pr->mkl.p_block) : km_error_nomem("the SILP solver");
    km_alternating_solver solver = {&s, km_alternating_evaluate, silp_certify, silp_step, "fixed",
                                    &result->tolerance};
    if (!st)
        st = km_mkl_alternate(pr, k->theta, M, &solver, &result->mkl_iterations, &result->converged);
    if (allocated)
        master_free(&s.master);
    free(s.last.h);
    free(s.last.a);
    free(s.v);
    free(s.mixture);
    return st;
}
