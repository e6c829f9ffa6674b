# Localized MKL through the CLI (--mkl clmkl / hlmkl, kernelmix cluster; docs/clmkl.md): on the
# synthetic localized data, kernelmix cluster's hard partition recovers the three regions (>= 99 %
# purity), its soft memberships have the asked average evenness (AE = mean c_ij / max_j c_ij, since
# exp(-tau Delta_ij) = c_ij / max_j c_ij) and rows summing to 1, and the same seed gives the same
# output; a trained model's info shows one weight vector per cluster, tau and the evenness, and
# prediction equals kernelmix predict on a reloaded copy; --no-bias gives bias 0 (and is refused by
# tasks without a bias-free form); bad options are refused with one line.
. "$(dirname "$0")/lib.sh" "$@"

GEN="$ROOT/examples/clmkl-localized/generate.py"
"$PYTHON" "$GEN" 150 1 "$WORK/train" || fail "generate.py failed"
"$PYTHON" "$GEN" 100 2 "$WORK/test" || fail "generate.py failed"
KERNELS="--kernel linear:features=3-7:norm=mult --kernel linear:features=8-12:norm=mult --kernel linear:features=13-17:norm=mult --kernel linear:features=18-37:norm=mult"
Z="--cluster-kernel linear:features=1-2"

expect_status 0 "$KM" cluster $KERNELS $Z --tau inf "$WORK/train" "$WORK/hard.txt"
expect_status 0 "$KM" cluster $KERNELS $Z --ae 0.5 --seed 3 "$WORK/train" "$WORK/soft.txt"
expect_status 0 "$KM" cluster $KERNELS $Z --ae 0.5 --seed 3 "$WORK/train"
cmp -s "$WORK/out" "$WORK/soft.txt" || fail "the same seed gave other memberships"
"$PYTHON" - "$WORK" "$ROOT/examples/clmkl-localized" <<'PY' || fail "clusters or memberships are wrong"
import sys, numpy as np
work = sys.argv[1]; sys.path.insert(0, sys.argv[2])
from generate import generate
_, _, regions = generate(150, 1)
hard = np.loadtxt(f"{work}/hard.txt", comments="#")
labels = hard[:, 0].astype(int) - 1
ok = np.all(hard[:, 1:].max(1) == 1) and np.all(hard[:, 1:].sum(1) == 1)
purity = sum(np.bincount(regions[labels == j], minlength=3).max() for j in range(3)) / len(labels)
ok &= purity >= 0.99
soft = np.loadtxt(f"{work}/soft.txt", comments="#")[:, 1:]
ok &= np.allclose(soft.sum(1), 1, atol=1e-12)
ok &= abs(np.mean(soft / soft.max(1, keepdims=True)) - 0.5) <= 1e-8
ok &= open(f"{work}/hard.txt").readline().startswith("# clusters 3 tau inf")
sys.exit(0 if ok else 1)
PY

expect_status 0 "$KM" train -q $KERNELS $Z --mkl clmkl --p 4/3 --ae 0.4 "$WORK/train" "$WORK/m.km"
expect_status 0 "$KM" info --json "$WORK/m.km" && cp "$WORK/out" "$WORK/info.json"
[ "$(json_get "$WORK/info.json" "len(j['machines'][0]['cluster_weights'])")" = 3 ] || fail "info shows no 3 weight vectors"
[ "$(json_get "$WORK/info.json" "j['mkl']['clusters']")" = 3 ] || fail "info --json has no clusters"
near "$(json_get "$WORK/info.json" "j['mkl']['average_evenness']")" 0.4 1e-8 || fail "average evenness is not 0.4"
[ "$(json_get "$WORK/info.json" "[w[-1] for w in j['machines'][0]['cluster_weights']]")" = "[0, 0, 0]" ] ||
    fail "the clustering-only kernel has a weight"
