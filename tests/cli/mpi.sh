# The Open MPI tests' shared steps, sourced by tests/cli/test_*.sh after lib.sh: the test is skipped
# without mpirun and under valgrind (it does not follow MPI's ranks); in a sanitized build what Open MPI
# keeps until the process ends is not kernelmix's leak (full stacks, so that the suppressions see the
# MPI frames).
need mpirun
[ -z "${KM_UNDER_VALGRIND:-}" ] || { echo "skipped: MPI ranks are not run under valgrind" >&2; exit 77; }
export ASAN_OPTIONS="${ASAN_OPTIONS:-}:fast_unwind_on_malloc=0"
export LSAN_OPTIONS="suppressions=$ROOT/tests/cli/openmpi-leaks.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"

# need_mpi_build COMMAND [MPIRUN_ARGS...]: `kernelmix COMMAND --help` under the test's MPIRUN; skips the
# test where kernelmix was built without MPI, fails it where mpirun cannot start it.
need_mpi_build() {
    local command=$1
    shift
    "${MPIRUN[@]}" "$@" "$KM" "$command" --help >/dev/null 2>"$WORK/err" || {
        grep -q "built without MPI" "$WORK/err" && { echo "skipped: kernelmix built without MPI" >&2; exit 77; }
        fail "mpirun $* kernelmix $command --help: $(cat "$WORK/err")"
        finish
    }
}

# kill_rank_one JOB DELAY OUTPUT: SIGKILLs rank 1 of the mpirun job started in the background as JOB (its
# pid, a `timeout ... mpirun` whose children are the ranks, its stderr in $WORK/err.killed) DELAY seconds
# after it is found, and checks how the job ends: a failure, mpirun's message naming rank 1 and its host,
# and neither OUTPUT (a name in $WORK) nor a temporary output file left.
kill_rank_one() {
    local job=$1 delay=$2 output=$3 victim="" pid status
    for _ in $(seq 100); do
        # this job's own ranks (children of its mpirun, under timeout), not a finishing run's
        for pid in $(pgrep -P "$(pgrep -P "$job" -x mpirun || echo 0)"); do
            tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | grep -qx OMPI_COMM_WORLD_RANK=1 && victim=$pid
        done
        [ -n "$victim" ] && break
        sleep 0.1
    done
    if [ -z "$victim" ]; then
        fail "rank 1 of the long run was not found"
    else
        sleep "$delay"
        kill -9 "$victim" || { fail "rank 1 ended before it was killed"; kill "$job"; }
    fi
    wait "$job"
    status=$?
    [ "$status" -ne 0 ] || fail "a killed rank: exit status 0"
    grep -q "rank 1 .* on node $(hostname)" "$WORK/err.killed" ||
        fail "a killed rank: no message naming it: $(cat "$WORK/err.killed")"
    ls -A "$WORK" | grep -qE "^($output|\.kernelmix-)" && fail "a killed rank: $output or a temporary file was left"
}
