/* Kernel provider: every formula against direct evaluation, default widths, dense and sparse data,
 * cache sizes (tiny LRU, large LRU, full Gram), combined columns, row subsets, precomputed kernels. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/rng.h"
#include "data/dataset.h"
#include "data/matrix.h"
#include "kernel/provider.h"
#include "kernelmix.h"

/* ---- direct evaluation ------------------------------------------------------------------------ */

static double dot(const double *x, const double *y, const uint32_t *f, size_t nf, size_t d)
{
    double s = 0.0;
    for (size_t k = 0; k < (f ? nf : d); k++)
        s += x[f ? f[k] : k] * y[f ? f[k] : k];
    return s;
}

static double direct(const km_kernel *k, const double *x, const double *y, size_t d)
{
    const uint32_t *f = k->features;
    size_t nf = k->n_features;
    double s = 0.0;
    switch (k->type) {
    case KM_KERNEL_LINEAR:
        return dot(x, y, f, nf, d);
    case KM_KERNEL_POLY:
        return pow(k->gamma * dot(x, y, f, nf, d) + k->coef0, k->degree);
    case KM_KERNEL_SIGMOID:
        return tanh(k->gamma * dot(x, y, f, nf, d) + k->coef0);
    case KM_KERNEL_RBF:
        for (size_t j = 0; j < (f ? nf : d); j++) {
            double diff = x[f ? f[j] : j] - y[f ? f[j] : j];
            s += diff * diff;
        }
        return exp(-k->gamma * s);
    case KM_KERNEL_CHI2:
        for (size_t j = 0; j < (f ? nf : d); j++) {
            double a = x[f ? f[j] : j], b = y[f ? f[j] : j];
            if (a + b > 0)
                s += (a - b) * (a - b) / (a + b);
        }
        return exp(-k->gamma * s);
    case KM_KERNEL_HISTINT:
        for (size_t j = 0; j < (f ? nf : d); j++)
            s += fmin(x[f ? f[j] : j], y[f ? f[j] : j]);
        return s;
    default:
        return NAN;
    }
}

/* ---- data ------------------------------------------------------------------------------------- */

/* n×d values >= 0, about a fraction `zeros` of them 0 */
static double *random_matrix(uint64_t seed, size_t n, size_t d, double zeros)
{
    km_rng rng;
    km_rng_seed(&rng, seed);
    double *X = malloc(n * d * sizeof *X);
    for (size_t k = 0; k < n * d; k++)
        X[k] = km_rng_uniform(&rng) < zeros ? 0.0 : 2.0 * km_rng_uniform(&rng);
    return X;
}

static km_dataset *dense(const double *X, size_t n, size_t d)
{
    km_dataset *data;
    CHECK_OK(km_dataset_from_dense(n, d, X, NULL, &data));
    return data;
}

/* the same rows in CSR form (zeros not stored) */
static km_dataset *sparse(const double *X, size_t n, size_t d)
{
    km_dataset *data;
    CHECK_OK(km_dataset_alloc(&data));
    data->n = n;
    data->d = d;
    data->sparse = 1;
    data->row_start = malloc((n + 1) * sizeof *data->row_start);
    data->col = malloc(n * d * sizeof *data->col);
    data->val = malloc(n * d * sizeof *data->val);
    size_t pos = 0;
    for (size_t i = 0; i < n; i++) {
        data->row_start[i] = pos;
        for (size_t j = 0; j < d; j++)
            if (X[i * d + j] != 0.0) {
                data->col[pos] = (uint32_t)j;
                data->val[pos++] = X[i * d + j];
            }
    }
    data->row_start[n] = pos;
    return data;
}

static km_kernel_set *kernels(const char *const *specs, size_t count)
{
    km_kernel_set *set;
    CHECK_OK(km_kernel_set_new(&set));
    for (size_t k = 0; k < count; k++)
        CHECK_OK(km_kernel_set_add_spec(set, specs[k]));
    return set;
}

static const char *const formula_specs[] = {
    "linear", "poly:gamma=0.3:degree=3:coef0=1", "rbf:gamma=0.7", "sigmoid:gamma=0.05:coef0=-0.2",
    "chi2:gamma=0.4", "histint", "linear:features=2,4", "rbf:gamma=0.5:features=1-3", "poly:degree=2:features=5",
    "chi2:gamma=1.5:features=1,3-5", "histint:features=2-3",
    /* more widths of the chi2 kernels above: their distance columns are shared */
    "chi2:gamma=0.9", "chi2:gamma=3:features=1,3-5"};
