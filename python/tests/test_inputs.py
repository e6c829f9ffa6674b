"""Inputs: dense arrays in either order and dtype, sparse CSR/CSC, lists of precomputed kernels; and
bad input raising scikit-learn's usual exceptions with clear messages."""
import numpy as np
import pytest
import scipy.sparse as sp
from conftest import HEART_SCALE
from sklearn.datasets import load_iris, load_svmlight_file
from sklearn.exceptions import NotFittedError

from kernelmix import KernelCombiner, MKLClassifier, MKLRegressor, OneClassMKL
from kernelmix.estimators import check_kernel_list

KERNELS = ["rbf:gamma=2^-2..2^1/mean", "linear"]


@pytest.fixture(scope="module")
def heart():
    X, y = load_svmlight_file(HEART_SCALE)
    return X, y


def gram_matrices(X_train, X_test, kernels=KERNELS):
    """The fitted base kernels, train x train and test x train, one KernelCombiner per kernel."""
    combiner = KernelCombiner(kernels=kernels, method="fixed").fit(X_train)
    M = len(combiner.kernel_specs_)
    train, test = [], []
    for m in range(M):
        combiner.kernel_weights_ = np.eye(M)[m]
        train.append(combiner.transform(X_train))
        test.append(combiner.transform(X_test))
    return train, test


def test_dense_orders_and_dtypes_give_one_model(heart):
    X, y = heart
    X = X.toarray()
    reference = MKLClassifier(method="lp", kernels=KERNELS).fit(X, y)
    for variant in (np.asfortranarray(X), X.tolist()):
        clf = MKLClassifier(method="lp", kernels=KERNELS).fit(variant, y)
        np.testing.assert_array_equal(clf.kernel_weights_, reference.kernel_weights_)
        np.testing.assert_array_equal(clf.predict(variant), reference.predict(X))
    float32 = MKLClassifier(method="lp", kernels=KERNELS).fit(X.astype(np.float32), y)
    np.testing.assert_allclose(float32.kernel_weights_, reference.kernel_weights_, rtol=1e-5)


def test_sparse_rows(heart):
    X, y = heart
    csr = MKLClassifier(method="lp", kernels=KERNELS).fit(X, y)
    csc = MKLClassifier(method="lp", kernels=KERNELS).fit(X.tocsc(), y)
    np.testing.assert_array_equal(csr.kernel_weights_, csc.kernel_weights_)
    np.testing.assert_array_equal(csr.predict(X.tocsc()), csr.predict(X))
    # a matrix with unsorted indices and duplicates is canonicalised on a copy, never in place
    coo = X.tocoo()
    order = np.random.RandomState(0).permutation(coo.nnz)
    messy = sp.csr_matrix((coo.data[order], (coo.row[order], coo.col[order])), shape=X.shape)
    messy.has_sorted_indices = False
    before = messy.indices.copy()
    np.testing.assert_array_equal(csr.decision_function(messy), csr.decision_function(X))
    np.testing.assert_array_equal(messy.indices, before)
    # sparse rows: the dense model up to rounding
    dense = MKLClassifier(method="lp", kernels=KERNELS).fit(X.toarray(), y)
    np.testing.assert_allclose(dense.kernel_weights_, csr.kernel_weights_, rtol=1e-8)


def test_precomputed_kernel_lists(heart):
    X, y = heart
    train, test = X[:200], X[200:]
    K_train, K_test = gram_matrices(train, test)
    # the same kernels from features and from matrices differ in the last bits of their values (another
    # evaluation order): with tight tolerances both reach the same optimum
    tight = dict(method="lp", p=4 / 3, tol=1e-8, mkl_tol=1e-8)
    features = MKLClassifier(kernels=KERNELS, **tight).fit(train, y[:200])
    for K, K_t in ((K_train, K_test), (np.stack(K_train), np.stack(K_test))):   # MKLpy's KL list, or 3-D
        pre = MKLClassifier(kernels="precomputed", **tight).fit(K, y[:200])
        np.testing.assert_allclose(pre.kernel_weights_, features.kernel_weights_, atol=1e-6)
        np.testing.assert_allclose(pre.decision_function(K_t), features.decision_function(test), atol=1e-6)
        np.testing.assert_array_equal(pre.predict(K_t), features.predict(test))
        assert pre.n_features_in_ == 200 and pre._get_tags()["pairwise"]
    # float32 matrices are used as they are (no copy), and train the same model up to float rounding
    K32 = [k.astype(np.float32) for k in K_train]
    assert all(np.shares_memory(a, b) for a, b in zip(check_kernel_list(K32), K32))
    pre32 = MKLClassifier(kernels="precomputed", **tight).fit(K32, y[:200])
    np.testing.assert_allclose(pre32.kernel_weights_, features.kernel_weights_, atol=1e-5)
    # regression and one-class on precomputed kernels
    reg = MKLRegressor(method="lp", kernels="precomputed").fit(K_train, y[:200])
    assert reg.predict(K_test).shape == (70,)
    one = OneClassMKL(method="lp", kernels="precomputed", nu=0.3).fit(K_train)
    assert set(one.predict(K_test)) <= {-1, 1}


