/*
 * kernelmix — learning with multiple kernels.
 *
 * One header for the whole public API. Conventions:
 *  - every fallible function returns km_status; on failure km_last_error() gives a one-line message
 *    (thread-local) naming the file, line and problem where there is one;
 *  - heavy objects are opaque handles created by km_X_new/read/load and released by km_X_free
 *    (every free accepts NULL);
 *  - the library never prints, never exits and never aborts: messages go to the km_log_fn callback.
 *
 * How the API grows without breaking compiled callers or bindings (the ABI rule):
 *  - training parameters are an opaque handle (km_params) set by parameter id, with typed setters
 *    and queryable bounds (zstd's ZSTD_CCtx_setParameter model): a new parameter is a new id;
 *  - the few structs the library fills or reads (km_machine_info, km_bound_choice, km_csv_options)
 *    begin with `size_t size`, which the caller sets to the sizeof it was compiled with (the
 *    KM_X_INIT macros do it). New fields are only ever appended: the library fills (or reads) only
 *    the fields that fit in `size` and uses defaults for the rest; a size below the first release's
 *    struct is refused with KM_EINVAL;
 *  - enum values and parameter ids are explicit numbers, never renumbered or reused;
 *  - the shared library exports exactly the functions declared here (KM_API); anything that
 *    changes the layout or meaning of what exists changes the soname;
 *  - two tiers: the functions of this header are stable, and grow only as above, except those of its
 *    last section, the experimental tier (accessors of one kernel-weight method or one diagnostic),
 *    which are declared only where KM_EXPERIMENTAL_API is defined and may change between minor
 *    versions.
 */
#ifndef KERNELMIX_H
#define KERNELMIX_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this header; km_version() and km_version_number() give the library's. The
 * shared library's soname is libkernelmix.so.MAJOR.MINOR while MAJOR is 0 (every 0.x minor release
 * may change the ABI), libkernelmix.so.MAJOR from 1.0 on. */
#define KM_VERSION_MAJOR 0
#define KM_VERSION_MINOR 2
#define KM_VERSION_PATCH 0
#define KM_VERSION_NUMBER (KM_VERSION_MAJOR * 10000 + KM_VERSION_MINOR * 100 + KM_VERSION_PATCH)

/* Marks the functions the shared library exports (it is built with hidden visibility otherwise). */
#if defined(__GNUC__) || defined(__clang__)
#define KM_API __attribute__((visibility("default")))
#else
#define KM_API
#endif

/* ------------------------------------------------------------------------------------------------
 * Status, errors, logging
 * ---------------------------------------------------------------------------------------------- */

typedef enum km_status {
    KM_OK = 0,
    KM_EINVAL = 1,        /* invalid argument or parameter value */
    KM_ENOMEM = 2,        /* allocation failed */
    KM_EIO = 3,           /* a file could not be opened, read or written */
    KM_EFORMAT = 4,       /* malformed input file or model */
    KM_ENOTCONV = 5,      /* a solver failed to find a solution (the SILP solver's LP master, when GLPK
                             fails); reaching an iteration or time limit is no failure: training then
                             ends with the best point so far and km_machine_info.converged = 0 */
    KM_EINTERRUPTED = 6   /* the caller's progress callback asked to stop */
} km_status;

/* Message of the last failure in this thread ("" when none). Valid until the next failing call. */
KM_API const char *km_last_error(void);
/* Short name of a status code, e.g. "KM_EFORMAT". */
KM_API const char *km_status_name(km_status status);
/* Library version, "MAJOR.MINOR.PATCH", and as KM_VERSION_NUMBER computes it (a binding can compare
 * it with the header it was written for). */
KM_API const char *km_version(void);
KM_API unsigned km_version_number(void);

typedef enum km_log_level { KM_LOG_ERROR = 0, KM_LOG_WARNING = 1, KM_LOG_INFO = 2, KM_LOG_DEBUG = 3 } km_log_level;
/* Receives the library's log lines (no trailing newline). */
typedef void (*km_log_fn)(void *user, km_log_level level, const char *message);

/* ------------------------------------------------------------------------------------------------
 * Datasets: rows of features (dense or sparse) with optional labels
 * ---------------------------------------------------------------------------------------------- */

typedef struct km_dataset km_dataset;

/* File names: every reader (datasets, kernel matrices, spec files, models) takes the path "-" as
 * standard input, read once (a pipe is copied to an unnamed temporary file first), and every writer
 * (models, matrices, datasets) takes "-" as standard output, written only when complete. */

/* LIBSVM sparse format: "label idx:val idx:val ...", indices 1-based and strictly ascending.
 * With KM_READ_PRECOMPUTED the rows are LIBSVM precomputed-kernel rows "label 0:id 1:K(x,x_1) ...":
 * the 0:id entry is required and every row must give the same number of kernel values. */
#define KM_READ_PRECOMPUTED 1u
KM_API km_status km_dataset_read_libsvm(const char *path, unsigned flags, km_dataset **out);

typedef struct km_csv_options {
    size_t size;        /* sizeof(km_csv_options) as the caller was compiled (KM_CSV_OPTIONS_INIT) */
    int label_column;   /* 0-based column of the label; negative counts from the end (-1 = last);
                           KM_CSV_NO_LABEL for unlabelled data. Default -1. */
    int header;         /* 1: first line is a header, 0: no header, -1: detect (non-numeric first line). */
    char delimiter;     /* ',' by default; 0 detects ',', ';', tab or whitespace from the first line. */
} km_csv_options;
#define KM_CSV_NO_LABEL (-1000000)
/* The defaults: last column is the label, header detected, ','. */
#define KM_CSV_OPTIONS_INIT {sizeof(km_csv_options), -1, -1, ','}
/* Dense CSV, one row per line; gzip-compressed files are not read (decompress first). options NULL:
 * the defaults. */
KM_API km_status km_dataset_read_csv(const char *path, const km_csv_options *options, km_dataset **out);
/* Dense rows from a numpy .npy file (np.save): a 2-D array of float64 ('<f8') or float32 ('<f4'), C or
 * Fortran order, rows × columns; label_column as in km_csv_options (-1: the last column is the label,
 * KM_CSV_NO_LABEL: every column is a feature); a single column read with its label gives labels only
 * (no features, as for the rows of precomputed kernels from files). Other dtypes and shapes are refused
 * (KM_EFORMAT). */
KM_API km_status km_dataset_read_npy(const char *path, int label_column, km_dataset **out);
/* Labelled sequences as string rows (km_dataset_from_strings), for the string kernels: either one
 * "LABEL<TAB>SEQUENCE" per line, or FASTA (detected by a first non-blank line starting with '>'):
 * ">LABEL [description]" then the sequence on one or more lines. LABEL is a number. Every sequence
 * character must be in alphabet (NULL: "ACGT"); lower-case letters are read as upper case unless the
 * alphabet holds lower-case letters. Blank lines are skipped, '#' starts a comment line, a trailing '\r'
 * is dropped. Errors (KM_EFORMAT) name the file, line and column: "PATH:LINE:COLUMN: character 'N' is
 * not in the alphabet ACGT". */
KM_API km_status km_dataset_read_sequences(const char *path, const char *alphabet, km_dataset **out);

/* Copies a dense row-major n×d matrix and n labels (labels may be NULL); non-finite values or labels
 * are refused (KM_EINVAL). */
KM_API km_status km_dataset_from_dense(size_t n, size_t d, const double *X, const double *labels, km_dataset **out);
/* New dataset holding the given rows (copied, in the given order). */
KM_API km_status km_dataset_subset(const km_dataset *data, const size_t *rows, size_t n_rows, km_dataset **out);
/* Writes LIBSVM sparse format (zeros omitted, values with 17 significant digits). */
KM_API km_status km_dataset_write_libsvm(const km_dataset *data, const char *path);
KM_API void km_dataset_free(km_dataset *data);

KM_API size_t km_dataset_rows(const km_dataset *data);
/* Number of feature columns (the largest index for sparse data). */
KM_API size_t km_dataset_dim(const km_dataset *data);
/* Labels, one per row, or NULL when the dataset has none. */
KM_API const double *km_dataset_labels(const km_dataset *data);
/* Value of feature j (0-based) in row i. */
KM_API double km_dataset_value(const km_dataset *data, size_t i, size_t j);

/* ------------------------------------------------------------------------------------------------
 * Matrices (precomputed kernels)
 * ---------------------------------------------------------------------------------------------- */

/* A rows×cols matrix of values, row-major, held as float64 or float32. */
typedef struct km_matrix km_matrix;

typedef enum km_dtype { KM_FLOAT64 = 1, KM_FLOAT32 = 2 } km_dtype;

/* Reads a matrix file. Binary format (little-endian): 8 bytes magic "KMMATRIX", uint32 version (1),
 * uint32 dtype (1 = float64, 2 = float32), uint64 rows, uint64 cols, then rows×cols values row-major;
 * float32 files stay float32 (half the memory of doubles and no rounding). Large binary files are
 * mapped into memory (copy-on-write) rather than copied, so they must not be truncated while the
 * matrix is in use (replacing them by rename, as km_matrix_write does, is safe).
 * A numpy .npy file (np.save of a 2-D float64 or float32 array, C or Fortran order) is read as that
 * matrix in its dtype. Any other file is read as LIBSVM precomputed-kernel text ("label 0:id 1:v 2:v
 * ..."), one row a line. */
KM_API km_status km_matrix_read(const char *path, km_matrix **out);
/* A zero-filled float64 matrix; fill it through km_matrix_data. */
KM_API km_status km_matrix_new(size_t rows, size_t cols, km_matrix **out);
/* A matrix over the caller's row-major values (float64 or float32), without a copy: the memory is
 * neither modified nor freed by the library and must outlive the matrix (e.g. a numpy array). */
