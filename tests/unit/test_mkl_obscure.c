/* OBSCURE (Orabona, Jie & Caputo, "Multi Kernel Learning with Online-Batch Optimization", JMLR 2012)
 * against the properties of the paper, its Lemma 1 and Theorems 3-4, with the learner checked
 * against an independent primal implementation on explicit features:
 *   1 exponent conversions; 2 the stable group norm; 3 Lemma 1's link; 4 kernel weights; 5 losses and
 *   subgradients (finite differences, norms, Theorem 4's conditions); 6 step sizes; 7 kernelized =
 *   explicit; 8 incremental block norms; 9 lazy scaling; 10 projection; 11 prefetched blocks = steps
 *   from scratch. (Training-level properties: test_mkl_obscure_train.c.) */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/rng.h"
#include "mkl/obscure.h"

/* ---- explicit features: K^j(a, b) = x^j_a . x^j_b, kernel j on its own block of dims[j] values ---- */

enum { MAX_F = 8 };

typedef struct explicit_kernels {
    size_t n, F, dims[MAX_F];
    double *x[MAX_F];          /* n x dims[j] */
    double *diag[MAX_F];
    km_kernel_access access;
    double theta[MAX_F];
} explicit_kernels;

static double dot(const double *a, const double *b, size_t d)
{
    double s = 0;
    for (size_t k = 0; k < d; k++)
        s += a[k] * b[k];
    return s;
}

static km_status explicit_column(void *ctx, size_t j, size_t i, const size_t *rows, size_t nrows, double *out)
{
    const explicit_kernels *e = ctx;
    for (size_t k = 0; k < nrows; k++) {
        size_t r = rows ? rows[k] : k;
        out[k] = dot(e->x[j] + r * e->dims[j], e->x[j] + i * e->dims[j], e->dims[j]);
    }
    return KM_OK;
}

/* n rows of F random blocks, scaled to norm at most 1 (the normalised kernels of the bounds). */
static void explicit_init(explicit_kernels *e, size_t n, size_t F, size_t dim, uint64_t seed)
{
    memset(e, 0, sizeof *e);
    km_rng rng;
    km_rng_seed(&rng, seed);
    e->n = n;
    e->F = F;
    for (size_t j = 0; j < F; j++) {
        e->dims[j] = dim + j % 2;
        e->x[j] = malloc(n * e->dims[j] * sizeof(double));
        e->diag[j] = malloc(n * sizeof(double));
        for (size_t i = 0; i < n; i++) {
            double *x = e->x[j] + i * e->dims[j];
            for (size_t k = 0; k < e->dims[j]; k++)
                x[k] = km_rng_normal(&rng);
            double norm = sqrt(dot(x, x, e->dims[j])) * (1.0 + km_rng_uniform(&rng));
            for (size_t k = 0; k < e->dims[j]; k++)
                x[k] /= norm;
            e->diag[j][i] = dot(x, x, e->dims[j]);
        }
    }
    e->access = (km_kernel_access){.n_rows = n, .n_kernels = F, .theta = e->theta, .column = explicit_column,
                                   .column_ctx = e, .diag = (const double *const *)e->diag};
}

static void explicit_free(explicit_kernels *e)
{
    for (size_t j = 0; j < e->F; j++) {
        free(e->x[j]);
        free(e->diag[j]);
    }
}

/* w^{j,r} = beta_j sum_i c_{i,r} x^j_i of the learner, explicitly: w[j][r * dims[j] + k]. */
static void explicit_w(const explicit_kernels *e, const km_obscure *o, double *w[MAX_F])
{
    for (size_t j = 0; j < e->F; j++) {
        size_t D = e->dims[j];
        memset(w[j], 0, o->K * D * sizeof(double));
        for (size_t i = 0; i < e->n; i++)
            for (size_t r = 0; r < o->K; r++)
                for (size_t k = 0; k < D; k++)
                    w[j][r * D + k] += o->beta[j] * o->kappa * o->c[i * o->K + r] * e->x[j][i * D + k];
    }
}

