# SIGINT and --max-time within localized MKL: kernel k-means of clmkl and hlmkl (10 restarts of up to
# 100 sweeps over a 4,000 x 4,000 Gram matrix: about a minute uninterrupted, polled before every
# sweep) and LMKL's gating descent (kernel columns, O(n^2) passes and backtracking solves). SIGINT
# ends each within 3 s with exit status 130, one line and no model (lib.sh expect_interrupted);
# --max-time 1 ends the clustering (30 restarts: minutes uninterrupted) with the partition reached
# and writes a model within seconds (20 s leaves room for a loaded machine).
. "$(dirname "$0")/lib.sh" "$@"

"$PYTHON" - "$WORK/train" <<'PY'
import sys, numpy as np
rng = np.random.default_rng(4)
X = rng.normal(size=(4000, 5)); y = np.where(X[:, 0] + 0.3 * rng.normal(size=4000) > 0, 1, -1)
with open(sys.argv[1], "w") as f:
    for row, label in zip(X, y):
        f.write(f"{label} " + " ".join(f"{j + 1}:{v:.5g}" for j, v in enumerate(row)) + "\n")
PY

kernels="--kernel rbf:gamma=0.1,1 -m 1000"
for method in clmkl hlmkl; do
    # shellcheck disable=SC2086
    expect_interrupted 2 "$method k-means" --mkl $method $kernels "$WORK/train"
done
# shellcheck disable=SC2086
# four gated kernels: about 6 s uninterrupted on this data
expect_interrupted 2 "lmkl" --mkl lmkl --kernel rbf:gamma=0.1,0.3,1,3 -m 1000 "$WORK/train"

# (what --max-time bounds is time: not run under valgrind)
if [ -z "${KM_UNDER_VALGRIND:-}" ]; then
    start=$(date +%s)
    # shellcheck disable=SC2086
    if OMP_NUM_THREADS=1 expect_status 0 "$KM" train --mkl clmkl --kmeans-restarts 30 $kernels --max-time 1 \
        "$WORK/train" "$WORK/clmkl.model"; then
        grep -q "kernel k-means stopped at the time limit" "$WORK/err" || fail "clmkl --max-time: $(cat "$WORK/err")"
        took=$(($(date +%s) - start))
        [ "$took" -lt 20 ] || fail "clmkl --max-time 1 took $took s"
        expect_status 0 "$KM" predict -q "$WORK/train" "$WORK/clmkl.model" "$WORK/clmkl.pred" ||
            fail "the model written at the time limit does not predict"
    fi
fi
finish
