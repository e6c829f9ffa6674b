/* Parity with Debian's LIBSVM 3.24 on generated data: C-SVC, epsilon-SVR and one-class, linear and RBF
 * kernels, shrinking on and off. Same dual objective (1e-6 relative), same bias, same predictions. */
#include "check.h"
#include "test_svm_support.h"

enum { N = 200, NT = 200, D = 5 };

static double X[N * D], y[N], Xt[NT * D], yt[NT];
static double R[N * D], z[N], Rt[NT * D], zt[NT];
static double S[N * D], St[NT * D];   /* the classes shifted away from the origin (linear one-class) */

static void setup(void)
{
    if (!test_have_libsvm())
        KM_TEST_SKIP(KM_SVM_TRAIN " / " KM_SVM_PREDICT " not installed (Debian package libsvm-tools)");
    km_rng rng;
    km_rng_seed(&rng, 20260101);
    test_two_gaussians(&rng, N, D, X, y);
    test_two_gaussians(&rng, NT, D, Xt, yt);
    test_regression(&rng, N, D, R, z);
    test_regression(&rng, NT, D, Rt, zt);
    for (size_t i = 0; i < N * D; i++)
        S[i] = test_round8(X[i] + 3.0);
    for (size_t i = 0; i < NT * D; i++)
        St[i] = test_round8(Xt[i] + 3.0);
}

KM_TEST_FIXTURE(setup, NULL)

KM_TEST_CASE(svc_linear)
{
    test_parity_case pc = {"C-SVC linear", TEST_SVC, 0, 0.0, 0.5, 0, 0, 1e-7, 0, X, y, N, D, Xt, yt, NT};
    test_parity(&pc);
}

KM_TEST_CASE(svc_linear_shrinking)
{
    test_parity_case pc = {"C-SVC linear", TEST_SVC, 0, 0.0, 0.5, 0, 0, 1e-7, 1, X, y, N, D, Xt, yt, NT};
    test_parity(&pc);
}

KM_TEST_CASE(svc_rbf)
{
    test_parity_case pc = {"C-SVC rbf", TEST_SVC, 1, 0.2, 4.0, 0, 0, 1e-7, 0, X, y, N, D, Xt, yt, NT};
    test_parity(&pc);
}

KM_TEST_CASE(svc_rbf_shrinking)
{
    test_parity_case pc = {"C-SVC rbf", TEST_SVC, 1, 0.2, 4.0, 0, 0, 1e-7, 1, X, y, N, D, Xt, yt, NT};
    test_parity(&pc);
}

KM_TEST_CASE(svr_linear)
{
    test_parity_case pc = {"eps-SVR linear", TEST_SVR, 0, 0.0, 1.0, 0.2, 0, 1e-7, 0, R, z, N, D, Rt, zt, NT};
    test_parity(&pc);
}

KM_TEST_CASE(svr_linear_shrinking)
{
    test_parity_case pc = {"eps-SVR linear", TEST_SVR, 0, 0.0, 1.0, 0.2, 0, 1e-7, 1, R, z, N, D, Rt, zt, NT};
    test_parity(&pc);
}

KM_TEST_CASE(svr_rbf)
{
    test_parity_case pc = {"eps-SVR rbf", TEST_SVR, 1, 0.5, 10.0, 0.1, 0, 1e-7, 0, R, z, N, D, Rt, zt, NT};
    test_parity(&pc);
}

KM_TEST_CASE(svr_rbf_shrinking)
{
    test_parity_case pc = {"eps-SVR rbf", TEST_SVR, 1, 0.5, 10.0, 0.1, 0, 1e-7, 1, R, z, N, D, Rt, zt, NT};
    test_parity(&pc);
}

KM_TEST_CASE(oneclass_rbf)
{
    test_parity_case pc = {"one-class rbf", TEST_ONECLASS, 1, 0.3, 0, 0, 0.3, 1e-7, 0, X, NULL, N, D, Xt, NULL, NT};
    test_parity(&pc);
}

KM_TEST_CASE(oneclass_rbf_shrinking)
{
    test_parity_case pc = {"one-class rbf", TEST_ONECLASS, 1, 0.3, 0, 0, 0.3, 1e-7, 1, X, NULL, N, D, Xt, NULL, NT};
    test_parity(&pc);
}

KM_TEST_CASE(oneclass_linear)
{
    test_parity_case pc = {"one-class linear", TEST_ONECLASS, 0, 0.0, 0, 0, 0.4525, 1e-7, 0, S, NULL, N, D, St, NULL, NT};
    test_parity(&pc);
}

KM_TEST_CASE(oneclass_linear_shrinking)
{
    test_parity_case pc = {"one-class linear", TEST_ONECLASS, 0, 0.0, 0, 0, 0.4525, 1e-7, 1, S, NULL, N, D, St, NULL, NT};
    test_parity(&pc);
}
