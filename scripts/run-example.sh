#!/bin/sh
# Sets up, builds, and runs the main job on bundled example data: lp-norm multiple kernel learning
# (p = 4/3) over seven kernels on 200 rows of LIBSVM's heart_scale sample, then prediction of the 70
# held-out rows. Prints a line per stage, then the kernels, their learned weights, the duality gap and
# the test accuracy. The output of the set-up and the build (apt-get, CMake, the compiler) goes to
# build/run-example.log, whose path is printed if a stage fails.
set -eu
cd "$(dirname "$0")/.."
mkdir -p build
log="$PWD/build/run-example.log"
: >"$log"

stage() {
    echo "run-example: $1"
}

# quietly COMMAND...: runs it with its output in the log; on failure names the log and stops
quietly() {
    if ! "$@" >>"$log" 2>&1; then
        echo "run-example: failed: $*" >&2
        echo "run-example: its output is in $log; the last lines:" >&2
        tail -n 15 "$log" >&2
        exit 1
    fi
}

stage "installing packages (scripts/install-deps.sh build; waits if another apt holds its lock)"
quietly ./scripts/install-deps.sh build
stage "configuring (CMake, Release build in build/)"
quietly cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
stage "building (cmake --build build)"
quietly cmake --build build -j "$(nproc)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
head -n 200 examples/data/heart_scale >"$work/train"
tail -n 70 examples/data/heart_scale >"$work/test"
stage "training: lp-norm MKL (p = 4/3) over 7 kernels on 200 rows of heart_scale"
build/kernelmix train --kernel 'rbf:gamma=2^-3..2^1/mean' --kernel 'poly:degree=2:coef0=1' --kernel linear \
    --norm mult --mkl lp --p 4/3 "$work/train" "$work/model"
stage "predicting the 70 held-out rows"
build/kernelmix predict "$work/test" "$work/model" "$work/predictions"
