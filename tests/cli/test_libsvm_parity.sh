# Parity with Debian's LIBSVM (svm-train / svm-predict): for C-SVC, nu-SVC, epsilon-SVR, nu-SVR and
# one-class, with every LIBSVM kernel, on generated and packaged data, the dual objective of each
# machine agrees to 1e-6 relative (LIBSVM prints it with 6 decimals, so at least 1e-6 absolute), rho
# (the model's -bias) to 1e-5, and the predicted labels are identical (regression values agree to 1e-5).
# An SVR whose bias the dual optimum leaves free (an interval of optimal b) may end at another b than
# LIBSVM's: it passes where its decision values differ by the rhos' difference alone and its loss on the
# training rows equals LIBSVM's to 1e-6 (the same w, an equally optimal b).
. "$(dirname "$0")/lib.sh" "$@"
need svm-train
need svm-predict

SKLEARN_DATA=/usr/lib/python3/dist-packages/sklearn/datasets/data
"$PYTHON" - "$WORK" "$SKLEARN_DATA" <<'PY'
import sys, numpy as np
work, skdata = sys.argv[1], sys.argv[2]
def write(path, X, y):
    with open(path, "w") as f:
        for row, label in zip(X, y):
            feats = " ".join(f"{j+1}:{v:.17g}" for j, v in enumerate(row) if v != 0)
            f.write(f"{label:.17g} {feats}\n")
rng = np.random.default_rng(7)
n = 250
y = np.where(rng.random(n) < 0.5, 1, -1)
X = rng.normal(size=(n, 5)) + 0.8 * y[:, None] * np.array([1, 0.5, 0, 0, -0.5])
write(f"{work}/cls_train", X[:150], y[:150]); write(f"{work}/cls_test", X[150:], y[150:])
X = rng.uniform(-2, 2, size=(n, 4))
t = np.sin(X[:, 0]) + 0.5 * X[:, 1] + 0.1 * rng.normal(size=n)
write(f"{work}/reg_train", X[:150], t[:150]); write(f"{work}/reg_test", X[150:], t[150:])
def sk(name):
    d = np.loadtxt(f"{skdata}/{name}", delimiter=",", skiprows=1)
    X, y = d[:, :-1], d[:, -1]
    X = (X - X.min(0)) / np.where(X.max(0) > X.min(0), X.max(0) - X.min(0), 1)
    return X, y
X, y = sk("iris.csv"); idx = rng.permutation(len(y))
write(f"{work}/iris_train", X[idx[:100]], y[idx[:100]]); write(f"{work}/iris_test", X[idx[100:]], y[idx[100:]])
X, y = sk("breast_cancer.csv"); idx = rng.permutation(len(y))
write(f"{work}/bc_train", X[idx[:400]], y[idx[:400]]); write(f"{work}/bc_test", X[idx[400:]], y[idx[400:]])
PY
head -n 200 "$DATA/heart_scale" >"$WORK/heart_train"
tail -n 70 "$DATA/heart_scale" >"$WORK/heart_test"

