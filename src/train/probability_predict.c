/* Class probabilities of a model trained with probability models (-b 1): the sigmoid of each binary
 * machine's decision value, coupled over the one-vs-one pairs for more than two classes (LIBSVM's
 * svm_predict_probability; train/probability.h says how the models are fitted). */
#include <math.h>
#include <stdlib.h>

#include "core/error.h"
#include "data/dataset.h"
#include "svm/pairwise_coupling.h"
#include "svm/platt.h"
#include "train/model.h"
#include "train/train.h"

/* Pairwise probabilities are kept within [1e-7, 1 - 1e-7], as LIBSVM keeps them, so that coupling never
 * meets a class that is certainly out. */
#define KM_PAIRWISE_MIN 1e-7

int km_model_has_probability(const km_model *model) { return model && model->probability; }

km_status km_model_sigmoid(const km_model *model, size_t machine, double *A, double *B)
{
    if (!model->probability || !model->sigmoid_a)
        return km_error(KM_EINVAL, "the model has no probability sigmoids (a classifier trained with -b 1 has them)");
    if (machine >= model->n_machines)
        return km_error(KM_EINVAL, "machine %zu is not one of the model's %zu", machine, model->n_machines);
    *A = model->sigmoid_a[machine];
    *B = model->sigmoid_b[machine];
    return KM_OK;
}

km_status km_model_laplace_sigma(const km_model *model, double *sigma)
{
    if (!model->probability || !km_task_regresses(model->task))
        return km_error(KM_EINVAL, "the model has no Laplace noise width (a regression model trained with -b 1 has it)");
    *sigma = model->laplace_sigma;
    return KM_OK;
}

static km_status check_probability_model(const km_model *model)
{
    if (km_task_regresses(model->task) && model->probability)
        return km_error(KM_EINVAL, "a regression model has no class probabilities: its probability model is the "
                        "Laplace width of y - f(x) (km_model_laplace_sigma)");
    if (!model->probability || !model->sigmoid_a)
        return km_error(KM_EINVAL, "the model has no probability models: train it with -b 1 (KM_PARAM_PROBABILITY)");
    return KM_OK;
}

/* The probabilities of one row from its decision values; r and work are the coupling's buffers. */
static void row_probabilities(const km_model *model, const double *decision, double *p, double *r, double *work)
{
    size_t k = model->n_classes;
    for (size_t q = 0; q < model->n_machines; q++) {
        const km_machine *machine = &model->machines[q];
        double rij = km_sigmoid_probability(decision[q], model->sigmoid_a[q], model->sigmoid_b[q]);
        rij = fmin(fmax(rij, KM_PAIRWISE_MIN), 1.0 - KM_PAIRWISE_MIN);
        size_t i = (size_t)machine->class_pos, j = (size_t)machine->class_neg;
        r[i * k + j] = rij;
        r[j * k + i] = 1.0 - rij;
    }
    if (k == 2) {
        p[0] = r[0 * k + 1];
        p[1] = r[1 * k + 0];
    } else {
        km_pairwise_coupling(k, r, p, work);
    }
}

km_status km_probability_from_decision(const km_model *model, size_t n, const double *decision, double *labels,
                                       double *probabilities)
{
    km_status st = check_probability_model(model);
    if (st)
        return st;
    size_t k = model->n_classes, nm = model->n_machines;
    double *r = calloc(k * k, sizeof *r), *work = malloc(k * (k + 1) * sizeof *work);
    double *p = malloc(k * sizeof *p);
    if (!r || !work || !p)
        st = km_error_nomem("probability buffers");
    for (size_t t = 0; !st && t < n; t++) {
        row_probabilities(model, decision + t * nm, p, r, work);
        size_t best = 0;
        for (size_t c = 0; c < k; c++) {
            if (probabilities)
                probabilities[t * k + c] = p[c];
            if (p[c] > p[best])
                best = c;
        }
        if (labels)
            labels[t] = model->labels[best];
    }
    free(r);
    free(work);
    free(p);
    return st;
}

/* Rows are predicted this many at a time, so that the decision values take bounded memory. */
#define KM_PROBABILITY_BLOCK_ROWS 4096

km_status km_predict_probability(const km_model *model, const km_dataset *test, const km_matrix *const *test_kernels,
                                 double *labels, double *probabilities)
{
    km_status st = check_probability_model(model);
    if (st)
        return st;
    size_t n = km_dataset_rows(test), k = model->n_classes, nm = model->n_machines;
    size_t block = n < KM_PROBABILITY_BLOCK_ROWS ? (n ? n : 1) : KM_PROBABILITY_BLOCK_ROWS;
    double *decision = malloc(block * nm * sizeof *decision);
    km_prediction_prep *prep = NULL;
    if (!decision)
        return km_error_nomem("decision values");
    st = km_prediction_prep_new(model, &prep);
    for (size_t first = 0; !st && first < n; first += block) {
        size_t count = n - first < block ? n - first : block;
        st = km_predict_range_prepared(model, prep, test, first, count, test_kernels, NULL, decision);
        if (!st)
            st = km_probability_from_decision(model, count, decision, labels ? labels + first : NULL,
                                              probabilities ? probabilities + first * k : NULL);
    }
    km_prediction_prep_free(prep);
    free(decision);
    return st;
}
