/* Data-parallel training (kernelmix.h km_train_data_parallel; docs/large-scale.md, "Several processes
 * and hosts"): the rows split over the processes of an MPI run in contiguous ranges, one map of the
 * low-rank kernels fitted by rank 0 on all rows and shared, each process computing its own rows'
 * features, and the solver on explicit features adding its sums over the processes
 * (km_row_partition: the normal equations Z'Z and Z'B of KRR's Woodbury path, the rounds of dual
 * coordinate descent, and for learned weights the certificate's products and sums). */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/params.h"
#include "dist/dist.h"
#include "kernel/kernel.h"
#include "kernel/nystrom.h"
#include "mkl/method.h"
#include "mkl/mkl.h"
#include "mkl/mkl_params.h"
#include "train/multiclass.h"
#include "train/train.h"

/* Fitted values of one low-rank kernel sent from rank 0: gamma, L, dim, r, then Z (L x dim) and P (L x r). */
#define HEADER 4

/* What km_train_data_parallel trains, or KM_EINVAL saying what it does not. */
static km_status check_scope(const km_dataset *data, const km_kernel_set *kernels, const km_params *params)
{
    if (params->task != KM_TASK_KRR && params->task != KM_TASK_SVC && params->task != KM_TASK_SVR)
        return km_error(KM_EINVAL, "training on rows split over processes solves C-SVC, epsilon-SVR or kernel ridge "
                        "regression (-s krr) on low-rank kernels");
    km_mkl_params given = km_mkl_params_of(params), mkl;
    km_status st = km_mkl_resolve(&given, &mkl);
    if (!st)
        st = km_mkl_check_split_rows(&mkl);
    if (st)
        return st;
    unsigned flags = km_mkl_method_flags(mkl.method);   /* empirical Bayes's bias is the targets' mean */
    if ((flags & KM_METHOD_LEARNS_WEIGHTS) && !(flags & KM_METHOD_EMPIRICAL_BAYES) && params->krr_bias)
        return km_error(KM_EINVAL, "learned kernel weights on rows split over processes need machines without "
                        "bias: the certificate's best bias would need every row");
    if (km_task_classifies(params->task) && params->multiclass != KM_MULTICLASS_OVR) {
        km_classes classes;
        st = km_classes_find(data->labels, data->n, &classes);
        size_t count = classes.n_classes;
        km_classes_clear(&classes);
        if (st)
            return st;
        if (count > 2)
            return km_error(KM_EINVAL, "the one-vs-one machines of %zu classes do not train on rows split over "
                            "processes: choose --multiclass ovr, whose machines each take every row", count);
    }
    if (params->probability)
        return km_error(KM_EINVAL, "training on rows split over processes fits no probability model (-b 1)");
    if (data->text || data->ids)
        return km_error(KM_EINVAL, "training on rows split over processes needs numeric feature rows");
    size_t dimensions = 0;   /* at most: a kernel keeps at most min(R, N) of its R landmarks' dimensions */
    for (size_t m = 0; m < kernels->size; m++)
        dimensions += kernels->kernels[m].rank < data->n ? kernels->kernels[m].rank : data->n;
    if ((flags & KM_METHOD_EMPIRICAL_BAYES) && dimensions >= data->n)
        return km_error(KM_EINVAL, "empirical-Bayes MKL on rows split over processes needs fewer feature "
                        "dimensions in all than rows (the ranks add up to %zu, on %zu rows): lower the ranks",
                        dimensions, data->n);
    for (size_t m = 0; m < kernels->size; m++) {
        const km_kernel *k = &kernels->kernels[m];
        if (!k->rank)
            return km_kernel_error(k, "training on rows split over processes needs every kernel low-rank (rank=R "
                                      "in its spec)");
        if (k->center)
            return km_kernel_error(k, "centring needs every row's features in one process: it is not available "
                                      "on rows split over processes");
        if ((k->norm == KM_NORM_MULTIPLICATIVE || k->norm == KM_NORM_TRACE) && !(k->scale > 0))
            return km_kernel_error(k, "the normalization constant needs every row's features in one process: "
                                      "give it (scale=) or choose norm=none or norm=spherical on rows split over "
                                      "processes");
    }
    return KM_OK;
}

