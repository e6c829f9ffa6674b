/* Localized MKL with a gating model (LMKL; Gonen & Alpaydin, "Localized Multiple Kernel Learning"),
 * the non-convex baseline of Lei, Binder, Dogan & Kloft (Supp. D), kernelized: every kernel m gets the
 * gate eta_m(x) = softmax_m(z_m(x)), z_m(x) = sum_i r_im k_0(x_i, x) + v_m, and the machine is the SVM
 * on
 *     k_eta(x, x') = sum_m eta_m(x) k_m(x, x') eta_m(x'),
 * the localized kernel (clmkl.h) with one group per kernel and weights 1 on the diagonal. J, the SVM's
 * optimal dual value at eta, is minimized over (r, v) by gradient descent; with a_i the signed
 * coefficients, B_im = sum_i' a_i' K_m[i,i'] eta_m(x_i') and A_i = sum_m eta_m(x_i) B_im,
 *     dJ/dz_m(x_i) = g_im = -a_i eta_m(x_i) (B_im - A_i)        (Eq. D.2),
 * the step r_im -= mu g_im, v_m -= mu sum_i g_im descends J in the gating's RKHS (both signs descend;
 * the paper's v update has the sign of an ascent). mu by Armijo backtracking (at most 20 halvings,
 * each a new SVM solve); stop when J moves by at most 1e-4 relative, or after max-outer (at most 200)
 * steps. Starts from r = 0, v = 0: uniform gates. The model's gap is the last relative change of J
 * (the problem is not convex: there is no duality certificate). */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/error.h"
#include "mkl/clmkl.h"
#include "mkl/lmkl.h"
#include "mkl/method.h"
#include "svm/interruptible_access.h"

#define LMKL_MAX_STEPS 200
#define LMKL_RELATIVE_CHANGE 1e-4
#define LMKL_HALVINGS 20
#define LMKL_ARMIJO 1e-4

static km_status lmkl_resolve(const km_mkl_params *in, km_mkl_params *out)
{
    *out = *in;
    out->p = out->p_block = 2; /* the gates carry the weights; no norm constraint */
    if (in->cluster_only && in->cluster_kernel == 0)
        return km_error(KM_EINVAL, "a gating-only kernel needs its index (cluster kernel 0 is the mean)");
    if (in->max_outer <= 0)
        return km_error(KM_EINVAL, "max-outer must be positive (got %ld)", in->max_outer);
    out->solver = KM_MKL_WRAPPER;
    return KM_OK;
}

static size_t lmkl_groups(const km_mkl_params *mkl, size_t M)
{
    (void)mkl;
    return M;
}

km_status km_lmkl_gradient(const km_kernel_access *k, const double *gated, const double *eta, const double *a,
                           double *g)
{
    size_t n = k->n_rows, M = k->n_kernels;
    double *B = calloc(n * M, sizeof *B), *column = malloc(n * sizeof *column);
    km_status st = B && column ? KM_OK : km_error_nomem("the LMKL gradient");
    for (size_t s = 0; !st && s < n; s++) {
        if (a[s] == 0.0)
            continue;
        for (size_t m = 0; !st && m < M; m++) {
            if (gated[m] == 0 || eta[s * M + m] == 0.0)
                continue;
            st = k->column(k->column_ctx, m, s, NULL, n, column);
            for (size_t i = 0; !st && i < n; i++)
                B[i * M + m] += a[s] * eta[s * M + m] * column[i];
        }
    }
    for (size_t i = 0; !st && i < n; i++) {
        double A = 0;
        for (size_t m = 0; m < M; m++)
            A += eta[i * M + m] * B[i * M + m];
        for (size_t m = 0; m < M; m++)
            g[i * M + m] = -a[i] * eta[i * M + m] * (B[i * M + m] - A);
    }
    free(B);
    free(column);
    return st;
}