#define N_FORMULAS (sizeof formula_specs / sizeof formula_specs[0])

/* Every column of every kernel equals direct evaluation, and so does the diagonal. */
static void check_formulas(const km_dataset *data, const double *X, size_t n, size_t d, size_t cache_bytes)
{
    km_kernel_set *set = kernels(formula_specs, N_FORMULAS);
    km_provider *p;
    CHECK_OK(km_provider_new(data, NULL, 0, set, cache_bytes, NULL, &p));
    const km_kernel_set *fitted = km_provider_fitted_set(p);
    CHECK(km_provider_n_rows(p) == n && km_provider_n_kernels(p) == N_FORMULAS);
    double *col = malloc(n * sizeof *col);
    size_t *rows = malloc(n * sizeof *rows);
    for (size_t r = 0; r < n; r++)
        rows[r] = (r * 7 + 3) % n;   /* a permutation */
    double worst = 0.0;
    for (size_t m = 0; m < N_FORMULAS; m++) {
        const km_kernel *k = &fitted->kernels[m];
        for (size_t i = 0; i < n; i++) {
            CHECK_OK(km_provider_column(p, m, i, rows, n, col));
            for (size_t r = 0; r < n; r++) {
                double want = direct(k, X + rows[r] * d, X + i * d, d);
                double err = fabs(col[r] - want) / fmax(1.0, fabs(want));
                worst = fmax(worst, err);
            }
            double want = direct(k, X + i * d, X + i * d, d);
            CHECK_NEAR(km_provider_diag(p, m)[i], want, 1e-12);
        }
    }
    CHECK(worst <= 1e-12);
    if (worst > 1e-12)
        fprintf(stderr, "largest relative error against direct evaluation: %g\n", worst);
    /* poly without gamma gets LIBSVM's 1/(number of features) */
    CHECK(fitted->kernels[8].gamma == 1.0 && fitted->kernels[8].gamma_mode == KM_GAMMA_ABSOLUTE);
    free(col);
    free(rows);
    km_provider_free(p);
    km_kernel_set_free(set);
}

static void test_formulas_dense_and_sparse(void)
{
    size_t n = 23, d = 12;   /* views of all features use BLAS, small subsets direct loops */
    double *X = random_matrix(11, n, d, 0.3);
    km_dataset *a = dense(X, n, d), *b = sparse(X, n, d);
    check_formulas(a, X, n, d, 100u << 20);   /* full Gram */
    check_formulas(a, X, n, d, 0);            /* dot-product columns on demand */
    check_formulas(b, X, n, d, 100u << 20);
    check_formulas(b, X, n, d, 0);
    km_dataset_free(a);
    km_dataset_free(b);
    free(X);

    /* high-dimensional, very sparse data stays CSR inside the provider */
    n = 40;
    d = 300;
    X = random_matrix(12, n, d, 0.97);
    a = dense(X, n, d);
    b = sparse(X, n, d);
    const char *specs[] = {"linear", "rbf:gamma=0.1", "chi2:gamma=0.05", "histint", "poly:degree=2:coef0=1:gamma=0.5",
                           "chi2:gamma=0.5"};   /* two chi2 widths: cross values share one distance block */
    km_kernel_set *set = kernels(specs, 6);
    km_provider *pa, *pb;
    CHECK_OK(km_provider_new(a, NULL, 0, set, 1u << 20, NULL, &pa));
    CHECK_OK(km_provider_new(b, NULL, 0, set, 0, NULL, &pb));
    double ca[40], cb[40];
    double worst = 0.0;
    for (size_t m = 0; m < 6; m++)
        for (size_t i = 0; i < n; i++) {
            CHECK_OK(km_provider_column(pa, m, i, NULL, n, ca));
            CHECK_OK(km_provider_column(pb, m, i, NULL, n, cb));
            for (size_t r = 0; r < n; r++) {
                worst = fmax(worst, fabs(ca[r] - cb[r]) / fmax(1.0, fabs(ca[r])));
                worst = fmax(worst, fabs(ca[r] - direct(&km_provider_fitted_set(pa)->kernels[m], X + r * d, X + i * d, d)) /
                                        fmax(1.0, fabs(ca[r])));
            }
        }
    CHECK(worst <= 1e-12);
    /* cross kernels: sparse x sparse, dense x sparse and sparse x dense views give the training values */
    const km_kernel_set *fitted = km_provider_fitted_set(pb);
    double *cross = malloc(6 * n * n * sizeof *cross);
    const km_dataset *pairs[3][2] = {{b, b}, {a, b}, {b, a}};
    worst = 0.0;
    for (size_t c = 0; c < 3; c++) {
        CHECK_OK(km_kernel_cross(fitted, pairs[c][0], NULL, n, pairs[c][1], NULL, n, NULL, NULL, NULL, cross));
        for (size_t m = 0; m < 6; m++)
            for (size_t i = 0; i < n; i++) {
                CHECK_OK(km_provider_column(pb, m, i, NULL, n, cb));
                for (size_t t = 0; t < n; t++)
                    worst = fmax(worst, fabs(cross[(m * n + t) * n + i] - cb[t]) / fmax(1.0, fabs(cb[t])));
            }
    }
    CHECK(worst <= 1e-12);
    free(cross);
    km_provider_free(pa);
    km_provider_free(pb);
    km_kernel_set_free(set);
    km_dataset_free(a);
    km_dataset_free(b);
    free(X);
}

