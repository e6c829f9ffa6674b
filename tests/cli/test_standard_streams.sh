# '-' is standard input or standard output for every subcommand, as for Unix tools: what a command
# reads from standard input (a pipe, so binary files are read without seeking the pipe) or writes to
# standard output is what it reads from or writes to a file; figures and summaries then go to
# standard error; standard output receives nothing when a command fails; standard input given for two
# inputs is refused; no file named '-' is ever created. Every --help names '-'.
. "$(dirname "$0")/lib.sh" "$@"

W=$WORK
cd "$W" || exit 1
head -n 60 "$DATA/heart_scale" >train
sed -n '61,90p' "$DATA/heart_scale" >test
printf 'rbf\nlinear\n' >specs
expect_status 0 "$KM" train -q train model || exit 1
expect_status 0 "$KM" predict -q test model expected.pred
expect_status 0 "$KM" kernel --kernel rbf train K.bin
expect_status 0 "$KM" kernel --kernel rbf --test test train Kt.bin
expect_status 0 "$KM" train -q --kernel "precomputed:file=$W/K.bin" train pre.model
expect_status 0 "$KM" predict -q --test-kernel Kt.bin test pre.model expected_pre.pred

# run_piped INPUT_FILE COMMAND...: COMMAND with INPUT_FILE piped to its standard input, stdout to
# $W/out, stderr to $W/err; the exit status
run_piped() {
    input=$1
    shift
    cat "$input" | "$KM" "$@" >"$W/out" 2>"$W/err"
}

# inputs from standard input
run_piped train train -q - stdin.model || fail "train - : $(cat err)"
expect_status 0 "$KM" predict -q test stdin.model p && { cmp -s p expected.pred || fail "train -: another model"; }
run_piped test predict -q - model p || fail "predict - : $(cat err)"
cmp -s p expected.pred || fail "predict with the test rows from standard input: other predictions"
run_piped model predict -q test - p || fail "predict TEST - : $(cat err)"
cmp -s p expected.pred || fail "predict with the model from standard input: other predictions"
run_piped Kt.bin predict -q --test-kernel - test pre.model p || fail "predict --test-kernel - : $(cat err)"
cmp -s p expected_pre.pred || fail "a test kernel from standard input: other predictions"
run_piped train kernel --kernel rbf - K2.bin || fail "kernel - : $(cat err)"
cmp -s K2.bin K.bin || fail "kernel with the rows from standard input: another matrix"
run_piped specs kernel --kernels - --list >/dev/null || fail "kernel --kernels - : $(cat err)"
{ [ "$(wc -l <out)" -eq 2 ] && grep -q '^rbf' out && grep -q '^linear' out; } || fail "kernel --kernels - --list: $(cat out)"
expect_status 0 "$KM" info model && cp out info.expected
run_piped model info - || fail "info - : $(cat err)"
cmp -s out info.expected || fail "info of a model from standard input differs"
expect_status 0 "$KM" scale train scaled.expected
run_piped train scale - scaled || fail "scale - : $(cat err)"
cmp -s scaled scaled.expected || fail "scale of standard input differs"
expect_status 0 "$KM" scale -s ranges train scaled.expected
expect_status 0 "$KM" scale -r ranges test test_scaled.expected
run_piped ranges scale -r - test test_scaled || fail "scale -r - : $(cat err)"
cmp -s test_scaled test_scaled.expected || fail "scale with the ranges from standard input differs"
printf 'x\n-1 1\n1 0 x\n' | "$KM" scale -r - test >out 2>err
[ $? -eq 2 ] && grep -q "^kernelmix scale: standard input:3: expected 'INDEX MIN MAX'" err || fail "a bad range file on standard input: $(cat err)"
expect_status 0 "$KM" cluster --kernel rbf --clusters 2 train clusters.expected
run_piped train cluster --kernel rbf --clusters 2 - clusters || fail "cluster - : $(cat err)"
cmp -s clusters clusters.expected || fail "cluster of standard input differs"
expect_status 0 "$KM" bound rademacher train --kernel rbf && cp out bound.expected
run_piped train bound rademacher - --kernel rbf || fail "bound - : $(cat err)"
cmp -s out bound.expected || fail "bound on standard input differs"

# outputs to standard output: the file's bytes; figures and summaries on standard error
expect_status 0 "$KM" predict test model - && cmp -s out expected.pred || fail "predict to '-': other output"
grep -q '^Accuracy = ' err || fail "predict to '-': no accuracy on standard error"
expect_status 0 "$KM" train train - && { cmp -s out model || fail "train to '-': another model"; }
grep -q 'model written to standard output' err || fail "train to '-': no summary on standard error"
expect_status 0 "$KM" kernel --kernel rbf train - && { cmp -s out K.bin || fail "kernel to '-': another matrix"; }
expect_status 0 "$KM" scale train - && { cmp -s out scaled.expected || fail "scale to '-' differs"; }
expect_status 0 "$KM" scale -s - train scaled2 && grep -q '^x$' out || fail "scale -s - : no range file on standard output"
expect_status 0 "$KM" cluster --kernel rbf --clusters 2 train - && { cmp -s out clusters.expected || fail "cluster to '-' differs"; }
# both ends
run_piped test predict -q - model - || fail "predict - MODEL - : $(cat err)"
cmp -s out expected.pred || fail "predict from and to the standard streams: other predictions"

# refusals: one line, exit 2, nothing on standard output
expect_status 2 "$KM" predict - - p && expect_one_line_error "standard input \('-'\) is given for two inputs"
expect_status 2 "$KM" kernel --kernels - --kernel rbf - K3.bin && expect_one_line_error "standard input \('-'\) is given for two inputs"
expect_status 2 "$KM" train --kernels - - m3 && expect_one_line_error "standard input \('-'\) is given for two inputs"
expect_status 2 "$KM" train -q - </dev/null && expect_one_line_error "TRAIN_FILE is standard input \('-'\): give MODEL_FILE"
expect_status 2 "$KM" kernel --kernel rbf:gamma=1,2 train - && expect_one_line_error "2 kernel matrices cannot all go to standard output"
[ -s out ] && fail "a refused kernel wrote to standard output"
# a failure after some rows were predicted writes nothing to standard output (the last test row's
# features overflow the polynomial kernel)
printf '1 1:1\n-1 1:2\n1 1:3\n' >small
expect_status 0 "$KM" train -q -t 1 -d 5 -g 1 -r 0 small poly.model
printf '1 1:1\n-1 1:2\n1 1:1e100\n' >hostile
expect_status 2 "$KM" predict hostile poly.model - && expect_one_line_error "hostile: row 3: decision value .* is not finite"
[ -s out ] && fail "a failed prediction wrote '$(head -c 100 out)' to standard output"
expect_status 2 "$KM" predict -q --test-kernel - test pre.model - </dev/null &&
    expect_one_line_error "standard input"
[ -s out ] && fail "a failed prediction wrote to standard output"

# no file named '-' appeared
[ -e "$W/-" ] && fail "a file named '-' was created"

# every --help says what '-' means
for cmd in train predict kernel scale cluster info bound plot; do
    "$KM" "$cmd" --help | grep -q "'-'" || fail "kernelmix $cmd --help does not mention '-'"
done
finish
