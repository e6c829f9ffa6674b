/* Low-rank kernels by the Nystrom method (kernel/family_nystrom.c), against the exact kernel:
 *  - with as many landmarks as training rows, k~ is k (the RBF to 1e-7, every entry);
 *  - with fewer, the columns at the landmark rows are exact (K~_{:,Z} = K_{:,Z} K_ZZ^+ K_ZZ = K_{:,Z}), and
 *    the error K - K~ is positive semi-definite, its trace falling as the (nested) landmark sets grow;
 *  - a linear kernel on D features is reproduced by D generic landmarks;
 *  - values of new rows (km_kernel_cross) equal k(a, Z) K_ZZ^-1 k(Z, b) solved here by Gaussian
 *    elimination, independently of the eigendecomposition the family uses;
 *  - the spec key rank= and its errors;
 *  - icd=TOL: the pivots of an incomplete Cholesky factorization meet the trace tolerance;
 *  - sampling=kmeans++ and sampling=leverage find the isolated rows a uniform draw misses, the leverage
 *    scores equal their formula solved here by Gaussian elimination, and the weighted draw keeps to the
 *    rows of positive weight. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/rng.h"
#include "kernel/kernel.h"
#include "kernel/landmarks.h"
#include "kernel/nystrom.h"
#include "kernel/provider.h"
#include "kernelmix.h"

enum { N = 40, D = 5, NT = 7 };

static void make_rows(uint64_t seed, size_t n, double *X)
{
    km_rng rng;
    km_rng_seed(&rng, seed);
    for (size_t i = 0; i < n * D; i++)
        X[i] = 3.0 * km_rng_uniform(&rng);
}

/* N random rows in X and the dataset on them (which borrows X). */
static km_dataset *random_rows(uint64_t seed, double *X)
{
    make_rows(seed, N, X);
    km_dataset *data;
    CHECK_OK(km_dataset_from_dense(N, D, X, NULL, &data));
    return data;
}

static km_kernel_set *kernel_set(const char *spec)
{
    km_kernel_set *set;
    CHECK_OK(km_kernel_set_new(&set));
    CHECK_OK(km_kernel_set_set_dimension(set, D));
    CHECK_OK(km_kernel_set_add_spec(set, spec));
    return set;
}

/* K[i*N + j] of kernel 0 of the spec on the N rows of data. */
static void gram(const km_dataset *data, const char *spec, double *K, km_provider **keep)
{
    km_kernel_set *set = kernel_set(spec);
    km_provider *p;
    CHECK_OK(km_provider_new(data, NULL, 0, set, 1 << 22, NULL, &p));
    for (size_t i = 0; i < N; i++)
        CHECK_OK(km_provider_column(p, 0, i, NULL, N, K + i * N));
    km_kernel_set_free(set);
    if (keep)
        *keep = p;
    else
        km_provider_free(p);
}

static double rbf(const double *a, const double *b, double gamma)
{
    double d2 = 0;
    for (size_t j = 0; j < D; j++)
        d2 += (a[j] - b[j]) * (a[j] - b[j]);
    return exp(-gamma * d2);
}

KM_TEST_CASE(all_rows_as_landmarks_give_the_kernel)
{
    double X[N * D], K[N * N], Kt[N * N];
    km_dataset *data = random_rows(1, X);
    gram(data, "rbf:gamma=1", K, NULL);
    gram(data, "rbf:gamma=1:rank=40", Kt, NULL);
    for (size_t e = 0; e < N * N; e++)
        CHECK_NEAR(Kt[e], K[e], 1e-7);
    gram(data, "rbf:gamma=1:rank=1000", Kt, NULL);   /* more landmarks than rows: all of them */
    for (size_t e = 0; e < N * N; e++)
        CHECK_NEAR(Kt[e], K[e], 1e-7);
    km_dataset_free(data);
}

/* The training row equal to landmark l of kernel k. */
static size_t landmark_row(const km_kernel *k, size_t l, const double *X)
{
    for (size_t i = 0; i < N; i++)
        if (memcmp(X + i * D, k->landmarks + l * D, D * sizeof *X) == 0)
            return i;
    return SIZE_MAX;
}