KM_API km_status km_matrix_wrap(size_t rows, size_t cols, km_dtype dtype, const void *values, km_matrix **out);
KM_API size_t km_matrix_rows(const km_matrix *matrix);
KM_API size_t km_matrix_cols(const km_matrix *matrix);
KM_API km_dtype km_matrix_dtype(const km_matrix *matrix);
/* Entry (i, j) as a double, whichever the storage (i < rows, j < cols; not checked). */
KM_API double km_matrix_value(const km_matrix *matrix, size_t i, size_t j);
/* The rows×cols doubles of a float64 matrix the library allocated (km_matrix_new, km_matrix_read,
 * km_kernel_matrix), writable; NULL for float32 storage and for wrapped memory. */
KM_API double *km_matrix_data(km_matrix *matrix);
/* Writes the binary format, atomically (temporary file + rename). */
KM_API km_status km_matrix_write(const km_matrix *matrix, const char *path, km_dtype dtype);
KM_API void km_matrix_free(km_matrix *matrix);

/* ------------------------------------------------------------------------------------------------
 * Kernels and kernel sets
 * ---------------------------------------------------------------------------------------------- */

typedef enum km_kernel_type {
    KM_KERNEL_LINEAR = 0,     /* <x,x'> */
    KM_KERNEL_POLY = 1,       /* (gamma <x,x'> + coef0)^degree */
    KM_KERNEL_RBF = 2,        /* exp(-gamma ||x-x'||^2), gamma = 1/(2 sigma^2) */
    KM_KERNEL_SIGMOID = 3,    /* tanh(gamma <x,x'> + coef0) */
    KM_KERNEL_PRECOMPUTED = 4,/* values from a matrix */
    KM_KERNEL_CHI2 = 5,       /* exp(-gamma sum_j (x_j-x'_j)^2/(x_j+x'_j)), features >= 0 */
    KM_KERNEL_HISTINT = 6,    /* sum_j min(x_j, x'_j), features >= 0 */
    KM_KERNEL_SPECTRUM = 7,   /* string rows: sum over k-mers u of N_u(x) N_u(x') */
    KM_KERNEL_WD = 8,         /* string rows: weighted degree, sum_{d=1..degree} w_d (matching d-mers at
                                 equal positions, or shifted by up to shift places) */
    KM_KERNEL_POSITIONAL = 9, /* string rows: matching d-mers at equal positions, d = degree (with shifts) */
    KM_KERNEL_RANK1 = 10      /* one feature, centred and scaled to trace 1 on the training rows:
                                 (x_j - mean_j)(x'_j - mean_j) / ||x_j - mean_j||^2 */
} km_kernel_type;

typedef enum km_normalization {
    KM_NORM_NONE = 0,
    KM_NORM_MULTIPLICATIVE = 1, /* k / c, c = mean k(x,x) - mean k(x,x')  (unit variance in feature space) */
    KM_NORM_SPHERICAL = 2,      /* k(x,x') / sqrt(k(x,x) k(x',x')) */
    KM_NORM_TRACE = 3           /* k / (tr K / n) */
} km_normalization;

/* A kernel set: M base kernels, each a formula on all features or a feature subset, with its
 * normalization. Data-dependent values (default widths, normalization constants) are fitted on the
 * training rows by km_train and stored in the model. */
typedef struct km_kernel_set km_kernel_set;

KM_API km_status km_kernel_set_new(km_kernel_set **out);
KM_API void km_kernel_set_free(km_kernel_set *set);

/* Adds the kernels a spec expands to. Grammar (see docs/kernels.md):
 *   SPEC   := TYPE [':' OPTION]*        TYPE := linear|poly|rbf|sigmoid|chi2|histint|precomputed|
 *                                               spectrum|wd|positional
 *   OPTION := KEY '=' VALUES            VALUES := VALUE (',' VALUE)* | a..b | B^a..B^b
 * keys: gamma, sigma, degree, coef0, features (e.g. 1-10,15 or "each"), norm
 * (none|mult|spherical|trace), center (0|1), file (precomputed), k (spectrum: the k-mer length),
 * shift (wd, positional: the largest shift). A list or range of values expands to
 * one kernel per value (the cross product when several keys have lists); "features=each" gives one
 * kernel per feature. gamma=auto (default for rbf) is 1/mean ||x-x'||^2; a value followed by "/mean"
 * is relative to that mean (rbf) or to the mean chi^2 distance (chi2). */
KM_API km_status km_kernel_set_add_spec(km_kernel_set *set, const char *spec);
/* Tells the set the number of features of the data it will be used with (0: unknown, the default).
 * Needed for "features=each"; with it, feature indices beyond the dimension are rejected. */
KM_API km_status km_kernel_set_set_dimension(km_kernel_set *set, size_t n_features);
/* The normalization of the specs added from now on that name none (norm=); KM_NORM_NONE by default. */
KM_API km_status km_kernel_set_set_default_norm(km_kernel_set *set, km_normalization norm);
/* Makes the kernels of the specs added from now on that have a low-rank form (linear, poly, rbf,
 * sigmoid) and name no rank= low-rank, as rank=RANK (0: exact, the default) with sampling=SAMPLING
 * ("uniform", "kmeans++" or "leverage"; NULL: uniform) or, with icd_tolerance in (0, 1), icd=TOL
 * (docs/kernels.md, "Low-rank kernels"). Keys a spec names override these. */
KM_API km_status km_kernel_set_set_default_low_rank(km_kernel_set *set, size_t rank, const char *sampling,
                                                   double icd_tolerance);
/* Adds every spec of a file, one per line; blank lines and lines starting with '#' are skipped. */
KM_API km_status km_kernel_set_add_file(km_kernel_set *set, const char *path);
/* Adds one precomputed kernel backed by the caller's n×n training matrix (not copied, not freed;
 * it must outlive every use of the set). */
KM_API km_status km_kernel_set_add_matrix(km_kernel_set *set, const km_matrix *train_kernel, km_normalization norm,
                                          int center);
/* Fits the data-dependent values of a set (default widths, normalization constants) on the rows of
 * train and returns the fitted copy (free with km_kernel_set_free). */
KM_API km_status km_kernel_set_fit(const km_kernel_set *set, const km_dataset *train, km_kernel_set **fitted);
/* Matrix of fitted kernel m between the rows of a and the training rows b it was fitted on
 * (a = b gives the normalized training Gram matrix). Precomputed kernels return their training matrix
 * (a must then be the training data). */
KM_API km_status km_kernel_matrix(const km_kernel_set *fitted, size_t m, const km_dataset *a, const km_dataset *b,
                                  km_matrix **out);
/* Number of base kernels M. */
KM_API size_t km_kernel_set_size(const km_kernel_set *set);
/* Canonical spec of kernel m (e.g. "rbf:gamma=0.03125:features=1-10:norm=mult") into buf;
 * returns the full length like snprintf. */
KM_API size_t km_kernel_set_describe(const km_kernel_set *set, size_t m, char *buf, size_t size);
/* Centred kernel alignment (Cortes, Mohri & Rostamizadeh, "Algorithms for Learning Kernels Based on
 * Centered Alignment", JMLR 2012, Definitions 1 and 2) of M kernel matrices on the same n rows:
 * A(K, L) = <K_c, L_c>_F / (||K_c||_F ||L_c||_F), K_c = H K H, H = I - 11'/n.
 *   matrix  M x M values, row-major: A(K_a, K_b) (NULL: not computed);
 *   target  M values: A(K_m, Y Y') for the n x n_targets row-major matrix Y: one column of real targets
 *           (Y Y' = y y'), or one indicator column per class (Y Y' = [y_i = y_j], the "same class"
 *           kernel) as the model diagnostics use (NULL: not computed; targets may then be NULL).
 * Every kernel must be n x n, finite and symmetric (to 1e-8 relative), float64 or float32.
 * KM_EINVAL naming the kernel otherwise, and where an alignment asked for is undefined: a kernel, or
 * Y Y', that is constant after centring. */
KM_API km_status km_kernel_alignment(const km_matrix *const *kernels, size_t M, size_t n_targets,
                                     const double *targets, double *matrix, double *target);

/* ------------------------------------------------------------------------------------------------
 * Training
 * ---------------------------------------------------------------------------------------------- */

typedef enum km_task {
    KM_TASK_SVC = 1,       /* C-support vector classification */
    KM_TASK_SVR = 2,       /* epsilon-support vector regression */
    KM_TASK_ONECLASS = 3,  /* one-class SVM, nu-parametrised */
    KM_TASK_NU_SVC = 4,    /* nu-support vector classification (fixed kernel weights only) */
    KM_TASK_NU_SVR = 5,    /* nu-support vector regression (fixed kernel weights only) */
    KM_TASK_KRR = 6        /* kernel ridge regression: min 1/2 ||w||^2 + C/2 sum_i (y_i - f(x_i))^2, i.e.
                              ridge lambda = 1/C; with a bias (KM_PARAM_KRR_BIAS) the bias is not
                              regularized, which equals centred kernels and centred targets */
} km_task;

/* 1 when the task predicts class labels (C-SVC, nu-SVC), resp. real values (epsilon-SVR, nu-SVR). */
KM_API int km_task_classifies(km_task task);
KM_API int km_task_regresses(km_task task);

typedef enum km_multiclass {
    KM_MULTICLASS_OVO = 0,
    KM_MULTICLASS_OVR = 1,
    KM_MULTICLASS_JOINT = 2   /* one machine with one output per class, label = largest output (set by
                                 methods with a multiclass loss: KM_MKL_OBSCURE) */
} km_multiclass;

