/* The public side of localized MKL's clustering: km_cluster on a dataset, and a localized model's
 * weight groups and memberships (docs/clmkl.md). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/params.h"
#include "data/dataset.h"
#include "kernel/kernel_view.h"
#include "kernel/provider.h"
#include "mkl/clmkl.h"
#include "mkl/method.h"
#include "svm/view_access.h"
#include "train/model.h"
#include "train/train.h"

size_t km_model_weight_groups(const km_model *model) { return model->weight_groups; }

km_status km_model_cluster_tau(const km_model *model, double *tau, double *evenness)
{
    km_clustering clustering;
    if (!km_record_values(&model->data, KM_CLMKL_SECTION, "labels", NULL, NULL))
        return km_error(KM_EINVAL, "the model has no clusters (trained with --mkl %s)",
                        km_enum_name(KM_ENUM_MKL_METHOD, model->mkl.method));
    size_t rows;
    km_record_values(&model->data, KM_CLMKL_SECTION, "labels", &rows, NULL);
    km_status st = km_clustering_read(&model->data, rows, model->weight_groups, model->kernels->size, &clustering);
    if (!st) {
        *tau = clustering.tau;
        *evenness = clustering.evenness;
    }
    return st;
}

void km_model_clustering_params(const km_model *model, km_mkl_params *mkl)
{
    km_clustering clustering;
    size_t rows;
    const char *key = km_record_values(&model->data, KM_CLMKL_SECTION, "labels", NULL, NULL) ? "labels" : "gating";
    if (!km_record_values(&model->data, KM_CLMKL_SECTION, key, &rows, NULL) ||
        km_clustering_read(&model->data, rows, model->weight_groups, model->kernels->size, &clustering))
        return;
    mkl->cluster_kernel = (long)clustering.cluster_kernel;
    mkl->cluster_only = clustering.cluster_only;
    if (clustering.gating) /* LMKL: one gate per kernel, no k-means clusters */
        return;
    mkl->clusters = (long)clustering.l;
    mkl->cluster_tau = clustering.tau;
    mkl->cluster_ae = clustering.evenness;
}

km_status km_cluster(const km_dataset *data, const km_kernel_set *kernels, const km_params *params, size_t *labels,
                     double *memberships, double *tau)
{
    if (!kernels || kernels->size == 0)
        return km_error(KM_EINVAL, "no kernels given");
    km_status st = km_params_check(params, kernels->size);
    if (st)
        return st;
    km_mkl_params mkl = km_mkl_params_of(params);
    size_t n = data->n, l = (size_t)mkl.clusters;
    mkl.cluster_seed = params->seed;
    if ((st = km_clusters_check(&mkl, n, data->source)))
        return st;
    if (mkl.cluster_kernel > (long)kernels->size)
        return km_error(KM_EINVAL, "the clustering kernel %ld is not one of the %zu kernels", mkl.cluster_kernel,
                        kernels->size);
    if (km_mkl_method_flags(mkl.method) & KM_METHOD_HARD_MEMBERSHIPS)
        mkl.cluster_tau = INFINITY;
    km_logger logger = {params->log, params->log_user};
    km_cache *cache = NULL;
    km_provider *provider = NULL;
    km_kernel_view *view = NULL;
    km_record record = {0};
    km_clustering clustering;
    st = km_cache_new(km_params_cache_bytes(params), &cache);
    if (!st)
        st = km_provider_new_shared(data, NULL, n, kernels, cache, KM_PROVIDER_PER_KERNEL, &logger, &provider);
    if (!st)
        st = km_kernel_view_new(provider, NULL, n, &view);
    if (!st) {
        km_kernel_access access = km_kernel_access_from_view(view, NULL);
        st = km_clmkl_cluster(&access, &mkl, NULL, &logger, &record, &clustering);
    }
    if (!st) {
        for (size_t i = 0; i < n; i++)
            labels[i] = (size_t)clustering.labels[i];
        memcpy(memberships, clustering.memberships, n * l * sizeof *memberships);
        *tau = clustering.tau;
    }
    km_record_clear(&record);
    km_kernel_view_free(view);
    km_provider_free(provider);
    km_cache_free(cache);
    return st;
}
