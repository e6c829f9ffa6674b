/* Kernel-target alignment statistics (mkl/alignment_stats.h): the row means of every kernel in a first
 * pass, then the centred columns [K_c]_ij = K_ij - r_i - r_j + g, whose products with y~ and with each
 * other (a rank-M update per column, dsyrk) give a and M without cancellation. */
#include "mkl/alignment_stats.h"

#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

/* The columns of every kernel in the order asked for, fetched a block at a time (km_kernel_access_blocks:
 * the dot products of a block from one matrix product) into about 2^20 doubles. */
typedef struct column_stream {
    const km_kernel_access *k;
    const size_t *rows;        /* 0..n-1 */
    size_t block, first, count;
    size_t *cols;
    double *values;            /* count x M x n: column first + c of kernel m at [(c M + m) n] */
} column_stream;

static km_status stream_init(column_stream *cs, const km_kernel_access *k, const size_t *rows)
{
    size_t per_column = k->n_kernels * k->n_rows;
    *cs = (column_stream){.k = k, .rows = rows, .block = per_column ? ((size_t)1 << 20) / per_column : 1};
    cs->block = cs->block < 1 ? 1 : cs->block > k->n_rows ? k->n_rows : cs->block;
    cs->cols = malloc(cs->block * sizeof *cs->cols);
    cs->values = malloc(cs->block * per_column * sizeof *cs->values);
    return cs->cols && cs->values ? KM_OK : km_error_nomem("alignment statistics");
}

static void stream_free(column_stream *cs)
{
    free(cs->cols);
    free(cs->values);
}

/* *out: column j of every kernel (out[m n + i] = K_m(i, j)). */
static km_status stream_column(column_stream *cs, size_t j, const double **out)
{
    const km_kernel_access *k = cs->k;
    size_t n = k->n_rows, M = k->n_kernels;
    if (j < cs->first || j >= cs->first + cs->count) {
        cs->first = j;
        cs->count = n - j < cs->block ? n - j : cs->block;
        for (size_t c = 0; c < cs->count; c++)
            cs->cols[c] = j + c;
        km_status st = km_kernel_access_blocks(k, cs->cols, cs->count, cs->rows, n, cs->values);
        if (st) {
            cs->count = 0;
            return st;
        }
    }
    *out = cs->values + (j - cs->first) * M * n;
    return KM_OK;
}

void km_alignment_stats_free(km_alignment_stats *s)
{
    free(s->a);
    free(s->centred_sq);
    free(s->b);
    free(s->frobenius_sq);
    free(s->gram);
    free(s->uncentred_gram);
    memset(s, 0, sizeof *s);
}

km_status km_alignment_stats_start(km_alignment_stats *s, size_t n, size_t M, int with_gram, const double *y,
                                   double *yc)
{
    memset(s, 0, sizeof *s);
    s->n = n;
    s->M = M;
    s->a = calloc(M, sizeof *s->a);
    s->centred_sq = calloc(M, sizeof *s->centred_sq);
    s->b = calloc(M, sizeof *s->b);
    s->frobenius_sq = calloc(M, sizeof *s->frobenius_sq);
    s->gram = with_gram ? calloc(M * M, sizeof *s->gram) : NULL;
    s->uncentred_gram = with_gram ? calloc(M * M, sizeof *s->uncentred_gram) : NULL;
    if (!s->a || !s->centred_sq || !s->b || !s->frobenius_sq || (with_gram && (!s->gram || !s->uncentred_gram))) {
        km_alignment_stats_free(s);
        return km_error_nomem("alignment statistics");
    }
    for (size_t i = 0; i < n; i++)
        s->y_mean += y[i] / (double)n;
    for (size_t i = 0; i < n; i++) {
        double c = y[i] - s->y_mean;
        if (yc)
            yc[i] = c;
        s->y_centred_sq += c * c;
        s->y_sq += y[i] * y[i];
    }
    return KM_OK;
}

