# Low-rank kernels (spec key rank=, the Nystrom approximation) through the CLI: with as many landmarks
# as training rows the model is the exact kernel's (the same objective, gap and predictions), with fewer
# it trains, keeps its landmarks and projection in the model and predicts; a model whose map was cut
# short is refused with one line naming the file (exit 2); rank= on a kernel without a low-rank form and
# rank=0 are refused naming the spec.
. "$(dirname "$0")/lib.sh" "$@"

H="$DATA/heart_scale"

# rank = number of training rows: the exact kernel (lp-MKL, p = 4/3, five widths and a poly kernel)
expect_status 0 "$KM" train --mkl lp --p 4/3 --kernel 'rbf:gamma=2^-2..2^2/mean' --kernel 'poly:degree=2' \
    "$H" "$WORK/exact.model"
grep -E '^machine 1' "$WORK/out" | sed 's/kernel weights.*//' >"$WORK/exact.line"
expect_status 0 "$KM" train --mkl lp --p 4/3 --kernel 'rbf:gamma=2^-2..2^2/mean:rank=270' \
    --kernel 'poly:degree=2:rank=500' "$H" "$WORK/full.model"
grep -E '^machine 1' "$WORK/out" | sed 's/kernel weights.*//' >"$WORK/full.line"
cmp -s "$WORK/exact.line" "$WORK/full.line" ||
    fail "rank = N: objective or gap differ from the exact kernels' ($(cat "$WORK/exact.line") / $(cat "$WORK/full.line"))"
"$PYTHON" - "$WORK/exact.model" "$WORK/full.model" <<'PY' || fail "rank = N: kernel weights differ from the exact kernels'"
import sys
def theta(path):
    return [float(x) for l in open(path) if l.startswith("theta ") for x in l.split()[1:]]
a, b = theta(sys.argv[1]), theta(sys.argv[2])
sys.exit(0 if len(a) == len(b) == 6 and max(abs(x - y) for x, y in zip(a, b)) <= 1e-6 else 1)
PY
expect_status 0 "$KM" predict "$H" "$WORK/exact.model" "$WORK/exact.pred"
expect_status 0 "$KM" predict "$H" "$WORK/full.model" "$WORK/full.pred"
cmp -s "$WORK/exact.pred" "$WORK/full.pred" || fail "rank = N: predictions differ from the exact kernels'"

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
