/* Kernel normalization (spec/lpmkl.md §6) and cross kernels: golden constants of test set T10,
 * the identities of each normalization, and spec §9 test 7: a row transformed with the stored
 * constants equals the corresponding row of the jointly normalized training matrix. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "data/dataset.h"
#include "kernel/provider.h"
#include "kernelmix.h"

/* T10 (spec §9) */
static const double t10[20] = {1.0, 0.5,  2.0,  -0.3, 0.4,  1.5,  1.2, 1.1,  -0.2, 0.3,
                               -1.0, -0.4, -1.6, 0.8,  -0.5, -1.3, 0.3, -0.8, -0.9, 0.2};

static km_dataset *dataset(const double *X, size_t n, size_t d)
{
    km_dataset *data;
    CHECK_OK(km_dataset_from_dense(n, d, X, NULL, &data));
    return data;
}

static km_kernel_set *one_kernel(const char *spec)
{
    km_kernel_set *set;
    CHECK_OK(km_kernel_set_new(&set));
    CHECK_OK(km_kernel_set_add_spec(set, spec));
    return set;
}

/* Normalized training matrix of kernel m (n×n) from provider columns. */
static double *training_matrix(km_provider *p, size_t m)
{
    size_t n = km_provider_n_rows(p);
    double *K = malloc(n * n * sizeof *K);
    for (size_t i = 0; i < n; i++)
        CHECK_OK(km_provider_column(p, m, i, NULL, n, K + i * n));
    return K;
}

static void test_t10_constants(void)
{
    km_dataset *data = dataset(t10, 10, 2);
    km_kernel_set *set;
    CHECK_OK(km_kernel_set_new(&set));
    CHECK_OK(km_kernel_set_add_spec(set, "linear:features=1:norm=mult"));
    CHECK_OK(km_kernel_set_add_spec(set, "linear:features=2:norm=mult"));
    CHECK_OK(km_kernel_set_add_spec(set, "rbf:gamma=0.5:norm=mult"));
    km_provider *p;
    CHECK_OK(km_provider_new(data, NULL, 0, set, 1u << 20, NULL, &p));
    const km_kernel_set *fitted = km_provider_fitted_set(p);
    CHECK_NEAR(fitted->kernels[0].scale, 1.1301, 1e-12);
    CHECK_NEAR(fitted->kernels[1].scale, 0.6804, 1e-12);
    CHECK_NEAR(fitted->kernels[2].scale, 0.654817504, 5e-10);
    /* multiplicative normalization: unit variance in feature space, mean k(x,x) - mean k(x,x') = 1 */
    for (size_t m = 0; m < 3; m++) {
        double *K = training_matrix(p, m);
        double diag = 0, all = 0;
        for (size_t i = 0; i < 10; i++) {
            diag += K[i * 10 + i];
            for (size_t j = 0; j < 10; j++)
                all += K[i * 10 + j];
        }
        CHECK_NEAR(diag / 10 - all / 100, 1.0, 1e-12);
        CHECK_NEAR(km_provider_diag(p, m)[3], K[33], 1e-15);
        free(K);
    }
    km_provider_free(p);
    km_kernel_set_free(set);
    km_dataset_free(data);
}

static void test_identities(void)
{
    km_dataset *data = dataset(t10, 10, 2);
    const char *specs[] = {"poly:degree=2:gamma=1:coef0=1:norm=spherical", "linear:norm=spherical:center=1",
                           "linear:norm=trace", "rbf:gamma=0.5:norm=trace:center=1", "poly:degree=3:gamma=0.5:center=1",
                           "rbf:gamma=2:norm=mult:center=1"};
    for (size_t s = 0; s < sizeof specs / sizeof specs[0]; s++) {
        km_kernel_set *set = one_kernel(specs[s]);
        km_provider *p;
        CHECK_OK(km_provider_new(data, NULL, 0, set, 0, NULL, &p));
        const km_kernel *k = &km_provider_fitted_set(p)->kernels[0];
        double *K = training_matrix(p, 0);
        double diag = 0, all = 0;
        for (size_t i = 0; i < 10; i++) {
            double row = 0;
            for (size_t j = 0; j < 10; j++) {
                row += K[i * 10 + j];
                CHECK_NEAR(K[i * 10 + j], K[j * 10 + i], 1e-14);
            }
            if (k->center && k->norm != KM_NORM_SPHERICAL)
                CHECK_NEAR(row, 0.0, 1e-12);
            if (k->norm == KM_NORM_SPHERICAL)
                CHECK_NEAR(K[i * 10 + i], 1.0, 1e-14);
            CHECK_NEAR(km_provider_diag(p, 0)[i], K[i * 10 + i], 1e-14);
            diag += K[i * 10 + i];
            all += row;
        }
        if (k->norm == KM_NORM_TRACE || k->norm == KM_NORM_MULTIPLICATIVE)
            CHECK_NEAR(diag / 10 - (k->norm == KM_NORM_MULTIPLICATIVE ? all / 100 : 0), 1.0, 1e-12);
        free(K);
        km_provider_free(p);
        km_kernel_set_free(set);
    }

    /* a constant kernel has no multiplicative constant: the error names the kernel */
    double constant[6] = {2, 1, 2, 5, 2, -3};
    km_dataset *flat = dataset(constant, 3, 2);
    km_kernel_set *set = one_kernel("linear:features=1:norm=mult");
    km_provider *p;
    CHECK_STATUS(km_provider_new(flat, NULL, 0, set, 0, NULL, &p), KM_EINVAL);
    CHECK(strstr(km_last_error(), "linear:features=1:norm=mult") != NULL &&
          strstr(km_last_error(), "not positive") != NULL);
    km_kernel_set_free(set);
    km_dataset_free(flat);
    km_dataset_free(data);
}

