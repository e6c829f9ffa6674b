#!/bin/bash
# Runs the CLI tests (tests/cli/test_*.sh) with every kernelmix command under valgrind memcheck and
# fails on any memcheck error or definitely-lost byte. Uses BUILD/kernelmix, BUILD being $KM_BUILD_DIR
# or build/ (built with scripts/build.sh when missing); one log per command in BUILD/valgrind/.
# usage: scripts/valgrind-cli.sh [TEST_NAME_REGEX]
# By default every CLI test runs except those that cannot run under valgrind: the SIGKILL test
# (killed processes leave partial logs), the memory-limit test (ulimit -v), the install tests
# (they install the build directory, not the command) and the reproduction of a paper's experiment
# (clmkl_localized: hundreds of trainings, tens of minutes under memcheck, on code that test_clmkl
# runs there).
set -eu
cd "$(dirname "$0")/.."
root=$PWD
build=$root/${KM_BUILD_DIR:-build}
pattern=${1:-.}
exclude='^test_(hostile_kill|hostile_memory|install|python_install|clmkl_localized)$'
[ -x "$build/kernelmix" ] || ./scripts/build.sh >/dev/null
logs=$build/valgrind
rm -rf "$logs"
mkdir -p "$logs"
wrapper=$logs/kernelmix
cat >"$wrapper" <<WRAP
#!/bin/sh
exec valgrind --quiet --error-exitcode=99 --leak-check=full --show-leak-kinds=definite \
    --errors-for-leak-kinds=definite --log-file="$logs/%p.log" "$build/kernelmix" "\$@"
WRAP
chmod +x "$wrapper"
# the processors this script may use (nproc reports OMP_NUM_THREADS instead where it is set, as below)
cpus=$(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc)
# single-threaded BLAS and OpenMP: faster under valgrind, and no thread-pool noise; fewer
# truncation points in test_hostile_model (the unit tests cover every byte)
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 KM_TRUNCATE_STEP=29
# OpenBLAS's kernels for the processor memcheck reports (AVX2 with FMA) run ten times slower under
# it than its Sandy Bridge kernels (AVX, no FMA: valgrind emulates each FMA in a helper call); the
# memory checked is the same
export OPENBLAS_CORETYPE=Sandybridge
# tests that time the commands (how fast a signal or --max-time acts) skip those checks: under
# memcheck every command runs tens of times slower
export KM_UNDER_VALGRIND=1
# reference solves a check compares with (tests/cli/lib.sh) run without memcheck
export KM_REFERENCE="$build/kernelmix"

run_test() {
    local script=$1 name start status result
    name=$(basename "$script" .sh)
    start=$SECONDS
    status=0
    (cd "$logs" && bash "$root/$script" "$wrapper" "$root" >"$logs/$name.out" 2>&1) || status=$?
    case $status in
    0) result=passed ;;
    77) result=skipped ;;
    *) result="FAILED (see $logs/$name.out)" ;;
    esac
    echo "$name: $result ($((SECONDS - start)) s)"
    [ "$status" -eq 0 ] || [ "$status" -eq 77 ]
}

# the tests run in parallel, one per CPU
failed=0
for script in tests/cli/test_*.sh; do
    name=$(basename "$script" .sh)
    [[ $name =~ $pattern ]] || continue
    [ "$pattern" = . ] && [[ $name =~ $exclude ]] && continue
    while [ "$(jobs -rp | wc -l)" -ge "$cpus" ]; do wait -n || failed=1; done
    run_test "$script" &
done
while [ "$(jobs -rp | wc -l)" -gt 0 ]; do wait -n || failed=1; done
wait || failed=1

# any memcheck report in any command's log fails the run
reports=$(grep -l -E "ERROR SUMMARY: [1-9]|definitely lost: [1-9]|Invalid (read|write)|uninitialised" "$logs"/*.log 2>/dev/null || true)
for r in $reports; do
    echo "valgrind report: $r"
    head -n 40 "$r"
    failed=1
done
echo "valgrind: $(ls "$logs"/*.log 2>/dev/null | wc -l) kernelmix commands, $(echo -n "$reports" | grep -c . || true) with memcheck reports"
exit $failed
