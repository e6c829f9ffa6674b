/* The Tikhonov form's alternation (blocknorm.c has its formulas): solve the machine at d, certify the
 * point, step d = 1/(2 g'(||f_m||^2)) (km_tikhonov_step), in km_mkl_alternate's loop; the step is
 * extrapolated by SQUAREM (squarem.h).
 *
 * The elastic net (lambda > 0) keeps a working set: the kernels with d_m > 0. A kernel with d_m = 0
 * takes no part in the machine, and no step moves it (zero weights are absorbing), so its products
 * K_m c are needed only where the point is certified: a step computes them for the working set alone,
 * which makes its cost proportional to the active kernels (the idea of Suzuki & Tomioka's SpicyMKL,
 * "SpicyMKL: a fast algorithm for multiple kernel learning with thousands of kernels", Machine
 * Learning 85, 2011, whose inner steps touch only the active kernels; here kept inside the alternation).
 * The rules, from the elastic net's optimality conditions (derived here; Tomioka & Suzuki eq. (6) with
 * Table 1's elastic-net row): at the optimum d_m = 0 exactly where sqrt(a_m) <= 1 - lambda, a_m = c'K_m c.
 *  - A kernel of the working set whose sqrt(a_m) is below 1 - lambda, and whose weight is already small
 *    (KM_WORKING_SET_FLOOR), leaves it (d_m = 0): the step would only shrink it further towards 0,
 *    which is the slow tail of the alternation.
 *  - The point is certified over all kernels when the gap on the working set (the dual without the
 *    other kernels' terms) meets the target, when the objective settles, at the last iteration, and
 *    whenever the working set is every kernel. There, every kernel outside with sqrt(a_m) > 1 - lambda
 *    enters with the weight it would take alone at this c: the fixed point of its step,
 *    d_m = (sqrt(a_m) - (1 - lambda)) / (lambda sqrt(a_m)).
 * Between certified points the progress reports no gap (the working set's gap is no bound on the
 * problem's): every gap reported is over all kernels, at the point it was computed at. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "mkl/alternate.h"
#include "mkl/mkl.h"
#include "mkl/squarem.h"
#include "mkl/theta.h"

/* A kernel still shrinking (sqrt(a_m) < 1 - lambda) leaves the working set once its weight is below this
 * fraction of the largest: far from the optimum every a_m may be small (the sum of all kernels at the
 * start), so the threshold alone would drop nearly every kernel, only for them to enter again. */
#define KM_WORKING_SET_FLOOR 1e-3

/* J and D at the SVM solution (coef, bias) on the current d: the loss (with the bias refined as the
 * certificate refines it) comes from the certificate of the uniform block-2 problem at theta = d, whose
 * primal is 1/2 sum |f_m|^2 + loss and whose lin is the task's. Kernels whose a_m are 0 in a (not
 * computed) add nothing to D. */
static void tikhonov_values(const km_mkl_problem *pr, const double *coef, double bias, const double *a,
                            const double *h, double *block_norm, km_mkl_result *result)
{
    const km_kernel_access *k = pr->machine->kernel;
    size_t M = k->n_kernels;
    km_mkl_problem uniform = *pr;
    uniform.mkl.method = KM_MKL_LP;
    uniform.mkl.p_block = 2.0;
    km_mkl_certificate cert;
    km_mkl_certify(&uniform, coef, bias, a, h, &cert);
    for (size_t m = 0; m < M; m++)
        block_norm[m] = a[m] > 0 ? k->theta[m] * sqrt(a[m]) : 0.0;
    double loss = cert.primal - 0.5 * km_block_norm_squared(M, 2.0, block_norm);
    result->bias = cert.bias;
    result->primal = km_tikhonov_penalty(&pr->mkl, M, block_norm) + loss;
    result->dual = km_tikhonov_dual(&pr->mkl, M, cert.lin, a);
    result->gap = (result->primal - result->dual) / fabs(result->primal);
}

/* The alternation's state: buffers at the last solve and the objective before it. */
typedef struct tikhonov {
    km_alternating_state last;   /* first: the loop's state; h and a hold the known kernels' values */
    double *block_norm;
    unsigned char *known;        /* M flags: K_m c and a_m are those of the last solve (else 0) */
    int working_set;             /* the elastic net with lambda > 0 (see the top of this file) */
    double previous;             /* J at the solve before (the working set's check, SQUAREM) */
    km_squarem q;                /* the step's extrapolation (squarem.h) */
} tikhonov;

