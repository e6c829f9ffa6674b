/* km_predict: decision values of every machine from kernel values between test rows and the model's
 * basis rows (computed in blocks of test rows), then labels by sign, vote or value. */
#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "data/dataset.h"
#include "kernel/provider.h"
#include "train/clmkl_predict.h"
#include "train/model.h"
#include "train/multiclass.h"
#include "train/low_rank_predict.h"
#include "train/rank1_predict.h"
#include "train/train.h"

/* Kernel values and decision values of one block are at most about this many doubles. */
#define KM_PREDICT_BLOCK_VALUES ((size_t)1 << 23)

static km_status check_test_kernels(const km_model *model, const km_dataset *test, const km_matrix *const *test_kernels)
{
    const km_kernel_set *set = model->kernels;
    for (size_t m = 0; m < set->size; m++) {
        const km_kernel *k = &set->kernels[m];
        if (k->type != KM_KERNEL_PRECOMPUTED)
            continue;
        if (!k->file) {
            /* values come from the test rows themselves (LIBSVM 0:id rows) */
            size_t need = 0;
            for (size_t j = 0; j < model->basis->n; j++)
                if (model->basis_kcol[j] + 1 > need)
                    need = model->basis_kcol[j] + 1;
            if (!test->ids || test->d < need)
                return km_error(KM_EFORMAT, "%s: kernel %zu is precomputed from the data rows; test rows must be "
                                "precomputed-kernel rows (0:id) with at least %zu values",
                                test->source ? test->source : "test data", m + 1, need);
            /* a column beyond the training rows' says the rows were computed against other rows */
            if (test->d > model->basis->d)
                return km_error(KM_EFORMAT, "%s: kernel %zu is precomputed from the data rows; the test rows have a "
                                "value in column %zu, beyond the %zu columns of the training rows",
                                test->source ? test->source : "test data", m + 1, test->d, model->basis->d);
            continue;
        }
        const km_matrix *K = test_kernels ? test_kernels[m] : NULL;
        if (!K)
            return km_error(KM_EINVAL, "kernel %zu (precomputed from %s) needs a test kernel matrix", m + 1, k->file);
        /* the matrix covers every row of test, whichever rows are predicted: a matrix of another row
         * count belongs to other test rows, and reading its first rows would be a silent wrong answer */
        if (K->cols != model->n_train || K->rows != test->n)
            return km_error(KM_EFORMAT, "%s: test kernel %zu is %zu x %zu; expected %zu x %zu (test rows x training rows)",
                            K->source ? K->source : "test kernel matrix", m + 1, K->rows, K->cols, test->n,
                            model->n_train);
    }
    return KM_OK;
}

/* The machines' coefficients as one dense n_basis × nd matrix: column `first + r` holds output r of a
 * machine at its support rows, zero elsewhere. Used when it holds at most this many values (a few
 * machines over many basis rows: OBSCURE, one-vs-rest; not one-vs-one over hundreds of classes). */
#define KM_PREDICT_DENSE_COEFFICIENTS ((size_t)1 << 21)
static double *dense_coefficients(const km_model *model, size_t n_basis, size_t nd)
{
    double *C = calloc(n_basis * nd != 0 ? n_basis * nd : 1, sizeof *C);
    if (!C)
        return NULL;
    for (size_t k = 0, first = 0; k < model->n_machines; k++) {
        const km_machine *machine = &model->machines[k];
        size_t outputs = machine->n_outputs > 1 ? machine->n_outputs : 1;
        for (size_t j = 0; j < machine->n_sv; j++)
            for (size_t r = 0; r < outputs; r++)
                C[machine->sv[j] * nd + first + r] += machine->coef[j * outputs + r];
        first += outputs;
    }
    return C;
}

/* Every machine's biases into the decision values of the block's rows. */
static void start_decisions(const km_model *model, size_t nb_rows, size_t nd, double *decision)
{
    for (size_t k = 0, first = 0; k < model->n_machines; k++) {
        const km_machine *machine = &model->machines[k];
        size_t outputs = machine->n_outputs > 1 ? machine->n_outputs : 1;
        for (size_t t = 0; t < nb_rows; t++)
            for (size_t r = 0; r < outputs; r++)
                decision[t * nd + first + r] = outputs > 1 ? machine->biases[r] : machine->bias;
        first += outputs;
    }
}

/* M flags: the kernels some machine weighs other than 0; NULL when out of memory. */
static unsigned char *used_kernels(const km_model *model)
{
    size_t M = model->kernels->size;
    unsigned char *used = calloc(M ? M : 1, 1);
    for (size_t k = 0; used && k < model->n_machines; k++)
        for (size_t m = 0; m < M; m++)
            used[m] |= model->machines[k].theta[m] != 0.0;
    return used;
}

