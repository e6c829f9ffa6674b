/* Multiple kernel learning for one machine (Kloft, "lp-Norm Multiple Kernel Learning", thesis ch. 3): the
 * problem the solvers share (also the plain SVM problem of a machine with fixed weights), the
 * duality certificate (certificate.c), and the solver entry points (wrapper, interleaved, SILP, SimpleMKL).
 *
 * Every solver works in the block-norm convention p (= km_mkl_params.p_block after resolution) and
 * keeps theta in problem->kernel->theta. Quantities follow the thesis's Problem 2.2 and Table 2.1: c =
 * expansion coefficients, a_m = c'K_m c, lin = the task's linear dual term, D = lin - 1/2 ||a||_r, and
 * the primal P of Problem II.3 at |w_m| = theta_m sqrt(a_m) (eq. II.5). One-class problems are solved in
 * LIBSVM's scaling (sum a = nu n) and certified in the scaling of the MKL dual (sum a = 1), called the
 * certificate's scaling below: both give the same theta. */
#ifndef KM_MKL_MKL_H
#define KM_MKL_MKL_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "core/log.h"
#include "core/record.h"
#include "core/params.h"
#include "mkl/mkl_params.h"
#include "core/progress.h"
#include "kernel/provider.h"
#include "kernelmix.h"
#include "svm/machine.h"

typedef struct km_mkl_problem {
    const km_machine_problem *machine; /* the task solved at each theta: n rows, M kernels, and
                                          machine->kernel->theta holds theta */
    km_mkl_params mkl;               /* resolved: p_block set, gap/eps/max_outer defaults applied */
    km_logger logger;
    km_record *record;               /* the model's data: what the method keeps beyond the machine's
                                        weights and coefficients (core/record.h); machine-specific
                                        entries carry the machine's index in their names */
    size_t machine_index;            /* of this machine in the model */
    km_progress_reporter *progress;  /* the caller's progress (NULL: none); outer steps are reported */
    /* A joint multiclass machine (KM_METHOD_JOINT_MULTICLASS): n_outputs classes, the class
     * of each row (0..n_outputs-1), and coef n x n_outputs row-major; otherwise n_outputs 1, class_of NULL. */
    size_t n_outputs;
    const size_t *class_of;
    uint64_t seed;                   /* randomness of stochastic methods (visiting order) */
    /* The model's kernel of each of the machine's kernels, of n_model_kernels (MKL leaves out the kernels
     * constant on the training rows, km_mkl_informative_kernels); NULL: the machine's kernels are the model's. */
    const size_t *model_kernel;
    size_t n_model_kernels;
} km_mkl_problem;

/* Where a solver ends (and, for the wrapper, where it may start: coef non-zero = warm start). */
typedef struct km_mkl_result {
    double *coef;                    /* n values, caller-allocated */
    double bias;
    double dual;                     /* D (certificate's scaling) */
    double primal;                   /* P (certificate's scaling) */
    double gap;                      /* (P - D) / |P| */
    double objective;                /* -D in LIBSVM's scaling: the machine's reported objective */
    long mkl_iterations;             /* theta steps or outer iterations */
    long smo_iterations;             /* working-set steps over all SVM solves */
    int converged;                   /* gap reached; 0 at max_outer or max_time */
    double *products;                /* M*n values, caller-allocated: h = K_m c at coef, see below */
    int products_valid;              /* set by a solver that ends with h at its coef (or by km_mkl_result_products) */
    double *block_norms;             /* M values |w_m|, caller-allocated (may be NULL) */
    int block_norms_valid;           /* set by a method that filled block_norms itself (no products needed) */
    double tolerance;                /* the SVM tolerance of km_mkl_evaluate's solves where a stalled gap
                                        tightened it (km_mkl_tighten); 0: the machine's -e */
} km_mkl_result;

/* Duality certificate of a point (c, b, theta) from the products h_m = K_m c (M blocks of n values):
 * a_m, lin, D, P and the relative gap, in the certificate's scaling. */
typedef struct km_mkl_certificate {
    double bias;                     /* the bias of the certified point: the given one refined */
    double lin;
    double dual, primal, gap;
    double svm_share;                /* at least this much of P - D is the SVM's own duality gap at theta
                                        (km_mkl_svm_share) */
} km_mkl_certificate;

/* h[m n + i] = (K_m c)_i over the rows, from kernel columns of the rows with c != 0 (polling the
 * machine's interrupt). */
