#!/bin/bash
# train --trace: every kernel-weight method that iterates writes a JSON line per outer step; a line with
# both objectives has gap = (P - D)/|P| >= 0 (a bound), iterations count up per machine and fold, the
# last step's weights are the model's (where the method's weights are its iterates) and its iteration
# the model's mkl_iterations; a failed run leaves no trace; train -v K --json gives the fold scores whose
# mean is the accuracy -v prints.
. "$(dirname "$0")/lib.sh" "$@"
head -n 120 "$DATA/heart_scale" >"$WORK/train"
kernels=(--kernel 'rbf:gamma=2^-1..2^1/mean' --kernel linear --norm mult)
check() { # NAME OPTIONS...: trains with a trace and checks it against the model
    name="$1"
    shift
    rm -f "$WORK/trace" "$WORK/model"
    if ! "$KM" train -q "${kernels[@]}" "$@" --trace "$WORK/trace" "$WORK/train" "$WORK/model" >/dev/null 2>"$WORK/err"; then
        fail "$name: training failed: $(cat "$WORK/err")"
        return
    fi
    "$KM" info --json "$WORK/model" >"$WORK/info.json"
    "$PYTHON" - "$name" "$WORK/trace" "$WORK/info.json" <<'PY' || fail "$name: trace check"
import json, sys
name, trace, info = sys.argv[1], [json.loads(line) for line in open(sys.argv[2])], json.load(open(sys.argv[3]))
assert trace, "empty trace"
machine = info["machines"][0]
weights = machine.get("cluster_weights", machine["kernel_weights"])
weights = [w for row in weights for w in row] if isinstance(weights[0], list) else weights
previous = -1
for line in trace:
    assert line["iteration"] > previous, f"iterations do not count up: {line['iteration']} after {previous}"
    previous = line["iteration"]
    # lmkl: each kernel's mean gate (the model keeps a weight set per kernel's gate)
    assert len(line["weights"]) == (4 if name == "lmkl" else len(weights)), (len(line["weights"]), len(weights))
    if "dual" in line and "primal" in line:
        P, D = line["primal"], line["dual"]
        assert abs(line["gap"] - (P - D) / abs(P)) <= 1e-12 and line["gap"] >= -1e-12, line
    elif "gap" in line:
        raise AssertionError(f"a gap without its certificate: {line}")
last = trace[-1]
if name not in ("lmkl", "obscure"):    # their model weights are no iterate (gates; the normalized d)
    assert max(abs(a - b) for a, b in zip(last["weights"], weights)) <= 1e-12, (last["weights"], weights)
if name != "obscure":                  # obscure: the trace counts epochs, the model updates
    assert last["iteration"] == machine["mkl_iterations"], (last["iteration"], machine["mkl_iterations"])
PY
}
check lp-interleaved --mkl lp --p 4/3
check lp-wrapper --mkl lp --p 4/3 --solver wrapper
check silp --mkl lp --p 1 --solver silp
check simplemkl --mkl lp --p 1 --solver simplemkl
check elasticnet --mkl elasticnet
check tikhonov --mkl tikhonov
check eb-rw -s krr --mkl eb-rw
check eb-mackay -s krr --mkl eb-mackay
check l1krr -s krr --mkl l1krr
check l2krr -s krr --mkl l2krr
check clmkl --mkl clmkl --clusters 2
check lmkl --mkl lmkl
check obscure --mkl obscure

# the objectives the trace has per method: EB its -log evidence, no gap (no certificate)
"$KM" train -q "${kernels[@]}" -s krr --mkl eb-rw --trace "$WORK/eb" "$WORK/train" "$WORK/m" >/dev/null
grep -q '"gap"\|"dual"' "$WORK/eb" && fail "eb-rw trace claims a gap or a dual value"
grep -q '"objective"' "$WORK/eb" || fail "eb-rw trace has no objective"

# cross-validation: a trace per fold, and --json's fold scores
"$KM" train -q "${kernels[@]}" --mkl lp --p 4/3 -v 3 --trace "$WORK/cv.trace" "$WORK/train" >/dev/null
for f in 1 2 3; do grep -q "\"fold\": $f," "$WORK/cv.trace" || fail "no trace line of fold $f"; done
"$KM" train -v 4 "${kernels[@]}" --mkl lp --p 4/3 "$WORK/train" >"$WORK/text"
"$KM" train -v 4 --json "${kernels[@]}" --mkl lp --p 4/3 "$WORK/train" >"$WORK/json"
"$PYTHON" - "$WORK/text" "$WORK/json" <<'PY' || fail "-v --json scores"
import json, re, statistics, sys
accuracy = float(re.search(r"Accuracy = ([0-9.]+)%", open(sys.argv[1]).read()).group(1))
line = json.loads(open(sys.argv[2]).read())
assert line["options"] == "--kernel rbf:gamma=2^-1..2^1/mean --kernel linear --norm mult --mkl lp --p 4/3", line
assert len(line["scores"]) == 4 and line["metric"] == "accuracy"
assert abs(line["mean"] - statistics.mean(line["scores"])) < 1e-9
assert abs(line["std"] - statistics.stdev(line["scores"])) < 1e-9
# 120 rows in 4 folds of 30: the mean of the folds' accuracies is the accuracy over all rows
assert abs(line["mean"] - accuracy) < 1e-4, (line["mean"], accuracy)
PY

# bad usage and failures leave nothing
expect_status 2 "$KM" train --json "${kernels[@]}" "$WORK/train" "$WORK/m2" && expect_one_line_error "--json: only with -v"
expect_status 2 "$KM" train "${kernels[@]}" --trace "$WORK/train" "$WORK/train" "$WORK/m3" &&
    expect_one_line_error "same file as the input"
cp "$WORK/train" "$WORK/copy"
cmp -s "$WORK/train" "$WORK/copy" || fail "the training file changed"
printf '1 1:0.5\n-1 1:nan\n' >"$WORK/bad"
expect_status 2 "$KM" train "${kernels[@]}" --mkl lp --trace "$WORK/bad.trace" "$WORK/bad" "$WORK/bad.model"
[ -e "$WORK/bad.trace" ] && fail "a failed training left a trace"
finish
