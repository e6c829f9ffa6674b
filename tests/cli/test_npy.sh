# numpy .npy files: kernel matrices saved with np.save train and predict exactly as the same values in
# KMMATRIX files (float64 and float32, a Fortran-order test kernel), .npy data files train as the same
# rows in CSV, and bad .npy files are refused with one line naming the file.
. "$(dirname "$0")/lib.sh" "$@"

"$PYTHON" -c 'import numpy' 2>/dev/null || { echo "numpy is not available"; exit 77; }

# 60 training and 25 test rows of 3 features, label last; RBF kernels (gamma 0.5) computed by numpy,
# saved as .npy and as KMMATRIX files
"$PYTHON" - "$WORK" <<'PY' || fail "numpy could not write the test files"
import struct, sys
import numpy as np
work = sys.argv[1]
rng = np.random.default_rng(7)
X = rng.normal(size=(85, 3))
y = np.where(X[:, 0] - 0.5 * X[:, 1] + 0.3 * rng.normal(size=85) > 0, 1.0, -1.0)
train, test = np.column_stack([X[:60], y[:60]]), np.column_stack([X[60:], y[60:]])
def rbf(A, B):
    return np.exp(-0.5 * ((A[:, None, :] - B[None, :, :]) ** 2).sum(axis=2))
def kmmatrix(path, M, dtype):
    with open(path, "wb") as f:
        f.write(struct.pack("<8sIIQQ", b"KMMATRIX", 1, 1 if dtype == "<f8" else 2, *M.shape))
        f.write(np.ascontiguousarray(M, dtype=dtype).tobytes())
K, Kt = rbf(X[:60], X[:60]), rbf(X[60:], X[:60])
np.save(f"{work}/train.npy", train)
np.save(f"{work}/test.npy", test)
np.savetxt(f"{work}/train.csv", train, delimiter=",", fmt="%.17g")
np.savetxt(f"{work}/test.csv", test, delimiter=",", fmt="%.17g")
np.save(f"{work}/K.npy", K)
np.save(f"{work}/Kt.npy", rbf(X[:60], X[60:]).T)    # the transpose of a C array: fortran_order True
np.save(f"{work}/K32.npy", K.astype(np.float32))
np.save(f"{work}/Kt32.npy", Kt.astype(np.float32))
kmmatrix(f"{work}/K.bin", K, "<f8")
kmmatrix(f"{work}/Kt.bin", Kt, "<f8")
kmmatrix(f"{work}/K32.bin", K, "<f4")
kmmatrix(f"{work}/Kt32.bin", Kt, "<f4")
np.save(f"{work}/int.npy", np.arange(6).reshape(2, 3))
np.save(f"{work}/vector.npy", np.ones(60))
PY
grep -q "fortran_order': True" "$WORK/Kt.npy" || fail "Kt.npy is not in Fortran order"

# train_predict NAME KERNEL TEST_KERNEL DATA TEST: decision values in $WORK/NAME.pred
train_predict() {
    expect_status 0 "$KM" train -q -e 1e-8 --kernel "precomputed:file=$WORK/$2" "$WORK/$4" "$WORK/$1.model" &&
        expect_status 0 "$KM" predict -q --decision-values --test-kernel "$WORK/$3" "$WORK/$5" "$WORK/$1.model" \
            "$WORK/$1.pred"
}
for dtype in "" 32; do
    if train_predict "npy$dtype" "K$dtype.npy" "Kt$dtype.npy" train.npy test.npy &&
        train_predict "bin$dtype" "K$dtype.bin" "Kt$dtype.bin" train.csv test.csv; then
        [ "$(wc -l <"$WORK/npy$dtype.pred")" -eq 25 ] || fail "expected 25 predictions from .npy kernels"
        cmp -s "$WORK/npy$dtype.pred" "$WORK/bin$dtype.pred" ||
            fail ".npy kernels (float$dtype) predict otherwise than the same KMMATRIX files"
    fi
done
# the kernel values of the float32 files are not those of float64: the predictions differ slightly
cmp -s "$WORK/npy.pred" "$WORK/npy32.pred" && fail "float32 .npy kernels were read as float64"

# .npy data files train and predict as the same rows in CSV
if expect_status 0 "$KM" train -q --kernel 'rbf:gamma=0.5' "$WORK/train.npy" "$WORK/d_npy.model" &&
    expect_status 0 "$KM" predict --decision-values "$WORK/test.npy" "$WORK/d_npy.model" "$WORK/d_npy.pred" &&
    cp "$WORK/out" "$WORK/d_npy.out" &&
    expect_status 0 "$KM" train -q --kernel 'rbf:gamma=0.5' "$WORK/train.csv" "$WORK/d_csv.model" &&
    expect_status 0 "$KM" predict --decision-values "$WORK/test.csv" "$WORK/d_csv.model" "$WORK/d_csv.pred"; then
    cmp -s "$WORK/d_npy.pred" "$WORK/d_csv.pred" || fail ".npy data predicts otherwise than the same CSV rows"
    grep -q '^Accuracy = ' "$WORK/d_npy.out" || fail "predict on .npy data printed no accuracy: $(cat "$WORK/d_npy.out")"
    cmp -s "$WORK/d_npy.out" "$WORK/out" || fail ".npy and CSV test rows score differently"
fi
# --label-column 1 takes the first column as the label (here a feature: a regression-like label set)
expect_status 0 "$KM" train -q -s 3 --label-column 1 --kernel linear "$WORK/train.npy" "$WORK/l1.model" ||
    fail "--label-column 1 on .npy data"

# refusals: one line naming the file, exit 2, no output
expect_status 2 "$KM" train -q "$WORK/int.npy" "$WORK/x.model" &&
    expect_one_line_error "int.npy: \.npy dtype '<i8': this dtype is not supported"
expect_status 2 "$KM" train -q --kernel "precomputed:file=$WORK/vector.npy" "$WORK/train.npy" "$WORK/x.model" &&
    expect_one_line_error "vector.npy: \.npy array of shape \(60,\): a matrix needs 2 dimensions"
head -c 150 "$WORK/K.npy" >"$WORK/short.npy"
expect_status 2 "$KM" predict --test-kernel "$WORK/short.npy" "$WORK/test.npy" "$WORK/npy.model" "$WORK/x.pred" &&
    expect_one_line_error "short.npy: file has 150 bytes, expected"
expect_status 2 "$KM" train -q --label-column 5 "$WORK/train.npy" "$WORK/x.model" &&
    expect_one_line_error "train.npy: label column 5 does not exist"
[ -e "$WORK/x.model" ] || [ -e "$WORK/x.pred" ] && fail "output written for a refused .npy file"
finish
