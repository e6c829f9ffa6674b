/* The results of km_cv_run (kernelmix.h, km_cv_results accessors). */
#ifndef KM_SELECT_CV_RESULTS_H
#define KM_SELECT_CV_RESULTS_H

#include "kernelmix.h"

typedef struct km_cv_setting_result {
    double *scores;              /* one per split */
    double mean, std, fit_seconds, mean_sv;
    double *weights;             /* mean first-machine kernel weights */
    size_t n_kernels;
} km_cv_setting_result;

struct km_cv_results {
    km_score score;
    size_t n_settings, n_splits, best;
    km_cv_setting_result *settings;
    size_t n_outer;              /* nested: the outer splits (0: not nested) */
    double *outer_scores;
    size_t *outer_choices;
};

#endif