/* gamma=auto: 1/mean squared distance (rbf), 1/mean chi2 distance (chi2), over the pairs i < j. */
static void test_default_widths(void)
{
    size_t n = 17, d = 4;
    double *X = random_matrix(5, n, d, 0.2);
    km_dataset *data = dense(X, n, d);
    const char *specs[] = {"rbf", "rbf:gamma=2^-1..2^1/mean", "chi2", "chi2:gamma=3/mean:features=2-3",
                           "rbf:features=1", "sigmoid", "poly:features=2-3"};
    km_kernel_set *set = kernels(specs, 7);
    km_kernel_set *fitted;
    CHECK_OK(km_kernel_set_fit(set, data, &fitted));
    double sq = 0, chi = 0, chi23 = 0, sq1 = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            for (size_t f = 0; f < d; f++) {
                double a = X[i * d + f], b = X[j * d + f];
                double c = a + b > 0 ? (a - b) * (a - b) / (a + b) : 0.0;
                sq += (a - b) * (a - b);
                chi += c;
                chi23 += (f == 1 || f == 2) ? c : 0.0;
                sq1 += f == 0 ? (a - b) * (a - b) : 0.0;
            }
    double pairs = n * (n - 1) / 2.0;
    const km_kernel *k = fitted->kernels;
    for (size_t m = 0; m < fitted->size; m++)
        CHECK(k[m].gamma_mode == KM_GAMMA_ABSOLUTE && k[m].fitted);
    CHECK_NEAR(k[0].gamma, pairs / sq, 1e-12);
    CHECK_NEAR(k[1].gamma, 0.5 * pairs / sq, 1e-12);
    CHECK_NEAR(k[3].gamma, 2.0 * pairs / sq, 1e-12);
    CHECK_NEAR(k[4].gamma, pairs / chi, 1e-12);
    CHECK_NEAR(k[5].gamma, 3.0 * pairs / chi23, 1e-12);
    CHECK_NEAR(k[6].gamma, pairs / sq1, 1e-12);
    CHECK(k[7].gamma == 0.25);   /* 1/d */
    CHECK(k[8].gamma == 0.5);    /* 1/(features in the subset) */
    /* the fitted description carries the resolved width exactly */
    char buf[256];
    km_kernel_set_describe(fitted, 0, buf, sizeof buf);
    km_kernel_set *back;
    CHECK_OK(km_kernel_set_new(&back));
    CHECK_OK(km_kernel_set_add_spec(back, buf));
    CHECK(back->kernels[0].gamma == k[0].gamma && back->kernels[0].gamma_mode == KM_GAMMA_ABSOLUTE);
    km_kernel_set_free(back);
    km_kernel_set_free(fitted);
    km_kernel_set_free(set);

    /* identical rows: no width can be derived */
    double same[6] = {1, 2, 1, 2, 1, 2};
    km_dataset *flat = dense(same, 3, 2);
    set = kernels(specs, 1);
    CHECK_STATUS(km_kernel_set_fit(set, flat, &fitted), KM_EINVAL);
    CHECK(strstr(km_last_error(), "rbf") != NULL);
    km_kernel_set_free(set);
    km_dataset_free(flat);
    km_dataset_free(data);
    free(X);
}

/* Columns do not depend on the cache: a tiny LRU cache (evicting all the time) gives exactly the
 * columns of a large one; a full Gram matrix (dsyrk instead of dgemv) agrees to rounding. */
