# Low-rank kernels (spec key rank=, the Nystrom approximation) through the CLI: with as many landmarks
# as training rows the model is the exact kernel's (objectives within the certified gaps, the same
# weights and predictions), with fewer
# it trains, keeps its landmarks and projection in the model and predicts; a model whose map was cut
# short is refused with one line naming the file (exit 2); landmarks drawn by k-means++ or leverage scores
# (sampling=) are kept in the model with their sampling; kernel ridge regression on low-rank kernels
# (the Woodbury identity on their features) agrees with the dense solve of their matrices, and so do the
# alignment methods' weights from the features' statistics; rank= on a kernel without a low-rank form and
# rank=0 are refused naming the spec; features beyond -m are refused naming the -m that holds them.
. "$(dirname "$0")/lib.sh" "$@"
. "$ROOT/tests/cli/same_model.sh"

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

# the normalizations through the landmarks' space: rank = N against the exact kernels with spherical and
# multiplicative normalization and fixed weights (one SMO solve each, -e 1e-9): decision values to 1e-6
expect_status 0 "$KM" train -q -e 1e-9 --kernel 'rbf:gamma=1/mean:norm=spherical' --kernel 'poly:degree=2:norm=mult' \
    "$H" "$WORK/norm-exact.model"
expect_status 0 "$KM" train -q -e 1e-9 --kernel 'rbf:gamma=1/mean:norm=spherical:rank=270' \
    --kernel 'poly:degree=2:norm=mult:rank=270' "$H" "$WORK/norm-low.model"
expect_status 0 "$KM" predict --decision-values "$H" "$WORK/norm-exact.model" "$WORK/norm-exact.pred"
expect_status 0 "$KM" predict --decision-values "$H" "$WORK/norm-low.model" "$WORK/norm-low.pred"
"$PYTHON" - "$WORK/norm-exact.pred" "$WORK/norm-low.pred" <<'PY' ||
import sys
a = [float(l.split()[-1]) for l in open(sys.argv[1])]
b = [float(l.split()[-1]) for l in open(sys.argv[2])]
sys.exit(0 if len(a) == len(b) == 270 and max(abs(x - y) for x, y in zip(a, b)) <= 1e-6 else 1)
PY
    fail "rank = N with spherical and multiplicative normalization: decision values differ from the exact kernels'"

# rank 30: the map is in the model (30 landmarks of 13 features, a projection per kernel), prediction
# reads it, and the training accuracy stays that of a working classifier
expect_status 0 "$KM" train -q --mkl lp --p 4/3 --kernel 'rbf:gamma=2^-2..2^2/mean:rank=30' "$H" "$WORK/low.model"
# (the five widths share one draw of landmarks: written once, then "landmarks same 0")
[ "$(grep -c '^landmarks 30 13 ' "$WORK/low.model")" -eq 1 ] && [ "$(grep -c '^landmarks same 0$' "$WORK/low.model")" -eq 4 ] ||
    fail "the model does not hold one set of 30 landmarks shared by the 5 kernels"
[ "$(grep -c '^projection ' "$WORK/low.model")" -eq 5 ] || fail "the model does not hold 5 projections"
expect_status 0 "$KM" predict "$H" "$WORK/low.model" "$WORK/low.pred" &&
    "$PYTHON" -c "import sys,re; a=float(re.search(r'Accuracy = ([0-9.]+)%', open(sys.argv[1]).read()).group(1)); sys.exit(0 if a > 80 else 1)" \
        "$WORK/out" || fail "rank 30: training accuracy $(cat "$WORK/out")"
expect_status 0 "$KM" info "$WORK/low.model"
grep -q 'rank=30' "$WORK/out" || fail "info does not show the kernels' rank"

