/* Probability models fitted by internal cross-validation, as LIBSVM's -b 1 fits them: for a binary
 * classifier the sigmoid of Platt scaling (svm/platt.h) on 5-fold cross-validated decision values,
 * for regression the width of Laplace noise on the 5-fold cross-validated residuals (Lin & Weng,
 * "Simple probabilistic predictions for support vector regression", 2004). The folds are LIBSVM's:
 * the machine's rows (classification: the positive class's rows, then the negative class's, each in
 * training order) shuffled by Fisher-Yates with j = i + rand() mod (n - i), then cut into 5 runs
 * [f n/5, (f+1) n/5). Every fold trains the machine with its kernel weights fixed, through a callback
 * of the training driver, so learned kernel combinations cost 5 fixed-kernel solves per machine. */
#ifndef KM_TRAIN_PROBABILITY_H
#define KM_TRAIN_PROBABILITY_H

#include <stddef.h>

#include "core/libc_rand.h"
#include "core/log.h"
#include "core/params.h"
#include "kernelmix.h"

#define KM_PROBABILITY_FOLDS 5

/* Trains the machine on train[0..n_train) and writes its decision values at held[0..n_held) (both
 * indices into the machine's rows of km_probability_cv) into decision. */
typedef km_status (*km_fold_decisions_fn)(void *ctx, const size_t *train, size_t n_train, const size_t *held,
                                          size_t n_held, double *decision);

typedef struct km_probability_cv {
    size_t n;                    /* the machine's rows, in the order the folds are drawn from */
    const unsigned char *positive; /* classification: 1 for the positive class's rows; NULL: regression */
    const double *targets;       /* regression: the targets (n values) */
    km_fold_decisions_fn decisions;
    void *decisions_ctx;
    km_libc_rand *rand;          /* the shuffle's numbers; machines share one sequence, in machine order */
    km_logger logger;
} km_probability_cv;

/* KM_EINVAL when params ask for probability models of a task or multiclass scheme without them
 * (one-class, as in LIBSVM 3.24; one-vs-rest, which pairwise coupling does not apply to). */
km_status km_probability_check(const km_params *params);

/* The sigmoid A, B of a binary machine (P(positive | f) = 1/(1 + exp(A f + B))). A fold whose
 * training rows are of one class gives its held rows the decision value +1 or -1 of that class, as
 * LIBSVM. */
km_status km_probability_fit_sigmoid(const km_probability_cv *cv, double *A, double *B);

/* The Laplace width sigma of regression residuals z = y - f(x) (density e^{-|z|/sigma}/(2 sigma)):
 * the mean |z| over the residuals within 5 standard deviations of the Laplace fitted to all of them
 * (std = sqrt(2) mean |z|). */
km_status km_probability_fit_laplace(const km_probability_cv *cv, double *sigma);

#endif
