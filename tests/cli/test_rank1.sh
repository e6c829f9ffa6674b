# Rank-1 kernels (--kernel rank1, one kernel per feature) through the CLI: the R6 goldens (align's
# weights are the squared correlations, or with --rank1-weight corr the absolute ones; l2krr's
# weights and prediction at (1,1,1)), KRR predictions on
# align's weights equal numpy's closed form on the centred, unit-norm features, specs that set a
# normalization are refused with one line (exit 2), and align on N = 2,000 bag-of-words rows with
# M = 4,000 rank-1 kernels trains in far less memory than the M dense N x N matrices (128 GB) would take.
. "$(dirname "$0")/lib.sh" "$@"

cat >"$WORK/r6" <<'EOF'
1 1:1 2:0 3:2
2 1:0 2:1 3:1
3 1:2 2:1 3:0
2.5 1:1 2:1 3:1
1.5 1:0 2:2 3:1
4 1:3 2:0 3:1
EOF
echo "0 1:1 2:1 3:1" >"$WORK/q"

# align: mu proportional to rho = corr^2 = (0.669686411, 0.082352941, 0.342857143)
expect_status 0 "$KM" train -q -s krr --ridge 0.5 --mkl align --kernel rank1 "$WORK/r6" "$WORK/a.model"
"$PYTHON" - "$WORK/a.model" <<'PY' || fail "align's weights on R6 are not the normalized squared correlations"
import sys
theta = [float(x) for l in open(sys.argv[1]) if l.startswith("theta ") for x in l.split()[1:]]
rho = [0.669686411, 0.082352941, 0.342857143]
want = [r / sum(rho) for r in rho]
sys.exit(0 if len(theta) == 3 and max(abs(a - b) for a, b in zip(theta, want)) <= 1e-8 else 1)
PY

# --rank1-weight corr: mu proportional to |corr(x_k, y)|, computed here by numpy; an unknown choice
# is refused with one line
expect_status 0 "$KM" train -q -s krr --ridge 0.5 --mkl align --rank1-weight corr --kernel rank1 "$WORK/r6" \
    "$WORK/c.model"
"$PYTHON" - "$WORK/c.model" <<'PY' || fail "align --rank1-weight corr on R6: the weights are not the normalized |corr|"
import sys
import numpy as np
X = np.array([[1, 0, 2], [0, 1, 1], [2, 1, 0], [1, 1, 1], [0, 2, 1], [3, 0, 1]], float)
y = np.array([1, 2, 3, 2.5, 1.5, 4])
corr = np.abs([np.corrcoef(X[:, k], y)[0, 1] for k in range(3)])
theta = [float(x) for l in open(sys.argv[1]) if l.startswith("theta ") for x in l.split()[1:]]
sys.exit(0 if len(theta) == 3 and np.max(np.abs(np.array(theta) - corr / corr.sum())) <= 1e-8 else 1)
PY
expect_status 2 "$KM" train -q -s krr --mkl align --rank1-weight corr3 --kernel rank1 "$WORK/r6" "$WORK/bad.model" &&
    expect_one_line_error "corr2"

# l2krr, Lambda = 1, lambda = 0.5, mu0 = (1/sqrt 3) 1
expect_status 0 "$KM" train -q -s krr --ridge 0.5 --mkl l2krr --mu0 uniform --radius 1 --mkl-step-eps 1e-13 \
    --kernel rank1 "$WORK/r6" "$WORK/l.model"
expect_status 0 "$KM" predict -q "$WORK/q" "$WORK/l.model" "$WORK/l.out"
"$PYTHON" - "$WORK/l.model" "$WORK/l.out" <<'PY' || fail "l2krr on R6 misses the golden weights or prediction"
import sys
theta = [float(x) for l in open(sys.argv[1]) if l.startswith("theta ") for x in l.split()[1:]]
mu = [1.42227963, 0.61732057, 1.11073263]
pred = float(open(sys.argv[2]).read())
ok = len(theta) == 3 and max(abs(a - b) for a, b in zip(theta, mu)) <= 1e-7 and abs(pred - 2.24189368) <= 1e-7
sys.exit(0 if ok else 1)
PY

# KRR on align's weights over a feature list against numpy (sparse rows with non-zero means)
"$PYTHON" - "$WORK" <<'PY'
import sys, numpy as np
work = sys.argv[1]
rng = np.random.default_rng(4)
def rows(n):
    X = rng.uniform(0, 3, size=(n, 6)) * (rng.uniform(size=(n, 6)) < 0.6)
    return X, X[:, 0] - 0.5 * X[:, 2] + X[:, 4] + 0.1 * rng.normal(size=n)