/* How the kernel weights are obtained. */
typedef enum km_mkl_method {
    KM_MKL_FIXED = 0,         /* given weights (km_params_set_kernel_weights) or the uniform sum */
    KM_MKL_LP = 1,            /* lp-norm MKL: weights theta >= 0 with ||theta||_p = 1, learned jointly */
    KM_MKL_ELASTICNET = 2,    /* elastic net between l1 MKL (lambda = 0) and the uniform sum (lambda = 1) */
    KM_MKL_TIKHONOV = 3,      /* penalised (Tikhonov) form of a block-norm regularizer (KM_PARAM_REGULARIZER
                                 and KM_PARAM_REG_PARAM): min sum_m g(||f_m||^2) + C sum loss */
    /* Alignment-based and KRR kernel learning (Cortes, Mohri & Rostamizadeh; Rostamizadeh's thesis
     * ch. 2-3; docs/krr-alignment.md). The two-stage methods compute weights mu >= 0 from the centred
     * alignment with the labels, scale them to sum_k mu_k = KM_PARAM_MKL_RADIUS and train the task
     * once on the combination; l2krr and l1krr learn mu jointly with KRR (KM_TASK_KRR only). */
    KM_MKL_ALIGN = 10,        /* mu_k = centred alignment of K_k with yy' (independent alignment) */
    KM_MKL_ALIGN_Q = 11,      /* maximise <K_mu, yy'> s.t. ||mu||_q <= 1 (KM_PARAM_ALIGN_Q, q > 1) */
    KM_MKL_ALIGNF = 12,       /* maximise the centred alignment of K_mu over mu >= 0 (an exact NNLS) */
    KM_MKL_ALIGNF_LINEAR = 13,/* the same without the sign constraint, M^-1 a; refused when a weight is
                                 negative (the combination is then no kernel) */
    KM_MKL_L2KRR = 14,        /* min_mu y'(K_mu + lambda I)^-1 y over mu >= 0, ||mu - mu0||_2 <= radius */
    KM_MKL_L1KRR = 15,        /* the same over mu >= 0, sum_k mu_k = radius */
    /* Empirical-Bayes MKL (KM_TASK_KRR only; Tomioka & Suzuki §4): d and optionally the noise variance
     * maximise the Gaussian-process evidence of y - mean(y) with covariance sum_m d_m K_m + sigma^2 I */
    KM_MKL_EB_RW = 20,        /* the reweighted block-1 iteration (KM_PARAM_EB_INNER steps per tangent) */
    KM_MKL_EB_MACKAY = 21,    /* MacKay's fixed-point update d_m <- d_m Q_m / T_m, safeguarded */
    /* OBSCURE (Orabona, Jie & Caputo, "Multi Kernel Learning with Online-Batch Optimization"):
     * min lambda/2 ||w||_{2,p_block}^2 + 1/N sum loss, lambda = 1/(C N), by an online pass (Alg. 1)
     * and stochastic mirror descent (Alg. 2); hinge loss for two classes, the Crammer-Singer loss for
     * more, in one machine with one output per class (KM_MULTICLASS_JOINT); C-SVC only */
    KM_MKL_OBSCURE = 30,
    /* Localized MKL (Lei, Binder, Dogan & Kloft, "Localized Multiple Kernel Learning - A Convex
     * Approach"; docs/clmkl.md): a kernel k-means partition of the training rows (KM_PARAM_CLUSTERS,
     * KM_PARAM_CLUSTER_KERNEL) gives memberships c_j(x), and each cluster j learns its own weights
     * beta_j >= 0, ||beta_j||_p <= 1, in f(x) = sum_j c_j(x) sum_m <w_jm, phi_m(x)> + b. C-SVC and
     * epsilon-SVR; more than two classes one-vs-rest. The model keeps M x clusters weights. */
    KM_MKL_CLMKL = 40,        /* soft memberships c_j(x) ~ exp(-tau d^2(x, centre_j)), tau from
                                 KM_PARAM_CLUSTER_TAU or the average evenness KM_PARAM_CLUSTER_AE */
    KM_MKL_HLMKL = 41,        /* the same with hard memberships (tau = infinity) */
    KM_MKL_LMKL = 42          /* Gonen & Alpaydin's gated LMKL (non-convex baseline): per-row softmax gates
                                 eta_m(x) on a kernelized gating (KM_PARAM_CLUSTER_KERNEL), learned by
                                 gradient descent; M x M weights (group m: kernel m) */
} km_mkl_method;

/* The centre mu0 of l2krr's ball. */
typedef enum km_mu0 {
    KM_MU0_ZERO = 0,          /* mu0 = 0 */
    KM_MU0_UNIFORM = 1,       /* mu0_k = radius / sqrt(M) */
    KM_MU0_GIVEN = 2          /* mu0 = the kernel weights (km_params_set_kernel_weights) */
} km_mu0;

/* align's weight of a rank-1 kernel x_k x_k' (Rostamizadeh's thesis: Eq. 3.5 gives the squared
 * correlation of feature k with the labels; Fig. 2.2 is described with weights proportional to the
 * correlation itself). */
typedef enum km_rank1_weight {
    KM_RANK1_WEIGHT_CORR2 = 0,  /* mu_k = rho(K_k, yy') = corr(x_k, y)^2 (Eq. 3.5) */
    KM_RANK1_WEIGHT_CORR = 1    /* mu_k = |corr(x_k, y)| */
} km_rank1_weight;

/* Regularizers of the Tikhonov form (Tomioka & Suzuki, Table 1; docs/mkl.md), with the closed-form
 * kernel weights d_m they give and the meaning of reg_param (0: the default in brackets). */
typedef enum km_mkl_regularizer {
    KM_REG_LQ = 0,            /* l_q kernel weights, d = ||f_m||^{2/(1+q)}; reg_param q >= 1 or INFINITY [2] */
    KM_REG_BLOCK1 = 1,        /* block 1-norm, d = ||f_m||; no parameter */
    KM_REG_UNIFORM = 2,       /* block 2-norm, d = 1 (the plain SVM on the sum); no parameter */
    KM_REG_ELASTICNET = 3,    /* (1-lambda) ||f_m|| + lambda/2 ||f_m||^2; KM_PARAM_LAMBDA in [0,1] */
    KM_REG_BLOCKP = 4         /* block p-norm, p > 2, 1/p ||f_m||^p; reg_param p [4] */
} km_mkl_regularizer;

/* How lp-norm MKL is solved (all reach the same optimum). */
typedef enum km_mkl_solver {
    KM_MKL_INTERLEAVED = 0,   /* theta steps inside the SMO iterations (default) */
    KM_MKL_WRAPPER = 1,       /* alternate full SVM solves and closed-form theta steps */
    KM_MKL_SILP = 2,          /* cutting planes: LP master (GLPK) for p = 1, second-order master for p > 1 */
    KM_MKL_SIMPLEMKL = 3,     /* reduced-gradient descent on the simplex (p = 1) */
    KM_MKL_PEGASOS = 4,       /* KM_MKL_OBSCURE: Pegasos-MKL, the stochastic stage alone (R = infinity) */
    KM_MKL_SIMPLEX = 5        /* p = 1 on rank-1 kernels (C-SVC): linear programs by GLPK's simplex */
} km_mkl_solver;

/* Where training or cross-validation is, reported whole at every event (so each report can be shown
 * alone). stage names the event: "kernels" before the kernels are fitted on the training rows (their
 * widths, normalization and Gram blocks), "start" when a machine starts (mkl_step 0), "solver" every 100
 * solver iterations, "mkl" after each outer step of kernel-weight learning, "machine" after each
 * machine, "fold" after each cross-validation fold, "alignment" every few kernel columns of the alignment
 * diagnostics that kernel-weight learning computes before its first machine. */
typedef struct km_progress {
    size_t size;                 /* sizeof(km_progress) in the library that filled it: a caller compiled
                                    with a larger struct reads only the fields that fit */
    const char *stage;
    size_t machine, n_machines;  /* the machine being trained, 1-based, of n_machines (0: not yet;
                                    machine 0 of n: multiclass MKL training all n jointly) */
    long mkl_step;               /* outer MKL steps of this machine so far (0: none) */
    double mkl_gap;              /* relative duality gap (P - D)/|P| after the last step, a bound (NAN:
                                    none yet, or the method certifies none) */
    int fold, n_folds;           /* cross-validation: the fold, 1-based, of n_folds (0: none) */
    /* The record of the last outer MKL step, for traces (stage "mkl"; NAN where the method has none): */
    double seconds;              /* since training (or cross-validation) began */
    double mkl_objective;        /* the objective the kernel-weight method lowers at this step */
    double mkl_dual, mkl_primal; /* the certificate's dual value D and primal value P */
    const double *mkl_weights;   /* the step's kernel weights (mkl_n_weights values: M, or M x clusters
                                    for localized models, cluster by cluster; NULL: none) */
    size_t mkl_n_weights;
} km_progress;
/* Progress callback; return non-zero to stop (the call then fails with KM_EINTERRUPTED and produces
 * no model). The report is valid during the call only. */
typedef int (*km_progress_fn)(void *user, const km_progress *progress);

/* Storage of cached kernel values in the solver of a fixed combination, and of the low-rank kernels'
 * features for every method (the solvers compute in double either way). Floats hold twice the values
 * per MiB; results then differ from double in the last digits (objective ~1e-7 relative). */
typedef enum km_cache_values {
    KM_CACHE_AUTO = 0,           /* double when the whole N×N kernel matrix (the features) fits in
                                    cache_mb as double, float otherwise */
    KM_CACHE_DOUBLE = 1,
    KM_CACHE_FLOAT = 2
} km_cache_values;

/* Training parameters: an opaque handle whose values are set by id. Every parameter has a default
 * (in brackets below), so a handle from km_params_new trains a C-SVC on the uniform sum of kernels. */
typedef struct km_params km_params;

