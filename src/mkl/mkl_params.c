/* The kernel-weight methods' parameters (mkl/mkl_params.h): one row each, the typed block the methods
 * read and its exchange with a km_params' generic store. Which methods read a parameter is their
 * entries' business (km_mkl_method_entry.params); the help says what the parameter means. */
#include "mkl/mkl_params.h"

#include <math.h>
#include <string.h>

#include "mkl/mkl_names.h"

#define OPEN (KM_PARAM_LOWER_OPEN | KM_PARAM_UPPER_OPEN)
#define INT KM_PARAM_INTEGER
#define ROW(id_, name_, field_, member) .id = id_, .name = name_, .field = field_, .offset = offsetof(km_mkl_params, member)
#define BIG ((double)INT64_MAX)

static const km_param_row rows[] = {
    /* the method and what most learned weights share: the norm, the solver, the stopping rules */
    {ROW(KM_PARAM_MKL_METHOD, "mkl_method", KM_FIELD_INT, method), .flags = INT, .default_value = KM_MKL_FIXED,
     .enumeration = KM_ENUM_MKL_METHOD, .names = km_mkl_method_name_table, .options = "--mkl", .value_name = "METHOD",
     .help = "how the kernel weights are obtained: fixed (uniform or --weights) or learned jointly with the "
             "machine by one of the methods below"},
    {ROW(KM_PARAM_P, "p", KM_FIELD_DOUBLE, p), .lower = 1, .upper = INFINITY, .flags = KM_PARAM_FRACTION,
     .default_value = 2, .options = "--p", .value_name = "P",
     .help = "norm on the kernel weights, ||theta||_p = 1, P >= 1 (fractions like 4/3 and 'inf' accepted); "
             "p = 1 selects few kernels, p = inf weighs them all equally; given alone, it selects --mkl lp",
     .storage = KM_STORED_NEVER},
    {ROW(KM_PARAM_P_BLOCK, "p_block", KM_FIELD_DOUBLE, p_block), .lower = 1, .upper = INFINITY,
     .flags = KM_PARAM_FRACTION | KM_PARAM_AUTOMATIC, .options = "--p-block", .value_name = "Q",
     .help = "the same regularizer as the block norm ||w||_{2,Q} on the machine's weight vector, "
             "Q = 2p/(p+1) (default: from --p); Q > 2 (no p equivalent) is accepted. p 1, 8/7, 4/3, 2, 3, 4, "
             "inf are p-block 1, 16/15, 8/7, 4/3, 3/2, 8/5, 2. obscure: P in (1, 2] of its block norm "
             "(default q/(q-1), q = max(2, 2 ln kernels))",
     .storage = KM_STORED_ALWAYS},
    {ROW(KM_PARAM_LAMBDA, "lambda", KM_FIELD_DOUBLE, lambda), .lower = 0, .upper = 1, .default_value = 0.5,
     .options = "--lambda", .value_name = "L", .help = "elastic net: 0 = sparse l1 MKL ... 1 = uniform weights",
     .storage = KM_STORED_ALWAYS},
    {ROW(KM_PARAM_MKL_SOLVER, "mkl_solver", KM_FIELD_INT, solver), .flags = INT, .default_value = KM_MKL_INTERLEAVED,
     .enumeration = KM_ENUM_MKL_SOLVER, .names = km_mkl_solver_name_table, .options = "--solver", .value_name = "S",
     .help = "interleaved (weight steps inside the SVM solver), wrapper (alternating SVM solves and weight "
             "steps), silp (cutting planes: SVM solves and a master problem, an LP by GLPK for p = 1), "
             "simplemkl (reduced-gradient descent, p = 1 only) or simplex (p = 1 on rank-1 kernels, C-SVC: exact "
             "linear programs by GLPK); obscure: pegasos (Pegasos-MKL: the "
             "stochastic stage alone, no projection)",
     .storage = KM_STORED_ALWAYS},
    {ROW(KM_PARAM_MKL_GAP, "mkl_gap", KM_FIELD_DOUBLE, gap), .lower = 0, .upper = INFINITY, .flags = OPEN,
     .default_value = 1e-3, .options = "--mkl-gap|--mkl-eps", .value_name = "GAP",
     .help = "stop at this relative duality gap",
     .storage = KM_STORED_ALWAYS},
    {ROW(KM_PARAM_MKL_EPS, "mkl_eps", KM_FIELD_DOUBLE, eps_mkl), .lower = 0, .upper = INFINITY, .flags = OPEN,
     .default_value = 1e-5, .options = "--mkl-step-eps", .value_name = "E",
     .help = "interleaved: weight step while the dual moved by more than E; silp: also stop when the SVM "
             "value and the master's bound agree to E; tikhonov: check every kernel, not only the "
             "working set, when the objective moved by less than E (relative); l2krr: stop when alpha "
             "moves by less than E (relative)"},
    {ROW(KM_PARAM_MKL_THETA_TOL, "mkl_theta_tol", KM_FIELD_DOUBLE, theta_tol), .lower = 0, .upper = INFINITY,
     .default_value = 1e-4, .options = "--mkl-theta-eps", .value_name = "T",
     .help = "interleaved: also stop only where the next weight step moves no weight by more than T (unit "
             "norm; 1: the gap alone); alternating solvers: weights that moved by at most T have settled, and "
             "a gap the SVMs' own gap holds open then tightens their tolerance"},
    {ROW(KM_PARAM_MKL_MAX_OUTER, "mkl_max_outer", KM_FIELD_LONG, max_outer), .lower = 1, .upper = BIG,
     .flags = INT, .default_value = 10000, .options = "--max-outer", .value_name = "N",
     .help = "at most N weight steps / outer iterations"},
    {ROW(KM_PARAM_MKL_MAX_TIME, "mkl_max_time", KM_FIELD_DOUBLE, max_time), .lower = 0, .upper = INFINITY,
     .flags = KM_PARAM_LOWER_OPEN | KM_PARAM_AUTOMATIC, .options = "--max-time", .value_name = "S",
     .help = "at most S seconds of MKL per machine (best point so far is kept; obscure: the best iterate so "
             "far; default: no limit)"},
    {ROW(KM_PARAM_SHARED_WEIGHTS, "shared_weights", KM_FIELD_INT, shared_weights), .lower = 0, .upper = 1,
     .flags = INT, .options = "--shared-weights", .switch_value = 1,
     .help = "multiclass: one set of kernel weights for all binary machines, learned jointly (wrapper-style "
             "alternation on the summed problem). Default: each binary machine learns its own weights, which "
             "fits kernels that separate only some of the classes (docs/mkl.md)",
     .storage = KM_STORED_ALWAYS},
    /* the penalised (Tikhonov) form */
    {ROW(KM_PARAM_REGULARIZER, "regularizer", KM_FIELD_INT, regularizer), .flags = INT, .default_value = KM_REG_LQ,
     .enumeration = KM_ENUM_MKL_REGULARIZER, .names = km_mkl_regularizer_name_table, .options = "--regularizer",
     .value_name = "R",
     .help = "minimise sum_m g(||f_m||^2) + C sum loss, C = -c (the loss weight; Tomioka & Suzuki's C is "
             "1/C) with g: lq (q = 1 is block1, q = inf uniform), block1, uniform, blockp (block p > 2) or "
             "elasticnet ((1-L)||f_m|| + L/2 ||f_m||^2); 'kernelmix info' prints the equivalent --mkl "
             "lp/elasticnet weights and C"},
    {ROW(KM_PARAM_REG_PARAM, "reg_param", KM_FIELD_DOUBLE, reg_param), .lower = 0, .upper = INFINITY,
     .flags = KM_PARAM_FRACTION | KM_PARAM_LOWER_OPEN | KM_PARAM_AUTOMATIC, .options = "--reg-param",
     .value_name = "X", .help = "q of lq (default 2), p of blockp (default 4) or L of elasticnet (same as --lambda)"},
    /* the alignment and KRR methods (Cortes, Mohri & Rostamizadeh) */
    {ROW(KM_PARAM_ALIGN_Q, "align_q", KM_FIELD_DOUBLE, align_q), .lower = 1, .upper = INFINITY,
     .flags = KM_PARAM_LOWER_OPEN, .default_value = 2, .options = "--align-q", .value_name = "Q",
     .help = "the norm q > 1 of the weights"},
    {ROW(KM_PARAM_MKL_RADIUS, "mkl_radius", KM_FIELD_DOUBLE, radius), .lower = 0, .upper = INFINITY, .flags = OPEN,
     .default_value = 1, .options = "--radius", .value_name = "R",
     .help = "the weights' scale Lambda: their sum (alignment methods, l1krr), the radius of l2krr's ball"},
    {ROW(KM_PARAM_L2KRR_ETA, "l2krr_eta", KM_FIELD_DOUBLE, eta), .lower = 0, .upper = 1,
     .flags = KM_PARAM_UPPER_OPEN, .default_value = 0.25, .options = "--eta", .value_name = "E",
     .help = "interpolation of Algorithm 1, in [0, 1)"},
    {ROW(KM_PARAM_MU0, "mu0", KM_FIELD_INT, mu0), .flags = INT, .default_value = KM_MU0_ZERO,
     .enumeration = KM_ENUM_MU0, .names = km_mu0_name_table, .options = "--mu0", .value_name = "M",
     .help = "the ball's centre: zero, uniform (R/sqrt(M)) or given (--weights)"},
    {ROW(KM_PARAM_RANK1_WEIGHT, "rank1_weight", KM_FIELD_INT, rank1_weight), .flags = INT,
     .default_value = KM_RANK1_WEIGHT_CORR2, .enumeration = KM_ENUM_RANK1_WEIGHT, .names = km_rank1_weight_name_table,
     .options = "--rank1-weight", .value_name = "W",
     .help = "on rank1 kernels: corr2, the weight of feature k is its squared correlation with the labels (the "
             "alignment); corr: the absolute correlation"},
    /* empirical Bayes (Tomioka & Suzuki) */
    {ROW(KM_PARAM_EB_NOISE, "eb_noise", KM_FIELD_DOUBLE, eb_noise), .lower = 0, .upper = INFINITY,
     .flags = OPEN | KM_PARAM_AUTOMATIC, .options = "--noise", .value_name = "S2",
     .help = "the noise variance (default 0.1 var(y)); with --learn-noise the starting value"},
    {ROW(KM_PARAM_EB_LEARN_NOISE, "eb_learn_noise", KM_FIELD_INT, eb_learn_noise), .lower = 0, .upper = 1,
     .flags = INT, .options = "--learn-noise", .switch_value = 1,
     .help = "learn the noise variance too (kept >= 1e-6 var(y))"},
    {ROW(KM_PARAM_EB_INNER, "eb_inner", KM_FIELD_LONG, eb_inner), .lower = 1, .upper = BIG, .flags = INT,
     .default_value = 100, .options = "--eb-inner", .value_name = "N",
     .help = "weight steps per tangent of log|K| (1: one step)"},
    {ROW(KM_PARAM_EB_TOL, "eb_tol", KM_FIELD_DOUBLE, eb_tol), .lower = 0, .upper = INFINITY, .flags = OPEN,
     .default_value = 1e-10, .options = "--eb-tol", .value_name = "E",
     .help = "stop when -log evidence changes by at most E, relative"},
    /* OBSCURE (Orabona, Jie & Caputo) */
    {ROW(KM_PARAM_OBSCURE_EPOCHS, "obscure_epochs", KM_FIELD_LONG, obscure_epochs), .lower = 0, .upper = BIG,
     .flags = INT, .default_value = 50, .options = "--epochs", .value_name = "N",
     .help = "stochastic-stage epochs at most"},
    {ROW(KM_PARAM_OBSCURE_ONLINE_EPOCHS, "obscure_online_epochs", KM_FIELD_LONG, obscure_online_epochs), .lower = 0,
     .upper = BIG, .flags = INT, .default_value = 5, .options = "--online-epochs", .value_name = "N",
     .help = "online-stage epochs at most (it also stops after an epoch without updates)"},
    {ROW(KM_PARAM_OBSCURE_ETA, "obscure_eta", KM_FIELD_DOUBLE, obscure_eta), .lower = 0, .upper = INFINITY,
     .flags = OPEN | KM_PARAM_AUTOMATIC, .options = "--online-eta", .value_name = "E",
     .help = "online-stage step (default kernels^(-2/q))"},
    {ROW(KM_PARAM_OBSCURE_RADIUS, "obscure_radius", KM_FIELD_DOUBLE, obscure_radius), .lower = 0, .upper = INFINITY,
     .flags = KM_PARAM_LOWER_OPEN | KM_PARAM_AUTOMATIC, .options = "--obscure-radius|--R", .value_name = "R",
     .help = "radius of ||w||_{2,P} <= R in the stochastic stage (default from the online stage); inf: "
             "Pegasos-MKL, as --solver pegasos"},
    {ROW(KM_PARAM_OBSCURE_T0, "obscure_t0", KM_FIELD_LONG, obscure_t0), .lower = 0, .upper = BIG,
     .flags = INT | KM_PARAM_AUTOMATIC, .default_value = -1, .options = "--stage2-t0", .value_name = "N",
     .help = "the stochastic stage counts steps from N + 1 (default: the online stage's steps; 0: the paper's "
             "Algorithm 2 as printed)"},
    {ROW(KM_PARAM_OBSCURE_TOL, "obscure_tol", KM_FIELD_DOUBLE, obscure_tol), .lower = 0, .upper = INFINITY,
     .flags = KM_PARAM_UPPER_OPEN, .default_value = 1e-2, .options = "--obscure-gap|--tol", .value_name = "E",
     .help = "stop when the certified relative duality gap of the best iterate is at most E (0: run every "
             "epoch); each check costs a pass over the rows and the kernel values among the support"},
    {ROW(KM_PARAM_OBSCURE_TRACE, "obscure_trace", KM_FIELD_INT, obscure_trace), .lower = 0, .upper = 1,
     .flags = INT, .help = "evaluate the objective and training error after every epoch (--verbose)",
     .storage = KM_STORED_NEVER},
    /* localized MKL (Lei, Binder, Dogan & Kloft; Gonen & Alpaydin) */
    {ROW(KM_PARAM_CLUSTERS, "clusters", KM_FIELD_LONG, clusters), .lower = 1, .upper = BIG, .flags = INT,
     .default_value = 3, .options = "--clusters", .value_name = "L", .help = "clusters of the partition"},
    {ROW(KM_PARAM_CLUSTER_AE, "cluster_ae", KM_FIELD_DOUBLE, cluster_ae), .lower = 0, .upper = 1,
     .flags = KM_PARAM_LOWER_OPEN, .default_value = 0.5, .options = "--ae", .value_name = "A",
     .help = "average evenness of the soft memberships in (0, 1]; tau follows by bisection (1: equal "
             "memberships)"},
    {ROW(KM_PARAM_CLUSTER_TAU, "cluster_tau", KM_FIELD_DOUBLE, cluster_tau), .lower = 0, .upper = INFINITY,
     .flags = KM_PARAM_AUTOMATIC, .default_value = -1, .options = "--tau", .value_name = "T",
     .help = "memberships proportional to exp(-T d^2(x, centre)) instead (T >= 0; inf: hard; default: from --ae)"},
    {ROW(KM_PARAM_CLUSTER_KERNEL, "cluster_kernel", KM_FIELD_LONG, cluster_kernel), .lower = 1, .upper = BIG,
     .flags = INT | KM_PARAM_AUTOMATIC, .options = "--cluster-kernel", .value_name = "K",
     .help = "the kernel the partition uses: a kernel number (1..M) or a SPEC of an extra kernel that only "
             "clusters (default: the mean of the kernels)"},
    {ROW(KM_PARAM_CLUSTER_ONLY, "cluster_only", KM_FIELD_INT, cluster_only), .lower = 0, .upper = 1, .flags = INT,
     .help = "1: the clustering kernel only clusters (its weights are not learned)"},
    {ROW(KM_PARAM_CLUSTER_RESTARTS, "cluster_restarts", KM_FIELD_LONG, cluster_restarts), .lower = 1, .upper = BIG,
     .flags = INT, .default_value = 10, .options = "--kmeans-restarts", .value_name = "R",
     .help = "k-means restarts from k-means++ seeds (--seed)"},
};
#define N_ROWS (sizeof rows / sizeof rows[0])

