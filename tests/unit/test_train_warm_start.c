/* Warm starts of lp-norm MKL (km_train_rows_in_context_from): started from the model of the neighbouring
 * C (weights kept, alpha scaled by C / C_start) or of the neighbouring p (weights moved onto the new
 * lp sphere), every machine reaches the objective of a cold training within the duality gaps both
 * certify, on two classes (heart_scale) and three (iris, one-vs-one), and chains of warm starts take
 * fewer SVM iterations than cold trainings of the same settings; a start that does not fit (other rows,
 * another method) trains cold. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "kernel/kernel_context.h"
#include "kernelmix.h"
#include "train/train.h"

enum { N_C = 4, N_P = 3 };
static const double C_VALUES[N_C] = {0.25, 1, 4, 16};
static const double P_VALUES[N_P] = {1, 4.0 / 3.0, 2};

typedef struct fixture {
    km_dataset *data;
    km_kernel_set *kernels;
    km_kernel_context *context;
    size_t *rows, n;       /* the training rows: every row but each fifth */
} fixture;

static fixture open_fixture(km_dataset *data)
{
    fixture f = {.data = data};
    CHECK_OK(km_kernel_set_new(&f.kernels));
    CHECK_OK(km_kernel_set_add_spec(f.kernels, "rbf:gamma=2^-3..2^1/mean"));
    CHECK_OK(km_kernel_set_add_spec(f.kernels, "poly:degree=2:norm=spherical"));
    km_logger logger = {0};
    CHECK_OK(km_kernel_context_new(data, f.kernels, 64u << 20, &logger, &f.context));
    size_t n = km_dataset_rows(data);
    f.rows = malloc(n * sizeof *f.rows);
    for (size_t i = 0; i < n; i++)
        if (i % 5 != 2)
            f.rows[f.n++] = i;
    return f;
}

static void close_fixture(fixture *f)
{
    km_kernel_context_free(f->context);
    km_kernel_set_free(f->kernels);
    km_dataset_free(f->data);
    free(f->rows);
}

static km_dataset *heart(void)
{
    km_dataset *data;
    CHECK_OK(km_dataset_read_libsvm(KM_EXAMPLES_DATA_DIR "/heart_scale", 0, &data));
    return data;
}

static km_dataset *iris(void)
{
    km_dataset *data;
    CHECK_OK(km_dataset_read_csv(KM_TEST_DATA_DIR "/model-v1/iris_train.csv", NULL, &data));
    return data;
}

static km_params *lp_params(double C, double p)
{
    km_params *params;
    CHECK_OK(km_params_new(&params));
    CHECK_OK(km_params_set_text(params, KM_PARAM_MKL_METHOD, "lp"));
    CHECK_OK(km_params_set_double(params, KM_PARAM_P, p));
    CHECK_OK(km_params_set_double(params, KM_PARAM_C, C));
    return params;
}

static km_model *train_from(const fixture *f, const km_params *params, const km_model *start)
{
    km_model *model = NULL;
    CHECK_OK(km_train_rows_in_context_from(f->context, f->rows, f->n, params, start, &model));
    return model;
}

static km_machine_info info_of(const km_model *model, size_t k)
{
    km_machine_info info = KM_MACHINE_INFO_INIT;
    CHECK_OK(km_model_machine_info(model, k, &info));
    return info;
}

/* Every machine's objective -D of warm and cold within the certified gaps: each dual D is at most the
 * optimum and each is within P - D = gap |P| of it. */
static void check_same_optimum(const km_model *warm, const km_model *cold)
{
    CHECK(km_model_n_machines(warm) == km_model_n_machines(cold));
    for (size_t k = 0; k < km_model_n_machines(cold); k++) {
        km_machine_info w = info_of(warm, k), c = info_of(cold, k);
        CHECK(w.converged && c.converged);
        CHECK(w.gap >= 0 && c.gap >= 0 && w.gap <= 1e-3 && c.gap <= 1e-3);
        double bound = w.gap * fabs(w.primal) + c.gap * fabs(c.primal);
        CHECK(fabs(w.objective - c.objective) <= bound);
        if (!(fabs(w.objective - c.objective) <= bound))
            fprintf(stderr, "machine %zu: objectives %.12g (warm) %.12g (cold), bound %.3g\n", k, w.objective,
                    c.objective, bound);
    }
}