static size_t known_count(const tikhonov *s, size_t M)
{
    size_t count = 0;
    for (size_t m = 0; m < M; m++)
        count += s->known[m];
    return count;
}

/* Solves at the current d and computes the products of the working set (every kernel without one). */
static km_status tikhonov_evaluate(void *ctx)
{
    tikhonov *s = ctx;
    const km_mkl_problem *pr = s->last.pr;
    const km_kernel_access *k = pr->machine->kernel;
    size_t n = k->n_rows, M = k->n_kernels;
    km_status st = km_mkl_solve(pr, s->last.result);
    for (size_t m = 0; m < M; m++) {
        s->known[m] = !s->working_set || k->theta[m] > 0;
        if (!s->known[m])
            memset(s->last.h + m * n, 0, n * sizeof *s->last.h);
    }
    if (!st)
        st = km_mkl_products_of(pr, s->last.result->coef, s->known, s->last.h);
    if (!st)
        km_mkl_quadratic_terms(n, M, s->last.result->coef, s->last.h, s->last.a);
    return st;
}

/* The products of the kernels outside the working set at the last solve, and the values over all. */
static km_status complete(tikhonov *s)
{
    const km_mkl_problem *pr = s->last.pr;
    km_mkl_result *result = s->last.result;
    size_t n = pr->machine->kernel->n_rows, M = pr->machine->kernel->n_kernels;
    for (size_t m = 0; m < M; m++)
        s->known[m] = !s->known[m];
    km_status st = km_mkl_products_of(pr, result->coef, s->known, s->last.h);
    memset(s->known, 1, M);
    if (st)
        return st;
    km_mkl_quadratic_terms(n, M, result->coef, s->last.h, s->last.a);
    tikhonov_values(pr, result->coef, result->bias, s->last.a, s->last.h, s->block_norm, result);
    return KM_OK;
}

/* Kernel m, at weight d_m, is outside the working set and enters it: its a_m is known and sqrt(a_m)
 * exceeds 1 - lambda. */
static int enters(const tikhonov *s, size_t m, double d_m)
{
    double threshold = 1.0 - s->last.pr->mkl.lambda;
    return s->working_set && d_m == 0 && s->known[m] && s->last.a[m] > threshold * threshold;
}

/* The kernels that enter the working set after the last solve (every a_m known). */
static size_t violators(const tikhonov *s, size_t M)
{
    const double *theta = s->last.pr->machine->kernel->theta;
    size_t count = 0;
    for (size_t m = 0; m < M; m++)
        count += enters(s, m, theta[m]);
    return count;
}

static km_status tikhonov_certify(void *ctx, long t, double elapsed, km_certified_values *out)
{
    tikhonov *s = ctx;
    const km_mkl_problem *pr = s->last.pr;
    km_mkl_result *result = s->last.result;
    size_t M = pr->machine->kernel->n_kernels, working = known_count(s, M);
    tikhonov_values(pr, result->coef, result->bias, s->last.a, s->last.h, s->block_norm, result);
    double change = fabs(s->previous - result->primal) / fabs(result->primal);
    s->previous = result->primal;
    const char *extrapolated = s->q.pending ? " (extrapolated)" : "";
    if (working < M && !(result->gap <= pr->mkl.gap || change < pr->mkl.eps_mkl || km_mkl_at_limit(pr, t, elapsed))) {
        km_log(&pr->logger, KM_LOG_INFO, "tikhonov %4ld%s: objective %.17g, %zu of %zu kernels in the working set "
               "(their gap %.3e) %.2fs", t, extrapolated, result->primal, working, M, result->gap, elapsed);
        *out = (km_certified_values){NAN, result->primal, NAN, 0.0};
        return KM_OK;
    }
    km_status st = working < M ? complete(s) : KM_OK;
    if (st)
        return st;
    size_t entering = violators(s, M);
    char kernels[64] = "";
    if (working < M)
        snprintf(kernels, sizeof kernels, " (all kernels; %zu enter the working set)", entering);
    km_log(&pr->logger, KM_LOG_INFO, "tikhonov %4ld%s: objective %.17g dual %.17g gap %.3e%s %.2fs", t, extrapolated,
           result->primal, result->dual, result->gap, kernels, elapsed);
    /* stop at the duality gap only: near the block-1 and elastic-net optima the alternation moves J by
     * less than 1e-5 an iteration while the gap still falls steadily (2e-3 to 1e-3 over a hundred
     * iterations on a bank of 1,760 kernels); a gap that stops falling is km_mkl_alternate's stall */
    *out = (km_certified_values){result->dual, result->primal, result->gap, 0.0};
    return KM_OK;
}

