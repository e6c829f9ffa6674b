#!/bin/sh
# Regenerates the figures of docs/plots.md in docs/plots/: the README example (lp-norm MKL, p = 4/3,
# on 200 rows of heart_scale) and a few examples of the papers' figures, as SVG; with a Chromium
# (chromium or chromium-browser on PATH) also as PNG screenshots.
#
# usage: scripts/make-plot-docs.sh [KERNELMIX]   (default: build/kernelmix)
set -eu
cd "$(dirname "$0")/.."
km=$(realpath "${1:-build/kernelmix}")
out=docs/plots
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
head -n 200 examples/data/heart_scale >"$work/heart"

# the README example, its trace
"$km" train -q --kernel 'rbf:gamma=2^-3..2^1/mean' --kernel 'poly:degree=2:coef0=1' --kernel linear \
    --norm mult --mkl lp --p 4/3 --trace "$work/readme.trace" "$work/heart" "$work/readme.model"
"$km" plot weights "$work/readme.model" "$out/readme-weights.svg"
"$km" plot trace "$work/readme.trace" "$out/readme-trace.svg"

# cross-validation: -c x p (heat map) and -c alone (mean +- std)
for c in 2^-2 2^0 2^2 2^4; do
    for p in 1 4/3 2 4; do
        "$km" train -q -v 5 --json -c "$c" --kernel 'rbf:gamma=2^-3..2^1/mean' --kernel linear \
            --norm mult --mkl lp --p "$p" "$work/heart"
    done
done >"$work/grid.jsonl"
"$km" plot cv "$work/grid.jsonl" "$out/cv-grid.svg"
grep -e '--p 4/3"' "$work/grid.jsonl" >"$work/line.jsonl"
"$km" plot cv "$work/line.jsonl" "$out/cv-line.svg"

# sparsity along p (Kloft's lp-norm MKL): weights of models at p = 1 ... 4
models=""
for p in 1 16/15 8/7 4/3 2 4; do
    name="$work/p-$(echo "$p" | tr / _).model"
    "$km" train -q --kernel 'rbf:gamma=2^-3..2^1/mean' --kernel 'poly:degree=2:coef0=1' --kernel linear \
        --norm mult --mkl lp --p "$p" --solver wrapper "$work/heart" "$name"
    models="$models $name"
done
# shellcheck disable=SC2086
"$km" plot path -o "$out/path-p.svg" $models

# multiclass: one-vs-one machines x kernels (three Gaussian classes)
/usr/bin/python3 - "$work/three.svm" <<'PY'
import sys
import numpy as np
rng = np.random.default_rng(3)
with open(sys.argv[1], "w") as f:
    for i in range(150):
        label = i % 3
        x = rng.standard_normal(4) + np.eye(4)[label] * 2.5
        f.write(f"{label + 1} " + " ".join(f"{j + 1}:{v:.5f}" for j, v in enumerate(x)) + "\n")
PY
"$km" train -q --kernel 'rbf:gamma=2^-2..2^1/mean' --kernel 'linear:features=each' --norm mult --mkl lp --p 1 \
    "$work/three.svm" "$work/three.model"
"$km" plot weights "$work/three.model" "$out/multiclass-weights.svg"

# localized MKL (docs/clmkl.md): clusters x kernels
/usr/bin/python3 examples/clmkl-localized/generate.py 300 1 "$work/local.svm" >/dev/null
"$km" train -q --mkl clmkl --p 4/3 --clusters 3 --ae 0.4 \
    --kernel linear:features=3-7:norm=mult --kernel linear:features=8-12:norm=mult \
    --kernel linear:features=13-17:norm=mult --kernel linear:features=18-37:norm=mult \
    --cluster-kernel linear:features=1-2 "$work/local.svm" "$work/local.model"
"$km" plot weights "$work/local.model" "$out/clmkl-weights.svg"

# empirical Bayes (Tomioka & Suzuki): kernels kept and dropped on a target of features 1-2 only
/usr/bin/python3 - "$work/eb.svm" <<'PY'
import sys
import numpy as np
rng = np.random.default_rng(5)
x = rng.standard_normal((120, 6))
y = np.sin(x[:, 0]) + 0.5 * x[:, 1] + 0.1 * rng.standard_normal(120)
with open(sys.argv[1], "w") as f:
    for row, target in zip(x, y):
        f.write(f"{target:.6f} " + " ".join(f"{j + 1}:{v:.5f}" for j, v in enumerate(row)) + "\n")
PY
"$km" train -q -s krr --mkl eb-rw --kernel 'rbf:features=each:gamma=1/mean' --norm mult "$work/eb.svm" \
    "$work/eb.model"
"$km" plot weights "$work/eb.model" "$out/eb-weights.svg"

browser=$(command -v chromium || command -v chromium-browser || true)
if [ -n "$browser" ]; then
    for svg in "$out"/*.svg; do
        size=$(sed -n 's/.*<svg [^>]*width="\([0-9]*\)" height="\([0-9]*\)".*/\1,\2/p' "$svg")
        "$browser" --headless --no-sandbox --hide-scrollbars --screenshot="$(realpath "$out")/$(basename "$svg" .svg).png" \
            --window-size="$size" "file://$(realpath "$svg")" >/dev/null 2>&1
    done
else
    echo "make-plot-docs: no chromium on PATH: SVG only (the PNG screenshots are not updated)" >&2
fi
