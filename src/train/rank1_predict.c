/* Primal prediction with rank-1 kernels (train/rank1_predict.h). */
#include "train/rank1_predict.h"

#include <stdlib.h>

#include "core/error.h"
#include "data/dataset.h"

struct km_rank1_predictor {
    size_t n_decisions;
    size_t dim;              /* features 0..dim-1 carry weights */
    double *w;               /* n_decisions x dim: sum of w_m over the kernels of each feature */
    double *offset;          /* n_decisions: b - sum_m w_m mean_m */
};

void km_rank1_predictor_free(km_rank1_predictor *p)
{
    if (!p)
        return;
    free(p->w);
    free(p->offset);
    free(p);
}

km_status km_rank1_predictor_new(const km_model *model, km_rank1_predictor **out)
{
    *out = NULL;
    const km_kernel_set *set = model->kernels;
    size_t M = set->size, dim = 0;
    if (model->weight_groups > 1)
        return KM_OK;
    for (size_t m = 0; m < M; m++) {
        if (set->kernels[m].type != KM_KERNEL_RANK1)
            return KM_OK;
        if ((size_t)set->kernels[m].features[0] + 1 > dim)
            dim = (size_t)set->kernels[m].features[0] + 1;
    }
    size_t nd = km_model_n_decision(model);
    km_rank1_predictor *p = calloc(1, sizeof *p);
    if (p) {
        p->w = calloc(nd * dim, sizeof *p->w);
        p->offset = calloc(nd, sizeof *p->offset);
    }
    if (!p || !p->w || !p->offset) {
        km_rank1_predictor_free(p);
        return km_error_nomem("the rank-1 predictor");
    }
    p->n_decisions = nd;
    p->dim = dim;
    for (size_t k = 0, first = 0; k < model->n_machines; k++) {
        const km_machine *machine = &model->machines[k];
        size_t outputs = machine->n_outputs > 1 ? machine->n_outputs : 1;
        for (size_t r = 0; r < outputs; r++) {
            double *w = p->w + (first + r) * dim;
            p->offset[first + r] = outputs > 1 ? machine->biases[r] : machine->bias;
            for (size_t m = 0; m < M; m++) {
                const km_kernel *kernel = &set->kernels[m];
                if (machine->theta[m] == 0.0 || kernel->gamma == 0.0)
                    continue;
                double s = 0;
                for (size_t j = 0; j < machine->n_sv; j++)
                    s += machine->coef[j * outputs + r] *
                         (km_dataset_value(model->basis, machine->sv[j], kernel->features[0]) - kernel->coef0);
                double wm = machine->theta[m] * kernel->gamma * s;
                w[kernel->features[0]] += wm;
                p->offset[first + r] -= wm * kernel->coef0;
            }
        }
        first += outputs;
    }
    *out = p;
    return KM_OK;
}

void km_rank1_decisions(const km_rank1_predictor *p, const km_dataset *test, const size_t *rows, size_t n,
                        double *decision)
{
    size_t nd = p->n_decisions, dim = p->dim;
    for (size_t t = 0; t < n; t++) {
        size_t row = rows[t];
        for (size_t r = 0; r < nd; r++) {
            const double *w = p->w + r * dim;
            double f = p->offset[r];
            if (test->sparse) {
                for (size_t q = test->row_start[row]; q < test->row_start[row + 1]; q++)
                    if (test->col[q] < dim)
                        f += w[test->col[q]] * test->val[q];
            } else {
                size_t cols = test->d < dim ? test->d : dim;
                for (size_t c = 0; c < cols; c++)
                    f += w[c] * test->X[row * test->d + c];
            }
            decision[t * nd + r] = f;
        }
    }
}
