/* Kernel families: the source interface behind every kernel type. A family says what it reads (its
 * input), which spec parameters it takes, how its data-dependent width is fitted and how raw values
 * come out of its input; the provider, km_kernel_cross, the spec parser and the describer ask the
 * family instead of testing types. A new family is one file (a `const km_kernel_family` definition,
 * like family_dot.c) plus its entry in the table of kernel_family.c.
 *
 * Inputs:
 *  - KM_INPUT_DOT: dot products of numeric feature rows. Every dot-product kernel on one feature subset
 *    shares one Gram block (and every width of one squared-distance column); the family maps dot
 *    products (and squared norms) to values, elementwise.
 *  - KM_INPUT_ROWS: the family reads the dataset rows itself, through a source it builds over some
 *    rows (the histogram kernels: a feature view; string kernels: the strings), and computes values
 *    pair by pair or a column at a time. Kernels of one family on one feature subset share a source;
 *    the provider caches their columns (one distance column for all widths of a family that is the exp
 *    of a distance).
 *  - KM_INPUT_MATRIX: stored values, from a precomputed matrix or the dataset's kernel rows.
 *
 * A kernel with rank= is served by the Nystrom family (family_nystrom.c), KM_INPUT_ROWS on features of
 * its own, whatever its type: km_family gives that family, km_kernel_family_of(type) the base one. */
#ifndef KM_KERNEL_KERNEL_FAMILY_H
#define KM_KERNEL_KERNEL_FAMILY_H

#include <stddef.h>

#include "data/dataset.h"
#include "kernel/feature_block.h"
#include "kernel/kernel.h"

typedef enum km_kernel_input {
    KM_INPUT_DOT = 0,
    KM_INPUT_ROWS = 1,
    KM_INPUT_MATRIX = 2
} km_kernel_input;

/* Spec parameters a family takes besides norm, center and scale (which every kernel takes). */
enum {
    KM_SPEC_GAMMA = 1u << 0,       /* gamma= (a width or scale) */
    KM_SPEC_SIGMA = 1u << 1,       /* sigma= (gamma = 1/(2 sigma^2)) */
    KM_SPEC_DEGREE = 1u << 2,      /* degree= (default 3) */
    KM_SPEC_COEF0 = 1u << 3,       /* coef0= */
    KM_SPEC_FEATURES = 1u << 4,    /* features= (a feature subset) */
    KM_SPEC_FILE = 1u << 5,        /* file= (a kernel matrix) */
    KM_SPEC_KMER = 1u << 6,        /* k= (a k-mer length, default 3) */
    KM_SPEC_SHIFT = 1u << 7        /* shift= (the largest shift of a string position, default 0) */
};

