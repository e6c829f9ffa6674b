/* nu-SVR as a machine: targets z_i, C and nu (LIBSVM's solve_nu_svr), c_i = a_i - a*_i. Fixed kernel
 * weights only: no MKL certificate (machine.h). */
#include <stddef.h>

#include "svm/machine.h"

static km_status nu_svr_solve(const km_machine_problem *pr, const km_smo_options *options, km_svm_solution *solution)
{
    int warm = km_machine_warm(solution->coef, pr->kernel->n_rows);
    return km_nu_svr_solve(pr->kernel, pr->z, pr->C, pr->nu, options, warm ? solution->coef : NULL, solution);
}

static const km_param nu_svr_params[] = {KM_PARAM_C, KM_PARAM_NU, 0};

const km_machine_ops km_machine_nu_svr = {
    .task = KM_TASK_NU_SVR,
    .name = "nu-SVR",
    .params = nu_svr_params,
    .loss_weighted = 1,
    .solve = nu_svr_solve,
};
