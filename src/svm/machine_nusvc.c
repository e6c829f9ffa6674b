/* nu-SVC as a machine: labels y_i = +-1 and nu (LIBSVM's solve_nu_svc), c_i = y_i a_i / r. Fixed kernel
 * weights only: no MKL certificate (machine.h). */
#include <stddef.h>

#include "svm/machine.h"

static km_status nu_svc_solve(const km_machine_problem *pr, const km_smo_options *options, km_svm_solution *solution)
{
    int warm = km_machine_warm(solution->coef, pr->kernel->n_rows);
    return km_nu_svc_solve(pr->kernel, pr->y, pr->nu, options, warm ? solution->coef : NULL, solution);
}

static const km_param nu_svc_params[] = {KM_PARAM_NU, KM_PARAM_MULTICLASS, 0};

const km_machine_ops km_machine_nu_svc = {
    .task = KM_TASK_NU_SVC,
    .name = "nu-SVC",
    .params = nu_svc_params,
    .loss_weighted = 0,
    .solve = nu_svc_solve,
};
