/* km_grid: the settings of a model selection, each a training's parameters, kernel set and options
 * text. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "select/grid.h"

km_status km_grid_new(km_grid **out)
{
    if (!out)
        return km_error(KM_EINVAL, "km_grid_new: NULL output");
    *out = calloc(1, sizeof **out);
    return *out ? KM_OK : km_error_nomem("a grid");
}

void km_grid_free(km_grid *grid)
{
    if (!grid)
        return;
    for (size_t s = 0; s < grid->n; s++) {
        km_params_free(grid->settings[s].params);
        free(grid->settings[s].options);
    }
    free(grid->settings);
    free(grid);
}

km_status km_grid_add(km_grid *grid, const km_params *params, const km_kernel_set *kernels, const char *options)
{
    if (!grid || !params || !kernels)
        return km_error(KM_EINVAL, "km_grid_add: NULL argument");
    if (grid->n == grid->capacity) {
        size_t capacity = grid->capacity ? 2 * grid->capacity : 8;
        km_grid_setting *grown = realloc(grid->settings, capacity * sizeof *grown);
        if (!grown)
            return km_error_nomem("a grid");
        grid->settings = grown;
        grid->capacity = capacity;
    }
    km_grid_setting *s = &grid->settings[grid->n];
    s->kernels = kernels;
    s->options = strdup(options ? options : "");
    s->params = NULL;
    km_status st = s->options ? km_params_copy(params, &s->params) : km_error_nomem("a grid");
    if (st) {
        free(s->options);
        return st;
    }
    grid->n++;
    return KM_OK;
}

size_t km_grid_size(const km_grid *grid) { return grid ? grid->n : 0; }

const char *km_grid_options(const km_grid *grid, size_t setting)
{
    return grid && setting < grid->n ? grid->settings[setting].options : NULL;
}

const km_params *km_grid_params(const km_grid *grid, size_t setting)
{
    return grid && setting < grid->n ? grid->settings[setting].params : NULL;
}
