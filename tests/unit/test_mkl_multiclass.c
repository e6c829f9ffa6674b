/* Multiclass lp-norm MKL with one kernel weighting shared by all binary machines, and the diagnostics
 * training stores in models:
 *  - the shared theta is the joint optimum: machines agree on theta, the relative gap of the summed
 *    problem is reached, theta is a fixed point of the closed-form step on the summed a_m, and the
 *    machines' objectives add up to the joint objective;
 *  - every machine is the plain SVM at the shared theta (same objective with fixed weights theta);
 *  - the joint optimum is no better than per-machine weights (min of a sum >= sum of mins);
 *  - two classes: shared and per-machine weights coincide;
 *  - block norms satisfy |w|_{2,p}^2 = sum_m |w_m|^2 / theta_m at an optimum (spec §3.1);
 *  - T10 alignments stored by training match spec §9 test 7, and models with diagnostics survive
 *    save and load byte for byte; files without the diagnostic lines (older models) still load;
 *  - regression stores the alignment with the targets, one-class none;
 *  - on many rows the alignments are those of 2000 evenly spaced rows. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/params.h"
#include "mkl/mkl_params.h"
#include "core/rng.h"
#include "kernelmix.h"
#include "mkl/diagnostics.h"
#include "mkl/theta.h"
#include "model/model_io.h"

enum { N = 90, D = 4, M = 3 };
static const double P_BLOCK = 4.0 / 3.0; /* p = 2 */

/* Class c in 0..n_classes-1 shifts feature c. */
static void make_data(size_t n, int n_classes, double *X, double *y)
{
    km_rng rng;
    km_rng_seed(&rng, 7);
    for (size_t i = 0; i < n; i++) {
        int c = (int)(i % (size_t)n_classes);
        y[i] = (double)(c + 1);
        for (size_t j = 0; j < D; j++)
            X[i * D + j] = km_rng_normal(&rng) + (j == (size_t)c ? 1.5 : 0.0);
    }
}

static km_kernel_set *kernels(void)
{
    km_kernel_set *set = NULL;
    CHECK_OK(km_kernel_set_new(&set));
    CHECK_OK(km_kernel_set_add_spec(set, "rbf:gamma=0.5"));
    CHECK_OK(km_kernel_set_add_spec(set, "linear:features=1-2"));
    CHECK_OK(km_kernel_set_add_spec(set, "linear:features=3-4"));
    return set;
}

/* KM_PARAM_SHARED_WEIGHTS of the parameters a model reports (-1 when they cannot be read). */
static int64_t model_shared_weights(const km_model *model)
{
    km_params *params = NULL;
    int64_t shared = -1;
    if (km_model_params(model, &params) == KM_OK)
        km_params_get_int(params, KM_PARAM_SHARED_WEIGHTS, &shared);
    km_params_free(params);
    return shared;
}

static km_params mkl_params(int shared)
{
    km_params params = km_params_default();
    params.tolerance = 1e-7;
    km_params_store(&params, KM_PARAM_MKL_METHOD, KM_MKL_LP);
    km_params_store(&params, KM_PARAM_P_BLOCK, P_BLOCK);
    km_params_store(&params, KM_PARAM_MKL_GAP, 1e-8);
    km_params_store(&params, KM_PARAM_MKL_SOLVER, KM_MKL_WRAPPER);
    km_params_store(&params, KM_PARAM_SHARED_WEIGHTS, shared);
    return params;
}

static double objective_sum(const km_model *model)
{
    double s = 0;
    for (size_t k = 0; k < km_model_n_machines(model); k++)
        s += km_model_objective(model, k);
    return s;
}

