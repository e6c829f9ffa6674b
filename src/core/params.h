/* The training parameters behind the opaque km_params handle (kernelmix.h). Library code reads the
 * fields directly; internal code and the unit tests may also build a block on the stack from
 * km_params_default() and set fields, arrays included, without the handle's setters. */
#ifndef KM_CORE_PARAMS_H
#define KM_CORE_PARAMS_H

#include "kernelmix.h"

/* Multiple kernel learning (the KM_PARAM_MKL_* ... KM_PARAM_REG_PARAM ids; meanings and defaults there). */
typedef struct km_mkl_params {
    km_mkl_method method;
    double p;
    double p_block;           /* > 0: use this block norm instead of p */
    double lambda;
    km_mkl_solver solver;
    double gap;
    double eps_mkl;
    double theta_tol;         /* interleaved: largest theta step at a stopping point */
    long max_outer;
    double max_time;          /* <= 0: none */
    int shared_weights;
    km_mkl_regularizer regularizer;
    double reg_param;         /* 0: the default of the regularizer */
    double align_q;           /* align-q's q > 1 */
    double radius;            /* Lambda of the alignment and KRR methods */
    double eta;               /* l2krr's interpolation */
    km_mu0 mu0;               /* l2krr's centre */
    km_rank1_weight rank1_weight;   /* align on rank-1 kernels: corr^2 or |corr| */
    const double *mu0_given;  /* KM_MU0_GIVEN: the kernel weights (M values), set by km_train */
    double eb_noise;          /* empirical Bayes: sigma^2 (0: 0.1 var(y)) */
    int eb_learn_noise;       /* 1: learn sigma^2 */
    long eb_inner;            /* eb-rw: weight steps per tangent */
    double eb_tol;            /* relative change of -log evidence that stops */
    long obscure_epochs;      /* OBSCURE: stochastic-stage epochs at most */
    long obscure_online_epochs; /* OBSCURE: online-stage epochs at most */
    double obscure_eta;       /* OBSCURE: online step (0: M^(-2/q)) */
    double obscure_radius;    /* OBSCURE: R (0: from the online stage; INFINITY: none) */
    long obscure_t0;          /* OBSCURE: stochastic-stage counter offset (-1: online steps) */
    double obscure_tol;       /* OBSCURE: certified relative gap that stops the stochastic stage (0: none) */
    int obscure_trace;        /* OBSCURE: objective after every epoch */
    long clusters;            /* localized MKL: clusters l */
    double cluster_ae;        /* average evenness target of the memberships */
    double cluster_tau;       /* tau (< 0: from cluster_ae) */
    long cluster_kernel;      /* 0: mean of the learned kernels; k: kernel k */
    int cluster_only;         /* 1: cluster_kernel is not learned */
    long cluster_restarts;    /* kernel k-means restarts */
    uint64_t cluster_seed;    /* their seed (km_params.seed, set by km_train) */
} km_mkl_params;

struct km_params {
    km_task task;
    double C;
    double epsilon;
    double nu;
    double tolerance;
    int shrinking;
    double cache_mb;
    km_cache_values cache_values;
    km_multiclass multiclass;
    /* class weights: C of class class_weight_labels[k] is multiplied by class_weights[k] */
    size_t n_class_weights;
    const double *class_weight_labels;
    const double *class_weights;
    /* fixed kernel weights d_m of the combination sum_m d_m k_m (>= 0); NULL: uniform 1 */
    const double *kernel_weights;
    size_t n_kernel_weights;     /* entries of kernel_weights; 0: one per kernel (blocks built in code) */
    km_mkl_params mkl;           /* learned kernel weights (method KM_MKL_FIXED: none) */
    long max_iter;               /* <= 0: LIBSVM's default */
    uint64_t seed;
    int probability;             /* 1: fit probability models by internal cross-validation (-b 1) */
    int krr_bias;                /* KM_TASK_KRR: 1 an unregularized bias */
    km_log_fn log;
    void *log_user;
    km_progress_fn progress;
    void *progress_user;
    /* what the array setters copied (the pointers above then point into it); NULL otherwise */
    double *owned_kernel_weights;
    double *owned_class_weights;   /* n_class_weights labels, then n_class_weights weights */
};

/* The defaults of every parameter, as a value (arrays and callbacks NULL). */
km_params km_params_default(void);

/* Checks a block before training with n_kernels kernels: the values a handle's setters check, plus
 * what a block built in code may get wrong (enum values, arrays) and the kernel-weight count. */
km_status km_params_check(const km_params *params, size_t n_kernels);

#endif
