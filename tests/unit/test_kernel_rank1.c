/* Rank-1 kernels (kernel/family_rank1.c, kernel/rank1_block.c) and the two-stage methods on them:
 *  - spec expansion: one kernel per feature (all, or a list), no norm/center/scale keys;
 *  - kernel columns and combined columns (the weighted dot product, sparse and dense rows) equal
 *    sum_k w_k x~_ik x~_jk computed here from the centred, trace-normalized features, to 1e-10;
 *  - align, alignf, unif and l2krr weights and the test predictions equal those of the same kernels
 *    given as M dense precomputed matrices (the dense statistics; l2krr: Woodbury in the feature space
 *    against Cholesky on N x N), to 1e-10 (weights) and 1e-9 (predictions);
 *  - the golden set R6 (Rostamizadeh's thesis §3.2, §3.3.2, worked out independently): rho, a, M
 *    entries of the statistics, and l2krr's weights, primal vector w and prediction at (1,1,1). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/params.h"
#include "mkl/mkl_params.h"
#include "core/rng.h"
#include "kernel/kernel_view.h"
#include "kernel/provider.h"
#include "kernelmix.h"
#include "mkl/two_stage.h"
#include "svm/machine.h"
#include "svm/view_access.h"

enum { N = 40, D = 9, NT = 15 };

/* Rows with non-zero means, a constant column (4) and a mostly-zero column (6); y from columns 0, 2, 6. */
static void make_data(uint64_t seed, size_t n, double *X, double *y, int labels)
{
    km_rng rng;
    km_rng_seed(&rng, seed);
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < D; j++)
            X[i * D + j] = (double)j * 0.5 - 1.0 + 2.0 * km_rng_uniform(&rng);
        X[i * D + 4] = 3.0;
        X[i * D + 6] = km_rng_uniform(&rng) < 0.2 ? 1.0 + km_rng_uniform(&rng) : 0.0;
        double t = X[i * D] - 0.7 * X[i * D + 2] + 2.0 * X[i * D + 6] + 0.3 * km_rng_normal(&rng);
        y[i] = labels ? (t > 0.2 ? 1.0 : -1.0) : t;
    }
}

/* The features centred on the training means and scaled to unit norm (0 for constant columns), for
 * rows A of na rows given training rows X of n rows. */
static void scaled(const double *X, size_t n, const double *A, size_t na, double *out)
{
    for (size_t j = 0; j < D; j++) {
        double mean = 0, ss = 0, raw = 0;
        for (size_t i = 0; i < n; i++)
            mean += X[i * D + j] / (double)n;
        for (size_t i = 0; i < n; i++) {
            ss += (X[i * D + j] - mean) * (X[i * D + j] - mean);
            raw += X[i * D + j] * X[i * D + j];
        }
        double s = ss > 1e-12 * raw ? 1.0 / sqrt(ss) : 0.0;
        for (size_t t = 0; t < na; t++)
            out[t * D + j] = (A[t * D + j] - mean) * s;
    }
}

/* CSR arrays of the sparse datasets, which km_dataset_from_csr borrows: kept until the test ends */
static int64_t csr_start[2][N + 1];
static int32_t csr_col[2][N * D];
static double csr_val[2][N * D];

static km_dataset *dataset(const double *X, size_t n, const double *y, int sparse)
{
    km_dataset *data = NULL;
    if (!sparse) {
        CHECK_OK(km_dataset_from_dense(n, D, X, y, &data));
        return data;
    }
    int which = n == N ? 0 : 1;
    int64_t *start = csr_start[which], nnz = 0;
    start[0] = 0;
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < D; j++)
            if (X[i * D + j] != 0.0) {
                csr_col[which][nnz] = (int32_t)j;
                csr_val[which][nnz++] = X[i * D + j];
            }
        start[i + 1] = nnz;
    }
    CHECK_OK(km_dataset_from_csr(n, D, start, csr_col[which], csr_val[which], y, &data));
    return data;
}

static km_kernel_set *rank1_set(const char *spec)
{
    km_kernel_set *set;
    CHECK_OK(km_kernel_set_new(&set));
    CHECK_OK(km_kernel_set_set_dimension(set, D));
    CHECK_OK(km_kernel_set_add_spec(set, spec));
    return set;
}

