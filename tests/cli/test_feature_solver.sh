# C-SVC and epsilon-SVR without bias on explicit features (svm/dcd.c: dual coordinate descent, taken when
# every kernel is low-rank and --no-bias is given):
#  - parity with LIBLINEAR's dual coordinate descent (liblinear-train -s 3 on heart_scale, -s 13 on a
#    regression set; no -B): the linear kernel with rank = the number of features is the linear kernel
#    exactly, so the dual objectives agree to 1e-5 (kernelmix's no higher: LIBLINEAR stops at 1,000
#    epochs), and the two primal vectors w = sum_i c_i x_i are as close as their dual objectives allow:
#    ||w(a) - w*||^2 <= 2 (D(a) - D*) <= 2 (D(a) + P(w)) for any w, P the primal objective; the
#    predicted labels are equal, the regression values within |w - w'| |x|;
#  - the solver that ran is the coordinate descent (--verbose says so);
#  - SVR without bias on the exact kernel (the SMO's one-variable steps) reaches the same objective;
#  - lp-MKL (p = 4/3, wrapper) on five RBF widths with rank = N, C-SVC and SVR, certifies its gap and
#    its objective agrees with the exact kernels' (SMO) within the two certified gaps; the weights to 1e-2.
. "$(dirname "$0")/lib.sh" "$@"
need liblinear-train "LIBLINEAR's command-line tools (Debian liblinear-tools)"

H="$DATA/heart_scale"
# a regression set: 300 rows of 8 Gaussian features, targets linear in them plus noise
"$PYTHON" - "$WORK/reg" <<'PY'
import sys
import numpy as np
rng = np.random.default_rng(3)
X = rng.normal(size=(300, 8))
t = X @ rng.normal(size=8) + 0.3 * rng.normal(size=300)
with open(sys.argv[1], "w") as f:
    for x, v in zip(X, t):
        f.write(f"{v:.6f} " + " ".join(f"{j + 1}:{x[j]:.6f}" for j in range(8)) + "\n")
PY

# parity NAME DATA FEATURES "KERNELMIX OPTIONS" "LIBLINEAR OPTIONS": the linear kernel with rank = FEATURES
# (the linear kernel exactly) without bias against LIBLINEAR's dual coordinate descent (no -B)
parity() {
    local name=$1 data=$2 d=$3
    expect_status 0 "$KM" train --verbose --no-bias $4 --kernel "linear:rank=$d" "$data" "$WORK/$name.ours.model"
    grep -q "coordinate descent on explicit features" "$WORK/err" || fail "$name: the feature solver did not run: $(cat "$WORK/err")"
    liblinear-train $5 "$data" "$WORK/$name.theirs.model" >"$WORK/$name.liblinear.out" 2>&1 ||
        fail "$name: liblinear-train failed: $(cat "$WORK/$name.liblinear.out")"
    expect_status 0 "$KM" predict "$data" "$WORK/$name.ours.model" "$WORK/$name.ours.pred"
    liblinear-predict "$data" "$WORK/$name.theirs.model" "$WORK/$name.theirs.pred" >/dev/null ||
        fail "$name: liblinear-predict failed"
    "$PYTHON" - "$data" "$d" "$WORK/$name".{ours.model,theirs.model,ours.pred,theirs.pred,liblinear.out} <<'PY' ||
import sys
import numpy as np
data, d, ours, theirs, ours_pred, theirs_pred, log = sys.argv[1], int(sys.argv[2]), *sys.argv[3:]
def features(items):
    x = np.zeros(d)
    for item in items:
        j, v = item.split(":")
        x[int(j) - 1] = float(v)
    return x
# w = sum_k c_k x_k over the support vectors, whose rows the model's [basis] section holds in order
lines = open(ours).read().split("\n")
task = next(l.split()[1] for l in lines if l.startswith("task "))
C = next(float(l.split()[1]) for l in lines if l.startswith("C "))
at = next(i for i, l in enumerate(lines) if l.startswith("support_vectors rows"))
coef = [float(l.split()[1]) for l in lines[at + 1:at + 1 + int(lines[at].split()[2])]]
at = next(i for i, l in enumerate(lines) if l.startswith("vectors rows"))
basis = [features(l.split()[2:]) for l in lines[at + 1:at + 1 + int(lines[at].split()[2])]]
w_ours = sum(c * x for c, x in zip(coef, basis))
their_lines = open(theirs).read().split("\n")
w_theirs = np.array([float(l) for l in their_lines[their_lines.index("w") + 1:] if l.strip()])
rows = [l.split() for l in open(data) if l.strip()]
X = np.array([features(r[1:]) for r in rows])
y = np.array([float(r[0]) for r in rows])
if task == "svr":   # C sum_i max(0, |y_i - w.x_i| - epsilon)
    epsilon = next(float(l.split()[1]) for l in lines if l.startswith("epsilon "))
    def primal(w):
        return 0.5 * w @ w + C * np.maximum(0.0, np.abs(y - X @ w) - epsilon).sum()
else:               # both score heart_scale's first label, +1 (kernelmix's positive class, LIBLINEAR's first)
    def primal(w):
        return 0.5 * w @ w + C * np.maximum(0.0, 1.0 - y * (X @ w)).sum()
d_ours = next(float(l.split()[1]) for l in lines if l.startswith("objective "))
d_theirs = float(open(log).read().split("Objective value = ")[1].split()[0])
# the dual's optimum is -P* >= -P(w) for every w, and D(a) - D* >= ||w(a) - w*||^2 / 2
p_best = min(primal(w_ours), primal(w_theirs))
bound = np.sqrt(2 * max(d_ours + p_best, 0)) + np.sqrt(2 * max(d_theirs + p_best, 0))
distance = np.linalg.norm(w_ours - w_theirs)
pa, pb = np.loadtxt(ours_pred), np.loadtxt(theirs_pred)
print(task, "dual objectives", d_ours, d_theirs, "primal", p_best, "|w - w'|", distance, "bound", bound)
ok = abs(d_ours - d_theirs) <= 1e-5 * abs(d_theirs) and d_ours <= d_theirs + 1e-9 * abs(d_theirs)
ok &= distance <= bound and bound <= 0.05 * np.linalg.norm(w_theirs)
if task == "svr":   # the predictions differ by at most |w - w'| |x| (the printed values: 1e-6 more)
    ok &= bool(np.all(np.abs(pa - pb) <= bound * np.linalg.norm(X, axis=1) + 1e-6 * (1 + np.abs(pb))))
else:
    ok &= bool(np.all(pa == pb))
sys.exit(0 if ok else 1)
PY
        fail "$name: the coordinate descent does not give LIBLINEAR's w or predictions"
}
parity svc "$H" 13 "-c 0.5 -e 1e-5" "-s 3 -c 0.5 -e 1e-5"
parity svr "$WORK/reg" 8 "-s svr -c 0.5 -p 0.2 -e 1e-6" "-s 13 -c 0.5 -p 0.2 -e 1e-6"

