# Probability outputs (-b 1) against Debian's LIBSVM 3.24 (svm-train -b 1 / svm-predict -b 1) on the
# same kernel and data. kernelmix draws the folds of its internal cross-validation from the C
# library's rand() sequence, which svm-train uses unseeded, so with --seed 0 both fit on the same
# folds: the sigmoids (probA/probB) and the Laplace width agree to 1e-5 relative (both solvers at
# -e 1e-6), the predicted probabilities to 1e-3 (svm-predict prints 6 digits) and the labels exactly.
# With other folds (--seed 3) the probabilities still agree to 0.05 and the most probable class on
# at least 98 % of the rows. A learned combination's cross-validation runs on the combination with
# its weights fixed: the same sigmoids as training those weights as a fixed combination.
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
rng = np.random.default_rng(11)
def sk(name):
    d = np.loadtxt(f"{skdata}/{name}", delimiter=",", skiprows=1)
    X, y = d[:, :-1], d[:, -1]
    X = (X - X.min(0)) / np.where(X.max(0) > X.min(0), X.max(0) - X.min(0), 1)
    return X, y
X, y = sk("iris.csv"); idx = rng.permutation(len(y))
write(f"{work}/iris_train", X[idx[:100]], y[idx[:100]]); write(f"{work}/iris_test", X[idx[100:]], y[idx[100:]])
X, y = sk("wine_data.csv"); idx = rng.permutation(len(y))
write(f"{work}/wine_train", X[idx[:120]], y[idx[:120]]); write(f"{work}/wine_test", X[idx[120:]], y[idx[120:]])
X, y = sk("breast_cancer.csv"); idx = rng.permutation(len(y))
write(f"{work}/bc_train", X[idx[:400]], y[idx[:400]]); write(f"{work}/bc_test", X[idx[400:]], y[idx[400:]])
X = rng.uniform(-2, 2, size=(250, 3))
t = np.sin(X[:, 0]) + 0.5 * X[:, 1] + 0.2 * rng.laplace(size=250)
write(f"{work}/reg_train", X[:150], t[:150]); write(f"{work}/reg_test", X[150:], t[150:])
PY
head -n 200 "$DATA/heart_scale" >"$WORK/heart_train"
tail -n 70 "$DATA/heart_scale" >"$WORK/heart_test"

# compare_values NAME OURS THEIRS RELTOL: two files of numbers agree pairwise.
compare_values() {
    "$PYTHON" - "$@" <<'PY'
import sys
name, ours, theirs, tol = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
a = [float(v) for v in open(ours).read().split()]
b = [float(v) for v in open(theirs).read().split()]
bad = [(x, y) for x, y in zip(a, b) if abs(x - y) > tol * max(1.0, abs(y))]
if len(a) != len(b) or not a or bad:
    print(f"{name}: {len(a)} values vs LIBSVM's {len(b)}, differing: {bad[:4]}")
    sys.exit(1)
PY
}

# compare_predictions NAME OURS THEIRS TOL MIN_AGREEMENT: svm-predict -b 1 outputs: the same header,
# probabilities within TOL, the same label on at least MIN_AGREEMENT of the rows.
compare_predictions() {
    "$PYTHON" - "$@" <<'PY'
import sys
name, ours, theirs, tol, agreement = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]), float(sys.argv[5])
a = [l.split() for l in open(ours)]
b = [l.split() for l in open(theirs)]
ok = True
if not a or a[0][0] != "labels" or [float(v) for v in a[0][1:]] != [float(v) for v in b[0][1:]]:
    print(f"{name}: header {a[0] if a else None} vs LIBSVM's {b[0]}"); ok = False
if len(a) != len(b):
    print(f"{name}: {len(a)} lines vs LIBSVM's {len(b)}"); sys.exit(1)
rows = list(zip(a[1:], b[1:]))
same = sum(float(x[0]) == float(y[0]) for x, y in rows)
worst = max(abs(float(p) - float(q)) for x, y in rows for p, q in zip(x[1:], y[1:]))
sums = max(abs(sum(float(p) for p in x[1:]) - 1) for x, _ in rows)
if same < agreement * len(rows) or worst > tol or sums > 1e-5:
    print(f"{name}: labels agree on {same}/{len(rows)} rows, largest probability difference {worst:g}, "
          f"largest |sum - 1| {sums:g}"); ok = False
sys.exit(0 if ok else 1)
PY
}