# sampling=: k-means++ landmarks depend on the features only (one set for the five widths), leverage-score
# landmarks on each kernel; both models keep their sampling, predict after reading it back, and show it
for sampling in kmeans++ leverage; do
    expect_status 0 "$KM" train -q --mkl lp --p 4/3 --kernel "rbf:gamma=2^-2..2^2/mean:rank=30:sampling=$sampling" \
        "$H" "$WORK/$sampling.model"
    [ "$(grep -c "^sampling $sampling\$" "$WORK/$sampling.model")" -eq 5 ] ||
        fail "the $sampling model does not keep its sampling for the 5 kernels"
    expect_status 0 "$KM" predict "$H" "$WORK/$sampling.model" "$WORK/$sampling.pred" &&
        "$PYTHON" -c "import sys,re; a=float(re.search(r'Accuracy = ([0-9.]+)%', open(sys.argv[1]).read()).group(1)); sys.exit(0 if a > 80 else 1)" \
            "$WORK/out" || fail "rank 30, $sampling landmarks: training accuracy $(cat "$WORK/out")"
    expect_status 0 "$KM" info "$WORK/$sampling.model"
    grep -q "rank=30:sampling=$sampling" "$WORK/out" || fail "info does not show the $sampling landmark sampling"
done
[ "$(grep -c '^landmarks same 0$' "$WORK/kmeans++.model")" -eq 4 ] ||
    fail "the five widths do not share the k-means++ landmarks"
[ "$(grep -c '^landmarks 30 13 ' "$WORK/leverage.model")" -ge 2 ] ||
    fail "the leverage-score landmarks are the same for every width"

# --landmarks N [--low-rank APPROX] make the kernels whose specs name no rank= low-rank: the same model as
# the spec keys, byte for byte; a spec's own rank= stays, and one that names sampling= takes only the rank
expect_status 0 "$KM" train -q --mkl lp --p 4/3 --landmarks 30 --low-rank kmeans++ \
    --kernel 'rbf:gamma=2^-2..2^2/mean' "$H" "$WORK/option.model"
cmp -s "$WORK/option.model" "$WORK/kmeans++.model" || fail "--landmarks 30 --low-rank kmeans++ differs from the spec keys"
expect_status 0 "$KM" train -q --landmarks 30 --low-rank icd=1e-2 --kernel 'rbf:gamma=1/mean' \
    --kernel 'linear:rank=5' --kernel 'rbf:gamma=1/mean:sampling=leverage' "$H" "$WORK/mixed.model"
expect_status 0 "$KM" info "$WORK/mixed.model"
grep -q 'rbf:gamma=[0-9.]*:rank=30:icd=0.01$' "$WORK/out" && grep -q 'linear:rank=5$' "$WORK/out" &&
    grep -q 'rbf:gamma=[0-9.]*:rank=30:sampling=leverage$' "$WORK/out" ||
    fail "--landmarks with specs that name rank= or sampling=: $(cat "$WORK/out")"
expect_status 2 "$KM" train -q --low-rank kmeans++ "$H" "$WORK/x.model" &&
    expect_one_line_error "option --low-rank: give --landmarks N too"
expect_status 2 "$KM" train -q --landmarks 30 --low-rank greedy "$H" "$WORK/x.model" &&
    expect_one_line_error "option --low-rank: unknown approximation 'greedy' \\(nystrom, kmeans\\+\\+, leverage, icd or icd=TOL\\)"

# kernel ridge regression on low-rank kernels is solved on their features by the Woodbury identity (a
# 150 x 150 system for 270 rows); the same kernels written as matrices and read back as precomputed
# kernels are solved by a 270 x 270 Cholesky factorization: the bias and the objective agree to 1e-9
expect_status 0 "$KM" train -q -s krr --kernel 'rbf:gamma=2^-2..2^2/mean:rank=30' "$H" "$WORK/krr-features.model"
expect_status 0 "$KM" kernel --kernel 'rbf:gamma=2^-2..2^2/mean:rank=30' "$H" "$WORK/K.bin"
expect_status 0 "$KM" train -q -s krr --kernel "precomputed:file=$WORK/K.1.bin" --kernel "precomputed:file=$WORK/K.2.bin" \
    --kernel "precomputed:file=$WORK/K.3.bin" --kernel "precomputed:file=$WORK/K.4.bin" \
    --kernel "precomputed:file=$WORK/K.5.bin" "$H" "$WORK/krr-matrices.model"
