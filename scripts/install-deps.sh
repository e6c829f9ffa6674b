#!/bin/sh
# Installs the Debian packages kernelmix needs, by purpose:
#   build   compiler, CMake, OpenBLAS (its OpenMP build), LAPACKE, GLPK, MPI
#   test    what the test suite adds: Python with numpy, scikit-learn, cffi, pytest, pip and
#           setuptools (the Python package and its install test), LIBSVM's tools (parity tests), R
#           with the mlbench, caret and kernlab data sets and janeaustenr's novels (the seeds'
#           experiments), clang with its sanitizer and libFuzzer runtimes, valgrind, headless
#           Chromium and xmllint (the plot tests render the figures and check the SVG), iproute2 (the
#           MPI test across hosts made of network namespaces)
#   bench   what bench/run adds: fashion-MNIST, scikit-learn and LIBSVM's tools (the peers)
# usage: scripts/install-deps.sh [build] [test] [bench]     (no argument: all three)
# Idempotent: packages already present are skipped; apt-get runs only when something is missing, and
# waits up to 10 minutes for another apt or dpkg to release its lock. Nothing else on the machine
# changes: in particular the system's BLAS stays what it was. Installing OpenBLAS would switch the
# libblas.so.3 / liblapack.so.3 alternatives in auto mode to it, so their selections are saved before
# apt-get and restored after (scripts/blas-alternatives.sh); the build links OpenBLAS's OpenMP build
# from its own directory (see CMakeLists.txt).
set -eu
here=$(dirname "$0")

BUILD_PACKAGES="build-essential cmake pkg-config libopenblas-openmp-dev liblapacke-dev libglpk-dev \
libopenmpi-dev openmpi-bin"
TEST_PACKAGES="python3 python3-numpy python3-sklearn python3-cffi python3-pytest python3-pip \
python3-setuptools libsvm-tools r-base-core r-cran-mlbench r-cran-caret r-cran-kernlab r-cran-janeaustenr \
clang libclang-rt-14-dev valgrind chromium libxml2-utils iproute2 liblinear-tools"
BENCH_PACKAGES="python3 python3-numpy python3-sklearn libsvm-tools dataset-fashion-mnist"

[ $# -eq 0 ] && set -- build test bench
packages=""
for purpose in "$@"; do
    case "$purpose" in
    build) packages="$packages $BUILD_PACKAGES" ;;
    test) packages="$packages $TEST_PACKAGES" ;;
    bench) packages="$packages $BENCH_PACKAGES" ;;
    *)
        echo "install-deps: '$purpose' is not build, test or bench" >&2
        exit 2
        ;;
    esac
done

missing=""
for pkg in $packages; do
    case " $missing " in *" $pkg "*) continue ;; esac
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $pkg"
    fi
done

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
if [ -z "$missing" ]; then
    echo "install-deps: all packages present ($*)"
else
    echo "install-deps: missing:$missing"
    export DEBIAN_FRONTEND=noninteractive
    saved=$(mktemp)
    "$here/blas-alternatives.sh" save "$saved"
    echo "install-deps: saved the BLAS/LAPACK alternatives: $(wc -l <"$saved") selections"
    restore_alternatives() {
        echo "install-deps: restoring the BLAS/LAPACK alternatives"
        $SUDO "$here/blas-alternatives.sh" restore "$saved"
        rm -f "$saved"
    }
    trap restore_alternatives EXIT
    lock="-o DPkg::Lock::Timeout=600"   # wait for another apt or dpkg instead of failing at once
    echo "install-deps: apt-get update (waiting up to 10 minutes for the apt lock if it is held)"
    # shellcheck disable=SC2086
    $SUDO apt-get $lock update -qq
    echo "install-deps: apt-get install$missing"
    # shellcheck disable=SC2086
    $SUDO apt-get $lock install -y -qq --no-install-recommends $missing
    echo "install-deps: installed$missing"
fi
