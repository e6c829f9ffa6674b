#!/usr/bin/python3
"""Random DNA sequences for the string-kernel workloads: N training and T test sequences of LENGTH
letters drawn uniformly from ACGT with a fixed seed, labelled +1 when the motif GATTACA was planted
at position 20 (every second sequence), else -1; written as labelled sequences ("LABEL<TAB>SEQUENCE",
docs/kernels.md). Random letters make runs of agreeing positions as short as real sequences'
(expected length 4/3), the weighted-degree kernel's common case. Prints the problem's meta as JSON."""

import argparse
import json
import os

import numpy as np

from problem_files import META, cached, print_meta, run_data_script

MOTIF = "GATTACA"
MOTIF_AT = 20


def sequences(rng, n, length):
    letters = np.array(list("ACGT"))[rng.integers(0, 4, size=(n, length))]
    rows = ["".join(row) for row in letters]
    labels = [1 if i % 2 == 0 else -1 for i in range(n)]
    return [row[:MOTIF_AT] + MOTIF + row[MOTIF_AT + len(MOTIF):] if y > 0 else row
            for row, y in zip(rows, labels)], labels


def write(path, rows, labels):
    with open(path, "w") as f:
        f.writelines("%+d\t%s\n" % (y, row) for row, y in zip(rows, labels))


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=2000, help="training sequences (default 2000)")
    parser.add_argument("--test-size", type=int, default=500, help="test sequences (default 500)")
    parser.add_argument("--length", type=int, default=60, help="letters per sequence (default 60)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", required=True, help="directory for the files")
    args = parser.parse_args(argv)
    if args.length < MOTIF_AT + len(MOTIF):
        raise ValueError("--length must be at least %d" % (MOTIF_AT + len(MOTIF)))

    params = {"dataset": "random-dna", "n": args.n, "test_size": args.test_size, "length": args.length,
              "seed": args.seed}
    meta = cached(args.out, params)
    if meta is None:
        os.makedirs(args.out, exist_ok=True)
        rng = np.random.default_rng(args.seed)
        train, y_train = sequences(rng, args.n, args.length)
        test, y_test = sequences(rng, args.test_size, args.length)
        meta = {
            "params": params, "n_train": args.n, "n_test": args.test_size, "dim": args.length,
            "positives_train": sum(y > 0 for y in y_train),
            "mean_sq_dist": 0.0,      # no feature vectors
            "gammas": [0.0],          # one kernel, without a width
            "train": os.path.join(args.out, "train.seq"), "test": os.path.join(args.out, "test.seq"),
            "train_kernel": None, "test_kernel": None,
        }
        write(meta["train"], train, y_train)
        write(meta["test"], test, y_test)
        with open(os.path.join(args.out, META), "w") as f:
            json.dump(meta, f)
    print_meta(meta)


if __name__ == "__main__":
    run_data_script(main)
