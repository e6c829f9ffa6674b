# The MKL solvers from the command line: on heart_scale with four kernels, wrapper, interleaved, silp
# and simplemkl reach the same objective within the requested gap at p = 1 (silp also at p = 4/3),
# report the solver in the model, and the solvers' restrictions give one-line errors. On rank-1 kernels
# of a bag of words, the simplex solver certifies l1-MKL to 1e-8, at the objective silp reaches within
# its own gap, with and without a bias, per machine of a three-class problem.
. "$(dirname "$0")/lib.sh" "$@"

KERNELS=(--kernel 'rbf:gamma=2^-2..2^0/mean' --kernel linear)
GAP=1e-4

# train_objective NAME P SOLVER: trains, checks the model's solver, convergence and gap; sets OBJECTIVE
# (silp at p = 1 in a build without GLPK is refused by design: no objective, no failure)
train_objective() {
    "$KM" train "${KERNELS[@]}" --p "$2" --solver "$3" --mkl-eps $GAP -e 1e-6 "$DATA/heart_scale" "$WORK/$1" \
        >"$WORK/out" 2>"$WORK/err"
    status=$?
    [ $status -eq 2 ] && grep -q "built without GLPK" "$WORK/err" && return 1
    [ $status -eq 0 ] || { fail "$1: exit status $status: $(head -c 300 "$WORK/err")"; return 1; }
    expect_status 0 "$KM" info --json "$WORK/$1" || return 1
    [ "$(json_get "$WORK/out" "j['mkl']['solver']")" = "$3" ] || fail "$1: solver $(json_get "$WORK/out" "j['mkl']['solver']")"
    [ "$(json_get "$WORK/out" "j['machines'][0]['converged']")" = True ] || fail "$1: not converged"
    json_get "$WORK/out" "j['machines'][0]['duality_gap'] <= $GAP" | grep -q True || fail "$1: gap above $GAP"
    OBJECTIVE=$(json_get "$WORK/out" "j['machines'][0]['objective']")
}

for p in 1 4/3; do
    train_objective wrapper "$p" wrapper || continue
    reference=$OBJECTIVE
    solvers="interleaved silp simplemkl"
    [ "$p" = 1 ] || solvers="interleaved silp"
    for solver in $solvers; do
        train_objective "$solver" "$p" "$solver" || continue
        # each dual lies within GAP |P| below the optimum
        near "$OBJECTIVE" "$reference" 2.1e-4 || fail "p $p: $solver objective $OBJECTIVE, wrapper $reference"
    done
done

expect_status 2 "$KM" train "${KERNELS[@]}" --p 4/3 --solver simplemkl "$DATA/heart_scale" "$WORK/m" &&
    expect_one_line_error "SimpleMKL solves p = 1 only"
expect_status 2 "$KM" train "${KERNELS[@]}" --p-block inf --solver silp "$DATA/heart_scale" "$WORK/m" &&
    expect_one_line_error "SILP solver needs a finite p-block"
expect_status 2 "$KM" train "${KERNELS[@]}" --p 1 --solver simplx "$DATA/heart_scale" "$WORK/m" &&
    expect_one_line_error "'simplx' is not interleaved, wrapper, silp, simplemkl, simplex or pegasos"
expect_status 2 "$KM" train "${KERNELS[@]}" --p 4/3 --solver simplex "$DATA/heart_scale" "$WORK/m" &&
    expect_one_line_error "the simplex solver solves p = 1 only"
[ -e "$WORK/m" ] && fail "a model was written after an error"

# A bag of words: 240 documents of 12 words from 80 (Zipf-like), labels from 8 of the words; a third
# class for the multiclass case.
"$PYTHON" - "$WORK/bow" "$WORK/bow3" <<'PY'
import sys, numpy as np
rng = np.random.default_rng(3)
n, d = 240, 80
p = 1.0 / np.arange(1, d + 1) ** 0.8; p /= p.sum()
w = np.zeros(d); w[rng.choice(30, 8, replace=False)] = rng.normal(size=8)
with open(sys.argv[1], "w") as two, open(sys.argv[2], "w") as three:
    for i in range(n):
        idx, cnt = np.unique(rng.choice(d, size=12, p=p), return_counts=True)
        score = (w[idx] * cnt).sum() + 0.5 * rng.normal()
        features = " ".join(f"{j + 1}:{c}" for j, c in zip(idx, cnt)) + ("" if i or d - 1 in idx else f" {d}:0")
        two.write(f"{1 if score > 0 else -1} {features}\n")
        three.write(f"{0 if score < -0.5 else 1 if score < 0.5 else 2} {features}\n")
PY
# rank1_fit NAME DATA OPTIONS...: trains l1-MKL on the rank-1 kernels; sets GAPS and OBJECTIVES (one per machine)
rank1_fit() {
    name=$1 data=$2
    shift 2
    expect_status 0 "$KM" train -q --kernel rank1 --p 1 "$@" "$data" "$WORK/$name" || return 1
    expect_status 0 "$KM" info --json "$WORK/$name" || return 1
    GAPS=$(json_get "$WORK/out" "' '.join(str(m['duality_gap']) for m in j['machines'])")
    OBJECTIVES=$(json_get "$WORK/out" "' '.join(str(m['objective']) for m in j['machines'])")
    CONVERGED=$(json_get "$WORK/out" "all(m['converged'] for m in j['machines'])")
}
for bias in "" "--no-bias"; do
    rank1_fit simplex "$WORK/bow" -c 30 $bias --solver simplex --mkl-gap 1e-8 || continue
    [ "$CONVERGED" = True ] || fail "simplex $bias: not converged"
    "$PYTHON" -c "import sys; sys.exit(0 if float(sys.argv[1]) <= 1e-8 else 1)" "$GAPS" ||
        fail "simplex $bias: gap $GAPS above 1e-8"
    simplex=$OBJECTIVES
    # silp's cutting planes certify 1e-5 (their last digits come slowly): the optima agree within the two
    # gaps (a reference solve, lib.sh KM_REFERENCE)
    KM=$KM_REFERENCE rank1_fit silp "$WORK/bow" -c 30 $bias --solver silp --mkl-gap 1e-5 -e 1e-6 || continue
    near "$OBJECTIVES" "$simplex" "$("$PYTHON" -c "print(float('$GAPS') + 1e-8)")" ||
        fail "simplex $bias: objective $simplex, silp $OBJECTIVES (gap $GAPS)"
done
rank1_fit three "$WORK/bow3" -c 10 --solver simplex --mkl-gap 1e-8 &&
    { [ "$CONVERGED" = True ] && [ "$(echo $GAPS | wc -w)" -eq 3 ]; } || fail "three classes: gaps $GAPS"
expect_status 2 "$KM" train --kernel rank1 --p 1 -s svr --solver simplex "$WORK/bow" "$WORK/m" &&
    expect_one_line_error "the simplex solver trains C-SVC only"
expect_status 2 "$KM" train --kernel rank1 --kernel linear --p 1 --solver simplex "$WORK/bow" "$WORK/m" &&
    expect_one_line_error "the simplex solver needs rank-1 kernels only"
[ -e "$WORK/m" ] && fail "a model was written after an error"

finish