static void test_cache_sizes(void)
{
    size_t n = 150, d = 12;
    double *X = random_matrix(21, n, d, 0.1);
    km_dataset *data = dense(X, n, d);
    const char *specs[] = {"rbf:gamma=0.3:norm=mult", "poly:degree=2:gamma=0.1:coef0=1", "chi2:gamma=0.2:center=1",
                           "linear:norm=spherical", "histint:features=1-3:norm=trace", "rbf:features=4-12"};
    km_kernel_set *set = kernels(specs, 6);
    size_t gram = n * n * sizeof(double);
    km_provider *tiny, *lru, *full;
    CHECK_OK(km_provider_new(data, NULL, 0, set, 1, NULL, &tiny));
    CHECK_OK(km_provider_new(data, NULL, 0, set, gram - 1, NULL, &lru));
    CHECK_OK(km_provider_new(data, NULL, 0, set, 64 * gram, NULL, &full));
    km_rng rng;
    km_rng_seed(&rng, 3);
    size_t rows[150];
    double a[150], b[150], c[150];
    int exact = 1;
    double worst = 0.0;
    for (int request = 0; request < 600; request++) {
        size_t m = km_rng_below(&rng, 6), i = km_rng_below(&rng, 20);   /* a few columns, asked again and again */
        size_t nrows = km_rng_uniform(&rng) < 0.5 ? n : 1 + km_rng_below(&rng, 40);
        for (size_t r = 0; r < nrows; r++)
            rows[r] = nrows == n ? r : km_rng_below(&rng, n);
        CHECK_OK(km_provider_column(tiny, m, i, rows, nrows, a));
        CHECK_OK(km_provider_column(lru, m, i, rows, nrows, b));
        CHECK_OK(km_provider_column(full, m, i, rows, nrows, c));
        exact &= memcmp(a, b, nrows * sizeof *a) == 0;
        for (size_t r = 0; r < nrows; r++)
            worst = fmax(worst, fabs(a[r] - c[r]) / fmax(1.0, fabs(c[r])));
    }
    CHECK(exact);
    CHECK(worst <= 1e-13);
    for (size_t m = 0; m < 6; m++)
        CHECK(memcmp(km_provider_diag(tiny, m), km_provider_diag(lru, m), n * sizeof(double)) == 0);
    km_provider_free(tiny);
    km_provider_free(lru);
    km_provider_free(full);
    km_kernel_set_free(set);
    km_dataset_free(data);
    free(X);
}

/* Combined column = weighted sum of the kernel columns (zero weights skipped); row subsets of the
 * data give the same values as the corresponding entries over all rows. */
static void test_combined_and_subsets(void)
{
    size_t n = 40, d = 3;
    double *X = random_matrix(8, n, d, 0.0);
    km_dataset *data = dense(X, n, d);
    const char *specs[] = {"rbf:gamma=0.5", "linear:features=1", "poly:degree=2:gamma=1:coef0=1", "histint:norm=spherical",
                           "rbf:gamma=2:features=2-3"};
    km_kernel_set *set = kernels(specs, 5);
    km_provider *p;
    CHECK_OK(km_provider_new(data, NULL, 0, set, 0, NULL, &p));
    double w[5] = {0.5, 0.0, 0.25, 2.0, 1.5};
    size_t rows[] = {39, 0, 7, 7, 12, 3};
    double combined[6], col[6];
    for (size_t i = 0; i < n; i += 3) {
        CHECK_OK(km_provider_combined_column(p, w, i, rows, 6, combined));
        double want[6] = {0};
        for (size_t m = 0; m < 5; m++) {
            CHECK_OK(km_provider_column(p, m, i, rows, 6, col));
            for (size_t r = 0; r < 6; r++)
                want[r] += w[m] * col[r];
        }
        for (size_t r = 0; r < 6; r++)
            CHECK_NEAR(combined[r], want[r], 1e-14);
    }

    /* a provider on rows {5, 17, 2, 30, 11} of the data */
    size_t sub[] = {5, 17, 2, 30, 11};
    km_kernel_set *plain = kernels(specs, 3);
    km_provider *ps, *pf;
    CHECK_OK(km_provider_new(data, sub, 5, plain, 0, NULL, &ps));
    CHECK_OK(km_provider_new(data, NULL, 0, plain, 0, NULL, &pf));
    CHECK(km_provider_n_rows(ps) == 5);
    size_t local[] = {0, 1, 2, 3, 4};
    for (size_t m = 0; m < 3; m++)
        for (size_t i = 0; i < 5; i++) {
            CHECK_OK(km_provider_column(ps, m, i, local, 5, col));
            double full_col[5];
            CHECK_OK(km_provider_column(pf, m, sub[i], sub, 5, full_col));
            for (size_t r = 0; r < 5; r++)
                CHECK_NEAR(col[r], full_col[r], 1e-13);
        }
    /* out-of-range requests */
    CHECK_STATUS(km_provider_column(ps, 0, 5, local, 5, col), KM_EINVAL);
    CHECK_STATUS(km_provider_column(ps, 3, 0, local, 5, col), KM_EINVAL);
    size_t out_of_data[] = {1, 40};
    km_provider *none;
    CHECK_STATUS(km_provider_new(data, out_of_data, 2, plain, 0, NULL, &none), KM_EINVAL);
    km_provider_free(ps);
    km_provider_free(pf);
    km_provider_free(p);
    km_kernel_set_free(plain);
    km_kernel_set_free(set);
    km_dataset_free(data);
    free(X);
}

