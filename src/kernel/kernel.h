/* Base kernels and kernel sets: the structs behind km_kernel_set, shared by the kernel engine
 * (evaluation, fitting), the trainer and the model reader/writer. */
#ifndef KM_KERNEL_KERNEL_H
#define KM_KERNEL_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#include "data/matrix.h"
#include "kernelmix.h"

/* The largest degree a kernel spec takes (poly, positional, wd). */
#define KM_KERNEL_DEGREE_MAX 1024
/* The most landmark rows (rank=) of a low-rank kernel. */
#define KM_KERNEL_MAX_RANK 1000000

/* How gamma was given; data-dependent forms are resolved to an absolute value when fitted. */
typedef enum km_gamma_mode {
    KM_GAMMA_ABSOLUTE = 0,   /* gamma as given */
    KM_GAMMA_RELATIVE = 1    /* gamma = value / mean distance (||x-x'||^2 for rbf, chi^2 for chi2) */
} km_gamma_mode;

/* How a low-rank kernel draws its landmark rows (kernel/landmarks.h; names: core/names.h
 * km_landmark_sampling_names). */
typedef enum km_landmark_sampling {
    KM_LANDMARKS_UNIFORM = 0,    /* uniformly without replacement */
    KM_LANDMARKS_KMEANSPP = 1,   /* k-means++ seeding on the rows' features */
    KM_LANDMARKS_LEVERAGE = 2    /* by approximate ridge leverage scores of the kernel */
} km_landmark_sampling;

typedef struct km_kernel {
    km_kernel_type type;
    double gamma;            /* rbf, poly, sigmoid, chi2; 0 for poly/sigmoid: LIBSVM's default
                                1/(number of features), resolved when fitted */
    km_gamma_mode gamma_mode;
    double coef0;            /* poly, sigmoid */
    double degree;           /* poly */
    uint32_t *features;      /* 0-based feature subset, ascending, or NULL for all features */
    size_t n_features;
    km_normalization norm;
    int center;              /* 1: centre in feature space before norm */
    size_t kmer;             /* spectrum: the k-mer length k */
    size_t shift;            /* wd, positional: the largest shift S (0: matches at equal positions only) */
    size_t rank;             /* spec rank=R: the kernel's Nystrom approximation on R landmark rows
                                (family_nystrom.c); 0: the exact kernel */
    double icd_tolerance;    /* spec icd=TOL: the landmark rows are the pivots of an incomplete Cholesky
                                factorization to a residual trace of TOL times the trace (at most R);
                                0: drawn (landmark_sampling) */
    km_landmark_sampling landmark_sampling;   /* spec sampling=: how the landmark rows are drawn */

    /* precomputed kernels */
    char *file;              /* training matrix file named in the spec, or NULL */
    const km_matrix *matrix; /* training matrix (N×N, indexed by dataset row), or NULL: values from the
                                dataset rows, K(i,j) = value of row i at column id_j - 1 (LIBSVM 0:id) */
    km_matrix *owned_matrix; /* set when the kernel set read the file itself and frees it */

    /* fitted on the training rows (valid when fitted != 0) */
    int fitted;
    double scale;            /* divisor of the multiplicative/trace normalization (1 otherwise); in an
                                unfitted kernel, > 0 fixes the divisor (spec key scale=) and 0 fits it */
    double *col_mean;        /* centering: mean_i k(x_i, x_j) over training rows j, n_train values */
    double mean_all;         /* centering: mean_ij k(x_i, x_j) */
    size_t n_train;          /* length of col_mean */
    /* the Nystrom map of a kernel with rank > 0, fitted on the training rows:
     * k~(x, x') = <phi(x), phi(x')>, phi(x) = P^T k(Z, x) */
    size_t n_landmarks;      /* rows of Z, training rows on the kernel's features */
    size_t landmark_dim;     /* values of each landmark row */
    double *landmarks;       /* Z, n_landmarks x landmark_dim, row-major */
    size_t rank_kept;        /* r: the eigenvalues of k(Z, Z) kept */
    double *projection;      /* P, n_landmarks x rank_kept, row-major */
    int features_float;      /* set by the provider that computes the training rows' features (not a
                                property of the model): they are held as float (provider.c) */
    int share_dots;          /* ... and: the kernels on one feature subset may share the rows' dot
                                products with the landmarks while computing them (room reserved in -m) */
} km_kernel;

struct km_kernel_set {
    size_t dimension;        /* feature count of the data, 0 if unknown (km_kernel_set_set_dimension) */
    km_normalization default_norm; /* normalization of specs added later that name none
                                      (km_kernel_set_set_default_norm) */
    size_t default_rank;     /* rank=, icd= and sampling= of specs added later that name no rank=
                                and have a low-rank form (km_kernel_set_set_default_low_rank) */
    double default_icd;
    km_landmark_sampling default_sampling;
    size_t size;
    size_t capacity;
    km_kernel *kernels;
};

/* Appends a kernel (shallow: the set takes over what the kernel owns). */
km_status km_kernel_set_append(km_kernel_set *set, const km_kernel *kernel);
/* Deep copy (col_mean and feature lists copied; matrices shared, ownership stays with src). */
km_status km_kernel_set_copy(const km_kernel_set *src, km_kernel_set **out);
/* Releases what one kernel owns (features, file, col_mean, owned matrix). */
void km_kernel_clear(km_kernel *kernel);

/* Canonical spec of one kernel (see km_kernel_set_describe); returns the full length like snprintf. */
size_t km_kernel_describe(const km_kernel *kernel, char *buf, size_t size);
/* KM_EINVAL with the message "kernel SPEC: message", SPEC the kernel's canonical description. */
km_status km_kernel_error(const km_kernel *kernel, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A hash of the feature subset a kernel reads: equal for kernels that km_kernel_same_features pairs. */
uint64_t km_kernel_features_hash(const km_kernel *k);
/* 1 when both kernels read the same feature subset (both all features, or equal lists). */
int km_kernel_same_features(const km_kernel *a, const km_kernel *b);
/* 1 for the kernels computed from dot products of their feature rows (linear, poly, rbf, sigmoid; not
 * their low-rank approximations). */
int km_kernel_uses_dot(const km_kernel *kernel);
/* KM_OK when every data-dependent value of the kernel is known (gamma resolved, normalization
 * constants fitted or fixed); otherwise KM_EINVAL naming the kernel. */
km_status km_kernel_check_fitted(const km_kernel *kernel);

#endif
