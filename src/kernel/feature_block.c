/* Rows of feature blocks, double or float, read in double (kernel/feature_block.h). */
#include "kernel/feature_block.h"

#include <cblas.h>
#include <math.h>

static size_t row_of(const km_feature_block *b, size_t i) { return b->rows ? b->rows[i] : i; }

double km_float_dot(const float *a, const float *b, size_t r)
{
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;   /* four sums: independent additions */
    size_t c = 0;
    for (; c + 4 <= r; c += 4) {
        s0 += (double)a[c] * b[c];
        s1 += (double)a[c + 1] * b[c + 1];
        s2 += (double)a[c + 2] * b[c + 2];
        s3 += (double)a[c + 3] * b[c + 3];
    }
    for (; c < r; c++)
        s0 += (double)a[c] * b[c];
    return (s0 + s1) + (s2 + s3);
}

double km_feature_dot(const km_feature_block *b, size_t i, const double *u)
{
    size_t r = b->r;
    if (b->phi)
        return cblas_ddot((int)r, b->phi + row_of(b, i) * r, 1, u, 1);
    const float *x = b->phi_float + row_of(b, i) * r;
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    size_t c = 0;
    for (; c + 4 <= r; c += 4) {
        s0 += x[c] * u[c];
        s1 += x[c + 1] * u[c + 1];
        s2 += x[c + 2] * u[c + 2];
        s3 += x[c + 3] * u[c + 3];
    }
    for (; c < r; c++)
        s0 += x[c] * u[c];
    return (s0 + s1) + (s2 + s3);
}

double km_feature_sqnorm(const km_feature_block *b, size_t i)
{
    size_t r = b->r;
    if (b->phi) {
        const double *x = b->phi + row_of(b, i) * r;
        return cblas_ddot((int)r, x, 1, x, 1);
    }
    const float *x = b->phi_float + row_of(b, i) * r;
    return km_float_dot(x, x, r);
}

void km_feature_axpy(const km_feature_block *b, size_t i, double a, double *u)
{
    size_t r = b->r;
    if (b->phi) {
        cblas_daxpy((int)r, a, b->phi + row_of(b, i) * r, 1, u, 1);
        return;
    }
    const float *x = b->phi_float + row_of(b, i) * r;
    for (size_t c = 0; c < r; c++)
        u[c] += a * x[c];
}

const double *km_feature_row_values(const km_feature_block *b, size_t i, double *buffer)
{
    size_t r = b->r;
    if (b->phi)
        return b->phi + row_of(b, i) * r;
    const float *x = b->phi_float + row_of(b, i) * r;
    for (size_t c = 0; c < r; c++)
        buffer[c] = x[c];
    return buffer;
}

void km_feature_rows_combine(const km_feature_block *blocks, const double *weights, size_t M, size_t first,
                             size_t count, double *out)
{
    for (size_t t = 0; t < count; t++)
        for (size_t m = 0; m < M; m++) {
            const km_feature_block *b = &blocks[m];
            if (weights && !(weights[m] > 0))
                continue;
            double s = (weights ? sqrt(weights[m]) : 1.0) * km_feature_row_scale(b, first + t);
            const double *phi = km_feature_row_values(b, first + t, out);
            if (phi != out)
                for (size_t c = 0; c < b->r; c++)
                    out[c] = s * phi[c];
            else
                for (size_t c = 0; c < b->r; c++)
                    out[c] *= s;
            out += b->r;
        }
}
