# lp-norm MKL from the command line: the p conventions, p = inf as the uniform sum, the duality
# certificate in the model, switched-off kernels at p = 1, and kernels constant on the training rows.
. "$(dirname "$0")/lib.sh" "$@"

KERNELS="--kernel rbf:gamma=2^-2..2^0/mean --kernel linear"
objective() { json_get "$1" "repr(j['machines'][0]['objective'])"; }
theta() { json_get "$1" "' '.join(repr(v) for v in j['machines'][0]['kernel_weights'])"; }

# --p q and --p-block 2q/(q+1) are the same problem: same weights and objective
for pair in "2 4/3" "3 3/2"; do
    set -- $pair
    expect_status 0 "$KM" train -q $KERNELS --mkl lp --p "$1" "$DATA/heart_scale" "$WORK/by_p" || continue
    expect_status 0 "$KM" info --json "$WORK/by_p" && cp "$WORK/out" "$WORK/by_p.json"
    expect_status 0 "$KM" train -q $KERNELS --mkl lp --p-block "$2" "$DATA/heart_scale" "$WORK/by_block" || continue
    expect_status 0 "$KM" info --json "$WORK/by_block" && cp "$WORK/out" "$WORK/by_block.json"
    near "$(objective "$WORK/by_p.json")" "$(objective "$WORK/by_block.json")" 1e-12 ||
        fail "--p $1 and --p-block $2 objectives differ"
    [ "$(theta "$WORK/by_p.json")" = "$(theta "$WORK/by_block.json")" ] || fail "--p $1 and --p-block $2 weights differ"
    # the certificate: converged, relative gap at most the default target 1e-3, ||theta||_p = 1
    [ "$(json_get "$WORK/by_p.json" "j['machines'][0]['converged']")" = True ] || fail "--p $1 did not converge"
    json_get "$WORK/by_p.json" "int(j['machines'][0]['duality_gap'] <= 1e-3)" | grep -qx 1 || fail "--p $1: gap above 1e-3"
    json_get "$WORK/by_p.json" "int(abs(sum(v**$1 for v in j['machines'][0]['kernel_weights']) - 1) < 1e-9)" |
        grep -qx 1 || fail "--p $1: ||theta||_p != 1"
done

# p = inf is the SVM on the uniform sum: same objective (1e-6) and the same predictions
if expect_status 0 "$KM" train -q $KERNELS -e 1e-8 --mkl lp --p inf "$DATA/heart_scale" "$WORK/inf" &&
    expect_status 0 "$KM" train -q $KERNELS -e 1e-8 "$DATA/heart_scale" "$WORK/sum"; then
    expect_status 0 "$KM" info --json "$WORK/inf" && cp "$WORK/out" "$WORK/inf.json"
    expect_status 0 "$KM" info --json "$WORK/sum" && cp "$WORK/out" "$WORK/sum.json"
    near "$(objective "$WORK/inf.json")" "$(objective "$WORK/sum.json")" 1e-6 || fail "p = inf objective differs from the uniform sum"
    expect_status 0 "$KM" predict -q "$DATA/heart_scale" "$WORK/inf" "$WORK/inf.pred"
    expect_status 0 "$KM" predict -q "$DATA/heart_scale" "$WORK/sum" "$WORK/sum.pred"
    cmp -s "$WORK/inf.pred" "$WORK/sum.pred" || fail "p = inf predictions differ from the uniform sum"
fi