/* An n x n binary matrix file (KMMATRIX version 1, float32, little-endian) of the values, whatever
 * they are. */
static void write_float32_file(const char *path, const double *values, size_t n)
{
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (!f)
        return;
    unsigned char header[32] = "KMMATRIX";
    uint64_t fields[3] = {1 | (uint64_t)KM_FLOAT32 << 32, n, n};   /* version 1, dtype; rows; cols */
    CHECK(km_host_is_little_endian());
    memcpy(header + 8, fields, sizeof fields);
    fwrite(header, 1, sizeof header, f);
    for (size_t v = 0; v < n * n; v++) {
        float x = (float)values[v];
        fwrite(&x, sizeof x, 1, f);
    }
    fclose(f);
}

/* Precomputed kernels: an in-memory matrix, a matrix file, and the dataset's own kernel rows all
 * give the values of the kernel they hold; bad matrices are refused. */
static void test_precomputed(void)
{
    size_t n = 12, d = 3;
    double *X = random_matrix(31, n, d, 0.0);
    km_dataset *data = dense(X, n, d);
    km_kernel rbf = {.type = KM_KERNEL_RBF, .gamma = 0.8};
    km_matrix *K;
    CHECK_OK(km_matrix_new(n, n, &K));
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            K->data[i * n + j] = direct(&rbf, X + i * d, X + j * d, d);
    CHECK_OK(km_matrix_write(K, "test_kernel_provider_K.bin", KM_FLOAT64));

    /* the dataset's own rows: label 0:id 1:K(x,x_1) ... (ids in shuffled order) */
    km_dataset *rowsdata;
    CHECK_OK(km_dataset_alloc(&rowsdata));
    rowsdata->n = n;
    rowsdata->d = n;
    rowsdata->X = malloc(n * n * sizeof(double));
    rowsdata->ids = malloc(n * sizeof(double));
    memcpy(rowsdata->X, K->data, n * n * sizeof(double));
    for (size_t i = 0; i < n; i++)
        rowsdata->ids[i] = (double)(i + 1);

    km_kernel_set *set;
    CHECK_OK(km_kernel_set_new(&set));
    CHECK_OK(km_kernel_set_add_matrix(set, K, KM_NORM_NONE, 0));
    CHECK_OK(km_kernel_set_add_spec(set, "precomputed:file=test_kernel_provider_K.bin:norm=mult"));
    CHECK_OK(km_kernel_set_add_spec(set, "rbf:gamma=0.8:norm=mult"));
    km_provider *p;
    size_t sub[] = {3, 9, 0, 4, 11, 7};
    CHECK_OK(km_provider_new(data, sub, 6, set, 0, NULL, &p));
    double c0[6], c1[6], c2[6];
    size_t rows[] = {5, 0, 2, 2, 1, 4};
    for (size_t i = 0; i < 6; i++) {
        CHECK_OK(km_provider_column(p, 0, i, rows, 6, c0));
        CHECK_OK(km_provider_column(p, 1, i, rows, 6, c1));
        CHECK_OK(km_provider_column(p, 2, i, rows, 6, c2));
        for (size_t r = 0; r < 6; r++) {
            CHECK(c0[r] == K->data[sub[rows[r]] * n + sub[i]]);
            CHECK_NEAR(c1[r], c2[r], 1e-13);
        }
    }
    km_provider_free(p);
    km_kernel_set_free(set);

    CHECK_OK(km_kernel_set_new(&set));
    CHECK_OK(km_kernel_set_add_spec(set, "precomputed:norm=spherical"));
    CHECK_OK(km_provider_new(rowsdata, sub, 6, set, 0, NULL, &p));
    for (size_t i = 0; i < 6; i++) {
        CHECK_OK(km_provider_column(p, 0, i, rows, 6, c0));
        for (size_t r = 0; r < 6; r++)
            CHECK_NEAR(c0[r], K->data[sub[rows[r]] * n + sub[i]], 1e-15);   /* rbf: spherical changes nothing */
        CHECK_NEAR(km_provider_diag(p, 0)[i], 1.0, 1e-15);
    }
    km_provider_free(p);
    /* without 0:id rows there is nothing to read */
    CHECK_STATUS(km_provider_new(data, NULL, 0, set, 0, NULL, &p), KM_EINVAL);
    CHECK(strstr(km_last_error(), "0:id") != NULL);
    km_kernel_set_free(set);

    /* a matrix of the wrong size, and an asymmetric one */
    km_matrix *small;
    CHECK_OK(km_matrix_new(n - 1, n - 1, &small));
    CHECK_OK(km_kernel_set_new(&set));
    CHECK_OK(km_kernel_set_add_matrix(set, small, KM_NORM_NONE, 0));
    CHECK_STATUS(km_provider_new(data, NULL, 0, set, 0, NULL, &p), KM_EINVAL);
    CHECK(strstr(km_last_error(), "11 x 11 but the data has 12 rows") != NULL);
    km_kernel_set_free(set);
    K->data[2 * n + 5] += 1e-6;
    CHECK_OK(km_matrix_write(K, "test_kernel_provider_K.bin", KM_FLOAT64));
    CHECK_OK(km_kernel_set_new(&set));
    CHECK_OK(km_kernel_set_add_spec(set, "precomputed:file=test_kernel_provider_K.bin"));
    CHECK_STATUS(km_provider_new(data, NULL, 0, set, 0, NULL, &p), KM_EINVAL);
    CHECK(strstr(km_last_error(), "test_kernel_provider_K.bin is not symmetric") != NULL);
    /* rows that leave the asymmetric pair out are fine */
    size_t without[] = {0, 1, 3, 4};
    CHECK_OK(km_provider_new(data, without, 4, set, 0, NULL, &p));
    km_provider_free(p);
    km_kernel_set_free(set);
    /* a training matrix file's values are tested finite by the provider (km_matrix_read_training
     * leaves them to it), all of them whichever rows it trains on: the first 11 rows (a float pass
     * over them would not read row 12), all rows, other rows */
    K->data[2 * n + 5] -= 1e-6;
    K->data[2 * n + 11] = K->data[11 * n + 2] = NAN;
    write_float32_file("test_kernel_provider_K.bin", K->data, n);   /* km_matrix_write refuses NaN */
    size_t prefix[11];
    for (size_t r = 0; r < 11; r++)
        prefix[r] = r;
    const size_t *subsets[] = {prefix, NULL, without};
    const size_t counts[] = {11, 0, 4};
    for (size_t t = 0; t < 3; t++) {
        CHECK_OK(km_kernel_set_new(&set));
        CHECK_OK(km_kernel_set_add_spec(set, "precomputed:file=test_kernel_provider_K.bin"));
        CHECK_STATUS(km_provider_new(data, subsets[t], counts[t], set, 0, NULL, &p), KM_EFORMAT);
        CHECK(strstr(km_last_error(), "test_kernel_provider_K.bin: entry (2, 11) is not finite") != NULL);
        km_kernel_set_free(set);
    }
    remove("test_kernel_provider_K.bin");
    km_matrix_free(small);
    km_matrix_free(K);
    km_dataset_free(rowsdata);
    km_dataset_free(data);
    free(X);
}

