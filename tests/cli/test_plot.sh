#!/bin/bash
# kernelmix plot: valid SVG (xmllint) whose marks are the data — a bar per kernel with heights in the
# weights' proportions, x on the dropped kernels of empirical Bayes, a heat-map cell per machine or
# cluster and kernel, the best cross-validation cell outlined at the best mean, a line per kernel along
# a path, per machine and fold in a trace — and bad input refused on one line naming the file and line,
# exit status 2, nothing written.
. "$(dirname "$0")/lib.sh" "$@"
command -v xmllint >/dev/null || { echo "SKIP: xmllint (libxml2-utils) is not installed"; exit 77; }
export PYTHONPATH="$ROOT/tests/cli"
head -n 120 "$DATA/heart_scale" >"$WORK/train"
kernels=(--kernel 'rbf:gamma=2^-2..2^1/mean' --kernel 'poly:degree=2:coef0=1' --kernel linear --norm mult)

"$KM" train -q "${kernels[@]}" --mkl lp --p 4/3 --trace "$WORK/trace" "$WORK/train" "$WORK/lp.model"
"$KM" info --json "$WORK/lp.model" >"$WORK/lp.json"
"$KM" plot weights "$WORK/lp.model" >/dev/null || fail "plot weights"
"$KM" plot trace "$WORK/trace" "$WORK/trace.svg" || fail "plot trace"
"$KM" plot trace --x seconds "$WORK/trace" "$WORK/trace-seconds.svg" || fail "plot trace --x seconds"
"$KM" train -q "${kernels[@]}" --mkl lp --p 4/3 -v 3 --trace "$WORK/cv.trace" "$WORK/train" >/dev/null
"$KM" plot trace "$WORK/cv.trace" "$WORK/cv-trace.svg" || fail "plot trace of -v"
awk '{ $1 = ($1 == 1 ? 1 : 2) + (NR % 3 == 0); print }' "$WORK/train" >"$WORK/three"
"$KM" train -q "${kernels[@]}" --mkl lp --p 1 "$WORK/three" "$WORK/three.model"
"$KM" info --json "$WORK/three.model" >"$WORK/three.json"
"$KM" plot weights "$WORK/three.model" "$WORK/three.svg" || fail "plot weights (multiclass)"
"$KM" train -q "${kernels[@]}" --mkl clmkl --clusters 2 "$WORK/train" "$WORK/clmkl.model"
"$KM" plot weights "$WORK/clmkl.model" "$WORK/clmkl.svg" || fail "plot weights (clmkl)"
"$KM" train -q --kernel 'rbf:features=each:gamma=1/mean' --norm mult -s krr --mkl eb-rw "$WORK/train" "$WORK/eb.model"
"$KM" info --json "$WORK/eb.model" >"$WORK/eb.json"
"$KM" plot weights "$WORK/eb.model" "$WORK/eb.svg" || fail "plot weights (eb)"
for c in 0.5 2 8; do
    for p in 1 2; do
        "$KM" train -q -v 3 --json -c "$c" --kernel 'rbf:gamma=2^-1..2^1/mean' --mkl lp --p "$p" "$WORK/train"
    done
done >"$WORK/grid.jsonl"
"$KM" plot cv "$WORK/grid.jsonl" "$WORK/grid.svg" || fail "plot cv (grid)"
"$KM" plot cv --series --p "$WORK/grid.jsonl" "$WORK/series.svg" || fail "plot cv --series"
"$KM" plot cv --series=-c "$WORK/grid.jsonl" "$WORK/series-c.svg" || fail "plot cv --series=-c"
grep -e '--p 2"' "$WORK/grid.jsonl" >"$WORK/line.jsonl"
"$KM" plot cv "$WORK/line.jsonl" "$WORK/line.svg" || fail "plot cv (line)"
"$KM" cv -q --json --folds 3 -c 1 --p 1,2,inf --kernel 'rbf:gamma=2^-1..2^1/mean' "$WORK/train" >"$WORK/pinf.jsonl"
{ echo '{"title": "p up to inf"}'; cat "$WORK/pinf.jsonl"; } >"$WORK/titled.jsonl"
"$KM" plot cv "$WORK/titled.jsonl" "$WORK/pinf.svg" || fail "plot cv (p up to inf)"
models=()
for p in 1 4/3 2 4; do
    "$KM" train -q "${kernels[@]}" --mkl lp --p "$p" --solver wrapper "$WORK/train" "$WORK/p$((${#models[@]})).model"
    models+=("$WORK/p$((${#models[@]})).model")