# parity NAME DATA OPTIONS...: trains and predicts with -b 1 with both tools (kernelmix also gets
# $KM_ONLY) and compares the probability models and the predictions.
KM_ONLY=
parity() {
    name="$1" data="$2"
    shift 2
    train="$WORK/${data}_train" test="$WORK/${data}_test"
    svm-train -q -b 1 -e 1e-6 "$@" "$train" "$WORK/$name.libsvm.model" >/dev/null 2>&1 &&
        svm-predict -b 1 "$test" "$WORK/$name.libsvm.model" "$WORK/$name.libsvm.pred" >"$WORK/$name.libsvm.out" 2>&1 ||
        { fail "$name: LIBSVM failed"; return; }
    expect_status 0 "$KM" train -q -b 1 -e 1e-6 $KM_ONLY "$@" "$train" "$WORK/$name.model" || return
    expect_status 0 "$KM" predict -b 1 "$test" "$WORK/$name.model" "$WORK/$name.pred" || return
    cp "$WORK/out" "$WORK/$name.out"
    for key in probA probB; do
        sed -n "s/^$key //p" "$WORK/$name.libsvm.model" >"$WORK/$name.libsvm.$key"
    done
    sed -n 's/^sigmoid_a //p; s/^laplace_sigma //p' "$WORK/$name.model" >"$WORK/$name.probA"
    sed -n 's/^sigmoid_b //p' "$WORK/$name.model" >"$WORK/$name.probB"
    compare_values "$name probA" "$WORK/$name.probA" "$WORK/$name.libsvm.probA" 1e-5 || fail "$name: probA"
    if [ -s "$WORK/$name.libsvm.probB" ]; then
        compare_values "$name probB" "$WORK/$name.probB" "$WORK/$name.libsvm.probB" 1e-5 || fail "$name: probB"
        compare_predictions "$name" "$WORK/$name.pred" "$WORK/$name.libsvm.pred" 1e-3 1 || fail "$name: predictions"
    else
        # regression: the same values, and the same note on the Laplace width
        compare_values "$name predictions" "$WORK/$name.pred" "$WORK/$name.libsvm.pred" 1e-5 || fail "$name: predictions"
        grep -o 'sigma=.*' "$WORK/$name.libsvm.out" >"$WORK/$name.libsvm.sigma"
        grep -o 'sigma=.*' "$WORK/$name.out" >"$WORK/$name.sigma"
        cmp -s "$WORK/$name.sigma" "$WORK/$name.libsvm.sigma" || fail "$name: Laplace note differs"
    fi
    info_probability "$name"
}

# info_probability NAME: `info` shows the probability models of the model file (sigmoid_a, sigmoid_b
# or laplace_sigma): the same numbers in JSON, to 10 digits as text.
info_probability() {
    expect_status 0 "$KM" info --json "$WORK/$1.model" && cp "$WORK/out" "$WORK/$1.info.json" &&
        expect_status 0 "$KM" info "$WORK/$1.model" || return
    "$PYTHON" - "$WORK/$1.info.json" "$WORK/out" "$WORK/$1.probA" "$WORK/$1.probB" <<'PY' || fail "$1: info's probability models"
import json, re, sys
shown, text = json.load(open(sys.argv[1]))["probability"], open(sys.argv[2]).read()
a, b = ([float(v) for v in open(path).read().split()] for path in sys.argv[3:5])
if b:
    want = {"sigmoid_a": a, "sigmoid_b": b}
    lines = re.findall(r"^  machine (\d+): A (\S+), B (\S+)$", text, re.M)
    text_ok = lines == [(str(k + 1), f"{x:.10g}", f"{y:.10g}") for k, (x, y) in enumerate(zip(a, b))]
else:
    want = {"laplace_sigma": a[0]}
    text_ok = re.search(rf"^probability .* sigma {a[0]:.10g}$", text, re.M) is not None
if shown != want or not text_ok:
    print(f"info --json probability {shown}, model file {want}; text:\n{text}")
    sys.exit(1)
PY
}

parity svc_heart heart -s 0 -t 2 -g 0.5 -c 1
parity svc_heart_linear heart -s 0 -t 0 -c 0.5
parity svc_heart_weights heart -s 0 -t 2 -g 0.2 -c 4 -w1 3
parity svc_breast_cancer bc -s 0 -t 2 -g 0.1 -c 1
parity svc_iris iris -s 0 -t 2 -g 0.5 -c 2
parity svc_wine wine -s 0 -t 1 -d 2 -g 0.1 -r 1 -c 1
parity svr_reg reg -s 3 -t 2 -g 0.5 -c 2 -p 0.1
parity svr_heart heart -s 3 -t 2 -g 0.5 -p 0.3 -c 1
parity svr_nu_reg reg -s 4 -t 2 -g 0.5 -c 2 -n 0.4
# nu-SVC like for like with LIBSVM's float kernel cache (tests/cli/test_libsvm_parity.sh says why)
KM_ONLY=--cache-float
parity nusvc_iris iris -s 1 -t 2 -g 0.5 -n 0.1 -e 1e-9
parity nusvc_heart heart -s 1 -t 2 -g 0.5 -n 0.3 -e 1e-9
KM_ONLY=

# other folds: kernelmix --seed 3 against LIBSVM's folds
if expect_status 0 "$KM" train -q -b 1 -e 1e-6 --seed 3 -t 2 -g 0.1 -c 1 "$WORK/bc_train" "$WORK/bc3.model" &&
    expect_status 0 "$KM" predict -q -b 1 "$WORK/bc_test" "$WORK/bc3.model" "$WORK/bc3.pred"; then
    cmp -s "$WORK/bc3.model" "$WORK/svc_breast_cancer.model" && fail "--seed 3 drew the folds of seed 0"
    compare_predictions "other folds" "$WORK/bc3.pred" "$WORK/svc_breast_cancer.libsvm.pred" 0.05 0.98 ||
        fail "breast_cancer with other folds"
