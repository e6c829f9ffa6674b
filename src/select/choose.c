/* Choosing the best setting (choose.h): the best mean, ties to the simpler model. */
#include "select/choose.h"

#include <math.h>

#include "select/grid.h"

static double param(const km_grid *grid, size_t s, km_param id)
{
    double value = 0.0;
    km_params_get_double(grid->settings[s].params, id, &value);
    return value;
}

static int tied(double a, double b)
{
    return fabs(a - b) <= 1e-12 * fmax(fabs(a), fabs(b));
}

/* Whether setting a is preferred to setting b (b earlier). */
static int preferred(const km_grid *grid, const double *means, int higher_is_better, size_t a, size_t b)
{
    if (!tied(means[a], means[b]))
        return higher_is_better ? means[a] > means[b] : means[a] < means[b];
    double c_a = param(grid, a, KM_PARAM_C), c_b = param(grid, b, KM_PARAM_C);
    if (c_a != c_b)
        return c_a < c_b;
    return param(grid, a, KM_PARAM_P) > param(grid, b, KM_PARAM_P);
}

size_t km_cv_choose(const km_grid *grid, const double *means, const unsigned char *considered, int higher_is_better)
{
    size_t best = grid->n;
    for (size_t s = 0; s < grid->n; s++)
        if ((!considered || considered[s]) &&
            (best == grid->n || preferred(grid, means, higher_is_better, s, best)))
            best = s;
    return best;
}
