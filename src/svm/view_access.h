/* The kernel access of a kernel view: the one way a solver's km_kernel_access (svm/svm.h) is made from
 * a view of the provider's kernels (kernel/kernel_view.h). Differences between users (an interrupt,
 * localized kernels) are wrappers on top of it (svm/interruptible_access.h, mkl/clmkl.h). */
#ifndef KM_SVM_VIEW_ACCESS_H
#define KM_SVM_VIEW_ACCESS_H

#include "kernel/kernel_view.h"
#include "svm/svm.h"

/* The view's kernels on its rows with combination weights theta (one per view kernel; NULL where no
 * one combines them): every callback a view serves, with the view as their context (column,
 * kernel_columns, kernel_blocks, combined; kernel_rows where its columns lie in memory,
 * km_kernel_view_in_place_size), its diagonal and the flags columns_derived and costly_values. The view
 * and theta must outlive the access. */
km_kernel_access km_kernel_access_from_view(km_kernel_view *view, double *theta);

/* The view of an access made by km_kernel_access_from_view; NULL for any other access (a wrapper's). */
const km_kernel_view *km_kernel_access_view(const km_kernel_access *access);

#endif