"$PYTHON" - "$WORK/krr-features.model" "$WORK/krr-matrices.model" <<'PY' ||
import sys
def values(path):
    lines = [l.split() for l in open(path, errors="replace")]
    return [float(next(l[1] for l in lines if l and l[0] == key)) for key in ("bias", "objective")]
a, b = values(sys.argv[1]), values(sys.argv[2])
sys.exit(0 if all(abs(x - y) <= 1e-9 * max(1.0, abs(y)) for x, y in zip(a, b)) else 1)
PY
    fail "KRR on low-rank features and on their matrices differ: $(grep -h '^bias\|^objective' "$WORK"/krr-*.model)"

# the alignment methods' statistics on low-rank kernels come from their features (never an N x N matrix):
# align (KRR) and alignf (C-SVC, spherically normalized kernels) learn the same weights, to 1e-9, as on
# the same kernels written as matrices
expect_status 0 "$KM" kernel --kernel 'rbf:gamma=2^-2..2^2/mean:rank=30:norm=spherical' "$H" "$WORK/S.bin"
for run in "align krr 'rbf:gamma=2^-2..2^2/mean:rank=30' K" "alignf svc 'rbf:gamma=2^-2..2^2/mean:rank=30:norm=spherical' S"; do
    eval "set -- $run"
    expect_status 0 "$KM" train -q -s "$2" --mkl "$1" --kernel "$3" "$H" "$WORK/$1-features.model"
    expect_status 0 "$KM" train -q -s "$2" --mkl "$1" --kernel "precomputed:file=$WORK/$4.1.bin" \
        --kernel "precomputed:file=$WORK/$4.2.bin" --kernel "precomputed:file=$WORK/$4.3.bin" \
        --kernel "precomputed:file=$WORK/$4.4.bin" --kernel "precomputed:file=$WORK/$4.5.bin" "$H" "$WORK/$1-matrices.model"
    "$PYTHON" - "$WORK/$1-features.model" "$WORK/$1-matrices.model" <<'PY' ||
import sys
def theta(path):
    return [float(v) for v in next(l.split()[1:] for l in open(path, errors="replace") if l.startswith("theta "))]
a, b = theta(sys.argv[1]), theta(sys.argv[2])
sys.exit(0 if len(a) == len(b) == 5 and max(a) > 0 and all(abs(x - y) <= 1e-9 for x, y in zip(a, b)) else 1)
PY
        fail "--mkl $1 on low-rank features and on their matrices learns other weights"
done

# empirical-Bayes MKL on low-rank kernels evaluates the evidence through the Woodbury identity on their
# features (d x d matrices, never an N x N one): the same weights, noise and evidence, to 1e-8, as on the
# same kernels written as matrices; the d x d matrices count against -m
expect_status 0 "$KM" train -q -s krr --mkl eb-mackay --learn-noise --kernel 'rbf:gamma=2^-2..2^2/mean:rank=30' \
    "$H" "$WORK/eb-features.model"
expect_status 0 "$KM" train -q -s krr --mkl eb-mackay --learn-noise --kernel "precomputed:file=$WORK/K.1.bin" \
    --kernel "precomputed:file=$WORK/K.2.bin" --kernel "precomputed:file=$WORK/K.3.bin" \
    --kernel "precomputed:file=$WORK/K.4.bin" --kernel "precomputed:file=$WORK/K.5.bin" "$H" "$WORK/eb-matrices.model"
"$PYTHON" - "$WORK/eb-features.model" "$WORK/eb-matrices.model" <<'PY' ||
import sys
def learned(path):
    lines = [l.split() for l in open(path, errors="replace")]
    theta = [float(v) for v in next(l[1:] for l in lines if l and l[0] == "theta")]
    after = lambda key: float(lines[next(i for i, l in enumerate(lines) if l and l[0] == key) + 1][0])
    return theta + [after("neg_log_evidence_1"), after("noise_1")]
a, b = learned(sys.argv[1]), learned(sys.argv[2])
sys.exit(0 if len(a) == len(b) == 7 and max(a[:5]) > 0 and
         all(abs(x - y) <= 1e-8 * max(1.0, abs(y)) for x, y in zip(a, b)) else 1)
