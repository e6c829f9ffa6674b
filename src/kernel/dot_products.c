/* Dot-product blocks in tiles of a fixed shape (see dot_products.h). */
#include "kernel/dot_products.h"

#include <cblas.h>

/* Tile shape: large enough for BLAS to run at full speed on one thread (B's tile is packed once per
 * row tile: 64-row tiles left the 5,000 x 5,000 fashion-MNIST Gram block at 64 % of dgemm, 256-row tiles
 * bring it back to about 80 %), small enough that a block of a few rows (an SMO column request) still spreads
 * over the threads through its column tiles. */
#define KM_TILE_ROWS 256
#define KM_TILE_COLS 512
#define KM_TILE_VECTOR_ROWS 1024

/* OpenBLAS computes a ddot of at most this many values on one thread (interface/dot.c; measured: 10,000
 * values identical for 1, 2 and 4 threads, 10,001 not). */
#define KM_DDOT_ONE_THREAD_MAX 10000

double km_dot(const double *x, const double *y, size_t n)
{
    if (n <= KM_DDOT_ONE_THREAD_MAX)
        return cblas_ddot((int)n, x, 1, y, 1);
    double sum = 0.0;
    for (size_t k = 0; k < n; k += KM_DDOT_ONE_THREAD_MAX) {
        size_t len = n - k < KM_DDOT_ONE_THREAD_MAX ? n - k : KM_DDOT_ONE_THREAD_MAX;
        sum += cblas_ddot((int)len, x + k, 1, y + k, 1);
    }
    return sum;
}

void km_dots_block(const double *A, size_t na, const double *B, size_t nb, size_t dim, double *out)
{
    size_t row_tiles = (na + KM_TILE_ROWS - 1) / KM_TILE_ROWS, col_tiles = (nb + KM_TILE_COLS - 1) / KM_TILE_COLS;
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic)
#endif
    for (size_t tile = 0; tile < row_tiles * col_tiles; tile++) {
        size_t r0 = tile / col_tiles * KM_TILE_ROWS, c0 = tile % col_tiles * KM_TILE_COLS;
        size_t rows = na - r0 < KM_TILE_ROWS ? na - r0 : KM_TILE_ROWS;
        size_t cols = nb - c0 < KM_TILE_COLS ? nb - c0 : KM_TILE_COLS;
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)rows, (int)cols, (int)dim, 1.0, A + r0 * dim,
                    (int)dim, B + c0 * dim, (int)dim, 0.0, out + r0 * nb + c0, (int)nb);
    }
}

void km_dots_vector(const double *A, size_t n, size_t dim, const double *y, double *out)
{
    size_t tiles = (n + KM_TILE_VECTOR_ROWS - 1) / KM_TILE_VECTOR_ROWS;
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic)
#endif
    for (size_t tile = 0; tile < tiles; tile++) {
        size_t r0 = tile * KM_TILE_VECTOR_ROWS;
        size_t rows = n - r0 < KM_TILE_VECTOR_ROWS ? n - r0 : KM_TILE_VECTOR_ROWS;
        cblas_dgemv(CblasRowMajor, CblasNoTrans, (int)rows, (int)dim, 1.0, A + r0 * dim, (int)dim, y, 1, 0.0, out + r0,
                    1);
    }
}