KM_TEST_CASE(columns_at_landmarks_are_exact)
{
    double X[N * D], K[N * N], Kt[N * N];
    km_dataset *data = random_rows(2, X);
    gram(data, "rbf:gamma=0.5", K, NULL);
    km_provider *p;
    gram(data, "rbf:gamma=0.5:rank=10", Kt, &p);
    const km_kernel *k = &km_provider_fitted_set(p)->kernels[0];
    CHECK(k->n_landmarks == 10 && k->landmark_dim == D && k->rank_kept == 10);
    size_t off_landmark = 0;
    for (size_t l = 0; l < k->n_landmarks; l++) {
        size_t j = landmark_row(k, l, X);
        CHECK(j < N);
        for (size_t i = 0; i < N; i++)
            CHECK_NEAR(Kt[j * N + i], K[j * N + i], 1e-9);
    }
    for (size_t e = 0; e < N * N; e++)   /* elsewhere an approximation, not the kernel */
        off_landmark += fabs(Kt[e] - K[e]) > 1e-3;
    CHECK(off_landmark > 0);
    km_provider_free(p);
    km_dataset_free(data);
}

KM_TEST_CASE(error_is_psd_and_shrinks_with_the_landmarks)
{
    double X[N * D], K[N * N], Kt[N * N];
    km_dataset *data = random_rows(3, X);
    gram(data, "rbf:gamma=0.3", K, NULL);
    static const char *const specs[] = {"rbf:gamma=0.3:rank=3", "rbf:gamma=0.3:rank=8", "rbf:gamma=0.3:rank=16",
                                        "rbf:gamma=0.3:rank=32", "rbf:gamma=0.3:rank=40"};
    double last = INFINITY;
    for (size_t s = 0; s < sizeof specs / sizeof *specs; s++) {
        gram(data, specs[s], Kt, NULL);
        double trace = 0;
        for (size_t i = 0; i < N; i++) {
            CHECK(K[i * N + i] - Kt[i * N + i] > -1e-9);   /* a PSD error has a non-negative diagonal */
            trace += K[i * N + i] - Kt[i * N + i];
            /* and 2x2 minors: |E_ij| <= sqrt(E_ii E_jj) */
            for (size_t j = 0; j < N; j++) {
                double eii = K[i * N + i] - Kt[i * N + i], ejj = K[j * N + j] - Kt[j * N + j];
                CHECK(fabs(K[i * N + j] - Kt[i * N + j]) <= sqrt(fmax(eii, 0) * fmax(ejj, 0)) + 1e-7);
            }
        }
        CHECK(trace <= last + 1e-9);
        last = trace;
    }
    CHECK(last < 1e-6);
    km_dataset_free(data);
}

KM_TEST_CASE(linear_kernel_from_as_many_landmarks_as_features)
{
    double X[N * D], K[N * N], Kt[N * N];
    km_dataset *data = random_rows(4, X);
    gram(data, "linear", K, NULL);
    km_provider *p;
    gram(data, "linear:rank=5", Kt, &p);
    CHECK(km_provider_fitted_set(p)->kernels[0].rank_kept == D);
    for (size_t e = 0; e < N * N; e++)
        CHECK_NEAR(Kt[e], K[e], 1e-8 * (1 + fabs(K[e])));
    km_provider_free(p);
    km_dataset_free(data);
}

/* x = A^-1 b by Gaussian elimination with partial pivoting (A: n x n, overwritten). */
static void solve(double *A, double *b, size_t n)
{
    for (size_t c = 0; c < n; c++) {
        size_t piv = c;
        for (size_t r = c + 1; r < n; r++)
            if (fabs(A[r * n + c]) > fabs(A[piv * n + c]))
                piv = r;
        for (size_t j = 0; j < n; j++) {
            double t = A[c * n + j];
            A[c * n + j] = A[piv * n + j];
            A[piv * n + j] = t;
        }
        double t = b[c];
        b[c] = b[piv];
        b[piv] = t;
        for (size_t r = c + 1; r < n; r++) {
            double f = A[r * n + c] / A[c * n + c];
            for (size_t j = c; j < n; j++)
                A[r * n + j] -= f * A[c * n + j];
            b[r] -= f * b[c];
        }
    }
    for (size_t c = n; c-- > 0;) {
        for (size_t j = c + 1; j < n; j++)
            b[c] -= A[c * n + j] * b[j];
        b[c] /= A[c * n + c];
    }
}

