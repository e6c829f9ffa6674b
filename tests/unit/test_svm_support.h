/* Shared helpers of the SMO / SVM tests: a small dense kernel (linear or RBF on a row-major array,
 * independent of the kernel engine), data generators, dual objectives, and a driver that runs Debian's
 * LIBSVM (svm-train / svm-predict) on the same data and compares it with km_svc/svr/oneclass/nu_svc/nu_svr_solve.
 * Include after check.h. */
#ifndef KM_TEST_SVM_SUPPORT_H
#define KM_TEST_SVM_SUPPORT_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/rng.h"
#include "svm/svm.h"

/* ---- dense kernels ------------------------------------------------------------------------------ */

typedef struct test_kernel {
    const double *X;     /* n x d, row-major */
    size_t n, d;
    int rbf;             /* 0: linear <x,x'>, 1: exp(-gamma ||x-x'||^2) */
    double gamma;
    double *diag;        /* K(x_i, x_i), filled by test_kernel_init */
} test_kernel;

static inline double test_kernel_value(const test_kernel *k, const double *a, const double *b)
{
    double s = 0;
    if (k->rbf) {
        for (size_t t = 0; t < k->d; t++) {
            double diff = a[t] - b[t];
            s += diff * diff;
        }
        return exp(-k->gamma * s);
    }
    for (size_t t = 0; t < k->d; t++)
        s += a[t] * b[t];
    return s;
}

static inline void test_kernel_init(test_kernel *k, const double *X, size_t n, size_t d, int rbf, double gamma)
{
    k->X = X;
    k->n = n;
    k->d = d;
    k->rbf = rbf;
    k->gamma = gamma;
    k->diag = malloc(n * sizeof *k->diag);
    if (!k->diag)
        abort();
    for (size_t i = 0; i < n; i++)
        k->diag[i] = test_kernel_value(k, X + i * d, X + i * d);
}

/* km_column_fn over an array of test kernels (ctx points to the first; m selects). */
static inline km_status test_kernel_column(void *ctx, size_t m, size_t i, const size_t *rows, size_t nrows, double *out)
{
    const test_kernel *k = (const test_kernel *)ctx + m;
    for (size_t r = 0; r < nrows; r++)
        out[r] = test_kernel_value(k, k->X + (rows ? rows[r] : r) * k->d, k->X + i * k->d);
    return KM_OK;
}

/* Full Gram matrix of kernel k (n x n). */
static inline double *test_gram(const test_kernel *k)
{
    double *K = malloc(k->n * k->n * sizeof *K);
    if (!K)
        abort();
    for (size_t i = 0; i < k->n; i++)
        for (size_t j = 0; j < k->n; j++)
            K[i * k->n + j] = test_kernel_value(k, k->X + i * k->d, k->X + j * k->d);
    return K;
}

static inline double test_quadratic_form(const double *K, const double *c, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++) {
        if (c[i] == 0.0)
            continue;
        double row = 0;
        for (size_t j = 0; j < n; j++)
            row += K[i * n + j] * c[j];
        s += c[i] * row;
    }
    return s;
}

/* ---- data --------------------------------------------------------------------------------------- */

/* Value as LIBSVM writes support vectors (%.8g), so model rows match training rows exactly. */
static inline double test_round8(double x)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%.8g", x);
    return strtod(buf, NULL);
}

/* Two overlapping Gaussian classes: y = +-1, features N(+-0.6, 1); labels alternate from +1. */
static inline void test_two_gaussians(km_rng *rng, size_t n, size_t d, double *X, double *y)
{
    for (size_t i = 0; i < n; i++) {
        y[i] = (i % 3 == 1) ? -1.0 : 1.0;
        for (size_t t = 0; t < d; t++)
            X[i * d + t] = test_round8(0.6 * y[i] + km_rng_normal(rng));
    }
}

/* Noisy smooth regression target on uniform features in [-2, 2]. */
static inline void test_regression(km_rng *rng, size_t n, size_t d, double *X, double *z)
{
    for (size_t i = 0; i < n; i++) {
        for (size_t t = 0; t < d; t++)
            X[i * d + t] = test_round8(4 * km_rng_uniform(rng) - 2);
        const double *x = X + i * d;
        z[i] = test_round8(sin(x[0]) + 0.5 * x[1] - 0.3 * x[2] * x[2] + 0.1 * km_rng_normal(rng));
    }
}

/* Scales each column of X (n x d) to [0, 1] (constant columns become 0), rounded like test_round8. */
static inline void test_scale_columns(double *X, size_t n, size_t d)
{
    for (size_t t = 0; t < d; t++) {
        double lo = INFINITY, hi = -INFINITY;
        for (size_t i = 0; i < n; i++) {
            lo = fmin(lo, X[i * d + t]);
            hi = fmax(hi, X[i * d + t]);
        }
        for (size_t i = 0; i < n; i++)
            X[i * d + t] = hi > lo ? test_round8((X[i * d + t] - lo) / (hi - lo)) : 0.0;
    }
}

/* ---- LIBSVM ------------------------------------------------------------------------------------- */

