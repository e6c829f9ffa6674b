#!/bin/sh
# Writes the version-1 model files of this folder and their predictions with a kernelmix that writes
# format version 1 (the files here were written by the CLI built from commit f9cfd73):
#   sh generate.sh PATH/TO/kernelmix
# tests/unit/test_model_v1.c loads each model with the current reader and checks that it predicts
# exactly (bit for bit) the decision values stored beside it.
set -eu
km=$1
cd "$(dirname "$0")"
$km train -q --kernel rbf:gamma=0.05 --kernel linear --weights 0.7,0.3 heart_train svc.model
$km predict -q --decision-values heart_test svc.model svc.predictions
$km train -q --kernel 'rbf:gamma=2^-2..2^1/mean' --kernel poly:degree=2:coef0=1 --norm mult --mkl lp --p 4/3 \
    iris_train.csv ovo_mkl.model
$km predict -q --decision-values iris_test.csv ovo_mkl.model ovo_mkl.predictions
$km train -q -s 3 -c 4 -p 0.05 --kernel rbf:gamma=0.5 --kernel 'poly:degree=3:gamma=0.25:coef0=1:norm=spherical' \
    regression_train svr.model
$km predict -q --decision-values regression_test svr.model svr.predictions
$km train -q -s 2 -n 0.3 --kernel rbf:gamma=0.1:center=1 heart_positive oneclass.model
$km predict -q --decision-values heart_test oneclass.model oneclass.predictions
$km train -q -t 4 -c 0.5 precomputed_train precomputed.model
$km predict -q --decision-values precomputed_test precomputed.model precomputed.predictions
