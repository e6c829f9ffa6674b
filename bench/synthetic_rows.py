#!/usr/bin/python3
"""Large synthetic classification sets with a known Bayes error, for the benchmarks of training on many
rows (docs/large-scale.md): rows x ~ N(0, I_D), the label the sign of x_1 x_2 (an XOR of two features,
which no linear model separates) flipped with probability NOISE. The Bayes classifier is sign(x_1 x_2)
and its error is NOISE exactly. Writes LIBSVM files in blocks of 100,000 rows (memory stays small for
millions of rows) and a kernel-spec file of low-rank RBF kernels; prints the problem's meta as JSON.

    /usr/bin/python3 bench/synthetic_rows.py --n ROWS --out DIR [--test-size T] [--features D]
                                              [--noise NOISE] [--rank R] [--seed S]"""
import argparse
import json
import os

import numpy as np

from problem_files import META, cached, print_meta, run_data_script

BLOCK = 100_000
KERNELS = "rbf:gamma=2^-1..2^2/mean:rank=%d"   # four widths around 1/mean ||x - x'||^2


def write_rows(path, rng, rows, features, noise):
    columns = [f"{j + 1}:" for j in range(features)]
    with open(path, "w") as out:
        for first in range(0, rows, BLOCK):
            n = min(BLOCK, rows - first)
            x = rng.standard_normal((n, features))
            y = np.where(x[:, 0] * x[:, 1] >= 0, 1, -1) * np.where(rng.random(n) < noise, -1, 1)
            out.writelines(f"{label:+d} " + " ".join(c + f"{v:.5g}" for c, v in zip(columns, row)) + "\n"
                           for label, row in zip(y, x))


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=200_000, help="training rows (default 200,000)")
    parser.add_argument("--test-size", type=int, default=20_000, help="test rows (default 20,000)")
    parser.add_argument("--features", type=int, default=30, help="D, at least 2 (default 30)")
    parser.add_argument("--noise", type=float, default=0.1, help="the label-flip probability: the Bayes error "
                        "(default 0.1)")
    parser.add_argument("--rank", type=int, default=300, help="landmarks of each low-rank kernel (default 300)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", required=True, help="directory for the files")
    args = parser.parse_args(argv)
    if args.features < 2 or not 0 <= args.noise < 0.5 or args.n < 1 or args.test_size < 1 or args.rank < 1:
        raise ValueError("--n, --test-size and --rank >= 1, --features >= 2 and 0 <= --noise < 0.5 are needed")
    params = {"dataset": "synthetic-xor", "n": args.n, "test_size": args.test_size, "features": args.features,
              "noise": args.noise, "rank": args.rank, "seed": args.seed}
    meta = cached(args.out, params)
    if meta is None:
        os.makedirs(args.out, exist_ok=True)
        rng = np.random.default_rng(args.seed)
        meta = {"params": params, "n_train": args.n, "n_test": args.test_size, "dim": args.features,
                "bayes_error": args.noise, "kernel_count": 4, "mean_sq_dist": 2.0 * args.features, "gammas": [],
                "train": os.path.join(args.out, "train.svm"), "test": os.path.join(args.out, "test.svm"),
                "kernel_specs": os.path.join(args.out, "kernels.spec"), "train_kernel": None, "test_kernel": None}
        write_rows(meta["train"], rng, args.n, args.features, args.noise)
        write_rows(meta["test"], rng, args.test_size, args.features, args.noise)
        with open(meta["kernel_specs"], "w") as f:
            f.write(KERNELS % args.rank + "\n")
        with open(os.path.join(args.out, META), "w") as f:
            json.dump(meta, f)
    print_meta(meta)


if __name__ == "__main__":
    run_data_script(main)