/* LIBSVM's -s numbers */
typedef enum test_task { TEST_SVC = 0, TEST_NU_SVC = 1, TEST_ONECLASS = 2, TEST_SVR = 3, TEST_NU_SVR = 4 } test_task;

static inline int test_have_libsvm(void)
{
    return system("command -v " KM_SVM_TRAIN " >/dev/null 2>&1 && command -v " KM_SVM_PREDICT " >/dev/null 2>&1") == 0;
}

static inline int test_write_libsvm(const char *path, const double *X, const double *target, size_t n, size_t d)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "%.17g", target ? target[i] : 1.0);
        for (size_t t = 0; t < d; t++)
            fprintf(f, " %zu:%.17g", t + 1, X[i * d + t]);
        fputc('\n', f);
    }
    return fclose(f);
}

/* LIBSVM's model: coefficient of every training row (0 off the support) and rho. */
typedef struct test_libsvm_model {
    double *coef;
    double rho;
    size_t n_sv;
} test_libsvm_model;

static inline int test_read_libsvm_model(const char *path, const double *X, size_t n, size_t d, test_libsvm_model *model)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[1 << 16];
    int in_sv = 0, failed = 0;
    double *x = malloc(d * sizeof *x);
    model->coef = calloc(n, sizeof *model->coef);
    model->n_sv = 0;
    model->rho = NAN;
    while (!failed && fgets(line, sizeof line, f)) {
        if (!in_sv) {
            if (strncmp(line, "rho ", 4) == 0)
                model->rho = strtod(line + 4, NULL);
            else if (strncmp(line, "SV", 2) == 0)
                in_sv = 1;
            continue;
        }
        char *s = line, *end;
        double coef = strtod(s, &end);
        s = end;
        memset(x, 0, d * sizeof *x);
        for (;;) {
            long idx = strtol(s, &end, 10);
            if (end == s || *end != ':')
                break;
            if (idx < 1 || (size_t)idx > d) {
                failed = 1;
                break;
            }
            x[idx - 1] = strtod(end + 1, &s);
        }
        size_t row = n;
        for (size_t i = 0; i < n && row == n; i++)
            if (memcmp(X + i * d, x, d * sizeof *x) == 0)
                row = i;
        if (row == n) {
            fprintf(stderr, "support vector %zu of %s matches no training row\n", model->n_sv, path);
            failed = 1;
        } else {
            model->coef[row] = coef;
            model->n_sv++;
        }
    }
    fclose(f);
    free(x);
    return failed || !in_sv || isnan(model->rho) ? -1 : 0;
}

/* One parity case: the task, its kernel and parameters, training and test data. */
typedef struct test_parity_case {
    const char *name;
    test_task task;
    int rbf;
    double gamma;
    double C, epsilon, nu;
    double tolerance;
    int shrinking;
    const double *X, *target;       /* n x d, n targets (labels +-1 for SVC; ignored for one-class) */
    size_t n, d;
    const double *Xt, *target_t;    /* test rows */
    size_t nt;
} test_parity_case;

/* Dual objective of LIBSVM's form from expansion coefficients c (valid when a_i a*_i = 0 for SVR;
 * nu-SVC: after LIBSVM's scaling by 1/r, a pure quadratic form; nu-SVR: no epsilon term). */
static inline double test_dual_objective(const test_parity_case *pc, const double *K, const double *c)
{
    double v = 0.5 * test_quadratic_form(K, c, pc->n);
    for (size_t i = 0; i < pc->n; i++) {
        if (pc->task == TEST_SVC)
            v -= fabs(c[i]);
        else if (pc->task == TEST_SVR || pc->task == TEST_NU_SVR)
            v += (pc->task == TEST_SVR ? pc->epsilon * fabs(c[i]) : 0.0) - pc->target[i] * c[i];
    }
    return v;
}

/* Runs svm-train / svm-predict and km_*_solve on the case; checks objective parity (1e-6 relative)
 * and predictions (same labels; regression values within 1e-4 of the target scale). */