# compare NAME DATA OPTIONS...: trains and predicts with both tools on $WORK/DATA_train / _test
# (kernelmix also gets $KM_ONLY).
KM_ONLY=
compare() {
    name="$1" data="$2"
    shift 2
    train="$WORK/${data}_train" test="$WORK/${data}_test"
    if ! svm-train -e 1e-6 "$@" "$train" "$WORK/$name.libsvm.model" >"$WORK/$name.libsvm.out" 2>&1; then
        fail "$name: svm-train failed: $(tail -n 2 "$WORK/$name.libsvm.out")"
        return
    fi
    svm-predict "$test" "$WORK/$name.libsvm.model" "$WORK/$name.libsvm.pred" >/dev/null 2>&1 ||
        { fail "$name: svm-predict failed"; return; }
    expect_status 0 "$KM" train -q -e 1e-6 $KM_ONLY "$@" "$train" "$WORK/$name.model" || return
    expect_status 0 "$KM" predict -q "$test" "$WORK/$name.model" "$WORK/$name.pred" || return
    if [ "${name#svr}" != "$name" ]; then   # regression: the training rows' values too (a bias not unique)
        expect_status 0 "$KM" predict -q "$train" "$WORK/$name.model" "$WORK/$name.fit" || return
        svm-predict "$train" "$WORK/$name.libsvm.model" "$WORK/$name.libsvm.fit" >/dev/null 2>&1 ||
            { fail "$name: svm-predict failed"; return; }
    fi
    expect_status 0 "$KM" info --json "$WORK/$name.model" || return
    json_get "$WORK/out" "'\n'.join(repr(m['objective']) for m in j['machines'])" >"$WORK/$name.obj"
    json_get "$WORK/out" "'\n'.join(repr(-m['bias']) for m in j['machines'])" >"$WORK/$name.rho"
    sed -n 's/^obj = \([-0-9.e+]*\),.*/\1/p' "$WORK/$name.libsvm.out" >"$WORK/$name.libsvm.obj"
    sed -n 's/^rho //p' "$WORK/$name.libsvm.model" >"$WORK/$name.libsvm.rho"
    "$PYTHON" - "$name" "$WORK/$name.obj" "$WORK/$name.libsvm.obj" "$WORK/$name.pred" "$WORK/$name.libsvm.pred" \
        "$WORK/$name.rho" "$WORK/$name.libsvm.rho" "$train" "$WORK/$name.fit" "$WORK/$name.libsvm.fit" "$*" <<'PY' ||
import sys
name, ours, theirs, pred, lpred, rho, lrho, train, fit, lfit, options = sys.argv[1:]
ok = True
def values(path):
    return [float(v) for v in open(path).read().split()]
def loss(f, opt):
    """The SVR's loss at the values f of the training rows: epsilon-SVR's sum max(0, |r| - p); nu-SVR's
    min over epsilon of nu epsilon + mean max(0, |r| - epsilon), attained at some |r_i| or 0."""
    r = [abs(a - b) for a, b in zip(f, (float(l.split()[0]) for l in open(train)))]
    if opt.get("-s") == "3":
        return sum(max(0.0, x - float(opt.get("-p", 0.1))) for x in r)
    nu = float(opt.get("-n", 0.5))
    return min(nu * e + sum(max(0.0, x - e) for x in r) / len(r) for e in [0.0] + r)
def same_w_other_bias():
    """An SVR's dual optimum fixes w but not always the bias: where no free support vector pins it, any
    b of an interval is optimal, and solvers that round differently end at different points of it. The
    models are then the same up to b: decision values that differ by the rhos' difference, and the same
    loss on the training rows (the rest of the primal, 1/2 ||w||^2, is fixed by w)."""
    (r,), (lr,) = values(rho), values(lrho)
    shifted = all(abs((x - y) - (lr - r)) <= 1e-5 * max(1, abs(y)) for x, y in zip(values(pred), values(lpred)))
    words = options.split()
    opt = dict(zip(words[::2], words[1:][::2]))
    a, b = loss(values(fit), opt), loss(values(lfit), opt)
    return shifted and abs(a - b) <= 1e-6 * max(1.0, abs(b))
regression = name.startswith("svr")
bias_free = False
if regression and len(values(rho)) == 1 and abs(values(rho)[0] - values(lrho)[0]) > 1e-5 and same_w_other_bias():
    print(f"{name}: rho {values(rho)[0]!r} vs LIBSVM {values(lrho)[0]!r}: the same w, an equally optimal bias")
    bias_free = True
for what, mine, libsvm, tol in (("objective", ours, theirs, 1e-6), ("rho", rho, lrho, 1e-5)):
    if what == "rho" and bias_free:
        continue
    a = [float(v) for v in open(mine).read().split()]
    b = [float(v) for v in open(libsvm).read().split()]
    if len(a) != len(b) or not a:
        print(f"{name}: {len(a)} machine {what} values vs LIBSVM's {len(b)}"); ok = False
    for k, (x, y) in enumerate(zip(a, b)):
        if abs(x - y) > max(tol * abs(y), tol):
            print(f"{name}: machine {k + 1} {what} {x!r} vs LIBSVM {y!r}"); ok = False
p, q = values(pred), values(lpred)
shift = values(lrho)[0] - values(rho)[0] if bias_free else 0.0
bad = [i for i, (x, y) in enumerate(zip(p, q)) if (abs(x - y - shift) > 1e-5 * max(1, abs(y)) if regression else x != y)]
if len(p) != len(q) or bad:
    print(f"{name}: {len(bad)} of {len(q)} predictions differ from LIBSVM's (first rows {bad[:5]})"); ok = False
sys.exit(0 if ok else 1)
PY
        fail "$name: see above"
}

