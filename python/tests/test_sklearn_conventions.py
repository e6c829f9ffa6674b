"""scikit-learn's conventions: precomputed kernel lists in model selection (KernelList, split as SVC's
precomputed kernel is), and the support-vector attributes of SVC (support_, n_support_ per class,
support_vectors_)."""
import itertools

import numpy as np
import pytest
from conftest import HEART_SCALE
from sklearn.datasets import load_iris, load_svmlight_file
from sklearn.model_selection import GridSearchCV, KFold, StratifiedKFold, cross_val_score, cross_validate
from sklearn.svm import SVC

from kernelmix import KernelList, MKLClassifier, MKLRegressor, MKLRidge


def base_kernels(X):
    """Three base kernels of the rows of X: linear, rbf (gamma 0.5) and a quadratic polynomial."""
    sq = np.sum(X * X, axis=1)
    linear = X @ X.T
    return [linear, np.exp(-0.5 * (sq[:, None] + sq[None, :] - 2 * linear)), (linear + 1) ** 2]


@pytest.fixture(scope="module")
def heart():
    X, y = load_svmlight_file(HEART_SCALE)
    X, y = X.toarray()[:150], y[:150]
    return base_kernels(X), y


def manual_scores(estimator, kernels, y, folds):
    """Fold scores by hand: fit on K[train][:, train], score on K[test][:, train]."""
    scores = []
    for train, test in folds:
        fitted = estimator.fit([K[np.ix_(train, train)] for K in kernels], y[train])
        scores.append(fitted.score([K[np.ix_(test, train)] for K in kernels], y[test]))
    return np.array(scores)


@pytest.mark.parametrize("estimator", [MKLClassifier(kernels="precomputed", method="lp", p=1.5, C=2),
                                       MKLRegressor(kernels="precomputed", method="lp", epsilon=0.2),
                                       MKLRidge(kernels="precomputed", C=4)],
                         ids=["classifier", "regressor", "ridge"])
def test_cross_val_score_on_a_kernel_list(heart, estimator):
    kernels, y = heart
    cv = KFold(3, shuffle=True, random_state=0)
    scores = cross_val_score(estimator, KernelList(kernels), y, cv=cv)
    expected = manual_scores(estimator, kernels, y, cv.split(kernels[0]))
    np.testing.assert_array_equal(scores, expected)
    assert len(set(scores)) > 1     # the folds differ: each was scored on its own rows


def test_cross_validate_on_a_kernel_list(heart):
    """Test and training scores of every stratified fold, as fitting and scoring each fold by hand."""
    kernels, y = heart
    cv = StratifiedKFold(4, shuffle=True, random_state=1)
    estimator = MKLClassifier(kernels="precomputed", method="lp", p=4 / 3)
    result = cross_validate(estimator, KernelList(kernels), y, cv=cv, return_train_score=True)
    folds = list(cv.split(kernels[0], y))
    np.testing.assert_array_equal(result["test_score"], manual_scores(estimator, kernels, y, folds))
    np.testing.assert_array_equal(result["train_score"],
                                  manual_scores(estimator, kernels, y, [(train, train) for train, _ in folds]))


def test_grid_search_on_a_kernel_list(heart):
    """GridSearchCV over C and p: every split's score and the chosen setting (the highest mean, the
    first in grid order on a tie) are those of a grid run by hand on the same folds."""
    kernels, y = heart
    cv = StratifiedKFold(3)
    grid = {"C": [0.01, 1.0, 100.0], "p": [1.25, 2.0, "inf"]}
    search = GridSearchCV(MKLClassifier(kernels="precomputed", method="lp"), grid, cv=cv).fit(KernelList(kernels), y)
    settings = [dict(C=C, p=p) for C, p in itertools.product(grid["C"], grid["p"])]
    means = []
    for k, setting in enumerate(settings):
        expected = manual_scores(MKLClassifier(kernels="precomputed", method="lp", **setting), kernels, y,
                                 cv.split(kernels[0], y))
        assert search.cv_results_["params"][k] == setting
        np.testing.assert_array_equal([search.cv_results_[f"split{f}_test_score"][k] for f in range(3)], expected)
        means.append(expected.mean())
    assert len(set(means)) > 2      # the settings differ, so the choice is one
    assert search.best_params_ == settings[int(np.argmax(means))]
    # the refit on all rows is the model fitted on the whole list, and predicts test x train blocks
    best = MKLClassifier(kernels="precomputed", method="lp", **search.best_params_).fit(kernels, y)
    np.testing.assert_array_equal(search.best_estimator_.kernel_weights_, best.kernel_weights_)
    test_rows = KernelList(kernels)[np.ix_(np.arange(20), np.arange(len(y)))]
    np.testing.assert_array_equal(search.predict(test_rows), best.predict([K[:20] for K in kernels]))


