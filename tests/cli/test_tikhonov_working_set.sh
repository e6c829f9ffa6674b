# The elastic net's working set (src/mkl/tikhonov.c) on a problem where a kernel that left it must
# enter again: 60 rows of 6 Gaussian features, y = sin(2 x1) + x2 x3 / 2 + noise (tests/data/elasticnet),
# 31 kernels (rbf of four widths and linear on each feature, rbf of two widths on features 1-3),
# lambda = 0.1, C = 0.3. The run must report a kernel entering, certify its gap over all kernels, and
# reach scipy's minimum of the same problem written in the weights alone,
#   J(d) = 1/2 t'(U K_d U + I/C)^-1 t + 1/2 sum_m (1-lambda)^2 d_m / (1 - lambda d_m),  t = U y,
# to within that gap (Tomioka & Suzuki eqs. (3)-(6), Table 1's elastic-net row).
. "$(dirname "$0")/lib.sh" "$@"
"$PYTHON" -c "import scipy" 2>/dev/null || { echo "skipped: no scipy" >&2; exit 77; }

DATA="$ROOT/tests/data/elasticnet/reentry.svm"
: >"$WORK/kernels.spec"
for j in 1 2 3 4 5 6; do
    printf 'rbf:gamma=0.1,0.5,2,8:features=%s\nlinear:features=%s\n' "$j" "$j" >>"$WORK/kernels.spec"
done
echo 'rbf:gamma=0.1,1:features=1-3' >>"$WORK/kernels.spec"

expect_status 0 "$KM" train -s krr --kernels "$WORK/kernels.spec" --mkl tikhonov --regularizer elasticnet \
    --lambda 0.1 -c 0.3 --verbose "$DATA" "$WORK/en.model"
grep -Eq '\(all kernels; [1-9][0-9]* enter the working set\)' "$WORK/err" ||
    fail "no kernel entered the working set: $(grep tikhonov "$WORK/err" | tail -3)"
grep -q 'kernels in the working set' "$WORK/err" || fail "no step ran on a working set"
grep -qi warning "$WORK/err" && fail "warning: $(grep -i warning "$WORK/err")"
expect_status 0 "$KM" info --json "$WORK/en.model"
cp "$WORK/out" "$WORK/info.json"

"$PYTHON" - "$DATA" "$WORK/info.json" >"$WORK/check" <<'PY' || fail "the working-set solution is not the problem's minimum: $(cat "$WORK/check")"
import json, sys
import numpy as np
from scipy.optimize import minimize

rows = [line.split() for line in open(sys.argv[1])]
y = np.array([float(r[0]) for r in rows])
X = np.array([[float(v.split(":")[1]) for v in r[1:]] for r in rows])
machine = json.load(open(sys.argv[2]))["machines"][0]
C, lam = 0.3, 0.1
Ks = []
for j in range(6):
    x = X[:, j]
    Ks += [np.exp(-g * (x[:, None] - x[None, :]) ** 2) for g in (0.1, 0.5, 2, 8)] + [np.outer(x, x)]
sq = ((X[:, :3, None] - X[:, :3].T[None]) ** 2).sum(1)
Ks += [np.exp(-g * sq) for g in (0.1, 1)]
n = len(y); U = np.eye(n) - 1.0 / n; t = U @ y; Kc = [U @ K @ U for K in Ks]

def J(d):
    A = sum(dm * K for dm, K in zip(d, Kc)) + np.eye(n) / C
    a = np.linalg.solve(A, t)
    h = (1 - lam) ** 2 * d / (1 - lam * d); dh = (1 - lam) ** 2 / (1 - lam * d) ** 2
    return 0.5 * t @ a + 0.5 * h.sum(), np.array([-0.5 * a @ K @ a for K in Kc]) + 0.5 * dh

best = min((minimize(J, np.full(len(Ks), s), jac=True, method="L-BFGS-B", bounds=[(0, 1 / lam - 1e-9)] * len(Ks),
                     options={"ftol": 1e-15, "gtol": 1e-11, "maxiter": 20000}) for s in (0.5, 0.05, 1.0)),
           key=lambda r: r.fun)
primal, gap = machine["primal"], machine["duality_gap"]
d = np.array(machine["kernel_weights"])
ours = J(d)[0]
ok = gap is not None and 0 <= gap <= 1e-3 and machine["converged"]
ok &= best.fun <= primal * (1 + 1e-9) and primal - best.fun <= gap * abs(primal) + 1e-9
ok &= primal <= ours * (1 + 1e-12)   # g(x) = min_d (x/d + h(d))/2: J at f is at most J(d) at its weights
print("primal %.10g gap %s scipy %.10g J(d) %.10g" % (primal, gap, best.fun, ours))
sys.exit(0 if ok else 1)
PY
finish
