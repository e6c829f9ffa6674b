#!/usr/bin/python3
"""MKLpy (Lauriola & Aiolli) on a benchmark problem, when a snapshot of its repository is at hand
(MKLPY_PATH; it is not part of kernelmix and needs PyTorch): command lines shaped like svm-train /
svm-predict, as the other peers.

  mklpy_peer.py train -a ALGORITHM -g G1,G2,... [-c C] TRAIN_FILE MODEL_FILE
  mklpy_peer.py predict TEST_FILE MODEL_FILE OUTPUT_FILE

ALGORITHM: average (AverageMKL, the uniform sum), easymkl (EasyMKL) or gram (GRAM). The RBF kernels
are computed here (training n x n, test n_test x n), inside the timed processes; the base learner is
scikit-learn's SVC(C) as MKLpy's default."""
import argparse
import os
import pickle
import sys

import numpy as np
from sklearn.datasets import load_svmlight_file
from sklearn.svm import SVC

sys.path.insert(0, os.environ.get("MKLPY_PATH", ""))
import torch  # noqa: E402
from MKLpy.algorithms import GRAM, AverageMKL, EasyMKL  # noqa: E402

from kernels import squared_distances  # noqa: E402

ALGORITHMS = {"average": AverageMKL, "easymkl": EasyMKL, "gram": GRAM}


def kernel_list(X, Z, gammas):
    D = squared_distances(X, Z)
    return [torch.from_numpy(np.exp(-gamma * D)) for gamma in gammas]


def train(args):
    X, y = load_svmlight_file(args.train_file)
    X = X.toarray()
    gammas = [float(g) for g in args.gammas.split(",")]
    model = ALGORITHMS[args.algorithm](learner=SVC(C=args.C)).fit(kernel_list(X, X, gammas), torch.from_numpy(y))
    with open(args.model_file, "wb") as f:
        pickle.dump({"model": model, "X": X, "gammas": gammas}, f)


def predict(args):
    with open(args.model_file, "rb") as f:
        saved = pickle.load(f)
    X, y = load_svmlight_file(args.test_file, n_features=saved["X"].shape[1])
    predicted = np.asarray(saved["model"].predict(kernel_list(X.toarray(), saved["X"], saved["gammas"])))
    np.savetxt(args.output_file, predicted, fmt="%.17g")


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    fit = commands.add_parser("train")
    fit.add_argument("-a", dest="algorithm", choices=sorted(ALGORITHMS), required=True)
    fit.add_argument("-g", dest="gammas", required=True)
    fit.add_argument("-c", dest="C", type=float, default=1.0)
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