km_status km_mkl_products(const km_mkl_problem *problem, const double *coef, double *h);
/* The same for the kernels m with wanted[m] set (NULL: all); the other blocks of h are left as they are. */
km_status km_mkl_products_of(const km_mkl_problem *problem, const double *coef, const unsigned char *wanted,
                             double *h);
/* Makes result->products hold K_m c at result->coef: kept when a solver left them valid (the
 * interleaved solver's running products, the wrapper's last evaluation), computed otherwise. */
km_status km_mkl_result_products(const km_mkl_problem *problem, km_mkl_result *result);
/* a[m] = c'K_m c from the products. */
void km_mkl_quadratic_terms(size_t n, size_t M, const double *coef, const double *h, double *a);
/* a_m = c'K_m c of the problem's machine: km_mkl_quadratic_terms over its rows, summed over its partition's
 * parts where its rows are split over processes. */
void km_mkl_kernel_terms(const km_mkl_problem *problem, const double *coef, const double *h, double *a);
/* A lower bound on the part of the absolute gap P - D that is the SVM's own duality gap at the problem's theta,
 * which no theta step closes, from the kernel term of D (1/2 ||a||_r) and a_m = c'K_m c in the certificate's
 * scaling; 0 where the bound says nothing (other than lp-norm MKL with p_block <= 2, or theta outside its
 * feasible set). */
double km_mkl_svm_share(const km_mkl_problem *problem, const double *a, double kernel_term, double absolute_gap);
/* Certificate of (coef, bias, theta) with a = c'K_m c and h = K_m c; the bias is refined by exact
 * minimisation of the primal loss over its breakpoints (which only lowers P). */
void km_mkl_certify(const km_mkl_problem *problem, const double *coef, double bias, const double *a,
                    const double *h, km_mkl_certificate *out);

/* The result holds the certified point: its bias (the refined one: the model stores what was
 * certified), dual, primal and gap. */
void km_mkl_result_certified(km_mkl_result *result, const km_mkl_certificate *cert);

/* theta step of the problem's regularizer (lp or elastic net) from a_m; 0 when nothing changed. */
int km_mkl_theta_step(const km_mkl_problem *problem, const double *a, double *theta);

/* One evaluation of the current theta, the step every alternating solver repeats: polls the caller's
 * interrupt (KM_EINTERRUPTED), solves the SVM warm-started from result->coef (bias and working-set
 * steps go into result), and computes the products h = K_m c and a_m = c'K_m c. h_at_coef: h already
 * holds K_m c at result->coef (the last evaluation's, left unchanged), from which the solve takes its
 * start gradient instead of kernel columns. */
km_status km_mkl_evaluate(const km_mkl_problem *problem, km_mkl_result *result, double *h, int h_at_coef, double *a);
/* Its first half: the interrupt poll and the warm-started solve at the current theta. */
km_status km_mkl_solve(const km_mkl_problem *problem, km_mkl_result *result);
/* Seconds since start (CLOCK_MONOTONIC), for time limits and logs. */
double km_mkl_seconds_since(const struct timespec *start);
/* Whether an alternating solver must stop at outer iteration t (of max_outer) after elapsed seconds
 * (of max_time, or past the machine's solver deadline) with the given gap; logs a warning naming the
 * limit when it must. */
int km_mkl_limit_reached(const km_mkl_problem *problem, long t, double elapsed, double gap);
/* The same test without the warning: whether outer iteration t, after elapsed seconds, is at a limit. */
int km_mkl_at_limit(const km_mkl_problem *problem, long t, double elapsed);
/* The certified relative gap (P - D) / |P| stays above the target, because the SVM solved at theta
 * only to *tolerance, which accounts for svm_gap of the absolute gap (all of it at a fixed point of theta):
 * sets *tolerance to the tighter one to solve with (an estimate of what reaches the target, at least ten
 * times smaller, down to 1e-4 times the machine's -e), logs it and returns 1; 0 (unchanged) when the
 * tolerance is already at that floor or no tolerance could reach the target. */
