/* Alignment statistics of rank-1 kernels K_j = x_j x_j' (x_j column j of the n x d feature matrix;
 * Rostamizadeh's thesis §3.2, §3.3.2) from the columns alone, never an n x n matrix. With U = I - 11'/n
 * and x_jc = U x_j the centred column, K_jc = U x_j x_j' U = x_jc x_jc', hence
 *   a_j = y~'K_j y~ = (x_jc'y~)^2,            <K_jc, K_lc>_F = tr(x_jc x_jc' x_lc x_lc') = (x_jc'x_lc)^2,
 *   b_j = (x_j'y)^2,                          <K_j, K_l>_F = (x_j'x_l)^2 = (x_jc'x_lc + n m_j m_l)^2,
 * m_j the column mean: O(nd) without the Gram matrix, O(nd^2) (one dsyrk) with it. */
#include <cblas.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "mkl/alignment_stats.h"

km_status km_alignment_stats_rank1(const double *X, size_t n, size_t d, const double *y, int with_gram,
                                   km_alignment_stats *s)
{
    memset(s, 0, sizeof *s);
    double *Xc = malloc(n * d * sizeof *Xc), *mean = calloc(d, sizeof *mean), *yc = malloc(n * sizeof *yc);
    km_status st = Xc && mean && yc ? km_alignment_stats_start(s, n, d, with_gram, y, yc)
                                    : km_error_nomem("rank-1 alignment statistics");
    if (st) {
        free(Xc);
        free(mean);
        free(yc);
        return st;
    }
    s->rank1 = 1;
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < d; j++)
            mean[j] += X[i * d + j] / (double)n;
    }
    double *xc_y = s->a, *x_y = s->b, *xc_sq = s->centred_sq;   /* products first, squared below */
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < d; j++) {
            double c = X[i * d + j] - mean[j];
            Xc[i * d + j] = c;
            xc_y[j] += c * yc[i];
            x_y[j] += X[i * d + j] * y[i];
            xc_sq[j] += c * c;
        }
    for (size_t j = 0; j < d; j++) {
        double x_sq = xc_sq[j] + (double)n * mean[j] * mean[j];
        s->a[j] = xc_y[j] * xc_y[j];
        s->b[j] = x_y[j] * x_y[j];
        s->frobenius_sq[j] = x_sq * x_sq;
        s->centred_sq[j] = xc_sq[j] * xc_sq[j];
    }
    if (with_gram) {
        /* C = Xc'Xc (upper triangle), then the elementwise squares */
        cblas_dsyrk(CblasRowMajor, CblasUpper, CblasTrans, (int)d, (int)n, 1.0, Xc, (int)d, 0.0, s->gram, (int)d);
        for (size_t j = 0; j < d; j++)
            for (size_t l = j; l < d; l++) {
                double c = s->gram[j * d + l], u = c + (double)n * mean[j] * mean[l];
                s->gram[j * d + l] = s->gram[l * d + j] = c * c;
                s->uncentred_gram[j * d + l] = s->uncentred_gram[l * d + j] = u * u;
            }
    }
    free(Xc);
    free(mean);
    free(yc);
    return KM_OK;
}
