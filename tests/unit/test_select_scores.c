/* The scores of km_score_of against scikit-learn's metrics on the same predictions (computed by
 * /usr/bin/python3, independently of this library), and R^2 and the log loss by hand. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "kernelmix.h"

enum { N = 40 };

static double truth[N], labels[N], decision[N], target[N], output[N], positive[N], p_true[N];

/* Imperfect predictions with tied decision values. */
static void make_predictions(void)
{
    for (int i = 0; i < N; i++) {
        truth[i] = (i * 7) % 5 < 2 ? 1 : -1;
        decision[i] = round(4 * (0.8 * truth[i] + sin(2.1 * i))) / 4;
        labels[i] = decision[i] > 0 ? 1 : -1;
        target[i] = 0.5 * i + sin(i);
        output[i] = 0.5 * i + 0.7 * cos(3.0 * i);
        positive[i] = 1 / (1 + exp(-2 * decision[i]));   /* the probability of class 1 */
        p_true[i] = truth[i] > 0 ? positive[i] : 1 - positive[i];
    }
}

/* scikit-learn's value of metric (an expression of t, p, d, y, f) on the arrays. */
static double sklearn(const char *expression)
{
    char script[16384];
    int used = snprintf(script, sizeof script, "/usr/bin/python3 -c 'import sklearn.metrics as m\nt=[");
    for (int i = 0; i < N; i++)
        used += snprintf(script + used, sizeof script - (size_t)used, "%s%.17g", i ? "," : "", truth[i]);
    const double *arrays[] = {labels, decision, target, output, positive};
    const char *names[] = {"p", "d", "y", "f", "q"};
    for (int a = 0; a < 5; a++) {
        used += snprintf(script + used, sizeof script - (size_t)used, "]\n%s=[", names[a]);
        for (int i = 0; i < N; i++)
            used += snprintf(script + used, sizeof script - (size_t)used, "%s%.17g", i ? "," : "", arrays[a][i]);
    }
    snprintf(script + used, sizeof script - (size_t)used, "]\nprint(repr(float(%s)))' 2>/dev/null", expression);
    FILE *pipe = popen(script, "r");
    double value = NAN;
    if (!pipe || fscanf(pipe, "%lf", &value) != 1)
        value = NAN;
    if (pipe)
        pclose(pipe);
    return value;
}

static void check_score(km_score score, const double *t, const double *p, const double *d, const char *expression)
{
    double value = NAN, expected = sklearn(expression);
    if (isnan(expected))
        KM_TEST_SKIP("/usr/bin/python3 with scikit-learn is not available");
    CHECK_OK(km_score_of(score, t, p, d, N, &value));
    CHECK_NEAR(value, expected, 1e-12);
}

KM_TEST_CASE(classification_scores_match_scikit_learn)
{
    make_predictions();
    check_score(KM_SCORE_ACCURACY, truth, labels, NULL, "m.accuracy_score(t, p)");
    check_score(KM_SCORE_BALANCED_ACCURACY, truth, labels, NULL, "m.balanced_accuracy_score(t, p)");
    check_score(KM_SCORE_MCC, truth, labels, NULL, "m.matthews_corrcoef(t, p)");
    check_score(KM_SCORE_AUC, truth, labels, decision, "m.roc_auc_score(t, d)");
    check_score(KM_SCORE_AVERAGE_PRECISION, truth, labels, decision, "m.average_precision_score(t, d)");
    check_score(KM_SCORE_LOG_LOSS, truth, labels, p_true, "m.log_loss(t, [[1 - x, x] for x in q])");
}

KM_TEST_CASE(regression_scores_match_scikit_learn)
{
    make_predictions();
    check_score(KM_SCORE_MSE, target, output, NULL, "m.mean_squared_error(y, f)");
    check_score(KM_SCORE_R2, target, output, NULL, "m.r2_score(y, f)");
}

KM_TEST_CASE(r2_by_hand_and_undefined_scores)
{
    const double y[] = {1, 2, 3, 4}, f[] = {1, 2, 3, 5}, constant[] = {2, 2, 2, 2};
    double value = 0;
    CHECK_OK(km_score_of(KM_SCORE_R2, y, f, NULL, 4, &value));   /* 1 - 1 / 5 */
    CHECK(fabs(value - 0.8) < 1e-15);
    CHECK_STATUS(km_score_of(KM_SCORE_R2, constant, f, NULL, 4, &value), KM_EINVAL);
    CHECK(strstr(km_last_error(), "constant target"));
    CHECK_STATUS(km_score_of(KM_SCORE_AUC, y, f, NULL, 4, &value), KM_EINVAL);
    CHECK(strstr(km_last_error(), "decision values"));
    CHECK_STATUS(km_score_of(KM_SCORE_AUC, constant, f, f, 4, &value), KM_EINVAL);   /* one class */
    CHECK_STATUS(km_score_of(KM_SCORE_ACCURACY, y, f, NULL, 0, &value), KM_EINVAL);
    CHECK_STATUS(km_score_of((km_score)0, y, f, NULL, 4, &value), KM_EINVAL);
    CHECK(km_score_higher_is_better(KM_SCORE_R2) && !km_score_higher_is_better(KM_SCORE_MSE));
    /* -(log 0.5 + log 1 + log 1e-15) / 3: a zero probability clipped to 1e-15 */
    const double p[] = {0.5, 1, 0, 0.25};
    CHECK_OK(km_score_of(KM_SCORE_LOG_LOSS, y, y, p, 3, &value));
    CHECK(fabs(value - (log(2) + 15 * log(10)) / 3) < 1e-12);
    CHECK_STATUS(km_score_of(KM_SCORE_LOG_LOSS, y, y, NULL, 3, &value), KM_EINVAL);
    CHECK(!km_score_higher_is_better(KM_SCORE_LOG_LOSS));
    int score = 0;
    CHECK_OK(km_enum_value(KM_ENUM_SCORE, "balanced-accuracy", &score));
    CHECK(score == KM_SCORE_BALANCED_ACCURACY && !strcmp(km_enum_name(KM_ENUM_SCORE, KM_SCORE_AUC), "auc"));
}
