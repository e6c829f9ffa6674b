#!/usr/bin/python3
"""Sparse against non-sparse MKL on a sequence task, in the manner of the bioinformatics experiments of
Kloft's thesis ("lp-Norm Multiple Kernel Learning", TU Berlin 2011, §5.3, transcription start sites:
kernels on different regions of a sequence, AUC against the number of training rows, l1 against
non-sparse norms and the uniform sum).

Data: the splice junctions of r-cran-mlbench's DNA (3,186 sequences of 60 nucleotides, each coded as 3
binary features): a junction (exon/intron or intron/exon) against none. Kernels: one Gaussian RBF
kernel (gamma = 1 / mean squared distance) on each of 12 windows of 5 nucleotides, so that the kernels
are regions of the sequence and a few of them, about the junction in the middle, carry most of the
signal. For each split and training size n: n training rows, 500 validation rows that choose C from
{0.1, 1, 10, 100} for each p by AUC, and the remaining rows for testing. p runs over 1, 4/3, 2 and inf
(kernelmix's --p, the norm on the weights; inf is the uniform sum).

The thesis' conclusion, checked at every size: a non-sparse norm (p = 4/3 or 2) is at least as accurate
as both the sparse l1 and the uniform sum, within 0.5 points of AUC.

    /usr/bin/python3 examples/lpmkl-splice/run.py [--full] [--out DIR] [--kernelmix PATH]

Reduced size: n = 100, 200 and 400, 10 splits (under a minute on two cores); --full: n = 50, 100, 200,
400 and 800, 50 splits."""
import os
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import gallery  # noqa: E402

WINDOW, POSITIONS = 5, 60
KERNELS = [option for w in range(POSITIONS // WINDOW)
           for option in ("--kernel", f"rbf:gamma=1/mean:features={3 * WINDOW * w + 1}-{3 * WINDOW * (w + 1)}")]
NORMS = ["1", "4/3", "2", "inf"]
C_GRID = "10^-1..10^2"
N_VALIDATION = 500
MARGIN = 0.5


def export_dna(work):
    """(180 binary features, +1 junction / -1 none) of every row; None without R's mlbench."""
    table = gallery.r_table(work, "library(mlbench); data(DNA); "
                                  "table <- cbind(ifelse(DNA$Class == 'n', -1, 1), "
                                  "sapply(DNA[, 1:180], function(v) as.integer(as.character(v))))")
    return None if table is None else (table[:, 1:], table[:, 0].astype(int))


def split(args, data, seed, n):
    """One split at n training rows: the test AUC (%) of each p at its validation-chosen C."""
    x, y = data
    order = np.random.default_rng([args.seed, seed]).permutation(len(y))
    with tempfile.TemporaryDirectory() as work:
        train, validation, test = (os.path.join(work, f) for f in ("train", "valid", "test"))
        parts = ((train, order[:n]), (validation, order[n:n + N_VALIDATION]), (test, order[n + N_VALIDATION:]))
        for path, rows in parts:
            gallery.write_libsvm(path, x[rows], y[rows])
        return {p: 100 * auc for p, auc in gallery.validated_test_scores(
            args, ["--score", "auc", *KERNELS], C_GRID, NORMS, train, validation, test, work).items()}


def main():
    args = gallery.arguments(__doc__, "lpmkl-splice",
                             lambda parser: parser.add_argument("--seed", type=int, default=1,
                                                                help="the splits' seed (default 1)"))
    sizes, splits = ([50, 100, 200, 400, 800], 50) if args.full else ([100, 200, 400], 10)
    with tempfile.TemporaryDirectory() as work:
        data = export_dna(work)
    if data is None:
        print("skipped: the DNA data needs Rscript and r-cran-mlbench")
        return gallery.SKIPPED
    auc, mean, sem = gallery.results_over_splits(args, split, data, splits, sizes)
    best = {n: max(NORMS, key=lambda p: mean[n, p]) for n in sizes}
    rows = [[n, *(("**%.2f**" if p == best[n] else "%.2f") % mean[n, p] + f" ± {sem[n, p]:.2f}" for p in NORMS)]
            for n in sizes]
    gallery.write_table(os.path.join(args.out, "table.md"), ["training rows", *(f"p = {p}" for p in NORMS)], rows,
                        f"Test AUC (%) over {splits} splits (mean ± standard error), C chosen on {N_VALIDATION} "
                        f"validation rows for each p; 12 window kernels.")
    gallery.plot_cv(args, f"splice junctions: test AUC, mean +- standard error over {splits} splits",
                    [{"options": f"--training-rows {n} --p {p}", "metric": "test AUC (%)", "scores": auc[n, p],
                      "mean": mean[n, p], "std": sem[n, p]} for n in sizes for p in NORMS],
                    "figure", lower_is_better=False, series="--p")
    with open(os.path.join(args.out, "table.md")) as table:
        print(table.read())

    checks = gallery.Checks()
    for n in sizes:
        dense = max(mean[n, "4/3"], mean[n, "2"])
        rival = max(mean[n, "1"], mean[n, "inf"])
        checks.expect(dense >= rival - MARGIN, f"n = {n}: the better non-sparse norm ({dense:.2f}) is within {MARGIN} "
                                               f"of the better of l1 and the uniform sum ({rival:.2f})")
    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