/* |w|_{2,p}^2 = sum_m |w_m|^2 / theta_m at the closed-form theta of w (spec §3.1). */
static void check_block_norm_identity(const km_model *model, size_t k)
{
    const double *bn = km_model_block_norms(model, k), *theta = km_model_kernel_weights(model, k);
    CHECK(bn != NULL);
    if (!bn)
        return;
    double weighted = 0;
    for (size_t m = 0; m < M; m++)
        weighted += theta[m] > 0 ? bn[m] * bn[m] / theta[m] : 0.0;
    CHECK_NEAR(km_block_norm_squared(M, P_BLOCK, bn), weighted, 1e-5);
}

static void check_shared(const km_dataset *data, const km_kernel_set *set)
{
    km_params params = mkl_params(1);
    km_model *shared = NULL, *own = NULL;
    CHECK_OK(km_train(data, set, &params, &shared));
    km_params_store(&params, KM_PARAM_SHARED_WEIGHTS, 0);
    CHECK_OK(km_train(data, set, &params, &own));
    if (!shared || !own)
        goto done;
    size_t K = km_model_n_machines(shared);
    CHECK(K == 3);
    CHECK(model_shared_weights(shared) == 1);
    const double *theta = km_model_kernel_weights(shared, 0);
    double a_sum[M] = {0};
    km_machine_info first = KM_MACHINE_INFO_INIT;
    CHECK_OK(km_model_machine_info(shared, 0, &first));
    for (size_t k = 0; k < K; k++) {
        km_machine_info info = KM_MACHINE_INFO_INIT;
        CHECK_OK(km_model_machine_info(shared, k, &info));
        CHECK(info.converged);
        CHECK(info.gap <= 1e-8);
        CHECK(info.primal == first.primal && info.mkl_iterations == first.mkl_iterations);
        const double *tk = km_model_kernel_weights(shared, k), *bn = km_model_block_norms(shared, k);
        for (size_t m = 0; m < M; m++) {
            CHECK(tk[m] == theta[m]);
            a_sum[m] += theta[m] > 0 ? (bn[m] / theta[m]) * (bn[m] / theta[m]) : 0.0;
        }
        check_block_norm_identity(own, k);
    }
    /* sum_m theta^q = 1 (q = p/(2-p) = 2) and theta is a fixed point of the step on the summed a_m */
    CHECK_NEAR(theta[0] * theta[0] + theta[1] * theta[1] + theta[2] * theta[2], 1.0, 1e-12);
    double next[M] = {theta[0], theta[1], theta[2]};
    km_theta_lp_step(M, P_BLOCK, a_sum, next);
    for (size_t m = 0; m < M; m++)
        CHECK_NEAR(next[m], theta[m], 1e-4);
    /* at the joint optimum the fixed-theta objectives add up to -D = -P */
    CHECK_NEAR(objective_sum(shared), -first.primal, 1e-6);
    /* per-machine weights: sum of per-machine minima <= the joint minimum (objectives are -D) */
    CHECK(objective_sum(own) >= objective_sum(shared) - 1e-9);
    /* the per-machine thetas differ here, so the inequality is strict */
    CHECK(objective_sum(own) > objective_sum(shared) + 1e-4);

    /* every machine is the SVM on the fixed combination theta */
    km_params fixed = km_params_default();
    fixed.tolerance = 1e-7;
    fixed.kernel_weights = theta;
    km_model *plain = NULL;
    CHECK_OK(km_train(data, set, &fixed, &plain));
    for (size_t k = 0; plain && k < K; k++)
        CHECK_NEAR(km_model_objective(plain, k), km_model_objective(shared, k), 1e-6);
    km_model_free(plain);

    /* the shared solve is only for lp-norm MKL */
    km_model *bad = NULL;
    params = mkl_params(1);
    km_params_store(&params, KM_PARAM_MKL_METHOD, KM_MKL_ELASTICNET);
    CHECK_STATUS(km_train(data, set, &params, &bad), KM_EINVAL);
    CHECK(bad == NULL);
done:
    km_model_free(shared);
    km_model_free(own);
}

