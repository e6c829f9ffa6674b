/* Rows of several feature blocks side by side (kernel/feature_block.h). */
#include "kernel/feature_block.h"

#include <math.h>

void km_feature_rows_combine(const km_feature_block *blocks, const double *weights, size_t M, size_t first,
                             size_t count, double *out)
{
    for (size_t t = 0; t < count; t++)
        for (size_t m = 0; m < M; m++) {
            const km_feature_block *b = &blocks[m];
            if (weights && !(weights[m] > 0))
                continue;
            double s = (weights ? sqrt(weights[m]) : 1.0) * km_feature_row_scale(b, first + t);
            const double *phi = km_feature_row(b, first + t);
            for (size_t c = 0; c < b->r; c++)
                out[c] = s * phi[c];
            out += b->r;
        }
}
