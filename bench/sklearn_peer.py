#!/usr/bin/python3
"""scikit-learn peer: SVC(kernel='precomputed') on the uniform sum of RBF kernels, with a
command line shaped like svm-train / svm-predict so the harness times it the same way.

  sklearn_peer.py train -g G1,G2,... [-c C] [-e EPS] [-m MB] TRAIN_FILE MODEL_FILE
  sklearn_peer.py predict TEST_FILE MODEL_FILE OUTPUT_FILE

Files are LIBSVM sparse rows. The kernel matrices are computed here (train: n x n, predict:
n_test x n) and so are part of the timed work. The model file is a pickle of the fitted SVC, the
widths and the training rows (a precomputed-kernel SVC needs them to build the test kernel)."""

import argparse
import pickle
import sys

import numpy as np
from sklearn.datasets import load_svmlight_file
from sklearn.svm import SVC

from kernels import rbf_sum, squared_distances


def read_rows(path, n_features=None):
    X, y = load_svmlight_file(path, n_features=n_features)
    return X.toarray(), y


def train(args):
    X, y = read_rows(args.train_file)
    gammas = [float(g) for g in args.gammas.split(",")]
    model = SVC(kernel="precomputed", C=args.C, tol=args.epsilon, cache_size=args.cache_mb)
    model.fit(rbf_sum(squared_distances(X, X), gammas), y)
    with open(args.model_file, "wb") as f:
        pickle.dump({"svc": model, "gammas": gammas, "X": X}, f, protocol=pickle.HIGHEST_PROTOCOL)


def predict(args):
    with open(args.model_file, "rb") as f:
        saved = pickle.load(f)
    X_train = saved["X"]
    X, y = read_rows(args.test_file, n_features=X_train.shape[1])
    predicted = saved["svc"].predict(rbf_sum(squared_distances(X, X_train), saved["gammas"]))
    np.savetxt(args.output_file, predicted, fmt="%.17g")
    correct = int((predicted == y).sum())
    print("Accuracy = %g%% (%d/%d) (classification)" % (100.0 * correct / len(y), correct, len(y)))


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    fit = commands.add_parser("train")
    fit.add_argument("-g", dest="gammas", required=True, help="RBF widths, comma-separated")
    fit.add_argument("-c", dest="C", type=float, default=1.0)
    fit.add_argument("-e", dest="epsilon", type=float, default=1e-3)
    fit.add_argument("-m", dest="cache_mb", type=float, default=100.0)
    fit.add_argument("train_file")
    fit.add_argument("model_file")
    fit.set_defaults(run=train)
    test = commands.add_parser("predict")
    test.add_argument("test_file")
    test.add_argument("model_file")
    test.add_argument("output_file")
    test.set_defaults(run=predict)
    args = parser.parse_args(argv)
    args.run(args)


if __name__ == "__main__":
    main(sys.argv[1:])