/* Two classes: one machine, so shared and per-machine weights are the same problem. */
static void check_two_classes(const double *X, const double *y, const km_kernel_set *set)
{
    km_dataset *data = NULL;
    CHECK_OK(km_dataset_from_dense(60, D, X, y, &data)); /* rows 0..59 of a 2-class set */
    km_params params = mkl_params(1);
    km_model *a = NULL, *b = NULL;
    CHECK_OK(km_train(data, set, &params, &a));
    km_params_store(&params, KM_PARAM_SHARED_WEIGHTS, 0);
    CHECK_OK(km_train(data, set, &params, &b));
    if (a && b) {
        CHECK(km_model_n_machines(a) == 1);
        CHECK_NEAR(km_model_objective(a, 0), km_model_objective(b, 0), 1e-9);
        for (size_t m = 0; m < M; m++)
            CHECK_NEAR(km_model_kernel_weights(a, 0)[m], km_model_kernel_weights(b, 0)[m], 1e-12);
    }
    km_model_free(a);
    km_model_free(b);
    km_dataset_free(data);
}

/* spec §9 T10 */
static const double T10[10][2] = {{1.0, 0.5},   {2.0, -0.3}, {0.4, 1.5},   {1.2, 1.1},  {-0.2, 0.3},
                                  {-1.0, -0.4}, {-1.6, 0.8}, {-0.5, -1.3}, {0.3, -0.8}, {-0.9, 0.2}};

static char *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    *size = buf ? fread(buf, 1, (size_t)n, f) : 0;
    if (buf)
        buf[*size] = '\0';
    fclose(f);
    return buf;
}

/* The model file without its diagnostic lines, with a new checksum: what older versions wrote. */
static void check_without_diagnostics(const char *path)
{
    size_t size = 0;
    char *text = read_file(path, &size), *out = malloc(size + 1);
    CHECK(text && out);
    if (!text || !out) {
        free(text);
        free(out);
        return;
    }
    text[size] = '\0';
    size_t kept = 0;
    for (char *line = text; *line;) {
        char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) + 1 : strlen(line);
        if (strncmp(line, "target_alignment ", 17) && strncmp(line, "kernel_alignment ", 17) &&
            strncmp(line, "block_norms ", 12) && strncmp(line, "checksum ", 9)) {
            memcpy(out + kept, line, len);
            kept += len;
        }
        line += len;
    }
    CHECK(kept < size - 200);
    const char *old_path = "test_mkl_multiclass.old.model", *again = "test_mkl_multiclass.old2.model";
    FILE *f = fopen(old_path, "wb");
    if (f) {
        fwrite(out, 1, kept, f);
        fprintf(f, "checksum crc32 %08lx\n", (unsigned long)km_crc32(0, out, kept));
        fclose(f);
    }
    km_model *model = NULL;
    CHECK_OK(km_model_load(old_path, &model));
    if (model) {
        km_bound_choice choice = KM_BOUND_CHOICE_INIT;
        CHECK(km_model_block_norms(model, 0) == NULL && km_model_kernel_alignment(model) == NULL &&
              km_model_target_alignment(model) == NULL);
        CHECK_STATUS(km_model_bound_choice(model, 0, &choice), KM_EINVAL);
        CHECK_OK(km_model_save(model, again));
        size_t n1 = 0, n2 = 0;
        char *a = read_file(old_path, &n1), *b = read_file(again, &n2);
        CHECK(a && b && n1 == n2 && memcmp(a, b, n1) == 0);
        free(a);
        free(b);
    }
    km_model_free(model);
    remove(old_path);
    remove(again);
    free(text);
    free(out);
}

