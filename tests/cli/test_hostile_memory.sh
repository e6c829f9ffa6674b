# Memory: -m bounds the kernel cache (peak memory of a training with -m 1 stays small; with a large
# -m it grows with the cached kernel), and under an address-space limit (ulimit -v) an allocation that
# does not fit fails with exit status 1 and one line "out of memory ..." instead of a crash, leaving
# no output. Runs single-threaded: OpenBLAS reserves buffers per thread (its OpenMP build 128 MiB for
# a matrix-vector product) and, when even those do not fit, spins in its own allocator
# (docs/reliability.md), so the limit leaves it room.
. "$(dirname "$0")/lib.sh" "$@"
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
LIMIT_KB=700000

# limited COMMAND...: COMMAND under the address-space limit (killed after 120 s: a hang fails)
limited() {
    (ulimit -v "$LIMIT_KB" && exec timeout -s KILL 120 "$@")
}
printf '1 1:1\n-1 1:-1\n' >"$WORK/tiny"
if ! limited "$KM" train -q "$WORK/tiny" "$WORK/tiny.model" 2>/dev/null; then
    # sanitizer builds reserve terabytes of shadow address space, and their allocators keep freed
    # memory in quarantine, so neither check means anything there
    echo "skipped: kernelmix does not start under ulimit -v $LIMIT_KB (sanitizer build?)"
    exit 77
fi

"$PYTHON" - "$WORK/train" "$WORK/wide" <<'PY'
import sys
import numpy as np
rng = np.random.default_rng(3)
for path, n, d in ((sys.argv[1], 5000, 12), (sys.argv[2], 12000, 2)):
    X = rng.normal(size=(n, d))
    y = np.where(X[:, 0] + 0.3 * rng.normal(size=n) > 0, 1, -1)
    with open(path, "w") as f:
        for i in range(n):
            f.write("%d %s\n" % (y[i], " ".join("%d:%.6g" % (j + 1, X[i, j]) for j in range(d))))
PY

# peak_rss_mb COMMAND...: runs COMMAND (it must succeed) and prints its peak resident memory in MiB
peak_rss_mb() {
    "$PYTHON" -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)' "$@"
}
base=$(peak_rss_mb "$KM" train -q -m 1 "$WORK/tiny" "$WORK/tiny.model") || fail "training on 2 rows failed"
small=$(peak_rss_mb "$KM" train -q -m 1 "$WORK/train" "$WORK/small.model") || fail "training with -m 1 failed"
large=$(peak_rss_mb "$KM" train -q -m 400 "$WORK/train" "$WORK/large.model") || fail "training with -m 400 failed"
echo "peak memory: 2 rows: ${base} MiB, 5000 rows with -m 1: ${small} MiB, with -m 400: ${large} MiB"
[ "${small:-999}" -lt $((${base:-0} + 40)) ] || fail "training with -m 1 peaked at ${small} MiB (2 rows: ${base} MiB)"
[ "${large:-0}" -gt $((${small:-999} + 100)) ] || fail "-m 400 (${large} MiB) does not hold more kernel than -m 1 (${small} MiB)"

rm -f "$WORK/small.model" "$WORK/large.model"
expect_status 1 limited "$KM" kernel --kernel linear "$WORK/wide" "$WORK/K.bin" &&
    expect_one_line_error "^kernelmix kernel: out of memory for a 12000 x 12000 matrix"
[ -e "$WORK/K.bin" ] && fail "a kernel matrix was written without memory for it"
expect_status 1 limited "$KM" train -q -m 10000 "$WORK/wide" "$WORK/large.model" &&
    expect_one_line_error "^kernelmix train: out of memory"
[ -e "$WORK/large.model" ] && fail "a model was written without memory for it"
# the same training fits the limit once -m bounds the cache
expect_status 0 limited "$KM" train -q -m 1 "$WORK/train" "$WORK/small.model"
expect_status 0 "$KM" info "$WORK/small.model"

# Memory follows the stored entries, not the largest feature index: a 22-byte file with the index 2e9
# trains and predicts within the limit (a dense column vector would be 16 GB).
printf '1 2000000000:1\n-1 1:1\n' >"$WORK/huge_index"
expect_status 0 limited "$KM" train -q "$WORK/huge_index" "$WORK/huge.model"
expect_status 0 limited "$KM" predict -q "$WORK/huge_index" "$WORK/huge.model" "$WORK/huge.pred" &&
    { [ "$(tr '\n' ' ' <"$WORK/huge.pred")" = "1 -1 " ] || fail "huge index: predictions $(cat "$WORK/huge.pred")"; }