KM_TEST_CASE(spec_expands_one_kernel_per_feature)
{
    km_kernel_set *all = rank1_set("rank1"), *some = rank1_set("rank1:features=2-4,7");
    CHECK(all->size == D);
    for (size_t j = 0; j < all->size; j++)
        CHECK(all->kernels[j].n_features == 1 && all->kernels[j].features[0] == j);
    static const uint32_t listed[] = {1, 2, 3, 6};
    CHECK(some->size == 4);
    for (size_t j = 0; j < some->size && j < 4; j++)
        CHECK(some->kernels[j].n_features == 1 && some->kernels[j].features[0] == listed[j]);
    char text[64];
    km_kernel_describe(&some->kernels[3], text, sizeof text);
    CHECK(strcmp(text, "rank1:features=7") == 0);
    /* the family fixes its centring and scale; one kernel per feature needs the dimension */
    CHECK(km_kernel_set_add_spec(all, "rank1:norm=mult") == KM_EINVAL);
    CHECK(km_kernel_set_add_spec(all, "rank1:center=1") == KM_EINVAL);
    CHECK(all->size == D);
    km_kernel_set *unknown;
    CHECK_OK(km_kernel_set_new(&unknown));
    CHECK(km_kernel_set_add_spec(unknown, "rank1") == KM_EINVAL);
    CHECK_OK(km_kernel_set_add_spec(unknown, "rank1:features=1,3"));
    CHECK(unknown->size == 2);
    km_kernel_set_free(all);
    km_kernel_set_free(some);
    km_kernel_set_free(unknown);
}

/* Single and combined columns of the provider against sum_k w_k x~_ik x~_jk. */
static void check_columns(int sparse)
{
    double X[N * D], y[N], Xs[N * D], w[D];
    make_data(11, N, X, y, 0);
    scaled(X, N, X, N, Xs);
    km_rng rng;
    km_rng_seed(&rng, 3);
    for (size_t j = 0; j < D; j++)
        w[j] = j == 5 ? 0.0 : 0.1 + km_rng_uniform(&rng);
    km_dataset *data = dataset(X, N, y, sparse);
    km_kernel_set *set = rank1_set("rank1");
    km_provider *p = NULL;
    CHECK_OK(km_provider_new(data, NULL, 0, set, 1 << 20, NULL, &p));
    if (!p)
        return;
    static const size_t rows[] = {3, 0, 17, 39, 8}, cols[] = {2, 6, 30};
    double column[N], block[3 * 5];
    for (size_t i = 0; i < N; i += 7) {
        CHECK_OK(km_provider_column(p, 2, i, NULL, N, column));
        for (size_t r = 0; r < N; r++)
            CHECK_NEAR(column[r], Xs[r * D + 2] * Xs[i * D + 2], 1e-12);
        CHECK_OK(km_provider_combined_column(p, w, i, NULL, N, column));
        for (size_t r = 0; r < N; r++) {
            double want = 0;
            for (size_t j = 0; j < D; j++)
                want += w[j] * Xs[r * D + j] * Xs[i * D + j];
            CHECK_NEAR(column[r], want, 1e-10);
        }
    }
    CHECK_OK(km_provider_combined_columns(p, w, cols, 3, rows, 5, block));
    for (size_t t = 0; t < 3; t++)
        for (size_t k = 0; k < 5; k++) {
            double want = 0;
            for (size_t j = 0; j < D; j++)
                want += w[j] * Xs[rows[k] * D + j] * Xs[cols[t] * D + j];
            CHECK_NEAR(block[t * 5 + k], want, 1e-10);
        }
    /* the constant feature's kernel is 0 */
    CHECK_OK(km_provider_column(p, 4, 1, NULL, N, column));
    for (size_t r = 0; r < N; r++)
        CHECK(column[r] == 0.0);
    km_provider_free(p);
    km_kernel_set_free(set);
    km_dataset_free(data);
}

KM_TEST_CASE(columns_equal_scaled_features_dense) { check_columns(0); }
KM_TEST_CASE(columns_equal_scaled_features_sparse) { check_columns(1); }

/* The same kernels as precomputed N x N matrices K_k = x~_k x~_k', and their test blocks, but for the
 * constant feature's (0, which MKL leaves out with weight 0, as the rank-1 path does). */
enum { CONSTANT = 4 };
static km_kernel_set *dense_set(const double *Xs, const double *Xts, km_matrix **K, km_matrix **Kt)
{
    km_kernel_set *set;
    CHECK_OK(km_kernel_set_new(&set));
    for (size_t k = 0; k < D; k++) {
        CHECK_OK(km_matrix_new(N, N, &K[k]));
        CHECK_OK(km_matrix_new(NT, N, &Kt[k]));
        double *v = km_matrix_data(K[k]), *vt = km_matrix_data(Kt[k]);
        for (size_t i = 0; i < N; i++)
            for (size_t j = 0; j < N; j++)
                v[i * N + j] = Xs[i * D + k] * Xs[j * D + k];
        for (size_t t = 0; t < NT; t++)
            for (size_t j = 0; j < N; j++)
                vt[t * N + j] = Xts[t * D + k] * Xs[j * D + k];
        if (k != CONSTANT)
            CHECK_OK(km_kernel_set_add_matrix(set, K[k], KM_NORM_NONE, 0));
    }
    return set;
}

