/* Which parameters a training run reads (km_param_read_by): the tasks' lists (km_machine_ops.params,
 * svm/machine.h) and the kernel-weight methods' lists (km_mkl_method_entry.params, mkl/method.h). A
 * parameter some task lists is read by the tasks that list it only, unless the method does not pass it
 * on (km_mkl_method_entry.ignores); a parameter some method lists, by the methods that list it only. */
#include "core/params.h"
#include "mkl/method.h"
#include "svm/machine.h"

static int listed(const km_param *list, km_param id)
{
    for (; list && *list; list++)
        if (*list == id)
            return 1;
    return 0;
}

static int some_task_lists(km_param id)
{
    const km_machine_ops *ops;
    for (size_t k = 0; (ops = km_machine_ops_at(k)); k++)
        if (listed(ops->params, id))
            return 1;
    return 0;
}

static int some_method_lists(km_param id)
{
    const km_mkl_method_entry *method;
    for (size_t k = 0; (method = km_mkl_method_at(k)); k++)
        if (listed(method->params, id))
            return 1;
    return 0;
}

int km_param_read_by(km_param id, km_task task, km_mkl_method method)
{
    const km_machine_ops *ops = km_machine_ops_of(task);
    const km_mkl_method_entry *entry = km_mkl_method_of(method);
    if (!ops || !entry || !km_param_name(id))
        return 0;
    if (some_task_lists(id) && (!listed(ops->params, id) || listed(entry->ignores, id)))
        return 0;
    return !some_method_lists(id) || listed(entry->params, id);
}
