# --max-iter, --max-outer and --max-time end training with the best point reached: the model is
# written, still predicts, and 'info' reports the machine as stopped at a limit.
. "$(dirname "$0")/lib.sh" "$@"

D="$DATA/heart_scale"
converged() { json_get "$WORK/out" "j['machines'][0]['converged']"; }

# SVM iteration limit: a warning, a usable model, converged = false
if expect_status 0 "$KM" train --max-iter 5 "$D" "$WORK/iter.model"; then
    grep -q "warning" "$WORK/err" || fail "--max-iter: no warning on stderr"
    expect_status 0 "$KM" info --json "$WORK/iter.model" && { [ "$(converged)" = False ] || fail "--max-iter: converged"; }
    expect_status 0 "$KM" info "$WORK/iter.model" && { grep -q "stopped at a limit" "$WORK/out" || fail "--max-iter: info text"; }
    expect_status 0 "$KM" predict -q "$D" "$WORK/iter.model" "$WORK/iter.pred"
fi

# MKL outer-iteration and time limits, with a gap target no solver reaches on the way
for limit in "--max-outer 2" "--max-time 0.000001"; do
    if expect_status 0 "$KM" train --kernel 'rbf:gamma=2^-2..2^1/mean' --mkl lp --p 4/3 --solver wrapper \
            --mkl-eps 1e-14 $limit "$D" "$WORK/mkl.model"; then
        grep -q "warning" "$WORK/err" || fail "$limit: no warning on stderr"
        if expect_status 0 "$KM" info --json "$WORK/mkl.model"; then
            [ "$(converged)" = False ] || fail "$limit: converged"
            gap=$(json_get "$WORK/out" "j['machines'][0]['duality_gap']")
            "$PYTHON" -c "import sys; sys.exit(0 if float('$gap') > 1e-14 else 1)" || fail "$limit: gap $gap"
        fi
        expect_status 0 "$KM" predict -q "$D" "$WORK/mkl.model" "$WORK/mkl.pred"
    fi
done
# 30 rows of features of +-1e5: linear kernel values of 1e10 whose steps cancel in rounding; the
# solver stops once a window of iterations makes no progress, with a message, not at the 10^7 limit
"$PYTHON" - "$WORK/ill" <<'PY'
import sys
import numpy as np
rng = np.random.default_rng(0)
with open(sys.argv[1], "w") as f:
    for i in range(30):
        f.write("%d %s\n" % (1 if i % 2 else -1, " ".join("%d:%.1f" % (j + 1, rng.uniform(-1e5, 1e5)) for j in range(5))))
PY
if expect_status 1 "$KM" train -q --kernel linear "$WORK/ill" "$WORK/ill.model"; then
    expect_one_line_error "the SVM solver makes no progress after [0-9]+ iterations .*scale the features"
    grep -q "makes no progress after 1999999 iterations" "$WORK/err" || fail "ill-conditioned: $(cat "$WORK/err")"
fi
[ -e "$WORK/ill.model" ] && fail "ill-conditioned: a model was written"
# Kernel-weight learning on the same rows: the polynomial kernel reaches 6e19, the SVM objective 5e-16,
# and no SVM tolerance can certify the MKL gap: every solver stops with a message naming the scale
for solver in "--solver silp --p 1" "--solver silp --p 2" "--solver wrapper" "--solver simplemkl --p 1" "" "--shared-weights"; do
    # shellcheck disable=SC2086
    if expect_status 1 "$KM" train -q --mkl lp $solver --kernel linear --kernel poly:degree=2 "$WORK/ill" "$WORK/ill.model"; then
        expect_one_line_error "MKL duality gap cannot be certified: the objective \(4\.71e-16\).*kernel values reach 6\.41e\+19 \(kernel 2\): scale the features"
    fi
    [ -e "$WORK/ill.model" ] && fail "ill-conditioned MKL ($solver): a model was written"
