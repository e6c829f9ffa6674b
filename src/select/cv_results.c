/* The accessors of km_cv_results (cv_results.h). */
#include "select/cv_results.h"

#include <math.h>
#include <stdlib.h>

void km_cv_results_free(km_cv_results *r)
{
    if (!r)
        return;
    for (size_t s = 0; r->settings && s < r->n_settings; s++) {
        free(r->settings[s].scores);
        free(r->settings[s].weights);
    }
    free(r->settings);
    free(r->outer_scores);
    free(r->outer_choices);
    free(r);
}

static const km_cv_setting_result *row(const km_cv_results *r, size_t s)
{
    return r && s < r->n_settings ? &r->settings[s] : NULL;
}

km_score km_cv_score(const km_cv_results *r) { return r ? r->score : (km_score)0; }
size_t km_cv_n_splits(const km_cv_results *r) { return r ? r->n_splits : 0; }
const double *km_cv_scores(const km_cv_results *r, size_t s) { return row(r, s) ? row(r, s)->scores : NULL; }
double km_cv_mean(const km_cv_results *r, size_t s) { return row(r, s) ? row(r, s)->mean : NAN; }
double km_cv_std(const km_cv_results *r, size_t s) { return row(r, s) ? row(r, s)->std : NAN; }
double km_cv_fit_seconds(const km_cv_results *r, size_t s) { return row(r, s) ? row(r, s)->fit_seconds : NAN; }
double km_cv_mean_sv(const km_cv_results *r, size_t s) { return row(r, s) ? row(r, s)->mean_sv : NAN; }
size_t km_cv_best(const km_cv_results *r) { return r ? r->best : 0; }
size_t km_cv_n_outer(const km_cv_results *r) { return r ? r->n_outer : 0; }
const double *km_cv_outer_scores(const km_cv_results *r) { return r ? r->outer_scores : NULL; }
const size_t *km_cv_outer_choices(const km_cv_results *r) { return r ? r->outer_choices : NULL; }

const double *km_cv_mean_weights(const km_cv_results *r, size_t s, size_t *n_kernels)
{
    const km_cv_setting_result *x = row(r, s);
    if (n_kernels)
        *n_kernels = x ? x->n_kernels : 0;
    return x ? x->weights : NULL;
}
