#!/bin/sh
# Sets up, builds, and runs the main job on bundled example data: lp-norm multiple kernel learning
# (p = 4/3) over seven kernels on 200 rows of LIBSVM's heart_scale sample, then prediction of the 70
# held-out rows. Prints the kernels, their learned weights, the duality gap and the test accuracy.
set -eu
cd "$(dirname "$0")/.."
./scripts/build.sh >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
head -n 200 examples/data/heart_scale >"$work/train"
tail -n 70 examples/data/heart_scale >"$work/test"
build/kernelmix train --kernel 'rbf:gamma=2^-3..2^1/mean' --kernel 'poly:degree=2:coef0=1' --kernel linear \
    --norm mult --mkl lp --p 4/3 "$work/train" "$work/model"
build/kernelmix predict "$work/test" "$work/model" "$work/predictions"