# p = 1 with the default solver: weights below 1e-8 of the largest are switched off (exactly 0, spec
# 3.6); --verbose, info and info --json report how many, and no weight is left in (0, 1e-8 max)
if expect_status 0 "$KM" train --verbose --kernel linear:features=each --kernel 'rbf:gamma=2^-2..2^0/mean' \
    --mkl lp --p 1 "$DATA/heart_scale" "$WORK/p1"; then
    off=$(sed -n 's/^\([0-9]*\) of 16 kernels switched off (weight 0)$/\1/p' "$WORK/err")
    [ -n "$off" ] && [ "$off" -ge 1 ] || fail "p = 1: --verbose does not report switched-off kernels"
    expect_status 0 "$KM" info "$WORK/p1"
    grep -qx "    switched off: $off of 16 kernels (weight 0)" "$WORK/out" || fail "p = 1: info does not report $off kernels off"
    expect_status 0 "$KM" info --json "$WORK/p1" && cp "$WORK/out" "$WORK/p1.json"
    json_get "$WORK/p1.json" "j['machines'][0]['switched_off'] == sum(v == 0 for v in j['machines'][0]['kernel_weights'])" |
        grep -qx True || fail "p = 1: switched_off is not the number of zero weights"
    json_get "$WORK/p1.json" "j['machines'][0]['switched_off']" | grep -qx "$off" || fail "p = 1: --json and --verbose differ"
    json_get "$WORK/p1.json" "int(j['machines'][0]['converged'] and j['machines'][0]['duality_gap'] <= 1e-3)" |
        grep -qx 1 || fail "p = 1: not converged to the gap 1e-3"
    json_get "$WORK/p1.json" "int(all(v == 0 or v >= 1e-8 * max(w) for w in [j['machines'][0]['kernel_weights']] for v in w))" |
        grep -qx 1 || fail "p = 1: a weight below 1e-8 of the largest was not switched off"
fi

# The default stopping rule (gap 1e-3 and a weight step of at most 1e-4) leaves the weights within 1e-3
# of a tight solve (SVM tolerance and gap 1e-6, weight step 1e-7); the gap alone (--mkl-theta-eps 1) stops 2e-2 away on
# this problem, the gap being second order in the weights' error
weights() { "$KM" info --json "$1" >"$WORK/w.json" && json_get "$WORK/w.json" "' '.join(repr(v) for v in j['machines'][0]['kernel_weights'])"; }
widths='rbf:gamma=2^-5..2^4/mean'
if expect_status 0 "$KM" train -q --kernel "$widths" --mkl lp --p 4/3 "$DATA/heart_scale" "$WORK/default" &&
    expect_status 0 "$KM" train -q --kernel "$widths" --mkl lp --p 4/3 --mkl-theta-eps 1 "$DATA/heart_scale" "$WORK/gap" &&
    expect_status 0 "$KM_REFERENCE" train -q --kernel "$widths" --mkl lp --p 4/3 -e 1e-6 --mkl-eps 1e-6 --mkl-theta-eps 1e-7 "$DATA/heart_scale" "$WORK/tight"; then
    largest() { "$PYTHON" -c "import sys; a, b = (list(map(float, s.split())) for s in sys.argv[1:]); print(max(abs(x - y) for x, y in zip(a, b)))" "$1" "$2"; }
    off=$(largest "$(weights "$WORK/default")" "$(weights "$WORK/tight")")
    near "$off" 0 1e-3 || fail "default weights are $off from the tight solve (at most 1e-3)"
    off_gap=$(largest "$(weights "$WORK/gap")" "$(weights "$WORK/tight")")
    "$PYTHON" -c "import sys; sys.exit(0 if float('$off_gap') > 5e-3 else 1)" ||
        fail "the gap alone stops $off_gap from the tight solve: this check no longer tells the rules apart"
fi

