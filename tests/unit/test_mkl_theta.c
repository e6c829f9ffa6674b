/* Closed-form kernel-weight updates against the identities and golden values of spec/lpmkl.md §9,
 * test 1 (theta-step identities) and test 10 (safeguards). */
#include <math.h>

#include "check.h"
#include "core/rng.h"
#include "kernelmix.h"
#include "mkl/theta.h"

/* sum_m theta_m^q with q = p/(2-p), the kernel-weight constraint (== 1 at every step). */
static double constraint(const double *theta, size_t M, double p)
{
    double q = isinf(p) ? -1.0 : p / (2.0 - p), s = 0;
    for (size_t m = 0; m < M; m++)
        s += pow(theta[m], q);
    return s;
}

static void check_golden(void)
{
    const double a[3] = {1, 4, 9};
    double theta[3];

    /* p = inf dual form: theta_m = sum_k sqrt(a_k) / sqrt(a_m) */
    km_theta_init(3, INFINITY, theta);
    CHECK(km_theta_lp_step(3, INFINITY, a, theta) == 1);
    CHECK_NEAR(theta[0], 6, 1e-12);
    CHECK_NEAR(theta[1], 3, 1e-12);
    CHECK_NEAR(theta[2], 2, 1e-12);

    /* p = 4 dual form, with sum theta^-2 = 1 */
    CHECK(km_theta_lp_step(3, 4.0, a, theta) == 1);
    CHECK_NEAR(theta[0], 2.801177, 1e-6);
    CHECK_NEAR(theta[1], 1.764631, 1e-6);
    CHECK_NEAR(theta[2], 1.346665, 1e-6);
    CHECK_NEAR(constraint(theta, 3, 4.0), 1.0, 1e-12);

    /* primal form from |w| = (1,2,3) (theta = 1, a = |w|^2) */
    double t43[3] = {1, 1, 1}, t32[3] = {1, 1, 1}, en[3] = {1, 1, 1};
    km_theta_lp_step(3, 4.0 / 3.0, a, t43);
    CHECK_NEAR(t43[0], 0.356993, 1e-6);
    CHECK_NEAR(t43[1], 0.566691, 1e-6);
    CHECK_NEAR(t43[2], 0.742575, 1e-6);
    CHECK_NEAR(constraint(t43, 3, 4.0 / 3.0), 1.0, 1e-12);
    km_theta_lp_step(3, 1.5, a, t32);
    CHECK_NEAR(t32[0], 0.480313, 1e-6);
    CHECK_NEAR(t32[1], 0.679265, 1e-6);
    CHECK_NEAR(t32[2], 0.831927, 1e-6);

    /* SHOGUN elastic net, lambda = 0.5: (2/7, 1/2, 2/3) */
    CHECK(km_theta_elasticnet_step(3, 0.5, a, en) == 1);
    CHECK_NEAR(en[0], 2.0 / 7.0, 1e-12);
    CHECK_NEAR(en[1], 0.5, 1e-12);
    CHECK_NEAR(en[2], 2.0 / 3.0, 1e-12);

    /* Tomioka-Suzuki weights from block norms (1,2,3) */
    const double f[3] = {1, 2, 3};
    double d[3];
    km_block_weights(KM_BLOCK_ONE, 0, 3, f, d);
    CHECK(d[0] == 1 && d[1] == 2 && d[2] == 3);
    km_block_weights(KM_BLOCK_ELASTICNET, 0.5, 3, f, d);
    CHECK_NEAR(d[0], 1.0, 1e-15);
    CHECK_NEAR(d[1], 4.0 / 3.0, 1e-15);
    CHECK_NEAR(d[2], 1.5, 1e-15);
    km_block_weights(KM_BLOCK_P_ABOVE_2, 4.0, 3, f, d);
    CHECK_NEAR(d[0], 1.0, 1e-15);
    CHECK_NEAR(d[1], 0.25, 1e-15);
    CHECK_NEAR(d[2], 1.0 / 9.0, 1e-15);
    /* the l_q row is the primal lp form up to the constraint's scale: q = 2 <-> block p = 4/3 */
    km_block_weights(KM_BLOCK_LQ, 2.0, 3, f, d);
    for (size_t m = 0; m < 3; m++)
        CHECK_NEAR(d[m] / d[0], t43[m] / t43[0], 1e-12);
}

/* The primal form's fixed point at fixed a is the dual form (T Prop. 3.1): p = 4/3 from a = (1,4,9)
 * gives (0.101015, 0.404061, 0.909137) with sum theta a = ||a||_2 = 9.899495. */
static void check_fixed_point(void)
{
    const double a[3] = {1, 4, 9};
    double theta[3];
    km_theta_init(3, 4.0 / 3.0, theta);
    CHECK_NEAR(constraint(theta, 3, 4.0 / 3.0), 1.0, 1e-12);
    for (int it = 0; it < 200; it++)
        km_theta_lp_step(3, 4.0 / 3.0, a, theta);
    CHECK_NEAR(theta[0], 0.101015, 1e-6);
    CHECK_NEAR(theta[1], 0.404061, 1e-6);
    CHECK_NEAR(theta[2], 0.909137, 1e-6);
    double s = theta[0] * a[0] + theta[1] * a[1] + theta[2] * a[2];
    CHECK_NEAR(s, 9.899495, 1e-6);
    CHECK_NEAR(km_mkl_dual_norm(3, 4.0 / 3.0, a), sqrt(98.0), 1e-12);
}

