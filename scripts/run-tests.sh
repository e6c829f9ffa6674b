#!/bin/sh
# Sets up, builds, and runs the whole test suite (C unit tests, CLI tests, LIBSVM parity tests).
set -eu
cd "$(dirname "$0")/.."
./scripts/install-deps.sh test
./scripts/build.sh
cd build
ctest --output-on-failure -j "$(nproc)"