/* Decision values of each machine (one per output) for the test rows of one block,
 * f = b + sum_m theta_m K_m c: with the dense coefficients C, one product K_m C per kernel
 * (Y: nb_rows × nd workspace); without, machine by machine over its support rows. used: used_kernels,
 * the only kernels K holds. */
static void block_decisions(const km_model *model, const unsigned char *used, const double *C, const double *K,
                            size_t nb_rows, size_t n_basis, size_t nd, double *Y, double *decision /* nb_rows × nd */)
{
    size_t M = model->kernels->size;
    start_decisions(model, nb_rows, nd, decision);
    for (size_t m = 0; m < M && n_basis > 0; m++) {
        const double *Km = K + m * nb_rows * n_basis;
        if (!used[m])   /* kernels every machine weighs 0 (switched off) cost nothing */
            continue;
        if (C)
            cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)nb_rows, (int)nd, (int)n_basis, 1.0, Km,
                        (int)n_basis, C, (int)nd, 0.0, Y, (int)nd);
        for (size_t k = 0, first = 0; k < model->n_machines; k++) {
            const km_machine *machine = &model->machines[k];
            size_t outputs = machine->n_outputs > 1 ? machine->n_outputs : 1;
            for (size_t t = 0; machine->theta[m] != 0.0 && t < nb_rows; t++) {
                for (size_t r = 0; r < outputs; r++) {
                    double s = 0.0;
                    if (C)
                        s = Y[t * nd + first + r];
                    else
                        for (size_t j = 0; j < machine->n_sv; j++)
                            s += machine->coef[j * outputs + r] * Km[t * n_basis + machine->sv[j]];
                    decision[t * nd + first + r] += machine->theta[m] * s;
                }
            }
            first += outputs;
        }
    }
}

/* Decision values overflow when test features or kernel values do (features of 1e300, a high degree):
 * the row is named rather than predicted from inf or NaN. */
static km_status check_finite_decisions(const km_dataset *test, const size_t *rows, size_t n_rows, size_t nm,
                                        const double *decision)
{
    for (size_t t = 0; t < n_rows; t++)
        for (size_t k = 0; k < nm; k++)
            if (!isfinite(decision[t * nm + k]))
                return km_error(KM_EINVAL, "%s: row %zu: decision value %g of machine %zu is not finite (kernel values "
                                "overflow double precision: scale the features)",
                                test->source ? test->source : "test data", rows[t] + 1, decision[t * nm + k], k + 1);
    return KM_OK;
}

static double label_of(const km_model *model, const double *decision, size_t *votes)
{
    if (km_task_regresses(model->task))
        return decision[0];
    if (model->task == KM_TASK_ONECLASS)
        return decision[0] > 0 ? +1.0 : -1.0;
    return model->labels[km_multiclass_vote(model->n_classes, model->multiclass, decision, votes)];
}

struct km_prediction_prep {
    km_rank1_predictor *rank1;         /* rank-1 kernels: a weighted dot product, no kernel values */
    km_low_rank_predictor *low_rank;   /* low-rank kernels: the landmarks' space */
};

km_status km_prediction_prep_new(const km_model *model, km_prediction_prep **out)
{
    km_prediction_prep *prep = calloc(1, sizeof *prep);
    *out = NULL;
    if (!prep)
        return km_error_nomem("the prediction's model side");
    km_status st = km_rank1_predictor_new(model, &prep->rank1);
    if (!st && !prep->rank1)
        st = km_low_rank_predictor_new(model, &prep->low_rank);
    if (st) {
        km_prediction_prep_free(prep);
        return st;
    }
    *out = prep;
    return KM_OK;
}

void km_prediction_prep_free(km_prediction_prep *prep)
{
    if (!prep)
        return;
    km_rank1_predictor_free(prep->rank1);
    km_low_rank_predictor_free(prep->low_rank);
    free(prep);
}