/* The loss at explicit w (independent of the learner): hinge or Crammer-Singer. */
static double explicit_loss(const explicit_kernels *e, double *const w[MAX_F], size_t K, size_t i, int y_or_class)
{
    double f[16] = {0};
    for (size_t r = 0; r < K; r++)
        for (size_t j = 0; j < e->F; j++)
            f[r] += dot(w[j] + r * e->dims[j], e->x[j] + i * e->dims[j], e->dims[j]);
    if (K == 1)
        return fmax(0, 1 - y_or_class * f[0]);
    double rival = -INFINITY;
    for (size_t r = 0; r < K; r++)
        if ((int)r != y_or_class)
            rival = fmax(rival, f[r]);
    return fmax(0, 1 - f[y_or_class] + rival);
}

/* ---- 1. conversions --------------------------------------------------------------------------- */

KM_TEST_CASE(conversions)
{
    CHECK_NEAR(km_obscure_pk_of_p(1.5), 3.0, 1e-15);
    CHECK_NEAR(km_obscure_q_of_p(1.5), 3.0, 1e-15);
    CHECK_NEAR(km_obscure_p_of_pk(3.0), 1.5, 1e-15);
    CHECK_NEAR(km_obscure_p_of_q(3.0), 1.5, 1e-15);
    CHECK(isinf(km_obscure_pk_of_p(2.0)) && km_obscure_p_of_pk(INFINITY) == 2.0 && km_obscure_q_of_p(2.0) == 2.0);
    km_rng rng;
    km_rng_seed(&rng, 5);
    for (int k = 0; k < 1000; k++) {
        double p = 1.0 + 1e-3 + (1 - 1e-3) * km_rng_uniform(&rng);
        CHECK_NEAR(km_obscure_p_of_pk(km_obscure_pk_of_p(p)), p, 1e-14);
        CHECK_NEAR(km_obscure_p_of_q(km_obscure_q_of_p(p)), p, 1e-14);
        /* q = 2 p_K / (p_K - 1) */
        double pk = km_obscure_pk_of_p(p);
        CHECK_NEAR(km_obscure_q_of_p(p), 2 * pk / (pk - 1), 1e-9 * km_obscure_q_of_p(p));
    }
}

/* ---- 2. stable norms -------------------------------------------------------------------------- */

KM_TEST_CASE(stable_norms)
{
    double a[3] = {1e-300, 1, 1e300}, d[3];
    double norm = km_obscure_group_norm(a, 3, 10001);
    CHECK(isfinite(norm));
    CHECK_NEAR(norm / 1e300, 1.0, 1e-12);
    km_obscure_link_weights(a, 3, 10001, d);
    for (int j = 0; j < 3; j++)
        CHECK(isfinite(d[j]) && d[j] >= 0 && d[j] <= 1);
    CHECK_NEAR(d[2], 1.0, 1e-12);
    CHECK(d[0] == 0.0 && d[1] == 0.0);
    /* where the direct formula is safe, both agree */
    km_rng rng;
    km_rng_seed(&rng, 6);
    const double qs[] = {2, 2.5, 3, 11, 101};
    for (size_t k = 0; k < 5; k++)
        for (int rep = 0; rep < 100; rep++) {
            double b[6], direct = 0;
            for (int j = 0; j < 6; j++) {
                b[j] = km_rng_uniform(&rng) + 0.1;
                direct += pow(b[j], qs[k]);
            }
            direct = pow(direct, 1 / qs[k]);
            CHECK_NEAR(km_obscure_group_norm(b, 6, qs[k]) / direct, 1.0, 1e-13);
        }
    double zero[2] = {0, 0};
    CHECK(km_obscure_group_norm(zero, 2, 5) == 0.0);
}

/* ---- 3-4. Lemma 1 and the kernel weights, on random theta with F = 5 blocks of 3 values ---------- */

enum { LF = 5, LD = 3 };

static void block_norms_of(const double *v, double *a)
{
    for (int j = 0; j < LF; j++)
        a[j] = sqrt(dot(v + j * LD, v + j * LD, LD));
}

