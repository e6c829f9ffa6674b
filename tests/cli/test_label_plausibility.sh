# Class labels no classification could learn: a label column read from a feature field (a CSV whose
# label is not the last field, read without --label-column) is refused naming the field read and how to
# choose another; labels the user chose (--label-column, LIBSVM rows) train with a warning; class
# labels that are not integers are noticed.
. "$(dirname "$0")/lib.sh" "$@"

# train_fails PATTERN ARGS... TRAIN_FILE: exit status 2, one line matching PATTERN, no model
train_fails() {
    pattern=$1
    shift
    rm -f "$WORK/fail.model"
    if expect_status 2 "$KM" train "$@" "$WORK/fail.model"; then
        expect_one_line_error "$pattern"
    fi
    [ -e "$WORK/fail.model" ] && fail "a model was written: $*"
}

"$PYTHON" - "$WORK" <<'PY' || { echo "skipped: scikit-learn's wine data is not available" >&2; exit 77; }
import sys
import numpy as np
from sklearn.datasets import load_wine
work = sys.argv[1]
X, y = load_wine(return_X_y=True)
# the label first, as UCI ships it; the last field (proline) holds integers, a value per row or two
np.savetxt(f'{work}/wine.csv', np.c_[y, X], delimiter=',', fmt='%.10g')
assert np.all(X[:, -1] == np.floor(X[:, -1]))
open(f'{work}/wine_values', 'w').write(f'{len(np.unique(X[:, -1]))}\n')
rng = np.random.default_rng(5)
def libsvm(path, rows, labels):
    with open(path, 'w') as f:
        for x, label in zip(rows, labels):
            f.write(f'{label:.10g} ' + ' '.join(f'{j + 1}:{v:.6g}' for j, v in enumerate(x)) + '\n')
# 120 classes of 4 rows: more than 100 classes with fewer than 5 rows each
Z = rng.normal(size=(480, 3))
np.savetxt(f'{work}/many.csv', np.c_[Z, np.repeat(np.arange(120), 4)], delimiter=',', fmt='%.6g')
libsvm(f'{work}/many', Z, np.repeat(np.arange(120), 4))
# 12 classes of 3 rows: few rows each, but not implausibly few
Z = rng.normal(size=(36, 3))
np.savetxt(f'{work}/twelve.csv', np.c_[Z, np.repeat(np.arange(12), 3)], delimiter=',', fmt='%.6g')
# two classes named 0.5 and 1.5
Z = rng.normal(size=(40, 3))
np.savetxt(f'{work}/halves.csv', np.c_[Z, np.where(Z[:, 0] > 0, 0.5, 1.5)], delimiter=',', fmt='%.6g')
PY

values=$(cat "$WORK/wine_values")
# --- the default label column (the last) holding a feature: refused, naming it and --label-column ---
train_fails "wine.csv: the labels \(field 14 of 14\) take $values distinct values on 178 rows: too many classes to learn, they look like a feature; give the label's column with --label-column K \(1-based; default -1, the last\), or train a regression" \
    "$WORK/wine.csv"
train_fails "wine.csv: the labels \(field 14 of 14\) take $values distinct values" -s nu-svc "$WORK/wine.csv"
rm -f "$WORK/cv_out"
expect_status 2 "$KM" train -v 3 "$WORK/wine.csv" && expect_one_line_error "take $values distinct values on 178 rows"
grep -q "Cross Validation" "$WORK/out" && fail "cross-validation on wine.csv printed a result"
train_fails "many.csv: the labels \(field 4 of 4\) take 120 distinct values on 480 rows" "$WORK/many.csv"
# the label field given: three classes, trained without a word
expect_status 0 "$KM" train --label-column 1 "$WORK/wine.csv" "$WORK/wine.model"
grep -q "3 classes" "$WORK/out" || fail "wine.csv with --label-column 1: not 3 classes ($(head -1 "$WORK/out"))"
[ -s "$WORK/err" ] && fail "wine.csv with --label-column 1 warned: $(cat "$WORK/err")"
# regression reads the same field as targets: nothing to doubt
expect_status 0 "$KM" train -s svr "$WORK/wine.csv" "$WORK/svr.model"
[ -s "$WORK/err" ] && fail "regression on wine.csv warned: $(cat "$WORK/err")"
# labels the user chose (--label-column, LIBSVM rows): trained, with a warning naming the doubt
expect_status 0 "$KM" train --label-column 14 "$WORK/wine.csv" "$WORK/chosen.model"
grep -q "warning: .*wine.csv: the labels (field 14 of 14) take $values distinct values on 178 rows: too many classes to learn" "$WORK/err" ||
    fail "--label-column 14: no warning ($(cat "$WORK/err"))"
expect_status 0 "$KM" train -t 0 "$WORK/many" "$WORK/many.model"
grep -q "warning: .*many: the labels take 120 distinct values on 480 rows" "$WORK/err" ||
    fail "LIBSVM rows of 120 classes of 4 rows: no warning ($(cat "$WORK/err"))"
# 12 classes of 3 rows are plausible
expect_status 0 "$KM" train "$WORK/twelve.csv" "$WORK/twelve.model"
[ -s "$WORK/err" ] && fail "12 classes of 3 rows warned: $(cat "$WORK/err")"

# --- class labels that are not integers: noticed ---
expect_status 0 "$KM" train "$WORK/halves.csv" "$WORK/halves.model"
grep -q "warning: .*halves.csv: 2 of the 2 class labels (field 4 of 4) are not integers (e.g. 0.5): every distinct value is a class" "$WORK/err" ||
    fail "labels 0.5 and 1.5: no warning ($(cat "$WORK/err"))"
expect_status 0 "$KM" train -s krr "$WORK/halves.csv" "$WORK/halves_krr.model"
[ -s "$WORK/err" ] && fail "krr on targets 0.5 and 1.5 warned: $(cat "$WORK/err")"

finish
