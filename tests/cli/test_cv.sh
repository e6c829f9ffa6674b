#!/bin/bash
# kernelmix cv: one JSON line per setting of the grid (the Cartesian product of the lists and ranges,
# or the lines of --settings) with "options", "scores", "mean", "std" and *_seconds, the best last by
# the documented tie rule; the lines draw with plot cv; --validation scores as train + predict do;
# --refit writes the model train writes for the best options; --nested adds the outer estimate; -q
# keeps stderr empty; bad input is one line, exit status 2, nothing written.
. "$(dirname "$0")/lib.sh" "$@"
head -n 150 "$DATA/heart_scale" >"$WORK/all"
head -n 100 "$WORK/all" >"$WORK/train"
tail -n 50 "$WORK/all" >"$WORK/valid"
kernels=(--kernel 'rbf:gamma=2^-2..2^1/mean' --kernel linear --norm mult)

"$KM" cv -q --json "${kernels[@]}" -c 2^-1..2^3:2 --mkl lp --p 1,2 --folds 3 "$WORK/train" >"$WORK/grid.jsonl" 2>"$WORK/err" ||
    fail "cv --json: $(cat "$WORK/err")"
[ -s "$WORK/err" ] && fail "-q printed on stderr: $(cat "$WORK/err")"
"$PYTHON" - "$WORK/grid.jsonl" <<'PY' || fail "the JSON lines of cv"
import json, statistics, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
rows, best = lines[:-1], lines[-1]["best"]
assert list(lines[-1]) == ["best"], lines[-1]
# -c 2^-1, 2^1, 2^3 (exponent step 2) times --p 1, 2, the first axis slowest
want = [f"--kernel rbf:gamma=2^-2..2^1/mean --kernel linear --norm mult -c 2^{c} --mkl lp --p {p}"
        for c in (-1, 1, 3) for p in (1, 2)]
assert [r["options"] for r in rows] == want, [r["options"] for r in rows]
for r in rows:
    assert r["metric"] == "accuracy" and len(r["scores"]) == 3, r
    assert abs(r["mean"] - statistics.mean(r["scores"])) < 1e-12
    assert abs(r["std"] - statistics.stdev(r["scores"])) < 1e-12
    assert r["fit_seconds"] >= 0 and r["support_vectors"] > 0 and len(r["kernel_weights"]) == 5
# the best mean; among equal means the smaller C, then the larger p
def key(r):
    o = r["options"].split()
    return (-round(r["mean"], 12), 2.0 ** int(o[o.index("-c") + 1][2:]), -float(o[-1]))
assert best == min(rows, key=key), (best, min(rows, key=key))
PY
"$KM" plot cv "$WORK/grid.jsonl" "$WORK/grid.svg" || fail "plot cv of cv's lines"
grep -q 'class="best"' "$WORK/grid.svg" || fail "plot cv: no best cell outlined"

# the folds of train -v K with the same seed: each fold's accuracy, there in percent; -g as an axis
"$KM" cv -q --json -g 2^-3..2^1:2 -c 4 --seed 3 --folds 4 "$WORK/train" >"$WORK/gamma.jsonl" || fail "cv -g"
for g in 2^-3 2^-1 2^1; do
    "$KM" train -q -v 4 --json -g "$g" -c 4 --seed 3 "$WORK/train"
done >"$WORK/train-v.jsonl"
"$PYTHON" - "$WORK/gamma.jsonl" "$WORK/train-v.jsonl" <<'PY' || fail "cv and train -v differ"
import json, sys
cv = [json.loads(l) for l in open(sys.argv[1])][:-1]
tv = [json.loads(l) for l in open(sys.argv[2])]
assert [r["options"] for r in cv] == [f"-g 2^{e} -c 4 --seed 3" for e in (-3, -1, 1)], [r["options"] for r in cv]
for a, b in zip(cv, tv):
    assert all(abs(100 * x - y) < 1e-9 for x, y in zip(a["scores"], b["scores"])), (a, b)
