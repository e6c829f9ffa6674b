# SIGINT or SIGTERM during training stops the solver at its next check: exit status 130, one line
# on stderr, and no model file (nor a temporary one) left behind; how fast is not checked under
# valgrind (KM_UNDER_VALGRIND, scripts/valgrind-cli.sh). SIGHUP ends training as the signal
# does (exit status 129), likewise leaving nothing.
. "$(dirname "$0")/lib.sh" "$@"

# a problem that takes the solver several seconds: 8,000 noisy rows, large C, tight tolerance
"$PYTHON" - "$WORK/slow" <<'PY'
import sys, numpy as np
rng = np.random.default_rng(1)
X = rng.normal(size=(8000, 10)); y = np.where(rng.random(8000) < 0.5, 1, -1)
with open(sys.argv[1], "w") as f:
    for row, label in zip(X, y):
        f.write(f"{label} " + " ".join(f"{j + 1}:{v:.6g}" for j, v in enumerate(row)) + "\n")
PY

for sig in INT TERM; do
    "$KM" train -q -c 1000 -e 1e-6 -g 2 "$WORK/slow" "$WORK/model.$sig" 2>"$WORK/err.$sig" &
    pid=$!
    sleep 2
    start=$(date +%s%N)
    kill -s $sig $pid
    wait $pid
    status=$?
    took_ms=$((($(date +%s%N) - start) / 1000000))
    # the solver polls every 100 iterations: well within a second (3 s leaves room for a loaded machine)
    [ -n "${KM_UNDER_VALGRIND:-}" ] || [ "$took_ms" -lt 3000 ] || fail "SIG$sig in the solver: stopped after $took_ms ms"
    [ "$status" -eq 130 ] || fail "SIG$sig: exit status $status, expected 130"
    [ "$(wc -l <"$WORK/err.$sig")" -eq 1 ] && grep -q "interrupted; no model written" "$WORK/err.$sig" ||
        fail "SIG$sig: stderr '$(cat "$WORK/err.$sig")'"
    ls -A "$WORK" | grep -qE "^(model.$sig|\.kernelmix-)" && fail "SIG$sig: a model file was left: $(ls -A "$WORK")"
done

"$KM" train -q -c 1000 -e 1e-6 -g 2 "$WORK/slow" "$WORK/model.HUP" 2>"$WORK/err.HUP" &
pid=$!
sleep 2
kill -s HUP $pid
wait $pid
status=$?
[ "$status" -eq 129 ] || fail "SIGHUP: exit status $status, expected 129"
ls -A "$WORK" | grep -qE "^(model.HUP|\.kernelmix-)" && fail "SIGHUP: a model file was left: $(ls -A "$WORK")"

# OBSCURE polls before every block of rows and within its objective passes (each up to N x support
# kernel values): SIGINT in its epochs stops it as fast as the solver.
expect_interrupted 2 obscure --mkl obscure --epochs 100000 --kernel rbf:gamma=1,2 "$WORK/slow"

# Before the first machine, kernel-weight learning computes the alignment diagnostics: with 100
# polynomial kernels on 1,700 rows of 50 features that pass alone takes several seconds (well over
# ten under valgrind or on a busy machine). SIGINT in it stops within a few columns.
"$PYTHON" - "$WORK/wide" <<'PY'
import sys, numpy as np
rng = np.random.default_rng(1)
X = rng.normal(size=(1700, 50)); y = np.where(X[:, 0] + 0.3 * rng.normal(size=1700) > 0, 1, -1)
with open(sys.argv[1], "w") as f:
    for row, label in zip(X, y):
        f.write(f"{label} " + " ".join(f"{j + 1}:{v:.4f}" for j, v in enumerate(row)) + "\n")
PY
# (alignf computes its weights from a second pass of alignment statistics, which polls likewise)
for method in lp alignf; do
    expect_interrupted 1.5 "$method: the alignment statistics" --mkl $method \
        --kernel 'poly:degree=1..10:coef0=1..10:gamma=0.01' -m 400 "$WORK/wide"
done

# l1-MKL on rank-1 kernels by linear programs (--solver simplex): GLPK's simplex runs in slices between
# polls, so SIGINT inside one of its linear programs (seconds each here: 1,500 documents with random
# labels, 1,500 words, C = 1000) stops it as fast as the SVM solver
"$PYTHON" - "$WORK/bow" <<'PY'
import sys, numpy as np
rng = np.random.default_rng(5)
n, d = 1500, 1500
p = 1.0 / np.arange(1, d + 1) ** 0.9; p /= p.sum()
with open(sys.argv[1], "w") as out:
    for i in range(n):
        idx, cnt = np.unique(rng.choice(d, size=40, p=p), return_counts=True)
        out.write(f"{1 if rng.random() < 0.5 else -1} " + " ".join(f"{j + 1}:{c}" for j, c in zip(idx, cnt)) +
                  ("" if i or d - 1 in idx else f" {d}:0") + "\n")
PY
expect_interrupted 3 simplex --kernel rank1 --p 1 --solver simplex -c 1000 "$WORK/bow"
finish
