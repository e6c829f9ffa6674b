/* Metrics: small examples worked out by hand (the derivation is in each comment), the undefined and
 * invalid cases, and parity with scikit-learn (python3) on 300 generated rows with tied scores. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "kernelmix.h"

#define DATA_FILE "test_metrics.txt"
#define SCRIPT_FILE "test_metrics.py"
#define N 300

static void test_hand_examples(void)
{
    const double truth[] = {1, 1, -1, -1, 1}, pred[] = {1, -1, -1, 1, 1};
    /* 3 of 5 equal */
    CHECK_NEAR(km_accuracy(truth, pred, 5), 0.6, 1e-15);
    /* recall of class 1: 2/3, of class -1: 1/2; mean 7/12 */
    CHECK_NEAR(km_balanced_accuracy(truth, pred, 5), 7.0 / 12.0, 1e-15);
    /* tp 2, fn 1, fp 1, tn 1: (2*1 - 1*1) / sqrt(3*3*2*2) = 1/6 */
    CHECK_NEAR(km_mcc(truth, pred, 5), 1.0 / 6.0, 1e-15);
    /* one predicted class: a zero factor in the denominator, MCC defined as 0 */
    const double constant[] = {1, 1, 1, 1, 1};
    CHECK(km_mcc(truth, constant, 5) == 0.0);
    CHECK(km_mcc(truth, truth, 5) == 1.0);

    /* scikit-learn's roc_auc_score example: of the 4 (positive, negative) pairs 3 are ordered */
    double auc = 0, ap = 0;
    const double y4[] = {0, 0, 1, 1}, s4[] = {0.1, 0.4, 0.35, 0.8};
    CHECK_OK(km_auc(y4, s4, 4, &auc));
    CHECK_NEAR(auc, 0.75, 1e-15);
    /* thresholds 0.8: P 1 R 1/2; 0.4: P 1/2, R 1/2; 0.35: P 2/3, R 1 -> 1/2 + 0 + 1/2 * 2/3 = 5/6
     * (scikit-learn's average_precision_score example gives 0.83333333) */
    CHECK_OK(km_average_precision(y4, s4, 4, &ap));
    CHECK_NEAR(ap, 5.0 / 6.0, 1e-15);

    /* ties: positives 0.5, 0.9; negatives 0.5, 0.2: pairs score 1/2, 1, 1, 1 -> 3.5/4 */
    const double yt[] = {-1, 1, -1, 1}, st[] = {0.5, 0.5, 0.2, 0.9};
    CHECK_OK(km_auc(yt, st, 4, &auc));
    CHECK_NEAR(auc, 0.875, 1e-15);
    /* thresholds 0.9: P 1, R 1/2; 0.5 (both rows at once): P 2/3, R 1; 0.2: R unchanged -> 5/6 */
    CHECK_OK(km_average_precision(yt, st, 4, &ap));
    CHECK_NEAR(ap, 5.0 / 6.0, 1e-15);

    /* (0 + 1 + 4) / 3 */
    const double y3[] = {1, 2, 3}, p3[] = {2, 4, 7};
    const double q3[] = {1, 3, 5};
    CHECK_NEAR(km_mse(y3, q3, 3), 5.0 / 3.0, 1e-15);
    /* LIBSVM's formula: Σv 13, Σy 6, Σv² 69, Σy² 14, Σvy 31:
     * (3*31 - 13*6)² / ((3*69 - 13²)(3*14 - 6²)) = 225 / (38 * 6) = 225/228 */
    double r2 = -1;
    CHECK_OK(km_squared_correlation(y3, p3, 3, &r2));
    CHECK_NEAR(r2, 225.0 / 228.0, 1e-15);
}

static void test_undefined_cases(void)
{
    const double one_class[] = {1, 1, 1}, scores[] = {0.1, 0.2, 0.3}, three[] = {0, 1, 2};
    double value = -1;
    CHECK_STATUS(km_auc(one_class, scores, 3, &value), KM_EINVAL);
    CHECK(strstr(km_last_error(), "only one class") != NULL);
    CHECK_STATUS(km_average_precision(one_class, scores, 3, &value), KM_EINVAL);
    CHECK_STATUS(km_auc(three, scores, 3, &value), KM_EINVAL);
    CHECK(strstr(km_last_error(), "more than two classes") != NULL);
    const double nan_scores[] = {0.1, NAN, 0.3}, binary[] = {0, 1, 0};
    CHECK_STATUS(km_auc(binary, nan_scores, 3, &value), KM_EINVAL);
    CHECK_STATUS(km_auc(binary, scores, 0, &value), KM_EINVAL);
    CHECK(value == -1);
    CHECK(isnan(km_accuracy(binary, binary, 0)));
    CHECK(isnan(km_mse(binary, binary, 0)));
    CHECK(isnan(km_balanced_accuracy(binary, binary, 0)));
    CHECK(km_mcc(binary, binary, 0) == 0.0);
    /* constant predictions or targets: no variance, LIBSVM's 0/0, an error rather than NaN */
    value = -1;
    CHECK_STATUS(km_squared_correlation(scores, one_class, 3, &value), KM_EINVAL);
    CHECK(strstr(km_last_error(), "constant predictions") != NULL);
    CHECK_STATUS(km_squared_correlation(one_class, scores, 3, &value), KM_EINVAL);
    CHECK(strstr(km_last_error(), "a constant target") != NULL);
    CHECK_STATUS(km_squared_correlation(scores, scores, 0, &value), KM_EINVAL);
    const double huge[] = {-1e300, 0, 1e300};
    CHECK_STATUS(km_squared_correlation(huge, huge, 3, &value), KM_EINVAL);
    CHECK(value == -1);
}