KM_TEST_CASE(new_rows_by_an_independent_solve)
{
    enum { L = 12 };
    double X[N * D], T[NT * D];
    make_rows(5, N, X);
    make_rows(6, NT, T);
    km_dataset *train, *test;
    CHECK_OK(km_dataset_from_dense(N, D, X, NULL, &train));
    CHECK_OK(km_dataset_from_dense(NT, D, T, NULL, &test));
    km_kernel_set *set = kernel_set("rbf:gamma=0.4:rank=12");
    km_provider *p;
    CHECK_OK(km_provider_new(train, NULL, 0, set, 1 << 22, NULL, &p));
    const km_kernel *k = &km_provider_fitted_set(p)->kernels[0];
    CHECK(k->n_landmarks == L && k->rank_kept == L);
    double cross[NT * N];
    CHECK_OK(km_kernel_cross(km_provider_fitted_set(p), test, NULL, NT, train, NULL, N, NULL, NULL, NULL, cross));
    for (size_t t = 0; t < NT; t++) {
        double A[L * L], u[L];
        for (size_t a = 0; a < L; a++) {
            for (size_t b = 0; b < L; b++)
                A[a * L + b] = rbf(k->landmarks + a * D, k->landmarks + b * D, 0.4);
            u[a] = rbf(k->landmarks + a * D, T + t * D, 0.4);
        }
        solve(A, u, L);   /* u = K_ZZ^-1 k(Z, a_t) */
        for (size_t j = 0; j < N; j++) {
            double want = 0;
            for (size_t a = 0; a < L; a++)
                want += rbf(k->landmarks + a * D, X + j * D, 0.4) * u[a];
            CHECK_NEAR(cross[t * N + j], want, 1e-8);
        }
    }
    km_provider_free(p);
    km_kernel_set_free(set);
    km_dataset_free(train);
    km_dataset_free(test);
}

KM_TEST_CASE(spec_key_rank)
{
    km_kernel_set *set = kernel_set("rbf:gamma=2^-1..2^1/mean:rank=7,50");
    CHECK(set->size == 6);
    CHECK(set->kernels[0].rank == 7 && set->kernels[1].rank == 50);
    char text[256];
    km_kernel_set_describe(set, 1, text, sizeof text);
    CHECK(strstr(text, ":rank=50") != NULL);
    km_kernel_set_free(set);
    km_kernel_set *bad;
    CHECK_OK(km_kernel_set_new(&bad));
    CHECK_STATUS(km_kernel_set_add_spec(bad, "rbf:rank=0"), KM_EINVAL);
    CHECK(strstr(km_last_error(), "rank must be a positive integer") != NULL);
    CHECK_STATUS(km_kernel_set_add_spec(bad, "rbf:rank=2.5"), KM_EINVAL);
    CHECK_STATUS(km_kernel_set_add_spec(bad, "chi2:rank=10"), KM_EINVAL);
    CHECK(strstr(km_last_error(), "not valid for chi2") != NULL);
    CHECK(bad->size == 0);
    km_kernel_set_free(bad);
}

/* icd=TOL: the pivots of an incomplete Cholesky factorization as landmarks. The approximation on them is
 * the factorization G G', whose trace error is at most TOL of the trace; a wider kernel needs fewer
 * pivots; rank caps them. */
