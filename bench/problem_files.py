"""Writes one benchmark problem to a directory: LIBSVM sparse train/test files, optionally the
uniform-sum precomputed kernels for svm-train -t 4, optionally every base kernel as a float32
KMMATRIX file (training n x n, test n_test x n) with the lists and the kernelmix spec file naming
them, and meta.json describing it all.

A directory whose meta.json was written with the same parameters is reused as it is, so repeated
benchmark runs do not regenerate (or time) their data."""

import json
import os
import sys

import numpy as np

from kernels import mean_squared_distance, rbf_sum, squared_distances
from libsvm_files import write_precomputed, write_sparse
from matrix_files import write_matrix

META = "meta.json"


def print_meta(meta):
    """A data script's answer: the problem's meta as JSON on standard output."""
    json.dump(meta, sys.stdout, indent=1)
    sys.stdout.write("\n")


def run_data_script(main, errors=(OSError, ValueError)):
    """Runs a data script's main on its arguments; a failure ends it with one line naming the script."""
    try:
        main(sys.argv[1:])
    except errors as error:
        sys.exit("%s: %s" % (os.path.basename(sys.argv[0]), error))


def cached(out_dir, params):
    """The meta of out_dir when it was prepared with exactly these parameters, else None."""
    path = os.path.join(out_dir, META)
    if not os.path.exists(path):
        return None
    with open(path) as f:
        meta = json.load(f)
    return meta if meta.get("params") == params else None


def _write_lines(out_dir, name, lines):
    path = os.path.join(out_dir, name)
    with open(path, "w") as f:
        f.writelines(line + "\n" for line in lines)
    return path


def write_kernel_files(out_dir, X_train, X_test, gammas):
    """One training and one test matrix file per RBF width; returns the meta entries."""
    os.makedirs(os.path.join(out_dir, "kernels"), exist_ok=True)
    D_train, D_test = squared_distances(X_train, X_train), squared_distances(X_test, X_train)
    files = {"train_kernel_files": [], "test_kernel_files": []}
    for m, gamma in enumerate(gammas):
        for key, D, part in (("train_kernel_files", D_train, "train"), ("test_kernel_files", D_test, "test")):
            path = os.path.join(out_dir, "kernels", "%s.%d.bin" % (part, m + 1))
            write_matrix(path, np.exp(-gamma * D), np.float32)
            files[key].append(path)
    files["train_kernel_list"] = _write_lines(out_dir, "train_kernels.txt", files["train_kernel_files"])
    files["test_kernel_list"] = _write_lines(out_dir, "test_kernels.txt", files["test_kernel_files"])
    files["kernel_specs"] = _write_lines(out_dir, "kernels.spec",
                                         ["precomputed:file=" + path for path in files["train_kernel_files"]])
    return files


def write_problem(out_dir, params, X_train, y_train, X_test, y_test, gammas, precomputed=False,
                  kernel_files=False):
    """Writes the files and returns the meta dictionary (also saved as meta.json, last, so an
    interrupted preparation is never mistaken for a finished one)."""
    os.makedirs(out_dir, exist_ok=True)
    meta = {
        "params": params,
        "n_train": int(X_train.shape[0]),
        "n_test": int(X_test.shape[0]),
        "dim": int(X_train.shape[1]),
        "positives_train": int((y_train > 0).sum()),
        "mean_sq_dist": mean_squared_distance(X_train),
        "gammas": [float(g) for g in gammas],
        "train": os.path.join(out_dir, "train.svm"),
        "test": os.path.join(out_dir, "test.svm"),
        "train_kernel": None,
        "test_kernel": None,
    }
    write_sparse(meta["train"], X_train, y_train)
    write_sparse(meta["test"], X_test, y_test)
    if precomputed:
        meta["train_kernel"] = os.path.join(out_dir, "train.kernel")
        meta["test_kernel"] = os.path.join(out_dir, "test.kernel")
        write_precomputed(meta["train_kernel"], rbf_sum(squared_distances(X_train, X_train), gammas), y_train)
        write_precomputed(meta["test_kernel"], rbf_sum(squared_distances(X_test, X_train), gammas), y_test)
    if kernel_files:
        meta.update(write_kernel_files(out_dir, X_train, X_test, gammas))
    with open(os.path.join(out_dir, META + ".tmp"), "w") as f:
        json.dump(meta, f, indent=1)
    os.replace(os.path.join(out_dir, META + ".tmp"), os.path.join(out_dir, META))
    return meta
