/* The kernel access made from a kernel view (svm/view_access.h): every callback it fills (column,
 * kernel_columns, kernel_blocks, combined, kernel_rows) gives the kernel values evaluated directly from
 * the data, on a row subset, on kernels scaled per row and repeated, on precomputed matrices read in
 * place and on string kernels; its flags are the view's, and only such an access knows its view. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/rng.h"
#include "kernel/kernel_view.h"
#include "kernel/provider.h"
#include "kernelmix.h"
#include "svm/interruptible_access.h"
#include "svm/view_access.h"

#define N 10
#define D 3
#define MAX_KERNELS 4
#define MAX_ROWS N

/* The expected values of an access: E[(v n + i) n + j] = K'_v(i, j) on its n view rows. */
typedef struct expected {
    size_t n, V;
    double E[MAX_KERNELS * MAX_ROWS * MAX_ROWS];
} expected;

static double value(const expected *e, size_t v, size_t i, size_t j) { return e->E[(v * e->n + i) * e->n + j]; }

static void check_value(double got, double want)
{
    CHECK_NEAR(got, want, 1e-12 * (1.0 + fabs(want)));
}

/* Every callback of a, on all rows and on a subset of rows in its own order, against e. */
static void check_callbacks(const km_kernel_access *a, const expected *e)
{
    size_t n = e->n, V = e->V;
    CHECK(a->n_rows == n && a->n_kernels == V);
    if (a->n_rows != n || a->n_kernels != V)
        return;
    const size_t some[3] = {n - 1, 0, 2};
    double one[MAX_ROWS], all[MAX_KERNELS * MAX_ROWS], blocks[3 * MAX_KERNELS * MAX_ROWS], fallback[3 * MAX_KERNELS * MAX_ROWS];
    for (size_t i = 0; i < n; i++) {
        for (size_t v = 0; v < V; v++) {
            check_value(a->diag[v][i], value(e, v, i, i));
            CHECK_OK(a->column(a->column_ctx, v, i, NULL, n, one));
            for (size_t j = 0; j < n; j++)
                check_value(one[j], value(e, v, j, i));
            CHECK_OK(a->column(a->column_ctx, v, i, some, 3, one));
            for (size_t k = 0; k < 3; k++)
                check_value(one[k], value(e, v, some[k], i));
        }
        CHECK_OK(a->kernel_columns(a->column_ctx, i, some, 3, all));
        for (size_t v = 0; v < V; v++)
            for (size_t k = 0; k < 3; k++)
                check_value(all[v * 3 + k], value(e, v, some[k], i));
        if (a->kernel_rows) {
            const void *values[MAX_KERNELS];
            CHECK_OK(a->kernel_rows(a->column_ctx, i, values));
            for (size_t v = 0; v < V; v++)
                for (size_t j = 0; j < n; j++)
                    check_value(a->kernel_rows_size == sizeof(float) ? ((const float *)values[v])[j]
                                                                      : ((const double *)values[v])[j],
                                value(e, v, j, i));
        }
    }
    /* several rows' kernel columns at once, directly and through km_kernel_access_blocks */
    const size_t cols[3] = {1, n - 1, 0};
    CHECK_OK(a->kernel_blocks(a->column_ctx, cols, 3, some, 3, blocks));
    CHECK_OK(km_kernel_access_blocks(a, cols, 3, some, 3, fallback));
    for (size_t t = 0; t < 3; t++)
        for (size_t v = 0; v < V; v++)
            for (size_t k = 0; k < 3; k++) {
                check_value(blocks[(t * V + v) * 3 + k], value(e, v, some[k], cols[t]));
                check_value(fallback[(t * V + v) * 3 + k], value(e, v, some[k], cols[t]));
            }
    /* the combination with the access's weights */
    CHECK_OK(a->combined(a->column_ctx, a->theta, cols, 3, NULL, n, blocks));
    for (size_t t = 0; t < 3; t++)
        for (size_t j = 0; j < n; j++) {
            double sum = 0;
            for (size_t v = 0; v < V; v++)
                sum += a->theta[v] * value(e, v, j, cols[t]);
            check_value(blocks[t * n + j], sum);
        }
}

static int never(void *ctx)
{
    (void)ctx;
    return 0;
}

/* The access of view: the view's own callbacks, size and flags, and its view back; a wrapper has none. */
static void check_made_from(const km_kernel_access *a, km_kernel_view *view, double *theta)
{
    CHECK(a->column_ctx == view && a->theta == theta && a->diag == km_kernel_view_diag(view));
    CHECK(a->columns_derived == km_kernel_view_columns_derived(view));
    CHECK(a->costly_values == km_kernel_view_costly_values(view));
    CHECK(a->kernel_rows_size == km_kernel_view_in_place_size(view) && !a->kernel_rows == !a->kernel_rows_size);
    CHECK(km_kernel_access_view(a) == view);
    km_interruptible_access polled;
    km_interruptible_access_init(&polled, a, never, NULL, "a test");
    CHECK(km_kernel_access_view(&polled.access) == NULL);
}