/* w = grad h*(theta): w^j = (1/q) d_j theta^j. */
static void link_of(const double *theta, double q, double *w, double *d)
{
    double a[LF];
    block_norms_of(theta, a);
    km_obscure_link_weights(a, LF, q, d);
    for (int j = 0; j < LF; j++)
        for (int k = 0; k < LD; k++)
            w[j * LD + k] = d[j] / q * theta[j * LD + k];
}

KM_TEST_CASE(lemma1)
{
    const double qs[] = {2, 2.5, 11, 101};
    km_rng rng;
    km_rng_seed(&rng, 7);
    for (size_t k = 0; k < 4; k++) {
        double q = qs[k], p = km_obscure_p_of_q(q);
        for (int rep = 0; rep < 50; rep++) {
            double theta[LF * LD], w[LF * LD], u[LF * LD], d[LF], at[LF], aw[LF], au[LF];
            for (int i = 0; i < LF * LD; i++) {
                theta[i] = km_rng_normal(&rng) * (1 + 3 * (i / LD));
                u[i] = km_rng_normal(&rng);
            }
            link_of(theta, q, w, d);
            block_norms_of(theta, at);
            block_norms_of(w, aw);
            block_norms_of(u, au);
            double nt = km_obscure_group_norm(at, LF, q), nw = km_obscure_group_norm(aw, LF, p);
            CHECK_NEAR(nw, nt / q, 1e-12 * nt / q);
            CHECK_NEAR(dot(theta, w, LF * LD), nt * nt / q, 1e-11 * nt * nt / q);
            /* grad h(w)^j = q (|w^j| / |w|_p)^{p-2} w^j recovers theta (where d_j has not underflowed:
             * at q = 101 a block 1e3 times below the largest has d_j = 1e-297, and |w^j|^2 underflows) */
            for (int j = 0; j < LF; j++)
                if (d[j] > 1e-140)
                for (int i = 0; i < LD; i++)
                    CHECK_NEAR(q * pow(aw[j] / nw, p - 2) * w[j * LD + i], theta[j * LD + i],
                               1e-9 * fabs(theta[j * LD + i]) + 1e-12);
            if (q == 2)
                for (int i = 0; i < LF * LD; i++)
                    CHECK_NEAR(w[i], theta[i] / 2, 1e-15);
            /* Hoelder */
            CHECK(dot(theta, u, LF * LD) <= nt * km_obscure_group_norm(au, LF, p) * (1 + 1e-12));
        }
    }
}

KM_TEST_CASE(kernel_weights)
{
    const double ps[] = {1.01, 1.1, 1.25, 1.5, 1.75, 2};
    km_rng rng;
    km_rng_seed(&rng, 8);
    for (size_t k = 0; k < 6; k++) {
        double p = ps[k], q = km_obscure_q_of_p(p), pk = km_obscure_pk_of_p(p);
        double theta[LF * LD], w[LF * LD], d[LF], aw[LF];
        for (int i = 0; i < LF * LD; i++)
            theta[i] = km_rng_normal(&rng) * (1 + (i / LD));
        link_of(theta, q, w, d);
        block_norms_of(w, aw);
        double nw = km_obscure_group_norm(aw, LF, p), sum_pk = 0, sum_ratio = 0;
        for (int j = 0; j < LF; j++) {
            sum_pk += isinf(pk) ? 0 : pow(d[j], pk);
            sum_ratio += aw[j] * aw[j] / d[j];
            CHECK_NEAR(d[j], pow(aw[j] / nw, 2 - p), 1e-11);
            if (p == 2)
                CHECK(d[j] == 1.0);
        }
        if (!isinf(pk))
            CHECK_NEAR(sum_pk, 1.0, 1e-12);
        CHECK_NEAR(sum_ratio, nw * nw, 1e-11 * nw * nw);
    }
}

/* ---- 5. losses and subgradients through the learner --------------------------------------------- */

/* Runs some online steps, then one more at a row with positive loss: the coefficient change of that
 * row is -eta z, so z = -(delta c / eta) phi(x_i); checks it against finite differences of the
 * explicit loss, its norm against the closed form, and Theorem 4's two conditions. */