# kernelmix scale keeps ranges for the stored features only: fitting, saving and applying ranges to
# that file stays within the limit, and the output is svm-scale's (index 2e9 spans [0, 1]: 1 -> 1, the
# unlisted 0 -> -1; feature 1 the same).
expect_status 0 limited "$KM" scale -s "$WORK/huge.range" "$WORK/huge_index" "$WORK/huge.scaled" &&
    { [ "$(tr '\n' '|' <"$WORK/huge.scaled")" = "1 1:-1 2000000000:1 |-1 1:1 2000000000:-1 |" ] ||
        fail "huge index: scaled rows $(cat "$WORK/huge.scaled")"; }
expect_status 0 limited "$KM" scale -r "$WORK/huge.range" "$WORK/huge_index" "$WORK/huge.rescaled" &&
    { cmp -s "$WORK/huge.scaled" "$WORK/huge.rescaled" || fail "huge index: ranges applied differ from fitted"; }
printf 'x\n0 1\n2147483647 0 4\n' >"$WORK/far.range"
expect_status 0 limited "$KM" scale -r "$WORK/far.range" "$WORK/huge_index" "$WORK/far.scaled" &&
    { [ "$(tr '\n' '|' <"$WORK/far.scaled")" = "1 |-1 |" ] || fail "far range: scaled rows $(cat "$WORK/far.scaled")"; }

# features=each on 70,000 features: 70,000 kernels, each with its own view, grow linearly (an array
# of M kernels per view grew with M^2: 39 GB). Feature 70,000 is 1 on every row and the others 0, so
# every kernel is constant on the training rows, which the kernel checks find once the views exist.
for i in $(seq 100); do printf '1 70000:1\n-1 70000:1\n'; done >"$WORK/each"
expect_status 2 limited "$KM" train -q --kernel linear:features=each --mkl lp "$WORK/each" "$WORK/each.model" &&
    expect_one_line_error "every kernel is constant on the training rows"

# 300 classes one-vs-one: 44,850 decision values per row are predicted and written range by range
# (all 600 rows' values at once, twice over, were 430 MB); the decision values still reach the file.
"$PYTHON" - "$WORK/classes" <<'PY'
import sys
import numpy as np
rng = np.random.default_rng(2)
with open(sys.argv[1], "w") as f:
    for c in range(300):
        for _ in range(2):
            f.write("%d 1:%.6f 2:%.4f\n" % (c, c / 300 + 1e-4 * rng.normal(), rng.normal()))
PY
expect_status 0 "$KM" train -q "$WORK/classes" "$WORK/classes.model"
loaded=$(peak_rss_mb "$KM" info "$WORK/classes.model") || fail "info on 300 classes failed"
predicting=$(peak_rss_mb "$KM" predict -q "$WORK/classes" "$WORK/classes.model" "$WORK/classes.pred") ||
    fail "prediction of 300 classes failed"
echo "peak memory: 300-class model loaded: ${loaded} MiB, predicted: ${predicting} MiB"
[ "${predicting:-999}" -lt $((${loaded:-0} + 100)) ] ||
    fail "predicting 600 rows of 300 classes peaked at ${predicting} MiB (the model alone: ${loaded} MiB)"
head -3 "$WORK/classes" >"$WORK/classes3"
expect_status 0 "$KM" predict -q --decision-values "$WORK/classes3" "$WORK/classes.model" "$WORK/classes3.pred" &&
    { [ "$(awk '{print NF}' "$WORK/classes3.pred" | sort -u)" = 44851 ] || fail "300 classes: not 44,850 decision values per line"; }
# A line without end is refused at 256 MiB, within the limit, not read on until memory runs out.
expect_status 2 limited sh -c 'yes | tr -d "\n" | "$1" train /dev/stdin "$2"' sh "$KM" "$WORK/endless.model" &&
    expect_one_line_error "/dev/stdin:1: line longer than 256 MiB"
[ -e "$WORK/endless.model" ] && fail "a model was written from an endless line"
# A .npy file whose rows do not fit (a sparse 3 GB file): one line naming the file.
"$PYTHON" - "$WORK/rows.npy" <<'PY'
import io, sys
import numpy as np
buffer = io.BytesIO()
np.save(buffer, np.zeros((2, 4)))
head = buffer.getvalue()
length = int.from_bytes(head[8:10], "little")
header = head[10:10 + length].replace(b"(2, 4)", b"(100000000, 4)").rstrip(b" \n")
with open(sys.argv[1], "wb") as f:
    f.write(head[:10] + header + b" " * (length - 1 - len(header)) + b"\n")
    f.truncate(10 + length + 100000000 * 4 * 8)
PY
expect_status 1 limited "$KM" train -q --label-column 1 "$WORK/rows.npy" "$WORK/rows.model" &&
    expect_one_line_error "^kernelmix train: $WORK/rows.npy: out of memory"
[ -e "$WORK/rows.model" ] && fail "a model was written from a .npy file that does not fit"
finish
