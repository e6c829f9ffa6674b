/* A kernel given by explicit features (a low-rank kernel, family_nystrom.c), as the solvers that work
 * in the primal read it: on rows i, j of a machine,
 *     K(i, j) = s_i s_j <phi_{rows[i]}, phi_{rows[j]}>,   s_i = root_scale * factor[rows[i]],
 * phi the feature rows (r values each, row-major) of the provider's rows, held as double or, where the
 * kernel cache keeps them so (docs/large-scale.md, "Memory"), as float; factor those of spherical
 * normalization (NULL: 1) and root_scale the square root of a global normalization constant. The
 * solvers read rows through the functions below, which compute in double either way. */
#ifndef KM_KERNEL_FEATURE_BLOCK_H
#define KM_KERNEL_FEATURE_BLOCK_H

#include <stddef.h>

typedef struct km_feature_block {
    const double *phi;       /* the features as double, or NULL */
    const float *phi_float;  /* ... as float, or NULL; both NULL: the kernel has no explicit features */
    size_t r;
    const size_t *rows;      /* machine row -> row of phi; NULL: identity */
    const double *factor;    /* per row of phi, or NULL */
    double root_scale;
} km_feature_block;

/* Whether the block has explicit features. */
static inline int km_feature_block_present(const km_feature_block *b) { return b->phi || b->phi_float; }

/* s_i of machine row i. */
static inline double km_feature_row_scale(const km_feature_block *b, size_t i)
{
    return b->factor ? b->root_scale * b->factor[b->rows ? b->rows[i] : i] : b->root_scale;
}

/* <phi_i, u> of machine row i (unscaled), u of r values. */
double km_feature_dot(const km_feature_block *b, size_t i, const double *u);
/* ||phi_i||^2. */
double km_feature_sqnorm(const km_feature_block *b, size_t i);
/* u += a phi_i. */
void km_feature_axpy(const km_feature_block *b, size_t i, double a, double *u);
/* phi_i as r doubles: the block's own row, or its float values converted into buffer (r values). */
const double *km_feature_row_values(const km_feature_block *b, size_t i, double *buffer);

/* Rows of several blocks that the passes over the rows (the Woodbury paths of KRR and of the evidence)
 * gather at once with km_feature_rows_combine. */
#define KM_FEATURE_ROWS_AT_ONCE 1024

/* The M blocks side by side, Z = [sqrt(w_m) s phi_m] over the blocks with w_m > 0 (weights NULL: every
 * block, w_m = 1): rows first..first+count of Z, row-major, d = sum of those blocks' r values a row,
 * written to out (count x d values). Z Z' is then the kernel sum_m w_m K_m. */
void km_feature_rows_combine(const km_feature_block *blocks, const double *weights, size_t M, size_t first,
                             size_t count, double *out);

/* <a, b> of r floats, summed in double. */
double km_float_dot(const float *a, const float *b, size_t r);

#endif
