# The toy method (method_toy.c) through the command line built with it: its option and help come from
# the tables, an option it does not read is refused, its model is described and predicts.
. "$(dirname "$0")/../cli/lib.sh" "$@"
TRAIN="$ROOT/tests/data/model-v1/heart_train"
K3="--kernel rbf:gamma=0.05 --kernel linear --kernel poly:degree=2:coef0=1:norm=mult"

expect_status 0 "$KM" train --help && { grep -q "^  toy  " "$WORK/out" || fail "train --help does not list toy"; }
expect_status 0 "$KM" train --help --mkl toy &&
    { grep -q "^  --radius R" "$WORK/out" && ! grep -q "^  --p P" "$WORK/out" || fail "train --help --mkl toy: $(cat "$WORK/out")"; }
expect_status 2 "$KM" train -q --mkl toy --p 2 $K3 "$TRAIN" "$WORK/m" &&
    expect_one_line_error "--p is read by --mkl lp, obscure, clmkl, hlmkl only \(this run uses --mkl toy\)"
expect_status 0 "$KM" train -q --mkl toy --radius 3 $K3 "$TRAIN" "$WORK/toy.model"
grep -qx "method toy" "$WORK/toy.model" && grep -qx "mkl_radius 3" "$WORK/toy.model" || fail "the model does not keep the method"
expect_status 0 "$KM" info "$WORK/toy.model" && { grep -q "toy" "$WORK/out" || fail "info does not name toy"; }
expect_status 0 "$KM" predict -q "$ROOT/tests/data/model-v1/heart_test" "$WORK/toy.model" "$WORK/toy.predictions"
finish
