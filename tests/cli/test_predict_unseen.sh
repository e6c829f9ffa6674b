# Test rows holding what the model never saw are predicted, with a warning that counts them: rows with
# non-zero features beyond the model's (ignored after sparse training; stored zeros do not count), and
# labels that are none of a classification model's classes (none at all: the accuracy compares
# unrelated labels).
. "$(dirname "$0")/lib.sh" "$@"

"$PYTHON" - "$WORK" <<'PY'
import sys
import numpy as np
work = sys.argv[1]
rng = np.random.default_rng(11)
X = rng.normal(size=(40, 3))
y = np.where(X[:, 0] > 0, 1, 2)
def libsvm(path, rows, labels, extra=lambda i: ''):
    with open(path, 'w') as f:
        for i, (x, label) in enumerate(zip(rows, labels)):
            f.write(f'{label:g} ' + ' '.join(f'{j + 1}:{v:.6g}' for j, v in enumerate(x)) + extra(i) + '\n')
libsvm(f'{work}/train', X, y)
# 7 rows with feature 9 non-zero, one more with feature 12 stored as 0 (not counted)
libsvm(f'{work}/beyond', X[:20], y[:20], lambda i: ' 9:0.5' if i < 7 else ' 12:0' if i == 7 else '')
libsvm(f'{work}/same', X[:20], y[:20], lambda i: ' 12:0' if i == 7 else '')
libsvm(f'{work}/foreign', X[:20], np.where(y[:20] == 1, 7, 8))
libsvm(f'{work}/partly', X[:20], np.where(np.arange(20) < 3, 5, y[:20]))
# dense rows with 5 features: 4 rows with non-zero features 4 or 5
D = np.c_[X[:20], np.zeros((20, 2))]
D[[2, 5, 11], 3] = 1.0
D[15, 4] = -2.0
np.savetxt(f'{work}/dense.csv', np.c_[D, y[:20]], delimiter=',', fmt='%.6g')
PY

expect_status 0 "$KM" train -q "$WORK/train" "$WORK/sparse.model"
expect_status 0 "$KM" predict "$WORK/same" "$WORK/sparse.model" "$WORK/same.out"
[ -s "$WORK/err" ] && fail "rows with the model's features and classes warned: $(cat "$WORK/err")"

# --- features beyond the model's: counted, ignored ---
expect_status 0 "$KM" predict "$WORK/beyond" "$WORK/sparse.model" "$WORK/beyond.out"
grep -qx "kernelmix predict: warning: .*beyond: 7 of 20 rows have features beyond the 3 the model was trained on (up to feature 9); prediction ignores them" "$WORK/err" ||
    fail "features beyond the model's: no count ($(cat "$WORK/err"))"
[ "$(wc -l <"$WORK/err")" -eq 1 ] || fail "features beyond the model's: more than one warning ($(cat "$WORK/err"))"
cmp -s "$WORK/beyond.out" "$WORK/same.out" || fail "features beyond the model's changed the predictions"
expect_status 0 "$KM" predict --label-column -1 "$WORK/dense.csv" "$WORK/sparse.model" "$WORK/dense.out"
grep -q "warning: .*dense.csv: 4 of 20 rows have features beyond the 3 the model was trained on (up to feature 5)" "$WORK/err" ||
    fail "dense rows with features beyond the model's: no count ($(cat "$WORK/err"))"
cmp -s "$WORK/dense.out" "$WORK/same.out" || fail "dense features beyond the model's changed the predictions"

# --- labels the model never saw ---
expect_status 0 "$KM" predict "$WORK/foreign" "$WORK/sparse.model" "$WORK/foreign.out"
grep -qx "kernelmix predict: warning: .*foreign: no test label is among the model's 2 classes (1, 2; the test rows have e.g. [78]): the accuracy compares unrelated labels" "$WORK/err" ||
    fail "no test label among the model's classes: no warning ($(cat "$WORK/err"))"
grep -q "^Accuracy = 0% (0/20)" "$WORK/out" || fail "foreign labels: accuracy other than 0 ($(cat "$WORK/out"))"
expect_status 0 "$KM" predict "$WORK/partly" "$WORK/sparse.model" "$WORK/partly.out"
grep -qx "kernelmix predict: warning: .*partly: 3 of 20 test rows have labels that are none of the model's 2 classes (e.g. 5): they count as errors" "$WORK/err" ||
    fail "some test labels outside the model's classes: no count ($(cat "$WORK/err"))"
# a regression model has no classes: its targets are not checked
expect_status 0 "$KM" train -q -s svr "$WORK/train" "$WORK/svr.model"
expect_status 0 "$KM" predict "$WORK/foreign" "$WORK/svr.model" "$WORK/svr.out"
[ -s "$WORK/err" ] && fail "regression targets warned: $(cat "$WORK/err")"

finish
