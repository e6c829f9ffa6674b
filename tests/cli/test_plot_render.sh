#!/bin/bash
# The figures as a browser draws them: each SVG screenshot by headless Chromium at its own size is not
# blank, and the pixels inside every bar, heat-map cell and line's box are coloured (the marks the
# SVG declares are the marks one sees). Skipped (exit 77) without chromium.
. "$(dirname "$0")/lib.sh" "$@"
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
    echo "SKIP: chromium is not installed: the figures are not rendered (cli_test_plot checks their SVG)"
    exit 77
fi
export PYTHONPATH="$ROOT/tests/cli"
head -n 120 "$DATA/heart_scale" >"$WORK/train"
kernels=(--kernel 'rbf:gamma=2^-2..2^1/mean' --kernel 'poly:degree=2:coef0=1' --kernel linear --norm mult)
"$KM" train -q "${kernels[@]}" --mkl lp --p 4/3 --trace "$WORK/trace" "$WORK/train" "$WORK/lp.model"
"$KM" plot weights "$WORK/lp.model" "$WORK/bars.svg"
"$KM" plot trace "$WORK/trace" "$WORK/trace.svg"
awk '{ $1 = ($1 == 1 ? 1 : 2) + (NR % 3 == 0); print }' "$WORK/train" >"$WORK/three"
"$KM" train -q "${kernels[@]}" --mkl lp --p 1 "$WORK/three" "$WORK/three.model"
"$KM" plot weights "$WORK/three.model" "$WORK/cells.svg"
for c in 0.5 2 8; do
    "$KM" train -q -v 3 --json -c "$c" --kernel 'rbf:gamma=2^-1..2^1/mean' --mkl lp --p 2 "$WORK/train"
done >"$WORK/line.jsonl"
"$KM" plot cv "$WORK/line.jsonl" "$WORK/line.svg"
for svg in "$WORK"/*.svg; do
    size=$("$PYTHON" -c "import sys, plot_svg; print('%d,%d' % plot_svg.size(sys.argv[1]))" "$svg")
    "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size="$size" \
        --screenshot="${svg%.svg}.png" "file://$svg" >/dev/null 2>&1 || fail "chromium failed on $svg"
done
"$PYTHON" - "$WORK" <<'PY' || fail "the rendered figures"
import os, sys
from plot_svg import box, coloured_pixels, marks, read_png, size
work = sys.argv[1]
for name, cls, least in (("bars", "bar", 6), ("cells", "cell", 18), ("trace", "series", 3), ("line", "point", 3)):
    svg, png = os.path.join(work, name + ".svg"), os.path.join(work, name + ".png")
    width, height, rows = read_png(png)
    assert (width, height) == size(svg), (name, width, height, size(svg))
    drawn = sum(1 for row in rows for p in row if p != (255, 255, 255))
    assert drawn > 0.01 * width * height, f"{name}: the screenshot is blank"
    found = marks(svg, cls)
    assert len(found) >= least, (name, len(found))
    for mark in found:
        x0, y0, x1, y1 = box(mark)
        area = max(1, (int(x1) - int(x0) - 1) * (int(y1) - int(y0) - 1))
        coloured = coloured_pixels(rows, x0, y0, x1, y1)
        if cls in ("bar", "cell") and y1 - y0 > 3:
            assert coloured >= 0.8 * area, f"{name}: {cls} {mark.get('title')} is not drawn ({coloured} of {area})"
        else:
            assert coloured > 0, f"{name}: {cls} at {x0:.0f},{y0:.0f} is not drawn"
PY
finish
