/* Evaluation metrics for classification scores and regression outputs (kernelmix.h). Metrics of an
 * empty sample are NaN, except MCC which is 0 whenever it is undefined. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/double_order.h"
#include "core/error.h"
#include "kernelmix.h"

double km_accuracy(const double *truth, const double *predicted, size_t n)
{
    if (n == 0)
        return NAN;
    size_t correct = 0;
    for (size_t i = 0; i < n; i++)
        correct += truth[i] == predicted[i];
    return (double)correct / (double)n;
}

/* Mean over the classes present in truth of (correct predictions of the class) / (its rows). */
double km_balanced_accuracy(const double *truth, const double *predicted, size_t n)
{
    if (n == 0)
        return NAN;
    double *classes = malloc(n * sizeof *classes);
    size_t *rows = calloc(n, sizeof *rows), *correct = calloc(n, sizeof *correct);
    double result = NAN; /* also the answer when out of memory: this function cannot report status */
    if (classes && rows && correct) {
        memcpy(classes, truth, n * sizeof *classes);
        qsort(classes, n, sizeof *classes, km_double_ascending);
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
            if (i == 0 || classes[i] != classes[k - 1])
                classes[k++] = classes[i];
        for (size_t i = 0; i < n; i++) {
            const double *c = bsearch(&truth[i], classes, k, sizeof *classes, km_double_ascending);
            size_t index = (size_t)(c - classes);
            rows[index]++;
            correct[index] += truth[i] == predicted[i];
        }
        double sum = 0.0;
        for (size_t c = 0; c < k; c++)
            sum += (double)correct[c] / (double)rows[c];
        result = sum / (double)k;
    }
    free(classes);
    free(rows);
    free(correct);
    return result;
}

/* MCC = (tp tn - fp fn) / sqrt((tp+fp)(tp+fn)(tn+fp)(tn+fn)), positive = largest label of either array. */
double km_mcc(const double *truth, const double *predicted, size_t n)
{
    if (n == 0)
        return 0.0;
    double positive = truth[0];
    for (size_t i = 0; i < n; i++)
        positive = fmax(positive, fmax(truth[i], predicted[i]));
    double tp = 0, tn = 0, fp = 0, fn = 0;
    for (size_t i = 0; i < n; i++) {
        int t = truth[i] == positive, p = predicted[i] == positive;
        tp += t && p;
        tn += !t && !p;
        fp += !t && p;
        fn += t && !p;
    }
    double denominator = (tp + fp) * (tp + fn) * (tn + fp) * (tn + fn);
    return denominator > 0.0 ? (tp * tn - fp * fn) / sqrt(denominator) : 0.0;
}

/* Checks truth holds exactly two classes and the scores are numbers; *positive = the larger class. */
static km_status check_binary(const char *metric, const double *truth, const double *score, size_t n,
                              double *positive, size_t *n_positive)
{
    if (n == 0 || !truth || !score)
        return km_error(KM_EINVAL, "%s: no rows", metric);
    double low = truth[0], high = truth[0];
    for (size_t i = 0; i < n; i++) {
        if (isnan(score[i]) || isnan(truth[i]))
            return km_error(KM_EINVAL, "%s: row %zu has a NaN label or score", metric, i);
        low = fmin(low, truth[i]);
        high = fmax(high, truth[i]);
    }
    if (low == high)
        return km_error(KM_EINVAL, "%s: only one class (%g) in the labels", metric, low);
    size_t count = 0;
    for (size_t i = 0; i < n; i++) {
        if (truth[i] != low && truth[i] != high)
            return km_error(KM_EINVAL, "%s: more than two classes in the labels (%g, %g, %g)", metric, low,
                            truth[i], high);
        count += truth[i] == high;
    }
    *positive = high;
    *n_positive = count;
    return KM_OK;
}

typedef struct scored_row {
    double score;
    int positive;
} scored_row;

static int by_score_descending(const void *a, const void *b)
{
    double x = ((const scored_row *)a)->score, y = ((const scored_row *)b)->score;
    return (x < y) - (x > y);
}

/* Binary truth checked, and the rows sorted by decreasing score, each marked positive or not. */
static km_status sorted_rows(const char *metric, const double *truth, const double *score, size_t n,
                             size_t *n_positive, scored_row **out)
{
    double positive = NAN;
    km_status st = check_binary(metric, truth, score, n, &positive, n_positive);
    if (st)
        return st;
    scored_row *rows = malloc(n * sizeof *rows);
    if (!rows)
        return km_error(KM_ENOMEM, "%s: out of memory for %zu scores", metric, n);
    for (size_t i = 0; i < n; i++) {
        rows[i].score = score[i];
        rows[i].positive = truth[i] == positive;
    }
    qsort(rows, n, sizeof *rows, by_score_descending);
    *out = rows;
    return KM_OK;
}

