"""MKLRidge: kernel ridge regression with the squared-loss block-norm family and empirical-Bayes kernel
weights. The EB model's weights and noise are a stationary point of numpy's evidence, evidence_ is
numpy's value, predict(return_std=True) gives numpy's GP posterior mean and standard deviation; the
Tikhonov block-1 weights equal those `kernelmix train -s krr --mkl tikhonov --regularizer block1`
writes; return_std is refused without empirical-Bayes weights."""
import json
import os
import subprocess

import numpy as np
import pytest
from conftest import REPOSITORY
from sklearn.datasets import dump_svmlight_file

from kernelmix import MKLRidge

CLI = os.environ.get("KERNELMIX_CLI", os.path.join(REPOSITORY, "build", "kernelmix"))
GAMMAS = (0.1, 1.0, 10.0)
KERNELS = ["rbf:gamma=0.1,1,10"]


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(3)
    X = rng.uniform(-2, 2, size=(60, 2))
    y = np.sin(2 * X[:, 0]) + 0.3 * X[:, 1] + 0.1 * rng.normal(size=60) + 2
    Xt = rng.uniform(-3, 3, size=(30, 2))
    return X, y, Xt


def gram(A, B, weights):
    sq = (A * A).sum(1)[:, None] + (B * B).sum(1)[None, :] - 2 * A @ B.T
    return sum(w * np.exp(-g * sq) for w, g in zip(weights, GAMMAS))


@pytest.mark.parametrize("method", ["eb-mackay", "eb-rw"])
def test_empirical_bayes_is_the_gp_posterior(data, method):
    X, y, Xt = data
    model = MKLRidge(kernels=KERNELS, method=method, learn_noise=True).fit(X, y)
    d, noise = model.kernel_weights_, model.noise_
    assert model.kernels_kept_ == np.sum(d > 0) and noise > 0
    yc = y - y.mean()
    Kb = gram(X, X, d) + noise * np.eye(len(y))
    Ki = np.linalg.inv(Kb)
    a = Ki @ yc
    nle = 0.5 * yc @ a + 0.5 * np.linalg.slogdet(Kb)[1] + 0.5 * len(y) * np.log(2 * np.pi)
    assert model.evidence_ == pytest.approx(nle, rel=1e-9)
    sq = (X * X).sum(1)[:, None] + (X * X).sum(1)[None, :] - 2 * X @ X.T
    for dm, g in zip(d, GAMMAS):
        if dm > 1e-6 * d.max():
            K = np.exp(-g * sq)
            assert abs(np.trace(Ki @ K) - a @ K @ a) <= 1e-3 * np.trace(Ki @ K)
    mean, std = model.predict(Xt, return_std=True)
    Kx = gram(Xt, X, d)
    var = d.sum() - np.einsum("ij,ji->i", Kx, np.linalg.solve(Kb, Kx.T))
    np.testing.assert_allclose(mean, Kx @ a + y.mean(), rtol=0, atol=1e-8)
    np.testing.assert_allclose(std, np.sqrt(np.maximum(var, 0)), rtol=1e-6, atol=1e-8)
    assert std.max() > 1e-3
    np.testing.assert_array_equal(model.predict(Xt), mean)


def test_given_noise_is_kept(data):
    X, y, _ = data
    model = MKLRidge(kernels=KERNELS, method="eb-mackay", noise=0.05).fit(X, y)
    assert model.noise_ == 0.05


@pytest.mark.skipif(not os.path.exists(CLI), reason=f"no kernelmix binary at {CLI} (KERNELMIX_CLI)")
def test_tikhonov_block1_matches_the_cli(data, tmp_path):
    X, y, _ = data
    model = MKLRidge(kernels=KERNELS, method="tikhonov", regularizer="block1", C=4.0).fit(X, y)
    dump_svmlight_file(X, y, tmp_path / "train", zero_based=False)
    subprocess.run([CLI, "train", "-q", "-s", "krr", "-c", "4", "--mkl", "tikhonov", "--regularizer", "block1",
                    "--kernel", KERNELS[0], str(tmp_path / "train"), str(tmp_path / "model")], check=True)
    info = json.loads(subprocess.run([CLI, "info", "--json", str(tmp_path / "model")], check=True,
                                     capture_output=True, text=True).stdout)
    np.testing.assert_allclose(model.kernel_weights_, info["machines"][0]["kernel_weights"], rtol=1e-12, atol=1e-15)
    assert model.evidence_ is None and model.noise_ is None


def test_return_std_needs_empirical_bayes(data):
    X, y, Xt = data
    model = MKLRidge(kernels=KERNELS, C=2.0).fit(X, y)
    with pytest.raises(ValueError, match="empirical-Bayes"):
        model.predict(Xt, return_std=True)