/* The state of one descent: the problem, the gating and what a solve gives. */
typedef struct lmkl_state {
    const km_mkl_problem *pr;
    km_localized_access *access;
    km_machine_problem machine;  /* the SVM on k_eta */
    size_t n, M;
    const double *K0, *gated;
    double *r, *v, *eta;         /* n M, M, n M */
    km_mkl_result *result;
} lmkl_state;

/* The gates at (r, v), the SVM on k_eta warm-started from result->coef, and J. */
static km_status solve_at(lmkl_state *s, const double *r, const double *v, double *J)
{
    km_gates(s->K0, s->n, s->n, s->M, r, v, s->gated, s->eta);
    km_localized_access_set_memberships(s->access, s->eta);
    km_svm_solution solution = {.coef = s->result->coef};
    km_status st = s->machine.ops->solve(&s->machine, &s->machine.solver, &solution);
    if (st)
        return st;
    s->result->bias = solution.bias;
    s->result->smo_iterations += solution.iterations;
    *J = -solution.objective; /* LIBSVM minimizes -J */
    return KM_OK;
}

/* Step t to the caller's progress: the objective J and, as the step's weights, each kernel's gate
 * eta_m(x) averaged over the training rows (mean_gate: M values of scratch). */
static void report_step(const lmkl_state *s, long t, double J, double *mean_gate)
{
    for (size_t m = 0; m < s->M; m++) {
        double sum = 0;
        for (size_t i = 0; i < s->n; i++)
            sum += s->eta[i * s->M + m];
        mean_gate[m] = sum / (double)s->n;
    }
    km_mkl_step_record record = km_mkl_step_record_of(t, mean_gate, s->M);
    record.objective = J;
    km_mkl_report_step(s->pr, &record);
}

/* Rows of (K0 + 1 1') g per poll of the interrupt: each row is n M products. */
#define LMKL_POLL_ROWS 256

/* Whether to stop before the next solve or pass (a warm-started solve may end before the solver's own
 * poll): KM_EINTERRUPTED when the caller asked; *timed_out = 1 past the deadline of --max-time (not
 * checked when timed_out is NULL). */
static km_status check_stop(const lmkl_state *s, long t, int *timed_out)
{
    const km_smo_options *solver = &s->pr->machine->solver;
    if (solver->interrupted && solver->interrupted(solver->interrupt_ctx))
        return km_error(KM_EINTERRUPTED, "interrupted after %ld LMKL steps", t);
    if (timed_out && solver->deadline > 0 && km_monotonic_seconds() >= solver->deadline)
        *timed_out = 1;
    return KM_OK;
}

/* Hg = (K0 + 1 1') g, the change of z along the step -g (in r) and -sum_i g (in v); *slope = <g, Hg>,
 * *largest = max |Hg|. Polls the interrupt every LMKL_POLL_ROWS rows. */
static km_status direction(const lmkl_state *s, long t, const double *g, double *Hg, double *slope, double *largest)
{
    size_t n = s->n, M = s->M;
    *slope = *largest = 0;
    for (size_t i = 0; i < n; i++) {
        km_status st = i % LMKL_POLL_ROWS == 0 ? check_stop(s, t, NULL) : KM_OK;
        if (st)
            return st;
        for (size_t m = 0; m < M; m++) {
            double h = 0;
            for (size_t k = 0; k < n; k++)
                h += (s->K0[i * n + k] + 1.0) * g[k * M + m];
            Hg[i * M + m] = h;
            *slope += g[i * M + m] * h;
            *largest = fmax(*largest, fabs(h));
        }
    }
    return KM_OK;
}

