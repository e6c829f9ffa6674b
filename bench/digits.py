#!/usr/bin/python3
"""scikit-learn's digits (Debian python3-sklearn) as an odd-vs-even benchmark, or with --task
ten-class as a ten-class one.

digits.csv.gz has 1797 rows of 65 integers without a header: 64 pixels (0..16, 8x8) and the digit.
Rows 0-999 train, rows 1000-1796 test; odd digits are +1, even digits -1 (ten-class: the digit is
the label); pixels keep their 0..16 scale. The RBF widths are 2 sigma^2 = BASE^k, k = 0..COUNT-1, i.e. gamma = BASE^-k (Kloft's runtime
experiment uses 1.2^0..1.2^49). Prints the problem's meta (paths, gammas) as JSON."""

import argparse

import numpy as np

from problem_files import cached, write_problem, print_meta, run_data_script

DIGITS = "/usr/lib/python3/dist-packages/sklearn/datasets/data/digits.csv.gz"
TRAIN_ROWS = 1000


def load(path, task="odd-even"):
    table = np.loadtxt(path, delimiter=",")
    if table.ndim != 2 or table.shape[1] != 65:
        raise ValueError("%s: expected rows of 64 pixels and a label, got shape %s" % (path, table.shape))
    X, digit = table[:, :64], table[:, 64]
    return X, digit if task == "ten-class" else np.where(digit % 2 == 1, 1.0, -1.0)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", type=float, default=1.2, help="2 sigma^2 = BASE^k (default 1.2)")
    parser.add_argument("--count", type=int, default=50, help="number of widths (default 50)")
    parser.add_argument("--precomputed", action="store_true",
                        help="also write the uniform-sum kernel files for svm-train -t 4")
    parser.add_argument("--task", default="odd-even", choices=["odd-even", "ten-class"],
                        help="odd digits against even ones (default), or the ten digits as classes")
    parser.add_argument("--data", default=DIGITS, help="digits.csv.gz")
    parser.add_argument("--out", required=True, help="directory for the files")
    args = parser.parse_args(argv)

    params = {"dataset": "digits", "task": args.task, "base": args.base, "count": args.count,
              "precomputed": args.precomputed}
    meta = cached(args.out, params)
    if meta is None:
        X, y = load(args.data, args.task)
        gammas = [args.base ** -k for k in range(args.count)]
        meta = write_problem(args.out, params, X[:TRAIN_ROWS], y[:TRAIN_ROWS], X[TRAIN_ROWS:], y[TRAIN_ROWS:],
                             gammas, args.precomputed)
    print_meta(meta)


if __name__ == "__main__":
    run_data_script(main)
