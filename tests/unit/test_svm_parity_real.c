/* Parity with Debian's LIBSVM 3.24 on real data shipped with python3-sklearn: C-SVC on breast_cancer
 * (569 x 30, features scaled to [0, 1]) and epsilon-SVR on diabetes (442 x 10, features scaled to
 * [0, 1], target standardised). Same dual objective (1e-6 relative), bias and predictions. */
#include "check.h"
#include "test_svm_support.h"

#define SKLEARN_DATA "/usr/lib/python3/dist-packages/sklearn/datasets/data/"

enum { BC_ROWS = 569, BC_DIM = 30, BC_TRAIN = 400, DB_ROWS = 442, DB_DIM = 10, DB_TRAIN = 300 };

/* breast_cancer.csv: "569,30,malignant,benign", then 30 features and the 0/1 label per row. */
static int read_breast_cancer(double *X, double *y)
{
    FILE *f = fopen(SKLEARN_DATA "breast_cancer.csv", "r");
    if (!f)
        return -1;
    char line[8192];
    int ok = fgets(line, sizeof line, f) != NULL && strncmp(line, "569,30,", 7) == 0;
    size_t rows = 0;
    while (ok && rows < BC_ROWS && fgets(line, sizeof line, f)) {
        char *s = line, *end;
        for (size_t t = 0; t < BC_DIM && ok; t++) {
            X[rows * BC_DIM + t] = strtod(s, &end);
            ok = end != s && *end == ',';
            s = end + 1;
        }
        y[rows] = strtod(s, &end) > 0.5 ? 1.0 : -1.0;
        ok = ok && end != s;
        rows++;
    }
    fclose(f);
    return ok && rows == BC_ROWS ? 0 : -1;
}

/* Reads count numbers from a gzip file through gzip -dc. */
static int read_gzip_numbers(const char *path, double *values, size_t count)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "gzip -dc '%s'", path);
    FILE *f = popen(cmd, "r");
    if (!f)
        return -1;
    size_t got = 0;
    while (got < count && fscanf(f, "%lf", &values[got]) == 1)
        got++;
    int rc = pclose(f);
    return got == count && rc == 0 ? 0 : -1;
}

static double X[BC_ROWS * BC_DIM], y[BC_ROWS]; /* breast cancer: classification */
static double D[DB_ROWS * DB_DIM], z[DB_ROWS];   /* diabetes: regression */

static void setup(void)
{
    if (!test_have_libsvm())
        KM_TEST_SKIP(KM_SVM_TRAIN " / " KM_SVM_PREDICT " not installed (Debian package libsvm-tools)");
    CHECK(read_breast_cancer(X, y) == 0);
    test_scale_columns(X, BC_ROWS, BC_DIM);
    CHECK(read_gzip_numbers(SKLEARN_DATA "diabetes_data_raw.csv.gz", D, DB_ROWS * DB_DIM) == 0);
    CHECK(read_gzip_numbers(SKLEARN_DATA "diabetes_target.csv.gz", z, DB_ROWS) == 0);
    test_scale_columns(D, DB_ROWS, DB_DIM);
    double mean = 0, var = 0;
    for (size_t i = 0; i < DB_ROWS; i++)
        mean += z[i] / DB_ROWS;
    for (size_t i = 0; i < DB_ROWS; i++)
        var += (z[i] - mean) * (z[i] - mean) / DB_ROWS;
    for (size_t i = 0; i < DB_ROWS; i++)
        z[i] = test_round8((z[i] - mean) / sqrt(var));
}

KM_TEST_FIXTURE(setup, NULL)

KM_TEST_CASE(breast_cancer_svc_linear)
{
    test_parity_case pc = {"breast_cancer C-SVC linear", TEST_SVC, 0, 0.0, 10.0, 0, 0, 1e-7, 0,
                           X, y, BC_TRAIN, BC_DIM, X + BC_TRAIN * BC_DIM, y + BC_TRAIN, BC_ROWS - BC_TRAIN};
    test_parity(&pc);
}

KM_TEST_CASE(breast_cancer_svc_linear_shrinking)
{
    test_parity_case pc = {"breast_cancer C-SVC linear", TEST_SVC, 0, 0.0, 10.0, 0, 0, 1e-7, 1,
                           X, y, BC_TRAIN, BC_DIM, X + BC_TRAIN * BC_DIM, y + BC_TRAIN, BC_ROWS - BC_TRAIN};
    test_parity(&pc);
}

KM_TEST_CASE(breast_cancer_svc_rbf)
{
    test_parity_case pc = {"breast_cancer C-SVC rbf", TEST_SVC, 1, 0.5, 5.0, 0, 0, 1e-7, 0,
                           X, y, BC_TRAIN, BC_DIM, X + BC_TRAIN * BC_DIM, y + BC_TRAIN, BC_ROWS - BC_TRAIN};
    test_parity(&pc);
}

KM_TEST_CASE(breast_cancer_svc_rbf_shrinking)
{
    test_parity_case pc = {"breast_cancer C-SVC rbf", TEST_SVC, 1, 0.5, 5.0, 0, 0, 1e-7, 1,
                           X, y, BC_TRAIN, BC_DIM, X + BC_TRAIN * BC_DIM, y + BC_TRAIN, BC_ROWS - BC_TRAIN};
    test_parity(&pc);
}

KM_TEST_CASE(diabetes_svr_linear)
{
    test_parity_case pc = {"diabetes eps-SVR linear", TEST_SVR, 0, 0.0, 1.0, 0.2, 0, 1e-7, 0,
                           D, z, DB_TRAIN, DB_DIM, D + DB_TRAIN * DB_DIM, z + DB_TRAIN, DB_ROWS - DB_TRAIN};
    test_parity(&pc);
}

KM_TEST_CASE(diabetes_svr_linear_shrinking)
{
    test_parity_case pc = {"diabetes eps-SVR linear", TEST_SVR, 0, 0.0, 1.0, 0.2, 0, 1e-7, 1,
                           D, z, DB_TRAIN, DB_DIM, D + DB_TRAIN * DB_DIM, z + DB_TRAIN, DB_ROWS - DB_TRAIN};
    test_parity(&pc);
}

KM_TEST_CASE(diabetes_svr_rbf)
{
    test_parity_case pc = {"diabetes eps-SVR rbf", TEST_SVR, 1, 1.0, 3.0, 0.1, 0, 1e-7, 0,
                           D, z, DB_TRAIN, DB_DIM, D + DB_TRAIN * DB_DIM, z + DB_TRAIN, DB_ROWS - DB_TRAIN};
    test_parity(&pc);
}

KM_TEST_CASE(diabetes_svr_rbf_shrinking)
{
    test_parity_case pc = {"diabetes eps-SVR rbf", TEST_SVR, 1, 1.0, 3.0, 0.1, 0, 1e-7, 1,
                           D, z, DB_TRAIN, DB_DIM, D + DB_TRAIN * DB_DIM, z + DB_TRAIN, DB_ROWS - DB_TRAIN};
    test_parity(&pc);
}
