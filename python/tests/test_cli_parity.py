"""The estimators train the model `kernelmix train` trains with the same options: identical kernel
weights (the CLI's JSON carries 17 digits), decision values and predictions."""
import json
import os
import subprocess

import numpy as np
import pytest
from conftest import HEART_SCALE, REPOSITORY
from sklearn.datasets import load_svmlight_file

from kernelmix import KernelCombiner, MKLClassifier, MKLRegressor, MKLRidge, OneClassMKL

CLI = os.environ.get("KERNELMIX_CLI", os.path.join(REPOSITORY, "build", "kernelmix"))
KERNELS = ["rbf:gamma=2^-2..2^1/mean", "linear"]

pytestmark = pytest.mark.skipif(not os.path.exists(CLI), reason=f"no kernelmix binary at {CLI} (KERNELMIX_CLI)")


def cli(tmp_path, train_options, data=HEART_SCALE):
    model, out = tmp_path / "model", tmp_path / "predictions"
    subprocess.run([CLI, "train", "-q", *train_options, data, model], check=True)
    subprocess.run([CLI, "predict", "-q", "--decision-values", data, model, out], check=True)
    info = json.loads(subprocess.run([CLI, "info", "--json", model], check=True, capture_output=True,
                                     text=True).stdout)
    rows = np.loadtxt(out, ndmin=2)
    return info, rows[:, 0], rows[:, 1:]


def kernel_options(kernels):
    return [a for k in kernels for a in ("--kernel", k)]


@pytest.mark.parametrize("method,extra,py", [
    ("lp", ["--p", "4/3"], dict(p="4/3")),
    ("lp", ["--p", "1", "--solver", "wrapper"], dict(p=1, solver="wrapper")),
    ("elasticnet", ["--lambda", "0.3"], dict(elasticnet_lambda=0.3)),
    ("tikhonov", ["--regularizer", "block1"], dict(regularizer="block1")),
    ("fixed", [], {}),
])
def test_classifier_parity(tmp_path, method, extra, py):
    X, y = load_svmlight_file(HEART_SCALE)   # CSR, as the CLI reads the file
    options = kernel_options(KERNELS) + ["--mkl", method, "-c", "2", "-e", "1e-4", *extra]
    info, labels, decision = cli(tmp_path, options)
    clf = MKLClassifier(kernels=KERNELS, method=method, C=2, tol=1e-4, **py).fit(X, y)
    assert clf.kernel_specs_ == [k["spec"] for k in info["kernels"]]
    np.testing.assert_array_equal(clf.kernel_weights_, [k["weight"] for k in info["kernels"]])
    np.testing.assert_array_equal(clf.predict(X), labels)
    # the CLI writes the machine's f (f > 0: its first class, +1 here); the estimator's sign is
    # scikit-learn's (f > 0: classes_[1] = +1)
    np.testing.assert_allclose(clf.decision_function(X), decision[:, 0], rtol=1e-12, atol=1e-12)
    # dense rows give the same model up to the last bits of the kernel values
    dense = MKLClassifier(kernels=KERNELS, method=method, C=2, tol=1e-4, **py).fit(X.toarray(), y)
    np.testing.assert_allclose(dense.kernel_weights_, clf.kernel_weights_, rtol=1e-8, atol=1e-12)


def test_multiclass_parity(tmp_path):
    from sklearn.datasets import dump_svmlight_file, load_iris
    X, y = load_iris(return_X_y=True)
    path = tmp_path / "iris"
    dump_svmlight_file(X, y, path, zero_based=False)
    X, y = load_svmlight_file(str(path), zero_based=False)
    info, labels, decision = cli(tmp_path, kernel_options(KERNELS) + ["--mkl", "lp", "--p", "2"], str(path))
    clf = MKLClassifier(method="lp", kernels=KERNELS, p=2, decision_function_shape="ovo").fit(X, y)
    np.testing.assert_array_equal(clf.kernel_weights_, np.array([k["weights"] for k in info["kernels"]]).T)
    np.testing.assert_array_equal(clf.predict(X), labels)
    np.testing.assert_allclose(clf.decision_function(X), decision, rtol=1e-12, atol=1e-12)


def test_regression_and_one_class_parity(tmp_path):
    X, y = load_svmlight_file(HEART_SCALE)
    target = X[:, 0].toarray().ravel() * 3 + y
    from sklearn.datasets import dump_svmlight_file
    path = tmp_path / "regression"
    dump_svmlight_file(X, target, path, zero_based=False)
    info, labels, _ = cli(tmp_path, kernel_options(KERNELS) + ["-s", "3", "-p", "0.05", "--mkl", "lp"], str(path))
    X, target = load_svmlight_file(str(path), zero_based=False)
    reg = MKLRegressor(method="lp", kernels=KERNELS, epsilon=0.05).fit(X, target)
    np.testing.assert_array_equal(reg.kernel_weights_, [k["weight"] for k in info["kernels"]])
    np.testing.assert_array_equal(reg.predict(X), labels)
    info, labels, decision = cli(tmp_path, kernel_options(KERNELS) + ["-s", "2", "-n", "0.3", "--mkl", "lp"])
    X, _ = load_svmlight_file(HEART_SCALE)
    one = OneClassMKL(method="lp", kernels=KERNELS, nu=0.3).fit(X)
    np.testing.assert_array_equal(one.kernel_weights_, [k["weight"] for k in info["kernels"]])
    np.testing.assert_array_equal(one.predict(X), labels)
    np.testing.assert_allclose(one.decision_function(X), decision[:, 0], rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("estimator,task", [(MKLClassifier, "0"), (MKLRegressor, "3"), (OneClassMKL, "2"),
                                            (MKLRidge, "krr")])
def test_defaults_are_the_clis(tmp_path, estimator, task):
    """One rule for defaults: an estimator given only its kernels trains what `kernelmix train -s TASK`
    given only those kernels trains (fixed uniform weights, C, epsilon, nu, tolerances, seed)."""
    X, y = load_svmlight_file(HEART_SCALE)
    info, labels, decision = cli(tmp_path, kernel_options(KERNELS) + ["-s", task])
    model = estimator(kernels=KERNELS).fit(X, y)
    assert model.method == "fixed" and [k["weight"] for k in info["kernels"]] == [1.0] * len(info["kernels"])
    np.testing.assert_array_equal(np.atleast_2d(model.kernel_weights_)[0], [k["weight"] for k in info["kernels"]])
    np.testing.assert_array_equal(model.predict(X), labels)
    if hasattr(model, "decision_function"):
        np.testing.assert_allclose(model.decision_function(X), decision[:, 0], rtol=1e-12, atol=1e-12)


def test_kernel_combiner_default_is_the_uniform_sum():
    X, _ = load_svmlight_file(HEART_SCALE)
    combiner = KernelCombiner(kernels=KERNELS).fit(X)
    np.testing.assert_array_equal(combiner.kernel_weights_, np.ones(len(combiner.kernel_specs_)))
