/* Cross-validated probability models of one machine (train/probability.h). */
#include "train/probability.h"

#include <math.h>
#include <stdlib.h>

#include "core/error.h"
#include "svm/platt.h"

km_status km_probability_check(const km_params *params)
{
    if (!params->probability)
        return KM_OK;
    if (params->task == KM_TASK_ONECLASS)
        return km_error(KM_EINVAL, "one-class SVM has no probability outputs (nor has LIBSVM 3.24's): train it "
                        "without -b 1 and use its decision values");
    if (km_task_classifies(params->task) && params->multiclass != KM_MULTICLASS_OVO)
        return km_error(KM_EINVAL, "probability outputs couple the one-vs-one machines (pairwise coupling): train "
                        "with --multiclass ovo for -b 1");
    return KM_OK;
}

/* LIBSVM's fold order: a Fisher-Yates shuffle drawing j = i + rand() mod (n - i). */
static void shuffle(km_libc_rand *rand, size_t *order, size_t n)
{
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    for (size_t i = 0; i < n; i++) {
        size_t j = i + (size_t)km_libc_rand_next(rand) % (n - i), swap = order[i];
        order[i] = order[j];
        order[j] = swap;
    }
}

/* The decision value of a fold without training rows (0), or whose training rows hold one class only:
 * that class's side. */
static int constant_fold(const km_probability_cv *cv, const size_t *train, size_t n_train, double *constant)
{
    *constant = 0.0;
    if (n_train == 0)
        return 1;
    if (!cv->positive)
        return 0;
    size_t n_positive = 0;
    for (size_t k = 0; k < n_train; k++)
        n_positive += cv->positive[train[k]] != 0;
    if (n_positive > 0 && n_positive < n_train)
        return 0;
    *constant = n_positive ? 1.0 : -1.0;
    return 1;
}

/* decision[i]: the value at row i of the machine trained on the folds without row i. */
static km_status cross_validated_decisions(const km_probability_cv *cv, double *decision)
{
    size_t n = cv->n;
    size_t *order = malloc(n * sizeof *order), *train = malloc(n * sizeof *train);
    double *fold_decision = malloc(n * sizeof *fold_decision);
    km_status st = order && train && fold_decision ? KM_OK : km_error_nomem("probability cross-validation");
    if (!st)
        shuffle(cv->rand, order, n);
    for (size_t f = 0; !st && f < KM_PROBABILITY_FOLDS; f++) {
        size_t begin = f * n / KM_PROBABILITY_FOLDS, end = (f + 1) * n / KM_PROBABILITY_FOLDS, n_train = 0;
        for (size_t k = 0; k < n; k++)
            if (k < begin || k >= end)
                train[n_train++] = order[k];
        double constant;
        if (constant_fold(cv, train, n_train, &constant)) {
            for (size_t k = begin; k < end; k++)
                fold_decision[k - begin] = constant;
        } else if (end > begin) {
            st = cv->decisions(cv->decisions_ctx, train, n_train, order + begin, end - begin, fold_decision);
        }
        for (size_t k = begin; !st && k < end; k++)
            decision[order[k]] = fold_decision[k - begin];
    }
    free(order);
    free(train);
    free(fold_decision);
    return st;
}

km_status km_probability_fit_sigmoid(const km_probability_cv *cv, double *A, double *B)
{
    double *decision = malloc((cv->n ? cv->n : 1) * sizeof *decision);
    if (!decision)
        return km_error_nomem("probability cross-validation");
    km_status st = cross_validated_decisions(cv, decision);
    if (!st) {
        km_sigmoid_outcome outcome = km_sigmoid_fit(cv->n, decision, cv->positive, A, B);
        if (outcome != KM_SIGMOID_CONVERGED)
            km_log(&cv->logger, KM_LOG_WARNING, "probability sigmoid: %s (A = %g, B = %g kept)",
                   outcome == KM_SIGMOID_LINE_SEARCH_FAILED ? "the line search found no decrease"
                                                            : "reached 100 Newton iterations",
                   *A, *B);
    }
    free(decision);
    return st;
}

km_status km_probability_fit_laplace(const km_probability_cv *cv, double *sigma)
{
    size_t n = cv->n;
    double *residual = malloc((n ? n : 1) * sizeof *residual);
    if (!residual)
        return km_error_nomem("probability cross-validation");
    km_status st = cross_validated_decisions(cv, residual);
    double mean_abs = 0.0;
    for (size_t i = 0; !st && i < n; i++) {
        residual[i] = cv->targets[i] - residual[i];
        mean_abs += fabs(residual[i]);
    }
    if (!st) {
        /* the Laplace fitted to all residuals has standard deviation sqrt(2) mean |z|; residuals beyond
         * 5 of them are outliers, left out of the final mean */
        mean_abs /= (double)n;
        double bound = 5.0 * sqrt(2.0 * mean_abs * mean_abs), kept_sum = 0.0;
        size_t kept = 0;
        for (size_t i = 0; i < n; i++) {
            if (fabs(residual[i]) > bound)
                continue;
            kept_sum += fabs(residual[i]);
            kept++;
        }
        *sigma = kept ? kept_sum / (double)kept : mean_abs;
    }
    free(residual);
    return st;
}
