"""OBSCURE (Orabona, Jie & Caputo, JMLR 2012) through MKLClassifier(method="obscure"): on scikit-learn's
digits (rows 0-999 train, 1000-1796 test) with the paper's MNIST kernel set-up, the estimator reaches
the CLI's accuracy range and the RBF kernels' share; its decision function is the model's outputs (the
argmax is the prediction); the weights in both conventions describe the same d; Pegasos-MKL
reaches a higher objective; the binary (hinge) path separates the synthetic class-1-vs-rest problem."""
import numpy as np
import pytest
from sklearn.datasets import load_digits

from kernelmix import MKLClassifier


def digits_kernels():
    specs = []
    for block in range(4):
        top, left = 4 * (block // 2), 4 * (block % 2)
        features = ",".join(f"{(top + r) * 8 + left + 1}-{(top + r) * 8 + left + 4}" for r in range(4))
        specs += [f"linear:features={features}:norm=spherical",
                  f"poly:degree=2:gamma=0.0625:coef0=1:features={features}:norm=spherical",
                  f"rbf:features={features}"]
    return specs


@pytest.fixture(scope="module")
def digits():
    X, y = load_digits(return_X_y=True)
    X = X / 16
    return X[:1000], y[:1000], X[1000:], y[1000:]


def test_digits(digits):
    X, y, Xt, yt = digits
    model = MKLClassifier(kernels=digits_kernels(), method="obscure", p=1.1 / 0.9, C=10, epochs=10,
                          random_state=1).fit(X, y)
    ob = model.obscure_
    assert ob["q"] == pytest.approx(11, rel=1e-12)          # p_block 1.1
    accuracy = (model.predict(Xt) == yt).mean()
    assert 0.95 <= accuracy <= 0.965
    assert ob["weights"][2::3].sum() >= 0.95
    assert ob["objective"] <= 0.6 * ob["objective_online"]
    decision = model.decision_function(Xt)
    assert decision.shape == (len(yt), 10)
    np.testing.assert_array_equal(model.classes_[decision.argmax(1)], model.predict(Xt))
    assert model.dual_coef_.shape == (10, len(model.support_)) and model.n_support_.sum() == ob["support_rows"]
    P = 1.1
    pegasos = MKLClassifier(kernels=digits_kernels(), method="obscure", solver="pegasos", p=1.1 / 0.9, C=10,
                            epochs=10, random_state=1).fit(X, y)
    assert ob["objective"] < pegasos.obscure_["objective"]
    assert pegasos.obscure_["radius"] == -1
    # the two conventions of the same d: ||d||_{P/(2-P)} = 1, and d / sum(d)
    weights_pk = ob["weights_pk"]
    assert ((weights_pk ** (P / (2 - P))).sum()) == pytest.approx(1, rel=1e-12)
    np.testing.assert_allclose(ob["weights"], weights_pk / weights_pk.sum(), rtol=1e-12)


def test_binary_hinge():
    rng = np.random.default_rng(0)
    y = np.repeat([1, 2, 3], 60)
    target = np.where(y == 1, 1, -1)
    X = np.hstack([np.eye(3)[y - 1] + 0.1 * rng.normal(size=(180, 3)), rng.normal(size=(180, 2))])
    model = MKLClassifier(kernels=["linear:features=1-3:norm=spherical", "linear:features=4-5:norm=spherical"],
                          method="obscure", p=1.5, C=10, random_state=3).fit(X, target)
    assert (model.predict(X) == target).all()
    assert model.obscure_["weights"][0] > 0.9
    assert model.decision_function(X).shape == (180,)


def _optimum(X, blocks, labels, classes, lam, p):
    """f(w*) of OBSCURE's problem (5) on linear kernels over feature blocks, by scipy's SLSQP on the
    smooth epigraph form: min lam/2 t^2 + mean(xi), xi_i >= loss terms, xi >= 0, ||w||_{2,p} <= t."""
    from scipy.optimize import minimize
    n, d = X.shape
    K = 1 if classes == 2 else classes
    nw = d * K

    def scores(z):
        return X @ z[:nw].reshape(d, K)

    def group_norm(z):
        W = z[:nw].reshape(d, K)
        return sum(np.sqrt((W[b] ** 2).sum()) ** p for b in blocks) ** (1 / p)

    def margins(z):
        f, xi = scores(z), z[nw + 1:]
        if K == 1:
            return xi - (1 - labels * f[:, 0])
        rows = np.arange(n)
        terms = [xi - (1 + f[:, r] - f[rows, labels]) for r in range(K)]
        return np.concatenate([t[labels != r] for r, t in enumerate(terms)])

    z0 = np.concatenate([np.zeros(nw), [0.0], np.ones(n)])
    result = minimize(lambda z: 0.5 * lam * z[nw] ** 2 + z[nw + 1:].mean(), z0, method="SLSQP",
                      constraints=[{"type": "ineq", "fun": margins},
                                   {"type": "ineq", "fun": lambda z: z[nw] - group_norm(z)}],
                      bounds=[(None, None)] * nw + [(0, None)] + [(0, None)] * n,
                      options={"ftol": 1e-13, "maxiter": 2000})
    assert result.success, result.message
    return result.fun


@pytest.mark.parametrize("classes", [2, 3])
def test_certificate_bounds_the_suboptimality(classes):
    """The reported gap bounds f(w) - f(w*) (f(w*) from an independent solve), the objective is f(w) > 0
    recomputed from the model's coefficients and weights, the model's iterate is no worse than the
    online stage's, and converged says whether the gap met its target (1e-2)."""
    rng = np.random.default_rng(classes)
    n, C, P = 30, 2.0, 1.5
    y = rng.integers(0, classes, n)
    X = np.hstack([np.eye(classes)[y][:, :2] + 0.7 * rng.normal(size=(n, 2)), rng.normal(size=(n, 2))])
    blocks = [slice(0, 2), slice(2, 4)]
    for epochs in (1, 3, 30):
        model = MKLClassifier(kernels=["linear:features=1-2", "linear:features=3-4"], method="obscure",
                              p=P / (2 - P), C=C, epochs=epochs, random_state=1).fit(X, y)
        ob, lam = model.obscure_, 1 / (C * n)
        primal, gap = model.objective_[0], model.duality_gap_[0]
        assert primal == pytest.approx(ob["objective"], rel=1e-12) and primal > 0
        assert ob["objective"] <= ob["objective_online"] * (1 + 1e-12)
        assert model.converged_[0] == (gap <= 1e-2)
        # f(w) from the model: w^j = beta_j sum_i c_i x_i^j on each block, scores from decision_function
        beta, coef, Xs = model.kernel_weights_, model.dual_coef_, X[model.support_]
        norms = [beta[j] * np.sqrt(((Xs[:, b].T @ coef.T) ** 2).sum()) for j, b in enumerate(blocks)]
        f = model.decision_function(X)
        if classes == 2:
            loss = np.maximum(0, 1 - np.where(y == model.classes_[1], 1, -1) * f)
        else:
            rival = np.where(np.eye(classes)[y] > 0, -np.inf, f).max(1)
            loss = np.maximum(0, 1 - f[np.arange(n), y] + rival)
        recomputed = 0.5 * lam * (sum(a ** P for a in norms) ** (1 / P)) ** 2 + loss.mean()
        assert recomputed == pytest.approx(primal, rel=1e-9)
        optimum = _optimum(X, blocks, np.where(y == 1, 1, -1) if classes == 2 else y, classes, lam, P)
        assert primal >= optimum * (1 - 1e-7)
        assert primal - optimum <= gap * primal + 1e-7   # the gap is a bound: the dual is below f(w*)
        assert gap < 1