# epsilon-SVR without bias on the exact kernel (SMO, one variable at a time) has the same optimum
expect_status 0 "$KM" train -s svr --no-bias -c 0.5 -p 0.2 -e 1e-6 --kernel linear "$WORK/reg" "$WORK/svr.exact.model"
near "$(sed -n 's/^objective //p' "$WORK/svr.exact.model")" "$(sed -n 's/^objective //p' "$WORK/svr.ours.model")" 1e-7 ||
    fail "SVR without bias: the SMO's and the coordinate descent's objectives differ"

# lp-MKL on low-rank kernels with rank = N: the exact model, within the certified gaps
# mkl_exact NAME DATA N "OPTIONS"
mkl_exact() {
    local name=$1 data=$2 n=$3
    expect_status 0 "$KM" train --no-bias $4 --mkl lp --p 4/3 --solver wrapper --kernel 'rbf:gamma=2^-2..2^2/mean' \
        "$data" "$WORK/$name.exact.model"
    expect_status 0 "$KM" train --verbose --no-bias $4 --mkl lp --p 4/3 --solver wrapper \
        --kernel "rbf:gamma=2^-2..2^2/mean:rank=$n" "$data" "$WORK/$name.low.model"
    grep -q "coordinate descent on explicit features" "$WORK/err" || fail "$name: lp-MKL did not solve on the features"
    "$PYTHON" - "$WORK/$name.exact.model" "$WORK/$name.low.model" <<'PY' ||
import sys
def values(path, key):
    return [float(x) for l in open(path) if l.startswith(key + " ") for x in l.split()[1:]]
(ta, tb), (oa, ob), (ga, gb) = [(values(sys.argv[1], k), values(sys.argv[2], k)) for k in ("theta", "objective", "gap")]
print("objectives", oa, ob, "gaps", ga, gb)
ok = len(ta) == len(tb) == 5 and max(abs(x - y) for x, y in zip(ta, tb)) <= 1e-2
ok &= ga[0] <= 1e-3 and gb[0] <= 1e-3 and abs(oa[0] - ob[0]) <= (ga[0] + gb[0]) * abs(oa[0])
sys.exit(0 if ok else 1)
PY
        fail "$name: lp-MKL on rank = N kernels is not the exact model within the certified gaps"
}
mkl_exact svc "$H" 270 ""
mkl_exact svr "$WORK/reg" 300 "-s svr -c 1 -p 0.1"

finish
