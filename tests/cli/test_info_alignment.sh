# kernelmix info shows the alignment diagnostics of the alignment and KRR methods: per kernel and for
# the learned combination the centred, uncentred and unnormalized alignments with the targets (JSON
# checked against numpy on the kernels' matrices; for rank-1 kernels, which take their statistics from the
# feature columns, too, a kernel that is 0 included), and the methods' parameters after a reload.
. "$(dirname "$0")/lib.sh" "$@"

TRAIN="$DATA/heart_scale"
expect_status 0 "$KM" train -q -s krr --mkl alignf --kernel 'rbf:gamma=0.05' --kernel linear --radius 2 \
    "$TRAIN" "$WORK/m1"
expect_status 0 "$KM" info --json "$WORK/m1" && cp "$WORK/out" "$WORK/info.json"
expect_status 0 "$KM" info "$WORK/m1" && cp "$WORK/out" "$WORK/info.txt"
grep -q '^target alignment' "$WORK/info.txt" && grep -q '^  combined ' "$WORK/info.txt" ||
    fail "info: no target alignment table"
"$PYTHON" - "$WORK/info.json" "$TRAIN" <<'PY' || fail "info --json alignments differ from numpy"
import json, sys
import numpy as np
from sklearn.datasets import load_svmlight_file
from sklearn.metrics.pairwise import rbf_kernel
j = json.load(open(sys.argv[1]))
X, y = load_svmlight_file(sys.argv[2])
X = X.toarray()
n = len(y)
Ks = [rbf_kernel(X, gamma=0.05), X @ X.T]
U = np.eye(n) - np.ones((n, n)) / n
yc = y - y.mean()

def alignments(K):
    Kc = U @ K @ U
    return (yc @ K @ yc / (np.linalg.norm(Kc) * (yc @ yc)), y @ K @ y / (np.linalg.norm(K) * (y @ y)),
            yc @ K @ yc / n**2)

def close(got, want):
    ok = abs(got - want) <= 1e-9 * max(1.0, abs(want))
    if not ok:
        print("got", got, "expected", want)
    return ok

ok = j["mkl"]["method"] == "alignf" and j["mkl"]["radius"] == 2
for k, K in enumerate(Ks):
    t = j["alignment"]["targets"]
    want = alignments(K)
    ok &= all([close(t[key][k], w) for key, w in zip(("rho", "uncentred", "eta"), want)])
    ok &= close(j["kernels"][k]["alignment"], want[0])
theta = j["machines"][0]["kernel_weights"]
c = j["machines"][0]["combined_alignment"]
want = alignments(theta[0] * Ks[0] + theta[1] * Ks[1])
ok &= all([close(c[key], w) for key, w in zip(("rho", "uncentred", "eta"), want)])
# alignf: the combination is at least as aligned as either kernel
ok &= c["rho"] >= max(alignments(K)[0] for K in Ks) - 1e-12
sys.exit(0 if ok else 1)
PY

# rank-1 kernels (l1-MKL by the simplex solver): the statistics from the feature columns give numpy's
# alignments of K_k = x~_k x~_k'; a fourteenth feature constant on every row gives a kernel that is 0,
# whose alignments are undefined
awk '{print $0 " 14:1"}' "$TRAIN" >"$WORK/const"
expect_status 0 "$KM" train -q --kernel rank1 --p 1 --solver simplex "$WORK/const" "$WORK/r1"
expect_status 0 "$KM" info --json "$WORK/r1" && cp "$WORK/out" "$WORK/r1.json"
"$PYTHON" - "$WORK/r1.json" "$WORK/const" <<'PY' || fail "info --json alignments of rank-1 kernels differ from numpy"
import json, sys
import numpy as np
from sklearn.datasets import load_svmlight_file
j = json.load(open(sys.argv[1]))
X, y = load_svmlight_file(sys.argv[2])
X = X.toarray()
n = len(y)
U = np.eye(n) - np.ones((n, n)) / n
yc = y - y.mean()
t = j["alignment"]["targets"]
ok = len(t["rho"]) == 14
for k in range(14):
    x = X[:, k] - X[:, k].mean()
    if not np.any(x):
        ok &= t["rho"][k] is None and t["uncentred"][k] is None
        continue
    K = np.outer(x, x) / (x @ x)
    want = (yc @ K @ yc / (np.linalg.norm(U @ K @ U) * (yc @ yc)), y @ K @ y / (np.linalg.norm(K) * (y @ y)),
            yc @ K @ yc / n**2)
    for key, w in zip(("rho", "uncentred", "eta"), want):
        if abs(t[key][k] - w) > 1e-9 * max(1.0, abs(w)):
            print("kernel", k + 1, key, t[key][k], "expected", w)
            ok = False
sys.exit(0 if ok else 1)
PY

# l2krr's parameters come back from the model file
expect_status 0 "$KM" train -q -s krr --mkl l2krr --radius 3 --eta 0.5 --mu0 uniform --kernel 'rbf:gamma=0.05,0.5' "$TRAIN" "$WORK/m2"
expect_status 0 "$KM" info --json "$WORK/m2" &&
    [ "$(json_get "$WORK/out" "(j['mkl']['radius'], j['mkl']['eta'], j['mkl']['mu0'])")" = "(3, 0.5, 'uniform')" ] ||
    fail "l2krr parameters in info --json: $(json_get "$WORK/out" "j['mkl']")"
expect_status 0 "$KM" info "$WORK/m2" && grep -q 'l2krr .*radius 3, eta 0.5, mu0 uniform' "$WORK/out" ||
    fail "l2krr parameters in info"
# fixed weights: no target alignment, valid JSON with nulls
expect_status 0 "$KM" train -q --kernel linear "$TRAIN" "$WORK/m3"
expect_status 0 "$KM" info --json "$WORK/m3" &&
    [ "$(json_get "$WORK/out" "(j['alignment'], 'combined_alignment' in j['machines'][0])")" = "(None, False)" ] ||
    fail "fixed weights: alignment $(json_get "$WORK/out" "j['alignment']")"
finish