km_status km_alignment_stats_compute(const km_kernel_access *k, const double *y, int with_gram, km_alignment_stats *s)
{
    size_t n = k->n_rows, M = k->n_kernels;
    memset(s, 0, sizeof *s);
    double *yc = malloc(n * sizeof *yc);
    km_status st = yc ? km_alignment_stats_start(s, n, M, with_gram, y, yc) : km_error_nomem("alignment statistics");
    if (st) {
        free(yc);
        return st;
    }
    double *column = malloc(M * n * sizeof *column), *r = calloc(M * n, sizeof *r), *g = calloc(M, sizeof *g);
    column_stream stream = {0};
    size_t *rows = malloc(n * sizeof *rows);
    st = column && r && g && rows ? KM_OK : km_error_nomem("alignment statistics");
    for (size_t i = 0; !st && i < n; i++)
        rows[i] = i;
    if (!st)
        st = stream_init(&stream, k, rows);
    /* pass 1: row means r (K symmetric: column means), grand means g, y'K y and ||K||_F^2 */
    for (size_t j = 0; !st && j < n; j++) {
        const double *fetched;
        if ((st = stream_column(&stream, j, &fetched)))
            break;
        for (size_t m = 0; m < M; m++) {
            const double *c = fetched + m * n;
            double sum = 0, ky = 0, sq = 0;
            for (size_t i = 0; i < n; i++) {
                sum += c[i];
                ky += c[i] * y[i];
                sq += c[i] * c[i];
            }
            r[m * n + j] = sum / (double)n;
            g[m] += sum / ((double)n * (double)n);
            s->b[m] += y[j] * ky;
            s->frobenius_sq[m] += sq;
        }
    }
    /* pass 2: centred columns */
    for (size_t j = 0; !st && j < n; j++) {
        const double *fetched;
        if ((st = stream_column(&stream, j, &fetched)))
            break;
        memcpy(column, fetched, M * n * sizeof *column);
        for (size_t m = 0; m < M; m++) {
            double *c = column + m * n, ky = 0, sq = 0;
            for (size_t i = 0; i < n; i++) {
                c[i] -= r[m * n + i] + r[m * n + j] - g[m];
                ky += c[i] * yc[i];
                sq += c[i] * c[i];
            }
            s->a[m] += yc[j] * ky;
            s->centred_sq[m] += sq;
        }
        if (with_gram)
            cblas_dsyrk(CblasRowMajor, CblasUpper, CblasNoTrans, (int)M, (int)n, 1.0, column, (int)n, 1.0, s->gram,
                        (int)M);
    }
    for (size_t m = 0; !st && with_gram && m < M; m++)
        for (size_t l = 0; l < m; l++)
            s->gram[m * M + l] = s->gram[l * M + m];
    for (size_t m = 0; !st && with_gram && m < M; m++)
        for (size_t l = 0; l < M; l++)
            s->uncentred_gram[m * M + l] = s->gram[m * M + l] +
                                           2.0 * (double)n * cblas_ddot((int)n, r + m * n, 1, r + l * n, 1) -
                                           (double)n * (double)n * g[m] * g[l];
    free(column);
    stream_free(&stream);
    free(r);
    free(g);
    free(yc);
    free(rows);
    if (st)
        km_alignment_stats_free(s);
    return st;
}

double km_alignment_rho(const km_alignment_stats *s, size_t k)
{
    double norm = sqrt(s->centred_sq[k]) * s->y_centred_sq;
    return norm > 0 ? s->a[k] / norm : NAN;
}

double km_alignment_uncentred(const km_alignment_stats *s, size_t k)
{
    double norm = sqrt(s->frobenius_sq[k]) * s->y_sq;
    return norm > 0 ? s->b[k] / norm : NAN;
}

double km_alignment_eta(const km_alignment_stats *s, size_t k)
{
    return s->a[k] / ((double)s->n * (double)s->n);
}

double km_alignment_rho_combined(const km_alignment_stats *s, const double *mu)
{
    double num = 0, quad = 0;
    for (size_t k = 0; k < s->M; k++) {
        num += mu[k] * s->a[k];
        for (size_t l = 0; l < s->M; l++)
            quad += mu[k] * s->gram[k * s->M + l] * mu[l];
    }
    double norm = sqrt(quad > 0 ? quad : 0) * s->y_centred_sq;
    return norm > 0 ? num / norm : NAN;
}
