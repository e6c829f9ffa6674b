#!/usr/bin/python3
"""The Python package on a benchmark problem, with command lines shaped like svm-train / svm-predict so
the harness times it as it times the CLI on the same job (the difference is the Python layer:
interpreter start, imports, reading the LIBSVM file with scikit-learn, the binding):

  kernelmix_python.py train -g G1,G2,... [--mkl] [-c C] [-e EPS] [-m MB] TRAIN_FILE MODEL_FILE
  kernelmix_python.py predict TEST_FILE MODEL_FILE OUTPUT_FILE

train: MKLClassifier with one rbf:gamma=G kernel per width, the uniform sum (method "fixed", as the
CLI's kernelmix rows) or with --mkl lp-norm MKL, p = 4/3 (the kernelmix-mkl rows). The model file is
the pickled estimator (the library's model bytes inside)."""
import argparse
import os
import pickle
import sys

import numpy as np
from sklearn.datasets import load_svmlight_file

REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPOSITORY, "python"))
from kernelmix import MKLClassifier  # noqa: E402


def train(args):
    X, y = load_svmlight_file(args.train_file)
    kernels = ["rbf:gamma=%r" % float(g) for g in args.gammas.split(",")]
    clf = MKLClassifier(kernels=kernels, method="lp" if args.mkl else "fixed", p="4/3", C=args.C, tol=args.epsilon,
                        cache_size=args.cache_mb).fit(X, y)
    with open(args.model_file, "wb") as f:
        pickle.dump(clf, f, protocol=pickle.HIGHEST_PROTOCOL)


def predict(args):
    with open(args.model_file, "rb") as f:
        clf = pickle.load(f)
    X, y = load_svmlight_file(args.test_file, n_features=clf.n_features_in_)
    predicted = clf.predict(X)
    np.savetxt(args.output_file, predicted, fmt="%.17g")
    correct = int((predicted == y).sum())
    print("Accuracy = %g%% (%d/%d) (classification)" % (100.0 * correct / len(y), correct, len(y)))


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    fit = commands.add_parser("train")
    fit.add_argument("-g", dest="gammas", required=True, help="RBF widths, comma-separated")
    fit.add_argument("--mkl", action="store_true", help="lp-norm MKL, p = 4/3 (default: the uniform sum)")
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
