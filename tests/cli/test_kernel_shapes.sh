# Precomputed kernels must have the shape of the rows they describe: a test kernel has one row per
# test row and one column per training row, whatever its format (binary float64/float32, .npy
# float64/float32, LIBSVM precomputed-kernel text), for every one of several kernels; a training
# kernel (train, train -v) one row and one column per training row. Any other shape is refused with
# one line naming the file, exit status 2 and no output. Labels-only files (text or a one-column
# .npy) give the rows' labels.
. "$(dirname "$0")/lib.sh" "$@"
need "$PYTHON"
"$PYTHON" -c 'import numpy' 2>/dev/null || { echo "skipped: numpy is not available" >&2; exit 77; }

W=$WORK
head -n 60 "$DATA/heart_scale" >"$W/train"
sed -n '61,90p' "$DATA/heart_scale" >"$W/test"       # 30 test rows
sed -n '61,95p' "$DATA/heart_scale" >"$W/test35"     # 35 rows: more than the test rows
sed -n '61,85p' "$DATA/heart_scale" >"$W/test25"     # 25 rows: fewer
cut -d' ' -f1 "$W/train" >"$W/train.labels"
cut -d' ' -f1 "$W/test" >"$W/test.labels"
"$PYTHON" - "$W" <<'PY'
import sys, numpy as np
w = sys.argv[1]
for name in ("train", "test"):
    y = [float(line.split()[0]) for line in open(f"{w}/{name}")]
    np.save(f"{w}/{name}.labels.npy", np.array(y).reshape(-1, 1))
PY

# the kernels of the training rows and of test sets of 30 (right), 35 and 25 rows, in every format
for spec in rbf linear; do
    expect_status 0 "$KM" kernel --kernel $spec "$W/train" "$W/K_$spec.bin" || exit 1
    for t in test test35 test25; do
        expect_status 0 "$KM" kernel --kernel $spec --test "$W/$t" "$W/train" "$W/${t}_$spec.bin"
        expect_status 0 "$KM" kernel --float32 --kernel $spec --test "$W/$t" "$W/train" "$W/${t}_$spec.f32"
        expect_status 0 "$KM" kernel --text --kernel $spec --test "$W/$t" "$W/train" "$W/${t}_$spec.txt"
        "$PYTHON" - "$W/${t}_$spec.bin" <<'PY'
import sys, numpy as np
path = sys.argv[1]
raw = open(path, "rb").read()
rows, cols = np.frombuffer(raw[16:32], "<u8")
K = np.frombuffer(raw[32:], "<f8").reshape(rows, cols)
np.save(path[:-4] + ".npy", K)
np.save(path[:-4] + "_f4.npy", K.astype("<f4"))
PY
    done
done
expect_status 0 "$KM" train -q --kernel "precomputed:file=$W/K_rbf.bin" --kernel "precomputed:file=$W/K_linear.bin" \
    "$W/train.labels" "$W/m" || exit 1

# the right shapes give the same predictions in every format, with labels from text or .npy
expect_status 0 "$KM" predict -q --test-kernel "$W/test_rbf.bin" --test-kernel "$W/test_linear.bin" "$W/test.labels" \
    "$W/m" "$W/expected"
[ "$(wc -l <"$W/expected")" -eq 30 ] || fail "30 test rows gave $(wc -l <"$W/expected") predictions"
for ext in bin f32 txt npy _f4.npy; do
    sep=.; [ "$ext" = _f4.npy ] && sep=
    for labels in test.labels test.labels.npy; do
        expect_status 0 "$KM" predict -q --test-kernel "$W/test_rbf$sep$ext" --test-kernel "$W/test_linear$sep$ext" \
            "$W/$labels" "$W/m" "$W/pred" && { cmp -s "$W/pred" "$W/expected" || fail "$ext with $labels: other predictions"; }
    done