/* Random a: the constraint holds with equality, and at the dual-form theta (p > 2 directly, p < 2
 * as the primal fixed point) sum theta_m a_m = ||a||_r = ||w||_{2,p}^2. */
static void check_random(void)
{
    km_rng rng;
    km_rng_seed(&rng, 5);
    const double ps[] = {1.1, 4.0 / 3.0, 1.6, 3.0, 4.0, 8.0, INFINITY};
    for (size_t k = 0; k < sizeof ps / sizeof ps[0]; k++) {
        double p = ps[k], a[7], theta[7], w[7];
        for (size_t m = 0; m < 7; m++)
            a[m] = 0.1 + 5 * km_rng_uniform(&rng);
        km_theta_init(7, p, theta);
        for (int it = 0; it < (p < 2 ? 3000 : 1); it++)
            km_theta_lp_step(7, p, a, theta);
        double s = 0;
        for (size_t m = 0; m < 7; m++) {
            s += theta[m] * a[m];
            w[m] = theta[m] * sqrt(a[m]);
        }
        CHECK_NEAR(constraint(theta, 7, p), 1.0, 1e-12);
        CHECK_NEAR(s, km_mkl_dual_norm(7, p, a), 1e-9);
        CHECK_NEAR(s, km_block_norm_squared(7, p, w), 1e-9);
    }
}

static void check_safeguards(void)
{
    /* a_m <= 0 switches kernel m off and the others keep the constraint */
    const double a[3] = {-1e-3, 4, 9};
    double theta[3] = {1, 1, 1};
    CHECK(km_theta_lp_step(3, 4.0 / 3.0, a, theta) == 1);
    CHECK(theta[0] == 0.0);
    CHECK_NEAR(constraint(theta, 3, 4.0 / 3.0), 1.0, 1e-12);
    /* absorbing zero (§3.6): before a p = 1 step theta is floored at 1e-12 max theta, so a weight at 0
     * whose kernel has the largest a_m comes back, |w_0| = 5e-13 * 3 against |w_1| = |w_2| = 0.5;
     * at fixed a the odds theta_0 / (1 - theta_0) then triple at each step */
    const double grow[3] = {9, 1, 1};
    double revive[3] = {0, 0.5, 0.5};
    CHECK(km_theta_lp_step(3, 1.0, grow, revive) == 1);
    CHECK_NEAR(revive[0], 1.5e-12 / (1 + 1.5e-12), 1e-24);
    CHECK_NEAR(revive[1], 0.5 / (1 + 1.5e-12), 1e-15);
    for (int it = 0; it < 60; it++)
        km_theta_lp_step(3, 1.0, grow, revive);
    CHECK_NEAR(revive[0], 1.0, 1e-12);
    /* the same for the elastic net; a_m <= 0 still switches kernel m off exactly */
    double revive_en[3] = {0, 0.5, 0.5};
    CHECK(km_theta_elasticnet_step(3, 0.5, grow, revive_en) == 1);
    CHECK(revive_en[0] > 0 && revive_en[0] < 1e-11);
    double off[3] = {1, 0, 1};
    CHECK(km_theta_lp_step(3, 1.0, a, off) == 1);
    CHECK(off[0] == 0.0);
    CHECK_NEAR(off[1] + off[2], 1.0, 1e-15);
    CHECK_NEAR(off[1], 2e-12 / (2e-12 + 3), 1e-24);
    /* alpha = 0: nothing to learn, theta unchanged */
    const double zero[3] = {0, 0, 0};
    double keep[3] = {0.2, 0.3, 0.4};
    CHECK(km_theta_lp_step(3, 4.0 / 3.0, zero, keep) == 0);
    CHECK(km_theta_elasticnet_step(3, 0.5, zero, keep) == 0);
    CHECK(keep[0] == 0.2 && keep[1] == 0.3 && keep[2] == 0.4);
    /* p = 1.0001: exponents of order 5000 stay finite in log space */
    const double big[3] = {1e3, 2e3, 3e3};
    double t[3];
    km_theta_init(3, 1.0001, t);
    for (int it = 0; it < 50; it++)
        km_theta_lp_step(3, 1.0001, big, t);
    for (size_t m = 0; m < 3; m++)
        CHECK(isfinite(t[m]) && t[m] >= 0);
    CHECK_NEAR(constraint(t, 3, 1.0001), 1.0, 1e-9);
    CHECK(isfinite(km_mkl_dual_norm(3, 1.0001, big)));
    /* p = 1 dual norm is the max; p = 2 the sum */
    CHECK(km_mkl_dual_norm(3, 1.0, big) == 3e3);
    CHECK_NEAR(km_mkl_dual_norm(3, 2.0, big), 6e3, 1e-15);
    /* p > 2 clamps tiny a_m instead of dividing by zero */
    const double tiny[3] = {0, 1, 1};
    double tt[3];
    km_theta_init(3, 4.0, tt);
    km_theta_lp_step(3, 4.0, tiny, tt);
    CHECK(isfinite(tt[0]) && tt[0] > tt[1]);
}

KM_TEST_CASE(golden) { check_golden(); }
KM_TEST_CASE(fixed_point) { check_fixed_point(); }
KM_TEST_CASE(random) { check_random(); }
KM_TEST_CASE(safeguards) { check_safeguards(); }