const km_param_row *km_mkl_params_rows(size_t *count)
{
    *count = N_ROWS;
    return rows;
}

const km_param_row *km_mkl_param_row(km_param id)
{
    for (size_t k = 0; k < N_ROWS; k++)
        if (rows[k].id == id)
            return &rows[k];
    return NULL;
}

km_mkl_params km_mkl_params_default(void)
{
    km_mkl_params mkl;
    memset(&mkl, 0, sizeof mkl);
    km_param_rows_defaults(rows, N_ROWS, &mkl);
    return mkl;
}

km_mkl_params km_mkl_params_of(const km_params *params)
{
    km_mkl_params block = km_mkl_params_default(), *mkl = &block;
    for (size_t k = 0; k < N_ROWS; k++) {
        const km_param_slot *slot = &params->slots[rows[k].id];
        if (!slot->set)
            continue;
        if (rows[k].field == KM_FIELD_DOUBLE)
            km_param_row_write(&rows[k], mkl, slot->real);
        else
            km_param_row_write_int(&rows[k], mkl, slot->integer);
    }
    return block;
}

void km_mkl_params_write(const km_mkl_params *mkl, km_params *params)
{
    for (size_t k = 0; k < N_ROWS; k++) {
        km_param_slot *slot = &params->slots[rows[k].id];
        slot->real = km_param_row_read(&rows[k], mkl);
        slot->integer = km_param_row_read_int(&rows[k], mkl);
        slot->set = 1;
    }
}
