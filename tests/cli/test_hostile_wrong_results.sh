# Silently wrong results: input that used to give an answer (or an accuracy with exit status 0) where
# no right answer exists, or a right-looking answer to another question. Each case must now fail with
# exit status 2 and one line naming the cause, warn, or give the answer of the question asked.
. "$(dirname "$0")/lib.sh" "$@"

# train_fails / predict_fails PATTERN ARGS...: exit status 2, one line matching PATTERN, no output
train_fails() {
    pattern=$1
    shift
    rm -f "$WORK/fail.model"
    if expect_status 2 "$KM" train "$@" "$WORK/fail.model"; then
        expect_one_line_error "$pattern"
    fi
    [ -e "$WORK/fail.model" ] && fail "a model was written: $*"
}
cv_fails() {
    pattern=$1
    shift
    if expect_status 2 "$KM" train -v 3 "$@"; then
        expect_one_line_error "$pattern"
    fi
    grep -q "Cross Validation" "$WORK/out" && fail "cross-validation printed a result: $*"
}
predict_fails() {
    pattern=$1
    shift
    rm -f "$WORK/fail.out"
    if expect_status 2 "$KM" predict "$@" "$WORK/fail.out"; then
        expect_one_line_error "$pattern"
    fi
    [ -e "$WORK/fail.out" ] && fail "predictions were written: $*"
}

"$PYTHON" - "$WORK" <<'EOF'
import sys
import numpy as np
work = sys.argv[1]
rng = np.random.default_rng(3)
X = rng.normal(size=(60, 4))
y = np.where(X[:, 0] + X[:, 1] > 0, 1, 2)
fmt = '%.6g'
np.savetxt(f'{work}/last.csv', np.c_[X, y], delimiter=',', fmt=fmt)
np.savetxt(f'{work}/first.csv', np.c_[y, X], delimiter=',', fmt=fmt)
np.savetxt(f'{work}/semicolon.csv', np.c_[X, y], delimiter=';', fmt=fmt)
np.savetxt(f'{work}/tab.csv', np.c_[X, y], delimiter='\t', fmt=fmt)
np.savetxt(f'{work}/spaces.csv', np.c_[X, y], delimiter='   ', fmt=fmt)
np.savetxt(f'{work}/pipe.csv', np.c_[X, y], delimiter='|', fmt=fmt)
np.savetxt(f'{work}/unlabelled.csv', X, delimiter=',', fmt=fmt)
np.savetxt(f'{work}/three.csv', np.c_[X[:, :3], y], delimiter=',', fmt=fmt)
np.savetxt(f'{work}/five.csv', np.c_[X, X[:, :1], y], delimiter=',', fmt=fmt)
def libsvm(path, rows, labels, extra=''):
    with open(path, 'w') as f:
        for x, label in zip(rows, labels):
            f.write(f'{label:g} ' + ' '.join(f'{j + 1}:{v:.6g}' for j, v in enumerate(x)) + extra + '\n')
libsvm(f'{work}/train', X, y)
libsvm(f'{work}/unseen', X, y, ' 100000000:5')
libsvm(f'{work}/index5', X, y, ' 5:1')
libsvm(f'{work}/huge', X * 1e300, y)
libsvm(f'{work}/huge_targets', X, y * 1e300)
libsvm(f'{work}/one_positive', X[y == 2], y[y == 2])
with open(f'{work}/one_positive', 'a') as f:
    f.write('1 1:0.5 2:0.5\n')
EOF

# --- CSV: the feature count and the layout of the training rows are the model's ---
expect_status 0 "$KM" train -q "$WORK/last.csv" "$WORK/last.model"
predict_fails "three.csv: 3 features per row, but the model was trained on 4" "$WORK/three.csv" "$WORK/last.model"
predict_fails "five.csv: 5 features per row, but the model was trained on 4" "$WORK/five.csv" "$WORK/last.model"
# a file without the label column: refused unless it says so, then one prediction per row
predict_fails "unlabelled.csv: 3 features per row, .*without a label column" "$WORK/unlabelled.csv" "$WORK/last.model"
expect_status 0 "$KM" predict --label-column 0 "$WORK/unlabelled.csv" "$WORK/last.model" "$WORK/unlabelled.out"
[ "$(wc -l <"$WORK/unlabelled.out")" -eq 60 ] || fail "unlabelled CSV: expected 60 predictions"
expect_status 0 "$KM" predict "$WORK/last.csv" "$WORK/last.model" "$WORK/last.out"
cmp -s "$WORK/unlabelled.out" "$WORK/last.out" || fail "unlabelled CSV rows predicted differently from labelled ones"
# LIBSVM rows for a model trained on CSV rows: fewer trailing features are zeros, more are refused
predict_fails "index5: feature index 5 is beyond the 4 features the model was trained on" "$WORK/index5" "$WORK/last.model"
expect_status 0 "$KM" predict -q "$WORK/train" "$WORK/last.model" "$WORK/libsvm.out"
cmp -s "$WORK/libsvm.out" "$WORK/last.out" || fail "LIBSVM rows of a CSV model predicted differently"