/* Spec §9 test 7 for every normalization, with and without centering, for kernels from features and
 * precomputed ones: cross kernels of the training rows reproduce the normalized training matrix. */
static void test_rows_match_training_matrix(void)
{
    size_t n = 10, d = 2;
    double positive[20];
    for (size_t k = 0; k < 20; k++)
        positive[k] = fabs(t10[k]);
    km_dataset *data = dataset(t10, n, d), *pos = dataset(positive, n, d);
    /* an rbf matrix as a precomputed kernel */
    km_matrix *K;
    CHECK_OK(km_matrix_new(n, n, &K));
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            double dx = t10[2 * i] - t10[2 * j], dy = t10[2 * i + 1] - t10[2 * j + 1];
            K->data[i * n + j] = exp(-0.5 * (dx * dx + dy * dy));
        }
    double Kdiag[10];
    for (size_t i = 0; i < n; i++)
        Kdiag[i] = K->data[i * n + i];
    const char *bases[] = {"linear", "rbf:gamma=0.5", "poly:degree=2:gamma=0.5:coef0=1", "chi2", "histint:features=2",
                           "sigmoid:gamma=0.2:coef0=0.3", "matrix"};
    const char *norms[] = {"none", "mult", "spherical", "trace"};
    double worst = 0.0;
    for (size_t b = 0; b < sizeof bases / sizeof bases[0]; b++)
        for (size_t nm = 0; nm < 4; nm++)
            for (int center = 0; center <= 1; center++) {
                if (b == 5 && center && nm == 2)
                    continue;   /* sigmoid is not positive definite: centred self-similarities can be < 0 */
                const km_dataset *train = (b == 3 || b == 4) ? pos : data;
                km_kernel_set *set;
                CHECK_OK(km_kernel_set_new(&set));
                if (b == 6) {
                    CHECK_OK(km_kernel_set_add_matrix(set, K, (km_normalization)nm, center));
                } else {
                    char spec[128];
                    snprintf(spec, sizeof spec, "%s:norm=%s:center=%d", bases[b], norms[nm], center);
                    CHECK_OK(km_kernel_set_add_spec(set, spec));
                }
                km_provider *p;
                CHECK_OK(km_provider_new(train, NULL, 0, set, 1u << 20, NULL, &p));
                double *G = training_matrix(p, 0);
                double cross[100];
                CHECK_OK(km_kernel_cross(km_provider_fitted_set(p), train, NULL, n, train, NULL, n, NULL, NULL, NULL,
                                         cross));
                for (size_t k = 0; k < n * n; k++)
                    worst = fmax(worst, fabs(cross[k] - G[k]));
                if (b == 6) {
                    /* the same values as a separate test matrix with its own diagonal */
                    const km_matrix *tk[1] = {K};
                    km_matrix *copy;
                    CHECK_OK(km_matrix_new(n, n, &copy));
                    memcpy(copy->data, K->data, n * n * sizeof(double));
                    tk[0] = copy;
                    const double *td[1] = {Kdiag};
                    size_t rows[3] = {7, 0, 4};
                    CHECK_OK(km_kernel_cross(km_provider_fitted_set(p), train, rows, 3, train, NULL, n, tk, td, NULL,
                                             cross));
                    for (size_t t = 0; t < 3; t++)
                        for (size_t j = 0; j < n; j++)
                            worst = fmax(worst, fabs(cross[t * n + j] - G[rows[t] * n + j]));
                    if (nm == 2)
                        CHECK_STATUS(km_kernel_cross(km_provider_fitted_set(p), train, rows, 3, train, NULL, n, tk,
                                                     NULL, NULL, cross),
                                     KM_EINVAL);
                    km_matrix_free(copy);
                }
                free(G);
                km_provider_free(p);
                km_kernel_set_free(set);
            }
    CHECK(worst <= 1e-12);
    if (worst > 1e-12)
        fprintf(stderr, "largest difference between cross rows and the training matrix: %g\n", worst);
    km_matrix_free(K);
    km_dataset_free(data);
    km_dataset_free(pos);
}