static km_status predict_rows_prepared(const km_model *model, const km_prediction_prep *prep, const km_dataset *data,
                                       const size_t *rows, size_t n, const km_matrix *const *test_kernels,
                                       double *labels, double *decision)
{
    if (!rows)
        n = data->n;
    const km_dataset *test;
    km_dataset *restricted;
    km_status st = km_model_test_rows(model, data, &test, &restricted);
    if (!st)
        st = check_test_kernels(model, test, test_kernels);
    if (st)
        return st;
    size_t M = model->kernels->size, nb = model->basis->n, nm = km_model_n_decision(model);
    const km_rank1_predictor *rank1 = prep->rank1;
    const km_low_rank_predictor *low_rank = prep->low_rank;
    int primal = rank1 || low_rank;
    size_t row_values = rank1 ? 0 : low_rank ? km_low_rank_predictor_row_values(low_rank) + nm : M * nb;
    size_t block = KM_PREDICT_BLOCK_VALUES / (row_values + nm + 1);   /* kernel (or feature) and decision values */
    if (block < 1)
        block = 1;
    if (block > n)
        block = n ? n : 1;
    double *K = primal ? NULL : malloc(block * M * nb * sizeof *K);
    double *dec = malloc(block * nm * sizeof *dec);
    size_t *block_rows = malloc(block * sizeof *block_rows);
    size_t *votes = malloc((model->n_classes + 1) * sizeof *votes);
    km_cross_basis *basis = NULL;       /* the basis side of the kernel values, built once */
    int localized = model->weight_groups > 1;
    int dense = !primal && !localized && nb * nm <= KM_PREDICT_DENSE_COEFFICIENTS;
    double *C = dense ? dense_coefficients(model, nb, nm) : NULL;
    double *Y = dense ? malloc(block * nm * sizeof *Y) : NULL;
    if ((!K && !primal) || !dec || !block_rows || !votes || (dense && (!C || !Y)))
        st = km_error_nomem("prediction buffers");
    /* a localized model weighs its kernels by cluster (km_localized_decisions): all of them */
    unsigned char *used = primal || localized ? NULL : used_kernels(model);
    if (!st && !primal && !localized && !used)
        st = km_error_nomem("prediction buffers");
    if (!st && !primal)
        st = km_cross_basis_new(model->kernels, test, model->basis, NULL, nb, model->basis_kcol, &basis);
    if (!st && !primal)
        km_cross_basis_only(basis, used);
    for (size_t start = 0; !st && start < n; start += block) {
        size_t len = n - start < block ? n - start : block;
        for (size_t t = 0; t < len; t++)
            block_rows[t] = rows ? rows[start + t] : start + t;
        if (rank1)
            km_rank1_decisions(rank1, test, block_rows, len, dec);
        else if (low_rank)
            st = km_low_rank_decisions(low_rank, test, block_rows, len, dec);
        else
            st = km_cross_basis_values(basis, block_rows, len, test_kernels, NULL, K);
        if (st)
            break;
        if (localized)
            st = km_localized_decisions(model, K, len, nb, dec);
        else if (!primal)
            block_decisions(model, used, C, K, len, nb, nm, Y, dec);
        if (st)
            break;
        if ((st = check_finite_decisions(test, block_rows, len, nm, dec)))
            break;
        for (size_t t = 0; t < len; t++) {
            if (labels)
                labels[start + t] = label_of(model, dec + t * nm, votes);
            if (decision)
                memcpy(decision + (start + t) * nm, dec + t * nm, nm * sizeof *dec);
        }
    }
    free(K);
    free(dec);
    free(block_rows);
    free(votes);
    free(C);
    free(Y);
    km_cross_basis_free(basis);
    free(used);
    km_dataset_free(restricted);
    return st;
}

km_status km_predict_rows(const km_model *model, const km_dataset *test, const size_t *rows, size_t n,
                          const km_matrix *const *test_kernels, double *labels, double *decision)
{
    km_prediction_prep *prep;
    km_status st = km_prediction_prep_new(model, &prep);
    if (!st)
        st = predict_rows_prepared(model, prep, test, rows, n, test_kernels, labels, decision);
    km_prediction_prep_free(prep);
    return st;
}

km_status km_predict(const km_model *model, const km_dataset *test, const km_matrix *const *test_kernels,
                     double *labels, double *decision)
{
    return km_predict_rows(model, test, NULL, 0, test_kernels, labels, decision);
}

km_status km_predict_range_prepared(const km_model *model, const km_prediction_prep *prep, const km_dataset *test,
                                    size_t first, size_t count, const km_matrix *const *test_kernels,
                                    double *labels, double *decision)
{
    if (first > test->n || count > test->n - first)
        return km_error(KM_EINVAL, "rows %zu..%zu are not rows of the %zu test rows", first + 1, first + count, test->n);
    if (count == 0)
        return KM_OK;
    size_t *rows = malloc(count * sizeof *rows);
    if (!rows)
        return km_error_nomem("prediction rows");
    for (size_t t = 0; t < count; t++)
        rows[t] = first + t;
    km_status st = predict_rows_prepared(model, prep, test, rows, count, test_kernels, labels, decision);
    free(rows);
    return st;
}

km_status km_predict_range(const km_model *model, const km_dataset *test, size_t first, size_t count,
                           const km_matrix *const *test_kernels, double *labels, double *decision)
{
    km_prediction_prep *prep;
    km_status st = km_prediction_prep_new(model, &prep);
    if (!st)
        st = km_predict_range_prepared(model, prep, test, first, count, test_kernels, labels, decision);
    km_prediction_prep_free(prep);
    return st;
}
