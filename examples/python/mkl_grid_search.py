#!/usr/bin/python3
"""Multiple kernel learning on scikit-learn's breast-cancer data: five RBF widths and a linear kernel,
weights learned by lp-norm MKL, C and p chosen by 5-fold GridSearchCV (two jobs); prints the learned
weight of every kernel, the test accuracy, and class probabilities of a few test rows from the chosen
model refitted with probability=True (Platt scaling, as LIBSVM's -b 1).

    /usr/bin/python3 examples/python/mkl_grid_search.py

Run from a source checkout after building (the package finds build/libkernelmix.so), or after
`cmake --install` / `pip install ./python`.
"""
import os
import sys

from sklearn.base import clone
from sklearn.datasets import load_breast_cancer
from sklearn.model_selection import GridSearchCV, train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
os.environ.setdefault("PYTHONPATH", sys.path[0])   # for GridSearchCV's worker processes
from kernelmix import MKLClassifier  # noqa: E402


def main():
    X, y = load_breast_cancer(return_X_y=True)
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.3, stratify=y, random_state=0)
    model = make_pipeline(StandardScaler(), MKLClassifier(kernels=["rbf:gamma=2^-2..2^2/mean", "linear"],
                                                          method="lp", norm="mult"))
    grid = {"mklclassifier__C": [0.1, 1, 10], "mklclassifier__p": [1, "4/3", 2]}
    search = GridSearchCV(model, grid, cv=5, n_jobs=2).fit(X_train, y_train)
    mkl = search.best_estimator_[-1]
    print(f"best C = {mkl.C}, p = {mkl.p} (cross-validated accuracy {search.best_score_:.4f})")
    print("learned kernel weights:")
    for spec, weight in zip(mkl.kernel_specs_, mkl.kernel_weights_):
        print(f"  {weight:8.4f}  {spec}")
    print(f"duality gap {mkl.duality_gap_[0]:.2e}, {mkl.support_.size} support vectors")
    print(f"test accuracy {search.score(X_test, y_test):.4f}")
    calibrated = clone(search.best_estimator_).set_params(mklclassifier__probability=True).fit(X_train, y_train)
    print("P(malignant), P(benign) of the first test rows (columns in the order of classes_):")
    for row, truth in zip(calibrated.predict_proba(X_test[:4]), y_test[:4]):
        print(f"  {row[0]:.4f}  {row[1]:.4f}   true class {'benign' if truth else 'malignant'}")


if __name__ == "__main__":
    main()
