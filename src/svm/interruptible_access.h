/* A kernel access whose column requests poll the caller's interrupt: long passes over kernel columns
 * outside the solver (the alignment statistics, O(M n^2) kernel values before any machine trains)
 * then stop within a few columns of a Ctrl-C, as the solver does within 100 iterations. */
#ifndef KM_SVM_INTERRUPTIBLE_ACCESS_H
#define KM_SVM_INTERRUPTIBLE_ACCESS_H

#include "svm/svm.h"

typedef struct km_interruptible_access {
    km_kernel_access access;        /* pass &this->access; it refers back to this struct, which must not move */
    const km_kernel_access *inner;
    int (*interrupted)(void *ctx);  /* NULL: never interrupted */
    void *interrupt_ctx;
    const char *what;               /* the pass, for the message "interrupted while computing WHAT" */
    unsigned requests;
} km_interruptible_access;

/* Wraps inner's callbacks (those it has). A request after the caller asked to stop fails with
 * KM_EINTERRUPTED: a request of one column polls every few requests, one of a block of columns
 * before it starts and, where values are costly (svm.h costly_values), before every piece of
 * km_costly_block_columns columns. */

void km_interruptible_access_init(km_interruptible_access *a, const km_kernel_access *inner,
                                  int (*interrupted)(void *ctx), void *interrupt_ctx, const char *what);

#endif
