# Kernels that are 0 on every pair of training rows have nothing to learn from: a spec that cannot be
# non-zero on the rows (a k-mer or positional degree longer than every sequence) is refused naming the
# kernel and why, a kernel set whose kernels are all zero on the training rows is refused, and a
# numeric kernel on sequences is refused for what it is; a set with some non-zero kernel still trains.
. "$(dirname "$0")/lib.sh" "$@"

refused() {
    pattern=$1
    shift
    rm -f "$WORK/m"
    if expect_status 2 "$KM" train -q "$@" "$WORK/m"; then
        expect_one_line_error "$pattern"
    fi
    [ -e "$WORK/m" ] && fail "a model was written: $*"
}

"$PYTHON" - "$WORK" <<'PY'
import sys
import numpy as np
work = sys.argv[1]
rng = np.random.default_rng(2)
# sequences of lengths 12..20
with open(f'{work}/dna.seq', 'w') as f:
    for i in range(40):
        s = ''.join(rng.choice(list('ACGT'), size=12 + i % 9))
        f.write(f"{1 if s.count('A') > 4 else -1}\t{s}\n")
# dense rows whose third feature is 0 everywhere; equal rows
X = rng.normal(size=(30, 3))
X[:, 2] = 0
y = np.where(X[:, 0] > 0, 1, -1)
np.savetxt(f'{work}/zero3.csv', np.c_[X, y], delimiter=',', fmt='%.6g')
np.savetxt(f'{work}/equal.csv', np.c_[np.ones((30, 2)), y], delimiter=',', fmt='%.6g')
def matrix(path, K):
    with open(path, 'wb') as f:
        f.write(b'KMMATRIX' + np.array([1, 1], '<u4').tobytes() + np.array(K.shape, '<u8').tobytes())
        f.write(np.ascontiguousarray(K, '<f8').tobytes())
matrix(f'{work}/zero.bin', np.zeros((30, 30)))
PY

# --- string kernels whose spec cannot be non-zero on the rows ---
refused "^kernelmix train: kernel spectrum:k=1024: k-mer length 1024 exceeds every sequence length \(the longest is 20\): the kernel is 0 on every pair of training rows$" \
    --kernel spectrum:k=1024 "$WORK/dna.seq"
refused "kernel spectrum:k=21: k-mer length 21 exceeds every sequence length \(the longest is 20\)" --kernel spectrum:k=21 "$WORK/dna.seq"
refused "kernel positional:degree=21:norm=spherical: degree 21 exceeds every sequence length \(the longest is 20\)" \
    --kernel pos:degree=21:norm=spherical "$WORK/dna.seq"
# also next to kernels that are fine: the spec is wrong whatever the others
refused "kernel spectrum:k=30: k-mer length 30 exceeds" --kernel spectrum:k=3 --kernel spectrum:k=30 "$WORK/dna.seq"
# as long as the longest sequence (longer than the shortest): not zero; wd sums degrees from 1
expect_status 0 "$KM" train -q --kernel spectrum:k=20 "$WORK/dna.seq" "$WORK/k20.model"
expect_status 0 "$KM" train -q --kernel positional:degree=20 "$WORK/dna.seq" "$WORK/p20.model"
expect_status 0 "$KM" train -q --kernel wd:degree=30 "$WORK/dna.seq" "$WORK/wd30.model"

# --- numeric kernels on sequences: said so, not "the rows are all equal" ---
for spec in linear rbf poly chi2 histint; do
    refused "kernel $spec[^ ]*: it reads numeric features, but the rows are sequences, which have none: use a string kernel" \
        --kernel $spec "$WORK/dna.seq"
done
refused "kernel linear: it reads numeric features, but the rows are sequences" --kernel spectrum:k=3 --kernel linear "$WORK/dna.seq"

# --- numeric kernels 0 on every training pair: alone or all of a set; with a non-zero one, trained ---
refused "^kernelmix train: kernel linear:features=3: it is 0 on every pair of training rows: nothing to learn$" \
    --kernel linear:features=3 "$WORK/zero3.csv"
refused "^kernelmix train: all 2 kernels are 0 on every pair of training rows: nothing to learn$" \
    --kernel linear:features=3 --kernel poly:degree=2:coef0=0:features=3 "$WORK/zero3.csv"
refused "kernel linear:center=1: it is 0 on every pair of training rows" --kernel linear:center=1 "$WORK/equal.csv"
refused "kernel precomputed:file=.*zero.bin: it is 0 on every pair of training rows" \
    --kernel "precomputed:file=$WORK/zero.bin" "$WORK/zero3.csv"
if expect_status 2 "$KM" train -q -v 3 --kernel linear:features=3 "$WORK/zero3.csv"; then
    expect_one_line_error "kernel linear:features=3: it is 0 on every pair of training rows"
fi
expect_status 0 "$KM" train -q --kernel linear:features=3 --kernel linear:features=1-2 "$WORK/zero3.csv" "$WORK/some.model"

finish