done
# A gap that a smaller SVM tolerance does certify: the solver tightens its tolerance by itself, down to
# 1e-4 times -e (-e 0.5, and -e 5, where the SVM leaves every variable at 0 and the dual is 0); beyond
# that the warning names the -e that certifies it, and that works
for e in 0.5 5; do
    for solver in silp wrapper interleaved; do
        if expect_status 0 "$KM" train -e $e --mkl lp --p 2 --solver $solver --kernel 'rbf:gamma=2^-3..2^1/mean' "$D" "$WORK/e.model"; then
            [ -s "$WORK/err" ] && fail "$solver -e $e warns: $(cat "$WORK/err")"
            expect_status 0 "$KM" info --json "$WORK/e.model" &&
                { json_get "$WORK/out" "int(j['machines'][0]['converged'] and j['machines'][0]['duality_gap'] <= 1e-3)" |
                    grep -qx 1 || fail "$solver -e $e: not certified to the target gap"; }
        fi
    done
done
if expect_status 0 "$KM" train -e 1e4 --mkl lp --p 2 --solver silp --kernel 'rbf:gamma=2^-3..2^1/mean' "$D" "$WORK/e.model"; then
    suggested=$(sed -n 's/.*tightened from -e 10000 to 1, limits the certificate (try -e \([0-9.e+-]*\)).*/\1/p' "$WORK/err")
    [ -n "$suggested" ] || fail "silp -e 1e4: no suggested tolerance: $(cat "$WORK/err")"
    expect_status 0 "$KM" train -e "${suggested:-1}" --mkl lp --p 2 --solver silp --kernel 'rbf:gamma=2^-3..2^1/mean' "$D" "$WORK/e.model" &&
        { [ -s "$WORK/err" ] && fail "silp -e $suggested still warns: $(cat "$WORK/err")"; }
fi
# the same rows scaled train at once
expect_status 0 "$KM" scale -l -1 -u 1 "$WORK/ill" "$WORK/ill.scaled"
expect_status 0 "$KM" train -q --kernel linear "$WORK/ill.scaled" "$WORK/ill.model"
expect_status 0 "$KM" train -q --mkl lp --solver silp --kernel linear --kernel poly:degree=2 "$WORK/ill.scaled" "$WORK/ill.model"

# Kernel-weight learning whose Gram matrices do not fit -m warns once, with the -m that holds them
# (1500 x 1500 doubles = 17.2 MiB, in half of the cache: -m 36); that -m trains silently to the same
# weights.
"$PYTHON" - "$WORK/wide60" <<'PY'
import sys
import numpy as np
rng = np.random.default_rng(1)
X = rng.normal(size=(1500, 60))
y = np.where(X[:, 0] + 0.3 * rng.normal(size=1500) > 0, 1, -1)
with open(sys.argv[1], "w") as f:
    for i in range(1500):
        f.write("%d %s\n" % (y[i], " ".join("%d:%.4f" % (j + 1, X[i, j]) for j in range(60))))
PY
weights() { sed -n 's/.*kernel weights //p' "$WORK/out" "$WORK/err"; }
if expect_status 0 "$KM" train --mkl lp --kernel rbf:gamma=0.001,0.01,0.1 -m 10 "$WORK/wide60" "$WORK/w10.model"; then
    [ "$(grep -c warning "$WORK/err")" = 1 ] && grep -q "do not fit in the kernel cache (-m 10).*-m 36 would hold them" "$WORK/err" ||
        fail "cache warning: $(grep warning "$WORK/err")"
    small=$(weights)
    expect_status 0 "$KM_REFERENCE" train --mkl lp --kernel rbf:gamma=0.001,0.01,0.1 -m 36 "$WORK/wide60" "$WORK/w36.model" &&
        { grep -q warning "$WORK/err" && fail "-m 36 still warns: $(cat "$WORK/err")"; }
    [ -n "$small" ] && [ "$small" = "$(weights)" ] || fail "cache warning: weights '$small' and '$(weights)' differ"
fi