/* Deterministic generator (64-bit LCG, Knuth's MMIX constants), uniform in [0, 1). */
static double uniform(uint64_t *state)
{
    *state = *state * 6364136223846793005u + 1442695040888963407u;
    return (double)(*state >> 11) / 9007199254740992.0;
}

static const char script[] =
    "import sys, numpy as np\n"
    "from sklearn import metrics\n"
    "d = np.loadtxt(sys.argv[1])\n"
    "t, p, s, t3, p3, y, yp = d.T\n"
    "print(repr(metrics.accuracy_score(t, p)))\n"
    "print(repr(metrics.balanced_accuracy_score(t3, p3)))\n"
    "print(repr(metrics.matthews_corrcoef(t, p)))\n"
    "print(repr(metrics.roc_auc_score(t, s)))\n"
    "print(repr(metrics.average_precision_score(t, s)))\n"
    "print(repr(metrics.mean_squared_error(y, yp)))\n"
    "print(repr(np.corrcoef(y, yp)[0, 1] ** 2))\n";

static void test_sklearn_parity(void)
{
    static double t[N], p[N], s[N], t3[N], p3[N], y[N], yp[N];
    uint64_t state = 2024;
    FILE *f = fopen(DATA_FILE, "w");
    CHECK(f != NULL);
    if (!f)
        return;
    for (size_t i = 0; i < N; i++) {
        t[i] = uniform(&state) < 0.4 ? 1 : -1;
        /* scores on a 0.05 grid: many ties, between and within classes */
        s[i] = (double)(int)((0.3 * t[i] + uniform(&state)) * 20) / 20;
        p[i] = s[i] > 0.45 ? 1 : -1;
        t3[i] = (double)(int)(3 * uniform(&state));
        p3[i] = uniform(&state) < 0.6 ? t3[i] : (double)(int)(3 * uniform(&state));
        y[i] = 10 * uniform(&state) - 5;
        yp[i] = 0.8 * y[i] + 2 * uniform(&state);
        fprintf(f, "%.17g %.17g %.17g %.17g %.17g %.17g %.17g\n", t[i], p[i], s[i], t3[i], p3[i], y[i], yp[i]);
    }
    fclose(f);
    f = fopen(SCRIPT_FILE, "w");
    CHECK(f != NULL);
    if (!f)
        return;
    fputs(script, f);
    fclose(f);
    /* the first python3 on PATH with scikit-learn, else Debian's */
    FILE *out = popen("for py in python3 /usr/bin/python3; do if \"$py\" -c 'import sklearn' 2>/dev/null; then "
                      "exec \"$py\" " SCRIPT_FILE " " DATA_FILE "; fi; done; echo 'no python3 with scikit-learn' >&2",
                      "r");
    CHECK(out != NULL);
    if (!out)
        return;
    double expected[7];
    int got = 0;
    while (got < 7 && fscanf(out, "%lf", &expected[got]) == 1)
        got++;
    CHECK(pclose(out) == 0);
    CHECK(got == 7);
    remove(DATA_FILE);
    remove(SCRIPT_FILE);
    if (got != 7)
        return;
    double auc = 0, ap = 0;
    CHECK_NEAR(km_accuracy(t, p, N), expected[0], 1e-14);
    CHECK_NEAR(km_balanced_accuracy(t3, p3, N), expected[1], 1e-14);
    CHECK_NEAR(km_mcc(t, p, N), expected[2], 1e-14);
    CHECK_OK(km_auc(t, s, N, &auc));
    CHECK_NEAR(auc, expected[3], 1e-14);
    CHECK_OK(km_average_precision(t, s, N, &ap));
    CHECK_NEAR(ap, expected[4], 1e-14);
    CHECK_NEAR(km_mse(y, yp, N), expected[5], 1e-14);
    double r2 = -1;
    CHECK_OK(km_squared_correlation(y, yp, N, &r2));
    CHECK_NEAR(r2, expected[6], 1e-12);
    /* the data are not degenerate: the metrics are informative, not at their bounds */
    CHECK(auc > 0.6 && auc < 0.95 && ap > 0.5 && ap < 0.95);
}

KM_TEST_CASE(hand_examples) { test_hand_examples(); }
KM_TEST_CASE(undefined_cases) { test_undefined_cases(); }
KM_TEST_CASE(sklearn_parity) { test_sklearn_parity(); }
