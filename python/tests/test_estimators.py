"""Estimator behaviour beyond scikit-learn's generic checks: fitted attributes against the decision
function, pickling, joblib GridSearchCV, the transformer, the GIL."""
import pickle
import threading

import numpy as np
import pytest
from conftest import HEART_SCALE
from sklearn.datasets import load_iris, load_svmlight_file, make_regression
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import make_pipeline
from sklearn.svm import SVC

import kernelmix
from kernelmix import KernelCombiner, MKLClassifier, MKLRegressor, OneClassMKL

KERNELS = ["rbf:gamma=2^-2..2^1/mean", "linear"]


@pytest.fixture(scope="module")
def heart():
    X, y = load_svmlight_file(HEART_SCALE)
    return X.toarray(), y


def test_method_names_come_from_the_library():
    methods = kernelmix.mkl_methods()
    assert methods[:4] == ["fixed", "lp", "elasticnet", "tikhonov"]
    X, y = load_iris(return_X_y=True)
    for method in methods[:4]:
        clf = MKLClassifier(kernels=KERNELS, method=method).fit(X[:100], y[:100])
        assert clf.score(X[:100], y[:100]) == 1.0
    with pytest.raises(ValueError, match="'nope' is not"):
        MKLClassifier(method="nope").fit(*load_iris(return_X_y=True))


def test_fitted_attributes_give_the_decision_function(heart):
    X, y = heart
    clf = MKLClassifier(method="lp", kernels=KERNELS, p=4 / 3).fit(X, y)
    M = len(clf.kernel_specs_)
    assert M == 5 and clf.kernel_weights_.shape == (M,)
    assert np.isclose(np.sum(clf.kernel_weights_ ** (4 / 3)), 1.0, rtol=1e-6)  # ||theta||_p = 1
    assert clf.duality_gap_[0] <= 1e-3 and clf.converged_[0]
    # f(x) = sum_j dual_coef_j sum_m theta_m K_m(x, x_j) + intercept, from the fitted kernels
    combined = KernelCombiner(kernels=KERNELS, method="fixed").fit(X)
    combined.kernel_weights_ = clf.kernel_weights_
    K = combined.transform(X)[:, clf.support_]
    np.testing.assert_allclose(K @ clf.dual_coef_[0] + clf.intercept_[0], clf.decision_function(X), atol=1e-9)
    assert set(clf.classes_) == {-1, 1}
    assert np.all((clf.decision_function(X) > 0) == (clf.predict(X) == clf.classes_[1]))


def test_multiclass_attributes():
    X, y = load_iris(return_X_y=True)
    names = np.array(["setosa", "versicolor", "virginica"])[y]
    clf = MKLClassifier(method="lp", kernels=KERNELS).fit(X, names)
    assert list(clf.classes_) == list(names[np.sort(np.unique(y, return_index=True)[1])])
    assert clf.kernel_weights_.shape == (3, 5) and clf.dual_coef_.shape == (3, clf.support_.size)
    assert clf.decision_function(X).shape == (150, 3)
    assert clf.set_params(decision_function_shape="ovo").decision_function(X).shape == (150, 3)
    assert clf.score(X, names) > 0.95
    ovr = MKLClassifier(method="lp", kernels=KERNELS, multiclass="ovr").fit(X, names)
    np.testing.assert_array_equal(ovr.classes_[np.argmax(ovr.decision_function(X), 1)], ovr.predict(X))


def test_pickle_stores_the_model_bytes(heart, tmp_path):
    X, y = heart
    for est, args in ((MKLClassifier(method="lp", kernels=KERNELS), (X, y)),
                      (MKLRegressor(method="lp", kernels=KERNELS), (X, X[:, 0])),
                      (OneClassMKL(method="lp", kernels=KERNELS, nu=0.2), (X,))):
        est.fit(*args)
        path = tmp_path / "model"
        est.save(path)
        data = pickle.dumps(est)
        assert path.read_bytes() in data   # the model file's bytes, not a path
        copy = pickle.loads(data)
        np.testing.assert_array_equal(copy.predict(X), est.predict(X))
        np.testing.assert_array_equal(copy.kernel_weights_, est.kernel_weights_)


def test_grid_search_with_two_jobs():
    X, y = load_iris(return_X_y=True)
    search = GridSearchCV(MKLClassifier(method="lp", kernels=KERNELS), {"C": [0.1, 10], "p": [1, 2]}, cv=3, n_jobs=2)
    search.fit(X, y)
    assert search.best_score_ > 0.9 and set(search.best_params_) == {"C", "p"}
    serial = GridSearchCV(MKLClassifier(method="lp", kernels=KERNELS), {"C": [0.1, 10], "p": [1, 2]}, cv=3,
                          n_jobs=1).fit(X, y)
    np.testing.assert_array_equal(search.cv_results_["mean_test_score"], serial.cv_results_["mean_test_score"])


def test_kernel_combiner_feeds_svc(heart):
    X, y = heart
    combiner = KernelCombiner(method="lp", kernels=KERNELS, p=4 / 3).fit(X, y)
    clf = MKLClassifier(method="lp", kernels=KERNELS, p=4 / 3).fit(X, y)
    np.testing.assert_allclose(combiner.kernel_weights_, clf.kernel_weights_)
    K = combiner.transform(X)
    assert K.shape == (270, 270) and np.allclose(K, K.T)
    # SVC on the learned combination: the same machine as the MKL classifier at its weights
    pipe = make_pipeline(KernelCombiner(method="lp", kernels=KERNELS, p=4 / 3), SVC(kernel="precomputed")).fit(X, y)
    assert np.mean(pipe.predict(X) == clf.predict(X)) > 0.98
    copy = pickle.loads(pickle.dumps(combiner))
    np.testing.assert_array_equal(copy.transform(X[:10]), combiner.transform(X[:10]))


def test_regression_learns(heart):
    X, y = make_regression(n_samples=120, n_features=4, noise=0.1, random_state=0)
    reg = MKLRegressor(method="lp", kernels=["linear", "rbf"], C=100, epsilon=0.01).fit(X, y / y.std())
    assert reg.score(X, y / y.std()) > 0.99
    assert reg.kernel_weights_[0] > reg.kernel_weights_[1]   # a linear target: the linear kernel wins


def test_training_releases_the_gil():
    """Another Python thread keeps running while the library trains (ctypes releases the GIL)."""
    rng = np.random.RandomState(0)
    X = rng.normal(size=(1500, 20))
    y = (X[:, 0] + 0.5 * rng.normal(size=1500) > 0).astype(int)
    counter, stop = [0], threading.Event()

    def count():
        while not stop.is_set():
            counter[0] += 1

    thread = threading.Thread(target=count)
    thread.start()
    clf = MKLClassifier(kernels=["rbf:gamma=2^-3..2^3/mean"], method="fixed")
    est_params = clf._params()
    from kernelmix._data import Dataset
    from kernelmix._model import KernelSet, Model
    data = Dataset.from_array(X, y.astype(float))
    kernel_set = KernelSet(clf.kernels, X.shape[1])
    before = counter[0]
    model = Model.train(data, kernel_set, est_params)     # one foreign call
    during = counter[0] - before
    stop.set()
    thread.join()
    assert model.n_machines == 1
    assert during > 100, f"the counting thread advanced {during} times during training"
