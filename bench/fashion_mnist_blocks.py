#!/usr/bin/python3
"""Fashion-MNIST with all 10 classes and the 12-kernel set-up of Orabona, Jie & Caputo's MNIST
experiment (JMLR 2012, §5.4): the 28x28 image in 4 blocks of 14x14 pixels (scaled to [0,1]), each with
a linear, a quadratic ((x.x'/196 + 1)^2) and an RBF kernel (gamma = 1/mean squared distance of the
block's training pixels, the meta's gammas), linear and quadratic ones cosine-normalised; the spec file names them for --kernels.

Draws N training images with a fixed seed from the 60,000 (all of them, in file order, for N = 60,000)
and the first --test-size t10k images; writes LIBSVM sparse files and prints the problem's meta as
JSON (bench/problem_files.py)."""

import argparse
import json
import os

import numpy as np

from fashion_mnist import DATA_DIR, load_split
from kernels import mean_squared_distance
from problem_files import META, cached, write_problem, print_meta, run_data_script


def block_columns(block):
    """0-based pixel columns of block 0..3: top-left, top-right, bottom-left, bottom-right."""
    top, left = 14 * (block // 2), 14 * (block % 2)
    return [(top + r) * 28 + left + c for r in range(14) for c in range(14)]


def block_specs(gammas):
    """Kernel index 3 block + type; gammas: the RBF width of each block."""
    specs = []
    for block in range(4):
        top, left = 14 * (block // 2), 14 * (block % 2)
        features = ",".join("%d-%d" % ((top + r) * 28 + left + 1, (top + r) * 28 + left + 14) for r in range(14))
        specs += ["linear:features=%s:norm=spherical" % features,
                  "poly:degree=2:gamma=%r:coef0=1:features=%s:norm=spherical" % (1.0 / 196, features),
                  "rbf:gamma=%r:features=%s" % (gammas[block], features)]
    return specs


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, required=True, help="training rows (at most 60,000)")
    parser.add_argument("--test-size", type=int, default=10000, help="first t10k rows (default 10000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--data-dir", default=DATA_DIR)
    parser.add_argument("--out", required=True, help="directory for the files")
    args = parser.parse_args(argv)
    params = {"dataset": "fashion-mnist-blocks", "n": args.n, "test_size": args.test_size, "seed": args.seed,
              "kernels": "4 blocks x linear, quadratic, RBF of the block's width"}
    meta = cached(args.out, params)
    if meta is None:
        images, labels = load_split(args.data_dir, "train")
        if args.n > images.shape[0]:
            raise ValueError("%d training rows requested, %d exist" % (args.n, images.shape[0]))
        rows = np.arange(args.n) if args.n == images.shape[0] else \
            np.sort(np.random.default_rng(args.seed).choice(images.shape[0], size=args.n, replace=False))
        test_images, test_labels = load_split(args.data_dir, "t10k")
        X = images[rows] / 255.0
        gammas = [1.0 / mean_squared_distance(X[:, block_columns(block)]) for block in range(4)]
        os.makedirs(args.out, exist_ok=True)
        specs = os.path.join(args.out, "blocks.spec")
        with open(specs, "w") as f:
            f.writelines(spec + "\n" for spec in block_specs(gammas))
        meta = write_problem(args.out, params, X, labels[rows].astype(np.float64),
                             test_images[:args.test_size] / 255.0, test_labels[:args.test_size].astype(np.float64),
                             gammas)
        meta["kernel_specs"] = specs
        meta["kernel_count"] = len(block_specs(gammas))
        with open(os.path.join(args.out, META + ".tmp"), "w") as f:
            json.dump(meta, f, indent=1)
        os.replace(os.path.join(args.out, META + ".tmp"), os.path.join(args.out, META))
    print_meta(meta)


if __name__ == "__main__":
    run_data_script(main)