static void check_losses(size_t K)
{
    explicit_kernels e;
    enum { n = 30, F = 4 };
    explicit_init(&e, n, F, 3, 11 + K);
    signed char y[n];
    size_t cls[n];
    for (size_t i = 0; i < n; i++) {
        cls[i] = i % (K > 1 ? K : 2);
        y[i] = cls[i] == 0 ? 1 : -1;
    }
    double q = 3.0, p = 1.5, eta = 0.3;
    km_obscure o;
    CHECK_OK(km_obscure_init(&o, &e.access, K, y, cls, q, 0.01));
    int updated;
    for (size_t i = 0; i < 17; i++)
        CHECK_OK(km_obscure_online_step(&o, (i * 7) % n, eta, &updated));
    double *w[MAX_F], *v[MAX_F], *u[MAX_F], *z[MAX_F];
    for (size_t j = 0; j < F; j++) {
        w[j] = calloc(K * e.dims[j], sizeof(double));
        v[j] = calloc(K * e.dims[j], sizeof(double));
        u[j] = calloc(K * e.dims[j], sizeof(double));
        z[j] = calloc(K * e.dims[j], sizeof(double));
    }
    km_rng rng;
    km_rng_seed(&rng, 12);
    int checked = 0;
    for (size_t i = 0; i < n && checked < 5; i++) {
        explicit_w(&e, &o, w);
        int label = K == 1 ? y[i] : (int)cls[i];
        double loss = explicit_loss(&e, w, K, i, label);
        double before[16];
        for (size_t r = 0; r < K; r++)
            before[r] = o.kappa * o.c[i * K + r];
        CHECK_OK(km_obscure_online_step(&o, i, eta, &updated));
        CHECK(updated == (loss > 0));
        if (!updated)
            continue;
        /* z^{j,r} = -(delta c_{i,r} / eta) x^j_i */
        for (size_t j = 0; j < F; j++)
            for (size_t r = 0; r < K; r++)
                for (size_t k = 0; k < e.dims[j]; k++)
                    z[j][r * e.dims[j] + k] = -(o.kappa * o.c[i * K + r] - before[r]) / eta * e.x[j][i * e.dims[j] + k];
        /* finite differences along random v (the point is away from kinks unless unlucky: skip those) */
        double h = 1e-6, zv = 0, znorm2[MAX_F] = {0}, uz = 0, wz = 0;
        for (size_t j = 0; j < F; j++)
            for (size_t k = 0; k < K * e.dims[j]; k++) {
                v[j][k] = km_rng_normal(&rng);
                u[j][k] = 2 * km_rng_normal(&rng);
                zv += z[j][k] * v[j][k];
                uz += u[j][k] * z[j][k];
                wz += w[j][k] * z[j][k];
                znorm2[j] += z[j][k] * z[j][k];
            }
        for (size_t j = 0; j < F; j++)
            for (size_t k = 0; k < K * e.dims[j]; k++)
                w[j][k] += h * v[j][k];
        double plus = explicit_loss(&e, w, K, i, label);
        for (size_t j = 0; j < F; j++)
            for (size_t k = 0; k < K * e.dims[j]; k++)
                w[j][k] -= 2 * h * v[j][k];
        double minus = explicit_loss(&e, w, K, i, label);
        for (size_t j = 0; j < F; j++)
            for (size_t k = 0; k < K * e.dims[j]; k++)
                w[j][k] += h * v[j][k];
        CHECK_NEAR((plus - minus) / (2 * h), zv, 1e-6 * (1 + fabs(zv)));
        /* ||z||_{2,q} = sqrt(2)^{K>1} (sum_j K^j(x,x)^{q/2})^{1/q} <= sqrt(2) F^{1/q} (or F^{1/q}) */
        double a[MAX_F], closed = 0;
        for (size_t j = 0; j < F; j++) {
            a[j] = sqrt(znorm2[j]);
            closed += pow(e.diag[j][i], q / 2);
        }
        closed = (K > 1 ? sqrt(2.0) : 1.0) * pow(closed, 1 / q);
        double zq = km_obscure_group_norm(a, F, q);
        CHECK_NEAR(zq, closed, 1e-12 * closed);
        CHECK(zq <= (K > 1 ? sqrt(2.0) : 1.0) * pow((double)F, 1 / q) * (1 + 1e-12));
        /* Theorem 4: loss(u) >= 1 + u.z(w) when loss(w) > 0, and w.z(w) >= -1 */
        CHECK(explicit_loss(&e, u, K, i, label) >= 1 + uz - 1e-12);
        CHECK(wz >= -1 - 1e-12);
        checked++;
    }
    CHECK(checked == 5);
    (void)p;
    for (size_t j = 0; j < F; j++) {
        free(w[j]);
        free(v[j]);
        free(u[j]);
        free(z[j]);
    }
    km_obscure_free(&o);
    explicit_free(&e);
}