def test_precomputed_shape_errors(heart):
    X, y = heart
    K_train, K_test = gram_matrices(X[:50], X[50:60])
    clf = MKLClassifier(method="lp", kernels="precomputed").fit(K_train, y[:50])
    with pytest.raises(ValueError, match="must be square"):
        MKLClassifier(method="lp", kernels="precomputed").fit([k[:, :40] for k in K_train], y[:50])
    with pytest.raises(ValueError, match="kernel 2 is 40 x 40, kernel 1 is 50 x 50"):
        MKLClassifier(method="lp", kernels="precomputed").fit([K_train[0], K_train[1][:40, :40]], y[:50])
    with pytest.raises(ValueError, match="49 targets for 50 rows"):
        MKLClassifier(method="lp", kernels="precomputed").fit(K_train, y[:49])
    with pytest.raises(ValueError, match="test x train: 40 columns, but the model was trained on 50 rows"):
        clf.predict([k[:, :40] for k in K_test])
    with pytest.raises(ValueError, match="2 precomputed test kernels given, the model has 5"):
        clf.predict(K_test[:2])
    with pytest.raises(ValueError, match="NaN"):
        bad = [k.copy() for k in K_train]
        bad[1][3, 4] = np.nan
        MKLClassifier(method="lp", kernels="precomputed").fit(bad, y[:50])
    with pytest.raises(TypeError, match="dense"):
        MKLClassifier(method="lp", kernels="precomputed").fit(sp.csr_matrix(K_train[0]), y[:50])


@pytest.mark.parametrize("Estimator", [MKLClassifier, MKLRegressor, OneClassMKL])
def test_bad_input_raises_sklearn_errors(Estimator):
    X, y = load_iris(return_X_y=True)
    y = y if Estimator is MKLClassifier else X[:, 0]
    fit = (lambda X_, y_=None: Estimator().fit(X_)) if Estimator is OneClassMKL else \
        (lambda X_, y_=y: Estimator().fit(X_, y_))
    bad = X.copy()
    bad[3, 2] = np.nan
    with pytest.raises(ValueError, match="Input X contains NaN"):
        fit(bad)
    bad[3, 2] = np.inf
    with pytest.raises(ValueError, match="infinity"):
        fit(bad)
    with pytest.raises(ValueError, match="Expected 2D array, got 1D array"):
        fit(X[:, 0])
    with pytest.raises(ValueError, match="0 sample"):
        fit(X[:0])
    with pytest.raises(NotFittedError):
        Estimator().predict(X)
    est = Estimator().fit(X) if Estimator is OneClassMKL else Estimator().fit(X, y)
    with pytest.raises(ValueError, match="X has 3 features, but .* is expecting 4 features"):
        est.predict(X[:, :3])
    with pytest.raises(ValueError, match="Input X contains NaN"):
        est.predict(bad * np.nan)
    if Estimator is not OneClassMKL:
        with pytest.raises(ValueError, match="inconsistent numbers of samples"):
            fit(X, y[:-1])
    with pytest.raises(ValueError, match="kernel spec 'rbf:gama=2'"):
        Estimator(kernels=["rbf:gama=2"]).fit(*((X,) if Estimator is OneClassMKL else (X, y)))
    with pytest.raises(ValueError, match="p='two' is not a number"):
        Estimator(p="two").fit(*((X,) if Estimator is OneClassMKL else (X, y)))
    with pytest.raises(ValueError, match="p='1/0': division by zero"):
        Estimator(p="1/0").fit(*((X,) if Estimator is OneClassMKL else (X, y)))
    with pytest.raises(ValueError):
        Estimator(p=0.5).fit(*((X,) if Estimator is OneClassMKL else (X, y)))
    with pytest.raises(ValueError, match="solver"):
        Estimator(solver="newton").fit(*((X,) if Estimator is OneClassMKL else (X, y)))


def test_labels_as_scikit_learn_handles_them():
    X, y = load_iris(return_X_y=True)
    names = np.array(["a", "b", "c"], dtype=object)[y]
    clf = MKLClassifier(method="lp", kernels=KERNELS).fit(X, names)
    assert clf.predict(X).dtype == object and set(clf.predict(X)) == {"a", "b", "c"}
    with pytest.raises(ValueError, match="Unknown label type: 'continuous'"):
        MKLClassifier().fit(X, X[:, 0])
    with pytest.raises(ValueError, match="greater than one; got 1 class"):
        MKLClassifier().fit(X[:50], names[:50])
    with pytest.raises(ValueError, match="could not convert string to float"):
        MKLRegressor().fit(X, names)
    with pytest.raises(ValueError, match="C"):
        MKLClassifier(method="lp", C=-1).fit(X, y)
    with pytest.raises(ValueError, match="class_weight names the class 'z'"):
        MKLClassifier(method="lp", class_weight={"z": 2}).fit(X, names)
    balanced = MKLClassifier(method="lp", kernels=KERNELS, class_weight="balanced").fit(X[:60], y[:60])
    explicit = MKLClassifier(method="lp", kernels=KERNELS, class_weight={0: 60 / 100, 1: 60 / 20}).fit(X[:60], y[:60])
    np.testing.assert_array_equal(balanced.dual_coef_, explicit.dual_coef_)
