#!/usr/bin/python3
"""Data of the model-selection benchmark (cv_grid.py): fashion-MNIST T-shirt/top (class 0, +1) against
shirt (class 6, -1), the first N/2 training images of each class (in the order of the training file,
so no seed is involved), pixels scaled to [0,1], written as one LIBSVM sparse file.

Beside it, for the peers that cannot share kernelmix cv's folds by themselves:
- the fold of every row (folds.json), taken from libkernelmix's km_folds with the seed kernelmix cv
  and train -v use (stratified, each class dealt round-robin over the folds in a seeded order), and
  each fold's training and test rows as LIBSVM files (fold<f>.train, fold<f>.test; rows in file
  order, as kernelmix cv hands them to training), so that separate `kernelmix train` runs repeat
  exactly the fits of kernelmix cv;
- the uniform sum of the RBF kernels gamma_k = 2^k / mean ||x - x'||^2 (the mean over all N rows) as
  LIBSVM precomputed-kernel text (train.kernel) for svm-train -t 4.

Prints the problem's meta as JSON. A directory prepared with the same parameters is reused."""

import argparse
import ctypes
import json
import os
import sys

import numpy as np

from fashion_mnist import DATA_DIR, load_split
from kernels import mean_squared_distance, rbf_sum, squared_distances
from libsvm_files import write_precomputed, write_sparse
from problem_files import META, cached

POSITIVE, NEGATIVE = 0, 6    # T-shirt/top, shirt


def first_of_each_class(images, labels, per_class):
    """The first per_class rows of each class, in file order, scaled to [0,1], labelled +1/-1."""
    rows = []
    for label in (POSITIVE, NEGATIVE):
        found = np.flatnonzero(labels == label)[:per_class]
        if found.size < per_class:
            raise ValueError("class %d has %d training images, %d requested" % (label, found.size, per_class))
        rows.append(found)
    rows = np.sort(np.concatenate(rows))
    return images[rows].astype(np.float64) / 255.0, np.where(labels[rows] == POSITIVE, 1.0, -1.0)


def kernelmix_folds(library, labels, k, seed):
    """The fold (0..k-1) of every row as kernelmix assigns them (km_folds of include/kernelmix.h)."""
    lib = ctypes.CDLL(library)
    lib.km_folds.restype = ctypes.c_int
    lib.km_folds.argtypes = [ctypes.POINTER(ctypes.c_double), ctypes.c_size_t, ctypes.c_int, ctypes.c_uint64,
                             ctypes.POINTER(ctypes.c_int)]
    labels = np.ascontiguousarray(labels, dtype=np.float64)
    folds = np.zeros(labels.size, dtype=np.intc)
    status = lib.km_folds(labels.ctypes.data_as(ctypes.POINTER(ctypes.c_double)), labels.size, k, seed,
                          folds.ctypes.data_as(ctypes.POINTER(ctypes.c_int)))
    if status != 0:
        raise ValueError("km_folds of %s failed (status %d)" % (library, status))
    return folds


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, required=True, help="rows, N/2 of each class")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1, help="kernelmix's fold seed (cv --seed, default 1)")
    parser.add_argument("--widths", default="-4..5", help="exponents k of the RBF widths 2^k/mean (default -4..5)")
    parser.add_argument("--library", required=True, help="libkernelmix.so, for km_folds")
    parser.add_argument("--data-dir", default=DATA_DIR)
    parser.add_argument("--out", required=True, help="directory for the files")
    args = parser.parse_args(argv)
    if args.n < 2 or args.n % 2:
        raise ValueError("--n must be even and positive (N/2 rows of each class)")
    low, high = (int(v) for v in args.widths.split(".."))
    params = {"dataset": "fashion-mnist", "task": "tshirt-shirt first N/2 of each class", "n": args.n,
              "folds": args.folds, "seed": args.seed, "widths": list(range(low, high + 1))}
    meta = cached(args.out, params)
    if meta is None:
        meta = prepare(args, params)
    json.dump(meta, sys.stdout, indent=1)
    sys.stdout.write("\n")


def prepare(args, params):
    os.makedirs(args.out, exist_ok=True)
    X, y = first_of_each_class(*load_split(args.data_dir, "train"), args.n // 2)
    fold = kernelmix_folds(args.library, y, args.folds, args.seed)
    mean_sq_dist = mean_squared_distance(X)
    gammas = [2.0 ** k / mean_sq_dist for k in params["widths"]]
    path = lambda name: os.path.join(args.out, name)   # noqa: E731
    meta = {"params": params, "n_train": args.n, "dim": int(X.shape[1]), "positives_train": int((y > 0).sum()),
            "mean_sq_dist": mean_sq_dist, "gammas": gammas, "train": path("train.svm"),
            "train_kernel": path("train.kernel"), "fold_of_row": path("folds.json"),
            "fold_train": [path("fold%d.train" % f) for f in range(args.folds)],
            "fold_test": [path("fold%d.test" % f) for f in range(args.folds)]}
    write_sparse(meta["train"], X, y)
    for f in range(args.folds):
        write_sparse(meta["fold_train"][f], X[fold != f], y[fold != f])
        write_sparse(meta["fold_test"][f], X[fold == f], y[fold == f])
    with open(meta["fold_of_row"], "w") as out:
        json.dump([int(v) for v in fold], out)
    write_precomputed(meta["train_kernel"], rbf_sum(squared_distances(X, X), gammas), y)
    with open(path(META + ".tmp"), "w") as out:
        json.dump(meta, out, indent=1)
    os.replace(path(META + ".tmp"), path(META))
    return meta


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except (OSError, ValueError) as error:
        sys.exit("fashion_cv.py: %s" % error)