static inline void test_parity(const test_parity_case *pc)
{
    char train_path[64], test_path[64], model_path[64], out_path[64], cmd[1024];
    long pid = (long)getpid();
    snprintf(train_path, sizeof train_path, "svm_parity_%ld.train", pid);
    snprintf(test_path, sizeof test_path, "svm_parity_%ld.test", pid);
    snprintf(model_path, sizeof model_path, "svm_parity_%ld.model", pid);
    snprintf(out_path, sizeof out_path, "svm_parity_%ld.out", pid);
    CHECK(test_write_libsvm(train_path, pc->X, pc->target, pc->n, pc->d) == 0);
    CHECK(test_write_libsvm(test_path, pc->Xt, pc->target_t, pc->nt, pc->d) == 0);

    char task_opts[128];
    if (pc->task == TEST_SVC)
        snprintf(task_opts, sizeof task_opts, "-s 0 -c %.17g", pc->C);
    else if (pc->task == TEST_SVR)
        snprintf(task_opts, sizeof task_opts, "-s 3 -c %.17g -p %.17g", pc->C, pc->epsilon);
    else if (pc->task == TEST_NU_SVC)
        snprintf(task_opts, sizeof task_opts, "-s 1 -n %.17g", pc->nu);
    else if (pc->task == TEST_NU_SVR)
        snprintf(task_opts, sizeof task_opts, "-s 4 -c %.17g -n %.17g", pc->C, pc->nu);
    else
        snprintf(task_opts, sizeof task_opts, "-s 2 -n %.17g", pc->nu);
    snprintf(cmd, sizeof cmd, "%s -q %s -t %d -g %.17g -e %.17g -h %d %s %s && %s -q %s %s %s", KM_SVM_TRAIN,
             task_opts, pc->rbf ? 2 : 0, pc->gamma, pc->tolerance, pc->shrinking, train_path, model_path,
             KM_SVM_PREDICT, test_path, model_path, out_path);
    int rc = system(cmd);
    CHECK(rc == 0);

    test_libsvm_model lib = {0};
    double *lib_pred = malloc(pc->nt * sizeof *lib_pred);
    int model_ok = rc == 0 && test_read_libsvm_model(model_path, pc->X, pc->n, pc->d, &lib) == 0;
    CHECK(model_ok);
    FILE *f = fopen(out_path, "r");
    size_t read = 0;
    while (f && read < pc->nt && fscanf(f, "%lf", &lib_pred[read]) == 1)
        read++;
    if (f)
        fclose(f);
    CHECK(read == pc->nt);
    remove(train_path);
    remove(test_path);
    remove(model_path);
    remove(out_path);

    test_kernel k;
    test_kernel_init(&k, pc->X, pc->n, pc->d, pc->rbf, pc->gamma);
    double theta = 1.0;
    const double *diag[1] = {k.diag};
    km_kernel_access access = {pc->n, 1, &theta, test_kernel_column, &k, diag, NULL, NULL, NULL, 0, NULL, 0, 0, NULL};
    km_smo_options options = km_smo_options_default();
    options.tolerance = pc->tolerance;
    options.shrinking = pc->shrinking;
    km_svm_solution sol = {0};
    sol.coef = calloc(pc->n, sizeof *sol.coef);
    signed char *y = malloc(pc->n);
    for (size_t i = 0; i < pc->n; i++)
        y[i] = pc->target && pc->target[i] > 0 ? 1 : -1;
    if (pc->task == TEST_SVC)
        CHECK_OK(km_svc_solve(&access, y, pc->C, 1.0, 1.0, &options, NULL, &sol));
    else if (pc->task == TEST_SVR)
        CHECK_OK(km_svr_solve(&access, pc->target, pc->C, pc->epsilon, &options, NULL, &sol));
    else if (pc->task == TEST_NU_SVC)
        CHECK_OK(km_nu_svc_solve(&access, y, pc->nu, &options, NULL, &sol));
    else if (pc->task == TEST_NU_SVR)
        CHECK_OK(km_nu_svr_solve(&access, pc->target, pc->C, pc->nu, &options, NULL, &sol));
    else
        CHECK_OK(km_oneclass_solve(&access, pc->nu, &options, NULL, &sol));
    CHECK(sol.converged);

    double *K = test_gram(&k);
    double ours = test_dual_objective(pc, K, sol.coef);
    /* the solver's objective is the dual at its coefficients */
    CHECK_NEAR(sol.objective, ours, 1e-9);
    if (model_ok) {
        double theirs = test_dual_objective(pc, K, lib.coef);
        double rel = fabs(ours - theirs) / fmax(fabs(theirs), 1e-300);
        printf("%-36s objective %.12g (LIBSVM %.12g, rel diff %.2e), bias %.8g (LIBSVM %.8g), %ld iterations, %zu SV\n",
               pc->name, ours, theirs, rel, sol.bias, -lib.rho, sol.iterations, lib.n_sv);
        CHECK(rel <= 1e-6);
        CHECK_NEAR(sol.bias, -lib.rho, 1e-4);
        size_t mismatches = 0;
        double scale = 0;
        int regression = pc->task == TEST_SVR || pc->task == TEST_NU_SVR;
        for (size_t i = 0; i < pc->nt && regression; i++)
            scale = fmax(scale, fabs(pc->target_t[i]));
        for (size_t t = 0; t < pc->nt; t++) {
            double f = sol.bias;
            for (size_t i = 0; i < pc->n; i++)
                if (sol.coef[i] != 0.0)
                    f += sol.coef[i] * test_kernel_value(&k, pc->X + i * pc->d, pc->Xt + t * pc->d);
            if (regression) {
                if (!(fabs(f - lib_pred[t]) <= 1e-4 * fmax(scale, 1.0)))
                    mismatches++;
            } else if ((f > 0 ? 1.0 : -1.0) != lib_pred[t]) {
                mismatches++;
            }
        }
        if (mismatches)
            fprintf(stderr, "%s: %zu of %zu test predictions differ from LIBSVM\n", pc->name, mismatches, pc->nt);
        CHECK(mismatches == 0);
    }
    free(K);
    free(y);
    free(sol.coef);
    free(lib.coef);
    free(lib_pred);
    free(k.diag);
}

#endif
