/* Model accessors: task, classes, machines and their figures, the number of decision values per
 * task and multiclass scheme, distinct support vectors, and the model invariants. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "core/names.h"
#include "data/dataset.h"
#include "kernelmix.h"
#include "train/model.h"

static void *copy_of(const void *src, size_t bytes)
{
    void *dst = malloc(bytes ? bytes : 1);
    if (!dst)
        exit(2);
    memcpy(dst, src, bytes);
    return dst;
}

/* A model of the task with k classes (0 for SVR / one-class), machines p = 0..n_machines-1 with
 * theta = (p, 1-p/10), support vectors sv_lists[p] (n_sv[p] of them), bias p/4, objective -p;
 * one linear kernel and a one-feature dense basis of n_basis rows. */
static km_model *build(km_task task, km_multiclass multiclass, size_t k, size_t n_machines,
                       const size_t *const *sv_lists, const size_t *n_sv, size_t n_basis)
{
    km_model *model;
    if (km_model_alloc(&model) != KM_OK)
        exit(2);
    model->task = task;
    model->multiclass = multiclass;
    model->n_classes = k;
    if (k) {
        model->labels = malloc(k * sizeof *model->labels);
        for (size_t c = 0; c < k; c++)
            model->labels[c] = 10.0 * (double)c - 5.0;
    }
    km_kernel_set_new(&model->kernels);
    km_kernel linear = {.type = KM_KERNEL_LINEAR, .fitted = 1, .scale = 1};
    km_kernel_set_append(model->kernels, &linear);
    km_kernel_set_append(model->kernels, &linear);
    model->n_machines = n_machines;
    model->machines = calloc(n_machines, sizeof *model->machines);
    for (size_t p = 0; p < n_machines; p++) {
        km_machine *machine = &model->machines[p];
        double theta[2] = {(double)p, 1.0 - (double)p / 10.0};
        machine->theta = copy_of(theta, sizeof theta);
        machine->n_sv = n_sv[p];
        machine->sv = copy_of(sv_lists[p], n_sv[p] * sizeof *machine->sv);
        machine->coef = calloc(n_sv[p] ? n_sv[p] : 1, sizeof *machine->coef);
        machine->bias = (double)p / 4.0;
        machine->objective = -(double)p;
        machine->class_pos = task == KM_TASK_SVC ? 0 : -1;
        machine->class_neg = task == KM_TASK_SVC ? 1 : -1;
    }
    double *X = calloc(n_basis, sizeof *X);
    km_dataset_from_dense(n_basis, 1, X, NULL, &model->basis);
    free(X);
    model->basis_kcol = calloc(n_basis, sizeof *model->basis_kcol);
    return model;
}

static void test_three_class_ovo(void)
{
    static const size_t a[] = {0, 1, 3}, b[] = {0, 2}, c[] = {1, 2, 3, 4};
    const size_t *lists[] = {a, b, c};
    const size_t n_sv[] = {3, 2, 4};
    km_model *model = build(KM_TASK_SVC, KM_MULTICLASS_OVO, 3, 3, lists, n_sv, 6);
    model->machines[1].class_neg = 2;
    model->machines[2].class_pos = 1;
    model->machines[2].class_neg = 2;
    CHECK_OK(km_model_check(model, "m", KM_EFORMAT));
    CHECK(km_model_task(model) == KM_TASK_SVC);
    CHECK(km_model_n_kernels(model) == 2);
    CHECK(km_model_n_classes(model) == 3);
    CHECK(km_model_labels(model)[0] == -5.0 && km_model_labels(model)[2] == 15.0);
    CHECK(km_model_n_machines(model) == 3);
    CHECK(km_model_n_decision(model) == 3);
    CHECK(km_model_n_sv(model, 0) == 3 && km_model_n_sv(model, 1) == 2 && km_model_n_sv(model, 2) == 4);
    CHECK(km_model_kernel_weights(model, 2)[0] == 2.0 && km_model_kernel_weights(model, 2)[1] == 0.8);
    CHECK(km_model_bias(model, 1) == 0.25);
    CHECK(km_model_objective(model, 2) == -2.0);
    /* rows 0..4 are used (row 5 of the basis is not a support vector of any machine) */
    CHECK(km_model_n_sv_total(model) == 5);
    /* machines that do not exist */
    CHECK(km_model_kernel_weights(model, 3) == NULL);
    CHECK(km_model_n_sv(model, 3) == 0);
    CHECK(isnan(km_model_bias(model, 3)) && isnan(km_model_objective(model, 7)));

    /* invariants */
    model->machines[2].class_neg = -1;
    CHECK_STATUS(km_model_check(model, "m", KM_EFORMAT), KM_EFORMAT);
    CHECK(!strcmp(km_last_error(), "m: machine 2: class index -1 is not a second class of the 3 labels"));
    model->machines[2].class_neg = 1;
    CHECK_STATUS(km_model_check(model, "m", KM_EINVAL), KM_EINVAL);
    model->machines[2].class_neg = 2;
    model->machines[0].sv[2] = 6;
    CHECK_STATUS(km_model_check(model, "m", KM_EFORMAT), KM_EFORMAT);
    CHECK(!strcmp(km_last_error(), "m: machine 0: support vector index 6 is beyond the 6 basis rows"));
    model->machines[0].sv[2] = 1;
    CHECK_STATUS(km_model_check(model, "m", KM_EFORMAT), KM_EFORMAT);
    CHECK(!strcmp(km_last_error(), "m: machine 0: support vector indices are not ascending (1 after 1)"));
    model->machines[0].sv[2] = 3;
    model->labels[1] = model->labels[2];
    CHECK_STATUS(km_model_check(model, "m", KM_EFORMAT), KM_EFORMAT);
    CHECK(!strcmp(km_last_error(), "m: class label 15 appears twice"));
    km_model_free(model);
}

