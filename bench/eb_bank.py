#!/usr/bin/python3
"""The 1760-kernel bank of examples/eb-kernel-bank (Tomioka & Suzuki's §5 experiment rebuilt on
images) on Fashion-MNIST T-shirt (+1) vs shirt (-1): N training images, N/2 of each class drawn with
a fixed seed from the training images, the test rows from t10k. Writes the histogram features as LIBSVM
files and the kernel specs (rbf and chi2 on each histogram block, widths gamma / mean D over the
training pairs; blocks constant on the draw left out) as a --kernels file. Prints the problem's meta
(paths; "gammas": the width of every kernel, so that their count is M) as JSON."""

import argparse
import json
import os
import sys

import numpy as np

from problem_files import cached, print_meta, run_data_script

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples", "eb-kernel-bank"))
import bank  # noqa: E402


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, required=True, help="training images (even)")
    parser.add_argument("--test-size", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", required=True, help="directory for the files")
    args = parser.parse_args(argv)
    params = {"dataset": "fashion-mnist", "task": "tshirt-shirt", "bank": 1760, "n": args.n,
              "test_size": args.test_size, "seed": args.seed}
    meta = cached(args.out, params)
    if meta is None:
        os.makedirs(args.out, exist_ok=True)
        rng = np.random.default_rng(args.seed)
        X, y = bank.load_fashion(0, 6, "train")
        t = np.where(y == 0, 1.0, -1.0)
        rows = np.concatenate([rng.choice(np.flatnonzero(t == c), args.n // 2, replace=False) for c in (1, -1)])
        Xt, yt = bank.load_fashion(0, 6, "t10k")
        keep = rng.permutation(len(yt))[:args.test_size]
        F = bank.features(X[rows])
        specs = bank.kernel_specs(F)
        meta = {"params": params, "n_train": len(rows), "n_test": len(keep), "dim": int(F.shape[1]),
                "positives_train": int((t[rows] > 0).sum()), "mean_sq_dist": float("nan"),
                "gammas": [float(g) for s in specs for g in s.rsplit("gamma=", 1)[1].split(",")],
                "train": os.path.join(args.out, "train.svm"), "test": os.path.join(args.out, "test.svm"),
                "train_kernel": None, "test_kernel": None,
                "kernel_specs": os.path.join(args.out, "kernels.spec")}
        bank.write_libsvm(meta["train"], F, t[rows])
        bank.write_libsvm(meta["test"], bank.features(Xt[keep]), np.where(yt[keep] == 0, 1.0, -1.0))
        with open(meta["kernel_specs"], "w") as f:
            f.write("\n".join(specs) + "\n")
        with open(os.path.join(args.out, "meta.json"), "w") as f:
            json.dump(meta, f)
    print_meta(meta)


if __name__ == "__main__":
    run_data_script(main)
