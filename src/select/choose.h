/* The choice of a setting among scored ones (kernelmix.h, km_cv_best). */
#ifndef KM_SELECT_CHOOSE_H
#define KM_SELECT_CHOOSE_H

#include "kernelmix.h"

/* The best of the settings s with considered[s] (NULL: all) by means[s]: the highest (higher_is_better)
 * or lowest mean; means equal to 1e-12 relative are ties, broken towards the simpler model: the
 * smaller C, then the larger p, then the earlier setting. n when none is considered. */
size_t km_cv_choose(const km_grid *grid, const double *means, const unsigned char *considered, int higher_is_better);

#endif