/* The working set's changes after a step: kernels below the threshold whose stepped weight is below
 * KM_WORKING_SET_FLOOR of the largest leave, kernels outside above it enter where a is known. */
static void update_working_set(const tikhonov *s, const double *d_used, size_t M, double *d)
{
    double lambda = s->last.pr->mkl.lambda, threshold = 1.0 - lambda;
    const double *a = s->last.a;
    double largest = 0;
    for (size_t m = 0; m < M; m++)
        largest = fmax(largest, d[m]);
    for (size_t m = 0; m < M; m++) {
        double root = a[m] > 0 ? sqrt(a[m]) : 0.0;
        if (d_used[m] > 0 && root < threshold && d[m] < KM_WORKING_SET_FLOOR * largest)
            d[m] = 0.0;
        else if (enters(s, m, d_used[m]))
            d[m] = (root - threshold) / (lambda * root);
    }
}

/* F: the closed-form step of the row (km_tikhonov_step). */
static int weight_step(void *ctx, const double *a, double *d)
{
    tikhonov *s = ctx;
    return km_tikhonov_step(&s->last.pr->mkl, s->last.pr->machine->kernel->n_kernels, a, s->block_norm, d);
}

/* The step from the point solved at, extrapolated (squarem.h); a plain step also updates the working set. */
static km_status tikhonov_step(void *ctx, const double *d_used, km_weight_move *move)
{
    tikhonov *s = ctx;
    const km_kernel_access *k = s->last.pr->machine->kernel;
    int plain;
    *move = km_squarem_step(&s->q, d_used, s->previous, s->last.a, k->theta, weight_step, NULL, s, &plain);
    if (plain && *move == KM_MOVED && s->working_set)
        update_working_set(s, d_used, k->n_kernels, k->theta);
    return KM_OK;
}

km_status km_mkl_tikhonov(const km_mkl_problem *pr, km_mkl_result *result)
{
    if (!pr->machine->ops->loss_weighted)
        return km_error(KM_EINVAL, "the Tikhonov form needs a loss weight C: C-SVC or epsilon-SVR, not %s",
                        pr->machine->ops->name);
    const km_kernel_access *k = pr->machine->kernel;
    size_t n = k->n_rows, M = k->n_kernels;
    tikhonov s = {.last = {.pr = pr, .result = result, .h = malloc(n * M * sizeof(double)),
                           .a = malloc(M * sizeof(double))},
                  .previous = INFINITY, .block_norm = malloc(M * sizeof *s.block_norm), .known = calloc(M ? M : 1, 1),
                  .working_set = pr->mkl.regularizer == KM_REG_ELASTICNET && pr->mkl.lambda > 0};
    km_alternating_solver solver = {&s, tikhonov_evaluate, tikhonov_certify, tikhonov_step, "fixed", NULL};
    km_status st = km_squarem_init(&s.q, M);
    if (!st)
        st = s.last.h && s.last.a && s.block_norm && s.known
                 ? km_mkl_alternate(pr, k->theta, M, &solver, &result->mkl_iterations, &result->converged)
                 : km_error_nomem("the Tikhonov block-norm solver");
    /* a loop that ended on the working set's point (a limit reached between the checks) certifies it */
    if (!st && known_count(&s, M) < M && !(st = complete(&s)))
        result->converged = result->gap <= pr->mkl.gap;
    free(s.last.h);
    free(s.last.a);
    free(s.block_norm);
    free(s.known);
    km_squarem_free(&s.q);
    return st;
}
