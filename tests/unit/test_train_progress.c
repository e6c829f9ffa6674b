/* The progress reports of training and cross-validation (km_params_set_progress): each report is a
 * whole snapshot — the machine k of K, the MKL outer step and its gap, the fold f of F — the stages
 * come in order, a machine's MKL steps count up from 1 with the gap of the model's final step, and a
 * non-zero return stops the call with KM_EINTERRUPTED and no model. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "core/rng.h"
#include "kernelmix.h"

enum { N = 60, D = 3 };

enum { MAX_WEIGHTS = 4 };

typedef struct recorder {
    km_progress reports[512];    /* the last reports of stages other than "solver" */
    double weights[512][MAX_WEIGHTS]; /* a copy of each report's MKL weights (valid during the call only) */
    size_t n, solver_polls;
    size_t stop_after;           /* return 1 from this report on (0: never) */
    size_t seen;
} recorder;

static int record(void *user, const km_progress *progress)
{
    recorder *r = user;
    r->seen++;
    if (!strcmp(progress->stage, "solver"))
        r->solver_polls++;
    else if (r->n < sizeof r->reports / sizeof r->reports[0]) {
        for (size_t m = 0; m < progress->mkl_n_weights && m < MAX_WEIGHTS; m++)
            r->weights[r->n][m] = progress->mkl_weights[m];
        r->reports[r->n++] = *progress;
    }
    return r->stop_after && r->seen >= r->stop_after;
}

static km_dataset *three_classes(void)
{
    km_rng rng;
    km_rng_seed(&rng, 7);
    double X[N * D], y[N];
    for (size_t i = 0; i < N; i++) {
        y[i] = (double)(i % 3 + 1);
        for (size_t j = 0; j < D; j++)
            X[i * D + j] = km_rng_normal(&rng) + (j == i % 3 ? 2.0 : 0.0);
    }
    km_dataset *data = NULL;
    km_dataset_from_dense(N, D, X, y, &data);
    return data;
}

static km_kernel_set *two_kernels(void)
{
    km_kernel_set *set = NULL;
    km_kernel_set_new(&set);
    km_kernel_set_add_spec(set, "linear");
    km_kernel_set_add_spec(set, "rbf:gamma=0.5");
    return set;
}

static km_params *lp_mkl(recorder *r)
{
    km_params *params = NULL;
    km_params_new(&params);
    km_params_set_int(params, KM_PARAM_MKL_METHOD, KM_MKL_LP);
    km_params_set_int(params, KM_PARAM_MKL_SOLVER, KM_MKL_WRAPPER);
    km_params_set_double(params, KM_PARAM_P, 2);
    km_params_set_progress(params, record, r);
    return params;
}

/* One-vs-one on three classes: "alignment" reports of the diagnostics, then machines 1..3 of 3, each with
 * MKL steps 1, 2, ... then "machine". */
KM_TEST_CASE(training_reports_machines_and_mkl_steps)
{
    km_dataset *data = three_classes();
    km_kernel_set *set = two_kernels();
    recorder r = {0};
    km_params *params = lp_mkl(&r);
    km_model *model = NULL;
    CHECK_OK(km_train(data, set, params, &model));
    size_t machine = 1;
    long step = 0;
    for (size_t k = 0; k < r.n; k++) {
        const km_progress *p = &r.reports[k];
        CHECK(p->size == sizeof(km_progress));
        CHECK(p->fold == 0 && p->n_folds == 0);
        if (!strcmp(p->stage, "alignment")) {   /* the diagnostics, before any machine */
            CHECK(machine == 1 && p->machine == 0 && p->mkl_step == 0);
            continue;
        }
        CHECK(p->n_machines == 3 && p->machine == machine);
        if (!strcmp(p->stage, "mkl")) {
            CHECK(p->mkl_step == step + 1);
            CHECK(isfinite(p->mkl_gap) && p->mkl_gap >= 0);
            step = p->mkl_step;
        } else {
            CHECK(!strcmp(p->stage, "machine"));
            km_machine_info info = KM_MACHINE_INFO_INIT;
            CHECK_OK(km_model_machine_info(model, machine - 1, &info));
            CHECK(step >= 1 && p->mkl_step == step && p->mkl_step == info.mkl_iterations);
            CHECK(p->mkl_gap == info.gap);
            machine++;
            step = 0;
        }
    }
    CHECK(machine == 4); /* three "machine" reports */
    km_model_free(model);
    km_params_free(params);
    km_kernel_set_free(set);
    km_dataset_free(data);
}