PY
# train -v's text: the pooled accuracy, then each fold's with their mean and standard deviation
"$KM" train -q -v 4 -g 2^-1 -c 4 --seed 3 "$WORK/train" >"$WORK/train-v.txt" || fail "train -v"
"$PYTHON" - "$WORK/train-v.txt" "$WORK/gamma.jsonl" <<'PY' || fail "train -v's folds line: $(cat "$WORK/train-v.txt")"
import json, re, sys
text = open(sys.argv[1]).read().splitlines()
assert len(text) == 2 and text[0].startswith("Cross Validation Accuracy = "), text
m = re.fullmatch(r"Cross Validation Accuracy per fold: (.*) \(mean (\S+)%, standard deviation (\S+)\)", text[1])
folds = [float(v.rstrip("%")) for v in m.group(1).split()]
cv = [json.loads(l) for l in open(sys.argv[2])][1]   # -g 2^-1
assert len(folds) == 4 and all(abs(a - 100 * b) < 1e-3 for a, b in zip(folds, cv["scores"])), (folds, cv)
assert abs(float(m.group(2)) - 100 * cv["mean"]) < 1e-3, (m.group(2), cv["mean"])
assert abs(float(m.group(3)) - 100 * cv["std"]) <= 5e-3 * 100 * cv["std"], (m.group(3), cv["std"])
PY

# --kernels-grid: an axis of kernel sets, each setting as cv with --kernels FILE alone
printf 'rbf:gamma=2^-2..2^1/mean\nlinear\n' >"$WORK/set-a"
printf 'poly:degree=2\nlinear\n' >"$WORK/set-b"
"$KM" cv -q --json --kernels-grid "$WORK/set-a,$WORK/set-b" -c 1,4 --mkl lp --folds 3 "$WORK/train" >"$WORK/sets.jsonl" ||
    fail "cv --kernels-grid"
for f in set-a set-b; do
    "$KM" cv -q --json --kernels "$WORK/$f" -c 1,4 --mkl lp --folds 3 "$WORK/train" | head -n 2
done >"$WORK/each-set.jsonl"
"$PYTHON" - "$WORK/sets.jsonl" "$WORK/each-set.jsonl" "$WORK" <<'PY' || fail "--kernels-grid: not the runs of each file"
import json, sys
grid = [json.loads(l) for l in open(sys.argv[1])][:-1]
each = [json.loads(l) for l in open(sys.argv[2])]
assert [r["options"] for r in grid] == [f"--kernels {sys.argv[3]}/{f} -c {c} --mkl lp" for f in ("set-a", "set-b")
                                        for c in (1, 4)], [r["options"] for r in grid]
assert [r["scores"] for r in grid] == [r["scores"] for r in each], (grid, each)
PY
expect_status 2 "$KM" cv --kernels-grid "$WORK/set-a,,$WORK/set-b" "$WORK/train" &&
    expect_one_line_error "option --kernels-grid: .*an empty file name"

# text lines: one per setting, the best last; -o writes the same lines (times aside)
"$KM" cv -q "${kernels[@]}" -c 0.5,2 --folds 3 "$WORK/train" >"$WORK/text" || fail "cv (text)"
[ "$(wc -l <"$WORK/text")" -eq 3 ] && tail -n 1 "$WORK/text" | grep -q '^best: --kernel .* -c ' || fail "text lines: $(cat "$WORK/text")"
"$KM" cv -q "${kernels[@]}" -c 0.5,2 --folds 3 -o "$WORK/text.out" "$WORK/train" >"$WORK/stdout" || fail "cv -o"
untimed() { sed 's/, fit [^ ]* s,/,/' "$1"; }   # the seconds differ from run to run
cmp -s <(untimed "$WORK/text") <(untimed "$WORK/text.out") && [ ! -s "$WORK/stdout" ] || fail "cv -o: not the lines of stdout"

# warm starts along p (lp-norm MKL) score as --cold does, split by split
"$KM" cv -q --mkl lp "${kernels[@]}" -c 0.5,2 --p 1,4/3,2,inf --folds 3 "$WORK/train" >"$WORK/warm" || fail "cv (warm)"
"$KM" cv -q --mkl lp "${kernels[@]}" -c 0.5,2 --p 1,4/3,2,inf --folds 3 --cold "$WORK/train" >"$WORK/cold" || fail "cv --cold"
cmp -s <(sed 's/, fit.*//' "$WORK/warm") <(sed 's/, fit.*//' "$WORK/cold") && [ "$(wc -l <"$WORK/warm")" -eq 9 ] ||
    fail "cv warm and --cold differ: $(diff "$WORK/warm" "$WORK/cold" | head -c 400)"

