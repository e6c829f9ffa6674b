# Every subcommand documents itself; bad usage exits 2 with one line.
. "$(dirname "$0")/lib.sh" "$@"

expect_status 0 "$KM" --help && { grep -q "^usage: kernelmix COMMAND" "$WORK/out" || fail "main help"; }
expect_status 0 "$KM" --version && { grep -Eq "^kernelmix [0-9]+\.[0-9]+\.[0-9]+$" "$WORK/out" || fail "version"; }
for cmd in train cv predict info kernel; do
    expect_status 0 "$KM" $cmd --help && { grep -q "^usage: kernelmix $cmd" "$WORK/out" || fail "$cmd --help"; }
    expect_status 2 "$KM" $cmd --no-such-option x && expect_one_line_error "unknown option --no-such-option"
done
expect_status 2 "$KM" frobnicate && expect_one_line_error "unknown command 'frobnicate'"
expect_status 2 "$KM"
expect_status 2 "$KM" train && expect_one_line_error "missing TRAIN_FILE"
expect_status 2 "$KM" predict a b && expect_one_line_error "expected TEST_FILE MODEL_FILE OUTPUT_FILE"
expect_status 2 "$KM" train -c && expect_one_line_error "option -c needs a value"
# the help is the parameter table's: grouped by method, one method's options with --mkl METHOD
expect_status 0 "$KM" train --help && { grep -q "^  clmkl  " "$WORK/out" && grep -q "^  --ae A  " "$WORK/out" &&
    grep -q "^  --mkl-gap GAP  " "$WORK/out" && grep -q "also --mkl-eps" "$WORK/out" || fail "train --help: methods or options missing"; }
expect_status 0 "$KM" train --help --mkl clmkl &&
    { grep -q "^  --ae A" "$WORK/out" && grep -q "^  --kmeans-restarts R" "$WORK/out" && ! grep -q "^  --epochs" "$WORK/out" &&
      ! grep -q "^  --lambda" "$WORK/out" || fail "train --help --mkl clmkl: not just clmkl's options"; }
# where the defaults differ from svm-train, the help and the README say so (-g for the RBF kernel)
expect_status 0 "$KM" train --help &&
    { grep -q "differs from svm-train's 1/features" "$WORK/out" || fail "train --help: the -g default is not explained"; }
grep -q "where \`svm-train\` uses" "$ROOT/README.md" && grep -q "1/(number of features)" "$ROOT/README.md" ||
    fail "README: the -g default is not compared with svm-train's"
finish
