/* A kernel-weight method that exists only in the test build (tests/CMakeLists.txt lists it in the
 * method table through KM_EXTRA_METHODS): the recipe of docs/architecture.md "How to add a
 * kernel-weight method" followed literally. Its weights are the simplex's centre scaled to the
 * radius, theta_m = R/M, then the task is trained once on the combination. */
#include <stdlib.h>

#include "core/error.h"
#include "mkl/method.h"
#include "mkl/two_stage.h"

/* The id of a method outside km_mkl_method's values. */
#define KM_MKL_TOY ((km_mkl_method)900)

static km_status toy_train(const km_mkl_problem *problem, km_mkl_result *result)
{
    size_t M = problem->machine->kernel->n_kernels;
    double *mu = malloc(M * sizeof *mu);
    if (!mu)
        return km_error_nomem("the toy method's weights");
    for (size_t m = 0; m < M; m++)
        mu[m] = 1.0;
    km_status st = km_two_stage_train(problem, mu, result);
    free(mu);
    return st;
}

const km_mkl_method_entry km_method_toy = {
    .id = KM_MKL_TOY, .name = "toy",
    .help = "the uniform weights R/M (a method of the test build only)",
    .flags = KM_METHOD_LEARNS_WEIGHTS | KM_METHOD_ALIGNMENT,
    .params = (const km_param[]){KM_PARAM_MKL_RADIUS, 0},
    .resolve = km_alignment_methods_resolve,
    .train = toy_train,
};
