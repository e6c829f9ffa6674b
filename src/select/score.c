/* The scores a cross-validation split is judged by (km_score): the metrics of src/eval's kind, by id,
 * R^2 = 1 - sum (y - f)^2 / sum (y - mean y)^2, the coefficient of determination (scikit-learn's
 * r2_score; not LIBSVM's squared correlation), and the log loss -mean log p(y | x). */
#include <math.h>

#include "core/error.h"
#include "kernelmix.h"

int km_score_higher_is_better(km_score score)
{
    return score != KM_SCORE_MSE && score != KM_SCORE_LOG_LOSS;
}

/* -mean log p of the probabilities given the true classes, each clipped to [1e-15, 1]. */
static double log_loss(const double *p_true, size_t n)
{
    double sum = 0.0;
    for (size_t i = 0; i < n; i++)
        sum -= log(fmin(fmax(p_true[i], 1e-15), 1.0));
    return sum / (double)n;
}

static km_status r_squared(const double *truth, const double *predicted, size_t n, double *value)
{
    double mean = 0.0, residual = 0.0, total = 0.0;
    for (size_t i = 0; i < n; i++)
        mean += truth[i] / (double)n;
    for (size_t i = 0; i < n; i++) {
        residual += (truth[i] - predicted[i]) * (truth[i] - predicted[i]);
        total += (truth[i] - mean) * (truth[i] - mean);
    }
    if (!(total > 0.0))
        return km_error(KM_EINVAL, "r2: undefined for a constant target (%zu rows)", n);
    *value = 1.0 - residual / total;
    return KM_OK;
}

km_status km_score_of(km_score score, const double *truth, const double *predicted, const double *decision,
                      size_t n, double *value)
{
    if (n == 0)
        return km_error(KM_EINVAL, "score of no rows");
    km_status st = KM_OK;
    switch (score) {
    case KM_SCORE_ACCURACY: *value = km_accuracy(truth, predicted, n); break;
    case KM_SCORE_BALANCED_ACCURACY: *value = km_balanced_accuracy(truth, predicted, n); break;
    case KM_SCORE_MCC: *value = km_mcc(truth, predicted, n); break;
    case KM_SCORE_MSE: *value = km_mse(truth, predicted, n); break;
    case KM_SCORE_R2: st = r_squared(truth, predicted, n, value); break;
    case KM_SCORE_LOG_LOSS:
        if (!decision)
            return km_error(KM_EINVAL, "log-loss scores a probability model (train with -b 1)");
        *value = log_loss(decision, n);
        break;
    case KM_SCORE_AUC:
    case KM_SCORE_AVERAGE_PRECISION:
        if (!decision)
            return km_error(KM_EINVAL, "%s ranks the decision values of a binary classifier, which this model "
                            "does not give", score == KM_SCORE_AUC ? "auc" : "average-precision");
        st = score == KM_SCORE_AUC ? km_auc(truth, decision, n, value) : km_average_precision(truth, decision, n, value);
        break;
    default: return km_error(KM_EINVAL, "%d is not a score", (int)score);
    }
    if (!st && !isfinite(*value))
        return km_error(KM_EINVAL, "%s: not a finite number over %zu rows", km_enum_name(KM_ENUM_SCORE, score), n);
    return st;
}