static void check_against_dense(km_task task, km_mkl_method method, int sparse)
{
    int labels = task == KM_TASK_SVC;
    double X[N * D], y[N], Xt[NT * D], yt[NT], Xs[N * D], Xts[NT * D];
    make_data(21, N, X, y, labels);
    make_data(22, NT, Xt, yt, labels);
    scaled(X, N, X, N, Xs);
    scaled(X, N, Xt, NT, Xts);
    km_matrix *K[D], *Kt[D];
    km_kernel_set *rank1 = rank1_set("rank1"), *dense = dense_set(Xs, Xts, K, Kt);
    km_dataset *train = dataset(X, N, y, sparse), *test = dataset(Xt, NT, NULL, sparse);
    km_params params = km_params_default();
    params.task = task;
    params.C = 2.0;
    params.tolerance = 1e-10;
    km_params_store(&params, KM_PARAM_MKL_METHOD, method);
    km_params_store(&params, KM_PARAM_MU0, KM_MU0_ZERO);   /* l2krr: not uniform, which would depend on the kernel count */
    km_params_store(&params, KM_PARAM_MKL_EPS, 1e-13);
    km_model *a = NULL, *b = NULL;
    CHECK_OK(km_train(train, rank1, &params, &a));
    CHECK_OK(km_train(train, dense, &params, &b));
    if (a && b) {
        const double *ta = km_model_kernel_weights(a, 0), *tb = km_model_kernel_weights(b, 0);
        double sum = 0;
        for (size_t k = 0; k < D; k++) {
            if (k != CONSTANT)
                CHECK_NEAR(ta[k], tb[k - (k > CONSTANT)], 1e-10);
            sum += ta[k];
        }
        if (method == KM_MKL_ALIGN || method == KM_MKL_ALIGNF) {
            CHECK_NEAR(sum, 1.0, 1e-12);
            CHECK(ta[CONSTANT] == 0.0);
        }
        double da[NT], db[NT];
        const km_matrix *none[D] = {NULL}, *tk[D];
        for (size_t k = 0; k < D - 1; k++)
            tk[k] = Kt[k + (k >= CONSTANT)];
        CHECK_OK(km_predict(a, test, none, NULL, da));
        CHECK_OK(km_predict(b, test, tk, NULL, db));
        for (size_t t = 0; t < NT; t++)
            CHECK_NEAR(da[t], db[t], 1e-9);
    }
    km_model_free(a);
    km_model_free(b);
    km_kernel_set_free(rank1);
    km_kernel_set_free(dense);
    for (size_t k = 0; k < D; k++) {
        km_matrix_free(K[k]);
        km_matrix_free(Kt[k]);
    }
    km_dataset_free(train);
    km_dataset_free(test);
}

KM_TEST_CASE(align_krr_equals_dense) { check_against_dense(KM_TASK_KRR, KM_MKL_ALIGN, 0); }
KM_TEST_CASE(alignf_krr_equals_dense_sparse_rows) { check_against_dense(KM_TASK_KRR, KM_MKL_ALIGNF, 1); }
KM_TEST_CASE(alignf_svc_equals_dense) { check_against_dense(KM_TASK_SVC, KM_MKL_ALIGNF, 0); }
KM_TEST_CASE(align_svc_equals_dense_sparse_rows) { check_against_dense(KM_TASK_SVC, KM_MKL_ALIGN, 1); }
/* fewer kernels than rows: l2krr's solves by Woodbury in the feature space against Cholesky on N x N */
KM_TEST_CASE(l2krr_woodbury_equals_dense) { check_against_dense(KM_TASK_KRR, KM_MKL_L2KRR, 1); }
KM_TEST_CASE(unif_krr_equals_dense) { check_against_dense(KM_TASK_KRR, KM_MKL_FIXED, 1); }

/* Golden R6 */
static const double R6_X[6 * 3] = {1, 0, 2, 0, 1, 1, 2, 1, 0, 1, 1, 1, 0, 2, 1, 3, 0, 1};
static const double R6_Y[6] = {1, 2, 3, 2.5, 1.5, 4};