# --- a label-first CSV: refused without --label-column, the model's label column at prediction ---
train_fails "first.csv: the labels \(field 5 of 5\) take 60 distinct values on 60 rows, 60 of them not integers: too many classes to learn, they look like a feature; give the label's column with --label-column K" "$WORK/first.csv"
cv_fails "first.csv: the labels \(field 5 of 5\) take 60 distinct values" "$WORK/first.csv"
expect_status 0 "$KM" train -q --label-column 1 "$WORK/first.csv" "$WORK/first.model"
[ -s "$WORK/err" ] && fail "label-first CSV with --label-column 1 warned: $(cat "$WORK/err")"
# the last column chosen explicitly: trained, with the warning (once under cross-validation)
expect_status 0 "$KM" train --label-column -1 "$WORK/first.csv" "$WORK/wrong.model"
grep -q "warning: .*first.csv: the labels (field 5 of 5) take 60 distinct values on 60 rows, 60 of them not integers: too many classes to learn, they look like a feature (is the label in another column of the CSV file?)" "$WORK/err" ||
    fail "label-first CSV read with --label-column -1: no warning ($(cat "$WORK/err"))"
expect_status 0 "$KM" train -v 3 --label-column -1 "$WORK/first.csv"
[ "$(grep -c "look like a feature" "$WORK/err")" -eq 1 ] || fail "cross-validation warned other than once"
expect_status 0 "$KM" train -q -v 3 --label-column -1 "$WORK/first.csv"
[ -s "$WORK/err" ] && fail "train -q printed a warning: $(cat "$WORK/err")"
expect_status 0 "$KM" predict "$WORK/first.csv" "$WORK/first.model" "$WORK/first.out"
grep -q "^Accuracy = " "$WORK/out" || fail "predict with the model's label column printed no accuracy"
cmp -s "$WORK/first.out" "$WORK/last.out" || fail "label-first CSV model predicts differently from label-last"
predict_fails "first.csv: the label is read from field 5 of 5, but the model was trained with the label in field 1" \
    --label-column -1 "$WORK/first.csv" "$WORK/first.model"

# --- delimiters: detected as the user guide says, or given ---
for name in semicolon tab spaces; do
    expect_status 0 "$KM" train -q "$WORK/$name.csv" "$WORK/$name.model"
    expect_status 0 "$KM" predict -q "$WORK/$name.csv" "$WORK/last.model" "$WORK/$name.out"
    cmp -s "$WORK/$name.out" "$WORK/last.out" || fail "$name-delimited CSV read differently from commas"
done
expect_status 0 "$KM" train -q --delimiter '|' "$WORK/pipe.csv" "$WORK/pipe.model"
expect_status 0 "$KM" predict -q --delimiter '|' "$WORK/pipe.csv" "$WORK/pipe.model" "$WORK/pipe.out"
cmp -s "$WORK/pipe.out" "$WORK/last.out" || fail "--delimiter '|' read differently from commas"
expect_status 0 "$KM" predict -q --delimiter tab "$WORK/tab.csv" "$WORK/last.model" "$WORK/tab2.out"
cmp -s "$WORK/tab2.out" "$WORK/last.out" || fail "--delimiter tab read differently from commas"
train_fails "option --delimiter: ';;' is not one character" --delimiter ';;' "$WORK/semicolon.csv"
train_fails "semicolon.csv:1: no feature columns besides the label" --delimiter , "$WORK/semicolon.csv"

# --- LIBSVM rows: features the model never saw are ignored, without memory for them ---
expect_status 0 "$KM" train -q "$WORK/train" "$WORK/sparse.model"
expect_status 0 "$KM" predict -q "$WORK/train" "$WORK/sparse.model" "$WORK/sparse.out"
# (a dense work vector up to index 10^8 would take 800 MB; one BLAS thread, whose buffers fit the limit;
# sanitizer builds reserve terabytes of shadow address space and cannot start under the limit: there
# the predictions are checked without it)
under_limit() {
    (ulimit -v 700000 && OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 exec timeout -s KILL 60 "$@")
}
limit=under_limit
under_limit "$KM" predict -q "$WORK/train" "$WORK/sparse.model" "$WORK/probe.out" 2>/dev/null || limit=
$limit "$KM" predict -q "$WORK/unseen" "$WORK/sparse.model" "$WORK/unseen.out" 2>"$WORK/err" ||
    fail "index 10^8 unseen in training: $(cat "$WORK/err")"
cmp -s "$WORK/unseen.out" "$WORK/sparse.out" || fail "a feature the model never saw changed the predictions"
# dense rows for a model trained on sparse rows: at least the model's features
predict_fails "three.csv: 3 features per row, but the model was trained on 4" "$WORK/three.csv" "$WORK/sparse.model"

