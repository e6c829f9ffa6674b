"""Centred alignment helpers: the definition with an explicit centring matrix, known values, and the
alignments libkernelmix stores in a model."""
import numpy as np
import pytest
from conftest import HEART_SCALE
from sklearn.datasets import load_iris, load_svmlight_file
from test_inputs import KERNELS, gram_matrices

from kernelmix import MKLClassifier, MKLRegressor
from kernelmix.alignment import alignment_matrix, centred, kernel_alignment, kernel_target_alignment


def definition(K1, K2):
    n = K1.shape[0]
    H = np.eye(n) - np.ones((n, n)) / n
    A, B = H @ K1 @ H, H @ K2 @ H
    return np.sum(A * B) / np.sqrt(np.sum(A * A) * np.sum(B * B))


def test_against_the_definition():
    rng = np.random.RandomState(0)
    X, Z = rng.normal(size=(30, 4)), rng.normal(size=(30, 6))
    K1, K2 = X @ X.T, np.exp(-0.1 * ((Z[:, None, :] - Z[None]) ** 2).sum(-1))
    assert kernel_alignment(K1, K2) == pytest.approx(definition(K1, K2), rel=1e-12)
    assert kernel_alignment(K1, 3 * K1 + 5) == pytest.approx(1.0)   # scale and constant do not matter
    y = np.sign(X[:, 0])
    assert kernel_target_alignment(np.outer(y, y), y) == pytest.approx(1.0)
    assert kernel_target_alignment(K1, y) == pytest.approx(definition(K1, np.outer(y, y)), rel=1e-12)
    A = alignment_matrix([K1, K2, K1])
    assert A.shape == (3, 3) and A[0, 2] == pytest.approx(1.0) and A[0, 1] == pytest.approx(definition(K1, K2))
    np.testing.assert_allclose(centred(K1).sum(axis=0), 0, atol=1e-9)
    with pytest.raises(ValueError, match="square"):
        centred(K1[:, :5])
    with pytest.raises(ValueError, match="undefined"):
        kernel_alignment(np.ones((4, 4)), K1[:4, :4])


def test_the_models_stored_alignments():
    X, y = load_svmlight_file(HEART_SCALE)
    K, _ = gram_matrices(X, X[:1])
    clf = MKLClassifier(method="lp", kernels=KERNELS).fit(X, y)
    np.testing.assert_allclose(clf.target_alignment_, kernel_target_alignment(K, y), rtol=1e-9)
    X, y = load_iris(return_X_y=True)   # three classes: the "same class" kernel
    K, _ = gram_matrices(X, X[:1])
    clf = MKLClassifier(method="lp", kernels=KERNELS).fit(X, y)
    np.testing.assert_allclose(clf.target_alignment_, kernel_target_alignment(K, y), rtol=1e-9)
    reg = MKLRegressor(method="lp", kernels=KERNELS).fit(X, X[:, 3])
    np.testing.assert_allclose(reg.target_alignment_, kernel_target_alignment(K, X[:, 3], "regression"),
                               rtol=1e-9)


def test_alignment_methods_take_radius_and_q():
    """align, align-q and alignf scale their weights to sum to radius (Rostamizadeh's thesis §3.3);
    align is proportional to the centred alignments, align-q (Prop. 3.1) to (y~'K_k y~)^(1/(q-1))."""
    X, y = load_svmlight_file(HEART_SCALE)
    K, _ = gram_matrices(X, X[:1])
    yc = y - y.mean()
    a = np.array([yc @ k @ yc for k in K])
    clf = MKLClassifier(kernels=KERNELS, method="align", radius=3.0).fit(X, y)
    rho = kernel_target_alignment(K, y)
    np.testing.assert_allclose(clf.kernel_weights_, 3.0 * rho / rho.sum(), rtol=1e-9)
    clf = MKLClassifier(kernels=KERNELS, method="align-q", align_q=3.0, radius=2.0).fit(X, y)
    np.testing.assert_allclose(clf.kernel_weights_, 2.0 * np.sqrt(a) / np.sqrt(a).sum(), rtol=1e-9)
    clf = MKLClassifier(kernels=KERNELS, method="alignf", radius=4.0).fit(X, y)
    assert np.all(clf.kernel_weights_ >= 0) and clf.kernel_weights_.sum() == pytest.approx(4.0)
    reg = MKLRegressor(kernels=KERNELS, method="align", radius=0.5).fit(X, y)
    np.testing.assert_allclose(reg.kernel_weights_, 0.5 * rho / rho.sum(), rtol=1e-9)
    with pytest.raises(ValueError, match="q must|align_q|above|> 1|q > 1"):
        MKLClassifier(kernels=KERNELS, method="align-q", align_q=1.0).fit(X, y)
