/* One-class SVM as a machine: solved in LIBSVM's scaling (sum a = nu n, 0 <= a <= 1, c = a) and
 * certified in the scaling of the MKL dual (sum a = 1, 0 <= a <= 1/(nu n), mkl.h): lin = 0,
 * loss -rho + 1/(nu n) sum max(0, rho - f(x_i)) at the best rho. */
#include <string.h>

#include "svm/machine.h"

static km_status oneclass_solve(const km_machine_problem *pr, const km_smo_options *options,
                                km_svm_solution *solution)
{
    /* c = alpha: the coefficients are the warm start as they are */
    size_t n = pr->kernel->n_rows;
    return km_oneclass_solve(pr->kernel, pr->nu, options, km_machine_warm(solution->coef, n) ? solution->coef : NULL,
                             solution);
}

static void oneclass_coef_from_alpha(const km_machine_problem *pr, const double *alpha, double *coef)
{
    memcpy(coef, alpha, pr->kernel->n_rows * sizeof *coef);
}

static double oneclass_linear_term(const km_machine_problem *pr, const double *coef)
{
    (void)pr;
    (void)coef;
    return 0.0;
}

/* The loss at rho = -bias: -rho + 1/(nu n) sum max(0, rho - f). The optimal rho for fixed f is the
 * ceil(nu n)-th smallest f, which puts a training row exactly on the decision boundary; the solver's
 * rho agrees with it to the solver's tolerance, and the certificate keeps the solver's point. */
static double oneclass_loss(const km_machine_problem *pr, const double *f, double bias, double *best_bias)
{
    size_t n = pr->kernel->n_rows;
    double rho = -bias, excess = 0;
    for (size_t i = 0; i < n; i++)
        excess += rho > f[i] ? rho - f[i] : 0.0;
    *best_bias = bias;
    return -rho + excess / (pr->nu * (double)n);
}

static double oneclass_scale(const km_machine_problem *pr)
{
    return 1.0 / (pr->nu * (double)pr->kernel->n_rows);
}

static const km_param oneclass_params[] = {KM_PARAM_NU, 0};

const km_machine_ops km_machine_oneclass = {
    .task = KM_TASK_ONECLASS,
    .name = "one-class",
    .params = oneclass_params,
    .loss_weighted = 0,
    .solve = oneclass_solve,
    .coef_from_alpha = oneclass_coef_from_alpha,
    .linear_term = oneclass_linear_term,
    .loss = oneclass_loss,
    .certificate_scale = oneclass_scale,
};
