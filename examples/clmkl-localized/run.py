#!/usr/bin/python3
"""The synthetic localized-relevance benchmark of docs/clmkl.md (Lei, Binder, Dogan & Kloft's setting
for convex localized MKL): three regions of a location z, each with its own relevant feature group.
Trains the uniform sum (UNIF), lp-norm MKL (MKL), localized MKL (CLMKL), its hard-membership
variant (HLMKL) and the gated LMKL (gating on z) with kernelmix on n training rows, chooses C (and CLMKL's average evenness) on 1000
validation rows, and reports test accuracy on 2000 rows, averaged over seeds. Then checks the
acceptance: CLMKL >= MKL + 0.15, MKL >= UNIF - 0.005, and at p in {1, 4/3}, AE = 0.4, C = 1 every
cluster gives its largest weight to the group relevant in the cluster's majority region.

usage: run.py KERNELMIX [--seeds S] [--n N] [--workdir DIR]    (exit status 1: acceptance failed)"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from generate import generate, write_svm  # noqa: E402

GROUPS = ["3-7", "8-12", "13-17", "18-37", "38-57", "58-77", "78-97", "98-117"]
KERNELS = [arg for g in GROUPS for arg in ("--kernel", "linear:features=%s:norm=mult" % g)]
CLUSTERING = ["--cluster-kernel", "linear:features=1-2", "--clusters", "3"]
GATING = CLUSTERING[:2]   # lmkl gates every kernel on the clustering kernel: no clusters
GRID_C = ["0.1", "1", "10"]
GRID_AE = ["0.4", "0.6"]
P = "4/3"


def run(cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def accuracy(kernelmix, model, path, workdir):
    out = os.path.join(workdir, "predicted.txt")
    run([kernelmix, "predict", path, model, out])
    truth = np.array([float(line.split()[0]) for line in open(path)])
    return float(np.mean(np.loadtxt(out) == truth))


def best_on_validation(kernelmix, options, files, workdir):
    """(validation accuracy, test accuracy) of the option set with the best validation accuracy."""
    model = os.path.join(workdir, "model.km")
    best = None
    for extra in options:
        run([kernelmix, "train", "-q", *KERNELS, *extra, files["train"], model])
        score = accuracy(kernelmix, model, files["valid"], workdir)
        if best is None or score > best[0]:
            best = (score, accuracy(kernelmix, model, files["test"], workdir), extra)
    return best


def relevant_group_check(kernelmix, files, workdir, regions):
    """At p in {1, 4/3}, AE = 0.4, C = 1: per cluster, whether the largest weight is the group of the
    cluster's majority region; returns a list of (p, cluster, region, argmax group)."""
    clusters = os.path.join(workdir, "clusters.txt")
    run([kernelmix, "cluster", *KERNELS, *CLUSTERING, "--ae", "0.4", files["train"], clusters])
    labels = np.loadtxt(clusters, comments="#")[:, 0].astype(int) - 1
    rows = []
    for p in ("1", "4/3"):
        model = os.path.join(workdir, "model.km")
        run([kernelmix, "train", "-q", *KERNELS, *CLUSTERING, "--mkl", "clmkl", "--p", p, "--ae", "0.4", "-c", "1",
             files["train"], model])
        weights = json.loads(run([kernelmix, "info", "--json", model]))["machines"][0]["cluster_weights"]
        for j, beta in enumerate(weights):
            majority = int(np.bincount(regions[labels == j], minlength=3).argmax())
            rows.append((p, j + 1, majority + 1, int(np.argmax(beta)) + 1))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("kernelmix")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--n", type=int, default=400)
    parser.add_argument("--workdir")
    args = parser.parse_args()
    workdir = args.workdir or tempfile.mkdtemp(prefix="clmkl-localized-")
    os.makedirs(workdir, exist_ok=True)
    methods = {
        "UNIF": [["--mkl", "fixed", "-c", c] for c in GRID_C],
        "MKL": [["--mkl", "lp", "--p", P, "-c", c] for c in GRID_C],
        "HLMKL": [["--mkl", "hlmkl", "--p", P, "-c", c, *CLUSTERING] for c in GRID_C],
        "LMKL": [["--mkl", "lmkl", "-c", c, *GATING] for c in GRID_C],
        "CLMKL": [["--mkl", "clmkl", "--p", P, "--ae", ae, "-c", c, *CLUSTERING] for c in GRID_C for ae in GRID_AE],
    }
    scores = {name: [] for name in methods}
    weight_rows = []
    for seed in range(1, args.seeds + 1):
        files = {}
        for part, n, offset in (("train", args.n, 0), ("valid", 1000, 1000), ("test", 2000, 2000)):
            x, y, regions = generate(n, seed + offset)
            files[part] = os.path.join(workdir, "%s.svm" % part)
            write_svm(files[part], x, y)
            if part == "train":
                train_regions = regions
        for name, options in methods.items():
            valid, test, chosen = best_on_validation(args.kernelmix, options, files, workdir)
            scores[name].append(test)
            print("seed %d  %-6s validation %.4f  test %.4f  (%s)" % (seed, name, valid, test, " ".join(chosen)))
        weight_rows += relevant_group_check(args.kernelmix, files, workdir, train_regions)
    mean = {name: float(np.mean(values)) for name, values in scores.items()}
    print("\nmean test accuracy over %d seeds, n_train = %d" % (args.seeds, args.n))
    for name in methods:
        print("  %-6s %.4f" % (name, mean[name]))
    print("\nlargest weight per cluster (p, cluster, majority region, group with the largest weight):")
    for row in weight_rows:
        print("  p=%-3s cluster %d  region %d  group %d" % row)
    checks = [("CLMKL >= MKL + 0.15", mean["CLMKL"] >= mean["MKL"] + 0.15),
              ("MKL >= UNIF - 0.005", mean["MKL"] >= mean["UNIF"] - 0.005),
              ("relevant group has the largest weight in every cluster",
               all(region == group for _, _, region, group in weight_rows))]
    for text, ok in checks:
        print("%s: %s" % ("pass" if ok else "FAIL", text))
    return 0 if all(ok for _, ok in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