/* A new point against the definitions of spec §6: k_c(x,x_j) = k(x,x_j) - r(x) - m_j + mu,
 * k_c(x,x) = k(x,x) - 2 r(x) + mu, then spherical, or division by c_m. */
static void test_new_point(void)
{
    size_t n = 10;
    km_dataset *train = dataset(t10, n, 2);
    double x[2] = {0.7, -0.45};
    km_dataset *test = dataset(x, 1, 2);
    double Kt[100], k[10], m[10], mu = 0, r = 0;
    for (size_t i = 0; i < n; i++) {
        double dx = x[0] - t10[2 * i], dy = x[1] - t10[2 * i + 1];
        k[i] = exp(-0.5 * (dx * dx + dy * dy));
        r += k[i] / n;
        m[i] = 0;
        for (size_t j = 0; j < n; j++) {
            dx = t10[2 * i] - t10[2 * j];
            dy = t10[2 * i + 1] - t10[2 * j + 1];
            Kt[i * n + j] = exp(-0.5 * (dx * dx + dy * dy));
            m[i] += Kt[i * n + j] / n;
        }
        mu += m[i] / n;
    }
    double c = 0;   /* c_m of the centred matrix: mean centred diagonal */
    for (size_t i = 0; i < n; i++)
        c += (1.0 - 2 * m[i] + mu) / n;
    const char *specs[] = {"rbf:gamma=0.5:center=1:norm=spherical", "rbf:gamma=0.5:center=1:norm=mult",
                           "rbf:gamma=0.5:norm=mult"};
    for (size_t s = 0; s < 3; s++) {
        km_kernel_set *set = one_kernel(specs[s]), *fitted;
        CHECK_OK(km_kernel_set_fit(set, train, &fitted));
        double out[10];
        CHECK_OK(km_kernel_cross(fitted, test, NULL, 1, train, NULL, n, NULL, NULL, NULL, out));
        for (size_t j = 0; j < n; j++) {
            double want;
            if (s == 0)
                want = (k[j] - r - m[j] + mu) / sqrt((1 - 2 * r + mu) * (1 - 2 * m[j] + mu));
            else if (s == 1)
                want = (k[j] - r - m[j] + mu) / c;
            else
                want = k[j] / (1.0 - mu);
            CHECK_NEAR(out[j], want, 1e-12);
        }
        /* centering needs every training row as basis */
        if (s < 2) {
            size_t some[3] = {0, 1, 2};
            CHECK_STATUS(km_kernel_cross(fitted, test, NULL, 1, train, some, 3, NULL, NULL, NULL, out), KM_EINVAL);
        }
        km_kernel_set_free(fitted);
        km_kernel_set_free(set);
    }
    /* an unfitted set is refused */
    km_kernel_set *set = one_kernel("rbf:norm=mult");
    double out[10];
    CHECK_STATUS(km_kernel_cross(set, test, NULL, 1, train, NULL, n, NULL, NULL, NULL, out), KM_EINVAL);
    CHECK(strstr(km_last_error(), "not fitted") != NULL);
    km_kernel_set_free(set);
    km_dataset_free(test);
    km_dataset_free(train);
}

