#!/bin/bash
# Runs the CLI tests (tests/cli/test_*.sh) with kernelmix commands under valgrind memcheck and fails on
# any memcheck error or definitely-lost byte. Uses BUILD/kernelmix, BUILD being $KM_BUILD_DIR or build/
# (built with scripts/build.sh when missing); one log per command in BUILD/valgrind/.
# usage: scripts/valgrind-cli.sh [TEST_NAME_REGEX]
# The whole-suite run (no regex) leaves out the tests that cannot run under valgrind: the SIGKILL test
# (killed processes leave partial logs), the memory-limit test (ulimit -v), the install tests (they
# install the build directory, not the command) and the reproduction of a paper's experiment
# (clmkl_localized: hundreds of trainings, tens of minutes under memcheck, on code that test_clmkl runs
# there). It is CI's stage and fits its time budget: each memcheck process costs about 1.5 s before
# kernelmix runs a line of its own (valgrind, then the shared libraries' loading and initialisation
# under it), so
#  - memcheck runs every KM_VALGRIND_EVERY-th kernelmix command of each test (default 3: the 1st,
#    4th, ...; the others run natively), and
#  - the tests that are long numerical runs (parity sweeps, grids, limits) are left out unless
#    KM_VALGRIND_ALL=1: the sanitizer stage runs them in full, their results are checked to solver
#    tolerances, and the solvers they run are those of the lighter tests that memcheck does run.
# With a regex, every command of the matching tests runs under memcheck (KM_VALGRIND_EVERY=1).
set -eu
cd "$(dirname "$0")/.."
root=$PWD
build=$root/${KM_BUILD_DIR:-build}
pattern=${1:-.}
exclude='^test_(hostile_kill|hostile_memory|install|python_install|clmkl_localized)$'
numerical='^test_(limits|libsvm_parity|r_sequences|mkl|low_rank|cv|kernel_shapes|eb_kernel_bank|probability|bound|mkl_solvers|plot|plot_trace)$'
[ "${KM_VALGRIND_ALL:-0}" = 1 ] && numerical='^$'
if [ "$pattern" = . ]; then every=${KM_VALGRIND_EVERY:-3}; else every=${KM_VALGRIND_EVERY:-1}; fi
[ -x "$build/kernelmix" ] || ./scripts/build.sh >/dev/null
logs=$build/valgrind
rm -rf "$logs"
mkdir -p "$logs"
wrapper=$logs/kernelmix
# the command count of a test is its own file (KM_VALGRIND_COUNT, set per test below), under a lock:
# a test's commands that run at once still get distinct numbers; without it, every command is checked
cat >"$wrapper" <<WRAP
#!/bin/sh
if [ -n "\${KM_VALGRIND_COUNT:-}" ]; then
    n=\$( (flock 9; n=\$((\$(cat "\$KM_VALGRIND_COUNT" 2>/dev/null || echo 0) + 1)); echo \$n >"\$KM_VALGRIND_COUNT"
          echo \$n) 9>"\$KM_VALGRIND_COUNT.lock")
    [ \$(((n - 1) % $every)) -eq 0 ] || exec "$build/kernelmix" "\$@"
fi
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
    (cd "$logs" && KM_VALGRIND_COUNT="$logs/$name.count" bash "$root/$script" "$wrapper" "$root" \
        >"$logs/$name.out" 2>&1) || status=$?
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
    [ "$pattern" = . ] && [[ $name =~ $exclude|$numerical ]] && continue
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
echo "valgrind: $(ls "$logs"/*.log 2>/dev/null | wc -l) kernelmix commands under memcheck (every $every of a test's), $(echo -n "$reports" | grep -c . || true) with memcheck reports"
exit $failed