typedef enum km_enum {
    KM_ENUM_TASK = 1,             /* km_task */
    KM_ENUM_MULTICLASS = 2,       /* km_multiclass */
    KM_ENUM_MKL_METHOD = 3,       /* km_mkl_method */
    KM_ENUM_MKL_SOLVER = 4,       /* km_mkl_solver */
    KM_ENUM_MKL_REGULARIZER = 5,  /* km_mkl_regularizer */
    KM_ENUM_KERNEL_TYPE = 6,      /* km_kernel_type */
    KM_ENUM_NORMALIZATION = 7,    /* km_normalization */
    KM_ENUM_CACHE_VALUES = 8,     /* km_cache_values */
    KM_ENUM_MU0 = 9,              /* km_mu0 */
    KM_ENUM_RANK1_WEIGHT = 10,    /* km_rank1_weight */
    KM_ENUM_SCORE = 11            /* km_score */
} km_enum;

/* Parameter ids (stable numbers). INT parameters are set with km_params_set_int, the others with
 * km_params_set_double; km_param_bounds gives each one's range. */
typedef enum km_param {
    KM_PARAM_TASK = 1,            /* INT km_task [KM_TASK_SVC] */
    KM_PARAM_C = 2,               /* loss weight of C-SVC, SVR and nu-SVR, > 0 [1] */
    KM_PARAM_EPSILON = 3,         /* SVR tube half-width, >= 0 [0.1] */
    KM_PARAM_NU = 4,              /* nu of one-class, nu-SVC, nu-SVR, in (0, 1] [0.5] */
    KM_PARAM_TOLERANCE = 5,       /* SMO stopping tolerance on the KKT violation (-e), > 0 [1e-3] */
    KM_PARAM_SHRINKING = 6,       /* INT 0 or 1 [1] */
    KM_PARAM_CACHE_MB = 7,        /* kernel cache in MiB (-m), > 0 [100] */
    KM_PARAM_CACHE_VALUES = 8,    /* INT km_cache_values: how the fixed combination's solver stores
                                     kernel values [KM_CACHE_AUTO] */
    KM_PARAM_MULTICLASS = 9,      /* INT km_multiclass [KM_MULTICLASS_OVO] */
    KM_PARAM_MAX_ITER = 10,       /* INT SMO iteration limit; 0: LIBSVM's default max(10^7, 100 n) [0] */
    KM_PARAM_SEED = 11,           /* INT randomness (fold assignment, subsampling); same seed, same
                                     result [0] */
    KM_PARAM_PROBABILITY = 12,    /* INT 1: also fit probability models by 5-fold internal
                                     cross-validation, LIBSVM's -b 1 (km_predict_probability;
                                     C-SVC and nu-SVC with one-vs-one, epsilon-SVR, nu-SVR) [0] */
    /* Multiple kernel learning. Two conventions for p (docs/mkl.md has the table):
     *   p        the norm on the kernel weights theta, ||theta||_p = 1 (p = 1 sparse, p = INFINITY
     *            uniform);
     *   p_block  the block norm on w, ||w||_{2,p_block}; p_block = 2p/(p+1), so p in [1, inf] is
     *            p_block in [1, 2], and p_block in (2, inf] (reachable only this way) favours equal
     *            block norms. */
    KM_PARAM_MKL_METHOD = 20,     /* INT km_mkl_method [KM_MKL_FIXED] */
    KM_PARAM_P = 21,              /* >= 1 or INFINITY [2] */
    KM_PARAM_P_BLOCK = 22,        /* 0: use p; otherwise this block norm, >= 1 or INFINITY [0] */
    KM_PARAM_LAMBDA = 23,         /* elastic net, in [0, 1] [0.5] */
    KM_PARAM_MKL_SOLVER = 24,     /* INT km_mkl_solver [KM_MKL_INTERLEAVED] */
    KM_PARAM_MKL_GAP = 25,        /* stop at this relative duality gap (P - D)/|P|, > 0 [1e-3] */
    KM_PARAM_MKL_EPS = 26,        /* interleaved: theta step while |1 - D/D_prev| >= eps, > 0 [1e-5] */
    KM_PARAM_MKL_MAX_OUTER = 27,  /* INT theta steps (interleaved) or outer iterations, >= 1 [10000] */
    KM_PARAM_MKL_MAX_TIME = 28,   /* seconds per machine, 0: none [0]; on reaching it or max_outer
                                     training ends with the best point so far and the machine reports
                                     converged = 0 */
    KM_PARAM_SHARED_WEIGHTS = 29, /* INT multiclass: 1: one theta for all binary machines, learned
                                     jointly (wrapper solver); 0: each binary machine learns its own [0] */
    KM_PARAM_REGULARIZER = 30,    /* INT km_mkl_regularizer of KM_MKL_TIKHONOV [KM_REG_LQ] */
    KM_PARAM_REG_PARAM = 31,      /* q (KM_REG_LQ) or p (KM_REG_BLOCKP); 0: the regularizer's default;
                                     checked against the regularizer by km_train [0] */
    KM_PARAM_MKL_THETA_TOL = 32,  /* interleaved: stop only when, besides the gap, the theta step at the
                                     certified point would move no weight (unit norm) by more than this;
                                     1: the gap alone, >= 0 [1e-4] */
    /* Kernel ridge regression (KM_TASK_KRR) */
    KM_PARAM_KRR_BIAS = 40,       /* INT 1: an unregularized bias (the solution sums to 0); 0: none [1] */
    /* Alignment-based and KRR kernel learning (KM_MKL_ALIGN ... KM_MKL_L1KRR) */
    KM_PARAM_ALIGN_Q = 41,        /* q of KM_MKL_ALIGN_Q, > 1 [2] */
    KM_PARAM_MKL_RADIUS = 42,     /* Lambda: the sum of two-stage and l1krr weights, the radius of
                                     l2krr's ball, > 0 [1] */
    KM_PARAM_L2KRR_ETA = 43,      /* l2krr's interpolation eta of Algorithm 1, in [0, 1) [0.25];
                                     l2krr stops when ||alpha' - alpha|| <= KM_PARAM_MKL_EPS ||alpha|| */
    KM_PARAM_MU0 = 44,            /* INT km_mu0: centre of l2krr's ball [KM_MU0_ZERO] */
    KM_PARAM_RANK1_WEIGHT = 45,   /* INT km_rank1_weight: align's weights of rank-1 kernels
                                     [KM_RANK1_WEIGHT_CORR2] */
    /* Empirical-Bayes MKL (KM_MKL_EB_RW, KM_MKL_EB_MACKAY) */
    KM_PARAM_EB_NOISE = 50,       /* the noise variance sigma^2 >= 0; 0: 0.1 var(y) [0]; with
                                     KM_PARAM_EB_LEARN_NOISE the starting value */
    KM_PARAM_EB_LEARN_NOISE = 51, /* INT 1: learn sigma^2 too (at least 1e-6 var(y)); 0: keep it [0] */
    KM_PARAM_EB_INNER = 52,       /* INT eb-rw: weight steps per tangent, >= 1 (1: the one-step variant) [100] */
    KM_PARAM_EB_TOL = 53,         /* stop when -log evidence changes by at most this, relative, > 0 [1e-10] */
    /* OBSCURE (KM_MKL_OBSCURE). Its p is p_block in (1, 2]; with neither p nor p_block set (p = 2,
     * p_block = 0) p_block = q/(q-1), q = max(2, 2 ln M) */
    KM_PARAM_OBSCURE_EPOCHS = 80, /* INT epochs of the stochastic stage (Alg. 2) at most, >= 0 [50] */
    KM_PARAM_OBSCURE_ONLINE_EPOCHS = 81, /* INT at most this many epochs of the online stage (Alg. 1),
                                     which also stops after an epoch without updates, >= 0 [5] */
    KM_PARAM_OBSCURE_ETA = 82,    /* step of the online stage, > 0; 0: M^(-2/q) [0] */
    KM_PARAM_OBSCURE_RADIUS = 83, /* R of the projection ||w||_{2,p} <= R; 0: from the online stage,
                                     at most sqrt(2/lambda); INFINITY: no projection [0] */
    KM_PARAM_OBSCURE_T0 = 84,     /* INT first step counter of the stochastic stage minus 1; -1: the
                                     online stage's steps [-1] */
    KM_PARAM_OBSCURE_TOL = 85,    /* stop the stochastic stage when the certified relative duality gap
                                     of the best iterate is at most this; 0: run every epoch [1e-2] */
    KM_PARAM_OBSCURE_TRACE = 86,  /* INT 1: evaluate the objective and training error after every
                                     epoch and log them (costs one pass over the rows) [0] */
    /* Localized MKL (KM_MKL_CLMKL, KM_MKL_HLMKL) */
    KM_PARAM_CLUSTERS = 100,      /* INT clusters l of the kernel k-means partition, >= 1 [3] */
    KM_PARAM_CLUSTER_AE = 101,    /* average evenness of the soft memberships, in (0, 1]; tau is chosen by
                                     bisection to reach it (values <= 1/l give hard memberships) [0.5] */
    KM_PARAM_CLUSTER_TAU = 102,   /* tau of c_j(x) ~ exp(-tau d^2), >= 0 or INFINITY; negative: chosen
                                     from KM_PARAM_CLUSTER_AE [-1] */
    KM_PARAM_CLUSTER_KERNEL = 103,/* INT kernel the partition is computed on: 0 the mean of the learned
                                     kernels, k >= 1 kernel k of the set [0] */
    KM_PARAM_CLUSTER_ONLY = 104,  /* INT 1: kernel KM_PARAM_CLUSTER_KERNEL only clusters (its weights
                                     stay 0); 0: it is learned too [0] */
    KM_PARAM_CLUSTER_RESTARTS = 105 /* INT kernel k-means restarts (seeded by KM_PARAM_SEED), >= 1 [10] */
} km_param;