def write(path, X, y):
    with open(path, "w") as out:
        for row, label in zip(X, y):
            out.write(f"{label:.17g} " + " ".join(f"{j+1}:{v:.17g}" for j, v in enumerate(row) if v) + "\n")
X, y = rows(50); Xt, yt = rows(12)
write(f"{work}/train", X, y); write(f"{work}/test", Xt, yt)
PY
expect_status 0 "$KM" train -q -s krr --ridge 0.3 --mkl align --kernel 'rank1:features=1-3,5' "$WORK/train" "$WORK/k.model"
expect_status 0 "$KM" predict -q "$WORK/test" "$WORK/k.model" "$WORK/k.out"
"$PYTHON" - "$WORK" <<'PY' || fail "rank-1 KRR predictions differ from numpy's"
import sys, numpy as np
from sklearn.datasets import load_svmlight_file
work = sys.argv[1]
X, y = load_svmlight_file(f"{work}/train", n_features=6); Xt, _ = load_svmlight_file(f"{work}/test", n_features=6)
cols = [0, 1, 2, 4]
X, Xt = X.toarray()[:, cols], Xt.toarray()[:, cols]
mean = X.mean(axis=0); s = 1 / np.linalg.norm(X - mean, axis=0)
Z, Zt = (X - mean) * s, (Xt - mean) * s
yc = y - y.mean()
corr2 = (Z.T @ yc) ** 2 / (yc @ yc)            # rho_k = corr(x_k, y)^2
mu = corr2 / corr2.sum()
alpha = np.linalg.solve(Z @ np.diag(mu) @ Z.T + 0.3 * np.eye(len(y)), yc)
want = Zt @ np.diag(mu) @ Z.T @ alpha + y.mean()
got = np.loadtxt(f"{work}/k.out")
theta = np.array([float(x) for l in open(f"{work}/k.model") if l.startswith("theta ") for x in l.split()[1:]])
sys.exit(0 if np.max(np.abs(theta - mu)) <= 1e-10 and np.max(np.abs(got - want)) <= 1e-8 else 1)
PY

# a rank-1 kernel is centred and scaled by definition: no norm, center or scale
expect_status 2 "$KM" train -q --mkl align --kernel 'rank1:norm=trace' "$WORK/train" "$WORK/bad.model" &&
    expect_one_line_error "key 'norm' is not valid for rank1 kernels"
[ ! -e "$WORK/bad.model" ] || fail "a refused spec left a model file"

# memory: 2,000 bag-of-words rows, 4,000 rank-1 kernels (skipped under valgrind: minutes, and its RSS;
# no memory limit in a sanitizer build)
if [ -z "${KM_UNDER_VALGRIND:-}" ] && [ -x /usr/bin/time ]; then
    "$PYTHON" - "$WORK/bow" <<'PY'
import sys, numpy as np
rng = np.random.default_rng(7)
n, d = 2000, 4000
p = 1.0 / np.arange(1, d + 1) ** 0.9; p /= p.sum()        # Zipf-like word frequencies
w = np.zeros(d); w[rng.choice(200, 40, replace=False)] = rng.normal(size=40)
with open(sys.argv[1], "w") as out:
    for i in range(n):
        idx, cnt = np.unique(rng.choice(d, size=30, p=p), return_counts=True)
        y = 1 if (w[idx] * cnt).sum() + 0.3 * rng.normal() > 0 else -1
        out.write(f"{y} " + " ".join(f"{j+1}:{c}" for j, c in zip(idx, cnt)) + f" {d}:0\n")
PY
    expect_status 0 /usr/bin/time -f "peak_rss_kb %M" "$KM" train -q -c 1000 --mkl align --kernel rank1 "$WORK/bow" "$WORK/bow.model"
    rss=$(sed -n 's/^peak_rss_kb //p' "$WORK/err")
    # (a sanitizer build's shadow memory and quarantine add to the RSS: no limit there)
    ldd "$KM" | grep -q libasan ||
        { [ -n "$rss" ] && [ "$rss" -lt 500000 ]; } || fail "align on 4,000 rank-1 kernels peaked at ${rss:-?} KB (limit 500 MB)"
    [ "$(grep -c '^type rank1' "$WORK/bow.model")" -eq 4000 ] || fail "the model does not hold 4,000 rank-1 kernels"
    expect_status 0 "$KM" predict "$WORK/bow" "$WORK/bow.model" "$WORK/bow.out" &&
        "$PYTHON" -c "import sys,re; a=float(re.search(r'Accuracy = ([0-9.]+)%', open(sys.argv[1]).read()).group(1)); sys.exit(0 if a > 80 else 1)" \
            "$WORK/out" || fail "align on rank-1 kernels does not fit its training rows ($(cat "$WORK/out"))"
fi

finish
