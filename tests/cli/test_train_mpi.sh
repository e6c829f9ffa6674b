#!/bin/bash
# kernelmix train under Open MPI on this machine (data-parallel training, docs/large-scale.md): with 2
# and 4 ranks, KRR on low-rank kernels gives the model one process gives (mpirun -n 1 is one process):
# the same support rows, coefficients, bias and objective to 1e-9 relative, and the same predictions
# to 1e-9; C-SVC and epsilon-SVR, with and without bias, reach one process's objective and predictions,
# lp-norm MKL and the elastic net its certified gap, with objectives within the gaps, empirical Bayes its
# model; only rank 0
# prints; what it does not train is refused with one message and no model; a rank killed mid-run ends
# the job with mpirun's message naming it, and no model file. MPI's traffic stays on this machine
# (shared memory, and loopback for mpirun's own channel).
. "$(dirname "$0")/lib.sh" "$@"
. "$(dirname "$0")/mpi.sh"
# ranks yield the processor while they wait: beside other tests, ranks that spin starve the one computing
MPIRUN=(timeout 120 mpirun --allow-run-as-root --oversubscribe --mca mpi_yield_when_idle 1 --mca btl self,vader
        --mca oob_tcp_if_include lo)
need_mpi_build train -n 2
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

# C-SVC and epsilon-SVR by rounds of dual coordinate descent on 2 ranks (4 are KRR's above: more ranks
# than cores wait on each other beside other tests), without bias and with it (the default: the descent
# at a fixed offset and the search for the bias): the objective one process reaches at the same
# tolerance, to 1e-9 (the coefficients need not be unique: the features have fewer dimensions than
# rows), and the same predictions (SVR's to 1e-4 at that tolerance)
svc=(-e 1e-6 --no-bias -c 0.5 --kernel 'rbf:gamma=2^-2..2^2/mean:rank=60' --kernel 'poly:degree=2:rank=40')
svr=(-s svr -p 0.2 -e 1e-6 --no-bias -c 1 --kernel 'rbf:gamma=2^-1..2^1/mean:rank=60')
svc_bias=(-e 1e-6 -c 0.5 --kernel 'rbf:gamma=2^-2..2^2/mean:rank=60' --kernel 'poly:degree=2:rank=40')
svr_bias=(-s svr -p 0.2 -e 1e-6 -c 1 --kernel 'rbf:gamma=2^-1..2^1/mean:rank=60')
for task in svc svr svc_bias svr_bias; do
    declare -n args=$task
    "$KM" train -q "${args[@]}" "$DATA/heart_scale" "$WORK/$task.model" || fail "$task without mpirun"
    "$KM" predict -q "$DATA/heart_scale" "$WORK/$task.model" "$WORK/$task.out" || fail "predict, $task"
    n=2
    "${MPIRUN[@]}" -n $n "$KM" train -q "${args[@]}" "$DATA/heart_scale" "$WORK/$task$n.model" 2>"$WORK/err" ||
        fail "$task, mpirun -n $n: $(cat "$WORK/err")"
    same_model "$WORK/$task.model" "$WORK/$task$n.model" 1e-9 objective ||
        fail "$task, mpirun -n $n: the objective differs from one process's"
    "$KM" predict -q "$DATA/heart_scale" "$WORK/$task$n.model" "$WORK/$task$n.out" || fail "predict, $task $n"
    if [[ $task = svc* ]]; then
        cmp -s "$WORK/$task.out" "$WORK/$task$n.out" || fail "$task, mpirun -n $n: the predictions differ"
    else
        same_numbers "$WORK/$task.out" "$WORK/$task$n.out" 1e-4 || fail "$task, mpirun -n $n: the predictions differ"
    fi
done

# lp-norm MKL (the wrapper on coordinate descent; 2 and 3 ranks) and the elastic net (3): the certified
# gap of one process, the objectives within both gaps, the weights to the precision the gap asks for
for mkl in "--mkl lp --p 4/3" "--mkl elasticnet --lambda 0.5"; do
    args=($mkl --mkl-gap 1e-4 -e 1e-5 --no-bias -c 1 --kernel 'rbf:gamma=2^-2..2^2/mean:rank=60' --kernel 'poly:degree=2:rank=40')
    "$KM" train -q "${args[@]}" "$DATA/heart_scale" "$WORK/mkl.model" || fail "$mkl without mpirun"
    ranks="2 3"
    [ "$mkl" != "--mkl lp --p 4/3" ] && ranks=3
    for n in $ranks; do
        "${MPIRUN[@]}" -n $n "$KM" train -q "${args[@]}" "$DATA/heart_scale" "$WORK/mkl$n.model" 2>"$WORK/err" ||
            fail "$mkl, mpirun -n $n: $(cat "$WORK/err")"
        within_gaps "$WORK/mkl.model" "$WORK/mkl$n.model" 1e-4 || fail "$mkl, mpirun -n $n: not within the gaps"
        same_model "$WORK/mkl.model" "$WORK/mkl$n.model" 1e-3 theta || fail "$mkl, mpirun -n $n: the weights differ"
    done
done