compare svc_rbf heart -s 0 -t 2 -g 0.5 -c 1
compare svc_linear heart -s 0 -t 0 -c 0.5
compare svc_poly heart -s 0 -t 1 -d 2 -g 0.1 -r 1 -c 1
compare svc_sigmoid heart -s 0 -t 3 -g 0.05 -r -0.5 -c 1
compare svc_weights heart -s 0 -t 2 -g 0.2 -c 4 -w1 3
compare svc_noshrink heart -s 0 -t 2 -g 0.5 -c 1 -h 0
compare svc_generated cls -s 0 -t 2 -g 0.1 -c 10
compare svc_multiclass iris -s 0 -t 2 -g 0.5 -c 2
compare svc_breast_cancer bc -s 0 -t 2 -g 0.1 -c 1
compare oneclass_rbf heart -s 2 -t 2 -g 0.5 -n 0.3
compare oneclass_generated cls -s 2 -t 2 -g 0.1 -n 0.1
compare svr_rbf reg -s 3 -t 2 -g 0.2 -c 5 -p 0.1
compare svr_linear reg -s 3 -t 0 -c 1 -p 0.05
compare svr_heart heart -s 3 -t 2 -g 0.5 -p 0.3 -c 1
# nu-SVC's objective is a pure quadratic form of terms of both signs, whose cancellation magnifies the
# rounding of LIBSVM's float kernel cache (Qfloat) to ~1e-6 relative; nu-SVR's follows it through its
# epsilon. Compared like for like: float cache values, both solvers converged (-e 1e-9).
KM_ONLY=--cache-float
compare nusvc_rbf heart -s 1 -t 2 -g 0.5 -n 0.3 -e 1e-9
compare nusvc_linear heart -s 1 -t 0 -n 0.5 -e 1e-9
compare nusvc_poly heart -s 1 -t 1 -d 2 -g 0.1 -r 1 -n 0.4 -e 1e-9
compare nusvc_noshrink heart -s 1 -t 2 -g 0.2 -n 0.6 -h 0 -e 1e-9
compare nusvc_generated cls -s 1 -t 2 -g 0.1 -n 0.2 -e 1e-9
compare nusvc_multiclass iris -s 1 -t 2 -g 0.5 -n 0.1 -e 1e-9
compare nusvc_breast_cancer bc -s 1 -t 2 -g 0.1 -n 0.4 -e 1e-9
compare svr_nu_rbf reg -s 4 -t 2 -g 0.2 -c 5 -n 0.3 -e 1e-9
compare svr_nu_linear reg -s 4 -t 0 -c 1 -n 0.6 -e 1e-9
compare svr_nu_heart heart -s 4 -t 2 -g 0.5 -n 0.5 -c 1 -e 1e-9
compare svr_nu_noshrink reg -s 4 -t 3 -g 0.05 -r -0.5 -c 2 -n 0.4 -h 0 -e 1e-9
KM_ONLY=

# precomputed kernels (-t 4) written by 'kernelmix kernel --text'
if expect_status 0 "$KM" kernel --text --kernel 'rbf:gamma=0.5' "$WORK/heart_train" "$WORK/pre_train" &&
    expect_status 0 "$KM" kernel --text --kernel 'rbf:gamma=0.5' --test "$WORK/heart_test" "$WORK/heart_train" "$WORK/pre_test"; then
    compare svc_precomputed pre -s 0 -t 4 -c 1
    KM_ONLY=--cache-float
    compare nusvc_precomputed pre -s 1 -t 4 -n 0.3 -e 1e-9
    KM_ONLY=
    # the precomputed model predicts exactly what the on-the-fly RBF model predicts
    cmp -s "$WORK/svc_precomputed.pred" "$WORK/svc_rbf.pred" || fail "precomputed and on-the-fly RBF predictions differ"
fi
finish