/* chi2 and histint need features >= 0 and say which kernel refused. */
static void test_negative_features(void)
{
    double X[6] = {1, 0.5, 2, -0.1, 0, 1};
    km_dataset *data = dense(X, 3, 2);
    const char *specs[] = {"chi2:gamma=1", "histint:features=2", "chi2:gamma=1:features=1"};
    for (size_t s = 0; s < 2; s++) {
        km_kernel_set *set = kernels(specs + s, 1);
        km_provider *p;
        CHECK_STATUS(km_provider_new(data, NULL, 0, set, 0, NULL, &p), KM_EINVAL);
        CHECK(strstr(km_last_error(), specs[s]) != NULL && strstr(km_last_error(), ">= 0") != NULL);
        km_kernel_set_free(set);
    }
    km_kernel_set *set = kernels(specs + 2, 1);   /* feature 1 has no negative value */
    km_provider *p;
    CHECK_OK(km_provider_new(data, NULL, 0, set, 0, NULL, &p));
    km_provider_free(p);
    km_kernel_set_free(set);
    km_dataset_free(data);
}

/* A float32 matrix file is held as floats: every column equals the one served from a double matrix
 * of the same (rounded) values, with all rows in order and with a subset, normalized or not; the
 * symmetry check reads the float storage too. */
