/* Dense dot-product blocks whose every value is independent of the number of threads. One BLAS call
 * over a whole block is split among OpenBLAS's threads by their number, and the split changes the last
 * bits of some values (measured: 93 of 36,585 values of a 270 x 270 x 13 dgemm differ between 1 and 2
 * threads), and with them where the solver stops. Here the block is cut into tiles of a fixed shape,
 * each one BLAS call run on one thread (OpenBLAS runs single-threaded inside an OpenMP parallel
 * region, and with one OpenMP thread it has one thread), so a value depends only on the inputs. */
#ifndef KM_KERNEL_DOT_PRODUCTS_H
#define KM_KERNEL_DOT_PRODUCTS_H

#include <stddef.h>

/* <x, y> over n values: cblas_ddot on pieces short enough for OpenBLAS to sum each on one thread
 * (it splits longer vectors among its threads: 1 and 2 threads differ on 10^6 values), so the sum
 * depends on n alone, and rows of up to 10,000 values give cblas_ddot's bits. */
double km_dot(const double *x, const double *y, size_t n);
/* out[i*nb + j] = <A row i, B row j> for row-major A (na x dim) and B (nb x dim). */
void km_dots_block(const double *A, size_t na, const double *B, size_t nb, size_t dim, double *out);
/* out[i] = <A row i, y> for row-major A (n x dim). */
void km_dots_vector(const double *A, size_t n, size_t dim, const double *y, double *out);

#endif
