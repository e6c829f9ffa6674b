# A precomputed kernel normalized spherically needs k(x,x) of the rows it predicts, which a test
# kernel (N_test x N_train) and the held-out rows of cross-validation do not give: training refuses it
# up front, for kernel matrix files and LIBSVM 0:i rows alike, in one line and with no model, where it
# used to train a model that predict and -v then refused. Normalized beforehand, the same matrix
# trains and predicts as the features' spherical kernel does.
. "$(dirname "$0")/lib.sh" "$@"

"$PYTHON" - "$WORK" <<'PY'
import sys, numpy as np
work = sys.argv[1]
rng = np.random.default_rng(5)
X = rng.normal(size=(60, 3)); y = np.where(X[:, 0] + 0.2 * rng.normal(size=60) > 0, 1, -1)
K = (X @ X.T + 1) ** 2
np.save(f"{work}/K.npy", K)
d = np.sqrt(np.diag(K))
np.save(f"{work}/Ks.npy", K / np.outer(d, d))
Xt = rng.normal(size=(20, 3)); yt = np.where(Xt[:, 0] > 0, 1, -1)
Kt = (Xt @ X.T + 1) ** 2
dt = (np.sum(Xt * Xt, axis=1) + 1)
np.save(f"{work}/Kts.npy", Kt / np.outer(dt, d))   # dt = sqrt(k(x, x)) of the test rows
np.savetxt(f"{work}/y", y, fmt="%d"); np.savetxt(f"{work}/yt", yt, fmt="%d")
with open(f"{work}/rows", "w") as f:
    for i in range(60):
        f.write(f"{y[i]} 0:{i + 1} " + " ".join(f"{j + 1}:{K[i, j]:.17g}" for j in range(60)) + "\n")
for name, A, b in (("train", X, y), ("test", Xt, yt)):
    with open(f"{work}/{name}", "w") as f:
        for row, label in zip(A, b):
            f.write(f"{label} " + " ".join(f"{j + 1}:{v:.17g}" for j, v in enumerate(row)) + "\n")
PY

refused() {
    rm -f "$WORK/m"
    if expect_status 2 "$KM" train "$@" "$WORK/m"; then
        expect_one_line_error "spherical normalization of a precomputed kernel needs k\(x,x\) of every test row"
    fi
    [ -e "$WORK/m" ] && fail "a model was written: $*"
}
refused --kernel "precomputed:file=$WORK/K.npy:norm=spherical" "$WORK/y"
refused --kernel "precomputed:file=$WORK/K.npy" --norm spherical "$WORK/y"
refused -t 4 --norm spherical "$WORK/rows"
refused --kernel linear --kernel "precomputed:file=$WORK/K.npy:norm=spherical" --mkl lp "$WORK/y"
if expect_status 2 "$KM" train -v 3 --kernel "precomputed:file=$WORK/K.npy:norm=spherical" "$WORK/y"; then
    expect_one_line_error "spherical normalization of a precomputed kernel"
fi

# the matrix normalized beforehand: the decision values of the features' own spherical kernel
expect_status 0 "$KM" train -q --kernel "precomputed:file=$WORK/Ks.npy" "$WORK/y" "$WORK/pre.model"
expect_status 0 "$KM" predict -q --decision-values --test-kernel "$WORK/Kts.npy" "$WORK/yt" "$WORK/pre.model" "$WORK/pre.out"
expect_status 0 "$KM" train -q --kernel "poly:degree=2:gamma=1:coef0=1:norm=spherical" "$WORK/train" "$WORK/poly.model"
expect_status 0 "$KM" predict -q --decision-values "$WORK/test" "$WORK/poly.model" "$WORK/poly.out"
"$PYTHON" - "$WORK/pre.out" "$WORK/poly.out" <<'PY' || fail "the normalized matrix predicts otherwise than the spherical polynomial kernel"
import sys, numpy as np
a = np.loadtxt(sys.argv[1]); b = np.loadtxt(sys.argv[2])
assert a.shape == b.shape and np.allclose(a, b, rtol=1e-6, atol=1e-6), np.max(abs(a - b))
PY

finish
