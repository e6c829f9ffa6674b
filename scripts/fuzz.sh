#!/bin/bash
# Builds the libFuzzer targets (clang, ASan + UBSan, cmake -DKM_FUZZ=ON) in build-fuzz/ and fuzzes
# each for SECONDS, JOBS targets at a time (default: the number of CPUs).
# usage: scripts/fuzz.sh [SECONDS [TARGET...]]     default 30 seconds, every tests/fuzz/fuzz_*.c
#        FUZZ_JOBS=1 scripts/fuzz.sh 3600 fuzz_model
# Each target's working corpus, build-fuzz/corpus/TARGET, starts from tests/fuzz/corpus/TARGET and
# keeps what earlier runs found; crashing inputs go to build-fuzz/crashes/, logs to build-fuzz/logs/.
# Prints one line per target (executions, corpus size, crash or not) and exits 1 if any crashed.
# FUZZ_SEED=N fixes libFuzzer's seed and FUZZ_RUNS=N bounds each target by executions instead of
# time: together a run from a fresh corpus replays exactly the same inputs on any machine (CI uses
# them, so its short run is a reproducible regression check; longer runs explore with fresh seeds).
set -eu
cd "$(dirname "$0")/.."
root=$PWD
seconds=${1:-30}
[ $# -gt 0 ] && shift
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    for f in tests/fuzz/fuzz_*.c; do targets+=("$(basename "$f" .c)"); done
fi
jobs=${FUZZ_JOBS:-$(nproc)}

CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKM_FUZZ=ON -DKM_WITH_OPENMP=OFF >/dev/null
cmake --build build-fuzz -j "$(nproc)" --target "${targets[@]}" >/dev/null
mkdir -p build-fuzz/corpus build-fuzz/crashes build-fuzz/logs

run_target() {
    local t=$1 corpus=$root/build-fuzz/corpus/$1
    mkdir -p "$corpus"
    # -close_fd_mask=3: the targets' own output is dropped, sanitizer reports still reach the log
    "$root/build-fuzz/tests/$t" -max_total_time="$seconds" ${FUZZ_RUNS:+-runs="$FUZZ_RUNS"} \
        ${FUZZ_SEED:+-seed="$FUZZ_SEED"} -timeout=20 -rss_limit_mb=2048 \
        -close_fd_mask=3 -print_final_stats=1 -artifact_prefix="$root/build-fuzz/crashes/$t-" \
        "$corpus" "$root/tests/fuzz/corpus/$t" >"$root/build-fuzz/logs/$t.log" 2>&1
}

failed=0
for ((k = 0; k < ${#targets[@]}; k += jobs)); do
    batch=("${targets[@]:k:jobs}")
    pids=()
    for t in "${batch[@]}"; do run_target "$t" & pids+=($!); done
    for i in "${!batch[@]}"; do
        t=${batch[$i]}
        status=ok
        wait "${pids[$i]}" || { status="CRASH (see build-fuzz/logs/$t.log)"; failed=1; }
        execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "build-fuzz/logs/$t.log")
        printf '%-18s %6ss %12s execs %6s corpus files  %s\n' "$t" "$seconds" "${execs:-?}" \
            "$(ls "build-fuzz/corpus/$t" | wc -l)" "$status"
    done
done
exit $failed
