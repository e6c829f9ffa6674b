/* The names of the kernel-weight enumerations (mkl/mkl_names.h); the methods' are in methods.c. */
#include "mkl/mkl_names.h"

static const km_name solver_names[] = {{KM_MKL_INTERLEAVED, "interleaved"}, {KM_MKL_WRAPPER, "wrapper"},
                                       {KM_MKL_SILP, "silp"}, {KM_MKL_SIMPLEMKL, "simplemkl"},
                                       {KM_MKL_SIMPLEX, "simplex"}, {KM_MKL_PEGASOS, "pegasos"}, {0, NULL}};

static const km_name regularizer_names[] = {{KM_REG_LQ, "lq"},         {KM_REG_BLOCK1, "block1"},
                                            {KM_REG_UNIFORM, "uniform"}, {KM_REG_BLOCKP, "blockp"},
                                            {KM_REG_ELASTICNET, "elasticnet"}, {0, NULL}};

static const km_name mu0_names[] = {{KM_MU0_ZERO, "zero"}, {KM_MU0_UNIFORM, "uniform"}, {KM_MU0_GIVEN, "given"},
                                    {0, NULL}};

static const km_name rank1_weight_names[] = {{KM_RANK1_WEIGHT_CORR2, "corr2"}, {KM_RANK1_WEIGHT_CORR, "corr"},
                                             {0, NULL}};

const km_name *km_mkl_solver_name_table(void)
{
    return solver_names;
}

const km_name *km_mkl_regularizer_name_table(void)
{
    return regularizer_names;
}

const km_name *km_mu0_name_table(void)
{
    return mu0_names;
}

const km_name *km_rank1_weight_name_table(void)
{
    return rank1_weight_names;
}
