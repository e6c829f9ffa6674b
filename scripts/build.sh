#!/bin/sh
# Installs the Debian packages building kernelmix needs and builds it in build/ (Release).
set -eu
cd "$(dirname "$0")/.."
./scripts/install-deps.sh build
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc)"