PY
    fail "--mkl eb-mackay on low-rank features and on their matrices differ: $(grep -h -A1 '^theta\|^neg_log\|^noise_1' "$WORK"/eb-*.model)"
expect_status 2 "$KM" train -q -s krr --mkl eb-rw --kernel 'rbf:gamma=2^-2..2^2/mean:rank=50' -m 2 "$H" "$WORK/eb.model" &&
    expect_one_line_error "empirical-Bayes MKL on low-rank kernels of 250 feature dimensions keeps three 250 x 250 matrices \\(4 MiB\\)"
[ -e "$WORK/eb.model" ] && fail "a refused empirical-Bayes training wrote its model"

# hostile maps, sealed with a correct checksum so that they reach the model's reader: one line naming
# the model file, exit 2, no predictions written
seal() {   # seal IN OUT SED-EXPRESSION: the edited model with its checksum recomputed
    "$PYTHON" - "$1" "$2" "$3" <<'PY'
import re, sys, zlib
data = open(sys.argv[1], "rb").read()
body = data[:data.rindex(b"checksum crc32 ")].decode()
pattern, replacement = sys.argv[3].split("/")[1:3]
lines = body.split("\n")
at = next(i for i, l in enumerate(lines) if re.match(pattern, l))
lines[at] = re.sub(pattern, replacement, lines[at]) if replacement != "CUT" else " ".join(lines[at].split()[:-7])
body = "\n".join(lines).encode()
open(sys.argv[2], "wb").write(body + b"checksum crc32 %08x\n" % zlib.crc32(body))
PY
}
seal "$WORK/low.model" "$WORK/cut.model" 's/^projection .*/CUT/'
seal "$WORK/low.model" "$WORK/same.model" 's/^landmarks same 0$/landmarks same 3/'
seal "$WORK/low.model" "$WORK/dim.model" 's/^landmarks 30 13 /landmarks 30 12 /'
seal "$WORK/low.model" "$WORK/type.model" 's/^type rbf$/type chi2/'   # a type without a low-rank form
seal "$WORK/leverage.model" "$WORK/sampling.model" 's/^sampling leverage$/sampling kmeans/'
for broken in cut same dim type sampling; do
    expect_status 2 "$KM" predict "$H" "$WORK/$broken.model" "$WORK/$broken.pred" &&
        expect_one_line_error "$broken\.model"
    [ -e "$WORK/$broken.pred" ] && fail "a prediction file was written from the broken model $broken"
    grep -q checksum "$WORK/err" && fail "the broken model $broken did not reach the reader: $(cat "$WORK/err")"
done

# the fitted values count against -m: 5 kernels of rank 200 on 270 rows of 13 features (features,
# landmarks, projection and the landmarks' kernel matrix: 200 x (270 + 13 + 2 x 200) doubles each, 5 MiB;
# 4 MiB with the features as float) with -m 1 are refused with one line saying what -m would hold them,
# and no model is written; -m 5 holds them with the features as float, -m 7 as double (--cache-double
# insists on double)
expect_status 2 "$KM" train -q -m 1 --kernel 'rbf:gamma=2^-2..2^2/mean:rank=200' "$H" "$WORK/m.model" &&
    expect_one_line_error "features of 5 low-rank kernels on 270 training rows take 4 MiB as float.*-m 1\).*-m 6 would hold them"
[ -e "$WORK/m.model" ] && fail "a model was written although the features do not fit in -m"
expect_status 2 "$KM" train -q -m 5 --cache-double --kernel 'rbf:gamma=2^-2..2^2/mean:rank=200' "$H" "$WORK/m.model" &&
    expect_one_line_error "take 5 MiB as double values, which this run asks for, more than the kernel cache holds \(-m 5\): -m 7 would hold them"
expect_status 0 "$KM" train -m 5 --verbose --kernel 'rbf:gamma=2^-2..2^2/mean:rank=200' "$H" "$WORK/float.model"
grep -q "features are held as float" "$WORK/err" || fail "-m 5: the features are not held as float"
expect_status 0 "$KM" train -m 7 --verbose --kernel 'rbf:gamma=2^-2..2^2/mean:rank=200' "$H" "$WORK/double.model"
grep -q "held as float" "$WORK/err" && fail "-m 7: the features are held as float although they fit as double"

