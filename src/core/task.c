/* What each task learns: class labels or real values (one-class SVM: neither, it flags outliers). */
#include "kernelmix.h"

int km_task_classifies(km_task task)
{
    return task == KM_TASK_SVC || task == KM_TASK_NU_SVC;
}

int km_task_regresses(km_task task)
{
    return task == KM_TASK_SVR || task == KM_TASK_NU_SVR || task == KM_TASK_KRR;
}