# a Gaussian far wider than the data is constant on it: MKL leaves it out with one warning naming it and
# gives it weight 0; the other weights and the decision values are those of training without it, and
# info and predict read the model with all its kernels. Every kernel constant leaves nothing to learn.
# The SVM solves to -e 1e-9: at the default tolerance two runs of the same problem may stop at solutions
# whose decision values differ by up to about -e (the builds' rounding differs).
for method in "lp --p 4/3" align; do
    expect_status 0 "$KM" train -e 1e-9 --kernel linear --kernel rbf:gamma=1e-12 --kernel rbf:gamma=2^-3 \
        --mkl $method "$DATA/heart_scale" "$WORK/with" || continue
    expect_one_line_error '^kernelmix train: warning: kernel 2 \(rbf:gamma=1e-12\) is constant on the training rows: weight 0$'
    expect_status 0 "$KM" train -q -e 1e-9 --kernel linear --kernel rbf:gamma=2^-3 --mkl $method "$DATA/heart_scale" \
        "$WORK/without"
    expect_status 0 "$KM" info --json "$WORK/with" && cp "$WORK/out" "$WORK/with.json"
    expect_status 0 "$KM" info --json "$WORK/without" && cp "$WORK/out" "$WORK/without.json"
    set -- $(theta "$WORK/with.json")
    [ "$#" = 3 ] && [ "$2" = 0 ] || fail "--mkl $method: the constant kernel's weight is not 0: $*"
    with="$1 $3"
    set -- $(theta "$WORK/without.json")
    near "$(echo $with | cut -d' ' -f1)" "$1" 1e-6 && near "$(echo $with | cut -d' ' -f2)" "$2" 1e-6 ||
        fail "--mkl $method: weights $with differ from $* without the constant kernel"
    expect_status 0 "$KM" predict -q --decision-values "$DATA/heart_scale" "$WORK/with" "$WORK/with.pred"
    expect_status 0 "$KM" predict -q --decision-values "$DATA/heart_scale" "$WORK/without" "$WORK/without.pred"
    "$PYTHON" -c "import sys; a, b = ([list(map(float, l.split())) for l in open(f)] for f in sys.argv[1:])
sys.exit(0 if len(a) == len(b) and all(x[0] == y[0] and abs(x[1] - y[1]) <= 1e-6 * max(1, abs(y[1])) for x, y in zip(a, b)) else 1)" \
        "$WORK/with.pred" "$WORK/without.pred" || fail "--mkl $method: predictions differ without the constant kernel"
done
expect_status 2 "$KM" train --kernel rbf:gamma=1e-15 --kernel rbf:gamma=1e-14 --mkl lp "$DATA/heart_scale" "$WORK/m" &&
    expect_one_line_error 'every kernel is constant on the training rows: there are no kernel weights to learn'
[ -e "$WORK/m" ] && fail "a model was written with every kernel constant"
expect_status 0 "$KM" train -q --kernel linear --kernel rbf:gamma=1e-15 "$DATA/heart_scale" "$WORK/m"

# p = 1 at a large C (heart_scale, 10 RBF widths): the SVM's own gap at -e 1e-3 holds the certificate at
# 5e-3 (C = 16) and 1.4e-2 (C = 64) while the weights creep, and the interleaved solver used to run to its
# 10,000-step limit. Once the weights settle the certificate shows where the gap is, the tolerance is
# tightened, and the run certifies 1e-3 in some 700 steps, its objective within the larger of the two gaps
# of a tighter solve's (-e 1e-4, gap 1e-4: both primals lie above the optimum by at most their own gap).
P1_MKL="--mkl lp --p 1 --kernel rbf:gamma=2^-4..2^5/mean"
expect_status 0 "$KM_REFERENCE" train -q $P1_MKL -c 16 -e 1e-4 --mkl-gap 1e-4 "$DATA/heart_scale" "$WORK/p1_tight.model" &&
    expect_status 0 "$KM" info --json "$WORK/p1_tight.model" && cp "$WORK/out" "$WORK/p1_tight.json"
for C in 16 64; do
    if expect_status 0 "$KM" train $P1_MKL -c $C "$DATA/heart_scale" "$WORK/p1.model"; then
        [ -s "$WORK/err" ] && fail "p = 1, C = $C: a default MKL run warns: $(head -1 "$WORK/err")"
        expect_status 0 "$KM" info --json "$WORK/p1.model" && cp "$WORK/out" "$WORK/p1.json"
        "$PYTHON" - "$WORK/p1.json" "$WORK/p1_tight.json" "$C" <<'PY' || fail "p = 1, C = $C: the default run is not certified"
import json, sys
(m,), (t,) = (json.load(open(path))["machines"] for path in sys.argv[1:3])
assert m["converged"] and m["duality_gap"] <= 1e-3 and m["mkl_iterations"] <= 2000, (m["duality_gap"], m["mkl_iterations"])
if sys.argv[3] == "16":
    assert t["converged"] and t["duality_gap"] <= 1e-4, t["duality_gap"]
    bound = max(m["duality_gap"] * abs(m["primal"]), t["duality_gap"] * abs(t["primal"]))
    assert abs(m["primal"] - t["primal"]) <= bound, (m["primal"], t["primal"])
