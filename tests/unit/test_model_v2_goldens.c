/* Version-2 models of every kernel-weight method, written by an earlier kernelmix
 * (tests/data/model-v2, generate.sh), keep loading and predict the decision values stored beside them
 * (golden_models.h): the method's parameters, its weights (per cluster or gate for the localized
 * methods) and its data sections (clusterings, evidence, OBSCURE's weights) as read back. */
#include "golden_models.h"

#define DIR KM_TEST_DATA_DIR "/model-v2/"
#define HEART "../model-v1/heart_test"
#define IRIS "../model-v1/iris_test.csv"
#define REGRESSION "../model-v1/regression_test"

static void check(const char *model, const char *test) { check_golden(&(golden){DIR, model, test, 0}); }

/* The value of parameter id of the model's km_model_params. */
static double model_param(const km_model *model, km_param id)
{
    km_params *params = NULL;
    double value = NAN;
    unsigned flags = 0;
    int64_t integer = 0;
    CHECK_OK(km_model_params(model, &params));
    CHECK_OK(km_param_bounds(id, NULL, NULL, &flags));
    if (params && (flags & KM_PARAM_INTEGER) && km_params_get_int(params, id, &integer) == KM_OK)
        value = (double)integer;
    else if (params)
        CHECK_OK(km_params_get_double(params, id, &value));
    km_params_free(params);
    return value;
}

/* A model's parameter id (km_model_params), from generate.sh's command line. */
static double param_of(const char *name, km_param id)
{
    char path[256];
    snprintf(path, sizeof path, DIR "%s.model", name);
    km_model *model = NULL;
    CHECK_OK(km_model_load(path, &model));
    double value = model ? model_param(model, id) : NAN;
    km_model_free(model);
    return value;
}

KM_TEST_CASE(lp)
{
    check("lp", HEART);
    CHECK(fabs(param_of("lp", KM_PARAM_P_BLOCK) - 8.0 / 7) < 1e-15 && fabs(param_of("lp", KM_PARAM_P) - 4.0 / 3) < 1e-15);
}
KM_TEST_CASE(lp_shared) { check("lp_shared", IRIS); }
KM_TEST_CASE(elasticnet)
{
    check("elasticnet", HEART);
    CHECK(param_of("elasticnet", KM_PARAM_LAMBDA) == 0.3);
}
KM_TEST_CASE(tikhonov) { check("tikhonov", HEART); }
KM_TEST_CASE(tikhonov_elasticnet)
{
    check("tikhonov_elasticnet", HEART);
    CHECK(param_of("tikhonov_elasticnet", KM_PARAM_REGULARIZER) == KM_REG_ELASTICNET &&
          param_of("tikhonov_elasticnet", KM_PARAM_LAMBDA) == 0.4);
}
KM_TEST_CASE(align_q)
{
    check("align_q", HEART);
    CHECK(param_of("align_q", KM_PARAM_ALIGN_Q) == 3 && param_of("align_q", KM_PARAM_MKL_RADIUS) == 1);
}
KM_TEST_CASE(alignf) { check("alignf", HEART); }
KM_TEST_CASE(l2krr)
{
    check("l2krr", REGRESSION);
    CHECK(param_of("l2krr", KM_PARAM_L2KRR_ETA) == 0.3 && param_of("l2krr", KM_PARAM_MU0) == KM_MU0_UNIFORM);
}
KM_TEST_CASE(l1krr) { check("l1krr", REGRESSION); }
KM_TEST_CASE(eb_rw) { check("eb_rw", REGRESSION); }
KM_TEST_CASE(eb_mackay) { check("eb_mackay", REGRESSION); }
KM_TEST_CASE(obscure) { check("obscure", HEART); }
KM_TEST_CASE(obscure_joint) { check("obscure_joint", IRIS); }
KM_TEST_CASE(clmkl)
{
    check("clmkl", HEART);
    CHECK(param_of("clmkl", KM_PARAM_CLUSTERS) == 2);
}
KM_TEST_CASE(hlmkl) { check("hlmkl", HEART); }
KM_TEST_CASE(lmkl) { check("lmkl", HEART); }
