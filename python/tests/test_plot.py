"""kernelmix.plot: the library's figures from estimators and results in memory — the same SVG as
kernelmix plot draws from the saved model, bars and heat-map cells that are the estimator's weights, a
path line per kernel, and bad input raised as ValueError."""
import json
import os
import subprocess
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from conftest import REPOSITORY
from kernelmix import MKLClassifier, plot

KERNELS = ["rbf:gamma=2^-1..2^1/mean", "linear"]
CLI = os.path.join(REPOSITORY, "build", "kernelmix")


def data(n=90, classes=2, seed=0):
    rng = np.random.default_rng(seed)
    y = np.arange(n) % classes
    X = rng.standard_normal((n, 3)) + np.eye(3)[y % 3] * 1.5
    return X, y


def marks(svg, cls):
    root = ET.fromstring(svg)
    return [e for e in root.iter() if e.get("class") == cls]


def test_weights_bars_are_the_estimators_weights():
    X, y = data()
    clf = MKLClassifier(kernels=KERNELS, method="lp", p=4 / 3).fit(X, y)
    svg = plot.weights(clf)
    bars = marks(svg, "bar")
    weights = clf.kernel_weights_
    assert len(bars) == len(weights) == 4
    heights = np.array([float(b.get("height")) for b in bars])  # in kernel order: one group, then linear
    assert np.allclose(heights / heights.max(), weights / weights.max(), atol=0.15 / heights.max())


def test_weights_is_the_cli_figure(tmp_path):
    if not os.access(CLI, os.X_OK):
        pytest.skip("no build/kernelmix")
    X, y = data()
    clf = MKLClassifier(kernels=KERNELS, method="lp", p=1).fit(X, y)
    clf.save(tmp_path / "model")
    subprocess.run([CLI, "plot", "weights", str(tmp_path / "model"), str(tmp_path / "w.svg")], check=True)
    assert (tmp_path / "w.svg").read_text(encoding="utf-8") == plot.weights(clf)


def test_multiclass_weights_heat_map():
    X, y = data(classes=3)
    clf = MKLClassifier(kernels=KERNELS, method="lp", p=2).fit(X, y)
    cells = marks(plot.weights(clf), "cell")
    assert len(cells) == 3 * 4
    weights = clf.model_.kernel_weights()
    for cell in cells:
        w = weights[int(cell.get("data-row")), int(cell.get("data-col"))]
        assert abs(float(cell.findtext("{http://www.w3.org/2000/svg}title")) - w) <= 1e-5 * max(1, w)


def test_path_has_a_line_per_kernel():
    X, y = data()
    fits = [MKLClassifier(kernels=KERNELS, method="lp", p=p).fit(X, y) for p in (1, 4 / 3, 2)]
    series = marks(plot.path(fits), "series")
    assert len(series) == 4 and all(len(s.get("points").split()) == 3 for s in series)


def test_trace_and_cv_from_records():
    steps = [{"iteration": t, "machine": 1, "seconds": 0.1 * t, "objective": 10 - t, "dual": 9 - 1 / t,
              "gap": 0.1 / t, "weights": [1]} for t in range(1, 6)]
    assert len(marks(plot.trace(steps), "series")) == 3
    assert len(marks(plot.trace(steps, x="seconds"), "point")) == 3 * 5
    results = [{"options": f"-c {c} --p {p}", "scores": [s, s], "mean": s, "std": 0}
               for c, p, s in ((1, 1, 80), (1, 2, 85), (4, 1, 70), (4, 2, 75))]
    svg = plot.cv(results)
    assert len(marks(svg, "cell")) == 4 and len(marks(svg, "best")) == 1
    text = "".join(json.dumps(r) + "\n" for r in results)
    assert plot.cv(text) == svg
    lines = marks(plot.cv(results, series="--p"), "series")  # a line per p through its two C
    assert len(lines) == 2 and all(len(s.get("points").split()) == 2 for s in lines), lines
    with pytest.raises(ValueError, match="no option --q"):
        plot.cv(results, series="--q")


def test_bad_input_raises():
    with pytest.raises(ValueError, match="line 2"):
        plot.trace('{"iteration": 1}\n{"iteration": \n')
    with pytest.raises(ValueError, match="no \"seconds\""):
        plot.trace([{"iteration": 1}], x="seconds")
    with pytest.raises(ValueError, match="not fitted"):
        plot.weights(MKLClassifier(kernels=KERNELS))