static void test_precomputed_float32(void)
{
    size_t n = 10, d = 2;
    double *X = random_matrix(37, n, d, 0.0);
    km_dataset *data = dense(X, n, d);
    km_kernel rbf = {.type = KM_KERNEL_RBF, .gamma = 0.6};
    km_matrix *K, *K32 = NULL;
    CHECK_OK(km_matrix_new(n, n, &K));
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            K->data[i * n + j] = (float)direct(&rbf, X + i * d, X + j * d, d);
    CHECK_OK(km_matrix_write(K, "test_kernel_provider_K32.bin", KM_FLOAT32));
    CHECK_OK(km_matrix_read("test_kernel_provider_K32.bin", &K32));
    CHECK(K32 && K32->data32 && !K32->data);
    size_t sub[] = {7, 2, 9, 0, 5};
    const char *norms[] = {"none", "mult", "spherical"};
    for (size_t v = 0; K32 && v < 3 * 2; v++) {
        km_normalization norm = v / 2 == 0 ? KM_NORM_NONE : v / 2 == 1 ? KM_NORM_MULTIPLICATIVE : KM_NORM_SPHERICAL;
        const size_t *rows = v % 2 ? sub : NULL;
        size_t nrows = v % 2 ? 5 : n;
        km_kernel_set *set;
        km_provider *p = NULL;
        CHECK_OK(km_kernel_set_new(&set));
        CHECK_OK(km_kernel_set_add_matrix(set, K32, norm, 0));
        CHECK_OK(km_kernel_set_add_matrix(set, K, norm, 0));
        CHECK_OK(km_provider_new(data, rows, nrows, set, 0, NULL, &p));
        double a[10], b[10];
        for (size_t i = 0; p && i < nrows; i++) {
            CHECK_OK(km_provider_column(p, 0, i, NULL, nrows, a));
            CHECK_OK(km_provider_column(p, 1, i, NULL, nrows, b));
            for (size_t r = 0; r < nrows; r++)
                if (a[r] != b[r]) {
                    fprintf(stderr, "norm %s, rows %s: column %zu row %zu: %.17g != %.17g\n", norms[v / 2],
                            rows ? "subset" : "all", i, r, a[r], b[r]);
                    check_failures++;
                }
        }
        /* columns in place: one storage, unnormalized, on all rows in order; never float and double mixed */
        CHECK(p && km_provider_in_place_size(p) == 0);
        km_kernel_set *alone;
        km_provider *q = NULL;
        CHECK_OK(km_kernel_set_new(&alone));
        CHECK_OK(km_kernel_set_add_matrix(alone, K32, norm, 0));
        CHECK_OK(km_provider_new(data, rows, nrows, alone, 0, NULL, &q));
        size_t in_place = norm == KM_NORM_NONE && !rows ? sizeof(float) : 0;
        CHECK(q && km_provider_in_place_size(q) == in_place);
        for (size_t i = 0; q && in_place && i < nrows; i++) {
            const void *values;
            km_provider_columns_in_place(q, i, &values);
            CHECK_OK(km_provider_column(q, 0, i, NULL, nrows, a));
            for (size_t r = 0; r < nrows; r++)
                CHECK((double)((const float *)values)[r] == a[r]);
        }
        km_provider_free(q);
        km_kernel_set_free(alone);
        km_provider_free(p);
        km_kernel_set_free(set);
    }
    /* an asymmetric float32 matrix, on all rows */
    K->data[3 * n + 1] += 1e-3;
    CHECK_OK(km_matrix_write(K, "test_kernel_provider_K32.bin", KM_FLOAT32));
    km_kernel_set *set;
    km_provider *p = NULL;
    CHECK_OK(km_kernel_set_new(&set));
    CHECK_OK(km_kernel_set_add_spec(set, "precomputed:file=test_kernel_provider_K32.bin"));
    CHECK_STATUS(km_provider_new(data, NULL, 0, set, 0, NULL, &p), KM_EINVAL);
    CHECK(strstr(km_last_error(), "is not symmetric: K[4][2]") != NULL);
    km_kernel_set_free(set);
    remove("test_kernel_provider_K32.bin");
    km_matrix_free(K32);
    km_matrix_free(K);
    km_dataset_free(data);
    free(X);
}

