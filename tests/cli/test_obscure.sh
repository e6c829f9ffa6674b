# OBSCURE through the CLI (--mkl obscure; Orabona, Jie & Caputo, JMLR 2012) on the paper's synthetic
# three-class problem (§5.2): kernel 4, the only one separating all classes, takes >= 0.99 of the
# weight at p-block 1.01 and exactly 1/4 at p-block 2; the reported objective equals numpy's
# lambda/2 ||w||_{2,p}^2 + mean Crammer-Singer loss from predict's decision values and the block
# norms; the weights follow d_j = (|w^j| / ||w||_p)^(2-p); the joint machine predicts the class of
# its largest output; --R inf is --solver pegasos; --max-time still writes a usable model; the
# binary (hinge) path; on low-rank kernels equal to the exact ones OBSCURE keeps theta on the features
# and learns the same model; --verbose leaves the model as it is; bad combinations fail with one line, exit 2.
. "$(dirname "$0")/lib.sh" "$@"

"$PYTHON" - "$WORK" <<'PY'
import sys, numpy as np
work = sys.argv[1]
rng = np.random.default_rng(3)
y = np.repeat([1, 2, 3], 100)
blocks = []
for target in (3, 1, 2):
    F = np.zeros((300, 2)); F[np.arange(300), np.where(y == target, 0, 1)] = 1
    blocks.append(F + 0.5 * rng.normal(size=(300, 2)))
blocks.append(np.eye(3)[y - 1] + 0.1 * rng.normal(size=(300, 3)))
X = np.hstack(blocks)
def write(path, labels):
    with open(path, "w") as out:
        for row, label in zip(X, labels):
            out.write(f"{label} " + " ".join(f"{j+1}:{v:.17g}" for j, v in enumerate(row)) + "\n")
write(f"{work}/train", y)
write(f"{work}/binary", np.where(y == 1, 1, -1))
PY
KERNELS="--kernel linear:features=1-2:norm=spherical --kernel linear:features=3-4:norm=spherical
 --kernel linear:features=5-6:norm=spherical --kernel linear:features=7-9:norm=spherical"

for p in 1.01 2; do
    expect_status 0 "$KM" train -q --mkl obscure --p-block $p -c 10 --epochs 20 $KERNELS "$WORK/train" "$WORK/m$p" &&
        expect_status 0 "$KM" info --json "$WORK/m$p" && cp "$WORK/out" "$WORK/info$p.json"
done
w4=$(json_get "$WORK/info1.01.json" 'j["mkl"]["obscure"]["weights"][3]')
"$PYTHON" -c "import sys; sys.exit(0 if float(sys.argv[1]) >= 0.99 else 1)" "$w4" || fail "kernel 4 weight $w4 < 0.99 at p-block 1.01"
[ "$(json_get "$WORK/info2.json" 'j["mkl"]["obscure"]["weights"]')" = "[0.25, 0.25, 0.25, 0.25]" ] ||
    fail "p-block 2 weights are not 1/4: $(json_get "$WORK/info2.json" 'j["mkl"]["obscure"]["weights"]')"

# objective and weights against numpy, from predict's decision values and the block norms
expect_status 0 "$KM" train -q --mkl obscure --p-block 1.3 -c 1 --epochs 3 $KERNELS "$WORK/train" "$WORK/m13"
expect_status 0 "$KM" predict -q --decision-values "$WORK/train" "$WORK/m13" "$WORK/pred13"
expect_status 0 "$KM" info --json "$WORK/m13" && cp "$WORK/out" "$WORK/info13.json"
"$PYTHON" - "$WORK" <<'PY' || fail "the OBSCURE objective, weights or labels disagree with numpy"
import sys, json, re, numpy as np
work = sys.argv[1]
j = json.load(open(f"{work}/info13.json"))
ob = j["mkl"]["obscure"]
p = 1.3; q = p / (p - 1); lam = ob["lambda"]
bn = np.array(j["machines"][0]["block_norms"] if "block_norms" in j["machines"][0] else [k["block_norm"] for k in j["kernels"]])
y = np.repeat([0, 1, 2], 100)
rows = [l.split() for l in open(f"{work}/pred13")]
labels = np.array([float(r[0]) for r in rows]); f = np.array([[float(v) for v in r[1:4]] for r in rows])
ok = lam == 1.0 / 300
wnorm = (bn ** p).sum() ** (1 / p)
loss = np.maximum(0, 1 - f[np.arange(300), y] + np.where(np.eye(3)[y] > 0, -np.inf, f).max(1))
want = lam / 2 * wnorm ** 2 + loss.mean()
ok &= abs(ob["objective"] - want) <= 1e-9 * want
d = (bn / wnorm) ** (2 - p)
ok &= np.allclose(np.array(ob["weights"]), d / d.sum(), rtol=1e-9)
ok &= np.allclose(np.array(ob["weights_pk"]), d / (d ** (p / (2 - p))).sum() ** ((2 - p) / p), rtol=1e-9)
ok &= np.array_equal(labels, f.argmax(1) + 1.0)
sys.exit(0 if ok else 1)
PY

# Pegasos-MKL both ways: the same decision values
expect_status 0 "$KM" train -q --mkl obscure --solver pegasos --p-block 1.3 $KERNELS "$WORK/train" "$WORK/peg1"
expect_status 0 "$KM" train -q --mkl obscure --R inf --p-block 1.3 $KERNELS "$WORK/train" "$WORK/peg2"
expect_status 0 "$KM" predict -q --decision-values "$WORK/train" "$WORK/peg1" "$WORK/pp1"
expect_status 0 "$KM" predict -q --decision-values "$WORK/train" "$WORK/peg2" "$WORK/pp2"
cmp -s "$WORK/pp1" "$WORK/pp2" || fail "--R inf and --solver pegasos differ"
expect_status 0 "$KM" info "$WORK/peg1"
grep -q "R inf (Pegasos-MKL)" "$WORK/out" || fail "info does not show Pegasos-MKL"