done
# the report of a labels-only .npy is the one of the labels-only text file
"$KM" predict --test-kernel "$W/test_rbf.bin" --test-kernel "$W/test_linear.bin" "$W/test.labels" "$W/m" "$W/o1" >"$W/r1"
"$KM" predict --test-kernel "$W/test_rbf.bin" --test-kernel "$W/test_linear.bin" "$W/test.labels.npy" "$W/m" "$W/o2" >"$W/r2"
grep -q '^Accuracy = ' "$W/r1" && cmp -s "$W/r1" "$W/r2" || fail "labels from .npy: report '$(cat "$W/r2")' differs from '$(cat "$W/r1")'"
# training on labels-only .npy gives the model of the labels-only text file
expect_status 0 "$KM" train -q --kernel "precomputed:file=$W/K_rbf.bin" --kernel "precomputed:file=$W/K_linear.bin" \
    "$W/train.labels.npy" "$W/m_npy" &&
    expect_status 0 "$KM" predict -q --test-kernel "$W/test_rbf.bin" --test-kernel "$W/test_linear.bin" "$W/test.labels" \
        "$W/m_npy" "$W/pred" && { cmp -s "$W/pred" "$W/expected" || fail "a labels-only .npy trains another model"; }

# test kernels of 35 or 25 rows for 30 test rows: refused, naming the file, for either kernel
for t in test35 test25; do
    rows=${t#test}
    for ext in bin f32 txt npy _f4.npy; do
        sep=.; [ "$ext" = _f4.npy ] && sep=
        for which in 1 2; do
            if [ $which = 1 ]; then k1=$W/${t}_rbf$sep$ext k2=$W/test_linear.bin bad=$k1
            else k1=$W/test_rbf.bin k2=$W/${t}_linear$sep$ext bad=$k2; fi
            # the test rows as features, labels-only text and labels-only .npy in turn
            set -- test test.labels test.labels.npy
            shift $(( (which + ${#ext}) % 3 ))
            for labels in "$1"; do
                rm -f "$W/pred"
                expect_status 2 "$KM" predict --test-kernel "$k1" --test-kernel "$k2" "$W/$labels" "$W/m" "$W/pred" &&
                    expect_one_line_error "^kernelmix predict: $bad: test kernel $which is $rows x 60; expected 30 x 60 \(test rows x training rows\)$"
                [ -e "$W/pred" ] && fail "$bad: a refused prediction wrote its output"
                [ -s "$W/out" ] && fail "$bad: a refused prediction printed '$(cat "$W/out")'"
            done
        done
    done
done

# precomputed-kernel rows as the test data (LIBSVM 0:i, train -t 4): one column per training row; rows
# computed against more training rows (a value in column 61 of a 60-row model) are refused
expect_status 0 "$KM" kernel --text --kernel rbf "$W/train" "$W/train_rows.txt"
expect_status 0 "$KM" train -q -t 4 "$W/train_rows.txt" "$W/m_rows"
expect_status 0 "$KM" predict -q "$W/test_rbf.txt" "$W/m_rows" "$W/pred_rows"
[ "$(wc -l <"$W/pred_rows")" -eq 30 ] || fail "0:i test rows: $(wc -l <"$W/pred_rows") predictions"
head -n 61 "$DATA/heart_scale" >"$W/train61"
expect_status 0 "$KM" kernel --text --kernel rbf --test "$W/test" "$W/train61" "$W/test_rows61.txt"
rm -f "$W/pred_rows"
expect_status 2 "$KM" predict "$W/test_rows61.txt" "$W/m_rows" "$W/pred_rows" &&
    expect_one_line_error "test_rows61.txt: kernel 1 is precomputed from the data rows; the test rows have a value in column 61, beyond the 60 columns of the training rows"
[ -e "$W/pred_rows" ] && fail "0:i test rows of 61 columns: predictions written"

# training kernels must be square over the training rows: train and train -v refuse other shapes
head -n 59 "$W/train.labels" >"$W/train59.labels"
for args in "" "-v 3"; do
    # shellcheck disable=SC2086
    expect_status 2 "$KM" train -q $args --kernel "precomputed:file=$W/K_rbf.bin" "$W/train59.labels" "$W/m59" &&
        expect_one_line_error "$W/K_rbf.bin is 60 x 60 but the data has 59 rows"
    [ -e "$W/m59" ] && fail "train $args: a refused training wrote a model"
    # shellcheck disable=SC2086
    expect_status 2 "$KM" train -q $args --kernel "precomputed:file=$W/test_rbf.bin" "$W/test.labels" "$W/m59" &&
        expect_one_line_error "$W/test_rbf.bin is a 30 x 60 matrix; a training kernel must be square"
done
finish