KM_TEST_CASE(incomplete_cholesky_pivots_meet_the_trace_tolerance)
{
    double X[N * D], K[N * N], Kt[N * N];
    km_dataset *data = random_rows(7, X);
    static const struct { const char *exact, *icd; double tol; } cases[] = {
        {"rbf:gamma=0.1", "rbf:gamma=0.1:rank=40:icd=1e-2", 1e-2},
        {"rbf:gamma=0.1", "rbf:gamma=0.1:rank=40:icd=1e-6", 1e-6},
        {"rbf:gamma=2", "rbf:gamma=2:rank=40:icd=1e-2", 1e-2},
    };
    size_t landmarks[3];
    for (size_t c = 0; c < 3; c++) {
        gram(data, cases[c].exact, K, NULL);
        km_provider *p;
        gram(data, cases[c].icd, Kt, &p);
        landmarks[c] = km_provider_fitted_set(p)->kernels[0].n_landmarks;
        double trace = 0, error = 0;
        for (size_t i = 0; i < N; i++) {
            trace += K[i * N + i];
            error += K[i * N + i] - Kt[i * N + i];
            CHECK(K[i * N + i] - Kt[i * N + i] > -1e-9);
        }
        CHECK(error <= cases[c].tol * trace + 1e-9);
        km_provider_free(p);
    }
    CHECK(landmarks[0] < landmarks[1]);   /* a tighter tolerance takes more pivots */
    CHECK(landmarks[0] < landmarks[2]);   /* a narrower kernel too */
    km_provider *p;
    gram(data, "rbf:gamma=2:rank=5:icd=1e-9", Kt, &p);   /* rank caps the pivots */
    CHECK(km_provider_fitted_set(p)->kernels[0].n_landmarks == 5);
    km_provider_free(p);
    km_kernel_set *bad;
    CHECK_OK(km_kernel_set_new(&bad));
    CHECK_STATUS(km_kernel_set_add_spec(bad, "rbf:icd=1e-3"), KM_EINVAL);
    CHECK(strstr(km_last_error(), "give rank= too") != NULL);
    CHECK_STATUS(km_kernel_set_add_spec(bad, "rbf:rank=5:icd=1"), KM_EINVAL);
    CHECK_STATUS(km_kernel_set_add_spec(bad, "rbf:rank=5:icd=0"), KM_EINVAL);
    km_kernel_set_free(bad);
    km_dataset_free(data);
}

/* A tight cluster of N - ISOLATED rows (spread 1e-3) and ISOLATED rows far from it and from each other:
 * an RBF kernel of width 0.5 is about 1 within the cluster and 0 elsewhere. */
enum { ISOLATED = 10, CLUSTER_LANDMARKS = 14 };

static km_dataset *cluster_and_isolated_rows(double *X)
{
    make_rows(8, N, X);
    for (size_t i = 0; i < N * D; i++)
        X[i] *= 1e-3 / 3.0;
    for (size_t t = 0; t < ISOLATED; t++)   /* rows 3, 7, 11, ...: 10 apart on the axes, in both directions */
        X[(3 + 4 * t) * D + t % D] += (t < D ? 10.0 : -10.0);
    km_dataset *data;
    CHECK_OK(km_dataset_from_dense(N, D, X, NULL, &data));
    return data;
}

/* The trace of K - K~ of the spec (the approximation's error, PSD) against the exact rbf:gamma=0.5. */
static double trace_error(const km_dataset *data, const char *spec, size_t *landmarks)
{
    double K[N * N], Kt[N * N], error = 0;
    gram(data, "rbf:gamma=0.5", K, NULL);
    km_provider *p;
    gram(data, spec, Kt, &p);
    *landmarks = km_provider_fitted_set(p)->kernels[0].n_landmarks;
    for (size_t i = 0; i < N; i++)
        error += K[i * N + i] - Kt[i * N + i];
    km_provider_free(p);
    return error;
}

KM_TEST_CASE(adaptive_landmarks_find_the_isolated_rows)
{
    double X[N * D];
    km_dataset *data = cluster_and_isolated_rows(X);
    size_t L_uniform, L_kmeans, L_leverage;
    double uniform = trace_error(data, "rbf:gamma=0.5:rank=14", &L_uniform);
    double kmeans = trace_error(data, "rbf:gamma=0.5:rank=14:sampling=kmeans++", &L_kmeans);
    double leverage = trace_error(data, "rbf:gamma=0.5:rank=14:sampling=leverage", &L_leverage);
    CHECK(L_uniform == CLUSTER_LANDMARKS && L_kmeans == CLUSTER_LANDMARKS && L_leverage == CLUSTER_LANDMARKS);
    /* each isolated row without a landmark adds about 1 to the error: the uniform draw misses 7 of the 10,
     * k-means++ (11 clusters for 14 landmarks) none, the leverage draw (a draw, guided) fewer than half as
     * many as the uniform one */
    CHECK(uniform > 6.5);
    CHECK(kmeans < 1e-3);
    CHECK(leverage < 0.5 * uniform);
    km_dataset_free(data);
}

