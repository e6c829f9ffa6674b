/* Growing numeric series, as figures collect them from JSON lines or models. */
#ifndef KM_PLOT_SERIES_H
#define KM_PLOT_SERIES_H

#include <stddef.h>

typedef struct km_series {
    char name[64];
    double *x, *y[3];            /* up to three y values per point (a figure's panels) */
    size_t n, capacity;
} km_series;

/* Appends the point (x, y0, y1, y2); 0 without memory. */
int km_series_add(km_series *series, double x, double y0, double y1, double y2);
void km_series_free(km_series *series);

#endif
