/* The kernel-weight methods' parameters: the typed block every method reads (km_mkl_params), filled
 * from a km_params' generic store by the rows of mkl_params.c, which describe each parameter (its
 * options, help, bounds and default) for the parameter table (src/train/param_table.c). */
#ifndef KM_MKL_MKL_PARAMS_H
#define KM_MKL_MKL_PARAMS_H

#include <stddef.h>
#include <stdint.h>

#include "core/param_row.h"
#include "core/params.h"
#include "kernelmix.h"

/* Multiple kernel learning (the KM_PARAM_MKL_* ... ids of kernelmix.h; meanings and defaults in the rows). */
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

/* The rows of the parameters above (offsets into km_mkl_params), count into *count. */
const km_param_row *km_mkl_params_rows(size_t *count);
/* The row of parameter id, or NULL when it is not a kernel-weight parameter. */
const km_param_row *km_mkl_param_row(km_param id);
/* The block with every parameter at its default. */
km_mkl_params km_mkl_params_default(void);
/* The block of params: its set values, the defaults for the others. */
km_mkl_params km_mkl_params_of(const km_params *params);
/* The converse: stores every value of mkl in params' slots. */
void km_mkl_params_write(const km_mkl_params *mkl, km_params *params);

#endif
