"""Localized MKL through the estimators (method="clmkl", "hlmkl", "lmkl"; docs/clmkl.md): clusters, ae,
tau and cluster_kernel give the model `kernelmix train --mkl clmkl --clusters --ae --tau
--cluster-kernel` gives (solved to a gap of 1e-9 from dense and from file rows: the same weights per
cluster and decision values to 1e-4), cluster_weights_ has one
weight vector per cluster (the clustering-only kernel at 0, ||beta_j||_p = 1), and bad values are
refused."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest
from conftest import REPOSITORY

from kernelmix import MKLClassifier, MKLRegressor

sys.path.insert(0, os.path.join(REPOSITORY, "examples", "clmkl-localized"))
from generate import generate, write_svm  # noqa: E402

CLI = os.environ.get("KERNELMIX_CLI", os.path.join(REPOSITORY, "build", "kernelmix"))
KERNELS = ["linear:features=3-7:norm=mult", "linear:features=8-12:norm=mult", "linear:features=13-17:norm=mult"]
Z = "linear:features=1-2"


@pytest.fixture(scope="module")
def data():
    X, y, _ = generate(150, 4)
    return X[:, :17], y


@pytest.mark.skipif(not os.path.exists(CLI), reason=f"no kernelmix binary at {CLI} (KERNELMIX_CLI)")
@pytest.mark.parametrize("method,py,cli", [
    ("clmkl", dict(ae=0.4), ["--ae", "0.4"]),
    ("clmkl", dict(tau=0.5, clusters=2), ["--tau", "0.5", "--clusters", "2"]),
    ("hlmkl", dict(), []),
    ("lmkl", dict(), []),
])
def test_same_model_as_cli(tmp_path, data, method, py, cli):
    X, y = data
    path = tmp_path / "train.svm"
    write_svm(path, X, y)
    clf = MKLClassifier(kernels=KERNELS, method=method, p="4/3", cluster_kernel=Z, tol=1e-9, mkl_tol=1e-9,
                        **py).fit(X, y)
    model = tmp_path / "model"
    options = [a for k in KERNELS for a in ("--kernel", k)]
    subprocess.run([CLI, "train", "-q", *options, "--cluster-kernel", Z, "--mkl", method, "--p", "4/3", *cli,
                    "-e", "1e-9", "--mkl-eps", "1e-9", str(path), str(model)], check=True)
    info = json.loads(subprocess.run([CLI, "info", "--json", str(model)], check=True, capture_output=True,
                                     text=True).stdout)
    weights = np.array(info["machines"][0]["cluster_weights"])
    assert clf.cluster_weights_.shape == weights.shape == ((py.get("clusters", 3) if method != "lmkl" else 4), 4)
    np.testing.assert_allclose(clf.cluster_weights_, weights, rtol=0, atol=1e-4)
    out = tmp_path / "out"
    subprocess.run([CLI, "predict", "-q", "--decision-values", str(path), str(model), str(out)], check=True)
    # the CLI's f > 0 is its first class, +1 here; the estimator's is classes_[1] = +1
    np.testing.assert_allclose(clf.decision_function(X), np.loadtxt(out, ndmin=2)[:, 1], rtol=0, atol=1e-4)
    if method != "lmkl":
        assert np.all(clf.cluster_weights_[:, 3] == 0)
        norms = np.sum(clf.cluster_weights_[:, :3] ** (4 / 3), axis=1) ** (3 / 4)
        np.testing.assert_allclose(norms, 1, rtol=1e-12)


def test_one_cluster_is_lp_mkl(data):
    X, y = data
    local = MKLClassifier(kernels=KERNELS, method="clmkl", clusters=1, p=2, mkl_tol=1e-9, tol=1e-9).fit(X, y)
    glob = MKLClassifier(kernels=KERNELS, method="lp", p=2, solver="wrapper", mkl_tol=1e-9, tol=1e-9).fit(X, y)
    assert local.cluster_weights_ is None
    np.testing.assert_allclose(local.kernel_weights_, glob.kernel_weights_, atol=1e-3)
    np.testing.assert_allclose(local.decision_function(X), glob.decision_function(X), atol=1e-3)


def test_regressor_and_refusals(data):
    X, y = data
    reg = MKLRegressor(kernels=KERNELS, method="clmkl", p="4/3", cluster_kernel=Z, C=10).fit(X, y)
    assert reg.cluster_weights_.shape == (3, 4)
    with pytest.raises(ValueError, match="ae=1.5"):
        MKLClassifier(kernels=KERNELS, method="clmkl", ae=1.5).fit(X, y)
    with pytest.raises(ValueError, match="clusters"):
        MKLClassifier(kernels=KERNELS, method="clmkl", clusters=0).fit(X, y)
    with pytest.raises(ValueError, match="clustering kernel 7"):
        MKLClassifier(kernels=KERNELS, method="clmkl", cluster_kernel=7).fit(X, y)
