#!/usr/bin/python3
"""DNA splice junctions (r-cran-mlbench `DNA`, exported by scripts/export-r-sequences.sh) with localized
MKL, in the style of Table 1 of Lei, Binder, Dogan & Kloft ("Localized Multiple Kernel Learning - A
Convex Approach"; docs/clmkl.md): task DNA-bin, splice junction (donor or acceptor, +1) against none
(-1); 20 positional kernels k^(d), d = 1..20 (matching substrings of length d at equal positions),
multiplicatively normalized; clustering on their mean, 3 clusters. For each n_train and split: n_train
training rows, 500 validation rows, the rest for testing; C (and CLMKL's average evenness) chosen by
validation AUC; the table gives the mean test AUC in % over the splits.

usage: run.py KERNELMIX [--sizes 100,200,400,800] [--splits S] [--methods NAME,...] [--workdir DIR]
              [--data DIR]
(--data: a directory with dna-bin.seq; default: exported there with scripts/export-r-sequences.sh)"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np
from sklearn.metrics import roc_auc_score

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KERNELS = ["--kernel", "positional:degree=1..20:norm=mult"]
GRID_C = ["0.1", "1", "10"]
GRID_AE = ["0.4", "0.6"]
METHODS = {
    "UNIF": [["--mkl", "fixed", "-c", c] for c in GRID_C],
    "MKL p=1": [["--mkl", "lp", "--p", "1", "-c", c] for c in GRID_C],
    "MKL p=4/3": [["--mkl", "lp", "--p", "4/3", "-c", c] for c in GRID_C],
    "HLMKL p=4/3": [["--mkl", "hlmkl", "--p", "4/3", "-c", c] for c in GRID_C],
    "CLMKL p=1": [["--mkl", "clmkl", "--p", "1", "--ae", ae, "-c", c] for c in GRID_C for ae in GRID_AE],
    "CLMKL p=4/3": [["--mkl", "clmkl", "--p", "4/3", "--ae", ae, "-c", c] for c in GRID_C for ae in GRID_AE],
}


def run(cmd):
    subprocess.run(cmd, check=True, capture_output=True, text=True)


def read(path):
    rows = [line.rstrip("\n").split("\t") for line in open(path)]
    return [r[0] for r in rows], [r[1] for r in rows]


def write(path, labels, sequences, rows):
    with open(path, "w") as out:
        out.writelines("%s\t%s\n" % (labels[i], sequences[i]) for i in rows)


def auc(kernelmix, model, path, workdir):
    out = os.path.join(workdir, "decision.txt")
    run([kernelmix, "predict", "-q", "--decision-values", path, model, out])
    values = np.loadtxt(out, ndmin=2)
    truth = np.array([float(line.split("\t")[0]) for line in open(path)])
    # the class of f > 0: the predicted label (column 1) of the rows with a positive decision value
    positive = values[values[:, 1] > 0, 0][0] if np.any(values[:, 1] > 0) else -values[0, 0]
    return roc_auc_score(truth == positive, values[:, 1])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("kernelmix")
    parser.add_argument("--sizes", default="100,200,400,800")
    parser.add_argument("--splits", type=int, default=2)
    parser.add_argument("--workdir")
    parser.add_argument("--data")
    parser.add_argument("--methods", default=",".join(METHODS), help="comma-separated rows of the table")
    args = parser.parse_args()
    methods = {name: METHODS[name] for name in args.methods.split(",")}
    workdir = args.workdir or tempfile.mkdtemp(prefix="clmkl-dna-")
    os.makedirs(workdir, exist_ok=True)
    data = args.data or os.path.join(workdir, "data")
    if not os.path.exists(os.path.join(data, "dna-bin.seq")):
        subprocess.run([os.path.join(ROOT, "scripts", "export-r-sequences.sh"), data], check=True)
    labels, sequences = read(os.path.join(data, "dna-bin.seq"))
    sizes = [int(s) for s in args.sizes.split(",")]
    table = {name: {n: [] for n in sizes} for name in methods}
    model = os.path.join(workdir, "model.km")
    files = {part: os.path.join(workdir, part + ".seq") for part in ("train", "valid", "test")}
    for split in range(args.splits):
        order = np.random.default_rng(split + 1).permutation(len(labels))
        for n in sizes:
            write(files["train"], labels, sequences, order[:n])
            write(files["valid"], labels, sequences, order[n:n + 500])
            write(files["test"], labels, sequences, order[n + 500:])
            for name, grid in methods.items():
                best = None
                for extra in grid:
                    run([args.kernelmix, "train", "-q", *KERNELS, *extra, files["train"], model])
                    score = auc(args.kernelmix, model, files["valid"], workdir)
                    if best is None or score > best[0]:
                        best = (score, auc(args.kernelmix, model, files["test"], workdir))
                table[name][n].append(best[1])
                print("split %d n %4d %-12s validation AUC %.4f test AUC %.4f" % (split + 1, n, name, *best),
                      flush=True)
    print("\nmean test AUC (%%) over %d splits, DNA-bin (ei, ie vs n), 20 positional kernels" % args.splits)
    print("| n | " + " | ".join(str(n) for n in sizes) + " |")
    print("|---|" + "---|" * len(sizes))
    for name in methods:
        print("| %s | " % name + " | ".join("%.1f" % (100 * np.mean(table[name][n])) for n in sizes) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
