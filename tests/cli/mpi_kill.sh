# A rank killed in the middle of an Open MPI job, sourced by tests/cli/test_*.sh after lib.sh.

# kill_rank_one JOB DELAY: SIGKILLs rank 1 of the mpirun job started in the background as JOB (its pid,
# a `timeout ... mpirun` whose children are the ranks) DELAY seconds after it is found, then waits for
# the job; fails the test when rank 1 is not found or has ended first. $? is the job's exit status.
kill_rank_one() {
    local job=$1 delay=$2 victim="" pid
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
}