static long iterations(const km_model *model)
{
    long total = 0;
    for (size_t k = 0; k < km_model_n_machines(model); k++)
        total += info_of(model, k).iterations;
    return total;
}

/* The grid trained cold, warm along C (each p's chain of increasing C) and warm along p (each C's chain
 * of increasing p): the same optima, and each chain of warm starts with fewer SVM iterations in all. */
static void check_grid(km_dataset *data)
{
    fixture f = open_fixture(data);
    km_model *cold[N_P][N_C];
    long cold_total = 0, along_c = 0, along_p = 0;
    for (int i = 0; i < N_P; i++)
        for (int j = 0; j < N_C; j++) {
            km_params *params = lp_params(C_VALUES[j], P_VALUES[i]);
            cold[i][j] = train_from(&f, params, NULL);
            cold_total += iterations(cold[i][j]);
            km_params_free(params);
        }
    for (int i = 0; i < N_P; i++) {
        km_model *previous = NULL;
        for (int j = 0; j < N_C; j++) {
            km_params *params = lp_params(C_VALUES[j], P_VALUES[i]);
            km_model *warm = train_from(&f, params, previous);
            check_same_optimum(warm, cold[i][j]);
            along_c += iterations(warm);
            km_model_free(previous);
            previous = warm;
            km_params_free(params);
        }
        km_model_free(previous);
    }
    for (int j = 0; j < N_C; j++) {
        km_model *previous = NULL;
        for (int i = 0; i < N_P; i++) {
            km_params *params = lp_params(C_VALUES[j], P_VALUES[i]);
            km_model *warm = train_from(&f, params, previous);
            check_same_optimum(warm, cold[i][j]);
            along_p += iterations(warm);
            km_model_free(previous);
            previous = warm;
            km_params_free(params);
        }
        km_model_free(previous);
    }
    fprintf(stderr, "SVM iterations: cold %ld, warm along C %ld, warm along p %ld\n", cold_total, along_c, along_p);
    CHECK(along_c < cold_total);
    CHECK(along_p < cold_total);
    for (int i = 0; i < N_P; i++)
        for (int j = 0; j < N_C; j++)
            km_model_free(cold[i][j]);
    close_fixture(&f);
}

KM_TEST_CASE(binary_heart_scale) { check_grid(heart()); }

KM_TEST_CASE(three_classes_iris) { check_grid(iris()); }

/* A start trained on other rows, or by another method, is no start: the training is the cold one, to
 * the last iteration and bit. */
KM_TEST_CASE(unfit_start_trains_cold)
{
    fixture f = open_fixture(heart());
    km_params *params = lp_params(1, 4.0 / 3.0), *neighbour = lp_params(4, 4.0 / 3.0), *fixed = lp_params(4, 1);
    CHECK_OK(km_params_set_text(fixed, KM_PARAM_MKL_METHOD, "fixed"));
    km_model *cold = train_from(&f, params, NULL);
    km_model *other_rows = NULL, *other_method = train_from(&f, fixed, NULL);
    CHECK_OK(km_train_rows_in_context_from(f.context, f.rows, f.n - 1, neighbour, NULL, &other_rows));
    km_model *starts[] = {other_rows, other_method};
    for (size_t s = 0; s < 2; s++) {
        km_model *model = train_from(&f, params, starts[s]);
        km_machine_info a = info_of(model, 0), b = info_of(cold, 0);
        CHECK(a.iterations == b.iterations && a.objective == b.objective && a.mkl_iterations == b.mkl_iterations);
        km_model_free(model);
    }
    /* the fitting neighbour does warm-start: another path, fewer iterations */
    km_model *start = train_from(&f, neighbour, NULL), *warm = train_from(&f, params, start);
    CHECK(info_of(warm, 0).iterations < info_of(cold, 0).iterations);
    check_same_optimum(warm, cold);
    km_model_free(start);
    km_model_free(warm);
    km_model_free(other_rows);
    km_model_free(other_method);
    km_model_free(cold);
    km_params_free(params);
    km_params_free(neighbour);
    km_params_free(fixed);
    close_fixture(&f);
}
