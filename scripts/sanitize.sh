#!/bin/sh
# Builds kernelmix with AddressSanitizer + UndefinedBehaviorSanitizer (gcc; any report is fatal,
# leaks included) in build-asan/ and runs the whole test suite there, the fuzz corpora included.
# usage: scripts/sanitize.sh [CTEST_ARGS...]    e.g. scripts/sanitize.sh -R cli_
set -eu
cd "$(dirname "$0")/.."
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKM_SANITIZE=ON >/dev/null
cmake --build build-asan -j "$(nproc)"
export ASAN_OPTIONS="detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
cd build-asan
ctest --output-on-failure -j "$(nproc)" "$@"
