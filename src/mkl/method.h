/* The method table (docs/architecture.md, "The four seams"): every way of obtaining kernel weights is one entry, defined in
 * its family's file (method_fixed.c; method_lp.c: lp-norm and elastic net; blocknorm.c: the Tikhonov
 * form) and listed in methods.c. The training driver (src/train) knows methods only through this
 * table: adding a method is its file, its line in methods.c and its tests (docs/architecture.md). */
#ifndef KM_MKL_METHOD_H
#define KM_MKL_METHOD_H

#include <stddef.h>

#include "mkl/describe.h"
#include "mkl/mkl.h"
#include "mkl/mkl_params.h"

/* What a method is, as the layers above src/mkl ask it (km_mkl_method_flags): they test these bits of
 * the entry's flags, never method ids. */
enum {
    /* The weights are learned, which needs every base kernel separately (per-kernel columns, alignments,
     * block norms, degenerate-kernel check) and gives each machine a primal, a certificate where the
     * problem is convex, and weight steps. Without it the weights are given (no base-kernel columns, no
     * diagnostics, no [mkl] section in model files). */
    KM_METHOD_LEARNS_WEIGHTS = 1u << 0,
    /* More than two classes are one machine with one output per class (KM_MULTICLASS_JOINT): train
     * gets the classes in problem->class_of and fills n x n_outputs coefficients. */
    KM_METHOD_JOINT_MULTICLASS = 1u << 1,
    /* Reads kernel values in blocks of rows (kernel_blocks) and keeps none between requests, so the
     * provider holds neither Gram matrices nor cached columns for it. */
    KM_METHOD_READS_ROW_BLOCKS = 1u << 2,
    /* train sets result->objective to its primal value (OBSCURE's f(w)), which is also what its relative
     * gap is relative to; otherwise the reported objective is -D in LIBSVM's sign (km_mkl_train). */
    KM_METHOD_PRIMAL_OBJECTIVE = 1u << 3,
    /* Its losses have no per-class C: class weights (-wLABEL) are refused. */
    KM_METHOD_NO_CLASS_WEIGHTS = 1u << 4,
    /* Empirical Bayes: the weights maximise a Gaussian-process evidence, a weight 0 drops its kernel,
     * and prediction also gives the posterior variance (from the evidence data of data_section). */
    KM_METHOD_EMPIRICAL_BAYES = 1u << 5,
    /* Its weight groups are the clusters of a kernel k-means partition of the training rows
     * (km_clusters_check applies; mkl/clmkl.h). */
    KM_METHOD_KMEANS_CLUSTERS = 1u << 6,
    /* ... with hard memberships (tau = infinity). */
    KM_METHOD_HARD_MEMBERSHIPS = 1u << 7,
    /* An alignment or KRR kernel-learning method (docs/krr-alignment.md): its weights' scale is the
     * radius (KM_PARAM_MKL_RADIUS). */
    KM_METHOD_ALIGNMENT = 1u << 8,
    /* Trains on rows split over processes (data-parallel training): its steps read the rows only through
     * the machine's solve and the certificate's products, quadratic terms, linear term and loss, which
     * sum over the partition (mkl/certificate.c) — the wrapper form of the lp-norm family — or, for
     * empirical Bayes, through the evidence's sums over the rows (mkl/evidence_features.c). */
    KM_METHOD_SPLIT_ROWS = 1u << 9,
};

typedef struct km_mkl_method_entry {
    km_mkl_method id;
    const char *name;            /* the CLI's --mkl NAME and the model file's; alias: another accepted name */
    const char *alias;
    const char *help;            /* one paragraph for --help: what it learns, from which paper */
    unsigned flags;              /* KM_METHOD_* bits: what it is, for the layers above src/mkl */
    /* The parameters (km_param ids, 0-terminated) it reads that not every method reads: those of its
     * weights, solver and stopping rules. A parameter no method lists (the machine's, the cache's, the
     * seed) is read by every method; km_param_read_by answers from these lists. */
    const km_param *params;
    /* The task parameters (svm/machine.h) it does not pass on, 0-terminated; NULL: none. */
    const km_param *ignores;
    /* Validates the user's parameters and fills in the method's defaults (p_block from p, ...). */
    km_status (*resolve)(const km_mkl_params *in, km_mkl_params *out);
    /* Starting weights (M values); NULL: the given weights are kept. */
    void (*start)(const km_mkl_params *mkl, size_t M, double *theta);
    /* Starting weights from those a neighbouring setting (from: another C or p) learned, M values moved in
     * place onto this method's feasible set; NULL: the method starts cold only. A method with it reaches
     * its certified optimum from any such start, and from any feasible coefficients in result->coef (its
     * solves warm-start from them). */
    void (*warm_start)(const km_mkl_params *mkl, const km_mkl_params *from, size_t M, double *theta);
    /* Learns theta (problem->machine->kernel->theta, holding the start) together with the machine's
     * solution: coef, bias and, for given weights, the objective; learned weights fill the certificate
     * (dual, primal, gap), whose dual km_mkl_train reports as the objective. */
    km_status (*train)(const km_mkl_problem *problem, km_mkl_result *result);
    /* The same for count machines sharing one theta array (multiclass); NULL: not offered. */
    km_status (*train_shared)(const km_mkl_problem *problems, size_t count, km_mkl_result *results);
    /* The closed-form weight step from a_m = c'K_m c that the interleaved solver takes inside the SMO
     * and the alternating solvers between solves; 0 when nothing changed. NULL: none. */
    int (*theta_step)(const km_mkl_params *mkl, size_t M, const double *a, double *theta);
    /* Defaults that depend on the number of kernels M, applied once the kernels are known (OBSCURE's
     * p_block from M); NULL: none. */
    void (*fit_defaults)(km_mkl_params *mkl, size_t M);
    /* Kernel-weight sets per machine with M kernels (a localized method: one per cluster or gate; the
     * machine's theta then holds M values per set, set g at theta[g M]); NULL: one. */
    size_t (*weight_groups)(const km_mkl_params *mkl, size_t M);
    /* The [data NAME] section of its own figures that train fills in problem->record (NULL: none); a
     * model of another method holding a section of this name is refused (train/model_data_check.c). */
    const char *data_section;
    /* Writes part d->part of what `kernelmix info` shows of the method (mkl/describe.h has the pieces the
     * methods share); NULL: the lp-norm form (km_mkl_describe_lp). */
    void (*describe)(const km_mkl_description *d);
    /* The parameter a regularization path of the method runs over (km_plot_path draws the weights
     * against it) and its axis title in *title; 0: none. NULL: none. */
    km_param (*path_parameter)(const km_mkl_params *mkl, const char **title);
} km_mkl_method_entry;

/* The entry of a method; NULL when there is none. */
const km_mkl_method_entry *km_mkl_method_of(km_mkl_method id);
/* The k-th entry of the table; NULL past its end. */
const km_mkl_method_entry *km_mkl_method_at(size_t k);
/* KM_OK where the kernel-weight learning mkl asks for trains on rows split over processes (fixed weights,
 * or a KM_METHOD_SPLIT_ROWS method by its wrapper solver, without a time limit); else KM_EINVAL saying
 * why. */
km_status km_mkl_check_split_rows(const km_mkl_params *mkl);
/* The KM_METHOD_* flags of a method; 0 when there is none. */
unsigned km_mkl_method_flags(km_mkl_method id);
/* The parameter a regularization path of the method of mkl runs over, its axis title in *title; 0 when
 * it has none. */
km_param km_mkl_path_parameter(const km_mkl_params *mkl, const char **title);

#endif
