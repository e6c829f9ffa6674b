#!/bin/sh
# Installs the Debian packages kernelmix needs to build, test and benchmark.
# Idempotent: packages already present are skipped; apt-get runs only when something is missing.
set -eu

PACKAGES="build-essential cmake pkg-config libopenblas-dev liblapacke-dev libglpk-dev \
libopenmpi-dev openmpi-bin python3 python3-numpy python3-sklearn libsvm-tools \
dataset-fashion-mnist clang libclang-rt-14-dev valgrind"

missing=""
for pkg in $PACKAGES; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $pkg"
    fi
done

if [ -z "$missing" ]; then
    echo "install-deps: all packages present"
    exit 0
fi

echo "install-deps: installing$missing"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing
