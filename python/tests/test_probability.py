"""probability=True: the probability models of `kernelmix train -b 1` (Platt sigmoids, pairwise
coupling, the Laplace width of regression). predict_proba gives what `kernelmix predict -b 1` writes
for the same data, options and seed, to the digits it prints; the columns follow classes_."""
import json
import os
import pickle
import subprocess

import numpy as np
import pytest
from conftest import HEART_SCALE, REPOSITORY
from sklearn.datasets import dump_svmlight_file, load_iris, load_svmlight_file
from test_inputs import gram_matrices

from kernelmix import MKLClassifier, MKLRegressor

CLI = os.environ.get("KERNELMIX_CLI", os.path.join(REPOSITORY, "build", "kernelmix"))
KERNELS = ["rbf:gamma=2^-2..2^1/mean", "linear"]
needs_cli = pytest.mark.skipif(not os.path.exists(CLI), reason=f"no kernelmix binary at {CLI} (KERNELMIX_CLI)")


@pytest.fixture(scope="module")
def heart():
    return load_svmlight_file(HEART_SCALE)


@pytest.fixture(scope="module")
def iris_file(tmp_path_factory):
    """Iris in LIBSVM format with the classes 3, 1, 2 in order of appearance: the model's class order
    (that of the file) differs from classes_ (sorted)."""
    X, y = load_iris(return_X_y=True)
    order = np.r_[100:150, 0:100]
    path = tmp_path_factory.mktemp("iris") / "iris"
    dump_svmlight_file(X[order], y[order] + 1, path, zero_based=False)
    return str(path)


def cli_probabilities(tmp_path, train_options, data):
    """(info --json, class labels of the header, labels, probabilities) of train -b 1 / predict -b 1."""
    model, out = tmp_path / "model", tmp_path / "predictions"
    subprocess.run([CLI, "train", "-q", "-b", "1", *train_options, data, model], check=True)
    subprocess.run([CLI, "predict", "-q", "-b", "1", data, model, out], check=True)
    info = json.loads(subprocess.run([CLI, "info", "--json", model], check=True, capture_output=True,
                                     text=True).stdout)
    lines = [line.split() for line in out.read_text().splitlines()]
    assert lines[0][0] == "labels"
    rows = lines[1:]
    return info, [float(v) for v in lines[0][1:]], np.array([float(r[0]) for r in rows]), [r[1:] for r in rows]


@needs_cli
@pytest.mark.parametrize("data,options,py", [
    ("heart", ["--mkl", "lp", "--p", "4/3"], dict(method="lp", p="4/3")),
    ("heart", ["--mkl", "fixed", "--seed", "7"], dict(method="fixed", random_state=7)),
    ("iris", ["--mkl", "lp", "--p", "2"], dict(method="lp", p=2)),
])
def test_the_cli_probabilities(tmp_path, iris_file, data, options, py):
    path = HEART_SCALE if data == "heart" else iris_file
    kernel_options = [a for k in KERNELS for a in ("--kernel", k)]
    info, header, labels, printed = cli_probabilities(tmp_path, kernel_options + ["-c", "2", *options], path)
    X, y = load_svmlight_file(path)
    clf = MKLClassifier(kernels=KERNELS, C=2, probability=True, **py).fit(X, y)
    P = clf.predict_proba(X)
    np.testing.assert_allclose(P.sum(axis=1), 1, rtol=1e-12)
    # column c of predict_proba is classes_[c]; the CLI's columns follow its header (the model's order)
    columns = [int(np.flatnonzero(clf.classes_ == label)[0]) for label in header]
    assert columns != sorted(columns) or data == "heart"
    assert [[f"{p:g}" for p in row] for row in P[:, columns]] == printed
    np.testing.assert_array_equal(clf.classes_[np.argmax(P, axis=1)], labels)
    # heart's first row is +1 = classes_[1]: the machine's sign is scikit-learn's, the sigmoids the same
    np.testing.assert_array_equal(clf.probA_, info["probability"]["sigmoid_a"])
    np.testing.assert_array_equal(clf.probB_, info["probability"]["sigmoid_b"])
    np.testing.assert_allclose(np.log(P), clf.predict_log_proba(X), rtol=1e-15)


@needs_cli
def test_the_cli_laplace_width(tmp_path, heart):
    X, y = heart
    target = X[:, 0].toarray().ravel() * 3 + y
    path = tmp_path / "regression"
    dump_svmlight_file(X, target, path, zero_based=False)
    model = tmp_path / "model"
    subprocess.run([CLI, "train", "-q", "-b", "1", "-s", "3", "-p", "0.05", "--mkl", "lp",
                    *[a for k in KERNELS for a in ("--kernel", k)], path, model], check=True)
    info = json.loads(subprocess.run([CLI, "info", "--json", model], check=True, capture_output=True,
                                     text=True).stdout)
    X, target = load_svmlight_file(str(path))
    reg = MKLRegressor(method="lp", kernels=KERNELS, epsilon=0.05, probability=True).fit(X, target)
    assert reg.sigma_ == info["probability"]["laplace_sigma"] and reg.sigma_ > 0
    assert MKLRegressor(method="lp", kernels=KERNELS, epsilon=0.05).fit(X, target).sigma_ is None
    np.testing.assert_array_equal(pickle.loads(pickle.dumps(reg)).sigma_, reg.sigma_)


def test_binary_sigmoid_on_the_decision_function(heart):
    """Binary: P(classes_[1]) = 1/(1 + exp(probA_ f + probB_)) with f = decision_function, whichever
    class the library's machine calls positive (here the first row's, -1 = classes_[0])."""
    X, y = heart
    for labels in (y, -y):
        clf = MKLClassifier(method="lp", kernels=KERNELS, probability=True).fit(X, labels)
        f = clf.decision_function(X)
        expected = np.clip(1 / (1 + np.exp(clf.probA_[0] * f + clf.probB_[0])), 1e-7, 1 - 1e-7)
        np.testing.assert_allclose(clf.predict_proba(X)[:, 1], expected, rtol=1e-12, atol=1e-15)
        assert clf.probA_[0] < 0   # larger f, more probably classes_[1]
    assert clf.machine_classes_[0][0] == clf.classes_[0]


def test_only_with_probability_true(heart):
    X, y = heart
    plain = MKLClassifier(method="lp", kernels=KERNELS).fit(X, y)
    assert not hasattr(plain, "predict_proba") and not hasattr(plain, "predict_log_proba")
    assert not hasattr(MKLClassifier(), "predict_proba")
    assert plain.probA_ is None and plain.probB_ is None
    with pytest.raises(AttributeError, match="probability=False"):
        plain.predict_proba(X)
    assert hasattr(MKLClassifier(method="lp", probability=True), "predict_proba")
    # the decision function does not depend on probability=True (the folds are extra training)
    prob = MKLClassifier(method="lp", kernels=KERNELS, probability=True).fit(X, y)
    np.testing.assert_array_equal(prob.decision_function(X), plain.decision_function(X))
    X, y = load_iris(return_X_y=True)
    with pytest.raises(ValueError, match="one-vs-one"):
        MKLClassifier(method="lp", multiclass="ovr", probability=True).fit(X, y)


def test_string_labels_and_pickle(tmp_path):
    X, y = load_iris(return_X_y=True)
    names = np.array(["virginica", "setosa", "versicolor"], dtype=object)[y]
    clf = MKLClassifier(method="lp", kernels=KERNELS, probability=True).fit(X, names)
    P = clf.predict_proba(X)
    assert list(clf.classes_) == ["setosa", "versicolor", "virginica"]
    # column c is classes_[c]: the rows of class y have the largest probability in its column
    for c, name in enumerate(clf.classes_):
        assert np.mean(np.argmax(P[names == name], axis=1) == c) > 0.9
    copy = pickle.loads(pickle.dumps(clf))
    np.testing.assert_array_equal(copy.predict_proba(X), P)
    np.testing.assert_array_equal(copy.probA_, clf.probA_)
    np.testing.assert_array_equal(copy.probB_, clf.probB_)


def test_precomputed_kernels(heart):
    X, y = heart
    K_train, K_test = gram_matrices(X[:200], X[200:])
    tight = dict(method="lp", tol=1e-8, mkl_tol=1e-8, probability=True)
    features = MKLClassifier(kernels=KERNELS, **tight).fit(X[:200], y[:200])
    pre = MKLClassifier(kernels="precomputed", **tight).fit(K_train, y[:200])
    np.testing.assert_allclose(pre.predict_proba(K_test), features.predict_proba(X[200:]), atol=1e-5)
    with pytest.raises(ValueError, match="test x train"):
        pre.predict_proba([k[:, :40] for k in K_test])
