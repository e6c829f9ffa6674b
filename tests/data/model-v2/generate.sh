#!/bin/sh
# Writes the version-2 model files of this folder (the kernel-weight methods' [mkl] sections under their
# fixed keys) and their predictions with a kernelmix that writes format version 2 (the files here were
# written by the CLI built from commit 0437958), on the data of ../model-v1:
#   sh generate.sh PATH/TO/kernelmix
# tests/unit/test_model_goldens.c loads each model with the current reader and checks that it predicts
# what the writer predicted and keeps the method's parameters.
set -eu
km=$1
cd "$(dirname "$0")"
d=../model-v1
K2="--kernel rbf:gamma=0.05 --kernel linear --kernel poly:degree=2:coef0=1:norm=mult"
$km train -q $K2 --mkl lp --p 4/3 --solver wrapper --mkl-eps 1e-4 $d/heart_train lp.model
$km train -q $K2 --mkl tikhonov --regularizer elasticnet --reg-param 0.3 -c 4 $d/heart_train tikhonov.model
$km train -q $K2 --mkl align-q --align-q 3 --radius 2 $d/heart_train align_q.model
$km train -q $K2 --mkl clmkl --clusters 2 --ae 0.6 --p 2 $d/heart_train clmkl.model
$km train -q $K2 --mkl obscure --epochs 5 --seed 3 $d/heart_train obscure.model
$km train -q -s krr -c 2 $K2 --mkl l2krr --eta 0.5 --mu0 uniform --radius 3 $d/regression_train l2krr.model
$km train -q -s krr $K2 --mkl eb-rw --noise 0.2 --eb-inner 5 $d/regression_train eb_rw.model
for m in lp tikhonov align_q clmkl obscure; do
    $km predict -q --decision-values $d/heart_test $m.model $m.predictions
done
for m in l2krr eb_rw; do
    $km predict -q --decision-values $d/regression_test $m.model $m.predictions
done
