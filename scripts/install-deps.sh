#!/bin/sh
# Installs the Debian packages kernelmix needs to build, test and benchmark.
# Idempotent: packages already present are skipped; apt-get runs only when something is missing.
set -eu

PACKAGES="build-essential cmake pkg-config libopenblas-openmp-dev libopenblas-dev liblapacke-dev libglpk-dev \
libopenmpi-dev openmpi-bin python3 python3-numpy python3-sklearn libsvm-tools \
dataset-fashion-mnist clang libclang-rt-14-dev valgrind"

missing=""
for pkg in $PACKAGES; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $pkg"
    fi
done

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
if [ -z "$missing" ]; then
    echo "install-deps: all packages present"
else
    echo "install-deps: installing$missing"
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq
    # shellcheck disable=SC2086
    $SUDO apt-get install -y -qq --no-install-recommends $missing
fi

# OpenBLAS's OpenMP build: its threads are kernelmix's OpenMP threads. Debian prefers the pthreads
# build, whose own thread pool, waiting for work on the same cores as kernelmix's OpenMP threads,
# slows both down several times. Selected through Debian's alternatives (the libraries and, with
# them, the headers and openblas.pc; numpy follows).
arch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)
dir=/usr/lib/$arch/openblas-openmp
for link in libopenblas.so.0 libopenblas.so libblas.so.3 libblas.so liblapack.so.3 liblapack.so; do
    target=$dir/$link
    name=$link-$arch
    if [ -e "$target" ] && update-alternatives --query "$name" >/dev/null 2>&1 &&
        [ "$(readlink -f "/etc/alternatives/$name")" != "$(readlink -f "$target")" ]; then
        $SUDO update-alternatives --quiet --set "$name" "$target"
    fi
done