int km_mkl_tighten(const km_mkl_problem *problem, double *tolerance, double dual, double svm_gap);
/* Whether tolerance is the tightest km_mkl_tighten goes to (1e-4 times the machine's -e). */
int km_mkl_tolerance_at_floor(const km_mkl_problem *problem, double tolerance);
/* The relative gap stays above the target and the SVM's own gap at theta (at least svm_share, absolute) is
 * over half the target and at least half of the gap: theta steps alone cannot certify the point, a tighter
 * SVM tolerance must (km_mkl_tighten). While the weights' part is the larger, their steps go
 * first: a tighter tolerance then only makes each step dearer. */
int km_mkl_svm_limits_gap(const km_mkl_problem *problem, double gap, double dual, double primal, double svm_share);

/* When an outer loop's certified gap has stopped falling (alternate.h and interleaved.c say over what
 * window): KM_STALL_STEPS outer steps at least, and a change below KM_STALL_CHANGE (relative) counts as
 * none. A stalled loop tightens the SVM tolerance if it can (km_mkl_tighten), else stops with one
 * warning (km_mkl_gap_stuck, theta_kind "stalled"). */
#define KM_STALL_STEPS 20
#define KM_STALL_CHANGE 1e-3

/* The gap still stays above the target at the floor (theta_kind: "fixed", "stationary", "stalled"; tolerance: the SVM
 * tolerance reached). When a smaller SVM tolerance would reach the target: a warning naming it, KM_OK. When
 * none could: for a gap already below 1e-9 (a target below rounding) a warning, KM_OK; otherwise (the
 * objective drowns in rounding: kernel values of 1e20 from features of 1e5) KM_ENOTCONV with a message
 * naming the largest kernel value. */
km_status km_mkl_gap_stuck(const km_mkl_problem *problem, double tolerance, double dual, double primal, double gap,
                           const char *theta_kind);
/* What an outer step reports (km_progress's MKL record); NAN and NULL where the method has none. */
typedef struct km_mkl_step_record {
    long step;
    double gap;                      /* the certified relative gap (P - D)/|P|: a bound, never a change */
    double objective;                /* the objective the method lowers */
    double dual, primal;             /* the certificate's D and P */
    const double *weights;           /* n_weights kernel weights of this step */
    size_t n_weights;
} km_mkl_step_record;
/* A record of step t with nothing but the weights (M values, or NULL) filled in. */
km_mkl_step_record km_mkl_step_record_of(long t, const double *weights, size_t n_weights);
/* Reports an outer step to the caller's progress (a request to stop is kept by the reporter and acted
 * on at the solver's next poll). */
void km_mkl_report_step(const km_mkl_problem *problem, const km_mkl_step_record *record);
/* Reports a certified step t at the weights theta (n_weights values): objective P, D, P and the gap. */
void km_mkl_report_certified(const km_mkl_problem *problem, long t, const double *theta, size_t n_weights,
                             double dual, double primal, double gap);
/* Kernels with theta_m > 0. */
size_t km_mkl_count_active(const double *theta, size_t M);

/* Solvers. On entry theta is the starting point (km_mkl_start); the result holds the solution. */
km_status km_mkl_wrapper(const km_mkl_problem *problem, km_mkl_result *result);
km_status km_mkl_interleaved(const km_mkl_problem *problem, km_mkl_result *result);
/* 1 when the machine's solves run the SMO, whose steps the interleaved solver hooks: not KRR (a linear
 * system), nor a machine on explicit features (svm/machine.h on_features). */
int km_mkl_interleaves(const km_machine_problem *machine);
/* Cutting planes (silp.c; thesis App. D): GLPK's LP master for p_block = 1, the exact master over the cut
 * weights for the other finite p_block. */
km_status km_mkl_silp(const km_mkl_problem *problem, km_mkl_result *result);
/* SimpleMKL's reduced-gradient descent on the simplex (simplemkl.c), p_block = 1 only. */
km_status km_mkl_simplemkl(const km_mkl_problem *problem, km_mkl_result *result);
/* p_block = 1 on rank-1 kernels, C-SVC: the squared 1-norm SVM through linear programs in t = ||w||_1
 * (rank1_lp.c; GLPK). */
km_status km_mkl_rank1_lp(const km_mkl_problem *problem, km_mkl_result *result);
/* Multiclass MKL with one theta shared by the count binary C-SVC machines, learned jointly
 * (multiclass_mkl.c): every problems[k].kernel->theta is the same array, holding the start on entry and
 * the learned theta on return; results[k] gets machine k's solution, its fixed-theta objective, and the
 * joint dual, primal, gap and outer iterations. lp-norm MKL only (KM_EINVAL otherwise). */
