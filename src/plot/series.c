#include "plot/series.h"

#include <stdlib.h>

int km_series_add(km_series *s, double x, double y0, double y1, double y2)
{
    if (s->n == s->capacity) {
        size_t capacity = s->capacity ? 2 * s->capacity : 64;
        double *grown[4];
        double **arrays[4] = {&s->x, &s->y[0], &s->y[1], &s->y[2]};
        for (int k = 0; k < 4; k++) {
            grown[k] = realloc(*arrays[k], capacity * sizeof **arrays[k]);
            if (!grown[k])
                return 0;
            *arrays[k] = grown[k];
        }
        s->capacity = capacity;
    }
    s->x[s->n] = x;
    s->y[0][s->n] = y0;
    s->y[1][s->n] = y1;
    s->y[2][s->n] = y2;
    s->n++;
    return 1;
}

void km_series_free(km_series *s)
{
    free(s->x);
    for (int k = 0; k < 3; k++)
        free(s->y[k]);
    s->x = s->y[0] = s->y[1] = s->y[2] = NULL;
    s->n = s->capacity = 0;
}