/* Gradient steps with Armijo backtracking until J settles. */
static km_status descend(lmkl_state *s)
{
    size_t n = s->n, M = s->M;
    double *g = malloc(n * M * sizeof *g), *Hg = malloc(n * M * sizeof *Hg), *r_new = malloc(n * M * sizeof *r_new);
    double *v_new = malloc(M * sizeof *v_new), *coef = malloc(n * sizeof *coef), J, mu = 0, change = 0;
    double *mean_gate = malloc(M * sizeof *mean_gate);
    km_status st = g && Hg && r_new && v_new && coef && mean_gate ? KM_OK : km_error_nomem("the LMKL descent");
    if (!st)
        st = solve_at(s, s->r, s->v, &J);
    long limit = s->pr->mkl.max_outer < LMKL_MAX_STEPS ? s->pr->mkl.max_outer : LMKL_MAX_STEPS, t = 0, taken = 0;
    const km_smo_options *solver = &s->pr->machine->solver;
    /* the gradient's kernel columns (up to n M) poll the interrupt */
    km_interruptible_access polled;
    km_interruptible_access_init(&polled, s->pr->machine->kernel, solver->interrupted, solver->interrupt_ctx,
                                 "the LMKL gradient");
    int timed_out = 0;
    for (; !st && t < limit; t++) {
        if ((st = check_stop(s, t, &timed_out)) || timed_out)
            break;
        if ((st = km_lmkl_gradient(&polled.access, s->gated, s->eta, s->result->coef, g)))
            break;
        double slope, largest;
        if ((st = direction(s, t, g, Hg, &slope, &largest)))
            break;
        if (!(slope > 0))
            break;
        mu = mu > 0 ? 2 * mu : 1.0 / largest; /* first step moves z by at most 1 */
        memcpy(coef, s->result->coef, n * sizeof *coef);
        double J_new = J;
        int accepted = 0;
        for (int h = 0; !st && h <= LMKL_HALVINGS && !accepted; h++, mu /= 2) {
            if ((st = check_stop(s, t, &timed_out)) || timed_out)
                break;
            for (size_t m = 0; m < M; m++) {
                double sum = 0;
                for (size_t i = 0; i < n; i++) {
                    r_new[i * M + m] = s->r[i * M + m] - mu * g[i * M + m];
                    sum += g[i * M + m];
                }
                v_new[m] = s->v[m] - mu * sum;
            }
            memcpy(s->result->coef, coef, n * sizeof *coef);
            st = solve_at(s, r_new, v_new, &J_new);
            accepted = !st && J_new <= J - LMKL_ARMIJO * mu * slope;
        }
        if (st || timed_out || !accepted)
            break;
        mu *= 2; /* the loop halved once past the accepted step */
        taken++;
        memcpy(s->r, r_new, n * M * sizeof *r_new);
        memcpy(s->v, v_new, M * sizeof *v_new);
        change = fabs(J - J_new) / fmax(fabs(J_new), DBL_MIN);
        km_log(&s->pr->logger, KM_LOG_INFO, "lmkl %4ld: J %.10g step %.3g", t + 1, J_new, mu);
        report_step(s, t + 1, J_new, mean_gate);
        J = J_new;
        if (change <= LMKL_RELATIVE_CHANGE)
            break;
    }
    if (timed_out)
        km_log(&s->pr->logger, KM_LOG_WARNING, "LMKL stopped at the time limit after %ld steps", t);
    if (!st) /* the solution at the kept gating (a rejected trial may have moved coef and eta) */
        st = solve_at(s, s->r, s->v, &J);
    s->result->mkl_iterations = taken; /* the accepted steps (t misses the one that met the tolerance) */
    s->result->converged = t < limit && !timed_out;
    s->result->dual = s->result->primal = J;
    s->result->gap = NAN; /* not convex: no duality gap; converged is the tolerance on J's relative change */
    free(g);
    free(Hg);
    free(r_new);
    free(v_new);
    free(coef);
    free(mean_gate);
    return st;
}

