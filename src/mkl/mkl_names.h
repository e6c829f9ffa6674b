/* The names of the kernel-weight methods' enumerations (core/names.h's tables): the methods' own (made
 * from the method table's entries), the solvers', the Tikhonov regularizers', l2krr's centres and the
 * rank-1 alignment weights'. */
#ifndef KM_MKL_MKL_NAMES_H
#define KM_MKL_MKL_NAMES_H

#include "core/names.h"

const km_name *km_mkl_method_name_table(void);
const km_name *km_mkl_solver_name_table(void);
const km_name *km_mkl_regularizer_name_table(void);
const km_name *km_mu0_name_table(void);
const km_name *km_rank1_weight_name_table(void);

#endif
