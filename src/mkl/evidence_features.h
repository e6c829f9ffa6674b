/* The Woodbury path of the evidence (mkl/evidence.h, km_evidence_alloc_features): what evidence.c
 * calls on an evidence whose kernels are explicit features. */
#ifndef KM_MKL_EVIDENCE_FEATURES_H
#define KM_MKL_EVIDENCE_FEATURES_H

#include "mkl/evidence.h"

/* km_evidence_eval on ev->features. */
km_status km_evidence_features_eval(km_evidence *ev, const double *y, const double *d, double noise, int with_traces);
void km_evidence_features_free(km_evidence_features *f);

#endif
