#!/usr/bin/python3
"""Fashion-MNIST benchmark data from Debian's dataset-fashion-mnist.

Reads the IDX files, keeps a binary task (default T-shirt/top, class 0, as +1 against Shirt, class 6,
as -1; or ten-class, all classes with their labels), draws N training images with a fixed seed from the task's training images (class balance as
it falls), takes the test rows from t10k, scales pixels to [0,1] and writes LIBSVM sparse files.
gamma0 = 1/mean ||x - x'||^2 over the training pairs; the RBF widths are gamma0 * 2^k.
Prints the problem's meta (paths, gamma0, gammas) as JSON."""

import argparse
import gzip
import os
import struct

import numpy as np

from kernels import mean_squared_distance
from problem_files import cached, write_problem, print_meta, run_data_script

DATA_DIR = "/usr/share/datasets/fashion-mnist"
IMAGES_MAGIC = 0x00000803   # uint8, 3 dimensions
LABELS_MAGIC = 0x00000801   # uint8, 1 dimension

# task name -> (classes labelled +1, classes labelled -1), or None: all ten classes with their own labels
TASKS = {
    "tshirt-shirt": ((0,), (6,)),
    "even-odd": ((0, 2, 4, 6, 8), (1, 3, 5, 7, 9)),
    "ten-class": None,
}


def read_idx(path, magic):
    """Array of an IDX file: big-endian uint32 magic (0x08 = uint8 data, low byte = number of
    dimensions), one big-endian uint32 per dimension, then the data."""
    with gzip.open(path, "rb") as f:
        raw = f.read()
    (found,) = struct.unpack(">I", raw[:4])
    if found != magic:
        raise ValueError("%s: IDX magic 0x%08x, expected 0x%08x" % (path, found, magic))
    ndim = magic & 0xFF
    shape = struct.unpack(">%dI" % ndim, raw[4:4 + 4 * ndim])
    data = np.frombuffer(raw, dtype=np.uint8, offset=4 + 4 * ndim)
    if data.size != int(np.prod(shape)):
        raise ValueError("%s: %d values for shape %s" % (path, data.size, shape))
    return data.reshape(shape)


def load_split(data_dir, split):
    """(images as n x 784 uint8, labels) of split 'train' or 't10k'."""
    images = read_idx(os.path.join(data_dir, "%s-images-idx3-ubyte.gz" % split), IMAGES_MAGIC)
    labels = read_idx(os.path.join(data_dir, "%s-labels-idx1-ubyte.gz" % split), LABELS_MAGIC)
    if images.shape[0] != labels.shape[0]:
        raise ValueError("%s: %d images but %d labels" % (split, images.shape[0], labels.shape[0]))
    return images.reshape(images.shape[0], -1), labels


def task_rows(images, labels, task, count, rng):
    """count rows drawn without replacement from the task's rows (all of them, in file order, when
    count is their number; more is an error), scaled to [0,1], with +1/-1 labels (the class labels
    0..9 for ten-class)."""
    classes = TASKS[task]
    pool = np.arange(labels.size) if classes is None else np.flatnonzero(np.isin(labels, classes[0] + classes[1]))
    if count > pool.size:
        raise ValueError("task %s has %d rows, %d requested" % (task, pool.size, count))
    rows = pool if count == pool.size else np.sort(rng.choice(pool, size=count, replace=False))
    X = images[rows].astype(np.float64) / 255.0
    y = labels[rows].astype(np.float64) if classes is None else np.where(np.isin(labels[rows], classes[0]), 1.0, -1.0)
    return X, y


def parse_exponents(text, count=None):
    """'0' -> [0]; '-5..4' -> [-5, ..., 4]; '-1,0,1' -> [-1, 0, 1]; ('-5..4', count) -> count
    values evenly spaced from -5 to 4."""
    if ".." in text:
        low, high = (float(v) for v in text.split(".."))
        if count is not None:
            return [float(v) for v in np.linspace(low, high, count)]
        return list(range(int(low), int(high) + 1))
    if count is not None:
        raise ValueError("--width-count needs --widths LOW..HIGH")
    return [float(v) for v in text.split(",")]


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, required=True, help="training rows")
    parser.add_argument("--test-size", type=int, default=2000, help="test rows from t10k (default 2000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--task", choices=sorted(TASKS), default="tshirt-shirt")
    parser.add_argument("--widths", default="0", help="exponents k of gamma0*2^k: '0', '-5..4' or a list")
    parser.add_argument("--width-count", type=int,
                        help="instead of the integers of --widths LOW..HIGH, this many exponents evenly spaced "
                             "from LOW to HIGH")
    parser.add_argument("--precomputed", action="store_true",
                        help="also write the uniform-sum kernel files for svm-train -t 4")
    parser.add_argument("--kernel-files", action="store_true",
                        help="also write every base kernel as a KMMATRIX file (for precomputed-kernel tools)")
    parser.add_argument("--data-dir", default=DATA_DIR)
    parser.add_argument("--out", required=True, help="directory for the files")
    args = parser.parse_args(argv)

    params = {"dataset": "fashion-mnist", "task": args.task, "n": args.n, "test_size": args.test_size,
              "seed": args.seed, "widths": parse_exponents(args.widths, args.width_count),
              "precomputed": args.precomputed, "kernel_files": args.kernel_files}
    meta = cached(args.out, params)
    if meta is None:
        rng = np.random.default_rng(args.seed)
        X_train, y_train = task_rows(*load_split(args.data_dir, "train"), args.task, args.n, rng)
        X_test, y_test = task_rows(*load_split(args.data_dir, "t10k"), args.task, args.test_size, rng)
        gamma0 = 1.0 / mean_squared_distance(X_train)
        gammas = [gamma0 * 2.0 ** k for k in params["widths"]]
        meta = write_problem(args.out, params, X_train, y_train, X_test, y_test, gammas,
                             args.precomputed, args.kernel_files)
    print_meta(meta)


if __name__ == "__main__":
    run_data_script(main)
