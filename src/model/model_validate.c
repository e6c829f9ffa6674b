/* km_model_validate: the values of a model read from a file, checked as training checks them, so that
 * an edited file (checksum recomputed) cannot make prediction compute NaN or allocate what the file
 * cannot justify. */
#include <math.h>

#include "core/error.h"
#include "data/dataset.h"
#include "kernel/kernel_eval.h"
#include "kernel/kernel_family.h"
#include "mkl/method.h"
#include "model/model_io.h"

static km_status check_parameters(const km_model *model, const char *path)
{
    if (!(model->C > 0))
        return km_error(KM_EFORMAT, "%s: C %g is not positive", path, model->C);
    if (!(model->epsilon >= 0))
        return km_error(KM_EFORMAT, "%s: epsilon %g is negative", path, model->epsilon);
    if (!(model->nu > 0 && model->nu <= 1))
        return km_error(KM_EFORMAT, "%s: nu %g is not within (0, 1]", path, model->nu);
    if (!(model->tolerance > 0))
        return km_error(KM_EFORMAT, "%s: tolerance %g is not positive", path, model->tolerance);
    const km_mkl_params *mkl = &model->mkl;
    if (!(km_mkl_method_flags(mkl->method) & KM_METHOD_LEARNS_WEIGHTS))
        return KM_OK;
    if (!(mkl->lambda >= 0 && mkl->lambda <= 1))
        return km_error(KM_EFORMAT, "%s: MKL lambda %g is not within [0, 1]", path, mkl->lambda);
    if (!(mkl->gap > 0))
        return km_error(KM_EFORMAT, "%s: MKL target gap %g is not positive", path, mkl->gap);
    return KM_OK;
}

/* The values kernel evaluation divides by, raises to or exponentiates with (kernel_spec.c checks the
 * same at training time). */
static km_status check_kernel(const km_kernel *k, size_t m, const char *path)
{
    int uses_gamma = k->type == KM_KERNEL_RBF || k->type == KM_KERNEL_CHI2 || k->type == KM_KERNEL_POLY ||
                     k->type == KM_KERNEL_SIGMOID;
    if (uses_gamma && k->fitted && !(k->gamma > 0))
        return km_error(KM_EFORMAT, "%s: kernel %zu: gamma %g is not positive", path, m + 1, k->gamma);
    if (k->type == KM_KERNEL_POLY && !(k->degree >= 1 && k->degree <= 1024 && k->degree == floor(k->degree)))
        return km_error(KM_EFORMAT, "%s: kernel %zu: degree %g is not an integer in 1..1024", path, m + 1, k->degree);
    if (!(k->scale > 0 && isnormal(k->scale)))
        return km_error(KM_EFORMAT, "%s: kernel %zu: normalization scale %g is not a positive normal number", path,
                        m + 1, k->scale);
    if (k->center && k->fitted && !k->col_mean)
        return km_error(KM_EFORMAT, "%s: kernel %zu: centred without column means", path, m + 1);
    const km_kernel_family *base = km_kernel_family_of(k->type);
    if (k->rank && (!base || base->input != KM_INPUT_DOT))
        return km_error(KM_EFORMAT, "%s: kernel %zu: a %s kernel has no low-rank form (rank %zu)", path, m + 1,
                        km_kernel_type_name(k->type), k->rank);
    if (k->rank && k->fitted && !k->projection)
        return km_error(KM_EFORMAT, "%s: kernel %zu: a low-rank kernel without landmarks", path, m + 1);
    if (k->projection && !(k->n_landmarks <= k->rank && k->rank_kept >= 1 && k->rank_kept <= k->n_landmarks &&
                           k->landmark_dim == (k->features ? k->n_features : k->landmark_dim)))
        return km_error(KM_EFORMAT, "%s: kernel %zu: %zu landmarks of %zu values and a projection to %zu "
                        "dimensions do not fit rank %zu and its features", path, m + 1, k->n_landmarks,
                        k->landmark_dim, k->rank_kept, k->rank);
    return KM_OK;
}

