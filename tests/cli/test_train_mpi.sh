#!/bin/bash
# kernelmix train under Open MPI on this machine (data-parallel training, docs/large-scale.md): with 2
# and 4 ranks, KRR on low-rank kernels gives the model one process gives (mpirun -n 1 is one process):
# the same support rows, coefficients, bias and objective to 1e-9 relative, and the same predictions
# to 1e-9; only rank 0 prints; what it does not train is refused with one message and no model; a
# rank killed mid-run ends the job with mpirun's message naming it, and no model file. MPI's traffic
# stays on this machine (shared memory, and loopback for mpirun's own channel).
. "$(dirname "$0")/lib.sh" "$@"
need mpirun
[ -z "${KM_UNDER_VALGRIND:-}" ] || { echo "skipped: MPI ranks are not run under valgrind" >&2; exit 77; }
export ASAN_OPTIONS="${ASAN_OPTIONS:-}:fast_unwind_on_malloc=0"
export LSAN_OPTIONS="suppressions=$ROOT/tests/cli/openmpi-leaks.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
MPIRUN=(timeout 120 mpirun --allow-run-as-root --oversubscribe --mca btl self,vader --mca oob_tcp_if_include lo)
"${MPIRUN[@]}" -n 2 "$KM" train --help >/dev/null 2>"$WORK/err" || {
    grep -q "built without MPI" "$WORK/err" && { echo "skipped: kernelmix built without MPI" >&2; exit 77; }
    fail "mpirun -n 2 kernelmix train --help: $(cat "$WORK/err")"; finish; }
. "$ROOT/tests/cli/same_model.sh"

krr=(-s krr -c 4 --kernel 'rbf:gamma=2^-2..2^2/mean:rank=60' --kernel 'poly:degree=2:rank=40')
"$KM" train -q "${krr[@]}" "$DATA/heart_scale" "$WORK/alone.model" || fail "train without mpirun"
"$KM" predict -q "$DATA/heart_scale" "$WORK/alone.model" "$WORK/alone.out" || fail "predict, one process"
for n in 1 2 4; do
    "${MPIRUN[@]}" -n $n "$KM" train "${krr[@]}" "$DATA/heart_scale" "$WORK/ranks$n.model" >"$WORK/out" \
        2>"$WORK/err" || fail "mpirun -n $n: $(cat "$WORK/err")"
    [ -s "$WORK/err" ] && fail "mpirun -n $n printed on stderr: $(cat "$WORK/err")"
    [ "$(grep -c "^model written to" "$WORK/out")" -eq 1 ] || fail "mpirun -n $n: rank 0 alone prints: $(cat "$WORK/out")"
    same_model "$WORK/alone.model" "$WORK/ranks$n.model" 1e-9 || fail "mpirun -n $n: the model differs from one process's"
    "$KM" predict -q "$DATA/heart_scale" "$WORK/ranks$n.model" "$WORK/ranks$n.out" || fail "predict, $n ranks"
    same_numbers "$WORK/alone.out" "$WORK/ranks$n.out" 1e-9 || fail "mpirun -n $n: the predictions differ"
done

# what data-parallel training does not do is refused on every rank alike, before any work: no model
host=$(hostname)
refused() {   # refused PATTERN TRAIN_ARGS...
    pattern=$1
    shift
    "${MPIRUN[@]}" -n 2 "$KM" train "$@" "$DATA/heart_scale" "$WORK/refused.model" >"$WORK/out" 2>"$WORK/err"
    status=$?
    [ "$status" -ne 0 ] || fail "mpirun -n 2 train $*: exit status 0"
    grep -q "^kernelmix train: .*$pattern" "$WORK/err" || fail "mpirun -n 2 train $*: $(cat "$WORK/err")"
    [ -e "$WORK/refused.model" ] && fail "mpirun -n 2 train $*: a model was written"
}
refused "needs every kernel low-rank" -s krr --kernel 'rbf:rank=50' --kernel linear
refused "solves kernel ridge regression" --kernel 'rbf:rank=50'
refused "takes fixed kernel weights" -s krr --mkl lp --kernel 'rbf:rank=50'
refused "leverage-score landmarks" -s krr --kernel 'rbf:rank=50:sampling=leverage'
refused "normalization constant" -s krr --kernel 'rbf:rank=50:norm=mult'
refused "mpirun -n K kernelmix cv" -s krr -v 3 --kernel 'rbf:rank=50'

# a rank killed mid-run: mpirun names it and its host; rank 0 writes nothing
# (long: 40,000 generated rows of 30 features at rank 1,500, so that it still runs when the kill comes)
"$PYTHON" -c "
import numpy as np
rng = np.random.default_rng(7)
x = rng.standard_normal((40000, 30))
y = np.sin(x[:, 0]) + x[:, 1] * x[:, 2]
with open('$WORK/long', 'w') as out:
    for label, row in zip(y, x):
        out.write(f'{label:.6g} ' + ' '.join(f'{j + 1}:{v:.6g}' for j, v in enumerate(row)) + '\n')
"
"${MPIRUN[@]}" -n 2 "$KM" train -q -s krr -m 500 --kernel 'rbf:gamma=2^-1..2^1/mean:rank=1500' "$WORK/long" \
    "$WORK/killed.model" 2>"$WORK/err.killed" &
job=$!
victim=""
for _ in $(seq 100); do
    for pid in $(pgrep -P "$(pgrep -P "$job" -x mpirun || echo 0)"); do
        tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | grep -qx OMPI_COMM_WORLD_RANK=1 && victim=$pid
    done
    [ -n "$victim" ] && break
    sleep 0.1
done
if [ -z "$victim" ]; then
    fail "rank 1 of the long run was not found"
else
    sleep 1
    kill -9 "$victim" || { fail "rank 1 ended before it was killed"; kill "$job"; }
fi
wait "$job"
status=$?
[ "$status" -ne 0 ] || fail "a killed rank: exit status 0"
grep -q "rank 1 .* on node $host" "$WORK/err.killed" || fail "a killed rank: no message naming it: $(cat "$WORK/err.killed")"
ls -A "$WORK" | grep -qE "^(killed.model|\.kernelmix-)" && fail "a killed rank: a model file was left"
finish
