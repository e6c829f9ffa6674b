"""Rank-1 kernels through the estimators: kernels=["rank1"] (one kernel per feature, centred on the
training mean and scaled to unit norm) with align weights gives numpy's kernel ridge regression on
mu_k = corr(x_k, y)^2 / sum_j corr(x_j, y)^2 and the kernel X~ diag(mu) X~' (test rows centred and
scaled with the training statistics), a feature list selects kernels, and the fitted specs name them."""
import numpy as np
import pytest

from kernelmix import MKLRidge


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(8)
    X = rng.uniform(0, 3, size=(70, 5)) * (rng.uniform(size=(70, 5)) < 0.7)
    y = X[:, 0] - 0.6 * X[:, 3] + 0.2 * rng.normal(size=70) + 1
    Xt = rng.uniform(0, 3, size=(25, 5))
    return X, y, Xt


def numpy_krr(X, y, Xt, cols, ridge):
    X, Xt = X[:, cols], Xt[:, cols]
    mean = X.mean(axis=0)
    s = 1 / np.linalg.norm(X - mean, axis=0)
    Z, Zt = (X - mean) * s, (Xt - mean) * s
    yc = y - y.mean()
    corr2 = (Z.T @ yc) ** 2 / (yc @ yc)
    mu = corr2 / corr2.sum()
    alpha = np.linalg.solve(Z @ np.diag(mu) @ Z.T + ridge * np.eye(len(y)), yc)
    return mu, (Zt * mu) @ (Z.T @ alpha) + y.mean()


@pytest.mark.parametrize("kernels,cols", [(["rank1"], [0, 1, 2, 3, 4]), (["rank1:features=1,3-4"], [0, 2, 3])])
def test_rank1_align_krr_is_numpy(data, kernels, cols):
    X, y, Xt = data
    model = MKLRidge(kernels=kernels, method="align", C=1 / 0.2).fit(X, y)
    mu, want = numpy_krr(X, y, Xt, cols, 0.2)
    np.testing.assert_allclose(model.kernel_weights_, mu, rtol=0, atol=1e-10)
    np.testing.assert_allclose(model.predict(Xt), want, rtol=0, atol=1e-8)
    assert model.kernel_specs_ == ["rank1:features=%d" % (c + 1) for c in cols]