KM_TEST_CASE(losses_crammer_singer) { check_losses(3); }
KM_TEST_CASE(losses_hinge) { check_losses(1); }

/* ---- 6. step sizes ------------------------------------------------------------------------------ */

KM_TEST_CASE(step_sizes)
{
    double lambda = 1e-3, q = 5, R = 2.5, s = 0, previous_eta = INFINITY;
    km_rng rng;
    km_rng_seed(&rng, 13);
    for (long t = 1; t <= 2000; t++) {
        double L = 0.1 + 3 * km_rng_uniform(&rng), D = lambda * (double)t + s;
        double xi = km_obscure_xi(D, q, L, R), target = q * L * L / (4 * R * R);
        CHECK(xi > 0);
        CHECK_NEAR(xi * xi + D * xi, target, 1e-12 * target);
        s += xi;
        double eta = q / (lambda * (double)t + s);
        CHECK(eta < previous_eta);
        previous_eta = eta;
    }
    /* R = infinity: xi = 0, so s stays 0 and eta_t = q/(lambda t) */
    for (long t = 1; t <= 100; t++)
        CHECK(km_obscure_xi(lambda * (double)t, q, 2.0, INFINITY) == 0.0);
}

/* ---- 7. kernelized = explicit -------------------------------------------------------------------- */

/* An independent primal implementation of Algorithms 1 and 2 with Crammer-Singer loss on explicit
 * features: theta[j][r * D + k]. */
typedef struct primal {
    const explicit_kernels *e;
    size_t K;
    double q, lambda, R, s;
    long t;
    double *theta[MAX_F];
} primal;

static double primal_block_sq(const primal *pr, size_t j)
{
    size_t D = pr->e->dims[j];
    return dot(pr->theta[j], pr->theta[j], pr->K * D);
}

static double primal_theta_norm(const primal *pr)
{
    double sum = 0;
    for (size_t j = 0; j < pr->e->F; j++)
        sum += pow(primal_block_sq(pr, j), pr->q / 2);
    return pow(sum, 1 / pr->q);
}

static void primal_scores(const primal *pr, size_t i, double *f)
{
    double norm = primal_theta_norm(pr);
    for (size_t r = 0; r < pr->K; r++)
        f[r] = 0;
    for (size_t j = 0; j < pr->e->F; j++) {
        size_t D = pr->e->dims[j];
        double beta = norm > 0 ? pow(sqrt(primal_block_sq(pr, j)) / norm, pr->q - 2) / pr->q : 1 / pr->q;
        for (size_t r = 0; r < pr->K; r++)
            f[r] += beta * dot(pr->theta[j] + r * D, pr->e->x[j] + i * D, D);
    }
}

