# SIGINT within steps that one call of a library cannot poll: KRR's Cholesky factorization (in panels,
# core/cholesky.c), empirical-Bayes MKL's evaluations (a factorization and an inverse each, several
# per outer iteration in EB-RW) and string kernels (blocks of columns in the alignment statistics
# before the first machine; the SVM solver's kernel matrix and columns). Each problem runs many seconds (over a minute for some) uninterrupted; SIGINT
# ends it within 3 s, with exit status 130, one line and no model (lib.sh expect_interrupted).
# --max-time 1 ends EB-RW's weight steps too: a model within seconds instead of half a minute.
. "$(dirname "$0")/lib.sh" "$@"

"$PYTHON" - "$WORK" <<'PY'
import sys, numpy as np
rng = np.random.default_rng(3)
def write(path, X, y):
    with open(path, "w") as f:
        for row, target in zip(X, y):
            f.write(f"{target:.6g} " + " ".join(f"{j + 1}:{v:.5g}" for j, v in enumerate(row)) + "\n")
X = rng.normal(size=(10000, 5)); write(sys.argv[1] + "/krr", X, X[:, 0] + 0.1 * rng.normal(size=10000))
X = rng.normal(size=(2000, 5)); write(sys.argv[1] + "/eb", X, X[:, 0] + 0.1 * rng.normal(size=2000))
with open(sys.argv[1] + "/strings.seq", "w") as f:
    for i in range(1500):
        s = "".join(rng.choice(list("ACGT"), size=400))
        f.write(f"{1 if s.count('GA') > 25 else -1}\t{s}\n")
PY

# 10,000 rows: the kernel matrix is filled within a second, then its Cholesky takes 8 s or more
expect_interrupted 2 "KRR Cholesky" -s krr -m 2000 "$WORK/krr"

eb="-s krr --mkl eb-rw --learn-noise --eb-tol 1e-14 -m 2000 --kernel rbf:gamma=2^-6..2^3"
# shellcheck disable=SC2086
expect_interrupted 2 "eb-rw" $eb "$WORK/eb"
# (what --max-time bounds is time: not run under valgrind)
if [ -z "${KM_UNDER_VALGRIND:-}" ]; then
    start=$(date +%s)
    # shellcheck disable=SC2086
    if OMP_NUM_THREADS=1 expect_status 0 "$KM" train $eb --max-time 1 "$WORK/eb" "$WORK/eb.model"; then
        grep -q "empirical-Bayes MKL stopped at the time limit" "$WORK/err" || fail "eb-rw --max-time: $(cat "$WORK/err")"
        took=$(($(date +%s) - start))
        [ "$took" -lt 20 ] || fail "eb-rw --max-time 1 took $took s"
    fi
fi

expect_interrupted 2 "spectrum kernels, alignment" --kernel 'spectrum:k=3..6' --mkl lp -m 1000 "$WORK/strings.seq"
# the SVM solver on string kernels: its kernel matrix filled in blocks (-m 1000), or a column per step
expect_interrupted 2 "spectrum kernels, SVM matrix" --kernel 'spectrum:k=3..6' -m 1000 "$WORK/strings.seq"
expect_interrupted 2 "spectrum kernels, SVM columns" --kernel 'spectrum:k=3..6' -m 20 "$WORK/strings.seq"
finish