/* Rank 0 fits every kernel's map on all rows; the others receive it. */
static km_status share_map(const km_dataset *data, km_kernel_set *set)
{
    int lead = km_dist_rank() == 0;
    km_status st = lead ? km_nystrom_fit_landmarks(set, data) : KM_OK;
    size_t count = 0;
    for (size_t m = 0; lead && !st && m < set->size; m++) {
        const km_kernel *k = &set->kernels[m];
        count += HEADER + k->n_landmarks * (k->landmark_dim + k->rank_kept);
    }
    double *sent = lead && !st ? malloc((count ? count : 1) * sizeof *sent) : NULL;
    if (lead && !st && !sent)
        st = km_error_nomem("the kernels' landmarks");
    for (size_t m = 0, at = 0; sent && m < set->size; m++) {
        const km_kernel *k = &set->kernels[m];
        double header[HEADER] = {k->gamma, (double)k->n_landmarks, (double)k->landmark_dim, (double)k->rank_kept};
        memcpy(sent + at, header, sizeof header);
        at += HEADER;
        memcpy(sent + at, k->landmarks, k->n_landmarks * k->landmark_dim * sizeof *sent);
        at += k->n_landmarks * k->landmark_dim;
        memcpy(sent + at, k->projection, k->n_landmarks * k->rank_kept * sizeof *sent);
        at += k->n_landmarks * k->rank_kept;
    }
    if ((st = km_dist_agree(st, ": rank 0 could not fit the kernels"))) {   /* rank 0 has said why */
        free(sent);
        return st;
    }
    size_t bytes = count * sizeof *sent;
    if ((st = km_dist_broadcast_bytes((void **)&sent, &bytes)))
        return st;
    for (size_t m = 0, at = 0; !lead && !st && m < set->size; m++) {
        km_kernel *k = &set->kernels[m];
        size_t L = (size_t)sent[at + 1], dim = (size_t)sent[at + 2], r = (size_t)sent[at + 3];
        k->gamma = sent[at];
        k->gamma_mode = KM_GAMMA_ABSOLUTE;
        at += HEADER;
        k->landmarks = malloc((L && dim ? L * dim : 1) * sizeof *k->landmarks);
        k->projection = malloc((L && r ? L * r : 1) * sizeof *k->projection);
        if (!k->landmarks || !k->projection) {
            st = km_error_nomem("the kernels' landmarks");
            break;
        }
        memcpy(k->landmarks, sent + at, L * dim * sizeof *sent);
        at += L * dim;
        memcpy(k->projection, sent + at, L * r * sizeof *sent);
        at += L * r;
        k->n_landmarks = L;
        k->landmark_dim = dim;
        k->rank_kept = r;
    }
    free(sent);
    return km_dist_agree(st, " to hold the kernels' landmarks");
}

km_status km_train_data_parallel(const km_dataset *train, const km_kernel_set *kernels, const km_params *params,
                                 km_model **out)
{
    *out = NULL;
    if (km_dist_size() == 1)
        return km_train(train, kernels, params, out);
    /* every process checks every row, so that they fail together or go on together */
    km_status st = km_train_check_inputs(train, NULL, train->n, kernels, params);
    if (!st)
        st = check_scope(train, kernels, params);
    if (st && km_dist_rank() != 0)   /* the same on every process: rank 0 says it */
        return km_error(st, KM_DIST_FAILED_ELSEWHERE ": rank 0 says why");
    if (st)
        return st;
    size_t K = (size_t)km_dist_size(), rank = (size_t)km_dist_rank(), N = train->n;
    if (N < K)
        return km_error(KM_EINVAL, "%zu rows cannot be split over %zu processes: give each at least one", N, K);
    size_t first = N * rank / K, n = N * (rank + 1) / K - first;
    km_kernel_set *fitted = NULL;
    size_t *rows = malloc(n * sizeof *rows);
    st = rows ? km_kernel_set_copy(kernels, &fitted) : km_error_nomem("the rows of this process");
    if (!(st = km_dist_agree(st, "")))
        st = share_map(train, fitted);
    for (size_t i = 0; !st && i < n; i++)
        rows[i] = first + i;
    km_row_partition partition = {.n_total = N, .parts = K, .sum = km_dist_sum, .maximum = km_dist_maximum};
    if (!st)
        st = km_train_rows_partitioned(train, rows, n, fitted, params, &partition, out);
    free(rows);
    km_kernel_set_free(fitted);
    return st;
}