/* Every "mkl" report carries the step's record: the wrapper's certificate (objective P >= D, the gap
 * (P - D)/|P|), its two kernel weights, the last of them the machine's weights in the model; seconds
 * do not decrease; other reports carry no weights, and none before the first step. */
KM_TEST_CASE(mkl_reports_carry_the_step_record)
{
    km_dataset *data = three_classes();
    km_kernel_set *set = two_kernels();
    recorder r = {0};
    km_params *params = lp_mkl(&r);
    km_model *model = NULL;
    CHECK_OK(km_train(data, set, params, &model));
    size_t machine = 0, mkl_reports = 0;
    double seconds = 0;
    const double *last = NULL;
    for (size_t k = 0; k < r.n; k++) {
        const km_progress *p = &r.reports[k];
        CHECK(p->seconds >= seconds);
        seconds = p->seconds;
        if (!strcmp(p->stage, "mkl")) {
            mkl_reports++;
            CHECK(p->mkl_n_weights == 2 && p->mkl_weights != NULL);
            CHECK(p->mkl_dual <= p->mkl_primal && p->mkl_objective == p->mkl_primal);
            CHECK(fabs(p->mkl_gap - (p->mkl_primal - p->mkl_dual) / fabs(p->mkl_primal)) <= 1e-12);
            CHECK(r.weights[k][0] >= 0 && r.weights[k][1] >= 0 && r.weights[k][0] + r.weights[k][1] > 0);
            last = r.weights[k];
        } else {
            CHECK(p->mkl_n_weights == 0 && p->mkl_weights == NULL);
            if (!strcmp(p->stage, "alignment"))
                CHECK(isnan(p->mkl_objective) && isnan(p->mkl_dual) && isnan(p->mkl_primal));
            if (!strcmp(p->stage, "machine")) {
                const double *theta = km_model_kernel_weights(model, machine++);
                CHECK(last != NULL && last[0] == theta[0] && last[1] == theta[1]);
                last = NULL;
            }
        }
    }
    CHECK(machine == 3 && mkl_reports >= 3);
    km_model_free(model);
    km_params_free(params);
    km_kernel_set_free(set);
    km_dataset_free(data);
}

/* Cross-validation: every report carries its fold; "fold" f closes fold f, after its machines. */
KM_TEST_CASE(cross_validation_reports_folds)
{
    km_dataset *data = three_classes();
    km_kernel_set *set = two_kernels();
    recorder r = {0};
    km_params *params = lp_mkl(&r);
    double predicted[N];
    CHECK_OK(km_cross_validate(data, set, params, 4, predicted));
    int fold = 1;
    size_t machines_in_fold = 0;
    for (size_t k = 0; k < r.n; k++) {
        const km_progress *p = &r.reports[k];
        CHECK(p->n_folds == 4 && p->fold == fold);
        if (!strcmp(p->stage, "machine"))
            machines_in_fold++;
        if (!strcmp(p->stage, "fold")) {
            CHECK(machines_in_fold == 3);
            machines_in_fold = 0;
            fold++;
        }
    }
    CHECK(fold == 5);
    km_params_free(params);
    km_kernel_set_free(set);
    km_dataset_free(data);
}

/* A stop asked in an MKL step report ends training at the solver's next poll. */
KM_TEST_CASE(stop_from_a_report)
{
    km_dataset *data = three_classes();
    km_kernel_set *set = two_kernels();
    recorder r = {.stop_after = 2};
    km_params *params = lp_mkl(&r);
    km_model *model = NULL;
    CHECK_STATUS(km_train(data, set, params, &model), KM_EINTERRUPTED);
    CHECK(model == NULL);
    CHECK(r.seen <= 3);
    km_params_free(params);
    km_kernel_set_free(set);
    km_dataset_free(data);
}
