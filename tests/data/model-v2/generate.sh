#!/bin/sh
# Writes one current-format (version 2) model file per kernel-weight method, on the data of
# ../model-v1, and the decision values each predicts (the files here were written by the CLI built
# from commit 0437958):
#   sh generate.sh PATH/TO/kernelmix
# tests/unit/test_model_v2_goldens.c loads each model and checks that it predicts the decision values
# stored beside it.
set -eu
km=$1
cd "$(dirname "$0")"
d=../model-v1
kernels="--kernel rbf:gamma=0.05 --kernel linear --kernel poly:degree=2:coef0=1"
model() {
    name=$1 test=$2
    shift 2
    $km train -q $kernels "$@" $name.model
    $km predict -q --decision-values $d/$test $name.model $name.predictions
}
model lp heart_test --mkl lp --p 4/3 $d/heart_train
model lp_shared iris_test.csv --mkl lp --shared-weights $d/iris_train.csv
model elasticnet heart_test --mkl elasticnet --lambda 0.3 $d/heart_train
model tikhonov heart_test --mkl tikhonov --regularizer lq --reg-param 2 $d/heart_train
model tikhonov_elasticnet heart_test --mkl tikhonov --regularizer elasticnet --reg-param 0.4 $d/heart_train
model align_q heart_test --mkl align-q --align-q 3 $d/heart_train
model alignf heart_test --mkl alignf $d/heart_train
model l2krr regression_test -s krr --mkl l2krr --eta 0.3 --mu0 uniform $d/regression_train
model l1krr regression_test -s krr --mkl l1krr $d/regression_train
model eb_rw regression_test -s krr --mkl eb-rw $d/regression_train
model eb_mackay regression_test -s krr --mkl eb-mackay --learn-noise $d/regression_train
model obscure heart_test --mkl obscure $d/heart_train
model obscure_joint iris_test.csv --mkl obscure $d/iris_train.csv
model clmkl heart_test --mkl clmkl --clusters 2 $d/heart_train
model hlmkl heart_test --mkl hlmkl --clusters 2 $d/heart_train
model lmkl heart_test --mkl lmkl $d/heart_train