KM_TEST_CASE(r6_statistics)
{
    km_dataset *data;
    CHECK_OK(km_dataset_from_dense(6, 3, R6_X, R6_Y, &data));
    km_kernel_set *set;
    CHECK_OK(km_kernel_set_new(&set));
    CHECK_OK(km_kernel_set_set_dimension(set, 3));
    CHECK_OK(km_kernel_set_add_spec(set, "rank1"));
    km_provider *p = NULL;
    km_kernel_view *view = NULL;
    CHECK_OK(km_provider_new(data, NULL, 0, set, 1 << 20, NULL, &p));
    if (p)
        CHECK_OK(km_kernel_view_new(p, NULL, 6, &view));
    if (!view)
        return;
    double theta[3] = {1, 1, 1};
    km_kernel_access access = km_kernel_access_from_view(view, theta);
    km_machine_problem machine = {.ops = km_machine_ops_of(KM_TASK_KRR), .kernel = &access, .z = R6_Y};
    km_mkl_problem problem = {.machine = &machine};
    km_alignment_stats s;
    size_t kept[3];
    CHECK_OK(km_two_stage_stats(&problem, 1, &s, kept));
    static const double rho[3] = {0.669686411, 0.082352941, 0.342857143}, a[3] = {3.90650407, 0.48039216, 2};
    CHECK(s.M == 3);
    for (size_t k = 0; k < 3; k++) {
        CHECK(kept[k] == k);
        CHECK_NEAR(km_alignment_rho(&s, k), rho[k], 1e-9);
        CHECK_NEAR(s.a[k], a[k], 1e-8);
        CHECK_NEAR(s.gram[k * 3 + k], 1.0, 1e-12);
    }
    CHECK_NEAR(s.gram[0 * 3 + 1], 0.414634146, 1e-9);
    CHECK_NEAR(s.gram[0 * 3 + 2], 0.073170732, 1e-9);
    CHECK_NEAR(s.gram[1 * 3 + 2], 0.176470588, 1e-9);
    km_alignment_stats_free(&s);
    km_kernel_view_free(view);
    km_provider_free(p);
    km_kernel_set_free(set);
    km_dataset_free(data);
}

/* l2krr with Lambda = 1, lambda = 0.5, mu0 = (1/sqrt 3) 1: mu, w and the prediction at (1,1,1); the
 * predictor is w.((x - mean) o s) + mean y, so w_k = (f(mean + e_k) - f(mean)) ||x~_k||. */
KM_TEST_CASE(r6_l2krr)
{
    km_dataset *data, *query;
    CHECK_OK(km_dataset_from_dense(6, 3, R6_X, R6_Y, &data));
    const double mean[3] = {7.0 / 6.0, 5.0 / 6.0, 1.0};
    double Q[5 * 3] = {1, 1, 1};
    for (size_t t = 1; t < 5; t++)
        for (size_t k = 0; k < 3; k++)
            Q[t * 3 + k] = mean[k] + (t - 2 == k ? 1.0 : 0.0);
    CHECK_OK(km_dataset_from_dense(5, 3, Q, NULL, &query));
    km_kernel_set *set;
    CHECK_OK(km_kernel_set_new(&set));
    CHECK_OK(km_kernel_set_set_dimension(set, 3));
    CHECK_OK(km_kernel_set_add_spec(set, "rank1"));
    km_params params = km_params_default();
    params.task = KM_TASK_KRR;
    params.C = 2.0;   /* lambda = 1/C */
    km_params_store(&params, KM_PARAM_MKL_METHOD, KM_MKL_L2KRR);
    km_params_store(&params, KM_PARAM_MKL_RADIUS, 1.0);
    km_params_store(&params, KM_PARAM_MU0, KM_MU0_UNIFORM);
    km_params_store(&params, KM_PARAM_MKL_EPS, 1e-13);
    km_model *model = NULL;
    CHECK_OK(km_train(data, set, &params, &model));
    if (model) {
        static const double mu[3] = {1.42227963, 0.61732057, 1.11073263}, w[3] = {1.25080009, -0.11807886, -0.77610694};
        const double *theta = km_model_kernel_weights(model, 0);
        for (size_t k = 0; k < 3; k++)
            CHECK_NEAR(theta[k], mu[k], 1e-7);
        double f[5];
        CHECK_OK(km_predict(model, query, NULL, NULL, f));
        CHECK_NEAR(f[0], 2.24189368, 1e-7);
        CHECK_NEAR(f[1], 14.0 / 6.0, 1e-9);   /* at the mean: mean y */
        for (size_t k = 0; k < 3; k++) {
            double ss = 0;
            for (size_t i = 0; i < 6; i++)
                ss += (R6_X[i * 3 + k] - mean[k]) * (R6_X[i * 3 + k] - mean[k]);
            CHECK_NEAR((f[2 + k] - f[1]) * sqrt(ss), w[k], 1e-7);
        }
    }
    km_model_free(model);
    km_kernel_set_free(set);
    km_dataset_free(data);
    km_dataset_free(query);
}