expect_status 0 "$KM" info "$WORK/m.km"
grep -q "kernel weights of cluster 3" "$WORK/out" || fail "info text shows no weights of cluster 3"
grep -q "^clusters          3" "$WORK/out" || fail "info text shows no clusters line"
expect_status 0 "$KM" predict -q "$WORK/test" "$WORK/m.km" "$WORK/p1"
cp "$WORK/m.km" "$WORK/copy.km"
expect_status 0 "$KM" predict -q "$WORK/test" "$WORK/copy.km" "$WORK/p2"
cmp -s "$WORK/p1" "$WORK/p2" || fail "predictions of a copied model differ"
expect_status 0 "$KM" train -q $KERNELS $Z --mkl hlmkl --clusters 2 "$WORK/train" "$WORK/h.km"
expect_status 0 "$KM" info --json "$WORK/h.km" && cp "$WORK/out" "$WORK/h.json"
[ "$(json_get "$WORK/h.json" "j['mkl']['tau']")" = inf ] || fail "hlmkl's tau is not inf"

expect_status 2 "$KM" train -q $KERNELS --mkl clmkl --clusters 0 "$WORK/train" "$WORK/bad.km" && expect_one_line_error 'clusters'
expect_status 2 "$KM" train -q $KERNELS --mkl clmkl --ae 1.5 "$WORK/train" "$WORK/bad.km" && expect_one_line_error 'ae'
expect_status 2 "$KM" train -q $KERNELS --mkl clmkl --tau -1 "$WORK/train" "$WORK/bad.km" && expect_one_line_error 'tau'
expect_status 2 "$KM" train -q $KERNELS --mkl clmkl --cluster-kernel 'rbf:gamma=1,2' "$WORK/train" "$WORK/bad.km" &&
    expect_one_line_error 'gives 2 kernels'
expect_status 2 "$KM" train -q $KERNELS --mkl clmkl --cluster-kernel 9 "$WORK/train" "$WORK/bad.km" &&
    expect_one_line_error 'clustering kernel 9'
expect_status 2 "$KM" train -q $KERNELS --mkl clmkl --clusters 1000 "$WORK/train" "$WORK/bad.km" &&
    expect_one_line_error 'clusters'
awk '{ $1 = NR % 3; print }' "$WORK/train" >"$WORK/three"
expect_status 2 "$KM" train -q $KERNELS --mkl clmkl "$WORK/three" "$WORK/bad.km" && expect_one_line_error 'one-vs-rest'
[ ! -e "$WORK/bad.km" ] || fail "a refused training wrote a model"
# --max-time ends LMKL's descent between steps with a usable, unconverged model
expect_status 0 "$KM" train $KERNELS $Z --mkl lmkl --max-time 1e-9 "$WORK/train" "$WORK/l.km" &&
    { grep -q "LMKL stopped at the time limit after 0 steps" "$WORK/err" || fail "lmkl --max-time: $(cat "$WORK/err")"; }
expect_status 0 "$KM" info --json "$WORK/l.km" &&
    { [ "$(json_get "$WORK/out" "j['machines'][0]['converged']")" = False ] || fail "lmkl --max-time: converged"; }
expect_status 0 "$KM" predict -q "$WORK/test" "$WORK/l.km" "$WORK/l.pred"

# --no-bias: C-SVC (and localized MKL on it) without bias; the tasks without a bias-free form refuse it
expect_status 0 "$KM" train -q $KERNELS $Z --mkl hlmkl --no-bias "$WORK/train" "$WORK/nb.km"
expect_status 0 "$KM" info --json "$WORK/nb.km" &&
    { [ "$(json_get "$WORK/out" "float(j['machines'][0]['bias']) == 0")" = True ] || fail "--no-bias: the bias is not 0"; }
expect_status 2 "$KM" train -q -s 4 --no-bias $KERNELS "$WORK/train" "$WORK/bad.km" &&
    expect_one_line_error '--no-bias is read by -s svc, svr, krr only \(this run uses -s nu-svr\)'
finish
