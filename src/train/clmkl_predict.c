/* Prediction with localized kernel weights (clmkl_predict.h). */
#include "train/clmkl_predict.h"

#include <stdlib.h>

#include "core/error.h"
#include "data/dataset.h"
#include "mkl/clmkl.h"

km_status km_localized_check(const km_model *model, const char *path, km_status failure)
{
    km_clustering clustering;
    if (model->weight_groups > 1 && model->basis->n != model->n_train)
        return km_error(failure, "%s: a model with %zu kernel-weight groups keeps all %zu training rows (has %zu)",
                        path, model->weight_groups, model->n_train, model->basis->n);
    if (km_clustering_read(&model->data, model->n_train, model->weight_groups, model->kernels->size, &clustering))
        return km_error_in(path, failure);
    return KM_OK;
}

km_status km_localized_decisions(const km_model *model, const double *K, size_t nb_rows, size_t n_basis,
                                 double *decision)
{
    size_t M = model->kernels->size, l = model->weight_groups, nm = model->n_machines;
    km_clustering cl;
    km_status st = km_clustering_read(&model->data, n_basis, l, M, &cl);
    if (st)
        return st;
    double *scratch = malloc((n_basis + l) * sizeof *scratch), *memberships = malloc(nb_rows * l * sizeof *memberships);
    if (!scratch || !memberships) {
        free(scratch);
        free(memberships);
        return km_error_nomem("localized prediction");
    }
    km_clustering_memberships(&cl, M, K, nb_rows, scratch, memberships);
    for (size_t t = 0; t < nb_rows; t++) {
        const double *c = memberships + t * l;
        for (size_t k = 0; k < nm; k++) {
            const km_machine *machine = &model->machines[k];
            double f = machine->bias;
            for (size_t m = 0; m < M; m++) {
                const double *row = K + (m * nb_rows + t) * n_basis;
                for (size_t s = 0; s < machine->n_sv; s++) {
                    const double *cs = cl.memberships + machine->sv[s] * l;
                    double w = 0;
                    for (size_t j = 0; j < l; j++)
                        w += machine->theta[j * M + m] * c[j] * cs[j];
                    f += w * machine->coef[s] * row[machine->sv[s]];
                }
            }
            decision[t * nm + k] = f;
        }
    }
    free(scratch);
    free(memberships);
    return KM_OK;
}