static km_status check_weights(const km_model *model, const char *path)
{
    size_t M = model->kernels->size;
    for (size_t p = 0; p < model->n_machines; p++) {
        const km_machine *machine = &model->machines[p];
        for (size_t i = 0; i < M * model->weight_groups; i++)
            if (!(machine->theta[i] >= 0))
                return km_error(KM_EFORMAT, "%s: machine %zu: kernel weight %g is negative", path, p + 1,
                                machine->theta[i]);
        for (size_t m = 0; machine->block_norms && m < M; m++)
            if (!(machine->block_norms[m] >= 0))
                return km_error(KM_EFORMAT, "%s: machine %zu: block norm %g is negative", path, p + 1,
                                machine->block_norms[m]);
    }
    return KM_OK;
}

/* Probability models exist only where training fits them: classifiers with one-vs-one machines, and
 * regression (whose noise width is not negative). */
static km_status check_probability(const km_model *model, const char *path)
{
    if (!model->probability)
        return KM_OK;
    if (model->task == KM_TASK_ONECLASS)
        return km_error(KM_EFORMAT, "%s: a one-class model with probability models", path);
    for (size_t p = 0; km_task_classifies(model->task) && p < model->n_machines; p++)
        if (model->machines[p].class_neg < 0)
            return km_error(KM_EFORMAT, "%s: probability models of one-vs-rest machine %zu", path, p + 1);
    if (km_task_regresses(model->task) && !(model->laplace_sigma >= 0))
        return km_error(KM_EFORMAT, "%s: Laplace width %g is negative", path, model->laplace_sigma);
    return KM_OK;
}

/* The largest feature index (1-based) the file names: in sparse basis rows and kernel feature lists. */
static size_t largest_feature_named(const km_model *model)
{
    size_t largest = 0;
    const km_dataset *basis = model->basis;
    for (size_t e = 0; basis->sparse && e < basis->row_start[basis->n]; e++)
        if ((size_t)basis->col[e] + 1 > largest)
            largest = (size_t)basis->col[e] + 1;
    for (size_t m = 0; m < model->kernels->size; m++) {
        const km_kernel *k = &model->kernels->kernels[m];
        if (k->n_features && (size_t)k->features[k->n_features - 1] + 1 > largest)
            largest = (size_t)k->features[k->n_features - 1] + 1;
    }
    return largest;
}

/* Prediction sets up work arrays of the data's dimension: a dimension beyond every feature the file
 * names must at least be paid for by the file's bytes. */
static km_status check_dimensions(const km_model *model, const char *path, size_t file_size)
{
    size_t bound = largest_feature_named(model);
    if (bound < file_size)
        bound = file_size;
    if (model->basis->d > bound)
        return km_error(KM_EFORMAT, "%s: basis dimension %zu is beyond every feature the %zu-byte model names",
                        path, model->basis->d, file_size);
    if (model->kernels->dimension > bound)
        return km_error(KM_EFORMAT, "%s: kernel dimension %zu is beyond every feature the %zu-byte model names",
                        path, model->kernels->dimension, file_size);
    return KM_OK;
}

km_status km_model_validate(km_model *model, const char *path, size_t file_size)
{
    km_status st = check_parameters(model, path);
    for (size_t m = 0; !st && m < model->kernels->size; m++)
        st = check_kernel(&model->kernels->kernels[m], m, path);
    if (!st)
        st = check_weights(model, path);
    if (!st && model->basis->n > model->n_train)   /* the basis rows are training rows */
        st = km_error(KM_EFORMAT, "%s: n_train %zu: fewer training rows than the %zu basis rows", path, model->n_train,
                      model->basis->n);
    if (!st)
        st = check_dimensions(model, path, file_size);
    if (!st)
        st = check_probability(model, path);
    return st;
}
