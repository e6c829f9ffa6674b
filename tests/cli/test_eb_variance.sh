# The Gaussian-process reading of an empirical-Bayes model: predict --variance writes a second column
# equal to numpy's posterior variance k_d(x, x) - k_x'(K_d + s2 I)^-1 k_x at the model's learned weights
# and noise (RBF kernels with a spherical one, learned and given noise); the mean column is unchanged;
# info (text and JSON) shows the evidence, the noise, the weights and the kernels kept that the model file
# holds; --variance on a model without it, and on a model with a precomputed kernel, is refused with one
# line, exit 2, and no output.
. "$(dirname "$0")/lib.sh" "$@"

"$PYTHON" - "$WORK" <<'PY'
import sys, numpy as np
work = sys.argv[1]
rng = np.random.default_rng(7)
X = rng.uniform(-2, 2, size=(50, 3)); Xt = rng.uniform(-3, 3, size=(25, 3))
def f(X): return np.sin(2 * X[:, 0]) + 0.5 * X[:, 1] + 1
def write(path, X, y):
    with open(path, "w") as out:
        for row, label in zip(X, y):
            out.write(f"{label:.17g} " + " ".join(f"{j+1}:{v:.17g}" for j, v in enumerate(row)) + "\n")
write(f"{work}/train", X, f(X) + 0.1 * rng.normal(size=50))
write(f"{work}/test", Xt, f(Xt))
PY

KERNELS="--kernel rbf:gamma=0.1,1,10 --kernel poly:degree=2:coef0=1:norm=spherical"
expect_status 0 "$KM" train -q -s krr --mkl eb-mackay --learn-noise $KERNELS "$WORK/train" "$WORK/learned.model"
expect_status 0 "$KM" train -q -s krr --mkl eb-rw --noise 0.05 $KERNELS "$WORK/train" "$WORK/given.model"
for which in learned given; do
    expect_status 0 "$KM" predict -q --variance "$WORK/test" "$WORK/$which.model" "$WORK/$which.var"
    expect_status 0 "$KM" predict -q "$WORK/test" "$WORK/$which.model" "$WORK/$which.mean"
    expect_status 0 "$KM" info --json "$WORK/$which.model"
    cp "$WORK/out" "$WORK/$which.json"
    expect_status 0 "$KM" info "$WORK/$which.model"
    cp "$WORK/out" "$WORK/$which.txt"
done

"$PYTHON" - "$WORK" <<'PY' || fail "predict --variance or info differ from numpy's GP posterior and the model file"
import sys, re, json, numpy as np
from sklearn.datasets import load_svmlight_file
work = sys.argv[1]
X, y = load_svmlight_file(f"{work}/train"); X = X.toarray()
Xt, _ = load_svmlight_file(f"{work}/test", n_features=X.shape[1]); Xt = Xt.toarray()
sq = lambda A, B: (A * A).sum(1)[:, None] + (B * B).sum(1)[None, :] - 2 * A @ B.T
def kernels(A, B):
    poly = lambda A, B: (A @ B.T + 1) ** 2
    sph = poly(A, B) / np.sqrt(np.outer(((A * A).sum(1) + 1) ** 2, ((B * B).sum(1) + 1) ** 2))
    return [np.exp(-g * sq(A, B)) for g in (0.1, 1, 10)] + [sph]
ok = True
for which in ("learned", "given"):
    text = open(f"{work}/{which}.model").read()
    d = np.array(re.search(r"^theta (.*)$", text, re.M).group(1).split(), float)
    noise = float(re.search(r"^noise_1 rows 1 1\n(\S+)", text, re.M).group(1))
    nle = float(re.search(r"^neg_log_evidence_1 rows 1 1\n(\S+)", text, re.M).group(1))
    kept = int(float(re.search(r"^kernels_kept_1 rows 1 1\n(\S+)", text, re.M).group(1)))
    K = sum(dm * k for dm, k in zip(d, kernels(X, X)))
    Kx = sum(dm * k for dm, k in zip(d, kernels(Xt, X)))
    kxx = sum(dm * np.diag(k) for dm, k in zip(d, kernels(Xt, Xt)))
    var = kxx - np.einsum("ij,ij->i", Kx, np.linalg.solve(K + noise * np.eye(len(y)), Kx.T).T)
    out = np.loadtxt(f"{work}/{which}.var")
    mean = np.loadtxt(f"{work}/{which}.mean")
    ok &= out.shape == (len(Xt), 2)
    ok &= np.max(np.abs(out[:, 0] - mean)) == 0
    ok &= np.max(np.abs(out[:, 1] - var)) <= 1e-8 * max(1.0, var.max())
    ok &= var.min() > 1e-6   # the test rows reach beyond the training box: the check is not trivially 0
    j = json.load(open(f"{work}/{which}.json"))["machines"][0]
    ev = j["evidence"]
    ok &= abs(ev["neg_log_evidence"] - nle) <= 1e-12 * abs(nle) and ev["noise"] == noise
    ok &= ev["kernels_kept"] == kept == int(np.sum(d > 0))
    ok &= np.allclose(j["kernel_weights"], d, rtol=1e-15, atol=0)
    if which == "given":
        ok &= noise == 0.05
    line = [l for l in open(f"{work}/{which}.txt") if "evidence:" in l]
    ok &= len(line) == 1 and f"{kept} of 4 kernels kept" in line[0]
    ok &= abs(float(re.search(r"-log p\(y \| d, s2\) (\S+),", line[0]).group(1)) - nle) <= 1e-9 * abs(nle)
    if not ok:
        print(which, np.max(np.abs(out[:, 1] - var)), ev, nle, noise, kept, file=sys.stderr)
sys.exit(0 if ok else 1)
PY

expect_status 0 "$KM" train -q -s krr --kernel "rbf:gamma=1" "$WORK/train" "$WORK/plain.model"
expect_status 2 "$KM" predict -q --variance "$WORK/test" "$WORK/plain.model" "$WORK/bad.out" &&
    expect_one_line_error 'no predictive variance'
[ ! -e "$WORK/bad.out" ] || fail "a refused prediction wrote an output"
expect_status 0 "$KM" info --json "$WORK/plain.model"
json_get "$WORK/out" '"evidence" in j["machines"][0]' | grep -qx False || fail "a plain KRR model shows an evidence"

# a kernel centred on the training rows: k(x, x) of a new row is not known
expect_status 0 "$KM" train -q -s krr --mkl eb-mackay --kernel rbf:gamma=1:center=1 --kernel linear "$WORK/train" \
    "$WORK/centred.model"
expect_status 2 "$KM" predict -q --variance "$WORK/test" "$WORK/centred.model" "$WORK/bad.out" &&
    expect_one_line_error 'centred'
[ ! -e "$WORK/bad.out" ] || fail "a refused prediction wrote an output"
finish