/* One step: a = 1 and the given eta (stage 1), or Algorithm 2's (eta <= 0). */
static void primal_step(primal *pr, size_t i, size_t y, double eta)
{
    const explicit_kernels *e = pr->e;
    double f[16];
    primal_scores(pr, i, f);
    size_t rival = y == 0 ? 1 : 0;
    for (size_t r = 0; r < pr->K; r++)
        if (r != y && f[r] > f[rival])
            rival = r;
    int update = 1 - f[y] + f[rival] > 0;
    double a = 1;
    if (eta <= 0) {
        pr->t++;
        double zq = 0;
        for (size_t j = 0; j < e->F; j++)
            zq += pow(2 * e->diag[j][i], pr->q / 2);
        double L = pr->lambda * primal_theta_norm(pr) / pr->q + (update ? pow(zq, 1 / pr->q) : 0);
        double D = pr->lambda * (double)pr->t + pr->s;
        pr->s += 0.5 * (sqrt(D * D + pr->q * L * L / (pr->R * pr->R)) - D);
        eta = pr->q / (pr->lambda * (double)pr->t + pr->s);
        a = 1 - pr->lambda * eta / pr->q;
    }
    for (size_t j = 0; j < e->F; j++) {
        size_t D = e->dims[j];
        for (size_t k = 0; k < pr->K * D; k++)
            pr->theta[j][k] *= a;
        for (size_t k = 0; update && k < D; k++) {
            pr->theta[j][y * D + k] += eta * e->x[j][i * D + k];
            pr->theta[j][rival * D + k] -= eta * e->x[j][i * D + k];
        }
    }
    double norm = primal_theta_norm(pr);
    if (pr->t > 0 && norm > pr->q * pr->R)
        for (size_t j = 0; j < e->F; j++)
            for (size_t k = 0; k < pr->K * e->dims[j]; k++)
                pr->theta[j][k] *= pr->q * pr->R / norm;
}

KM_TEST_CASE(kernelized_equals_explicit)
{
    enum { n = 40, K = 3, F = 4 };
    explicit_kernels e;
    explicit_init(&e, n, F, 3, 21);
    size_t cls[n];
    for (size_t i = 0; i < n; i++)
        cls[i] = (i * 5) % K;
    double p = 1.3, q = km_obscure_q_of_p(p), lambda = 1.0 / (10.0 * n), eta = pow((double)F, -2 / q);
    primal pr = {.e = &e, .K = K, .q = q, .lambda = lambda, .R = 3.0};
    for (size_t j = 0; j < F; j++)
        pr.theta[j] = calloc(K * e.dims[j], sizeof(double));
    km_obscure o;
    CHECK_OK(km_obscure_init(&o, &e.access, K, NULL, cls, q, lambda));
    int updated;
    for (size_t k = 0; k < n; k++) {
        size_t i = (k * 17) % n;
        CHECK_OK(km_obscure_online_step(&o, i, eta, &updated));
        primal_step(&pr, i, cls[i], eta);
    }
    o.radius = pr.R;
    o.t = pr.t = n;   /* the stage-2 counter continues from stage 1 */
    for (size_t k = 0; k < n; k++) {
        size_t i = (k * 13 + 3) % n;
        CHECK_OK(km_obscure_stochastic_step(&o, i, &updated));
        primal_step(&pr, i, cls[i], 0);
    }
    for (size_t j = 0; j < F; j++) {
        double exact = primal_block_sq(&pr, j);
        CHECK_NEAR(o.S[j], exact, 1e-10 * exact);
    }
    for (size_t i = 0; i < n; i++) {
        double f[K];
        primal_scores(&pr, i, f);
        size_t rows[1] = {i};
        (void)rows;
        double *w[MAX_F];
        for (size_t j = 0; j < F; j++)
            w[j] = calloc(K * e.dims[j], sizeof(double));
        explicit_w(&e, &o, w);
        for (size_t r = 0; r < K; r++) {
            double g = 0;
            for (size_t j = 0; j < F; j++)
                g += dot(w[j] + r * e.dims[j], e.x[j] + i * e.dims[j], e.dims[j]);
            CHECK_NEAR(g, f[r], 1e-10 * (1 + fabs(f[r])));
        }
        for (size_t j = 0; j < F; j++)
            free(w[j]);
    }
    for (size_t j = 0; j < F; j++)
        free(pr.theta[j]);
    km_obscure_free(&o);
    explicit_free(&e);
}

/* ---- 8-10. incremental norms, lazy scaling, projection ----------------------------------------- */