static void check_t10_model(void)
{
    double y[10], X[20];
    km_matrix *K[3];
    for (size_t i = 0; i < 10; i++) {
        y[i] = i < 5 ? 1 : -1;
        X[2 * i] = T10[i][0];
        X[2 * i + 1] = T10[i][1];
    }
    for (size_t m = 0; m < 3; m++) {
        CHECK_OK(km_matrix_new(10, 10, &K[m]));
        for (size_t i = 0; i < 10; i++)
            for (size_t j = 0; j < 10; j++) {
                double dx = T10[i][0] - T10[j][0], dy = T10[i][1] - T10[j][1];
                K[m]->data[i * 10 + j] = m == 0   ? T10[i][0] * T10[j][0]
                                         : m == 1 ? T10[i][1] * T10[j][1]
                                                  : exp(-(dx * dx + dy * dy) / 2);
            }
    }
    km_dataset *data = NULL;
    km_kernel_set *set = NULL;
    CHECK_OK(km_dataset_from_dense(10, 2, X, y, &data));
    CHECK_OK(km_kernel_set_new(&set));
    for (size_t m = 0; m < 3; m++)
        CHECK_OK(km_kernel_set_add_matrix(set, K[m], KM_NORM_NONE, 0));
    km_params params = mkl_params(0);
    params.tolerance = 1e-9;
    km_model *model = NULL, *loaded = NULL;
    CHECK_OK(km_train(data, set, &params, &model));
    if (model) {
        /* spec §9: C-SVC at block p = 4/3 */
        CHECK_NEAR(km_model_objective(model, 0), -2.375267602, 1e-6);
        const double *A = km_model_kernel_alignment(model), *t = km_model_target_alignment(model);
        CHECK(A && t);
        if (A && t) {
            CHECK_NEAR(A[1], 0.012953, 1e-6);
            CHECK_NEAR(A[2], 0.644835, 1e-6);
            CHECK_NEAR(A[5], 0.545786, 1e-6);
            CHECK_NEAR(A[7], 0.545786, 1e-6);
            CHECK_NEAR(t[0], 0.580568, 1e-6);
            CHECK_NEAR(t[1], 0.310994, 1e-6);
            CHECK_NEAR(t[2], 0.604306, 1e-6);
        }
        check_block_norm_identity(model, 0);
        km_bound_choice choice = KM_BOUND_CHOICE_INIT;
        CHECK_OK(km_model_bound_choice(model, 0, &choice));
        CHECK(choice.p_block >= 1 && choice.p_block <= 2);
        CHECK(choice.flat_low <= choice.p_block && choice.p_block <= choice.flat_high);

        const char *path = "test_mkl_multiclass.model", *again = "test_mkl_multiclass.again.model";
        CHECK_OK(km_model_save(model, path));
        CHECK_OK(km_model_load(path, &loaded));
        if (loaded) {
            CHECK_OK(km_model_save(loaded, again));
            size_t na = 0, nb = 0;
            char *a = read_file(path, &na), *b = read_file(again, &nb);
            CHECK(a && b && na == nb && memcmp(a, b, na) == 0);
            CHECK(a && strstr(a, "\ntarget_alignment ") && strstr(a, "\nblock_norms "));
            free(a);
            free(b);
            for (size_t m = 0; m < 3; m++)
                CHECK(km_model_block_norms(loaded, 0)[m] == km_model_block_norms(model, 0)[m]);
            CHECK(km_model_kernel_alignment(loaded)[2] == A[2]);
            CHECK(model_shared_weights(loaded) == 0);
        }
        check_without_diagnostics(path);
        remove(path);
        remove(again);
    }
    /* no diagnostics without learned weights */
    km_model *fixed = NULL;
    km_params plain = km_params_default();
    CHECK_OK(km_train(data, set, &plain, &fixed));
    if (fixed) {
        km_bound_choice choice = KM_BOUND_CHOICE_INIT;
        CHECK(km_model_block_norms(fixed, 0) == NULL && km_model_kernel_alignment(fixed) == NULL);
        CHECK_STATUS(km_model_bound_choice(fixed, 0, &choice), KM_EINVAL);
    }
    km_model_free(fixed);
    km_model_free(model);
    km_model_free(loaded);
    km_kernel_set_free(set);
    km_dataset_free(data);
    for (size_t m = 0; m < 3; m++)
        km_matrix_free(K[m]);
}