# --- --norm reaches the kernels of --kernels FILE; specs keep their command-line order ---
printf 'rbf:gamma=0.5\n' >"$WORK/rbf.specs"
printf 'linear\n' >"$WORK/linear.specs"
expect_status 0 "$KM" train --kernels "$WORK/rbf.specs" --norm spherical "$WORK/train" "$WORK/n1.model"
grep -q "kernel 1: rbf:gamma=0.5:norm=spherical$" "$WORK/out" || fail "--norm not applied to --kernels: $(cat "$WORK/out")"
printf 'rbf:gamma=0.5:norm=none\n' >"$WORK/rbf_none.specs"
expect_status 0 "$KM" train --kernels "$WORK/rbf_none.specs" --norm spherical "$WORK/train" "$WORK/n2.model"
grep -q "kernel 1: rbf:gamma=0.5$" "$WORK/out" || fail "--norm overrode a spec's norm=none: $(cat "$WORK/out")"
expect_status 0 "$KM" train --kernels "$WORK/linear.specs" --kernel rbf:gamma=0.5 --weights 1,0 "$WORK/train" "$WORK/o1.model"
grep -q "kernel 1: linear$" "$WORK/out" && grep -q "kernel 2: rbf:gamma=0.5$" "$WORK/out" ||
    fail "--kernels then --kernel: not in command-line order: $(cat "$WORK/out")"
expect_status 0 "$KM" train --kernel linear --kernel rbf:gamma=0.5 --weights 1,0 "$WORK/train" "$WORK/o2.model"
cmp -s "$WORK/o1.model" "$WORK/o2.model" || fail "--weights 1,0 landed on another kernel than with --kernel linear first"
expect_status 0 "$KM" kernel --list --kernels "$WORK/linear.specs" --kernel rbf:gamma=0.5
[ "$(head -n 1 "$WORK/out")" = "linear" ] || fail "kernel --list: not in command-line order: $(cat "$WORK/out")"

# --- precomputed:file= in precomputed-kernel text: rows are the training rows in order, 0:i ---
expect_status 0 "$KM" kernel --text --kernel linear "$WORK/train" "$WORK/K.txt"
expect_status 0 "$KM" train -q --kernel precomputed:file="$WORK/K.txt" "$WORK/train" "$WORK/pre.model"
sed '3s/ 0:3 / 0:1.5 /' "$WORK/K.txt" >"$WORK/K_fraction.txt"
train_fails "K_fraction.txt: row 3: id 0:1.5 is not the row's position 3" --kernel precomputed:file="$WORK/K_fraction.txt" "$WORK/train"
sed '2s/ 0:2 / 0:7 /' "$WORK/K.txt" >"$WORK/K_other.txt"
train_fails "K_other.txt: row 2: id 0:7 is not the row's position 2" --kernel precomputed:file="$WORK/K_other.txt" "$WORK/train"

# --- overflow: stopped where it arises, naming the cause; never an accuracy or MSE = inf ---
train_fails "kernel poly:.*degree=1000.*k\(x, x\) of training row [0-9]+ is inf: the kernel overflows" -t 1 -d 1000 "$WORK/train"
cv_fails "kernel poly:.*degree=1000.*overflows" -t 1 -d 1000 "$WORK/train"
for kernel in 0 1 2 3; do
    train_fails "huge: row 1: the squared norm of the features overflows double precision \(a feature of magnitude [0-9.e+]+\)" -t $kernel -g 1 "$WORK/huge"
    cv_fails "huge: row 1: the squared norm of the features overflows" -t $kernel "$WORK/huge"
done
if expect_status 2 "$KM" kernel --kernel rbf "$WORK/huge" "$WORK/huge.bin"; then
    expect_one_line_error "kernel rbf:gamma=1/mean: the mean distance between training rows overflows double precision"
fi
train_fails "huge_targets: row 1: target [0-9e+.]+ is beyond \+-1e\+100" -s 3 "$WORK/huge_targets"
cv_fails "huge_targets: row 1: target .* is beyond" -s 3 "$WORK/huge_targets"
predict_fails "huge: row 1: the squared norm of the features overflows" -q "$WORK/huge" "$WORK/sparse.model"
expect_status 0 "$KM" train -q -s 3 "$WORK/train" "$WORK/svr.model"
predict_fails "huge_targets: row 1: target .* is beyond" "$WORK/huge_targets" "$WORK/svr.model"

# --- cross-validation with a class of one row: that fold predicts the other class ---
expect_status 0 "$KM" train -v 5 "$WORK/one_positive"
grep -q "^Cross Validation Accuracy = " "$WORK/out" || fail "one-row class: no cross-validation accuracy"
grep -q "warning: cross-validation fold [0-9]: every training row has label 2" "$WORK/err" ||
    fail "one-row class: no warning ($(cat "$WORK/err"))"

finish