/* S_j exactly: sum_r || sum_i c_{i,r} x^j_i ||^2. */
static double exact_block_sq(const explicit_kernels *e, const km_obscure *o, size_t j)
{
    size_t D = e->dims[j];
    double sum = 0, *v = calloc(D, sizeof *v);
    for (size_t r = 0; r < o->K; r++) {
        memset(v, 0, D * sizeof *v);
        for (size_t i = 0; i < e->n; i++)
            for (size_t k = 0; k < D; k++)
                v[k] += o->kappa * o->c[i * o->K + r] * e->x[j][i * D + k];
        sum += dot(v, v, D);
    }
    free(v);
    return sum;
}

KM_TEST_CASE(incremental_norms_and_projection)
{
    enum { n = 200, K = 5, F = 6 };
    explicit_kernels e;
    explicit_init(&e, n, F, 4, 31);
    size_t cls[n];
    for (size_t i = 0; i < n; i++)
        cls[i] = (i * 3) % K;
    double q = km_obscure_q_of_p(1.1), lambda = 1.0 / (100.0 * n);
    km_obscure o;
    CHECK_OK(km_obscure_init(&o, &e.access, K, NULL, cls, q, lambda));
    o.radius = 0.5;
    km_rng rng;
    km_rng_seed(&rng, 32);
    size_t order[n];
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    int updated, projected_ok = 1;
    for (int epoch = 0; epoch < 10; epoch++) {
        km_rng_shuffle(&rng, order, n);
        for (size_t k = 0; k < n; k++) {
            CHECK_OK(km_obscure_stochastic_step(&o, order[k], &updated));
            projected_ok &= km_obscure_w_norm(&o) <= o.radius * (1 + 1e-12);
        }
    }
    CHECK(projected_ok);
    for (size_t j = 0; j < F; j++) {
        double exact = exact_block_sq(&e, &o, j);
        CHECK_NEAR(o.S[j], exact, 1e-9 * exact);
    }
    km_obscure_free(&o);
    explicit_free(&e);
}

/* Folding kappa into c after every step or only at the thresholds gives the same scores; Pegasos'
 * first step (shrink factor 0) leaves finite values. */
KM_TEST_CASE(lazy_scaling)
{
    enum { n = 60, K = 3, F = 3 };
    explicit_kernels e;
    explicit_init(&e, n, F, 3, 41);
    size_t cls[n];
    for (size_t i = 0; i < n; i++)
        cls[i] = i % K;
    double q = 4, lambda = 1.0 / n;
    km_obscure lazy, eager;
    CHECK_OK(km_obscure_init(&lazy, &e.access, K, NULL, cls, q, lambda));
    CHECK_OK(km_obscure_init(&eager, &e.access, K, NULL, cls, q, lambda));
    eager.fold_low = eager.fold_high = 1.0;   /* any kappa != 1 is folded at once */
    int updated;
    for (size_t k = 0; k < 5 * n; k++) {
        CHECK_OK(km_obscure_stochastic_step(&lazy, (k * 7) % n, &updated));
        CHECK_OK(km_obscure_stochastic_step(&eager, (k * 7) % n, &updated));
        if (k == 0)
            for (size_t j = 0; j < F; j++)
                CHECK(isfinite(lazy.S[j]) && isfinite(lazy.d[j]) && isfinite(lazy.kappa));
    }
    CHECK(eager.kappa == 1.0 && lazy.kappa != 1.0);
    double *a = malloc(n * K * sizeof *a), *b = malloc(n * K * sizeof *b);
    km_obscure_coefficients(&lazy, a);
    km_obscure_coefficients(&eager, b);
    for (size_t k = 0; k < n * K; k++)
        CHECK_NEAR(a[k], b[k], 1e-12 * (fabs(b[k]) + 1e-300) + 1e-300);
    double fa, fb, ea, eb;
    CHECK_OK(km_obscure_objective(&lazy, &fa, &ea));
    CHECK_OK(km_obscure_objective(&eager, &fb, &eb));
    CHECK(isfinite(fa));
    CHECK_NEAR(fa, fb, 1e-12 * fb);
    CHECK(ea == eb);
    free(a);
    free(b);
    km_obscure_free(&lazy);
    km_obscure_free(&eager);
    explicit_free(&e);
}

