/* The training parameters behind the opaque km_params handle (kernelmix.h): the machine's and the
 * run's as fields (library code reads them directly), every other layer's parameters as a generic
 * store by id (km_param_slot), read through their rows (mkl/mkl_params.h: km_mkl_params_of).
 * Internal code and the unit tests may build a block on the stack from km_params_default() and set
 * fields, arrays included, and slots (km_params_store) without the handle's checks. */
#ifndef KM_CORE_PARAMS_H
#define KM_CORE_PARAMS_H

#include <stdint.h>

#include "core/param_row.h"
#include "kernelmix.h"

/* A parameter without a field of its own here (the kernel-weight methods', mkl/mkl_params.h): its value
 * as set, both as a double and as an integer (which one the parameter's row reads); unset: the row's
 * default. */
typedef struct km_param_slot {
    double real;
    int64_t integer;
    int set;
} km_param_slot;
#define KM_PARAM_SLOTS 128   /* km_param ids are below this */

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
    km_param_slot slots[KM_PARAM_SLOTS];   /* by km_param id: the values of the rows of other layers */
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

/* The defaults of every parameter, as a value (arrays and callbacks NULL, every slot unset). */
km_params km_params_default(void);

/* The rows of the parameters stored as fields here (task, C, ..., the cache, seed, probability). */
const km_param_row *km_params_field_rows(size_t *count);

/* Sets slot id to value (both forms; no check): a parameter of another layer's rows. */
void km_params_store(km_params *params, km_param id, double value);

/* Whether two blocks train alike but for the parameters listed in except (0-terminated): every field
 * row's value, every slot, the class weights and the fixed kernel weights equal (weights without a
 * count, one per kernel: the same array, or none in both). */
int km_params_same_except(const km_params *a, const km_params *b, const km_param *except);

/* Checks a block before training with n_kernels kernels: the values a handle's setters check, plus
 * what a block built in code may get wrong (enum values, arrays) and the kernel-weight count. */
km_status km_params_check(const km_params *params, size_t n_kernels);

#endif