# a time limit still writes a model that predicts
expect_status 0 "$KM" train -q --mkl obscure --max-time 1e-9 $KERNELS "$WORK/train" "$WORK/timed"
expect_status 0 "$KM" predict -q "$WORK/train" "$WORK/timed" "$WORK/timed.out"
expect_status 0 "$KM" info "$WORK/timed"
grep -q "stopped at a limit" "$WORK/out" || fail "a timed-out model does not say it stopped at a limit"

# binary: hinge loss, one machine with one output, every training row right
expect_status 0 "$KM" train -q --mkl obscure --p-block 1.1 -c 10 $KERNELS "$WORK/binary" "$WORK/bin"
expect_status 0 "$KM" predict "$WORK/binary" "$WORK/bin" "$WORK/bin.out"
grep -q "Accuracy = 100% (300/300)" "$WORK/out" || fail "binary training accuracy: $(cat "$WORK/out")"

# the same kernels as low-rank kernels of rank = their features (the linear kernel exactly): OBSCURE
# keeps the blocks of theta on the features instead of scoring rows against the support, and learns the
# same model (multiclass, binary, Pegasos-MKL's first step that zeroes theta), to rounding
LOW_RANK="--kernel linear:features=1-2:norm=spherical:rank=2 --kernel linear:features=3-4:norm=spherical:rank=2
 --kernel linear:features=5-6:norm=spherical:rank=2 --kernel linear:features=7-9:norm=spherical:rank=3"
for run in "m13 train --p-block 1.3 -c 1 --epochs 3" "bin binary --p-block 1.1 -c 10" \
           "peg1 train --solver pegasos --p-block 1.3"; do
    set -- $run
    name=$1 data=$2
    shift 2
    expect_status 0 "$KM" train --verbose --mkl obscure "$@" $LOW_RANK "$WORK/$data" "$WORK/$name.low"
    grep -q "OBSCURE on explicit features" "$WORK/err" || fail "$name: OBSCURE did not run on the features"
    [ -s "$WORK/$name" ] || expect_status 0 "$KM" train -q --mkl obscure "$@" $KERNELS "$WORK/$data" "$WORK/$name"
    "$PYTHON" - "$WORK/$name" "$WORK/$name.low" <<'PY' || fail "$name: OBSCURE on features differs from the kernelized form"
import sys
def values(path, key):   # the machine's line (the [data obscure] section has per-stage records)
    return [float(x) for x in next(l for l in open(path) if l.startswith(key + " ")).split()[1:]]
for key in ("theta", "objective", "gap"):
    a, b = values(sys.argv[1], key), values(sys.argv[2], key)
    print(key, a, b)
    if len(a) != len(b) or not a or max(abs(x - y) for x, y in zip(a, b)) > 1e-9 * max(1.0, max(map(abs, a))):
        sys.exit(1)
PY
done
expect_status 0 "$KM" predict -q "$WORK/train" "$WORK/m13.low" "$WORK/m13.low.out"
expect_status 0 "$KM" predict -q "$WORK/train" "$WORK/m13" "$WORK/m13.out"
cmp -s "$WORK/m13.out" "$WORK/m13.low.out" || fail "OBSCURE on features predicts other classes"

# --verbose adds an objective pass per epoch (and reuses the online stage's for R), nothing else: the
# same coefficients, weights and R (the model's gap is the relative change between the last two
# objectives evaluated, which the passes change)
expect_status 0 "$KM" train -q --mkl obscure --p-block 1.1 -c 10 --online-epochs 2 --epochs 2 $KERNELS \
    "$WORK/train" "$WORK/quiet"
expect_status 0 "$KM" train -q --verbose --mkl obscure --p-block 1.1 -c 10 --online-epochs 2 --epochs 2 $KERNELS \
    "$WORK/train" "$WORK/traced"
[ "$(grep -v -E '^(gap|checksum) ' "$WORK/quiet")" = "$(grep -v -E '^(gap|checksum) ' "$WORK/traced")" ] ||
    fail "--verbose changed the model: $(diff "$WORK/quiet" "$WORK/traced" | head -5)"

# refused combinations
expect_status 2 "$KM" train -q --mkl obscure --solver wrapper $KERNELS "$WORK/train" "$WORK/bad" &&
    expect_one_line_error "obscure runs its own two stages"
expect_status 2 "$KM" train -q -s svr --mkl obscure $KERNELS "$WORK/train" "$WORK/bad" &&
    expect_one_line_error "learns classifiers"
expect_status 2 "$KM" train -q --mkl lp --multiclass joint $KERNELS "$WORK/train" "$WORK/bad" &&
    expect_one_line_error "--multiclass joint needs a method with a multiclass loss"
expect_status 2 "$KM" train -q --mkl obscure --p-block 1 $KERNELS "$WORK/train" "$WORK/bad" &&
    expect_one_line_error "p_block must be in \(1, 2\]"
expect_status 2 "$KM" train -q --mkl obscure -w1 2 $KERNELS "$WORK/train" "$WORK/bad" &&
    expect_one_line_error "obscure does not weight the classes"
[ -e "$WORK/bad" ] && fail "a refused run wrote a model"
finish