/* The gating into the record (clmkl.h) and the machine's weights: group m is kernel m alone. */
static km_status store(const lmkl_state *s)
{
    size_t n = s->n, M = s->M;
    km_record *record = s->pr->record;
    const char *sec = KM_CLMKL_SECTION;
    km_status st;
    if ((st = km_record_set_values(record, sec, "gating", n, M, s->r)) ||
        (st = km_record_set_values(record, sec, "gating_bias", M, 1, s->v)) ||
        (st = km_record_set_values(record, sec, "gated", M, 1, s->gated)) ||
        (st = km_record_set_values(record, sec, "memberships", n, M, s->eta)) ||
        (st = km_record_set_scalar(record, sec, "cluster_kernel", (double)s->pr->mkl.cluster_kernel)) ||
        (st = km_record_set_scalar(record, sec, "cluster_only", s->pr->mkl.cluster_only)))
        return st;
    double *theta = s->pr->machine->kernel->theta;
    for (size_t j = 0; j < M; j++)
        for (size_t m = 0; m < M; m++)
            theta[j * M + m] = j == m && s->gated[m] != 0 ? 1.0 : 0.0;
    return KM_OK;
}

static km_status lmkl_train(const km_mkl_problem *pr, km_mkl_result *result)
{
    const km_kernel_access *k = pr->machine->kernel;
    size_t n = k->n_rows, M = k->n_kernels;
    if (km_record_values(pr->record, KM_CLMKL_SECTION, "gating", NULL, NULL))
        return km_error(KM_EINVAL, "--mkl lmkl trains one machine (binary classification or regression)");
    if ((pr->mkl.cluster_kernel > (long)M) || (pr->mkl.cluster_only && M < 2))
        return km_error(KM_EINVAL, "the gating kernel %ld does not leave a kernel of the %zu to gate",
                        pr->mkl.cluster_kernel, M);
    lmkl_state s = {.pr = pr, .machine = *pr->machine, .n = n, .M = M, .result = result};
    double *K0 = malloc(n * n * sizeof *K0), *gated = malloc(M * sizeof *gated), *column = malloc(n * sizeof *column);
    double *ones = malloc(M * M * sizeof *ones);
    size_t *all = malloc(M * sizeof *all);
    s.r = calloc(n * M, sizeof *s.r);
    s.v = calloc(M, sizeof *s.v);
    s.eta = malloc(n * M * sizeof *s.eta);
    km_status st = K0 && gated && column && ones && all && s.r && s.v && s.eta ? KM_OK : km_error_nomem("LMKL");
    for (size_t m = 0; !st && m < M; m++) {
        gated[m] = !(pr->mkl.cluster_only && m + 1 == (size_t)pr->mkl.cluster_kernel);
        all[m] = m;
        for (size_t j = 0; j < M; j++)
            ones[j * M + m] = j == m;
    }
    s.K0 = K0;
    s.gated = gated;
    km_interruptible_access polled; /* n columns per gating kernel */
    km_interruptible_access_init(&polled, k, pr->machine->solver.interrupted, pr->machine->solver.interrupt_ctx,
                                 "the gating kernel");
    if (!st)
        st = km_clustering_gram(&polled.access, &pr->mkl, K0, column);
    if (!st) {
        km_gates(K0, n, n, M, s.r, s.v, gated, s.eta);
        st = km_localized_access_new(k, all, M, M, s.eta, ones, &s.access);
    }
    if (!st) {
        s.machine.kernel = km_localized_access_kernels(s.access);
        st = descend(&s);
    }
    if (!st)
        st = store(&s);
    km_localized_access_free(s.access);
    free(K0);
    free(gated);
    free(column);
    free(ones);
    free(all);
    free(s.r);
    free(s.v);
    free(s.eta);
    return st;
}

const km_mkl_method_entry km_method_lmkl = {
    .id = KM_MKL_LMKL, .name = "lmkl",
    .help = "Gonen & Alpaydin's gated localized MKL (not convex; the baseline of Lei et al.): softmax "
            "gates per kernel on the --cluster-kernel, learned by gradient descent (at most 200 steps "
            "of --max-outer)",
    .flags = KM_METHOD_LEARNS_WEIGHTS,
    .params = (const km_param[]){KM_PARAM_CLUSTER_KERNEL, KM_PARAM_CLUSTER_ONLY, KM_PARAM_MKL_MAX_OUTER,
                                 KM_PARAM_MKL_MAX_TIME, 0},
    .resolve = lmkl_resolve,
    .train = lmkl_train,
    .weight_groups = lmkl_groups,
};
