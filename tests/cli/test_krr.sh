# Kernel ridge regression (-s krr) through the CLI: parity with scikit-learn's KernelRidge (no bias),
# the model file names the task and predicts the same after the round trip, the bias makes the
# coefficients sum to 0, cross-validation runs, and a bad --ridge is refused with one line, exit 2;
# alignf weights are non-negative and scaled to --radius, l2krr trains KRR and refuses other tasks.
. "$(dirname "$0")/lib.sh" "$@"

"$PYTHON" - "$WORK" <<'PY'
import sys, numpy as np
work = sys.argv[1]
rng = np.random.default_rng(5)
X = rng.uniform(-2, 2, size=(120, 3)); Xt = rng.uniform(-2, 2, size=(30, 3))
def f(X): return np.sin(X[:, 0]) + 0.3 * X[:, 1] ** 2 + 2
def write(path, X, y):
    with open(path, "w") as out:
        for row, label in zip(X, y):
            out.write(f"{label:.17g} " + " ".join(f"{j+1}:{v:.17g}" for j, v in enumerate(row)) + "\n")
write(f"{work}/train", X, f(X) + 0.05 * rng.normal(size=120))
write(f"{work}/test", Xt, f(Xt))
PY

# scikit-learn's KernelRidge has no intercept: kernelmix --no-bias is the same estimator
expect_status 0 "$KM" train -q -s krr --ridge 0.25 --no-bias -t 2 -g 0.7 "$WORK/train" "$WORK/nb.model"
expect_status 0 "$KM" predict -q "$WORK/test" "$WORK/nb.model" "$WORK/nb.out"
"$PYTHON" - "$WORK" <<'PY' || fail "predictions differ from scikit-learn's KernelRidge"
import sys, numpy as np
from sklearn.datasets import load_svmlight_file
from sklearn.kernel_ridge import KernelRidge
work = sys.argv[1]
X, y = load_svmlight_file(f"{work}/train"); Xt, _ = load_svmlight_file(f"{work}/test", n_features=X.shape[1])
want = KernelRidge(alpha=0.25, kernel="rbf", gamma=0.7).fit(X.toarray(), y).predict(Xt.toarray())
got = np.loadtxt(f"{work}/nb.out")
sys.exit(0 if np.max(np.abs(got - want)) <= 1e-9 * max(1, np.max(np.abs(want))) else 1)
PY

# with the bias (default): the model names the task, coefficients sum to 0, the round trip predicts the same
expect_status 0 "$KM" train -q -s krr -c 4 -t 2 -g 0.7 "$WORK/train" "$WORK/b.model"
grep -q '^task krr$' "$WORK/b.model" || fail "the KRR model does not name its task"
expect_status 0 "$KM" info --json "$WORK/b.model" &&
    [ "$(json_get "$WORK/out" "j['task']")" = krr ] || fail "info does not report task krr"
expect_status 0 "$KM" info "$WORK/b.model" && grep -q 'kernel ridge regression' "$WORK/out" ||
    fail "info does not title kernel ridge regression"
expect_status 0 "$KM" predict "$WORK/test" "$WORK/b.model" "$WORK/b.out" &&
    grep -q '^Mean squared error' "$WORK/out" || fail "predict does not report the mean squared error"
"$PYTHON" - "$WORK/b.model" <<'PY' || fail "KRR coefficients with a bias do not sum to 0"
import sys
lines = open(sys.argv[1]).read().split("\n")
k = next(i for i, l in enumerate(lines) if l.startswith("support_vectors rows"))
n = int(lines[k].split()[2])
coef = [float(l.split()[1]) for l in lines[k + 1:k + 1 + n]]
sys.exit(0 if n == 120 and abs(sum(coef)) <= 1e-9 * max(map(abs, coef)) * n else 1)
PY
expect_status 0 "$KM" train -q -s krr -c 4 -t 2 -g 0.7 -v 5 "$WORK/train" &&
    grep -q 'Mean squared error' "$WORK/out" || fail "krr cross-validation reports no mean squared error"

# alignment-based weights (two-stage) for C-SVC: non-negative, summing to --radius; l2krr on KRR
expect_status 0 "$KM" train -q --mkl alignf --radius 2 --kernel 'rbf:gamma=0.1,1,10' --kernel linear \
    "$DATA/heart_scale" "$WORK/f.model"
"$PYTHON" - "$WORK/f.model" <<'PY' || fail "alignf weights are not non-negative with sum 2"
import sys
theta = [float(x) for l in open(sys.argv[1]) if l.startswith("theta ") for x in l.split()[1:]]
sys.exit(0 if len(theta) == 4 and min(theta) >= 0 and abs(sum(theta) - 2) <= 1e-12 and max(theta) < 2 else 1)
PY
expect_status 0 "$KM" info "$WORK/f.model" && grep -q 'kernel weights    alignf' "$WORK/out" ||
    fail "info does not name alignf"
expect_status 0 "$KM" train -q -s krr --mkl l2krr --mu0 uniform --eta 0.5 --kernel 'rbf:gamma=0.1,1:center=1:norm=trace' \
    "$WORK/train" "$WORK/l2.model"
expect_status 0 "$KM" predict -q "$WORK/test" "$WORK/l2.model" "$WORK/l2.out"
expect_status 2 "$KM" train -q --mkl l2krr "$DATA/heart_scale" "$WORK/bad.model" &&
    expect_one_line_error 'kernel ridge regression only'
expect_status 2 "$KM" train -q -s krr --mkl l2krr --eta 1 "$WORK/train" "$WORK/bad.model" &&
    expect_one_line_error 'eta'
expect_status 2 "$KM" train -s krr --ridge 0 "$WORK/train" "$WORK/bad.model" &&
    expect_one_line_error 'ridge'
[ ! -e "$WORK/bad.model" ] || fail "a refused --ridge wrote a model"
finish
