#!/bin/bash
# kernelmix cv under Open MPI on this machine: mpirun -n 1, 2 and 4 write the same results as one
# process without mpirun (the *_seconds fields aside), nested splits and two methods included; --bcast
# reads the data on rank 0 only (rank 1 is given a path that does not exist, and standard input
# reaches rank 0 only); a rank that cannot read its data stops every rank with one message naming the
# rank and host, exit status 2 and no output; a rank killed mid-run ends the job with mpirun's message
# naming the rank and host, and no results file; only rank 0 shows progress. MPI's traffic stays on
# this machine (shared memory, and loopback for mpirun's own channel).
. "$(dirname "$0")/lib.sh" "$@"
. "$(dirname "$0")/mpi.sh"
# ranks yield the processor while they wait: beside other tests, ranks that spin starve the one computing
MPIRUN=(timeout 120 mpirun --allow-run-as-root --oversubscribe --mca mpi_yield_when_idle 1 --mca btl self,vader
        --mca oob_tcp_if_include lo)
need_mpi_build cv -n 2
head -n 160 "$DATA/heart_scale" >"$WORK/train"
grid=(-q --json --kernel 'rbf:gamma=2^-3..2^3/mean' --kernel linear -c 2^-2..2^4:2 --mkl lp,elasticnet --folds 3
      --nested 2)
untimed() { sed -E 's/"fit_seconds": [^,]*,//' "$1"; }

"$KM" cv "${grid[@]}" -o "$WORK/alone.jsonl" "$WORK/train" || fail "cv without mpirun"
for n in 1 2 4; do
    "${MPIRUN[@]}" -n $n "$KM" cv "${grid[@]}" -o "$WORK/ranks$n.jsonl" "$WORK/train" 2>"$WORK/err" ||
        fail "mpirun -n $n: $(cat "$WORK/err")"
    [ -s "$WORK/err" ] && fail "mpirun -n $n -q printed on stderr: $(cat "$WORK/err")"
    cmp -s <(untimed "$WORK/alone.jsonl") <(untimed "$WORK/ranks$n.jsonl") ||
        fail "mpirun -n $n: results differ from one process: $(diff <(untimed "$WORK/alone.jsonl") <(untimed "$WORK/ranks$n.jsonl") | head -c 400)"
done
# progress is rank 0's alone: one opening line, as one process prints
"${MPIRUN[@]}" -n 2 "$KM" cv --progress plain --kernel rbf -c 1,2 --folds 3 "$WORK/train" >/dev/null 2>"$WORK/err" ||
    fail "mpirun -n 2 --progress plain: $(cat "$WORK/err")"
[ "$(grep -c "^kernelmix cv: 2 settings" "$WORK/err")" -eq 1 ] || fail "progress under mpirun: $(cat "$WORK/err")"
[ "$(wc -l <"$WORK/alone.jsonl")" -eq 10 ] || fail "expected 8 settings, the nested line and the best: $(wc -l <"$WORK/alone.jsonl")"

# --bcast: rank 1's own path does not exist; standard input goes to rank 0 only
"${MPIRUN[@]}" -n 1 "$KM" cv --bcast "${grid[@]}" "$WORK/train" : -n 1 "$KM" cv --bcast "${grid[@]}" "$WORK/absent" \
    >"$WORK/bcast.jsonl" 2>"$WORK/err" || fail "--bcast: $(cat "$WORK/err")"
cmp -s <(untimed "$WORK/alone.jsonl") <(untimed "$WORK/bcast.jsonl") || fail "--bcast: results differ"
"${MPIRUN[@]}" -n 2 "$KM" cv --bcast "${grid[@]}" - <"$WORK/train" >"$WORK/stdin.jsonl" 2>"$WORK/err" ||
    fail "--bcast of standard input: $(cat "$WORK/err")"
cmp -s <(untimed "$WORK/alone.jsonl") <(untimed "$WORK/stdin.jsonl") || fail "--bcast -: results differ"

# without --bcast every rank reads its own path: rank 1's is missing
host=$(hostname)
"${MPIRUN[@]}" -n 1 "$KM" cv "${grid[@]}" -o "$WORK/missing.jsonl" "$WORK/train" : \
    -n 1 "$KM" cv "${grid[@]}" -o "$WORK/missing.jsonl" "$WORK/absent" >"$WORK/out" 2>"$WORK/err"
status=$?
[ "$status" -eq 2 ] || fail "a rank without its data: exit status $status, expected 2"
[ "$(grep -c '^kernelmix cv' "$WORK/err")" -eq 1 ] &&
    grep -q "^kernelmix cv: rank 1 on $host: $WORK/absent: cannot open" "$WORK/err" ||
    fail "a rank without its data: $(cat "$WORK/err")"
[ -e "$WORK/missing.jsonl" ] && fail "a rank without its data: a results file was written"

# a rank killed mid-run: mpirun names it and its host; rank 0 writes nothing
# (long: it must still run when the kill comes, whatever the machine's speed; killed, it costs nothing)
long=(-q --json --kernel 'rbf:gamma=2^-6..2^6/mean' -c 2^-2..2^8:1 --p 1,4/3,2 --mkl lp --folds 10 --repeats 50)
"${MPIRUN[@]}" -n 2 "$KM" cv "${long[@]}" -o "$WORK/killed.jsonl" "$WORK/train" 2>"$WORK/err.killed" &
kill_rank_one $! 0.5 killed.jsonl
finish