PY
    fi
done

# A default run reaches its own gap target where the SVM tolerance -e 1e-3 alone would leave the
# certificate loose: scikit-learn's digits (features 0..16, so linear kernel values in the thousands and
# one-vs-one objectives of about 3e-3) stall at gaps of 0.01 to 0.6 at the fixed point of theta until the
# solver tightens its tolerance. For every solver: no warning; every machine converged with gap <= 1e-3;
# objectives within the gap of a tight solve (-e 1e-9, gap 1e-7), and the interleaved solver's weights
# within 1e-4 of it (the alternating solvers' within 1e-2: the RBF kernels of widths 2^-3/mean.. are nearly
# constant, their weights barely change the objective).
DIGITS=/usr/lib/python3/dist-packages/sklearn/datasets/data/digits.csv.gz
if [ -r "$DIGITS" ]; then
    "$PYTHON" -c "import gzip,sys; sys.stdout.writelines(gzip.open(sys.argv[1], 'rt').readlines()[:300])" "$DIGITS" \
        >"$WORK/digits.csv"
    DIGITS_MKL="--mkl lp --kernel rbf:gamma=2^-3..2^1/mean --kernel linear"
    expect_status 0 "$KM_REFERENCE" train -q $DIGITS_MKL -e 1e-9 --mkl-eps 1e-7 --mkl-theta-eps 1e-7 "$WORK/digits.csv" \
        "$WORK/digits_tight.model" && expect_status 0 "$KM" info --json "$WORK/digits_tight.model" &&
        cp "$WORK/out" "$WORK/digits_tight.json"
    for solver in interleaved:1e-4 wrapper:1e-2 silp:1e-2; do
        if expect_status 0 "$KM" train $DIGITS_MKL --solver "${solver%:*}" "$WORK/digits.csv" "$WORK/digits.model"; then
            [ -s "$WORK/err" ] && fail "digits, ${solver%:*}: a default MKL run warns: $(head -1 "$WORK/err")"
            expect_status 0 "$KM" info --json "$WORK/digits.model" && cp "$WORK/out" "$WORK/digits.json"
            "$PYTHON" - "$WORK/digits.json" "$WORK/digits_tight.json" "${solver#*:}" <<'PY' ||
import json, sys
default, tight = ([m for m in json.load(open(path))["machines"]] for path in sys.argv[1:3])
assert len(default) == 45
for d, t in zip(default, tight):
    assert d["converged"] and d["duality_gap"] <= 1e-3, (d["duality_gap"], d["converged"])
    assert abs(d["objective"] - t["objective"]) <= 1e-3 * abs(t["objective"]), (d["objective"], t["objective"])
    assert max(abs(a - b) for a, b in zip(d["kernel_weights"], t["kernel_weights"])) <= float(sys.argv[3])
PY
                fail "digits, ${solver%:*}: the default run is not certified"
        fi
    done
    # Weights shared by the 45 machines: the joint gap stands near 3e-3 at -e 1e-3 while the weights settle.
    # Once they have, the certificate's bound on the SVMs' own gap shows that only a tighter tolerance closes
    # it, and the solver tightens at once (11 outer steps) instead of waiting for the gap to stall over 20
    # (33 steps).
    if expect_status 0 "$KM" train $DIGITS_MKL --shared-weights "$WORK/digits.csv" "$WORK/digits_shared.model"; then
        [ -s "$WORK/err" ] && fail "digits, shared weights: a default MKL run warns: $(head -1 "$WORK/err")"
        expect_status 0 "$KM" info --json "$WORK/digits_shared.model" && cp "$WORK/out" "$WORK/digits_shared.json"
        "$PYTHON" - "$WORK/digits_shared.json" <<'PY' || fail "digits, shared weights: not certified within 15 outer steps"
import json, sys
machines = json.load(open(sys.argv[1]))["machines"]
assert all(m["converged"] and m["duality_gap"] <= 1e-3 for m in machines)
assert machines[0]["mkl_iterations"] <= 15, machines[0]["mkl_iterations"]
PY
    fi
fi

finish
