/* The grid's settings (kernelmix.h, km_grid_*), as the cross-validation reads them. */
#ifndef KM_SELECT_GRID_H
#define KM_SELECT_GRID_H

#include "kernelmix.h"

typedef struct km_grid_setting {
    km_params *params;
    const km_kernel_set *kernels;   /* borrowed */
    char *options;
} km_grid_setting;

struct km_grid {
    km_grid_setting *settings;
    size_t n, capacity;
};

#endif