fi

# mkl_vs_fixed NAME DATA MKL_OPTIONS...: the sigmoids of a model with learned weights (one weight vector
# for all machines) equal those of the same weights given as a fixed combination: same kernel, same
# folds (the folds of every machine are drawn from one sequence, so the machines must match one to one).
KERNELS="--kernel rbf:gamma=0.5 --kernel linear --kernel poly:degree=2"
mkl_vs_fixed() {
    name="$1" data="$2"
    shift 2
    expect_status 0 "$KM" train -q -b 1 "$@" $KERNELS "$WORK/${data}_train" "$WORK/$name.mkl.model" || return
    theta=$(sed -n 's/^theta //p' "$WORK/$name.mkl.model" | head -n 1 | tr ' ' ',')
    expect_status 0 "$KM" train -q -b 1 --weights "$theta" $KERNELS "$WORK/${data}_train" "$WORK/$name.fixed.model" ||
        return
    for key in sigmoid_a sigmoid_b; do
        sed -n "s/^$key //p" "$WORK/$name.mkl.model" >"$WORK/$name.mkl.$key"
        sed -n "s/^$key //p" "$WORK/$name.fixed.model" >"$WORK/$name.fixed.$key"
        compare_values "$name $key" "$WORK/$name.mkl.$key" "$WORK/$name.fixed.$key" 1e-6 ||
            fail "$name: $key of the learned combination differs from the fixed one's"
    done
    expect_status 0 "$KM" predict -q -b 1 "$WORK/${data}_test" "$WORK/$name.mkl.model" "$WORK/$name.pred" &&
        { head -n 1 "$WORK/$name.pred" | grep -q '^labels ' || fail "$name: predict -b 1 wrote no labels line"; }
}
mkl_vs_fixed mkl_heart heart --mkl lp --p 1.5
mkl_vs_fixed mkl_iris_shared iris --mkl lp --p 1.5 --shared-weights

# refusals: one line, exit 2, no output
expect_status 2 "$KM" train -q -b 1 -s 2 "$WORK/heart_train" "$WORK/oneclass.model" &&
    expect_one_line_error "one-class SVM has no probability outputs"
[ -e "$WORK/oneclass.model" ] && fail "a one-class model was written with -b 1"
expect_status 2 "$KM" train -q -b 1 --multiclass ovr "$WORK/iris_train" "$WORK/ovr.model" &&
    expect_one_line_error "one-vs-one"
expect_status 2 "$KM" train -q -b 1 -v 5 "$WORK/heart_train" && expect_one_line_error "-v"
expect_status 2 "$KM" train -q -b 2 "$WORK/heart_train" "$WORK/b2.model" && expect_one_line_error "-b"
if expect_status 0 "$KM" train -q "$WORK/heart_train" "$WORK/plain.model"; then
    expect_status 2 "$KM" predict -b 1 "$WORK/heart_test" "$WORK/plain.model" "$WORK/plain.pred" &&
        expect_one_line_error "no probability models"
    [ -e "$WORK/plain.pred" ] && fail "predict -b 1 wrote output for a model without probability models"
    expect_status 0 "$KM" info --json "$WORK/plain.model" &&
        { [ "$(json_get "$WORK/out" 'j["probability"]')" = None ] || fail "info --json: probability of a model without -b 1"; }
    expect_status 0 "$KM" info "$WORK/plain.model" &&
        { grep -q '^probability' "$WORK/out" && fail "info shows probability models of a model without -b 1"; }
fi
if expect_status 0 "$KM" train -q -s 2 "$WORK/heart_train" "$WORK/oc.model"; then
    expect_status 2 "$KM" predict -b 1 "$WORK/heart_test" "$WORK/oc.model" "$WORK/oc.pred" &&
        expect_one_line_error "one-class models have no probability outputs"
fi
# a model file whose sigmoid count does not match its machines is refused
if [ -e "$WORK/svc_iris.model" ]; then
    "$PYTHON" - "$WORK/svc_iris.model" "$WORK/bad.model" <<'PY'
import sys, zlib
text = open(sys.argv[1]).read()
body = text[:text.rindex("checksum crc32 ")]
lines = body.splitlines(keepends=True)
lines = [" ".join(l.split()[:-1]) + "\n" if l.startswith("sigmoid_b ") else l for l in lines]
body = "".join(lines)
open(sys.argv[2], "w").write(body + "checksum crc32 %08x\n" % (zlib.crc32(body.encode()) & 0xffffffff))
PY
    expect_status 2 "$KM" predict -b 1 "$WORK/iris_test" "$WORK/bad.model" "$WORK/bad.pred" &&
        expect_one_line_error "sigmoid_b"
fi
finish