KM_TEST_CASE(kmeans_landmarks_are_shared_and_stop_at_duplicates)
{
    double X[N * D];
    km_dataset *data = cluster_and_isolated_rows(X);
    km_kernel_set *set = kernel_set("rbf:gamma=0.5,2:rank=14:sampling=kmeans++");
    km_provider *p;
    CHECK_OK(km_provider_new(data, NULL, 0, set, 1 << 22, NULL, &p));
    const km_kernel_set *fitted = km_provider_fitted_set(p);
    CHECK(km_nystrom_same_landmarks(&fitted->kernels[0], &fitted->kernels[1]));   /* input space: every width */
    char text[256];
    km_kernel_set_describe(fitted, 1, text, sizeof text);
    CHECK(strstr(text, ":rank=14:sampling=kmeans++") != NULL);
    km_provider_free(p);
    km_kernel_set_free(set);
    km_dataset_free(data);
    for (size_t i = 0; i < N; i++)   /* three distinct rows, repeated: three landmarks of the ten asked for */
        for (size_t j = 0; j < D; j++)
            X[i * D + j] = (double)(i % 3 == j);
    CHECK_OK(km_dataset_from_dense(N, D, X, NULL, &data));
    size_t L;
    double error = trace_error(data, "rbf:gamma=0.5:rank=10:sampling=kmeans++", &L);
    CHECK(L == 3);
    CHECK(fabs(error) < 1e-9);
    km_dataset_free(data);
}

/* The scores from the uniform approximation's features (landmarks.h) against
 * (K_ii - k_S(x_i)' (K_SS + mu I)^-1 k_S(x_i)) / lambda solved here, with lambda the residual trace / L. */
KM_TEST_CASE(leverage_scores_by_an_independent_solve)
{
    enum { L = 9 };
    double X[N * D], K[N * N];
    km_dataset *data = random_rows(9, X);
    gram(data, "rbf:gamma=0.8", K, NULL);
    km_kernel_set *set = kernel_set("rbf:gamma=0.8:rank=9");
    km_provider *p;
    CHECK_OK(km_provider_new(data, NULL, 0, set, 1 << 22, NULL, &p));
    const km_kernel *k = &km_provider_fitted_set(p)->kernels[0];
    km_feature_block block;
    km_provider_feature_block(p, 0, &block);
    CHECK(block.phi && block.r == L && k->rank_kept == L);
    double eigenvalues[L], diagonal[N], scores[N], lambda, residual = 0;
    for (size_t c = 0; c < L; c++) {
        double norm = 0;
        for (size_t l = 0; l < L; l++)
            norm += k->projection[l * L + c] * k->projection[l * L + c];
        eigenvalues[c] = 1.0 / norm;
    }
    for (size_t i = 0; i < N; i++) {
        diagonal[i] = K[i * N + i];
        double approx = 0;
        for (size_t c = 0; c < L; c++)
            approx += block.phi[i * L + c] * block.phi[i * L + c];
        residual += diagonal[i] - approx;
    }
    km_landmarks_leverage_scores(block.phi, N, L, eigenvalues, diagonal, L, &lambda, scores);
    CHECK_NEAR(lambda, residual / L, 1e-12);
    CHECK(lambda > 1e-3);
    double mu = lambda * L / N;
    for (size_t i = 0; i < N; i++) {
        double A[L * L], u[L], middle = 0;
        for (size_t a = 0; a < L; a++) {
            for (size_t b = 0; b < L; b++)
                A[a * L + b] = rbf(k->landmarks + a * D, k->landmarks + b * D, 0.8) + (a == b ? mu : 0.0);
            u[a] = rbf(k->landmarks + a * D, X + i * D, 0.8);
        }
        double v[L];
        memcpy(v, u, sizeof v);
        solve(A, v, L);
        for (size_t a = 0; a < L; a++)
            middle += u[a] * v[a];
        CHECK_NEAR(scores[i], (diagonal[i] - middle) / lambda, 1e-8);
    }
    km_provider_free(p);
    km_kernel_set_free(set);
    km_dataset_free(data);
}

