#!/usr/bin/python3
"""Localized against global MKL where the kernels that matter change from one group of rows to another,
in the manner of Lei, Binder, Dogan & Kloft ("Localized Multiple Kernel Learning - A Convex Approach",
ACML 2016, §5.2, Table 1: test AUC of the uniform sum, global MKL, HLMKL and CLMKL against the number of
training rows, C and CLMKL's average evenness chosen by validation).

Data: scikit-learn's digits (8 x 8 pixels) of three pairs, 3 against 8, 1 against 7 and 4 against 9
(label +1 for the first digit of each pair, 1,083 images). Kernels: one Gaussian kernel (gamma = 1 /
mean squared distance) on each of the 8 pixel rows of the image, so that each kernel is a region of the
image and the rows that tell one pair apart are not those that tell the others apart. Localized MKL
clusters the images by kernel k-means on a Gaussian kernel of the whole image (3 clusters: mostly the
pairs) and learns weights per cluster. For each split and training size n: n training rows, 200
validation rows choosing C from {0.1, 1, 10} (and CLMKL's average evenness from {0.4, 0.6}) by AUC, the
remaining rows for testing.

The paper's conclusion, checked at every size: CLMKL (the better of p = 1 and 4/3) is more accurate than
the uniform sum and than global lp-norm MKL (the better of p = 1 and 4/3): the mean paired difference of
test AUC over the splits is more than twice its standard error.

    /usr/bin/python3 examples/clmkl-digits/run.py [--full] [--out DIR] [--kernelmix PATH]

Reduced size: n = 100 and 200, 20 splits (about a minute on two cores); --full: n = 50, 100, 200 and
400, 50 splits."""
import gzip
import math
import os
import statistics
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import gallery  # noqa: E402

DIGITS = "/usr/lib/python3/dist-packages/sklearn/datasets/data/digits.csv.gz"
PAIRS = [(3, 8), (1, 7), (4, 9)]
KERNELS = [option for row in range(8) for option in ("--kernel", f"rbf:gamma=1/mean:features={8 * row + 1}-{8 * row + 8}")]
CLUSTERING = ["--cluster-kernel", "rbf:gamma=1/mean", "--clusters", "3"]
C_GRID = "0.1,1,10"
METHODS = {   # the table's rows: name -> the options of their settings
    "UNIF": ["--mkl", "fixed"],
    "MKL p=1": ["--mkl", "lp", "--p", "1"],
    "MKL p=4/3": ["--mkl", "lp", "--p", "4/3"],
    "HLMKL p=4/3": ["--mkl", "hlmkl", "--p", "4/3", *CLUSTERING],
    "CLMKL p=1": ["--mkl", "clmkl", "--p", "1", "--ae", "0.4,0.6", *CLUSTERING],
    "CLMKL p=4/3": ["--mkl", "clmkl", "--p", "4/3", "--ae", "0.4,0.6", *CLUSTERING],
}
N_VALIDATION = 200


def load_digits():
    """(pixels scaled to [0, 1], labels +1/-1) of the three pairs; None without scikit-learn's data."""
    if not os.path.exists(DIGITS):
        return None
    table = np.loadtxt(gzip.open(DIGITS, "rt"), delimiter=",")
    digit = table[:, 64].astype(int)
    keep = np.isin(digit, [d for pair in PAIRS for d in pair])
    return table[keep, :64] / 16.0, np.where(np.isin(digit[keep], [first for first, _ in PAIRS]), 1, -1)


def write_rows(path, x, y):
    """Rows x with labels y as a LIBSVM file; the last pixel always written, so that every file has all
    64 features (a kernel on the last pixel row names feature 64)."""
    with open(path, "w") as out:
        for label, row in zip(y, x):
            values = [f"{j + 1}:{v:.6g}" for j, v in enumerate(row[:-1]) if v] + [f"{len(row)}:{row[-1]:.6g}"]
            out.write(f"{label} " + " ".join(values) + "\n")