# --validation: the one score is the accuracy of train + predict on FILE
"$KM" cv -q --json "${kernels[@]}" -c 0.5,4 --validation "$WORK/valid" "$WORK/train" >"$WORK/valid.jsonl" || fail "cv --validation"
for c in 0.5 4; do
    "$KM" train -q "${kernels[@]}" -c "$c" "$WORK/train" "$WORK/c$c.model"
    "$KM" predict -q "$WORK/valid" "$WORK/c$c.model" "$WORK/c$c.out" >/dev/null
    want=$(paste -d' ' <(cut -d' ' -f1 "$WORK/valid") "$WORK/c$c.out" | awk '{ ok += ($1 == $2) } END { printf "%.17g", ok / NR }')
    got=$("$PYTHON" -c 'import json,sys
r = [json.loads(l) for l in open(sys.argv[1])][:-1]
r = [x for x in r if x["options"].endswith(" -c " + sys.argv[2])][0]
assert len(r["scores"]) == 1
print(r["scores"][0])' "$WORK/valid.jsonl" "$c")
    near "$got" "$want" 1e-12 || fail "--validation -c $c: $got, train + predict $want"
done

# --refit: the model of train with the best setting's options, predicting alike
"$KM" cv -q --json "${kernels[@]}" -c 0.5,8 --mkl lp --p 4/3 --folds 3 --score auc --refit "$WORK/refit.model" \
    "$WORK/train" >"$WORK/refit.jsonl" || fail "cv --refit"
best=$(tail -n 1 "$WORK/refit.jsonl" | "$PYTHON" -c 'import json,sys; print(json.loads(sys.stdin.read())["best"]["options"])')
eval "\"\$KM\" train -q $best \"\$WORK/train\" \"\$WORK/best.model\"" || fail "train $best"
"$KM" predict -q "$WORK/valid" "$WORK/refit.model" "$WORK/refit.out" >/dev/null
"$KM" predict -q "$WORK/valid" "$WORK/best.model" "$WORK/best.out" >/dev/null
cmp -s "$WORK/refit.out" "$WORK/best.out" && [ -s "$WORK/refit.out" ] || fail "--refit predicts otherwise than train $best"

# --settings FILE: one setting per line after the command line's options ('#' comments)
printf -- '-c 0.5\n# a comment\n\n-c 2 --mkl lp --p 1,inf\n' >"$WORK/settings"
"$KM" cv -q --json "${kernels[@]}" --folds 3 --settings "$WORK/settings" "$WORK/train" >"$WORK/settings.jsonl" || fail "--settings"
[ "$(grep -c '"options"' "$WORK/settings.jsonl")" -eq 4 ] && grep -q '"options": "--kernel.*--mkl lp --p inf"' "$WORK/settings.jsonl" ||
    fail "--settings lines: $(cat "$WORK/settings.jsonl")"
# a settings line may name everything, kernels included, as --json writes the options: the best line of a
# grid, given back as the only setting, scores alike (the options point into the file's lines, which
# stay while the settings are used)
"$KM" cv -q --json "${kernels[@]}" -c 0.5,4 --mkl lp --p 4/3 --folds 3 "$WORK/train" >"$WORK/grid.jsonl" || fail "cv grid"
tail -n 1 "$WORK/grid.jsonl" | "$PYTHON" -c 'import json,sys; print(json.loads(sys.stdin.read())["best"]["options"])' \
    >"$WORK/best.settings"
printf -- '-c 0.25\n' >>"$WORK/best.settings"
"$KM" cv -q --json --folds 3 --settings "$WORK/best.settings" "$WORK/train" >"$WORK/again.jsonl" || fail "--settings with kernels"
"$PYTHON" - "$WORK/grid.jsonl" "$WORK/again.jsonl" <<'PY' || fail "--settings with kernels: $(cat "$WORK/again.jsonl")"
import json, sys
best = json.loads(open(sys.argv[1]).read().splitlines()[-1])["best"]
again = [json.loads(line) for line in open(sys.argv[2])][:-1]
assert len(again) == 2 and again[0]["options"] == best["options"] and again[0]["scores"] == best["scores"], again
assert again[1]["options"].endswith("-c 0.25"), again[1]["options"]
PY

# --nested: the outer scores and the settings chosen, before the best line
"$KM" cv -q --json "${kernels[@]}" -c 0.1,10 --folds 3 --nested 2 "$WORK/train" >"$WORK/nested.jsonl" || fail "--nested"
"$PYTHON" - "$WORK/nested.jsonl" <<'PY' || fail "the nested line"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
nested = lines[-2]["nested"]
options = [r["options"] for r in lines[:-2]]
assert len(nested["scores"]) == 3 and len(nested["chosen"]) == 3 and set(nested["chosen"]) <= set(options)
for o, chosen in enumerate(nested["chosen"]):   # the outer score is the chosen setting's score on that split
    assert nested["scores"][o] == lines[options.index(chosen)]["scores"][o]
PY

# log loss of probability models (-b 1), lower is better: the best has the least mean
"$KM" cv -q --json -b 1 -c 0.1,1 --folds 3 --score log-loss "$WORK/train" >"$WORK/logloss.jsonl" || fail "--score log-loss"
"$PYTHON" -c 'import json,sys
l = [json.loads(x) for x in open(sys.argv[1])]
assert l[0]["metric"] == "log-loss" and all(s > 0 for r in l[:-1] for s in r["scores"])
assert l[-1]["best"] == min(l[:-1], key=lambda r: r["mean"])' "$WORK/logloss.jsonl" || fail "log-loss lines"
expect_status 2 "$KM" cv -q -c 1 --score log-loss "$WORK/train" && expect_one_line_error 'train with -b 1'

# regression: mse by default, r2 on request
awk '{ $1 = NR % 7; print }' "$WORK/train" >"$WORK/regression"
"$KM" cv -q --json -s svr -c 1,4 --folds 3 --score r2 "$WORK/regression" | grep -q '"metric": "r2"' || fail "regression --score r2"
# a class score of a regression model (its real-valued predictions never equal a label) is refused
for score in accuracy balanced-accuracy mcc auc; do
    expect_status 2 "$KM" cv -q -s krr -c 1,4 --folds 3 --score $score "$WORK/regression" &&
        expect_one_line_error "^kernelmix cv: $score scores classes, and krr [(]a regression task[)] predicts real values"
done

# --progress plain: a line naming the settings; SIGINT stops the grid: status 130, one line, nothing written
"$KM" cv --progress plain "${kernels[@]}" -c 0.5,2 --folds 3 "$WORK/train" >/dev/null 2>"$WORK/progress"
grep -q '^kernelmix cv: 2 settings' "$WORK/progress" || fail "--progress plain: $(cat "$WORK/progress")"
"$KM" cv --progress plain "${kernels[@]}" --mkl lp -c 2^-2..2^8 --p 1,4/3,2,4,inf --loo -o "$WORK/stopped" \
    --refit "$WORK/stopped.model" "$WORK/all" 2>"$WORK/err.interrupted" &
pid=$!
for _ in $(seq 600); do   # the grid has started (its first progress line) when the signal comes
    grep -q 'settings' "$WORK/err.interrupted" && break
    sleep 0.1
done
sleep 0.5
kill -INT "$pid"
wait "$pid"
status=$?
[ "$status" -eq 130 ] || fail "SIGINT: exit status $status"
[ "$(tail -n 1 "$WORK/err.interrupted")" = "kernelmix cv: interrupted; nothing written" ] ||
    fail "SIGINT: stderr $(cat "$WORK/err.interrupted")"
ls "$WORK" | grep -q stopped && fail "SIGINT: an output was written: $(ls "$WORK")"

# bad input: one line, exit status 2, nothing written
for bad in "-c 5..1" "-c 2^1..8" "-c 0,1" "--score recall" "--folds 1" "-v 3" "--lambda 0.1,0.2" "--loo --repeats 2" \
           "--validation $WORK/valid --folds 3" "--unknown 1" "--settings $WORK/missing"; do
    # shellcheck disable=SC2086
    expect_status 2 "$KM" cv -q $bad -o "$WORK/bad.out" "$WORK/train" && expect_one_line_error '^kernelmix cv: '
    [ -e "$WORK/bad.out" ] && fail "cv $bad wrote its output"
done
printf -- '-c 1\n-c 1 --nu 0.5\n' >"$WORK/bad-settings"
expect_status 2 "$KM" cv -q --settings "$WORK/bad-settings" "$WORK/train" && expect_one_line_error "bad-settings:2: "
expect_status 2 "$KM" cv -q -c 1,2 -o "$WORK/train" "$WORK/train" && expect_one_line_error 'input'
expect_status 2 "$KM" cv -q -c 1,2 --refit "$WORK/train" "$WORK/train" && expect_one_line_error 'input'
cmp -s "$WORK/train" <(head -n 100 "$WORK/all") || fail "an input was overwritten"
expect_status 0 "$KM" cv --help && grep -q -- '--refit MODEL' "$WORK/out" || fail "cv --help"
exit $((FAILURES > 0))