/* Regression: alignment with the targets; one-class: no target, but kernel alignments and block norms. */
static void check_other_tasks(const double *X)
{
    double t[N];
    for (size_t i = 0; i < N; i++)
        t[i] = X[i * D] + 0.5 * X[i * D + 2];
    km_dataset *data = NULL;
    CHECK_OK(km_dataset_from_dense(N, D, X, t, &data));
    km_kernel_set *set = kernels();
    km_params params = mkl_params(0);
    params.task = KM_TASK_SVR;
    km_model *svr = NULL, *oneclass = NULL;
    CHECK_OK(km_train(data, set, &params, &svr));
    params.task = KM_TASK_ONECLASS;
    CHECK_OK(km_train(data, set, &params, &oneclass));
    if (svr && oneclass) {
        const double *target = km_model_target_alignment(svr), *A = km_model_kernel_alignment(svr);
        CHECK(target && A);
        /* t = x1 + 0.5 x3: the linear kernel on features 1-2 carries the larger part of it */
        if (target && A) {
            CHECK(target[1] > target[2]);
            CHECK(target[1] > 0.3 && target[1] <= 1.0);
            CHECK_NEAR(A[0], 1.0, 1e-12);
        }
        CHECK(km_model_target_alignment(oneclass) == NULL);
        CHECK(km_model_kernel_alignment(oneclass) != NULL);
        if (A && km_model_kernel_alignment(oneclass))
            for (size_t k = 0; k < M * M; k++)
                CHECK_NEAR(km_model_kernel_alignment(oneclass)[k], A[k], 1e-12);
        check_block_norm_identity(svr, 0);
        check_block_norm_identity(oneclass, 0);
    }
    km_model_free(svr);
    km_model_free(oneclass);
    km_kernel_set_free(set);
    km_dataset_free(data);
}

/* Linear kernels on features 1-2 (m = 0) and 3-4 (m = 1) of the rows of X picked by ctx. */
typedef struct picked_rows {
    const double *X;
    const size_t *rows;
} picked_rows;

static km_status picked_column(void *ctx, size_t m, size_t i, const size_t *rows, size_t nrows, double *out)
{
    const picked_rows *p = ctx;
    const double *xi = p->X + p->rows[i] * D + 2 * m;
    for (size_t k = 0; k < nrows; k++) {
        const double *xk = p->X + p->rows[rows[k]] * D + 2 * m;
        out[k] = xi[0] * xk[0] + xi[1] * xk[1];
    }
    return KM_OK;
}

static void check_many_rows(void)
{
    enum { BIG = 2500, SUB = 2000 };
    double *X = malloc(BIG * D * sizeof *X), *y = malloc(BIG * sizeof *y);
    size_t *rows = malloc(SUB * sizeof *rows);
    if (!X || !y || !rows)
        goto done;
    make_data(BIG, 2, X, y);
    km_dataset *data = NULL;
    km_kernel_set *set = NULL;
    CHECK_OK(km_dataset_from_dense(BIG, D, X, y, &data));
    CHECK_OK(km_kernel_set_new(&set));
    CHECK_OK(km_kernel_set_add_spec(set, "linear:features=1-2"));
    CHECK_OK(km_kernel_set_add_spec(set, "linear:features=3-4"));
    km_params params = mkl_params(0);
    km_params_store(&params, KM_PARAM_MKL_GAP, 1e-2);
    params.tolerance = 1e-3;
    km_model *model = NULL;
    CHECK_OK(km_train(data, set, &params, &model));
    for (size_t i = 0; i < SUB; i++)
        rows[i] = (size_t)((double)i * BIG / SUB);
    picked_rows ctx = {X, rows};
    km_kernel_access access = {.n_rows = SUB, .n_kernels = 2, .column = picked_column, .column_ctx = &ctx};
    double target_class[2 * SUB], A[4], target[2];
    for (size_t i = 0; i < SUB; i++) {
        target_class[2 * i] = y[rows[i]] == 1.0;
        target_class[2 * i + 1] = y[rows[i]] != 1.0;
    }
    CHECK_OK(km_alignments(&access, 2, target_class, A, target));
    if (model && km_model_kernel_alignment(model) && km_model_target_alignment(model)) {
        for (size_t k = 0; k < 4; k++)
            CHECK_NEAR(km_model_kernel_alignment(model)[k], A[k], 1e-12);
        for (size_t m = 0; m < 2; m++)
            CHECK_NEAR(km_model_target_alignment(model)[m], target[m], 1e-12);
    } else {
        CHECK(0);
    }
    km_model_free(model);
    km_kernel_set_free(set);
    km_dataset_free(data);
done:
    free(X);
    free(y);
    free(rows);
}