/* The fitted description (resolved gamma, scale) read back gives exactly the same kernel values. */
static void test_fitted_round_trip(void)
{
    km_dataset *train = dataset(t10, 10, 2);
    km_kernel_set *set;
    CHECK_OK(km_kernel_set_new(&set));
    CHECK_OK(km_kernel_set_add_spec(set, "rbf:gamma=2^-1..2^1/mean:norm=mult"));
    CHECK_OK(km_kernel_set_add_spec(set, "poly:degree=2:norm=trace:center=1"));
    CHECK_OK(km_kernel_set_add_spec(set, "linear:features=2:norm=spherical"));
    km_kernel_set *fitted, *back, *refitted;
    CHECK_OK(km_kernel_set_fit(set, train, &fitted));
    CHECK_OK(km_kernel_set_new(&back));
    char buf[256];
    for (size_t m = 0; m < fitted->size; m++) {
        km_kernel_set_describe(fitted, m, buf, sizeof buf);
        CHECK(strstr(buf, "/mean") == NULL && strstr(buf, "auto") == NULL);
        if (fitted->kernels[m].norm == KM_NORM_MULTIPLICATIVE || fitted->kernels[m].norm == KM_NORM_TRACE)
            CHECK(strstr(buf, ":scale=") != NULL);
        CHECK_OK(km_kernel_set_add_spec(back, buf));
    }
    CHECK_OK(km_kernel_set_fit(back, train, &refitted));
    for (size_t m = 0; m < fitted->size; m++) {
        CHECK(refitted->kernels[m].gamma == fitted->kernels[m].gamma);
        CHECK(refitted->kernels[m].scale == fitted->kernels[m].scale);
    }
    double a[500], b[500];
    CHECK_OK(km_kernel_cross(fitted, train, NULL, 10, train, NULL, 10, NULL, NULL, NULL, a));
    CHECK_OK(km_kernel_cross(refitted, train, NULL, 10, train, NULL, 10, NULL, NULL, NULL, b));
    CHECK(fitted->size == 5 && memcmp(a, b, sizeof a) == 0);
    km_kernel_set_free(fitted);
    km_kernel_set_free(refitted);
    km_kernel_set_free(back);
    km_kernel_set_free(set);
    km_dataset_free(train);
}

/* Cross kernels on sparse test rows equal those on the same rows stored dense. */
static void test_sparse_cross(void)
{
    double X[15] = {0, 1, 0, 2, 0, 0, 0.5, 0, 3, 0, 0, 0, 1, 1, 1};
    km_dataset *train = dataset(t10, 10, 2), *dense_test = dataset(X, 5, 3);
    km_dataset *sparse_test;
    CHECK_OK(km_dataset_alloc(&sparse_test));
    sparse_test->n = 5;
    sparse_test->d = 3;
    sparse_test->sparse = 1;
    sparse_test->row_start = malloc(6 * sizeof(size_t));
    sparse_test->col = malloc(15 * sizeof(uint32_t));
    sparse_test->val = malloc(15 * sizeof(double));
    size_t pos = 0;
    for (size_t i = 0; i < 5; i++) {
        sparse_test->row_start[i] = pos;
        for (size_t j = 0; j < 3; j++)
            if (X[i * 3 + j] != 0) {
                sparse_test->col[pos] = (uint32_t)j;
                sparse_test->val[pos++] = X[i * 3 + j];
            }
    }
    sparse_test->row_start[5] = pos;
    km_kernel_set *set;
    CHECK_OK(km_kernel_set_new(&set));
    /* the test rows have a third feature the training rows lack */
    CHECK_OK(km_kernel_set_add_spec(set, "rbf:gamma=0.3:norm=spherical:center=1"));
    CHECK_OK(km_kernel_set_add_spec(set, "poly:degree=2:coef0=1:features=2"));
    km_kernel_set *fitted;
    CHECK_OK(km_kernel_set_fit(set, train, &fitted));
    double a[100], b[100];
    CHECK_OK(km_kernel_cross(fitted, dense_test, NULL, 5, train, NULL, 10, NULL, NULL, NULL, a));
    CHECK_OK(km_kernel_cross(fitted, sparse_test, NULL, 5, train, NULL, 10, NULL, NULL, NULL, b));
    for (size_t k = 0; k < 100; k++)
        CHECK_NEAR(a[k], b[k], 1e-14);
    /* rbf sees the third feature: row 4 = (1,1,1) is at squared distance >= 1 from every (x,y,0) */
    double far = 0;
    for (size_t j = 0; j < 10; j++) {
        double dx = 1 - t10[2 * j], dy = 1 - t10[2 * j + 1];
        far = fmax(far, exp(-0.3 * (dx * dx + dy * dy + 1)));
    }
    CHECK(far < 1.0);
    km_kernel_set_free(fitted);
    km_kernel_set_free(set);
    km_dataset_free(train);
    km_dataset_free(dense_test);
    km_dataset_free(sparse_test);
}

KM_TEST_CASE(t10_constants) { test_t10_constants(); }
KM_TEST_CASE(identities) { test_identities(); }
KM_TEST_CASE(rows_match_training_matrix) { test_rows_match_training_matrix(); }
KM_TEST_CASE(new_point) { test_new_point(); }
KM_TEST_CASE(fitted_round_trip) { test_fitted_round_trip(); }
KM_TEST_CASE(sparse_cross) { test_sparse_cross(); }