/* The end of the group of rows tied with rows[begin] in score, and its positives. */
static size_t tie_group(const scored_row *rows, size_t n, size_t begin, size_t *positives)
{
    size_t end = begin;
    *positives = 0;
    for (; end < n && rows[end].score == rows[begin].score; end++)
        *positives += (size_t)rows[end].positive;
    return end;
}

/* Mann-Whitney U: AUC = (sum of the positives' ranks - P(P+1)/2) / (P N), ranks ascending in score,
 * tied scores sharing their mid-rank (a positive tied with a negative counts 1/2). */
km_status km_auc(const double *truth, const double *score, size_t n, double *auc)
{
    size_t n_pos, group_pos;
    scored_row *rows;
    km_status st = sorted_rows("km_auc", truth, score, n, &n_pos, &rows);
    if (st)
        return st;
    double rank_sum = 0.0;
    for (size_t begin = 0, end; begin < n; begin = end) {
        end = tie_group(rows, n, begin, &group_pos);
        /* descending positions begin..end-1 are ascending ranks n-end+1 .. n-begin */
        double mid_rank = (double)(n - end + 1 + n - begin) / 2.0;
        rank_sum += (double)group_pos * mid_rank;
    }
    free(rows);
    double P = (double)n_pos, N = (double)(n - n_pos);
    *auc = (rank_sum - P * (P + 1.0) / 2.0) / (P * N);
    return KM_OK;
}

/* scikit-learn's average precision: AP = sum_k (R_k - R_{k-1}) P_k over the distinct score
 * thresholds in decreasing order, P_k and R_k the precision and recall of "score >= threshold_k". */
km_status km_average_precision(const double *truth, const double *score, size_t n, double *ap)
{
    size_t n_pos, group_pos, tp = 0;
    scored_row *rows;
    km_status st = sorted_rows("km_average_precision", truth, score, n, &n_pos, &rows);
    if (st)
        return st;
    double sum = 0.0, previous_recall = 0.0;
    for (size_t begin = 0, end; begin < n; begin = end) {
        end = tie_group(rows, n, begin, &group_pos);
        tp += group_pos;
        double recall = (double)tp / (double)n_pos, precision = (double)tp / (double)end;
        sum += (recall - previous_recall) * precision;
        previous_recall = recall;
    }
    free(rows);
    *ap = sum;
    return KM_OK;
}

double km_mse(const double *truth, const double *predicted, size_t n)
{
    if (n == 0)
        return NAN;
    double sum = 0.0;
    for (size_t i = 0; i < n; i++)
        sum += (truth[i] - predicted[i]) * (truth[i] - predicted[i]);
    return sum / (double)n;
}

/* LIBSVM (svm-predict, svm.cpp cross validation):
 *   r^2 = (n Σvy - Σv Σy)^2 / ((n Σv^2 - (Σv)^2)(n Σy^2 - (Σy)^2)),
 * NaN when either side has no variance (as LIBSVM's division by zero). */
km_status km_squared_correlation(const double *truth, const double *predicted, size_t n, double *r2)
{
    double sv = 0, sy = 0, svv = 0, syy = 0, svy = 0;
    for (size_t i = 0; i < n; i++) {
        double v = predicted[i], y = truth[i];
        sv += v;
        sy += y;
        svv += v * v;
        syy += y * y;
        svy += v * y;
    }
    /* LIBSVM's formula; 0/0 when the targets or the predictions have no variance */
    double N = (double)n, cov = N * svy - sv * sy, var_v = N * svv - sv * sv, var_y = N * syy - sy * sy;
    if (!(var_y > 0.0))
        return km_error(KM_EINVAL, "km_squared_correlation: undefined for %s", n ? "a constant target" : "no rows");
    if (!(var_v > 0.0))
        return km_error(KM_EINVAL, "km_squared_correlation: undefined for constant predictions");
    double value = cov * cov / (var_v * var_y);
    if (!isfinite(value))
        return km_error(KM_EINVAL, "km_squared_correlation: the sums of squares overflow");
    *r2 = value;
    return KM_OK;
}
