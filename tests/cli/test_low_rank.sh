# Low-rank kernels (spec key rank=, the Nystrom approximation) through the CLI: with as many landmarks
# as training rows the model is the exact kernel's (objectives within the certified gaps, the same
# weights and predictions), with fewer
# it trains, keeps its landmarks and projection in the model and predicts; a model whose map was cut
# short is refused with one line naming the file (exit 2); rank= on a kernel without a low-rank form and
# rank=0 are refused naming the spec.
. "$(dirname "$0")/lib.sh" "$@"

H="$DATA/heart_scale"

# rank = number of training rows: the exact kernel (lp-MKL, p = 4/3, five widths and a poly kernel). The
# two runs certify their own points: the objectives agree within the sum of their relative gaps, the
# weights to 1e-2, and the predictions on at least 99 % of the rows (the solvers' paths differ in the
# last bits, as between builds)
expect_status 0 "$KM" train --mkl lp --p 4/3 --kernel 'rbf:gamma=2^-2..2^2/mean' --kernel 'poly:degree=2' \
    "$H" "$WORK/exact.model"
expect_status 0 "$KM" train --mkl lp --p 4/3 --kernel 'rbf:gamma=2^-2..2^2/mean:rank=270' \
    --kernel 'poly:degree=2:rank=500' "$H" "$WORK/full.model"
expect_status 0 "$KM" predict "$H" "$WORK/exact.model" "$WORK/exact.pred"
expect_status 0 "$KM" predict "$H" "$WORK/full.model" "$WORK/full.pred"
"$PYTHON" - "$WORK/exact.model" "$WORK/full.model" "$WORK/exact.pred" "$WORK/full.pred" <<'PY' ||
import sys
def values(path, key):
    return [float(x) for l in open(path) if l.startswith(key + " ") for x in l.split()[1:]]
(ta, tb), (oa, ob), (ga, gb) = [(values(sys.argv[1], k), values(sys.argv[2], k)) for k in ("theta", "objective", "gap")]
pa, pb = open(sys.argv[3]).read().split(), open(sys.argv[4]).read().split()
ok = len(ta) == len(tb) == 6 and max(abs(x - y) for x, y in zip(ta, tb)) <= 1e-2
ok &= abs(oa[0] - ob[0]) <= (ga[0] + gb[0]) * abs(oa[0]) and ga[0] <= 1e-3 and gb[0] <= 1e-3
ok &= len(pa) == len(pb) == 270 and sum(a == b for a, b in zip(pa, pb)) >= 268
sys.exit(0 if ok else 1)
PY
    fail "rank = N: the model is not the exact kernels' (theta, objective within the gaps, predictions)"

# rank 30: the map is in the model (30 landmarks of 13 features, a projection per kernel), prediction
# reads it, and the training accuracy stays that of a working classifier
expect_status 0 "$KM" train -q --mkl lp --p 4/3 --kernel 'rbf:gamma=2^-2..2^2/mean:rank=30' "$H" "$WORK/low.model"
[ "$(grep -c '^landmarks 30 13 ' "$WORK/low.model")" -eq 5 ] || fail "the model does not hold 5 maps of 30 landmarks"
[ "$(grep -c '^projection ' "$WORK/low.model")" -eq 5 ] || fail "the model does not hold 5 projections"
expect_status 0 "$KM" predict "$H" "$WORK/low.model" "$WORK/low.pred" &&
    "$PYTHON" -c "import sys,re; a=float(re.search(r'Accuracy = ([0-9.]+)%', open(sys.argv[1]).read()).group(1)); sys.exit(0 if a > 80 else 1)" \
        "$WORK/out" || fail "rank 30: training accuracy $(cat "$WORK/out")"
expect_status 0 "$KM" info "$WORK/low.model"
grep -q 'rank=30' "$WORK/out" || fail "info does not show the kernels' rank"

# a map cut short: one line naming the model file, exit 2, no predictions written
"$PYTHON" - "$WORK/low.model" "$WORK/cut.model" <<'PY'
import sys
lines = open(sys.argv[1]).read().split("\n")
for i, l in enumerate(lines):
    if l.startswith("projection "):
        lines[i] = " ".join(l.split()[:-7])
        break
open(sys.argv[2], "w").write("\n".join(lines))
PY
expect_status 2 "$KM" predict "$H" "$WORK/cut.model" "$WORK/cut.pred" && expect_one_line_error 'cut\.model'
[ -e "$WORK/cut.pred" ] && fail "a prediction file was written from a broken model"

# specs refused with the spec named
expect_status 2 "$KM" train -q --kernel 'chi2:rank=10' "$H" "$WORK/x.model" &&
    expect_one_line_error "chi2:rank=10.*not valid for chi2"
expect_status 2 "$KM" train -q --kernel 'rbf:rank=0' "$H" "$WORK/x.model" &&
    expect_one_line_error "rank must be a positive integer"
[ -e "$WORK/x.model" ] && fail "a model was written from a refused spec"

finish