/* km_param_bounds flags */
#define KM_PARAM_INTEGER 1u       /* an integer or enum parameter: km_params_set_int / get_int */
#define KM_PARAM_LOWER_OPEN 2u    /* the lower bound itself is excluded */
#define KM_PARAM_UPPER_OPEN 4u    /* the upper bound itself is excluded */
#define KM_PARAM_FRACTION 8u      /* an exponent: km_params_set_text also takes a fraction "a/b" */
#define KM_PARAM_AUTOMATIC 16u    /* the default lies outside the bounds and means an automatic choice
                                     (LIBSVM's iteration limit, p_block from p, ...); it is accepted too */

KM_API km_status km_params_new(km_params **out);
/* A deep copy (arrays included). */
KM_API km_status km_params_copy(const km_params *params, km_params **out);
KM_API void km_params_free(km_params *params);
/* Typed setters and getters; a value outside the bounds, an unknown id or the wrong type (an INT
 * parameter through set_double, or the converse) fails with KM_EINVAL and leaves the value as it was. */
KM_API km_status km_params_set_double(km_params *params, km_param id, double value);
KM_API km_status km_params_set_int(km_params *params, km_param id, int64_t value);
KM_API km_status km_params_get_double(const km_params *params, km_param id, double *value);
KM_API km_status km_params_get_int(const km_params *params, km_param id, int64_t *value);
/* Range of a parameter: lower <= value <= upper (bounds may be +-INFINITY), with flags KM_PARAM_*
 * (open ends, integer type); any output pointer may be NULL. KM_EINVAL for an unknown id. */
KM_API km_status km_param_bounds(km_param id, double *lower, double *upper, unsigned *flags);
/* Id of a parameter by its name, the id's suffix in lower case except "C" (e.g. "C", "epsilon",
 * "mkl_method", "p_block"), and the converse (NULL for an unknown id). */
KM_API km_status km_param_from_name(const char *name, km_param *id);
KM_API const char *km_param_name(km_param id);
/* 1 when training the task with the kernel-weight method reads parameter id, 0 when it ignores it
 * (or an id, task or method is unknown): the tasks and methods each list the parameters they read that
 * not all of them read (C, epsilon, nu; p, the solver, the stopping rules, ...); the others (the SMO
 * tolerance, the cache, the seed, ...) are read by all. km_train takes every value a km_params holds and
 * ignores the unread ones; the CLI refuses an option the run would ignore with this answer. */
KM_API int km_param_read_by(km_param id, km_task task, km_mkl_method method);
/* Sets parameter id from a value as users write it: a number (1e-3, 2^-5; "inf" where the upper bound
 * is an included infinity; for a KM_PARAM_FRACTION parameter also "4/3"), an integer, or an
 * enumeration's value by name. KM_EINVAL, with a message naming the parameter, leaves it as it was. */
KM_API km_status km_params_set_text(km_params *params, km_param id, const char *text);
/* The parameters one by one: the id of the index-th, 0 past the last. */
KM_API km_param km_param_at(size_t index);

/* What describes a parameter (km_param_describe): everything a generated interface needs. */
typedef struct km_param_info {
    size_t size;                  /* sizeof(km_param_info), set by the caller (KM_PARAM_INFO_INIT) */
    km_param id;
    const char *name;             /* km_param_name */
    double lower, upper;          /* km_param_bounds */
    unsigned flags;
    double default_value;         /* of an enumeration: its value; of an automatic choice: 0 (help says) */
    km_enum enumeration;          /* 0: not an enumeration */
    /* The command line's options, "|"-separated, the preferred first and aliases after (NULL: none); the
     * name of its value in help texts (NULL: a switch without a value, which sets switch_value). */
    const char *options;
    const char *value_name;
    double switch_value;
    const char *help;             /* one paragraph, not wrapped */
} km_param_info;
#define KM_PARAM_INFO_INIT {.size = sizeof(km_param_info)}
/* Fills *info (whose size field the caller set) for parameter id; KM_EINVAL for an unknown id. */
KM_API km_status km_param_describe(km_param id, km_param_info *info);
/* Fixed kernel weights d_m of the combination sum_m d_m k_m: n values (one per kernel; km_train
 * checks the count), each >= 0, not all zero; copied. weights NULL (n = 0): uniform 1 again. */
KM_API km_status km_params_set_kernel_weights(km_params *params, const double *weights, size_t n);
/* The kernel weights set (NULL when uniform), their number into *n (may be NULL). */
KM_API const double *km_params_kernel_weights(const km_params *params, size_t *n);
/* Class weights: C of class labels[k] is multiplied by weights[k] > 0; n pairs, copied (n = 0: none). */
KM_API km_status km_params_set_class_weights(km_params *params, const double *labels, const double *weights, size_t n);
/* The number of class weights; *labels and *weights (either may be NULL) receive the arrays. */
KM_API size_t km_params_class_weights(const km_params *params, const double **labels, const double **weights);
/* Log and progress callbacks (fn NULL: none, the default) with the pointer passed back to them. */
KM_API void km_params_set_log(km_params *params, km_log_fn fn, void *user);
KM_API void km_params_set_progress(km_params *params, km_progress_fn fn, void *user);

typedef struct km_model km_model;

/* Trains on the labelled dataset with the kernel set (whose data-dependent values are fitted and
 * copied into the model; the set itself is not modified). Precomputed kernels refer to training rows
 * by position: row i of the dataset is row/column i of every precomputed matrix. For a dataset read
 * with KM_READ_PRECOMPUTED, a "precomputed" kernel without a file takes its values from the rows
 * themselves (LIBSVM's -t 4). */
KM_API km_status km_train(const km_dataset *train, const km_kernel_set *kernels, const km_params *params,
                          km_model **out);
/* km_train with the rows split over the processes of an MPI run (`mpirun -n K`; docs/large-scale.md,
 * "Several processes and hosts"): every process calls it with the whole dataset; each takes a contiguous
 * range of the rows. Rank 0 fits the low-rank kernels' landmarks and projections on all rows and sends
 * them to the others, each computes the features of its own rows, and the solver adds only sums of the
 * features' dimensions over the processes. Needs every kernel low-rank (rank=, no leverage-score
 * landmarks; no centring and no fitted multiplicative or trace constant), and kernel ridge regression,
 * C-SVC or epsilon-SVR (one machine, or one-vs-rest machines), with fixed kernel weights or, on
 * machines without bias, lp-norm or elastic-net weights by the wrapper solver.
 * *out is the model on rank 0 and NULL on the others; one process alone is km_train. */
KM_API km_status km_train_data_parallel(const km_dataset *train, const km_kernel_set *kernels,
                                        const km_params *params, km_model **out);

/* ------------------------------------------------------------------------------------------------
 * Prediction
 * ---------------------------------------------------------------------------------------------- */

/* Number of decision values per row: 1 for binary, SVR and one-class; k(k-1)/2 for one-vs-one and k
 * for one-vs-rest with k classes. */
KM_API size_t km_model_n_decision(const km_model *model);

/* Predicts the rows of test. test_kernels has one entry per kernel of the model (M entries, in kernel
 * order): for a precomputed kernel from a file, the matrix of kernel values between test rows and
 * training rows (rows = test rows, cols = training rows); NULL for every other kernel. test_kernels
 * itself may be NULL when the model has no precomputed kernel from a file.
 * labels: n_test outputs (class label, or regression value, or +1/-1 for one-class);
 * decision: NULL or n_test × km_model_n_decision values, row-major. */
KM_API km_status km_predict(const km_model *model, const km_dataset *test, const km_matrix *const *test_kernels,
                            double *labels, double *decision);
/* The same for the count rows of test from row first on (test_kernels still cover all of test):
 * labels receives count values, decision count × km_model_n_decision. Predicting a large test set
 * range by range lets a caller show progress; the results equal km_predict's rows. Each call
 * prepares the model anew (on low-rank and rank-1 kernels a pass over the support rows), so ranges
 * of a few hundred rows or more keep that cost small. */
KM_API km_status km_predict_range(const km_model *model, const km_dataset *test, size_t first, size_t count,
                                  const km_matrix *const *test_kernels, double *labels, double *decision);

/* Probability outputs of a model trained with KM_PARAM_PROBABILITY = 1 (LIBSVM's -b 1; docs/user-guide.md
 * "Probability outputs"). Classification: per binary machine the sigmoid P(positive | f) =
 * 1/(1 + exp(A f + B)) of Platt scaling fitted on 5-fold cross-validated decision values, coupled over
 * the one-vs-one pairs for more than two classes (Wu, Lin & Weng 2004, method 2). Regression: the
 * width sigma of Laplace noise, y = f(x) + z with density exp(-|z|/sigma)/(2 sigma). One-class models
 * have none. */
/* 1 when the model holds probability models, 0 otherwise (and for NULL). */
KM_API int km_model_has_probability(const km_model *model);
/* Class probabilities of the rows of test (test_kernels as in km_predict): probabilities receives
 * n_test x km_model_n_classes values, row-major, column c for class km_model_labels(model)[c], each row
 * summing to 1; labels (may be NULL) the most probable class of each row (ties to the lower column),
 * which can differ from km_predict's vote. KM_EINVAL when the model has no class probabilities (trained
 * without them, regression, one-class); nothing is written then. */
KM_API km_status km_predict_probability(const km_model *model, const km_dataset *test, const km_matrix *const *test_kernels,
                                        double *labels, double *probabilities);
/* The same from decision values already computed (n rows of km_model_n_decision values, as km_predict
 * writes them), e.g. by km_predict_range. */
KM_API km_status km_probability_from_decision(const km_model *model, size_t n, const double *decision, double *labels,
                                              double *probabilities);
/* The sigmoid of binary machine `machine` (KM_EINVAL when the model has none). */
KM_API km_status km_model_sigmoid(const km_model *model, size_t machine, double *A, double *B);
/* The Laplace width of a regression model's residuals (KM_EINVAL when the model has none). */
KM_API km_status km_model_laplace_sigma(const km_model *model, double *sigma);

/* Predictive variance of empirical-Bayes models (KM_MKL_EB_RW, KM_MKL_EB_MACKAY; docs/blocknorm-bayes.md),
 * whose targets, centred by their mean, are read as a Gaussian process with covariance sum_m d_m k_m
 * plus noise sigma^2 I. 1 when km_predict_variance serves the model, 0 otherwise (and for NULL). */
KM_API int km_model_has_variance(const km_model *model);
/* The GP posterior variance of the latent function at the rows of test, n_test values:
 * sum_m d_m k_m(x, x) - k_x'(K_d + sigma^2 I)^-1 k_x, k_x = sum_m d_m k_m(X, x) over the training rows X (the noise variance sigma^2 of a new target comes on top). KM_EINVAL when the model has
 * none, or when a kernel is precomputed or centred (k(x, x) and the centring are not known for new rows). */
KM_API km_status km_predict_variance(const km_model *model, const km_dataset *test, double *variance);

/* ------------------------------------------------------------------------------------------------
 * Models
 * ---------------------------------------------------------------------------------------------- */

/* Writes the model atomically (temporary file, fsync, rename): a reader never sees half a model. */
KM_API km_status km_model_save(const km_model *model, const char *path);
/* Reads a model; a truncated, corrupt (checksum) or newer-version file fails with KM_EFORMAT. */
KM_API km_status km_model_load(const char *path, km_model **out);
KM_API void km_model_free(km_model *model);

KM_API km_task km_model_task(const km_model *model);
KM_API size_t km_model_n_kernels(const km_model *model);
/* Canonical spec of kernel m with its fitted values (see km_kernel_set_describe). */
KM_API size_t km_model_kernel_describe(const km_model *model, size_t m, char *buf, size_t size);
/* Number of classes (0 for SVR and one-class) and their labels in model order. */
KM_API size_t km_model_n_classes(const km_model *model);
KM_API const double *km_model_labels(const km_model *model);
/* Number of binary or regression machines (1 except multiclass), and per machine: kernel weights
 * (M values), number of support vectors, dual objective value, bias b (f(x) = sum ... + b). */
KM_API size_t km_model_n_machines(const km_model *model);
KM_API const double *km_model_kernel_weights(const km_model *model, size_t machine);
KM_API size_t km_model_n_sv(const km_model *model, size_t machine);
KM_API double km_model_objective(const km_model *model, size_t machine);
KM_API double km_model_bias(const km_model *model, size_t machine);
/* Kernel-weight sets per machine: 1, or the clusters l of a localized model (KM_MKL_CLMKL,
 * KM_MKL_HLMKL), whose km_model_kernel_weights are then M x l values, cluster j's at [j M, j M + M). */
KM_API size_t km_model_weight_groups(const km_model *model);
/* The clustering of localized MKL on its own (docs/clmkl.md): kernel k-means of data's rows on the
 * clustering kernel of params (KM_PARAM_CLUSTERS, KM_PARAM_CLUSTER_KERNEL, KM_PARAM_CLUSTER_RESTARTS,
 * KM_PARAM_SEED) over the kernels of set (fitted on data), and the soft memberships with tau from
 * KM_PARAM_CLUSTER_TAU or KM_PARAM_CLUSTER_AE. labels: n values (cluster 0..l-1), memberships: n x l
 * row-major (rows sum to 1), *tau the tau used (INFINITY: hard). */
KM_API km_status km_cluster(const km_dataset *data, const km_kernel_set *kernels, const km_params *params,
                            size_t *labels, double *memberships, double *tau);
/* Type of kernel m (KM_EINVAL when m >= km_model_n_kernels), and for precomputed kernels the training
 * matrix file it came from (NULL when the values come from precomputed-kernel data rows, LIBSVM's 0:id
 * convention, for other kernels and for m out of range). */
KM_API km_status km_model_kernel_type(const km_model *model, size_t m, km_kernel_type *type);
KM_API const char *km_model_kernel_file(const km_model *model, size_t m);
/* Everything about one machine, for reports. */
typedef struct km_machine_info {
    size_t size;                 /* sizeof(km_machine_info) as the caller was compiled (KM_MACHINE_INFO_INIT) */
    double objective;            /* dual objective in LIBSVM's convention (minimised); with MKL -D,
                                    D the MKL dual value */
    double bias;
    size_t n_sv;
    long iterations;
    int converged;               /* 0: stopped at an iteration or time limit */
    double primal;               /* MKL: primal objective P of the final point (NAN without MKL) */
    double gap;                  /* MKL: relative duality gap (P - D)/|P| (NAN without MKL) */
    long mkl_iterations;         /* MKL: theta steps or outer iterations (0 without MKL) */
    double positive_label;       /* classification: label of f > 0 ... */
    double negative_label;       /* ... and of f < 0 (NAN: "the rest" in one-vs-rest); NAN otherwise */
} km_machine_info;
#define KM_MACHINE_INFO_INIT {.size = sizeof(km_machine_info)}
/* Fills the fields of *info that fit in info->size. */
KM_API km_status km_model_machine_info(const km_model *model, size_t machine, km_machine_info *info);
/* How the model was trained, as a new parameter handle (free with km_params_free): task, C, epsilon,
 * nu, tolerance, multiclass and the kernel-weight learning (method KM_MKL_FIXED when none; p and
 * p_block both filled in); the other parameters have their defaults. */
KM_API km_status km_model_params(const km_model *model, km_params **out);
/* Total distinct support vectors over all machines. */
KM_API size_t km_model_n_sv_total(const km_model *model);
/* The CSV layout of the rows the model was trained on: fields per line (the label's included) and
 * the label column in km_csv_options' convention (0-based, KM_CSV_NO_LABEL), as read test rows must
 * have it. KM_EINVAL when the model was not trained on CSV rows. */
KM_API km_status km_model_csv_layout(const km_model *model, size_t *fields, int *label_column);

/* Values a kernel-weight method keeps in the model beyond the machines (the model file's [data NAME]
 * sections; OBSCURE's section "obscure": weights, weights_pk, objective_online, objective, radius,
 * ...): the entry key of section as a rows x cols matrix, row-major, or NULL when there is none. */
KM_API const double *km_model_data_values(const km_model *model, const char *section, const char *key, size_t *rows,
                                          size_t *cols);

/* ------------------------------------------------------------------------------------------------
 * Models in memory, datasets from memory, fold assignment (for bindings and distributed runs)
 * ---------------------------------------------------------------------------------------------- */

/* ------------------------------------------------------------------------------------------------
 * Figures (docs/plots.md): standalone SVG documents, text as SVG text, colour-blind-safe colours
 * (Okabe–Ito categories, viridis values). Each writes a new NUL-terminated document into *svg (free
 * with km_free). Marks carry classes ("bar", "cell", "series", "point", "errorbar", "best", "dropped").
 * ---------------------------------------------------------------------------------------------- */

/* The kernel weights of a model: one machine, one weight set: bars per kernel grouped by family and
 * feature subset, labelled with their widths or degrees, zero weights (kernels dropped, as empirical
 * Bayes does) marked x; several machines (multiclass) or clusters (localized MKL): a heat map of
 * machines or clusters x kernels. */
KM_API km_status km_plot_weights(const km_model *model, char **svg);
/* The trace of train --trace (the file's text, JSON lines): the objective and dual value, and below
 * the relative duality gap on a log axis, against the iteration (x_seconds: against seconds), one line
 * per machine and fold; KM_EFORMAT "line N: problem" on a bad line. */
KM_API km_status km_plot_trace(const char *text, int x_seconds, char **svg);
/* Cross-validation results (JSON lines {"options", "scores", "mean", "std"}, a last line {"best": {...}}
 * optional): the numbers of the options that vary across lines are the axes; two: a heat map of the
 * mean with the best cell outlined; one: the mean with +- std error bars against it (a log axis when
 * the values span more than a factor 20). higher_is_better: 1 for accuracy, 0 for an error, -1: from
 * the lines' "metric" (mse: lower). KM_EFORMAT naming the line on a bad line or more than two varying
 * options. */
KM_API km_status km_plot_cv(const char *text, int higher_is_better, char **svg);
/* km_plot_cv with a line per value of the option series ("--p", "--solver"; its value as written in
 * each line's options, numbers in ascending order) through the mean +- std against the one other
 * option that varies; KM_EFORMAT naming the line where the option is missing. A line {"title": "..."}
 * titles either figure. */
KM_API km_status km_plot_cv_series(const char *text, int higher_is_better, const char *series, char **svg);
/* Kernel weights against the regularization parameter of n models trained alike (p of lp-norm MKL,
 * lambda of the elastic net, from each model's parameters): a line per kernel. KM_EINVAL when the
 * models differ in their kernel count or method, or have several machines. */
KM_API km_status km_plot_path(const km_model *const *models, size_t n, char **svg);

/* The bytes km_model_save would write, in a new buffer (*buffer, *size; free with km_free). */
KM_API km_status km_model_save_buffer(const km_model *model, void **buffer, size_t *size);
/* Reads a model from the bytes of a model file (as km_model_load; the buffer is not kept). */
KM_API km_status km_model_load_buffer(const void *buffer, size_t size, km_model **out);
/* Frees a buffer the library returned (km_model_save_buffer, the km_plot_* figures). */
KM_API void km_free(void *buffer);

/* A sparse dataset from compressed sparse rows, 0-based, as scipy.sparse.csr_matrix holds them:
 * row i has the values values[indptr[i] .. indptr[i+1]) in the columns indices[same range], strictly
 * ascending within 0..n_cols-1 (scipy: X.sort_indices(); X.sum_duplicates()), all finite; indptr has
 * n_rows + 1 entries from 0. The types are fixed: indptr int64 (scipy: X.indptr.astype(np.int64),
 * a copy of n_rows + 1 entries when scipy chose int32), indices int32 (scipy's own for fewer than 2^31
 * stored values), values float64; labels: n_rows finite values or NULL (copied). Checked as the file
 * readers check their rows (KM_EINVAL naming the row). Lifetime: on platforms where size_t is the
 * unsigned int64 (64-bit Linux and macOS) the dataset uses indptr, indices and values without a copy:
 * they must stay alive and unchanged until km_dataset_free (a binding keeps references to the arrays);
 * elsewhere, and for a matrix without stored values, they are copied. */
KM_API km_status km_dataset_from_csr(size_t n_rows, size_t n_cols, const int64_t *indptr, const int32_t *indices,
                              const double *values, const double *labels, km_dataset **out);

/* A dataset whose rows are strings (for string kernels): n strings of lengths[i] bytes (any bytes), or
 * NUL-terminated when lengths is NULL, and n labels or NULL; everything is copied. Such a dataset has
 * no feature columns (km_dataset_dim 0). */
KM_API km_status km_dataset_from_strings(size_t n, const char *const *strings, const size_t *lengths, const double *labels,
                                  km_dataset **out);
/* String row i (NUL-terminated, *length bytes before the NUL; length may be NULL), or NULL when the
 * dataset does not hold strings or has no row i. */
KM_API const char *km_dataset_string(const km_dataset *data, size_t i, size_t *length);

/* The fold of every row for k-fold cross-validation (fold_of_row: n values in 0..k-1), as
 * km_cross_validate assigns them with params->seed: with labels (classification) each class's rows are
 * dealt round-robin over the folds in a seeded random order (stratified), without labels (NULL:
 * regression, one-class) the rows in that order are cut into k runs of nearly equal size.
 * KM_EINVAL unless 2 <= k <= n. */
KM_API km_status km_folds(const double *labels, size_t n, int k, uint64_t seed, int *fold_of_row);

/* The support vectors as training rows (for bindings: scikit-learn's support_ and dual_coef_). The
 * model's basis holds km_model_n_basis rows (the support vectors of all machines; every training row
 * when a kernel is centred); rows receives the training row (0-based; for LIBSVM precomputed-kernel
 * rows the column of their 0:id) of each basis row. km_model_machine_support fills, for the
 * km_model_n_sv(model, machine) support vectors of one machine, their positions in the basis
 * (ascending) and their coefficients c_j of f(x) = sum_j c_j sum_m theta_m k_m(x, x_j) + bias; either
 * output may be NULL. KM_EINVAL for a machine that does not exist. */
KM_API size_t km_model_n_basis(const km_model *model);
KM_API km_status km_model_basis_rows(const km_model *model, size_t *rows);
KM_API km_status km_model_machine_support(const km_model *model, size_t machine, size_t *basis_index, double *coef);
/* Outputs of a machine: 1, or the number of classes for a joint multiclass machine (KM_MULTICLASS_JOINT),
 * whose support vectors km_model_machine_support_outputs reads: coef receives n_sv x outputs values,
 * row-major (output r of support vector j at coef[j outputs + r]: f_r(x) = sum_j coef[j outputs + r]
 * sum_m theta_m k_m(x, x_j) + bias_r). Either output may be NULL. 0 for a machine that does not exist. */
KM_API size_t km_model_machine_outputs(const km_model *model, size_t machine);
KM_API km_status km_model_machine_support_outputs(const km_model *model, size_t machine, size_t *basis_index,
                                                  double *coef);

/* ------------------------------------------------------------------------------------------------
 * Names of enumerations: the names model files, the CLI and kernel specs use (e.g. "svr", "ovo",
 * "lp", "interleaved", "blockp", "rbf", "mult", "float")
 * ---------------------------------------------------------------------------------------------- */

/* Canonical name of value (static storage), or NULL when e has no such value. */
KM_API const char *km_enum_name(km_enum e, int value);
/* The value called name (the canonical name or an accepted alias such as "one-class"); KM_EINVAL with
 * the message "'NAME' is not a, b or c" when there is none. */
KM_API km_status km_enum_value(km_enum e, const char *name, int *value);
/* The index-th canonical name of e (0-based, in a fixed order) and its value, NULL past the last:
 * for listing the choices. value may be NULL. */
KM_API const char *km_enum_name_at(km_enum e, size_t index, int *value);

/* ------------------------------------------------------------------------------------------------
 * Metrics and cross-validation
 * ---------------------------------------------------------------------------------------------- */

KM_API double km_accuracy(const double *truth, const double *predicted, size_t n);
/* Mean of the per-class recalls. */
KM_API double km_balanced_accuracy(const double *truth, const double *predicted, size_t n);
/* Matthews correlation of binary labels (positive = the larger label); 0 when undefined. */
KM_API double km_mcc(const double *truth, const double *predicted, size_t n);
/* Area under the ROC curve of scores for binary truth (positive = the larger label); ties count 1/2.
 * KM_EINVAL when only one class is present. */
KM_API km_status km_auc(const double *truth, const double *score, size_t n, double *auc);
/* Average precision (area under the precision-recall step curve, tied scores grouped). */
KM_API km_status km_average_precision(const double *truth, const double *score, size_t n, double *ap);
KM_API double km_mse(const double *truth, const double *predicted, size_t n);
/* Squared correlation coefficient, as LIBSVM reports for regression, into *r2. KM_EINVAL (and *r2
 * unchanged) where it is undefined: no rows, a constant target or constant predictions (LIBSVM's 0/0). */
KM_API km_status km_squared_correlation(const double *truth, const double *predicted, size_t n, double *r2);

/* k-fold cross-validation like LIBSVM's -v: folds are stratified for classification, assigned with
 * KM_PARAM_SEED; predicted receives one cross-validated prediction per row. */
KM_API km_status km_cross_validate(const km_dataset *data, const km_kernel_set *kernels, const km_params *params,
                                   int folds, double *predicted);

/* ------------------------------------------------------------------------------------------------
 * Model selection (docs/model-selection.md): a grid of settings, each scored by cross-validation on
 * every split of the rows; the Gram blocks are computed once for all settings and splits, widths and
 * normalization fitted on each split's training rows only
 * ---------------------------------------------------------------------------------------------- */

/* What a split is scored by (names: km_enum_name(KM_ENUM_SCORE, ...)). accuracy, balanced-accuracy
 * and mcc compare labels; auc and average-precision rank a binary classifier's decision values; mse
 * and r2 (1 - sum of squared errors / sum of squares about the split's mean target) compare
 * regression outputs; log-loss is -mean log p(true class) of a classifier's probability model
 * (KM_PARAM_PROBABILITY; probabilities clipped to [1e-15, 1], as scikit-learn's log_loss). mse and
 * log-loss are better lower. */
typedef enum km_score {
    KM_SCORE_ACCURACY = 1,
    KM_SCORE_BALANCED_ACCURACY = 2,
    KM_SCORE_AUC = 3,
    KM_SCORE_MCC = 4,
    KM_SCORE_AVERAGE_PRECISION = 5,
    KM_SCORE_MSE = 6,
    KM_SCORE_R2 = 7,
    KM_SCORE_LOG_LOSS = 8
} km_score;

/* 1 when a larger value of score is better, 0 when smaller is (mse, log-loss). */
KM_API int km_score_higher_is_better(km_score score);
/* The score of n predictions (labels or regression values) against truth; decision: for auc and
 * average-precision the binary machine's decision values, oriented so that larger means the larger
 * label, for log-loss the probability the model gave each row's true class (NULL for the others).
 * KM_EINVAL where the score is undefined (one class for auc, a constant target for r2, no decision
 * values where they are needed). */
KM_API km_status km_score_of(km_score score, const double *truth, const double *predicted, const double *decision,
                             size_t n, double *value);

/* Value lists of a grid, as the command line writes them: "a,b,c" (each item a value as
 * km_params_set_text reads it, names included), "a..b" or "a..b:s" (a, a + s, ... up to b; s
 * defaults to 1) and "B^a..B^b" or "B^a..B^b:s" (B^a, B^(a+s), ... up to B^b: steps on the
 * exponent), ranges allowed as items of a list. *values receives *n NUL-terminated texts back to back
 * (free with km_free). KM_EINVAL for a bad range (mixed forms, an empty range, a step <= 0, more
 * than 10000 values). */
KM_API km_status km_grid_values(const char *text, char **values, size_t *n);

/* A grid: a list of settings, each the parameters, the kernel set and the options text of one
 * training (kernels borrowed: they must outlive the grid; settings that share a kernel set share
 * its Gram blocks). */
typedef struct km_grid km_grid;
KM_API km_status km_grid_new(km_grid **out);
KM_API void km_grid_free(km_grid *grid);
/* Appends a setting (params and options are copied). */
KM_API km_status km_grid_add(km_grid *grid, const km_params *params, const km_kernel_set *kernels,
                             const char *options);
KM_API size_t km_grid_size(const km_grid *grid);
/* The setting's options text and parameters; NULL past the end. */
KM_API const char *km_grid_options(const km_grid *grid, size_t setting);
KM_API const km_params *km_grid_params(const km_grid *grid, size_t setting);

/* How the rows are split: k-fold (stratified for classification) repeated `repeats` times with seeds
 * seed, seed + 1, ...; folds = 0: leave-one-out (one fold per row, at most 500 rows); validation:
 * when not NULL, one split that trains on all rows and scores validation's rows (folds and repeats
 * ignored); fold_of: when not NULL, the caller's folds (another program's, e.g. scikit-learn's
 * splitters): row i is scored by split fold_of[i] and trains every other split, n_fold_of values, one
 * per row, the folds 0 .. max numbered without a gap (folds, repeats and seed ignored). nested_folds
 * > 0: nested cross-validation, the settings chosen on each outer split by nested_folds inner folds of
 * its training rows. */
typedef struct km_cv_options {
    size_t size;                 /* sizeof(km_cv_options): fields past it keep their defaults */
    int folds;                   /* [5] */
    int repeats;                 /* [1] */
    uint64_t seed;               /* [1] */
    km_score score;              /* [accuracy for classification, mse otherwise] 0: by the task */
    const km_dataset *validation; /* [NULL] */
    int nested_folds;            /* [0] */
    /* called after each setting with the settings done, their total and the best of them so far and
     * its mean; nonzero stops the run (KM_EINTERRUPTED) */
    int (*progress)(void *user, size_t done, size_t total, size_t best, double best_mean);
    void *progress_user;
    const int *fold_of;          /* [NULL] */
    size_t n_fold_of;            /* [0] */
    /* [0] 1: every (setting x split) trains cold; 0: lp-norm MKL settings that differ only in C and p
     * warm-start along p on each split (docs/model-selection.md), equal to cold training within the
     * certified duality gaps */
    int cold_starts;
    /* [0] threads that train chains of tasks at once, each with a 1/threads share of the -m budget beyond
     * the Gram blocks they share; 0: OpenMP's number (OMP_NUM_THREADS, else the cores). The results equal
     * one thread's wherever a share holds the kernel matrices that the whole budget holds (otherwise
     * kernel values computed on demand may differ from stored ones in their last bits). */
    int threads;
} km_cv_options;
#define KM_CV_OPTIONS_INIT {sizeof(km_cv_options), 5, 1, 1, (km_score)0, NULL, 0, NULL, NULL, NULL, 0, 0, 0}

/* The results of a grid: per setting, the score of every split (repeat r's fold f at r folds + f),
 * their mean and sample standard deviation, the seconds of its fits, its mean support vectors and
 * kernel weights over the splits; and the chosen setting: the best mean, ties (equal to 1e-12
 * relative) to the smaller C, then the larger p, then the earlier setting. Nested: the outer splits'
 * scores of the settings each chose (km_cv_outer_*). */
typedef struct km_cv_results km_cv_results;
/* Cross-validates every setting of grid on data; rows of every setting and split are computed as a
 * cold km_train of that setting on that split's training rows would (with warm starts, to the solver's
 * certified duality gap). In a process where MPI is running (the library built with MPI, and MPI_Init
 * called by the program, or by kernelmix cv under mpirun), it is collective over MPI_COMM_WORLD: every
 * rank calls it with the same data, grid and options, the tasks are spread over the ranks, and every
 * rank returns the same results, the same for any number of ranks (the progress callback is called on
 * rank 0 only). */
KM_API km_status km_cv_run(const km_dataset *data, const km_grid *grid, const km_cv_options *options,
                           km_cv_results **out);
KM_API void km_cv_results_free(km_cv_results *results);
KM_API km_score km_cv_score(const km_cv_results *results);
KM_API size_t km_cv_n_splits(const km_cv_results *results);
/* Per setting (past the end: NULL or NAN). */
KM_API const double *km_cv_scores(const km_cv_results *results, size_t setting);
KM_API double km_cv_mean(const km_cv_results *results, size_t setting);
KM_API double km_cv_std(const km_cv_results *results, size_t setting);
KM_API double km_cv_fit_seconds(const km_cv_results *results, size_t setting);
KM_API double km_cv_mean_sv(const km_cv_results *results, size_t setting);
/* The mean over the splits of the first machine's kernel weights (*n_kernels values). */
KM_API const double *km_cv_mean_weights(const km_cv_results *results, size_t setting, size_t *n_kernels);
KM_API size_t km_cv_best(const km_cv_results *results);
/* Nested: the outer splits' count, their scores (km_cv_n_outer values) and chosen settings. */
KM_API size_t km_cv_n_outer(const km_cv_results *results);
KM_API const double *km_cv_outer_scores(const km_cv_results *results);
KM_API const size_t *km_cv_outer_choices(const km_cv_results *results);

/* ------------------------------------------------------------------------------------------------
 * The experimental tier: accessors of one kernel-weight method or one diagnostic
 *
 * Visible only where KM_EXPERIMENTAL_API is defined before this header is included (zstd's
 * ZSTD_STATIC_LINKING_ONLY model):
 *     #define KM_EXPERIMENTAL_API
 *     #include <kernelmix.h>
 * The shared library exports these functions like the others, but their names, arguments and structs
 * may change between minor versions (they follow the methods and diagnostics they read, which are
 * still growing), where the rest of this header only grows: a program or binding that uses them
 * should require the minor version it was written for (KM_VERSION_MINOR, km_version_number). What a
 * method keeps in its [data NAME] sections of a model the stable, generic km_model_data_values reads.
 * ---------------------------------------------------------------------------------------------- */
#ifdef KM_EXPERIMENTAL_API

/* Empirical-Bayes models (KM_MKL_EB_RW, KM_MKL_EB_MACKAY; docs/blocknorm-bayes.md): the targets, centred
 * by their mean, are read as a Gaussian process with covariance sum_m d_m k_m plus noise sigma^2 I. */
typedef struct km_evidence_info {
    size_t size;                 /* sizeof(km_evidence_info) as the caller was compiled (KM_EVIDENCE_INFO_INIT) */
    double neg_log_evidence;     /* -log p(y | d, sigma^2) at the learned d, with its n/2 log(2 pi) */
    double noise;                /* sigma^2, given or learned */
    size_t kernels_kept;         /* kernels with weight d_m > 0 */
} km_evidence_info;
#define KM_EVIDENCE_INFO_INIT {.size = sizeof(km_evidence_info)}
/* Fills the fields of *info that fit in info->size; KM_EINVAL when the model is not an empirical-Bayes
 * model (or machine does not exist). */
KM_API km_status km_model_evidence(const km_model *model, size_t machine, km_evidence_info *info);

/* A localized model's memberships: tau (INFINITY: hard) and the average evenness of the training
 * memberships; KM_EINVAL for a model without clusters. */
KM_API km_status km_model_cluster_tau(const km_model *model, double *tau, double *evenness);

/* Ivanov (constrained) equivalent of a Tikhonov-form solution with kernel weights d (M values): the
 * same decision function is the solution of the constrained problem *ivanov, a copy of tikhonov with
 * KM_MKL_LP (p and p_block) or KM_MKL_ELASTICNET (lambda) and loss weight C / s, with kernel weights
 * theta = s d (M values). KM_EINVAL unless tikhonov's method is KM_MKL_TIKHONOV (as set, or as
 * km_model_params gives it) and d is a solution's weights. */
KM_API km_status km_mkl_ivanov(const km_params *tikhonov, size_t M, const double *d, km_params **ivanov, double *theta);
/* The same for machine `machine` of a model trained with KM_MKL_TIKHONOV. */
KM_API km_status km_model_ivanov(const km_model *model, size_t machine, km_params **ivanov, double *theta);

/* Diagnostics of learned kernel weights (docs/mkl.md "Diagnostics"), stored by km_train with MKL. */
/* Block norms |w_m| = theta_m sqrt(c'K_m c) of a machine (M values); NULL when the model has none. */
KM_API const double *km_model_block_norms(const km_model *model, size_t machine);
/* Centred alignment A(K_m, YY') of each kernel with the training labels (M values; classification:
 * the kernel "same class", regression: the targets), on the training rows; NULL when not stored. */
KM_API const double *km_model_target_alignment(const km_model *model);
/* Centred alignments A(K_a, K_b) between the kernels on the training rows (M x M, row-major); NULL
 * when not stored (fixed weights, or more than 100 kernels). */
KM_API const double *km_model_kernel_alignment(const km_model *model);
/* Alignment with the training targets y (two classes: +-1; regression: the targets) of kernel m
 * (m < km_model_n_kernels) or, for m = km_model_n_kernels, of machine `machine`'s learned combination
 * sum_m theta_m K_m, on the rows of the diagnostics (Rostamizadeh's thesis Def. 2.4, Eq. 2.41,
 * Def. 2.6): rho the centred alignment, uncentred Cristianini et al.'s A = y'Ky / (||K||_F ||y||^2),
 * eta = <K_c, yy'>_F / n^2. Any output may be NULL; rho and uncentred are NAN where the alignment is
 * undefined (a kernel constant after centring, constant targets). KM_EINVAL when the model stores
 * none (fixed weights, one-class, more than two classes; for the combination more than 100 kernels). */
KM_API km_status km_model_alignment(const km_model *model, size_t machine, size_t m, double *rho, double *uncentred,
                                    double *eta);
/* The p that minimises the global bound factor nu(p) = ||(|w_m|)_m||_p sqrt(s) M^{1/s},
 * s = max(1, min(p/(p-1), 2 ln M)), over block-norm p in [1, 2], from block norms. */
typedef struct km_bound_choice {
    size_t size;                 /* sizeof(km_bound_choice) as the caller was compiled (KM_BOUND_CHOICE_INIT) */
    double p_block;              /* the minimiser (the largest one when the minimum is flat) */
    double p;                    /* the same in the kernel-weight convention, p_block/(2 - p_block) */
    double factor;               /* nu at the minimiser */
    double flat_low, flat_high;  /* block-norm p range on which nu equals its minimum */
} km_bound_choice;
#define KM_BOUND_CHOICE_INIT {.size = sizeof(km_bound_choice)}
/* Fills the fields of *out that fit in out->size. */
KM_API km_status km_model_bound_choice(const km_model *model, size_t machine, km_bound_choice *out);

#endif /* KM_EXPERIMENTAL_API */

#ifdef __cplusplus
}
#endif
#endif /* KERNELMIX_H */
