/* Models written in format version 1 by an earlier kernelmix (tests/data/model-v1, generate.sh) keep
 * loading, and predict the labels and decision values that kernelmix printed when it wrote them
 * (golden_models.h): a binary C-SVC with fixed weights (sparse basis), one-vs-one MKL on dense CSV
 * rows, epsilon-SVR, one-class with centring, and LIBSVM precomputed-kernel rows. */
#include "golden_models.h"

#define DIR KM_TEST_DATA_DIR "/model-v1/"

KM_TEST_CASE(svc) { check_golden(&(golden){DIR, "svc", "heart_test", 0}); }
KM_TEST_CASE(ovo_mkl) { check_golden(&(golden){DIR, "ovo_mkl", "iris_test.csv", 0}); }
KM_TEST_CASE(svr) { check_golden(&(golden){DIR, "svr", "regression_test", 0}); }
KM_TEST_CASE(oneclass) { check_golden(&(golden){DIR, "oneclass", "heart_test", 0}); }
KM_TEST_CASE(precomputed) { check_golden(&(golden){DIR, "precomputed", "precomputed_test", KM_READ_PRECOMPUTED}); }