def validated_auc(args, options, train, validation, test, work):
    """The test AUC (%) of the setting of options that scores best on the validation rows (ties: the
    first, i.e. the smaller C)."""
    common = ["cv", "-q", "--json", "--cold", "--threads", "1", "--score", "auc"]
    lines = gallery.json_lines(gallery.kernelmix(args, *common, *KERNELS, *options, "-c", C_GRID,
                                                 "--validation", validation, train))
    settings = os.path.join(work, "settings")
    with open(settings, "w") as out:
        out.write(lines[-1]["best"]["options"] + "\n")
    result = gallery.json_lines(gallery.kernelmix(args, *common, "--settings", settings, "--validation", test, train))
    return 100.0 * result[0]["mean"]


def split(args, data, seed, n):
    """One split at n training rows: {method: test AUC (%)}."""
    x, y = data
    order = np.random.default_rng([args.seed, seed]).permutation(len(y))
    with tempfile.TemporaryDirectory() as work:
        train, validation, test = (os.path.join(work, f) for f in ("train", "valid", "test"))
        for path, rows in ((train, order[:n]), (validation, order[n:n + N_VALIDATION]),
                           (test, order[n + N_VALIDATION:])):
            write_rows(path, x[rows], y[rows])
        return {name: validated_auc(args, options, train, validation, test, work) for name, options in METHODS.items()}


def paired(auc, n, first, second):
    """Mean and standard error of the per-split difference first - second at size n."""
    differences = [a - b for a, b in zip(auc[n, first], auc[n, second])]
    return statistics.mean(differences), statistics.stdev(differences) / math.sqrt(len(differences))


def main():
    args = gallery.arguments(__doc__, "clmkl-digits",
                             lambda parser: parser.add_argument("--seed", type=int, default=1,
                                                                help="the splits' seed (default 1)"))
    sizes, splits = ([50, 100, 200, 400], 50) if args.full else ([100, 200], 20)
    data = load_digits()
    if data is None:
        print(f"skipped: {DIGITS} (python3-sklearn) is not installed")
        return gallery.SKIPPED
    auc, mean, sem = gallery.results_over_splits(args, split, data, splits, sizes)
    best = {n: max(METHODS, key=lambda name: mean[n, name]) for n in sizes}
    rows = [[name, *(("**%.2f**" if name == best[n] else "%.2f") % mean[n, name] + f" ± {sem[n, name]:.2f}"
                     for n in sizes)] for name in METHODS]
    gallery.write_table(os.path.join(args.out, "table.md"), ["method", *(f"n = {n}" for n in sizes)], rows,
                        f"Test AUC (%) over {splits} splits (mean ± standard error); C (and CLMKL's average "
                        f"evenness) chosen on {N_VALIDATION} validation rows; 8 pixel-row kernels, 3 clusters.")
    gallery.plot_cv(args, f"digit pairs: test AUC, mean +- standard error over {splits} splits",
                    [{"options": f"--training-rows {n} --method {name.replace(' ', '-')}",
                      "metric": "test AUC (%)", "scores": auc[n, name], "mean": mean[n, name], "std": sem[n, name]}
                     for n in sizes for name in METHODS],
                    "figure", lower_is_better=False, series="--method")
    with open(os.path.join(args.out, "table.md")) as table:
        print(table.read())

    checks = gallery.Checks()
    for n in sizes:
        clmkl = max(("CLMKL p=1", "CLMKL p=4/3"), key=lambda name: mean[n, name])
        mkl = max(("MKL p=1", "MKL p=4/3"), key=lambda name: mean[n, name])
        for rival in ("UNIF", mkl):
            gain, error = paired(auc, n, clmkl, rival)
            checks.expect(gain > 2 * error, f"n = {n}: {clmkl} ({mean[n, clmkl]:.2f}) above {rival} ({mean[n, rival]:.2f}) "
                                    f"by {gain:.2f} ± {error:.2f} (paired over the splits)")
    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