/* ---- 11. prefetched blocks ---------------------------------------------------------------------- */

/* Steps on prefetched blocks of rows (scores from one product at the block's start plus the changes
 * made within it) take the same steps as steps computing every score from scratch: online and
 * stochastic steps, Pegasos' zeroing first step inside a block, kappa folded inside blocks, a step
 * off the block's order, hinge and Crammer-Singer. */
static void check_prefetched_blocks(size_t K)
{
    enum { n = 90, F = 4, BLOCK = 7 };
    explicit_kernels e;
    explicit_init(&e, n, F, 3, 51 + K);
    size_t cls[n];
    signed char y[n];
    for (size_t i = 0; i < n; i++) {
        cls[i] = (i * 5) % K;
        y[i] = i % 3 ? 1 : -1;
    }
    double q = km_obscure_q_of_p(1.2), lambda = 1.0 / (10.0 * n);
    km_obscure single, blocked;
    CHECK_OK(km_obscure_init(&single, &e.access, K, y, cls, q, lambda));
    CHECK_OK(km_obscure_init(&blocked, &e.access, K, y, cls, q, lambda));
    blocked.fold_low = 0.9;   /* folds inside most blocks */
    blocked.fold_high = 1.1;
    km_rng rng;
    km_rng_seed(&rng, 52);
    size_t order[n];
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    int updated_single, updated_blocked, same_updates = 1, updates = 0;
    for (int epoch = 0; epoch < 6; epoch++) {
        km_rng_shuffle(&rng, order, n);
        size_t prefetched = 0;
        for (size_t k = 0; k < n; k++) {
            if (k == prefetched) {
                size_t taken;
                CHECK_OK(km_obscure_prefetch(&blocked, order + k, n - k < BLOCK ? n - k : BLOCK, &taken));
                CHECK(taken == (n - k < BLOCK ? n - k : BLOCK));
                prefetched = k + taken;
            }
            if (epoch == 2 && k == 10) {   /* Pegasos' shrink factor 0 at this step, inside a block */
                single.t = blocked.t = 0;
                single.s = blocked.s = 0;
            }
            if (epoch == 0) {
                CHECK_OK(km_obscure_online_step(&single, order[k], 0.5, &updated_single));
                CHECK_OK(km_obscure_online_step(&blocked, order[k], 0.5, &updated_blocked));
            } else {
                CHECK_OK(km_obscure_stochastic_step(&single, order[k], &updated_single));
                CHECK_OK(km_obscure_stochastic_step(&blocked, order[k], &updated_blocked));
            }
            same_updates &= updated_single == updated_blocked;
            updates += updated_blocked;
        }
        /* a step off the prefetched order, then the rest of that block is refetched */
        CHECK_OK(km_obscure_stochastic_step(&single, order[0], &updated_single));
        CHECK_OK(km_obscure_stochastic_step(&blocked, order[0], &updated_blocked));
    }
    CHECK(same_updates && updates > n);
    double *a = malloc(n * K * sizeof *a), *b = malloc(n * K * sizeof *b);
    km_obscure_coefficients(&single, a);
    km_obscure_coefficients(&blocked, b);
    double largest = 0;
    for (size_t k = 0; k < n * K; k++)
        largest = fmax(largest, fabs(a[k]));
    CHECK(largest > 0);
    for (size_t k = 0; k < n * K; k++)
        CHECK_NEAR(b[k], a[k], 1e-10 * largest);
    for (size_t j = 0; j < F; j++)
        CHECK_NEAR(blocked.S[j], single.S[j], 1e-10 * single.S[j]);
    free(a);
    free(b);
    km_obscure_free(&single);
    km_obscure_free(&blocked);
    explicit_free(&e);
}

KM_TEST_CASE(prefetched_blocks_crammer_singer) { check_prefetched_blocks(3); }
KM_TEST_CASE(prefetched_blocks_hinge) { check_prefetched_blocks(1); }
