#include "svm/machine.h"

extern const km_machine_ops km_machine_svc, km_machine_svr, km_machine_oneclass, km_machine_nu_svc, km_machine_nu_svr;
extern const km_machine_ops km_machine_krr;

static const km_machine_ops *const all[] = {&km_machine_svc, &km_machine_svr, &km_machine_oneclass,
                                            &km_machine_nu_svc, &km_machine_nu_svr, &km_machine_krr};

const km_machine_ops *km_machine_ops_of(km_task task)
{
    for (size_t k = 0; k < sizeof all / sizeof *all; k++)
        if (all[k]->task == task)
            return all[k];
    return NULL;
}

const km_machine_ops *km_machine_ops_at(size_t k)
{
    return k < sizeof all / sizeof *all ? all[k] : NULL;
}

int km_machine_warm(const double *coef, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (coef[i] != 0.0)
            return 1;
    return 0;
}

int km_machine_solves_on_features(const km_machine_problem *problem, const km_smo_options *options)
{
    return !options->hook && km_kernel_access_features(problem->kernel, NULL);
}

double km_machine_unit_scale(const km_machine_problem *problem)
{
    (void)problem;
    return 1.0;
}
