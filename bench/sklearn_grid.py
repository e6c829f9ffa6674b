#!/usr/bin/python3
"""The scikit-learn peer of the model-selection benchmark (cv_grid.py): GridSearchCV over the Python
package's MKLClassifier (lp-norm MKL on the kernel spec given), the grid C x p, scored by accuracy on
the folds of a fold file (fold of every row, 0-based, as JSON; scikit-learn's PredefinedSplit) or on
scikit-learn's own StratifiedKFold(K) without one. refit=False: the grid alone, as kernelmix cv
without --refit. Writes one JSON line per setting {"C", "p", "scores", "mean", "seconds", "best"} to
OUTPUT, in the order of the grid (C slowest) as kernelmix cv --json does; "seconds": its fits and
scoring over the splits; "best" is true on scikit-learn's choice (best_index_: the first setting of
the highest mean).

  sklearn_grid.py --kernel SPEC --C 2^-2,2^0 --p 1,4/3,inf [--fold-file FILE | --folds K] TRAIN_FILE OUTPUT

The timed work includes Python's start, the imports and reading the LIBSVM file (kernelmix cv reads
its file too)."""

import argparse
import json
import os
import sys

import numpy as np
from sklearn.datasets import load_svmlight_file
from sklearn.model_selection import GridSearchCV, PredefinedSplit, StratifiedKFold

REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPOSITORY, "python"))
from kernelmix import MKLClassifier  # noqa: E402


def power(text):
    """'2^-2' -> 0.25; plain numbers as they are."""
    base, _, exponent = text.partition("^")
    return float(base) ** float(exponent) if exponent else float(text)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kernel", required=True, help="kernel spec of the package (the CLI's spec language)")
    parser.add_argument("--C", required=True, help="C values, comma-separated (2^k allowed)")
    parser.add_argument("--p", required=True, help="p values, comma-separated (1, 4/3, inf, ...)")
    parser.add_argument("--fold-file", help="JSON list: the fold of every row")
    parser.add_argument("--folds", type=int, default=5, help="without --fold-file: StratifiedKFold(K)")
    parser.add_argument("train_file")
    parser.add_argument("output")
    args = parser.parse_args(argv)
    X, y = load_svmlight_file(args.train_file)
    if args.fold_file:
        with open(args.fold_file) as f:
            splits = PredefinedSplit(np.array(json.load(f)))
    else:
        splits = StratifiedKFold(args.folds)
    Cs, ps = [power(c) for c in args.C.split(",")], args.p.split(",")
    search = GridSearchCV(MKLClassifier(kernels=[args.kernel], method="lp"), {"C": Cs, "p": ps},
                          scoring="accuracy", cv=splits, refit=False).fit(X, y)
    results = search.cv_results_
    n_splits = splits.get_n_splits()
    with open(args.output, "w") as out:
        for i, params in enumerate(results["params"]):
            scores = [float(results["split%d_test_score" % s][i]) for s in range(n_splits)]
            out.write(json.dumps({"C": params["C"], "p": params["p"], "scores": scores,
                                  "mean": float(results["mean_test_score"][i]),
                                  "seconds": n_splits * float(results["mean_fit_time"][i] +
                                                              results["mean_score_time"][i]),
                                  "best": bool(i == search.best_index_)}) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
