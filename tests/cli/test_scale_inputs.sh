# kernelmix scale reads its data as train does: CSV (the label in the last column, or where
# --label-column puts it, with --delimiter) and .npy give the scaled rows of the same data in LIBSVM
# format. Range bounds whose scaling overflows double precision (near +-1e308: the x interval, a
# feature's range, the label's y range, or a value far outside its range) are refused with one line
# naming the range file and line (or the options or data file when fitted), exit status 2, and no
# output; nothing written is ever inf or nan.
. "$(dirname "$0")/lib.sh" "$@"
"$PYTHON" -c 'import numpy' 2>/dev/null || { echo "skipped: numpy is not available" >&2; exit 77; }

W=$WORK
cd "$W" || exit 1
"$PYTHON" - <<'PY'
import numpy as np
rng = np.random.default_rng(5)
X = np.round(rng.normal(size=(25, 4)) * 3, 4)
X[rng.random(X.shape) < 0.2] = 0.0
y = rng.integers(1, 4, size=25).astype(float)
with open("data.svm", "w") as f:
    for yi, x in zip(y, X):
        f.write(f"{yi:g} " + " ".join(f"{j + 1}:{v:.17g}" for j, v in enumerate(x) if v != 0) + "\n")
with open("label_first.csv", "w") as f:
    for yi, x in zip(y, X):
        f.write(",".join([f"{yi:g}"] + [f"{v:.17g}" for v in x]) + "\n")
with open("label_last.csv", "w") as f:
    for yi, x in zip(y, X):
        f.write(";".join([f"{v:.17g}" for v in x] + [f"{yi:g}"]) + "\n")
np.save("data.npy", np.column_stack([X, y]))
PY

expect_status 0 "$KM" scale -s expected.range data.svm expected || exit 1
# scale_same WHAT ARGS...: scale ARGS gives the scaled rows and range file of data.svm
scale_same() {
    what=$1
    shift
    rm -f got got.range
    expect_status 0 "$KM" scale "$@" -s got.range got || return
    cmp -s got expected || fail "$what: other scaled rows: $(head -n 1 got)"
    cmp -s got.range expected.range || fail "$what: another range file"
}
scale_same "CSV, label first" --label-column 1 label_first.csv
scale_same "CSV, label last, ';'" label_last.csv
scale_same "CSV, label last, --delimiter ';' --format csv" --format csv --delimiter ';' label_last.csv
scale_same ".npy" data.npy
# the reported example: a CSV whose first field is the label, read without --label-column, is read
# as train reads it (label last), not refused as a non-numeric label
expect_status 0 "$KM" scale label_first.csv && grep -q non-numeric err && fail "CSV refused: $(cat err)"
expect_status 2 "$KM" scale --label-column 0 label_first.csv &&
    expect_one_line_error "label_first.csv: rows have no labels"

# overflowing ranges: refused naming the range file's line
# bad_range LINE CONTENT...: scale -r with the range file CONTENT is refused naming range:LINE
bad_range() {
    line=$1
    shift
    printf '%s\n' "$@" >range
    rm -f out.svm
    if expect_status 2 "$KM" scale -r range data.svm out.svm; then
        expect_one_line_error "^kernelmix scale: range:$line: scaling .* overflows double precision$"
    fi
    [ -e out.svm ] && fail "range $*: output written"
    expect_status 2 "$KM" scale -r range data.svm
    [ -s out ] && fail "range $*: '$(head -c 80 out)' on standard output"
}
bad_range 2 x "-1e308 1e308" "1 -3 3" "2 -3 3" "3 -3 3" "4 -3 3"
bad_range 4 x "-1 1" "1 -3 3" "2 -1e308 1e308" "3 -3 3" "4 -3 3"
bad_range 3 y "-1 1" "-1e308 1e308" x "-1 1" "1 -3 3" "2 -3 3" "3 -3 3" "4 -3 3"
bad_range 2 y "-1.5e308 1.5e308" "1 3" x "-1 1" "1 -3 3" "2 -3 3" "3 -3 3" "4 -3 3"
# a value far outside a tiny range: (v - min) / (max - min) overflows
bad_range 5 x "-1 1" "1 -3 3" "2 -3 3" "3 -1e-308 1e-308" "4 -3 3"
# fitted ranges: the options, or the data file
expect_status 2 "$KM" scale -l -1e308 -u 1e308 data.svm && expect_one_line_error "options -l and -u: scaling features"
printf '1 1:1e308\n2 1:-1e308\n' >huge.svm
expect_status 2 "$KM" scale huge.svm && expect_one_line_error "^kernelmix scale: huge.svm: scaling feature 1 from"
expect_status 2 "$KM" scale -y -1e308 1e308 data.svm && expect_one_line_error "scaling the label"
# large bounds that do not overflow are written as numbers
printf '%s\n' x "-1e306 1e306" "1 -3 3" "2 -3 3" "3 -3 3" "4 -3 3" >range
expect_status 0 "$KM" scale -r range data.svm && grep -Eiq 'inf|nan' out && fail "inf or nan written: $(head -n 1 out)"
finish
