#!/usr/bin/python3
"""Python peers with command lines shaped like svm-train / svm-predict, so the harness times them
the same way:

  python_peer.py train (-g G1,G2,... | -k TRAIN_KERNEL_LIST) [-c C] [-e EPS] [-m MB] TRAIN_FILE MODEL_FILE
  python_peer.py predict [-k TEST_KERNEL_LIST] TEST_FILE MODEL_FILE OUTPUT_FILE
  python_peer.py kernel -g GAMMA TRAIN_FILE OUTPUT_FILE

train/predict: scikit-learn SVC(kernel='precomputed') on the uniform sum of the base kernels: RBF
kernels computed here from the LIBSVM sparse rows (train: n x n, predict: n_test x n), or kernel
matrix files (KMMATRIX, listed one path a line) read and summed here. Either way building the kernel
is part of the timed work. The model file is a pickle of the fitted SVC with the widths and the
training rows (a precomputed-kernel SVC needs them to build the test kernel).
kernel: scikit-learn's rbf_kernel of the training rows, written as a float64 KMMATRIX file."""

import argparse
import pickle
import sys

import numpy as np
from sklearn.datasets import load_svmlight_file
from sklearn.metrics.pairwise import rbf_kernel
from sklearn.svm import SVC

from kernels import rbf_sum, squared_distances
from matrix_files import read_matrix, write_matrix


def read_rows(path, n_features=None):
    X, y = load_svmlight_file(path, n_features=n_features)
    return X.toarray(), y


def summed_matrices(list_path):
    with open(list_path) as f:
        paths = [line.strip() for line in f if line.strip()]
    K = read_matrix(paths[0])
    for path in paths[1:]:
        K += read_matrix(path)
    return K


def train(args):
    if (args.gammas is None) == (args.kernel_list is None):
        sys.exit("python_peer.py train: give exactly one of -g and -k")
    X, y = read_rows(args.train_file)
    saved = {}
    if args.kernel_list:
        K = summed_matrices(args.kernel_list)
    else:
        saved["gammas"] = [float(g) for g in args.gammas.split(",")]
        saved["X"] = X
        K = rbf_sum(squared_distances(X, X), saved["gammas"])
    saved["svc"] = SVC(kernel="precomputed", C=args.C, tol=args.epsilon, cache_size=args.cache_mb).fit(K, y)
    with open(args.model_file, "wb") as f:
        pickle.dump(saved, f, protocol=pickle.HIGHEST_PROTOCOL)


def predict(args):
    with open(args.model_file, "rb") as f:
        saved = pickle.load(f)
    if "X" in saved:
        X, y = read_rows(args.test_file, n_features=saved["X"].shape[1])
        K = rbf_sum(squared_distances(X, saved["X"]), saved["gammas"])
    elif args.kernel_list:
        y = load_svmlight_file(args.test_file)[1]
        K = summed_matrices(args.kernel_list)
    else:
        sys.exit("python_peer.py predict: the model was trained on kernel files; give -k")
    predicted = saved["svc"].predict(K)
    np.savetxt(args.output_file, predicted, fmt="%.17g")
    correct = int((predicted == y).sum())
    print("Accuracy = %g%% (%d/%d) (classification)" % (100.0 * correct / len(y), correct, len(y)))


def kernel(args):
    X = read_rows(args.train_file)[0]
    write_matrix(args.output_file, rbf_kernel(X, gamma=args.gamma))


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    fit = commands.add_parser("train")
    fit.add_argument("-g", dest="gammas", help="RBF widths, comma-separated")
    fit.add_argument("-k", dest="kernel_list", help="file listing the training kernel matrices")
    fit.add_argument("-c", dest="C", type=float, default=1.0)
    fit.add_argument("-e", dest="epsilon", type=float, default=1e-3)
    fit.add_argument("-m", dest="cache_mb", type=float, default=100.0)
    fit.add_argument("train_file")
    fit.add_argument("model_file")
    fit.set_defaults(run=train)
    test = commands.add_parser("predict")
    test.add_argument("-k", dest="kernel_list", help="file listing the test kernel matrices")
    test.add_argument("test_file")
    test.add_argument("model_file")
    test.add_argument("output_file")
    test.set_defaults(run=predict)
    gram = commands.add_parser("kernel")
    gram.add_argument("-g", dest="gamma", type=float, required=True)
    gram.add_argument("train_file")
    gram.add_argument("output_file")
    gram.set_defaults(run=kernel)
    args = parser.parse_args(argv)
    args.run(args)


if __name__ == "__main__":
    main(sys.argv[1:])