KM_TEST_CASE(formulas_dense_and_sparse) { test_formulas_dense_and_sparse(); }
KM_TEST_CASE(default_widths) { test_default_widths(); }
/* Counts the debug messages that say a focus Gram matrix serves the dot products. */
static void count_focus(void *user, km_log_level level, const char *message)
{
    if (level == KM_LOG_DEBUG && strstr(message, "focus rows"))
        (*(int *)user)++;
}

/* A provider without room for the N x N dot products takes the Gram matrix of a machine's rows while
 * focused (km_provider_focus): the focus rows' kernel columns equal those of a provider holding the
 * whole Gram to 1e-13 (relative), a budget too small for the focus Gram leaves the columns as they were,
 * and after km_provider_unfocus every row is served again. */
static void test_focus(void)
{
    size_t n = 200, d = 30, half = 100;
    double *X = random_matrix(31, n, d, 0.2);
    km_dataset *data = dense(X, n, d);
    const char *specs[] = {"rbf:gamma=0.05", "poly:degree=2:gamma=0.1:coef0=1", "linear:norm=spherical"};
    km_kernel_set *set = kernels(specs, 3);
    size_t gram = n * n * sizeof(double);
    int focused = 0, unfocusable = 0;
    km_logger counter = {count_focus, &focused}, other = {count_focus, &unfocusable};
    km_provider *small, *tiny, *full;
    CHECK_OK(km_provider_new(data, NULL, 0, set, gram / 2, &counter, &small));
    CHECK_OK(km_provider_new(data, NULL, 0, set, half * half * sizeof(double) / 2, &other, &tiny));
    CHECK_OK(km_provider_new(data, NULL, 0, set, 64 * gram, NULL, &full));
    size_t rows[200], all[200];
    for (size_t k = 0; k < half; k++)
        rows[k] = 2 * k + 1;
    for (size_t k = 0; k < n; k++)
        all[k] = k;
    km_provider_focus(small, rows, half);
    km_provider_focus(tiny, rows, half);
    CHECK(focused == 1 && unfocusable == 0);
    double a[200], b[200], c[200], worst = 0.0;
    for (size_t m = 0; m < 3; m++)
        for (size_t k = 0; k < half; k += 7) {
            CHECK_OK(km_provider_column(small, m, rows[k], rows, half, a));
            CHECK_OK(km_provider_column(tiny, m, rows[k], rows, half, b));
            CHECK_OK(km_provider_column(full, m, rows[k], rows, half, c));
            for (size_t r = 0; r < half; r++)
                worst = fmax(worst, fmax(fabs(a[r] - c[r]), fabs(b[r] - c[r])) / fmax(1.0, fabs(c[r])));
        }
    km_provider_unfocus(small);
    km_provider_unfocus(tiny);
    for (size_t m = 0; m < 3; m++)
        for (size_t i = 0; i < n; i += 13) {
            CHECK_OK(km_provider_column(small, m, i, all, n, a));
            CHECK_OK(km_provider_column(full, m, i, all, n, c));
            for (size_t r = 0; r < n; r++)
                worst = fmax(worst, fabs(a[r] - c[r]) / fmax(1.0, fabs(c[r])));
        }
    CHECK(worst <= 1e-13);
    km_provider_free(small);
    km_provider_free(tiny);
    km_provider_free(full);
    km_kernel_set_free(set);
    km_dataset_free(data);
    free(X);
}

KM_TEST_CASE(cache_sizes) { test_cache_sizes(); }
KM_TEST_CASE(focus) { test_focus(); }
KM_TEST_CASE(combined_and_subsets) { test_combined_and_subsets(); }
KM_TEST_CASE(precomputed) { test_precomputed(); }
KM_TEST_CASE(precomputed_float32) { test_precomputed_float32(); }
KM_TEST_CASE(negative_features) { test_negative_features(); }