def test_kernel_list_indexing(heart):
    kernels, _ = heart
    K = KernelList(kernels)
    assert len(K) == 150 and K.shape == (150, 150)
    rows, cols = np.array([3, 1, 7]), np.array([0, 5])
    for block, source in zip(K[np.ix_(rows, cols)].kernels, kernels):
        np.testing.assert_array_equal(block, source[np.ix_(rows, cols)])
    for block, source in zip(K[rows].kernels, kernels):
        np.testing.assert_array_equal(block, source[rows])
    with pytest.raises(ValueError, match="kernel 2 has shape"):
        KernelList([kernels[0], kernels[1][:10]])
    with pytest.raises(IndexError):
        K[3]
    with pytest.raises(TypeError, match=r"\.kernels"):
        list(K)


def test_kernel_list_shape_errors(heart):
    """A KernelList of the wrong shape, or given where features are expected, says so in one line."""
    kernels, y = heart
    K = KernelList(kernels)
    uses_precomputed = ('a KernelList is 3 kernel matrices, not one array: give it to an estimator with '
                        'kernels="precomputed"')
    with pytest.raises(TypeError, match=uses_precomputed):
        MKLClassifier(method="lp").fit(K, y)
    with pytest.raises(TypeError, match=uses_precomputed):
        np.asarray(K)
    with pytest.raises(ValueError, match="must be square"):
        MKLClassifier(kernels="precomputed").fit(K[:, :100], y)
    with pytest.raises(ValueError, match="square kernel matrix"):
        cross_val_score(MKLClassifier(kernels="precomputed"), K[:, :100], y, cv=3)
    fitted = MKLClassifier(kernels="precomputed").fit(K[:100, :100], y[:100])
    with pytest.raises(ValueError, match="test x train: 150 columns, but the model was trained on 100 rows"):
        fitted.predict(K[:10])
    with pytest.raises(ValueError, match="2 precomputed test kernels given, the model has 3"):
        fitted.predict(KernelList(kernels[:2])[:10, :100])


def test_pairwise_tag_follows_kernels(heart):
    """Only kernels="precomputed" makes the estimator pairwise; spec lists of any sequence type do not,
    and cross-validate as the same specs in a tuple."""
    assert MKLClassifier(kernels="precomputed")._get_tags()["pairwise"] is True
    X, y = load_svmlight_file(HEART_SCALE)
    scores = {}
    for kind, kernels in [("tuple", ("linear", "rbf:gamma=0.5")), ("array", np.array(["linear", "rbf:gamma=0.5"]))]:
        estimator = MKLClassifier(kernels=kernels)
        assert estimator._get_tags()["pairwise"] is False
        scores[kind] = cross_val_score(estimator, X, y, cv=3)
    np.testing.assert_array_equal(scores["tuple"], scores["array"])


def svc_pair(kernel_spec, svc_kernel, X, y, **svc_options):
    """An MKLClassifier on one kernel with fixed weights and SVC on the same kernel, both fitted."""
    tight = dict(C=2.0, tol=1e-8)
    ours = MKLClassifier(kernels=kernel_spec, method="fixed", **tight).fit(X, y)
    theirs = SVC(kernel=svc_kernel, **tight, **svc_options).fit(X, y)
    return ours, theirs


@pytest.mark.parametrize("data", ["binary", "multiclass"])
def test_support_attributes_as_svc(heart, data):
    if data == "binary":
        X, y = load_svmlight_file(HEART_SCALE)
        X = X.toarray()
    else:
        X, y = load_iris(return_X_y=True)
    ours, theirs = svc_pair("rbf:gamma=0.5", "rbf", X, y, gamma=0.5)
    np.testing.assert_array_equal(ours.support_, theirs.support_)
    np.testing.assert_array_equal(ours.n_support_, theirs.n_support_)
    assert ours.n_support_.shape == (len(ours.classes_),)
    np.testing.assert_array_equal(ours.support_vectors_, theirs.support_vectors_)
    if data == "binary":   # one machine: the same coefficients, in the same order
        np.testing.assert_allclose(ours.dual_coef_, theirs.dual_coef_, rtol=0, atol=1e-5)


def test_support_attributes_sparse_and_precomputed(heart):
    X, y = load_svmlight_file(HEART_SCALE)
    ours, theirs = svc_pair("linear", "linear", X, y)
    np.testing.assert_array_equal(ours.support_, theirs.support_)
    assert type(ours.support_vectors_) is type(theirs.support_vectors_)     # CSR rows
    np.testing.assert_array_equal(ours.support_vectors_.toarray(), theirs.support_vectors_.toarray())
    K = (X @ X.T).toarray()
    ours = MKLClassifier(kernels="precomputed", method="fixed", C=2.0, tol=1e-8).fit([K], y)
    theirs = SVC(kernel="precomputed", C=2.0, tol=1e-8).fit(K, y)
    np.testing.assert_array_equal(ours.support_, theirs.support_)
    np.testing.assert_array_equal(ours.n_support_, theirs.n_support_)
    assert ours.support_vectors_.shape == theirs.support_vectors_.shape == (0, 0)


def test_regressor_n_support_as_svr(heart):
    kernels, y = heart
    reg = MKLRegressor(kernels="precomputed", method="fixed").fit(kernels[:1], y)
    np.testing.assert_array_equal(reg.n_support_, [reg.support_.size])
    assert np.all(np.diff(reg.support_) > 0)