done
"$KM" plot path -o "$WORK/path.svg" "${models[@]}" || fail "plot path"
"$KM" train -q --kernel 'rbf:gamma=4,0.5,1' --kernel linear "$WORK/train" "$WORK/unsorted.model"
"$KM" plot weights "$WORK/unsorted.model" "$WORK/unsorted.svg" || fail "plot weights (unsorted grid)"
for svg in "$WORK"/*.svg; do xmllint --noout "$svg" || fail "$svg is not well-formed XML"; done

"$PYTHON" - "$WORK" <<'PY' || fail "the figures' marks"
import json, os, sys
from plot_svg import box, marks
work = sys.argv[1]
svg = lambda name: os.path.join(work, name)
info = lambda name: json.load(open(os.path.join(work, name)))

# bars: one per kernel (titled "m: spec"), heights proportional to the weights
weights = info("lp.json")["machines"][0]["kernel_weights"]
bars = marks(os.path.join(work, "lp.model.svg"), "bar")
assert len(bars) == len(weights) == 6, len(bars)
height = {int(b["title"].split(":")[0]) - 1: float(b["height"]) for b in bars}
scale = height[max(range(6), key=lambda m: weights[m])] / max(weights)
for m, w in enumerate(weights):
    assert abs(height[m] - w * scale) <= 0.15, (m, height[m], w * scale)
labels = [t for t in marks(os.path.join(work, "lp.model.svg"), "group")]
assert len(labels) == 1 and labels[0].get("tag") == "text", labels  # the rbf grid's bracket label

# an RBF grid stands in ascending gamma, whatever the kernels' order
bars = sorted(marks(svg("unsorted.svg"), "bar"), key=lambda b: float(b["x"]))
assert [b["title"] for b in bars] == ["2: rbf \u03b3=0.5", "3: rbf \u03b3=1", "1: rbf \u03b3=4", "4: linear"], bars

# empirical Bayes: an x per dropped kernel
eb = info("eb.json")
dropped = sum(w == 0 for w in eb["machines"][0]["kernel_weights"])
assert dropped > 0 and len(marks(svg("eb.svg"), "dropped")) == dropped, dropped
assert len(marks(svg("eb.svg"), "bar")) == 13

# heat maps: machines x kernels (cell titles are the weights), clusters x kernels
three = info("three.json")["machines"]
cells = marks(svg("three.svg"), "cell")
assert len(cells) == len(three) * 6 == 18, len(cells)
for cell in cells:
    w = three[int(cell["data-row"])]["kernel_weights"][int(cell["data-col"])]
    assert abs(float(cell["title"]) - w) <= 1e-5 * max(1, abs(w)), (cell, w)
assert len(marks(svg("clmkl.svg"), "cell")) == 2 * 6

# cross-validation: 3 x 2 cells, the best outlined at the highest mean; the line: a point and an error bar each
grid = [json.loads(l) for l in open(svg("grid.jsonl"))]
cells = marks(svg("grid.svg"), "cell")
assert len(cells) == 6
best = max(float(c["title"]) for c in cells)
assert abs(best - max(r["mean"] for r in grid)) < 1e-4  # titles hold 6 digits
(outline,) = marks(svg("grid.svg"), "best")
inside = [c for c in cells if box(c)[0] < float(outline["x"]) < box(c)[2] and box(c)[1] < float(outline["y"]) < box(c)[3]]
assert len(inside) == 1 and float(inside[0]["title"]) == best, inside
assert len(marks(svg("line.svg"), "point")) == 3 and len(marks(svg("line.svg"), "errorbar")) == 3
(circle,) = marks(svg("line.svg"), "best")
top = min(marks(svg("line.svg"), "point"), key=lambda p: float(p["cy"]))  # the highest mean: smallest y
assert circle["cx"] == top["cx"] and circle["cy"] == top["cy"]

# a series: a line per p (numbers ascending) through a point per C, each at that setting's mean; -c: per C
for name, values, points in (("series.svg", ["1", "2"], 3), ("series-c.svg", ["0.5", "2", "8"], 2)):
    lines = marks(svg(name), "series")
    assert [l["data-name"].split()[-1] for l in lines] == values, lines
    assert all(len(l["points"].split()) == points for l in lines), lines
means = sorted((r["mean"] for r in grid), reverse=True)  # y grows downwards: the highest mean is the smallest y
ys = sorted(float(p["cy"]) for p in marks(svg("series.svg"), "point"))
scale = (ys[-1] - ys[0]) / (means[0] - means[-1])
assert all(abs((y - ys[0]) - (means[0] - m) * scale) < 0.2 for y, m in zip(ys, means)), (ys, means)

# p = inf among the values: evenly spaced categories in ascending order, labelled; the metric names the axis
import xml.etree.ElementTree as ET
texts = {e.get("class"): [] for e in ET.parse(svg("pinf.svg")).getroot().iter()}
for e in ET.parse(svg("pinf.svg")).getroot().iter():
    texts[e.get("class")].append(e.text)
points = sorted(float(p["cx"]) for p in marks(svg("pinf.svg"), "point"))
assert len(points) == 3 and abs((points[2] - points[1]) - (points[1] - points[0])) < 0.2, points
assert {"1", "2", "inf"} <= set(texts["tick"]), texts["tick"]
assert "accuracy" in texts["axis-label"] and "--p" in texts["axis-label"], texts["axis-label"]
assert texts["title"] == ["p up to inf"], texts["title"]
pinf = [json.loads(l) for l in open(svg("pinf.jsonl"))]
best = pinf[-1]["best"]["options"].split("--p ")[1].split()[0]
(circle,) = marks(svg("pinf.svg"), "best")
assert abs(float(circle["cx"]) - points[["1", "2", "inf"].index(best)]) < 0.06, (circle, points, best)

# path: a line per kernel through a point per model; trace: objective, dual and gap per machine and fold
series = marks(svg("path.svg"), "series")
assert len(series) == 6 and all(len(s["points"].split()) == 4 for s in series), series
assert len(marks(svg("trace.svg"), "series")) == 3
assert len(marks(svg("cv-trace.svg"), "series")) == 3 * 3
PY

expect_status 0 "$KM" plot --help && { grep -q "^usage: kernelmix plot weights" "$WORK/out" || fail "plot --help"; }
expect_status 2 "$KM" plot && expect_one_line_error "missing the figure"

# bad input: one line naming the file (and line), exit status 2, no output
printf '{"iteration": 1, "objective": 2}\n{"iteration": 2, "objective": }\n' >"$WORK/bad.trace"
expect_status 2 "$KM" plot trace "$WORK/bad.trace" "$WORK/bad.svg" && expect_one_line_error "bad.trace:2: "
printf '{"iteration": 1}\n[1, 2]\n' >"$WORK/bad2.trace"
expect_status 2 "$KM" plot trace "$WORK/bad2.trace" "$WORK/bad.svg" && expect_one_line_error "bad2.trace:2: not a trace step"
printf '%0.s[' $(seq 100) >"$WORK/deep.trace"
expect_status 2 "$KM" plot trace "$WORK/deep.trace" "$WORK/bad.svg" && expect_one_line_error "deep.trace:1: nested too deeply"
printf '\n\n' >"$WORK/empty.trace"
expect_status 2 "$KM" plot trace "$WORK/empty.trace" "$WORK/bad.svg" && expect_one_line_error "empty.trace: no trace steps"
printf '{"iteration": 1}\0\n' >"$WORK/nul.trace"
expect_status 2 "$KM" plot trace "$WORK/nul.trace" "$WORK/bad.svg" && expect_one_line_error "not a text file"
printf '{"options": "-c 1 -e 0.1 --p 1", "mean": 80}\n{"options": "-c 2 -e 0.2 --p 2", "mean": 81}\n{"options": "-c 1 -e 0.3 --p 1", "mean": 82}\n' >"$WORK/three.jsonl"
expect_status 2 "$KM" plot cv "$WORK/three.jsonl" "$WORK/bad.svg" && expect_one_line_error "more than two options vary"
printf '{"options": "-c 1", "mean": 80}\n{"options": "-c 2", "mean": 81}\n{"options": "-c 2^x", "mean": 81}\n' >"$WORK/noc.jsonl"
expect_status 2 "$KM" plot cv "$WORK/noc.jsonl" "$WORK/bad.svg" && expect_one_line_error "noc.jsonl:3: no number for -c"
printf '{"options": "-c 1", "mean": 80}\n{"options": "-c 2"}\n' >"$WORK/nomean.jsonl"
expect_status 2 "$KM" plot cv "$WORK/nomean.jsonl" "$WORK/bad.svg" && expect_one_line_error "nomean.jsonl:2: no number \"mean\""
printf '{"options": "-c 1 --p 1", "mean": 80}\n{"options": "-c 2", "mean": 81}\n' >"$WORK/nop.jsonl"
expect_status 2 "$KM" plot cv --series --p "$WORK/nop.jsonl" "$WORK/bad.svg" &&
    expect_one_line_error "nop.jsonl:2: no option --p .the series."
expect_status 2 "$KM" plot cv --series -c "$WORK/three.jsonl" "$WORK/bad.svg" &&
    expect_one_line_error "with the series -c one other option may vary, not two .-e, --p."
expect_status 2 "$KM" plot weights "$WORK/train" "$WORK/bad.svg" && expect_one_line_error "train"
expect_status 2 "$KM" plot trace "$WORK/missing" "$WORK/bad.svg" && expect_one_line_error "missing: cannot open: No such file"
expect_status 2 "$KM" plot path -o "$WORK/bad.svg" "$WORK/lp.model" "$WORK/three.model" &&
    expect_one_line_error "model 2: a path needs models of one machine"
expect_status 2 "$KM" plot bars "$WORK/lp.model" && expect_one_line_error "unknown figure 'bars'"
[ -e "$WORK/bad.svg" ] && fail "a refused plot wrote its output"
cp "$WORK/trace" "$WORK/trace.copy"
expect_status 2 "$KM" plot trace "$WORK/trace" "$WORK/trace" && expect_one_line_error "refusing to overwrite an input"
cmp -s "$WORK/trace" "$WORK/trace.copy" || fail "plot overwrote its input"
finish
