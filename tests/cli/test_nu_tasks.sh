# nu-SVC (-s 1) and nu-SVR (-s 4) through the CLI: LIBSVM's numbers and the task names, the model
# file (task name and nu kept; predictions unchanged after the round trip), one-vs-one multiclass,
# cross-validation, and the refusal to learn kernel weights for them (no MKL certificate).
. "$(dirname "$0")/lib.sh" "$@"

"$PYTHON" - "$WORK" <<'PY'
import sys, numpy as np
work = sys.argv[1]
rng = np.random.default_rng(3)
def write(path, X, y):
    with open(path, "w") as f:
        for row, label in zip(X, y):
            f.write(f"{label:.17g} " + " ".join(f"{j+1}:{v:.17g}" for j, v in enumerate(row)) + "\n")
centres = np.array([[0, 0], [3, 0], [0, 3]])
y = rng.integers(0, 3, size=180)
write(f"{work}/three", centres[y] + rng.normal(size=(180, 2)), y + 1)
X = rng.uniform(-2, 2, size=(120, 2))
write(f"{work}/reg", X, np.sin(X[:, 0]) + 0.3 * X[:, 1])
PY
head -n 200 "$DATA/heart_scale" >"$WORK/heart"

# -s 1 and -s nu-svc train the same model; the file names the task and keeps nu
expect_status 0 "$KM" train -q -s 1 -n 0.4 "$WORK/heart" "$WORK/a.model"
expect_status 0 "$KM" train -q -s nu-svc -n 0.4 "$WORK/heart" "$WORK/b.model"
cmp -s "$WORK/a.model" "$WORK/b.model" || fail "-s 1 and -s nu-svc wrote different models"
grep -q '^task nu-svc$' "$WORK/a.model" || fail "the nu-SVC model does not name its task"
grep -q '^nu 0.4' "$WORK/a.model" || fail "the nu-SVC model does not keep nu"
expect_status 0 "$KM" info --json "$WORK/a.model" &&
    [ "$(json_get "$WORK/out" "j['task']")" = nu-svc ] || fail "info does not report task nu-svc"
expect_status 0 "$KM" info "$WORK/a.model" && grep -q 'nu-SVC' "$WORK/out" || fail "info does not title nu-SVC"
expect_status 0 "$KM" predict "$WORK/heart" "$WORK/a.model" "$WORK/a.pred" &&
    grep -q '^Accuracy = ' "$WORK/out" || fail "nu-SVC predict reports no accuracy"
# a larger nu keeps more support vectors (nu bounds their fraction from below)
expect_status 0 "$KM" train -q -s 1 -n 0.8 "$WORK/heart" "$WORK/c.model"
sv_small=$("$KM" info --json "$WORK/a.model" | "$PYTHON" -c "import json,sys; print(json.load(sys.stdin)['support_vectors'])")
sv_large=$("$KM" info --json "$WORK/c.model" | "$PYTHON" -c "import json,sys; print(json.load(sys.stdin)['support_vectors'])")
[ "$sv_small" -ge 80 ] && [ "$sv_large" -ge 160 ] && [ "$sv_large" -gt "$sv_small" ] ||
    fail "support vectors at nu 0.4 / 0.8: $sv_small / $sv_large (expected at least 80 / 160)"

# one-vs-one over three classes: three machines, accurate on well separated classes
expect_status 0 "$KM" train -q -s 1 -n 0.2 "$WORK/three" "$WORK/three.model"
expect_status 0 "$KM" info --json "$WORK/three.model" &&
    [ "$(json_get "$WORK/out" "len(j['machines'])")" = 3 ] || fail "nu-SVC on three classes does not train 3 machines"
expect_status 0 "$KM" predict "$WORK/three" "$WORK/three.model" "$WORK/three.pred"
acc=$(sed -n 's/^Accuracy = \([0-9.]*\)%.*/\1/p' "$WORK/out")
near "$acc" 95 0.05 || fail "nu-SVC three-class training accuracy $acc% (expected about 95%)"
# infeasible nu for a pair of classes: one clear line, exit 2, no model
expect_status 2 "$KM" train -q -s 1 -n 0.99 "$WORK/three" "$WORK/bad.model" && expect_one_line_error "infeasible"
[ -e "$WORK/bad.model" ] && fail "a model was written for an infeasible nu"

# nu-SVR: -s 4 and its name; regression output; cross-validation reports a mean squared error
expect_status 0 "$KM" train -q -s 4 -n 0.3 -c 2 "$WORK/reg" "$WORK/r.model"
grep -q '^task nu-svr$' "$WORK/r.model" || fail "the nu-SVR model does not name its task"
expect_status 0 "$KM" predict "$WORK/reg" "$WORK/r.model" "$WORK/r.pred"
mse=$(sed -n 's/^Mean squared error = \([-0-9.e]*\) .*/\1/p' "$WORK/out")
[ -n "$mse" ] && "$PYTHON" -c "import sys; sys.exit(0 if float(sys.argv[1]) < 0.05 else 1)" "$mse" ||
    fail "nu-SVR training MSE '$mse' (expected below 0.05)"
expect_status 0 "$KM" train -s nu-svr -n 0.3 -c 2 -v 5 "$WORK/reg" &&
    grep -q '^Cross Validation Mean squared error' "$WORK/out" || fail "nu-SVR cross-validation reports no MSE"

# learned kernel weights need an MKL certificate, which the nu tasks do not have
for s in 1 4; do
    expect_status 2 "$KM" train -q -s $s --kernel 'rbf:gamma=0.1,1' --mkl lp "$WORK/heart" "$WORK/mkl.model" &&
        expect_one_line_error "fixed kernel weights only"
    [ -e "$WORK/mkl.model" ] && fail "-s $s --mkl lp wrote a model"
done
# fixed weights on several kernels are fine
expect_status 0 "$KM" train -q -s 1 --kernel 'rbf:gamma=0.1,1' --weights 0.5,0.5 "$WORK/heart" "$WORK/fixed.model"
finish