km_status km_mkl_shared_train(const km_mkl_problem *problems, size_t count, km_mkl_result *results);

/* The Tikhonov form of the block-norm family (tikhonov.c; Tomioka & Suzuki eq. (3), Table 1): alternate the
 * SVM on K_d = sum d_m K_m (loss weight C) and the closed-form d_m = 1/(2 g'(|f_m|^2)), from d = 1, until the
 * relative duality gap or the relative change of the objective J = sum g(|f_m|^2) + C sum loss is
 * reached (the elastic net: on a working set of the kernels with d_m > 0, certified over all kernels).
 * theta holds d; the result's primal is J and dual the Fenchel dual D (C-SVC, SVR). */
km_status km_mkl_tikhonov(const km_mkl_problem *problem, km_mkl_result *result);
/* Parameters of the Tikhonov form: regularizer, its parameter (defaults applied), p and p_block of the
 * penalty's block norm, tolerances. */
km_status km_tikhonov_resolve(const km_mkl_params *in, km_mkl_params *out);
/* km_mkl_ivanov on the parameter blocks: the constrained form *ivanov with loss weight *C_ivanov of a
 * Tikhonov-form solution with kernel weights d and loss weight C. */
km_status km_mkl_ivanov_form(const km_mkl_params *tikhonov, double C, size_t M, const double *d,
                             km_mkl_params *ivanov, double *C_ivanov, double *theta);
/* sum_m g(|f_m|^2) of the regularizer from the block norms |f_m| (Table 1). */
double km_tikhonov_penalty(const km_mkl_params *mkl, size_t M, const double *block_norm);
/* Fenchel dual value lin - sum_m phi*(sqrt(a_m)), phi(t) = g(t^2), at the best scaling s alpha, s <= 1. */
double km_tikhonov_dual(const km_mkl_params *mkl, size_t M, double lin, const double *a);
/* One closed-form d step from a_m = c'K_m c at the current d (M scratch values); 0 and d unchanged
 * when every a_m <= 0. */
int km_tikhonov_step(const km_mkl_params *mkl, size_t M, const double *a, double *scratch, double *d);

/* The kernels MKL learns on (mkl/degenerate.c): the provider's kernels but those whose training points all
 * coincide in feature space (a constant Gram matrix on the training rows, zero included), in used[0..*n_used)
 * (M slots). Each left out is logged once as a warning naming it by number and spec (its weight is 0);
 * KM_EINVAL when every kernel is constant. */
km_status km_mkl_informative_kernels(km_provider *provider, const km_logger *logger, size_t *used, size_t *n_used);
/* out[k] = the model kernel k's value of a per-kernel array of the problem's kernels (weights): the value at
 * the problem's kernel that is k, 0 at a kernel MKL left out; km_mkl_model_kernels values. */
void km_mkl_model_weights(const km_mkl_problem *problem, const double *weights, double *out);
/* The model's kernel (0-based) that is the problem's kernel m. */
size_t km_mkl_model_kernel(const km_mkl_problem *problem, size_t m);
/* The number of the model's kernels (problem->n_model_kernels, or the problem's kernels when it has them all). */
size_t km_mkl_model_kernels(const km_mkl_problem *problem);

/* Weights below this fraction of the largest count as switched off (docs/mkl.md "Stopping and reports"). */
#define KM_SWITCH_OFF 1e-8
/* lp-norm MKL with p_block < 2: sets the weights below KM_SWITCH_OFF of the largest to exactly 0 and
 * rescales to ||theta||_q = 1, when the certificate at the new theta still meets the gap target (or
 * the solver's gap); updates the result's primal and gap, and logs how many kernels are off. */
km_status km_mkl_switch_off(const km_mkl_problem *problem, km_mkl_result *result);

/* Resolves user parameters: p_block from p, defaults, validation (KM_EINVAL with a message). */
km_status km_mkl_resolve(const km_mkl_params *in, km_mkl_params *out);
/* The starting theta of the regularizer (Kloft's thesis Alg. 3.1: M^{-(2-p)/p}; elastic net: uniform 1/M). */
void km_mkl_start(const km_mkl_params *mkl, size_t M, double *theta);
/* Trains with the method the parameters name (its method-table entry). */
km_status km_mkl_train(const km_mkl_problem *problem, km_mkl_result *result);

#endif
