# kernelmix info: one line per kernel (weight, block norm, alignment with the labels, spec), the same
# values in --json as an array of objects, one per kernel (means over the machines, and per machine);
# the JSON is valid for every kind of model, with null for values that are unknown or not finite
# (p = inf, fixed weights without block norms, one-class without labels).
. "$(dirname "$0")/lib.sh" "$@"

head -n 90 "$DATA/heart_scale" >"$WORK/heart"
awk 'BEGIN { for (i = 0; i < 60; i++) { c = i % 3; printf "%d 1:%.3f 2:%.3f\n", c + 1, c + (i % 7) / 10, (i % 5) / 10 - c } }' \
    </dev/null >"$WORK/three"
kernels="--kernel linear --kernel rbf:gamma=2^-1..2^1/mean"

# strict_json FILE: valid JSON for json.tool and without the NaN / Infinity extensions Python accepts
strict_json() {
    "$PYTHON" -m json.tool "$1" >/dev/null 2>"$WORK/json_err" || { fail "$1: not JSON: $(cat "$WORK/json_err")"; return 1; }
    "$PYTHON" -c "import json,sys
def reject(c): raise ValueError('bare ' + c)
json.load(open(sys.argv[1]), parse_constant=reject)" "$1" 2>"$WORK/json_err" ||
        { fail "$1: $(tail -n 1 "$WORK/json_err")"; return 1; }
}

# check_model NAME TRAIN_FILE TRAIN_OPTIONS...: trains, then compares info's kernel lines and JSON
check_model() {
    name=$1
    data=$2
    shift 2
    expect_status 0 "$KM" train -q "$@" "$data" "$WORK/$name.model" || return
    expect_status 0 "$KM" info --json "$WORK/$name.model" && cp "$WORK/out" "$WORK/$name.json"
    strict_json "$WORK/$name.json" || return
    expect_status 0 "$KM" info "$WORK/$name.model" && cp "$WORK/out" "$WORK/$name.txt"
    # the text's kernel lines against the JSON, value by value
    "$PYTHON" - "$WORK/$name.json" "$WORK/$name.txt" <<'PY' || fail "$name: $(cat "$WORK/check")"
import json, math, re, sys
j = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read().splitlines()
problems = []
K, M = len(j["machines"]), len(j["kernels"])
head = [k for k, line in enumerate(text) if line.startswith("kernels ")][0]
if text[head + 1].split() != ["#", "weight", "block", "norm", "alignment", "spec"]:
    problems.append("header %r" % text[head + 1])
if ("mean over the machines" in text[head]) != (K > 1):
    problems.append("kernel count line %r with %d machines" % (text[head], K))
def same(shown, value):
    return shown == "-" if value is None else abs(float(shown) - value) <= 1e-5 * max(1.0, abs(value))
for m, kernel in enumerate(j["kernels"]):
    if set(kernel) != {"spec", "weight", "block_norm", "alignment", "weights", "block_norms"}:
        problems.append("kernel %d keys %s" % (m + 1, sorted(kernel)))
    weights = [machine["kernel_weights"][m] for machine in j["machines"]]
    if kernel["weights"] != weights or not math.isclose(kernel["weight"], sum(weights) / K, rel_tol=1e-12):
        problems.append("kernel %d weights %s vs machines %s" % (m + 1, kernel["weights"], weights))
    norms = [machine.get("block_norms", [None] * M)[m] for machine in j["machines"]]
    if (kernel["block_norms"] or [None] * K) != norms:
        problems.append("kernel %d block norms %s vs machines %s" % (m + 1, kernel["block_norms"], norms))
    if kernel["block_norms"] and not math.isclose(kernel["block_norm"], sum(norms) / K, rel_tol=1e-12):
        problems.append("kernel %d mean block norm" % (m + 1))
    target = (j["alignment"] or {}).get("target")
    if kernel["alignment"] != (target[m] if target else None):
        problems.append("kernel %d alignment" % (m + 1))
    fields = text[head + 2 + m].split(None, 4)
    if fields[0] != str(m + 1) or fields[4] != kernel["spec"] or not same(fields[1], kernel["weight"]) or \
            not same(fields[2], kernel["block_norm"]) or not same(fields[3], kernel["alignment"]):
        problems.append("text line %r vs %s" % (text[head + 2 + m], kernel))
if problems:
    open(sys.argv[1].rsplit("/", 1)[0] + "/check", "w").write("; ".join(problems))
    sys.exit(1)
PY
}

check_model lp "$WORK/heart" $kernels --mkl lp --p 1
check_model multi "$WORK/three" $kernels --mkl lp --p 2
check_model shared "$WORK/three" $kernels --mkl lp --p 2 --shared-weights
check_model inf "$WORK/heart" $kernels --mkl lp --p inf
check_model tikhonov "$WORK/heart" $kernels --mkl tikhonov
check_model fixed "$WORK/heart" $kernels --weights 1,2,3,4
check_model oneclass "$WORK/heart" $kernels -s 2 --mkl lp --p 2
check_model svr "$WORK/heart" $kernels -s 3 --mkl elasticnet

# the values that are not numbers are null
[ "$(json_get "$WORK/inf.json" "j['mkl']['p']")" = None ] || fail "p = inf is not null"
[ "$(json_get "$WORK/fixed.json" "[k['block_norm'] for k in j['kernels']] == [None] * 4 and [k['weight'] for k in j['kernels']] == [1, 2, 3, 4]")" = True ] ||
    fail "fixed weights: $(cat "$WORK/fixed.json")"
[ "$(json_get "$WORK/oneclass.json" "[k['alignment'] for k in j['kernels']]")" = "[None, None, None, None]" ] ||
    fail "one-class: alignment with labels it does not have"
[ "$(json_get "$WORK/multi.json" "len(j['machines']) == 3 and len(j['kernels'][0]['weights']) == 3")" = True ] ||
    fail "multiclass: three machines per kernel"
# shared weights: every machine has the kernel's one weight
[ "$(json_get "$WORK/shared.json" "all(len(set(k['weights'])) == 1 and k['weight'] == k['weights'][0] for k in j['kernels'])")" = True ] ||
    fail "shared weights differ by machine"
finish