# The machines of a multiclass split each take the Gram matrix of their own rows: with 3 classes of about
# 200 rows, -m 4 cannot hold the 600 x 600 dot products (2.7 MiB, over half of it) but holds a pair's (at
# most 417 x 417, 1.3 MiB, and its gathered rows): no columns are recomputed, so no warning; -m 2 holds
# neither and warns once. Both predict the training rows alike.
"$PYTHON" - "$WORK/three" <<'PY'
import sys
import numpy as np
rng = np.random.default_rng(2)
X = rng.normal(size=(600, 40))
y = np.where(X[:, 0] > 0.45, 2, np.where(X[:, 0] < -0.45, 0, 1))
with open(sys.argv[1], "w") as f:
    for i in range(600):
        f.write("%d %s\n" % (y[i], " ".join("%d:%.4f" % (j + 1, X[i, j]) for j in range(40))))
PY
for m in 4 2; do
    expect_status 0 "$KM" train --mkl lp --kernel rbf:gamma=0.002,0.02,0.2 -m $m "$WORK/three" "$WORK/three$m.model" &&
        grep warning "$WORK/err" >"$WORK/three$m.err"
    expect_status 0 "$KM" predict -q "$WORK/three" "$WORK/three$m.model" "$WORK/three$m.predictions"
done
[ ! -s "$WORK/three4.err" ] || fail "multiclass machines with -m 4 warn: $(cat "$WORK/three4.err")"
[ "$(grep -c "do not fit in the kernel cache (-m 2)" "$WORK/three2.err")" = 1 ] ||
    fail "multiclass machines with -m 2: $(cat "$WORK/three2.err")"
cmp -s "$WORK/three4.predictions" "$WORK/three2.predictions" || fail "-m 4 and -m 2 predict differently"

# --max-time ends an SVM solve in progress too: with 0.3 s, the first solve of the wrapper and SILP
# (8,000 noisy rows, C = 1000, -e 1e-6: tens of thousands of iterations) stops at the deadline,
# far short of the iterations that the same solve takes to finish (--max-outer 1)
# (not under valgrind: the whole solve alone takes minutes there)
if [ -z "${KM_UNDER_VALGRIND:-}" ]; then
"$PYTHON" - "$WORK/slow" <<'PY'
import sys, numpy as np
rng = np.random.default_rng(1)
X = rng.normal(size=(8000, 10)); y = np.where(rng.random(8000) < 0.5, 1, -1)
with open(sys.argv[1], "w") as f:
    for row, label in zip(X, y):
        f.write(f"{label} " + " ".join(f"{j + 1}:{v:.6g}" for j, v in enumerate(row)) + "\n")
PY
iterations() { "$KM" info --json "$1" | "$PYTHON" -c "import json,sys; print(json.load(sys.stdin)['machines'][0]['iterations'])"; }
slow="-c 1000 -e 1e-6 --mkl lp --kernel rbf:gamma=1,2"
# both solvers start with the same SVM solve at the uniform weights (one thread: the solve alone)
# shellcheck disable=SC2086
if OMP_NUM_THREADS=1 expect_status 0 "$KM" train $slow --solver wrapper --max-outer 1 "$WORK/slow" "$WORK/whole.model"; then
    whole=$(iterations "$WORK/whole.model")
    for solver in wrapper silp; do
        # shellcheck disable=SC2086
        if OMP_NUM_THREADS=1 expect_status 0 "$KM" train $slow --solver $solver --max-time 0.3 "$WORK/slow" "$WORK/timed.model"; then
            grep -q "stopped at the time limit" "$WORK/err" || fail "$solver --max-time: no warning: $(cat "$WORK/err")"
            timed=$(iterations "$WORK/timed.model")
            [ "$timed" -lt $((whole / 2)) ] || fail "$solver --max-time 0.3: $timed solver iterations, the whole solve $whole"
            expect_status 0 "$KM" predict -q "$WORK/slow" "$WORK/timed.model" "$WORK/timed.pred"
        fi
    done
fi
fi
finish
