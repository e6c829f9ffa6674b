"""Figures as standalone SVG text, drawn by the library (km_plot_*; docs/plots.md): no plotting
package needed. Each function returns the SVG document as a string; write it to a .svg file or show it
in a notebook with ``IPython.display.SVG(text)``.

    from kernelmix import MKLClassifier, plot
    clf = MKLClassifier(kernels=["rbf:gamma=2^-3..2^1/mean", "linear"], method="lp", p=4/3).fit(X, y)
    open("weights.svg", "w").write(plot.weights(clf))
"""
import ctypes
import json
import os

from . import _library as L


def _svg(call, *args):
    out = ctypes.c_void_p()
    L.check(call(*args, ctypes.byref(out)))
    try:
        return ctypes.string_at(out.value).decode("utf-8")
    finally:
        L.lib.km_free(out)


def _model(estimator):
    model = getattr(estimator, "model_", None)
    if model is None:
        raise ValueError(f"{type(estimator).__name__} is not fitted (call fit first)")
    return model


def _text(source):
    """A file's text, or the text itself; lists of dicts become JSON lines."""
    if isinstance(source, (list, tuple)):
        return "".join(json.dumps(record) + "\n" for record in source)
    if isinstance(source, os.PathLike) or (isinstance(source, str) and "\n" not in source and
                                           not source.lstrip().startswith("{")):
        with open(source, encoding="utf-8") as f:
            return f.read()
    return source


def weights(estimator):
    """The kernel weights of a fitted estimator: bars per kernel grouped by family and feature subset,
    or a heat map of machines (multiclass) or clusters (localized MKL) x kernels."""
    return _svg(L.lib.km_plot_weights, _model(estimator).handle)


def trace(source, x="iteration"):
    """The trace of ``kernelmix train --trace FILE`` (a path, or the JSON lines as text or a list of
    dicts): objective, dual value and relative duality gap against the iteration (x="seconds": time)."""
    if x not in ("iteration", "seconds"):
        raise ValueError(f"x: {x!r} is not 'iteration' or 'seconds'")
    return _svg(L.lib.km_plot_trace, _text(source).encode(), int(x == "seconds"))


def cv(source, higher_is_better=None, series=None):
    """Cross-validation results (a path, JSON lines as text, or a list of dicts with "options",
    "scores", "mean", "std"; ``kernelmix train -v K --json``): a heat map over two varying options or
    mean +- std over one; series="--p" (any option): a line per value of that option against the
    other varying one. higher_is_better None: from the results' "metric" (mse, log-loss: lower)."""
    flag = -1 if higher_is_better is None else int(bool(higher_is_better))
    return _svg(L.lib.km_plot_cv_series, _text(source).encode(), flag, series.encode() if series else None)


def path(estimators):
    """Kernel weights against p (lp) or lambda (elastic net) of several fitted estimators."""
    models = [_model(e) for e in estimators]
    handles = (ctypes.c_void_p * len(models))(*(m.handle for m in models))
    return _svg(L.lib.km_plot_path, handles, len(models))
