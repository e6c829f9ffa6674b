# Bad input: exit status 2, one line on stderr naming the file (and line) and the problem, and no
# output file left behind.
. "$(dirname "$0")/lib.sh" "$@"

head -n 40 "$DATA/heart_scale" >"$WORK/good"

# bad_train NAME CONTENT PATTERN: training on a file with CONTENT fails as described.
bad_train() {
    printf "$2" >"$WORK/$1"
    if expect_status 2 "$KM" train "$WORK/$1" "$WORK/$1.model"; then
        expect_one_line_error "$1$3"
    fi
    [ -e "$WORK/$1.model" ] && fail "$1: a model file was written"
    ls -A "$WORK" | grep -q "^\.kernelmix-" && fail "$1: a temporary model file was left"
}

bad_train empty "" ".*(empty|no data)"
bad_train ragged_index "1 1:0.5 3:1\n-1 2:0.3 2:0.1\n" ":2:.*(index|ascending|greater)"
bad_train descending "1 3:0.5 1:1\n" ":1:.*(index|ascending|greater)"
bad_train index_zero "1 0:0.5 1:1\n" ":1:.*index"
bad_train index_negative "1 -3:0.5\n" ":1:.*index"
bad_train nan_value "1 1:nan\n-1 1:1\n" ":1:.*(NaN|finite|number)"
bad_train inf_label "inf 1:1\n-1 1:1\n" ":1:.*(label|finite|Inf)"
bad_train text_label "yes 1:1\n-1 1:1\n" ":1:.*label"
bad_train missing_label "1:0.5 2:1\n" ":1:.*label"
bad_train garbage "\001\002\377\376 xx\n" ":1:"
bad_train single_class "1 1:0.5\n1 1:0.7\n" ".*(class|label)"

expect_status 2 "$KM" train "$WORK/does-not-exist" "$WORK/x.model" && expect_one_line_error "does-not-exist.*(open|No such)"

# option values out of range
for opt in "-c 0" "-c -1" "-n 0" "-n 1.5" "-p -0.1" "-m 0" "-e 0" "-s 7" "-t 9" "-h 2"; do
    expect_status 2 "$KM" train $opt "$WORK/good" "$WORK/opt.model" && expect_one_line_error "option"
done
[ -e "$WORK/opt.model" ] && fail "a model was written despite a bad option"

# kernel specs
for spec in "gaussian" "rbf:gamma=-1" "rbf:gamma=2^4..2^1" "poly:width=3" "linear:features=5-2"; do
    expect_status 2 "$KM" train --kernel "$spec" "$WORK/good" "$WORK/spec.model" && expect_one_line_error "."
done
[ -e "$WORK/spec.model" ] && fail "a model was written despite a bad kernel spec"

# models: corrupt, truncated, not a model
expect_status 0 "$KM" train -q "$WORK/good" "$WORK/good.model"
head -c 100 "$WORK/good.model" >"$WORK/truncated.model"
expect_status 2 "$KM" predict "$WORK/good" "$WORK/truncated.model" "$WORK/pred" && expect_one_line_error "truncated.model"
[ -e "$WORK/pred" ] && fail "predictions were written with a truncated model"
sed 's/^\(.*\)1/\10/' "$WORK/good.model" | head -c "$(wc -c <"$WORK/good.model")" >"$WORK/flipped.model"
cmp -s "$WORK/flipped.model" "$WORK/good.model" && fail "flipping did not change the model"
expect_status 2 "$KM" info "$WORK/flipped.model" && expect_one_line_error "flipped.model"
expect_status 2 "$KM" info "$WORK/good" && expect_one_line_error "good"

# unwritable outputs
expect_status 2 "$KM" train -q "$WORK/good" "$WORK/no/such/dir/m.model" && expect_one_line_error "no/such/dir"
expect_status 2 "$KM" predict "$WORK/good" "$WORK/good.model" "$WORK/no/such/dir/pred" && expect_one_line_error "no/such/dir"

# predictions are not written when the test file is bad
printf "1 1:0.5\n1 x:1\n" >"$WORK/badtest"
expect_status 2 "$KM" predict "$WORK/badtest" "$WORK/good.model" "$WORK/pred2" && expect_one_line_error "badtest:2:"
[ -e "$WORK/pred2" ] && fail "predictions written for a bad test file"
finish
