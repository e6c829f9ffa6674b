# 'kernelmix kernel': spec expansion, fitted values, and kernel matrices that train the same model
# as on-the-fly evaluation.
. "$(dirname "$0")/lib.sh" "$@"

head -n 120 "$DATA/heart_scale" >"$WORK/train"
tail -n 50 "$DATA/heart_scale" >"$WORK/test"

# expansion: a power grid, a list, and features=each with the data's 13 features
expect_status 0 "$KM" kernel --list --kernel 'rbf:gamma=2^-5..2^4' &&
    { [ "$(wc -l <"$WORK/out")" -eq 10 ] || fail "rbf grid: expected 10 kernels, got $(wc -l <"$WORK/out")"; }
expect_status 0 "$KM" kernel --list --kernel 'poly:degree=1,2,3' --kernel linear &&
    { [ "$(wc -l <"$WORK/out")" -eq 4 ] || fail "poly list + linear: expected 4 kernels"; }
expect_status 0 "$KM" kernel --list --kernel 'linear:features=each' "$WORK/train" &&
    { [ "$(wc -l <"$WORK/out")" -eq 13 ] || fail "features=each on 13 features: got $(wc -l <"$WORK/out")"; }
printf 'rbf:gamma=0.5\n# a comment\n\npoly:degree=2\n' >"$WORK/specs"
expect_status 0 "$KM" kernel --list --kernels "$WORK/specs" &&
    { [ "$(wc -l <"$WORK/out")" -eq 2 ] || fail "--kernels file: expected 2 kernels"; }
# fitted: gamma=auto resolves to 1/mean squared distance, a number
expect_status 0 "$KM" kernel --list --kernel 'rbf' "$WORK/train" &&
    { grep -Eq 'gamma=[0-9.e+-]+' "$WORK/out" || fail "fitted rbf shows no numeric gamma: $(cat "$WORK/out")"; }

# binary matrices: header (32 bytes) + n*n doubles; float32 halves the payload
if expect_status 0 "$KM" kernel --kernel 'rbf:gamma=0.5' --kernel linear "$WORK/train" "$WORK/K.bin"; then
    for m in 1 2; do
        [ "$(wc -c <"$WORK/K.$m.bin")" -eq $((32 + 8 * 120 * 120)) ] || fail "K.$m.bin has the wrong size"
    done
fi
# -v: one timing line per matrix on stdout, the matrices as without it
if expect_status 0 "$KM" kernel -v --kernel 'rbf:gamma=0.5' --kernel linear "$WORK/train" "$WORK/Kv.bin"; then
    grep -Eq '^kernel 1: 120 x 120 matrix computed in [0-9]+\.[0-9]{6} s$' "$WORK/out" &&
        grep -Eq '^kernel 2: 120 x 120 matrix computed in [0-9]+\.[0-9]{6} s$' "$WORK/out" &&
        [ "$(wc -l <"$WORK/out")" -eq 2 ] || fail "kernel -v: expected two timing lines, got: $(cat "$WORK/out")"
    cmp -s "$WORK/Kv.1.bin" "$WORK/K.1.bin" && cmp -s "$WORK/Kv.2.bin" "$WORK/K.2.bin" ||
        fail "kernel -v wrote other matrices"
fi
expect_status 0 "$KM" kernel --float32 --kernel 'rbf:gamma=0.5' "$WORK/train" "$WORK/K32.bin" &&
    { [ "$(wc -c <"$WORK/K32.bin")" -eq $((32 + 4 * 120 * 120)) ] || fail "float32 matrix size"; }

# training on precomputed matrix files predicts what on-the-fly kernels predict
expect_status 0 "$KM" kernel --kernel 'rbf:gamma=0.5' --kernel linear --test "$WORK/test" "$WORK/train" "$WORK/Kt.bin"
if expect_status 0 "$KM" train -q -e 1e-8 --kernel "precomputed:file=$WORK/K.1.bin" --kernel "precomputed:file=$WORK/K.2.bin" \
        "$WORK/train" "$WORK/pre.model" &&
    expect_status 0 "$KM" predict -q --decision-values --test-kernel "$WORK/Kt.1.bin" --test-kernel "$WORK/Kt.2.bin" \
        "$WORK/test" "$WORK/pre.model" "$WORK/pre.pred" &&
    expect_status 0 "$KM" train -q -e 1e-8 --kernel 'rbf:gamma=0.5' --kernel linear "$WORK/train" "$WORK/fly.model" &&
    expect_status 0 "$KM" predict -q --decision-values "$WORK/test" "$WORK/fly.model" "$WORK/fly.pred"; then
    paste -d' ' "$WORK/pre.pred" "$WORK/fly.pred" |
        awk '$1 != $3 || ($2 - $4) > 1e-6 || ($4 - $2) > 1e-6 { bad++ } END { exit bad ? 1 : 0 }' ||
        fail "precomputed-file and on-the-fly models disagree"
fi
# a model trained on matrix files needs its test kernels
expect_status 2 "$KM" predict "$WORK/test" "$WORK/pre.model" "$WORK/x.pred" && expect_one_line_error "test-kernel"
[ -e "$WORK/x.pred" ] && fail "predictions written without test kernels"
finish