# features as float (--cache-float) change a solve in the last digits: C-SVC without bias by coordinate
# descent, C-SVC with bias by SMO on the kernel values, KRR by Woodbury, lp-norm MKL by the wrapper reach
# the objective of double features to 1e-6 relative, and the same decision values to 1e-5
for run in "--no-bias -e 1e-6" "-e 1e-6" "-s krr" "--mkl lp --p 4/3 --no-bias -e 1e-6 --mkl-gap 1e-6"; do
    for values in double float; do
        expect_status 0 "$KM" train -q $run --cache-$values --kernel 'rbf:gamma=2^-2..2^2/mean:rank=60' "$H" \
            "$WORK/$values.model"
        expect_status 0 "$KM" predict -q --decision-values "$H" "$WORK/$values.model" "$WORK/$values.out"
    done
    same_model "$WORK/double.model" "$WORK/float.model" 1e-6 objective ||
        fail "$run: the objective with float features differs from double's by more than 1e-6"
    same_numbers "$WORK/double.out" "$WORK/float.out" 1e-5 ||
        fail "$run: the labels or decision values with float features differ from double's"
done

# kernel matrices of low-rank kernels (km_kernel_set_fit, km_kernel_matrix): ten widths of rank 270 hold
# 18 MB while fitted, more than fitting's own cache, and at rank = N the matrix is the exact kernel's
# (the ten fits are minutes under valgrind, which runs the same code on the one-kernel matrices below)
if [ -z "${KM_UNDER_VALGRIND:-}" ]; then
    expect_status 0 "$KM" kernel --list --kernel 'rbf:gamma=2^-5..2^4/mean:rank=270' "$H"
    [ "$(wc -l <"$WORK/out")" -eq 10 ] || fail "kernel --list of ten low-rank kernels: $(cat "$WORK/out")"
fi
expect_status 0 "$KM" kernel --text --kernel 'rbf:gamma=1/mean' "$H" "$WORK/exact.txt"
expect_status 0 "$KM" kernel --text --kernel 'rbf:gamma=1/mean:rank=270' "$H" "$WORK/low.txt"
"$PYTHON" - "$WORK/exact.txt" "$WORK/low.txt" <<'PY' || fail "kernel matrix at rank = N differs from the exact kernel's"
import sys
def matrix(path):   # LIBSVM precomputed rows: label 0:i 1:K(i,1) ...
    return [[float(item.split(":")[1]) for item in line.split()[2:]] for line in open(path) if line.strip()]
a, b = matrix(sys.argv[1]), matrix(sys.argv[2])
ok = len(a) == len(b) == 270 and all(len(r) == 270 for r in a + b)
sys.exit(0 if ok and max(abs(x - y) for ra, rb in zip(a, b) for x, y in zip(ra, rb)) <= 1e-7 else 1)
PY
expect_status 0 "$KM" kernel --help
grep -q "rank (linear, poly, rbf, sigmoid" "$WORK/out" || fail "kernel --help does not show the rank key"
grep -q "sampling (with rank: uniform, kmeans++ or leverage" "$WORK/out" || fail "kernel --help does not show the sampling key"

# specs refused with the spec named
expect_status 2 "$KM" train -q --kernel 'chi2:rank=10' "$H" "$WORK/x.model" &&
    expect_one_line_error "chi2:rank=10.*not valid for chi2"
expect_status 2 "$KM" train -q --kernel 'rbf:rank=0' "$H" "$WORK/x.model" &&
    expect_one_line_error "rank must be a positive integer"
expect_status 2 "$KM" train -q --kernel 'rbf:rank=10:sampling=greedy' "$H" "$WORK/x.model" &&
    expect_one_line_error "rbf:rank=10:sampling=greedy.*unknown landmark sampling 'greedy' \\(uniform, kmeans\\+\\+ or leverage\\)"
[ -e "$WORK/x.model" ] && fail "a model was written from a refused spec"

finish
