/* The method table: one line per kernel-weight method, and the name table made from its entries. */
#include "mkl/method.h"

#include <pthread.h>

#include "core/error.h"
#include "mkl/mkl_names.h"

/* A test build adds a method of its own: KM_EXTRA_METHOD, the name of its entry (tests/CMakeLists.txt). */
#ifdef KM_EXTRA_METHOD
#define KM_EXTRA_METHODS(X) X(KM_EXTRA_METHOD)
#else
#define KM_EXTRA_METHODS(X)
#endif

#define KM_METHODS(X)                                                                                              \
    X(km_method_fixed)                                                                                             \
    X(km_method_lp)                                                                                                \
    X(km_method_elasticnet)                                                                                        \
    X(km_method_tikhonov)                                                                                          \
    X(km_method_align)                                                                                             \
    X(km_method_align_q)                                                                                           \
    X(km_method_alignf)                                                                                            \
    X(km_method_alignf_linear)                                                                                     \
    X(km_method_l2krr)                                                                                             \
    X(km_method_l1krr)                                                                                             \
    X(km_method_eb_rw)                                                                                             \
    X(km_method_eb_mackay)                                                                                         \
    X(km_method_obscure)                                                                                           \
    X(km_method_clmkl)                                                                                             \
    X(km_method_hlmkl)                                                                                             \
    X(km_method_lmkl)                                                                                              \
    KM_EXTRA_METHODS(X)

#define DECLARE(entry) extern const km_mkl_method_entry entry;
#define ADDRESS(entry) &entry,
KM_METHODS(DECLARE)
static const km_mkl_method_entry *const methods[] = {KM_METHODS(ADDRESS)};
#define N_METHODS (sizeof methods / sizeof *methods)

const km_mkl_method_entry *km_mkl_method_of(km_mkl_method id)
{
    for (size_t k = 0; k < N_METHODS; k++)
        if (methods[k]->id == id)
            return methods[k];
    return NULL;
}

const km_mkl_method_entry *km_mkl_method_at(size_t k)
{
    return k < N_METHODS ? methods[k] : NULL;
}

/* Every entry's name, then its alias where it has one (core/names.h's order: canonical names first). */
static km_name method_names[2 * N_METHODS + 1];
static pthread_once_t method_names_once = PTHREAD_ONCE_INIT;

static void make_method_names(void)
{
    size_t n = 0;
    for (size_t k = 0; k < N_METHODS; k++)
        method_names[n++] = (km_name){(int)methods[k]->id, methods[k]->name};
    for (size_t k = 0; k < N_METHODS; k++)
        if (methods[k]->alias)
            method_names[n++] = (km_name){(int)methods[k]->id, methods[k]->alias};
    method_names[n] = (km_name){0, NULL};
}

const km_name *km_mkl_method_name_table(void)
{
    pthread_once(&method_names_once, make_method_names);
    return method_names;
}

unsigned km_mkl_method_flags(km_mkl_method id)
{
    const km_mkl_method_entry *method = km_mkl_method_of(id);
    return method ? method->flags : 0;
}

km_status km_mkl_check_split_rows(const km_mkl_params *mkl)
{
    const km_mkl_method_entry *method = km_mkl_method_of(mkl->method);
    if (!method || !(method->flags & KM_METHOD_LEARNS_WEIGHTS))
        return KM_OK;
    if (!(method->flags & KM_METHOD_SPLIT_ROWS))
        return km_error(KM_EINVAL, "--mkl %s does not train on rows split over processes (fixed, lp, elasticnet, "
                        "eb-rw and eb-mackay do)", method->name);
    if (mkl->solver != KM_MKL_WRAPPER && mkl->solver != KM_MKL_INTERLEAVED)
        return km_error(KM_EINVAL, "on rows split over processes --mkl %s is solved by the wrapper (--solver "
                        "wrapper, or interleaved, which on low-rank kernels is the wrapper)", method->name);
    if (mkl->max_time > 0)
        return km_error(KM_EINVAL, "a time limit would stop the processes of a split training at different steps: "
                        "limit the outer steps instead");
    return KM_OK;
}

km_param km_mkl_path_parameter(const km_mkl_params *mkl, const char **title)
{
    const km_mkl_method_entry *method = km_mkl_method_of(mkl->method);
    return method && method->path_parameter ? method->path_parameter(mkl, title) : 0;
}