static double dot(const double *x, const double *y)
{
    double s = 0;
    for (size_t k = 0; k < D; k++)
        s += x[k] * y[k];
    return s;
}

/* rbf (gamma 0.5), linear and quadratic kernels of rows a and b of X. */
static double direct(size_t m, const double *X, size_t a, size_t b)
{
    const double *x = X + a * D, *y = X + b * D;
    double xy = dot(x, y);
    return m == 0 ? exp(-0.5 * (dot(x, x) - 2 * xy + dot(y, y))) : m == 1 ? xy : (xy + 1) * (xy + 1);
}

KM_TEST_CASE(row_subset_and_scaled_kernels)
{
    double X[N * D];
    km_rng rng;
    km_rng_seed(&rng, 11);
    for (size_t k = 0; k < N * D; k++)
        X[k] = km_rng_uniform(&rng) - 0.5;
    km_dataset *data = NULL;
    km_kernel_set *set = NULL;
    km_provider *p = NULL;
    CHECK_OK(km_dataset_from_dense(N, D, X, NULL, &data));
    CHECK_OK(km_kernel_set_new(&set));
    CHECK_OK(km_kernel_set_add_spec(set, "rbf:gamma=0.5"));
    CHECK_OK(km_kernel_set_add_spec(set, "linear"));
    CHECK_OK(km_kernel_set_add_spec(set, "poly:degree=2:gamma=1:coef0=1"));
    CHECK_OK(km_provider_new(data, NULL, 0, set, 1u << 20, NULL, &p));

    /* view rows 0..5 are data rows 7, 2, 9, 0, 4, 5 */
    const size_t rows[6] = {7, 2, 9, 0, 4, 5};
    double theta[MAX_KERNELS] = {0.5, 0.25, 0.125, 2.0};
    km_kernel_view *view = NULL;
    static expected e;
    if (p)
        CHECK_OK(km_kernel_view_new(p, rows, 6, &view));
    if (view) {
        e = (expected){.n = 6, .V = 3};
        for (size_t v = 0; v < 3; v++)
            for (size_t i = 0; i < 6; i++)
                for (size_t j = 0; j < 6; j++)
                    e.E[(v * 6 + i) * 6 + j] = direct(v, X, rows[i], rows[j]);
        km_kernel_access a = km_kernel_access_from_view(view, theta);
        check_made_from(&a, view, theta);
        CHECK(!a.kernel_rows && !a.costly_values);
        check_callbacks(&a, &e);
        km_kernel_view_free(view);
        view = NULL;
    }

    /* scaled per row, rbf twice: K'_v(i, j) = s_v(i) s_v(j) K_base(v)(rows[i], rows[j]) */
    double s1[6], s2[6];
    for (size_t i = 0; i < 6; i++) {
        s1[i] = 0.3 + 0.1 * (double)i;
        s2[i] = 1.0 - s1[i];
    }
    const size_t base[MAX_KERNELS] = {0, 1, 2, 0};
    const double *scale[MAX_KERNELS] = {s1, NULL, s2, s2};
    if (p)
        CHECK_OK(km_kernel_view_new_scaled(p, rows, 6, MAX_KERNELS, base, scale, &view));
    if (view) {
        e = (expected){.n = 6, .V = MAX_KERNELS};
        for (size_t v = 0; v < MAX_KERNELS; v++)
            for (size_t i = 0; i < 6; i++)
                for (size_t j = 0; j < 6; j++)
                    e.E[(v * 6 + i) * 6 + j] = (scale[v] ? scale[v][i] * scale[v][j] : 1.0) *
                                               direct(base[v], X, rows[i], rows[j]);
        km_kernel_access a = km_kernel_access_from_view(view, theta);
        check_made_from(&a, view, theta);
        CHECK(!a.columns_derived && !a.kernel_rows);
        check_callbacks(&a, &e);
        km_kernel_view_free(view);
    }
    km_provider_free(p);
    km_kernel_set_free(set);
    km_dataset_free(data);
}

/* Precomputed matrices as stored, on all rows in order: their columns are read in place (kernel_rows);
 * on a subset of rows they are not, and the other callbacks still serve them. */
