# The MKL solvers from the command line: on heart_scale with four kernels, wrapper, interleaved, silp
# and simplemkl reach the same objective within the requested gap at p = 1 (silp also at p = 4/3),
# report the solver in the model, and the solvers' restrictions give one-line errors.
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
expect_status 2 "$KM" train "${KERNELS[@]}" --p 1 --solver simplex "$DATA/heart_scale" "$WORK/m" &&
    expect_one_line_error "'simplex' is not interleaved, wrapper, silp, simplemkl or pegasos"
[ -e "$WORK/m" ] && fail "a model was written after an error"

finish