# empirical-Bayes MKL on 2 ranks: the evidence's sums over the rows (Phi'Phi, Phi'y, Phi'alpha and the
# targets' mean) add the ranks', and every rank takes the same weight steps: one process's model (weights,
# noise's evidence, coefficients, bias) to 1e-9 and its predictions
eb=(-s krr --mkl eb-mackay --learn-noise --kernel 'rbf:gamma=2^-2..2^2/mean:rank=30' --kernel 'poly:degree=2:rank=20')
"$KM" train -q "${eb[@]}" "$DATA/heart_scale" "$WORK/eb.model" || fail "eb-mackay without mpirun"
"$KM" predict -q "$DATA/heart_scale" "$WORK/eb.model" "$WORK/eb.out" || fail "predict, eb-mackay"
"${MPIRUN[@]}" -n 2 "$KM" train -q "${eb[@]}" "$DATA/heart_scale" "$WORK/eb2.model" 2>"$WORK/err" ||
    fail "eb-mackay, mpirun -n 2: $(cat "$WORK/err")"
same_model "$WORK/eb.model" "$WORK/eb2.model" 1e-9 || fail "eb-mackay, mpirun -n 2: the model differs from one process's"
"$KM" predict -q "$DATA/heart_scale" "$WORK/eb2.model" "$WORK/eb2.out" || fail "predict, eb-mackay on 2 ranks"
same_numbers "$WORK/eb.out" "$WORK/eb2.out" 1e-9 || fail "eb-mackay, mpirun -n 2: the predictions differ"

# three classes one-vs-rest: every rank orders the classes as one process does (the same decision values
# to 1e-4 at this tolerance; labels are random, so that many rows lie on the margin and a class may
# change on a near tie)
awk '{ $1 = NR % 3 + 1; print }' "$DATA/heart_scale" >"$WORK/three"
ovr=(-e 1e-6 --multiclass ovr --no-bias -c 1 --kernel 'rbf:gamma=2^-1..2^1/mean:rank=60')
decisions() {   # decisions MODEL OUT: the decision values of the three machines on the rows of three
    "$KM" predict -q --decision-values "$WORK/three" "$1" "$WORK/labels" && cut -d' ' -f2- "$WORK/labels" >"$2"
}
"$KM" train -q "${ovr[@]}" "$WORK/three" "$WORK/ovr.model" && decisions "$WORK/ovr.model" "$WORK/ovr.out" ||
    fail "one-vs-rest without mpirun"
"${MPIRUN[@]}" -n 2 "$KM" train -q "${ovr[@]}" "$WORK/three" "$WORK/ovr2.model" 2>"$WORK/err" || fail "one-vs-rest: $(cat "$WORK/err")"
same_model "$WORK/ovr.model" "$WORK/ovr2.model" 1e-9 objective || fail "one-vs-rest, mpirun -n 2: the objectives differ"
decisions "$WORK/ovr2.model" "$WORK/ovr2.out" && same_numbers "$WORK/ovr.out" "$WORK/ovr2.out" 1e-4 ||
    fail "one-vs-rest, mpirun -n 2: the decision values differ"

# what data-parallel training does not do is refused before any work, in one message (rank 0's): no model
refused() {   # refused PATTERN TRAIN_FILE TRAIN_ARGS...
    pattern=$1
    train=$2
    shift 2
    "${MPIRUN[@]}" -n 2 "$KM" train "$@" "$train" "$WORK/refused.model" >"$WORK/out" 2>"$WORK/err"
    status=$?
    [ "$status" -eq 2 ] || fail "mpirun -n 2 train $*: exit status $status, expected 2"
    [ "$(grep -c "^kernelmix train" "$WORK/err")" -eq 1 ] && grep -q "^kernelmix train: .*$pattern" "$WORK/err" ||
        fail "mpirun -n 2 train $*: $(cat "$WORK/err")"
    [ -e "$WORK/refused.model" ] && fail "mpirun -n 2 train $*: a model was written"
}
refused "needs every kernel low-rank" "$DATA/heart_scale" -s krr --kernel 'rbf:rank=50' --kernel linear
refused "solves C-SVC, epsilon-SVR or kernel ridge" "$DATA/heart_scale" -s nu-svc --kernel 'rbf:rank=50'
refused "one-vs-one machines of 3 classes" "$WORK/three" --no-bias --kernel 'rbf:rank=50'
refused "need machines without bias" "$DATA/heart_scale" -s krr --mkl lp --kernel 'rbf:rank=50'
refused "does not train on rows split" "$DATA/heart_scale" --no-bias --mkl align --kernel 'rbf:rank=50'
refused "needs fewer feature dimensions in all than rows" "$DATA/heart_scale" -s krr --mkl eb-rw --kernel 'rbf:gamma=1..2:rank=200'
refused "solved by the wrapper" "$DATA/heart_scale" --no-bias --mkl lp --solver silp --kernel 'rbf:rank=50'
refused "leverage-score landmarks" "$DATA/heart_scale" -s krr --kernel 'rbf:rank=50:sampling=leverage'
refused "normalization constant" "$DATA/heart_scale" -s krr --kernel 'rbf:rank=50:norm=mult'
refused "mpirun -n K kernelmix cv" "$DATA/heart_scale" -s krr -v 3 --kernel 'rbf:rank=50'

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
kill_rank_one $! 1 killed.model
finish
