#!/usr/bin/python3
"""DNA splice junctions (r-cran-mlbench DNA, exported by scripts/export-r-sequences.sh) for the
localized-MKL training-time workload: junction (ei or ie, +1) against the rest (-1); N training rows
(--n, default 800) are every third row of the export (rows 3, 6, ...), the test rows the first
--test-size of the others; the kernels are the positional kernels of degrees 1..20, multiplicatively
normalized (docs/clmkl.md), written as a --kernels spec file. Prints the problem's meta as JSON."""

import argparse
import json
import os
import subprocess

from problem_files import META, cached, print_meta, run_data_script

REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KERNELS = "pos:degree=1..20:norm=mult"


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=800, help="training rows (default 800, at most 1062)")
    parser.add_argument("--test-size", type=int, default=2000, help="test rows (default 2000, at most 2124)")
    parser.add_argument("--out", required=True, help="directory for the files")
    args = parser.parse_args(argv)
    params = {"dataset": "dna-splice", "n": args.n, "test_size": args.test_size}
    meta = cached(args.out, params)
    if meta is None:
        os.makedirs(args.out, exist_ok=True)
        subprocess.run(["sh", os.path.join(REPOSITORY, "scripts", "export-r-sequences.sh"), args.out], check=True,
                       stdout=subprocess.DEVNULL)
        with open(os.path.join(args.out, "dna-bin.seq")) as f:
            rows = f.readlines()
        train = [row for k, row in enumerate(rows, 1) if k % 3 == 0]
        test = [row for k, row in enumerate(rows, 1) if k % 3 != 0]
        if args.n > len(train) or args.test_size > len(test):
            raise ValueError("at most %d training and %d test rows" % (len(train), len(test)))
        train, test = train[:args.n], test[:args.test_size]
        meta = {
            "params": params, "n_train": args.n, "n_test": args.test_size, "dim": 60,
            "positives_train": sum(row.startswith("+") for row in train),
            "mean_sq_dist": 0.0,      # no feature vectors
            "gammas": [0.0],          # kernels without a width
            "train": os.path.join(args.out, "train.seq"), "test": os.path.join(args.out, "test.seq"),
            "train_kernel": None, "test_kernel": None,
            "kernel_specs": os.path.join(args.out, "kernels.spec"), "kernel_count": 20,
        }
        for path, lines in ((meta["train"], train), (meta["test"], test), (meta["kernel_specs"], [KERNELS + "\n"])):
            with open(path, "w") as f:
                f.writelines(lines)
        with open(os.path.join(args.out, META), "w") as f:
            json.dump(meta, f)
    print_meta(meta)


if __name__ == "__main__":
    run_data_script(main, (OSError, ValueError, subprocess.CalledProcessError))