static void test_decision_counts(void)
{
    static const size_t none[] = {0};
    const size_t *lists[] = {none, none, none, none, none, none};
    const size_t zero[6] = {0};
    km_model *ovr = build(KM_TASK_SVC, KM_MULTICLASS_OVR, 4, 4, lists, zero, 1);
    for (size_t p = 0; p < 4; p++) {
        ovr->machines[p].class_pos = (int)p;
        ovr->machines[p].class_neg = -1;
    }
    CHECK(km_model_n_decision(ovr) == 4);
    CHECK_OK(km_model_check(ovr, "m", KM_EFORMAT));
    CHECK(km_model_n_sv_total(ovr) == 0);
    km_model_free(ovr);

    km_model *ovo = build(KM_TASK_SVC, KM_MULTICLASS_OVO, 4, 6, lists, zero, 1);
    CHECK(km_model_n_decision(ovo) == 6);
    km_model_free(ovo);

    /* binary: one machine whatever the scheme; "the rest" is not a class there */
    km_model *binary = build(KM_TASK_SVC, KM_MULTICLASS_OVR, 2, 1, lists, zero, 1);
    CHECK(km_model_n_decision(binary) == 1);
    CHECK_OK(km_model_check(binary, "m", KM_EFORMAT));
    binary->machines[0].class_neg = -1;
    CHECK_STATUS(km_model_check(binary, "m", KM_EFORMAT), KM_EFORMAT);
    km_model_free(binary);

    static const size_t svr_sv[] = {0, 2};
    const size_t *svr_lists[] = {svr_sv};
    const size_t svr_n[] = {2};
    km_model *svr = build(KM_TASK_SVR, KM_MULTICLASS_OVO, 0, 1, svr_lists, svr_n, 3);
    CHECK(km_model_n_decision(svr) == 1 && km_model_n_classes(svr) == 0 && km_model_labels(svr) == NULL);
    CHECK(km_model_n_sv_total(svr) == 2);
    CHECK_OK(km_model_check(svr, "m", KM_EFORMAT));
    km_model_free(svr);

    km_model *oneclass = build(KM_TASK_ONECLASS, KM_MULTICLASS_OVR, 0, 1, svr_lists, svr_n, 3);
    CHECK(km_model_n_decision(oneclass) == 1 && km_model_task(oneclass) == KM_TASK_ONECLASS);
    oneclass->n_machines = 2;
    CHECK_STATUS(km_model_check(oneclass, "m", KM_EFORMAT), KM_EFORMAT);
    CHECK(!strcmp(km_last_error(), "m: 2 machines where the task needs 1"));
    oneclass->n_machines = 1;
    km_model_free(oneclass);

    /* a model without classes cannot be a classifier */
    km_model *single = build(KM_TASK_SVC, KM_MULTICLASS_OVO, 1, 1, lists, zero, 1);
    CHECK_STATUS(km_model_check(single, "m", KM_EFORMAT), KM_EFORMAT);
    CHECK(!strcmp(km_last_error(), "m: classification needs at least two classes (found 1)"));
    km_model_free(single);
}

static void test_lifecycle(void)
{
    km_model_free(NULL);
    km_model *model;
    CHECK_OK(km_model_alloc(&model));
    CHECK(model->kernels == NULL && model->machines == NULL && model->basis == NULL && model->n_machines == 0);
    CHECK(km_model_n_kernels(model) == 0 && km_model_n_sv_total(model) == 0);
    CHECK_STATUS(km_model_check(model, "empty.km", KM_EFORMAT), KM_EFORMAT);
    CHECK(!strcmp(km_last_error(), "empty.km: the model has no kernels"));
    km_model_free(model);
}

static void test_names(void)
{
    int value = -1;
    CHECK(km_value_of(km_task_names, "svr", &value) && value == KM_TASK_SVR);
    CHECK(km_value_of(km_task_names, "oneclass", &value) && value == KM_TASK_ONECLASS);
    CHECK(km_value_of(km_task_names, "nu-svc", &value) && value == KM_TASK_NU_SVC);
    CHECK(!km_value_of(km_task_names, "nu-svm", &value));
    CHECK(!strcmp(km_name_of(km_kernel_type_names, KM_KERNEL_HISTINT), "histint"));
    CHECK(!strcmp(km_name_of(km_normalization_names, KM_NORM_MULTIPLICATIVE), "mult"));
    CHECK(km_name_of(km_gamma_mode_names, 7) == NULL);
}

KM_TEST_CASE(three_class_ovo) { test_three_class_ovo(); }
KM_TEST_CASE(decision_counts) { test_decision_counts(); }
KM_TEST_CASE(lifecycle) { test_lifecycle(); }
KM_TEST_CASE(names) { test_names(); }