/* Beyond 100 kernels the model keeps the alignments with the labels but not the M x M table; each
 * kernel's alignment with the labels does not depend on the other kernels, so kernels 1 and 2 of 101
 * align as they do in a set of two (which computes them through the full table). */
static void check_many_kernels(void)
{
    enum { MANY = 101 };
    double X[N * D], y[N];
    make_data(N, 2, X, y);
    km_dataset *data = NULL;
    km_kernel_set *many = NULL, *two = NULL;
    CHECK_OK(km_dataset_from_dense(N, D, X, y, &data));
    CHECK_OK(km_kernel_set_new(&many));
    CHECK_OK(km_kernel_set_new(&two));
    for (int m = 0; m < MANY; m++) {
        char spec[64];
        snprintf(spec, sizeof spec, "rbf:gamma=%.6g", 0.05 * pow(1.03, m));
        CHECK_OK(km_kernel_set_add_spec(many, spec));
        if (m < 2)
            CHECK_OK(km_kernel_set_add_spec(two, spec));
    }
    km_params params = mkl_params(0);
    km_params_store(&params, KM_PARAM_MKL_GAP, 1e-2);
    km_model *a = NULL, *b = NULL;
    CHECK_OK(km_train(data, many, &params, &a));
    CHECK_OK(km_train(data, two, &params, &b));
    if (a && b) {
        CHECK(km_model_kernel_alignment(a) == NULL && km_model_kernel_alignment(b) != NULL);
        const double *ta = km_model_target_alignment(a), *tb = km_model_target_alignment(b);
        CHECK(ta && tb);
        for (size_t m = 0; ta && tb && m < 2; m++) {
            CHECK(ta[m] > 0.05);
            CHECK_NEAR(ta[m], tb[m], 1e-12);
        }
    }
    km_model_free(a);
    km_model_free(b);
    km_kernel_set_free(many);
    km_kernel_set_free(two);
    km_dataset_free(data);
}

/* the data and kernels every case shares */
static double X[N * D], y[N], X2[N * D], y2[N];
static km_dataset *data;
static km_kernel_set *set;

static void setup(void)
{
    make_data(N, 3, X, y);
    make_data(N, 2, X2, y2);
    CHECK_OK(km_dataset_from_dense(N, D, X, y, &data));
    set = kernels();
}

static void teardown(void)
{
    km_kernel_set_free(set);
    km_dataset_free(data);
}

KM_TEST_FIXTURE(setup, teardown)

KM_TEST_CASE(shared) { check_shared(data, set); }
KM_TEST_CASE(two_classes) { check_two_classes(X2, y2, set); }
KM_TEST_CASE(t10_model) { check_t10_model(); }
KM_TEST_CASE(other_tasks) { check_other_tasks(X); }
KM_TEST_CASE(many_rows) { check_many_rows(); }
KM_TEST_CASE(many_kernels) { check_many_kernels(); }