KM_TEST_CASE(precomputed_in_place)
{
    double X[N * D];
    km_rng rng;
    km_rng_seed(&rng, 5);
    for (size_t k = 0; k < N * D; k++)
        X[k] = km_rng_uniform(&rng);
    km_dataset *data = NULL;
    km_kernel_set *set = NULL;
    km_provider *p = NULL;
    km_matrix *K[2] = {NULL, NULL};
    CHECK_OK(km_dataset_from_dense(N, D, X, NULL, &data));
    CHECK_OK(km_kernel_set_new(&set));
    static expected e;
    e = (expected){.n = N, .V = 2};
    for (size_t m = 0; m < 2; m++) {
        CHECK_OK(km_matrix_new(N, N, &K[m]));
        double *values = K[m] ? km_matrix_data(K[m]) : NULL;
        for (size_t i = 0; values && i < N; i++)
            for (size_t j = 0; j < N; j++)
                values[i * N + j] = e.E[(m * N + i) * N + j] = direct(m, X, i, j);
        if (values)
            CHECK_OK(km_kernel_set_add_matrix(set, K[m], KM_NORM_NONE, 0));
    }
    CHECK_OK(km_provider_new(data, NULL, 0, set, 1u << 20, NULL, &p));
    double theta[2] = {0.75, 1.5};
    km_kernel_view *view = NULL;
    if (p)
        CHECK_OK(km_kernel_view_new(p, NULL, N, &view));
    if (view) {
        km_kernel_access a = km_kernel_access_from_view(view, theta);
        check_made_from(&a, view, theta);
        CHECK(a.kernel_rows && a.kernel_rows_size == sizeof(double));
        check_callbacks(&a, &e);
        km_kernel_view_free(view);
        view = NULL;
    }
    const size_t rows[4] = {8, 3, 0, 6};
    if (p)
        CHECK_OK(km_kernel_view_new(p, rows, 4, &view));
    if (view) {
        static expected sub;
        sub = (expected){.n = 4, .V = 2};
        for (size_t m = 0; m < 2; m++)
            for (size_t i = 0; i < 4; i++)
                for (size_t j = 0; j < 4; j++)
                    sub.E[(m * 4 + i) * 4 + j] = value(&e, m, rows[i], rows[j]);
        km_kernel_access a = km_kernel_access_from_view(view, theta);
        check_made_from(&a, view, theta);
        CHECK(!a.kernel_rows);
        check_callbacks(&a, &sub);
        km_kernel_view_free(view);
    }
    km_provider_free(p);
    km_matrix_free(K[0]);
    km_matrix_free(K[1]);
    km_kernel_set_free(set);
    km_dataset_free(data);
}

/* The k-spectrum kernel: sum over substrings u of length k of count_a(u) count_b(u). */
static double spectrum(const char *a, const char *b, size_t k)
{
    double sum = 0;
    size_t la = strlen(a), lb = strlen(b);
    for (size_t i = 0; i + k <= la; i++)
        for (size_t j = 0; j + k <= lb; j++)
            sum += memcmp(a + i, b + j, k) == 0;
    return sum;
}

/* String kernels: values cost microseconds each (costly_values), and every callback gives the counts. */
KM_TEST_CASE(spectrum_kernels)
{
    static const char *const strings[6] = {"ACGTACGGTA", "GATTACA", "TTTTGCA", "ACGATTACAG", "CCGGTTAA", "AC"};
    km_dataset *data = NULL;
    km_kernel_set *set = NULL;
    km_provider *p = NULL;
    CHECK_OK(km_dataset_from_strings(6, strings, NULL, NULL, &data));
    CHECK_OK(km_kernel_set_new(&set));
    CHECK_OK(km_kernel_set_add_spec(set, "spectrum:k=2"));
    CHECK_OK(km_kernel_set_add_spec(set, "spectrum:k=3"));
    if (data)
        CHECK_OK(km_provider_new(data, NULL, 0, set, 1u << 20, NULL, &p));
    const size_t rows[5] = {3, 1, 5, 0, 4};
    km_kernel_view *view = NULL;
    if (p)
        CHECK_OK(km_kernel_view_new(p, rows, 5, &view));
    if (view) {
        static expected e;
        e = (expected){.n = 5, .V = 2};
        for (size_t m = 0; m < 2; m++)
            for (size_t i = 0; i < 5; i++)
                for (size_t j = 0; j < 5; j++)
                    e.E[(m * 5 + i) * 5 + j] = spectrum(strings[rows[i]], strings[rows[j]], m + 2);
        double theta[2] = {1.0, 0.5};
        km_kernel_access a = km_kernel_access_from_view(view, theta);
        check_made_from(&a, view, theta);
        CHECK(a.costly_values && !a.columns_derived && !a.kernel_rows);
        check_callbacks(&a, &e);
        km_kernel_view_free(view);
    }
    km_provider_free(p);
    km_kernel_set_free(set);
    km_dataset_free(data);
}