typedef struct km_kernel_family {
    km_kernel_type type;            /* its name, in specs, models and messages: core/names.c */
    km_kernel_input input;
    unsigned params;                /* KM_PARAM_* */
    /* gamma relative to the mean training distance (gamma=c/mean, the default 1/mean): the mean over
     * training pairs of the distance whose scale gamma is, on the training rows' km_view (KM_INPUT_DOT)
     * or source (KM_INPUT_ROWS); NULL: gamma is absolute */
    km_status (*mean_distance)(const void *rows, double *mean);
    /* gamma 0 stands for LIBSVM's default 1/(number of features) */
    int gamma_per_feature;
    /* k = exp(-gamma ||x - x'||^2): every width on one feature subset from one squared-distance column,
     * one vectorised exp pass each (KM_INPUT_DOT) */
    int exp_of_squared_distance;
    /* k(x, x') linear in x': row sums as k(x_i, sum_j x_j), from the column sums (KM_INPUT_DOT) */
    int linear_in_argument;
    /* one kernel per feature of its list (all features when the spec names none), centred and scaled by
     * the family itself: the spec takes no norm, center or scale (rank-1 kernels) */
    int one_kernel_per_feature;
    /* fits the family's own data-dependent values (KM_INPUT_ROWS) on the source over the training rows,
     * before the normalization is fitted (and may complete the source with what they give); NULL: none */
    km_status (*fit)(km_kernel *kernel, void *source);
    /* 1: each kernel has a source of its own, never shared by the family's kernels on its features; the
     * provider then makes the later ones by source_share from the first on their features, when the
     * family has it (they may share its rows until fitted) */
    int source_per_kernel;
    km_status (*source_share)(const km_kernel *kernel, void *lead, void **source);
    /* 1: reads the string rows of sequences (KM_INPUT_ROWS); 0: numeric features or stored values */
    int reads_strings;
    /* 1 when the spec makes the kernel zero on every pair of the source's rows (KM_INPUT_ROWS: a k-mer
     * longer than every string), with the reason in why; NULL: never */
    int (*zero_on)(const km_kernel *kernel, const void *source, char *why, size_t size);
    /* KM_INPUT_DOT: k(x, x') from <x,x'> and the squared norms; out[k] = k(x_{rows[k]}, x) from
     * dot[k] = <x_{rows[k]}, x>, sqnorm[rows[k]] and sq_x (rows NULL: identity; out may equal dot) */
    double (*from_dot)(const km_kernel *kernel, double dot, double sq_a, double sq_b);
    void (*from_dots)(const km_kernel *kernel, const double *dot, const double *sqnorm, const size_t *rows,
                      double sq_x, size_t count, double *out);
    /* KM_INPUT_ROWS: a source over rows[0..n) of data (dim_all: the feature count both sides of a
     * cross block agree on), checked (a kernel error for rows the family cannot read); its release */
    km_status (*source_new)(const km_kernel *kernel, const km_dataset *data, const size_t *rows, size_t n,
                            size_t dim_all, void **source);
    void (*source_free)(void *source);
    /* k(a_i, b_j) between rows of two sources */
    double (*value)(const km_kernel *kernel, const void *a, size_t i, const void *b, size_t j);
    /* out[r] = k(s_{rows[r]}, s_i) on one source (rows NULL: r), on several threads when large */
    void (*column)(const km_kernel *kernel, const void *source, size_t i, const size_t *rows, size_t count,
                   double *out);
    /* k = exp(-gamma D) for a distance D of the source's rows (KM_INPUT_ROWS): out[r] = D(s_{rows[r]}, s_i)
     * (rows NULL: r), so that every width on one source comes from one distance column, one vectorised
     * exp pass each; NULL: the family's values are no exp of a distance */
    void (*distance_column)(const void *source, size_t i, const size_t *rows, size_t count, double *out);
    /* several kernels of the family on one source in one pass (KM_INPUT_ROWS): out[g * count + r] =
     * k_g(s_{rows[r]}, s_i) for kernels[0..G), each value the one column gives; NULL: a kernel at a time */
    void (*columns)(const km_kernel *const *kernels, size_t G, const void *source, size_t i, const size_t *rows,
                    size_t count, double *out);
    /* 1 when columns computes kernels a and b in one pass */
    int (*together)(const km_kernel *a, const km_kernel *b);
    /* the same distance between row i of source a and row j of source b (cross values: every width
     * from one block of distances) */
    double (*distance)(const void *a, size_t i, const void *b, size_t j);
    /* k(s_i, s_j) = <phi_i, phi_j> for explicit features of the source's rows (out's phi or phi_float:
     * r values a row, row-major; its other fields left as they are), once the kernel is fitted; NULL:
     * the family has none */
    void (*features)(const void *source, km_feature_block *out);
} km_kernel_family;

/* Resolves k's gamma on training rows of dim features, family being the one that serves k: LIBSVM's
 * 1/dim where a poly or sigmoid kernel names none, and a width relative to the mean training distance
 * divided by that mean (asked of mean_of(ctx) only then). gamma is absolute after. */
km_status km_kernel_fit_gamma(km_kernel *k, const km_kernel_family *family, size_t dim,
                              km_status (*mean_of)(void *ctx, double *mean), void *ctx);

/* The family of a type, or NULL for an unknown type. */
const km_kernel_family *km_kernel_family_of(km_kernel_type type);
extern const km_kernel_family km_family_nystrom;   /* family_nystrom.c */
/* The family that serves a kernel of a known type: its type's, or the Nystrom family for rank= kernels. */
static inline const km_kernel_family *km_family(const km_kernel *kernel)
{
    return kernel->rank ? &km_family_nystrom : km_kernel_family_of(kernel->type);
}
/* The family named name, or NULL. */
const km_kernel_family *km_kernel_family_named(const char *name);

#endif