KM_TEST_CASE(weighted_draw_keeps_to_positive_weights)
{
    double w[N];
    for (size_t i = 0; i < N; i++)
        w[i] = i % 4 == 1 ? 1.0 + (double)i : 0.0;   /* 10 rows of positive weight */
    size_t *chosen, count;
    CHECK_OK(km_landmarks_weighted(w, N, 6, &chosen, &count));
    CHECK(count == 6);
    for (size_t t = 0; t < count; t++) {
        CHECK(chosen[t] < N && w[chosen[t]] > 0);
        CHECK(t == 0 || chosen[t - 1] < chosen[t]);   /* distinct, ascending */
    }
    free(chosen);
    CHECK_OK(km_landmarks_weighted(w, N, 25, &chosen, &count));   /* more asked than weights are positive */
    CHECK(count == 10);
    free(chosen);
}

KM_TEST_CASE(spec_key_sampling)
{
    km_kernel_set *set = kernel_set("rbf:rank=20:sampling=uniform,leverage");
    CHECK(set->size == 2);
    CHECK(set->kernels[0].landmark_sampling == KM_LANDMARKS_UNIFORM);
    CHECK(set->kernels[1].landmark_sampling == KM_LANDMARKS_LEVERAGE);
    km_kernel_set_free(set);
    km_kernel_set *bad;
    CHECK_OK(km_kernel_set_new(&bad));
    CHECK_STATUS(km_kernel_set_add_spec(bad, "rbf:sampling=kmeans++"), KM_EINVAL);
    CHECK(strstr(km_last_error(), "sampling= chooses the landmark rows of a low-rank kernel: give rank= too") != NULL);
    CHECK_STATUS(km_kernel_set_add_spec(bad, "rbf:rank=5:icd=1e-3:sampling=leverage"), KM_EINVAL);
    CHECK(strstr(km_last_error(), "give either icd=") != NULL);
    CHECK_STATUS(km_kernel_set_add_spec(bad, "rbf:rank=5:sampling=kmeans"), KM_EINVAL);
    CHECK(strstr(km_last_error(), "unknown landmark sampling 'kmeans' (uniform, kmeans++ or leverage)") != NULL);
    CHECK_STATUS(km_kernel_set_add_spec(bad, "chi2:rank=5:sampling=leverage"), KM_EINVAL);
    CHECK(bad->size == 0);
    /* the set's default (km_kernel_set_set_default_low_rank): the kernels with a low-rank form whose specs
     * name no rank= take it, a spec's sampling= keeps the default rank only, chi2 stays exact */
    CHECK_STATUS(km_kernel_set_set_default_low_rank(bad, 10, "greedy", 0), KM_EINVAL);
    CHECK_STATUS(km_kernel_set_set_default_low_rank(bad, 10, "leverage", 1e-3), KM_EINVAL);
    CHECK_STATUS(km_kernel_set_set_default_low_rank(bad, 10, NULL, 1.5), KM_EINVAL);
    CHECK_OK(km_kernel_set_set_default_low_rank(bad, 10, NULL, 1e-2));
    CHECK_OK(km_kernel_set_add_spec(bad, "rbf:gamma=1"));
    CHECK_OK(km_kernel_set_add_spec(bad, "poly:rank=4"));
    CHECK_OK(km_kernel_set_add_spec(bad, "linear:sampling=kmeans++"));
    CHECK_OK(km_kernel_set_add_spec(bad, "chi2"));
    CHECK(bad->size == 4);
    CHECK(bad->kernels[0].rank == 10 && bad->kernels[0].icd_tolerance == 1e-2);
    CHECK(bad->kernels[1].rank == 4 && bad->kernels[1].icd_tolerance == 0);
    CHECK(bad->kernels[2].rank == 10 && bad->kernels[2].icd_tolerance == 0 &&
          bad->kernels[2].landmark_sampling == KM_LANDMARKS_KMEANSPP);
    CHECK(bad->kernels[3].rank == 0);
    km_kernel_set_free(bad);
}
