#!/usr/bin/python3
"""Synthetic bag-of-words rows for the rank-1 workload: N training and T test documents of 30 words
drawn from a vocabulary of DIM words with Zipf-like frequencies (p_j ~ j^-0.9), counts as features,
labelled by the sign of a sparse linear score over 40 of the 200 most frequent words plus noise (the
shape of Rostamizadeh's sentiment and Reuters experiments, thesis §3.2). Writes LIBSVM sparse files and
three kernel-spec files: every word of the training file as a rank-1 kernel ("rank1"), the first DENSE_DIM words as rank-1
kernels, and the same DENSE_DIM words as centred, trace-normalized linear kernels on one feature each
(the kernels the rank-1 family implies, computed as N x N kernels). Prints the problem's meta as JSON."""

import argparse
import json
import os

import numpy as np

from libsvm_files import write_sparse
from problem_files import META, cached, print_meta, run_data_script

WORDS_PER_DOCUMENT = 30


def documents(rng, n, dim, weights):
    p = 1.0 / np.arange(1, dim + 1) ** 0.9
    p /= p.sum()
    X = np.zeros((n, dim))
    for i in range(n):
        idx, counts = np.unique(rng.choice(dim, size=WORDS_PER_DOCUMENT, p=p), return_counts=True)
        X[i, idx] = counts
    y = np.where(X @ weights + 0.3 * rng.normal(size=n) > 0, 1, -1)
    return X, y


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=2000, help="training documents (default 2000)")
    parser.add_argument("--test-size", type=int, default=2000, help="test documents (default 2000)")
    parser.add_argument("--dim", type=int, default=4000, help="vocabulary: rank-1 kernels (default 4000)")
    parser.add_argument("--dense-dim", type=int, default=200,
                        help="words of the dense comparison (default 200)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", required=True, help="directory for the files")
    args = parser.parse_args(argv)
    dense_dim = min(args.dense_dim, args.dim)

    params = {"dataset": "bag-of-words", "n": args.n, "test_size": args.test_size, "dim": args.dim,
              "dense_dim": dense_dim, "seed": args.seed}
    meta = cached(args.out, params)
    if meta is None:
        os.makedirs(args.out, exist_ok=True)
        rng = np.random.default_rng(args.seed)
        weights = np.zeros(args.dim)
        relevant = min(40, args.dim)
        weights[rng.choice(min(200, args.dim), size=relevant, replace=False)] = rng.normal(size=relevant)
        X, y = documents(rng, args.n, args.dim, weights)
        Xt, yt = documents(rng, args.test_size, args.dim, weights)
        specs = {"kernel_specs": ["rank1"],   # every word that occurs in the training file
                 "rank1_small_specs": ["rank1:features=1-%d" % dense_dim],
                 "dense_specs": ["linear:features=%d:center=1:norm=trace" % (j + 1) for j in range(dense_dim)]}
        meta = {
            "params": params, "n_train": args.n, "n_test": args.test_size, "dim": args.dim,
            "kernel_count": args.dim,
            "positives_train": int((y > 0).sum()), "mean_sq_dist": 0.0, "gammas": [],
            "train": os.path.join(args.out, "train.svm"), "test": os.path.join(args.out, "test.svm"),
            "train_kernel": None, "test_kernel": None,
        }
        for key, lines in specs.items():
            meta[key] = os.path.join(args.out, key + ".txt")
            with open(meta[key], "w") as f:
                f.writelines(line + "\n" for line in lines)
        write_sparse(meta["train"], X, y)
        write_sparse(meta["test"], Xt, yt)
        with open(os.path.join(args.out, META), "w") as f:
            json.dump(meta, f)
    print_meta(meta)


if __name__ == "__main__":
    run_data_script(main)
