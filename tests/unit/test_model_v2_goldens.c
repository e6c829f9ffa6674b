/* Current-format (version 2) models of every kernel-weight method, written by an earlier kernelmix
 * (tests/data/model-v2, generate.sh), keep loading and predict the decision values stored beside them
 * (golden_models.h): the method's parameters, its weights (per cluster or gate for the localized
 * methods) and its data sections (clusterings, evidence, OBSCURE's weights) as read back. */
#include "golden_models.h"

#define DIR KM_TEST_DATA_DIR "/model-v2/"
#define HEART "../model-v1/heart_test"
#define IRIS "../model-v1/iris_test.csv"
#define REGRESSION "../model-v1/regression_test"

static void check(const char *model, const char *test) { check_golden(&(golden){DIR, model, test, 0}); }

KM_TEST_CASE(lp) { check("lp", HEART); }
KM_TEST_CASE(lp_shared) { check("lp_shared", IRIS); }
KM_TEST_CASE(elasticnet) { check("elasticnet", HEART); }
KM_TEST_CASE(tikhonov) { check("tikhonov", HEART); }
KM_TEST_CASE(tikhonov_elasticnet) { check("tikhonov_elasticnet", HEART); }
KM_TEST_CASE(align_q) { check("align_q", HEART); }
KM_TEST_CASE(alignf) { check("alignf", HEART); }
KM_TEST_CASE(l2krr) { check("l2krr", REGRESSION); }
KM_TEST_CASE(l1krr) { check("l1krr", REGRESSION); }
KM_TEST_CASE(eb_rw) { check("eb_rw", REGRESSION); }
KM_TEST_CASE(eb_mackay) { check("eb_mackay", REGRESSION); }
KM_TEST_CASE(obscure) { check("obscure", HEART); }
KM_TEST_CASE(obscure_joint) { check("obscure_joint", IRIS); }
KM_TEST_CASE(clmkl) { check("clmkl", HEART); }
KM_TEST_CASE(hlmkl) { check("hlmkl", HEART); }
KM_TEST_CASE(lmkl) { check("lmkl", HEART); }
