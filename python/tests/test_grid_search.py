"""GridSearchMKL: the library's cross-validation of a grid (km_cv_run on the caller's folds) gives the
split scores, ranks and choice of scikit-learn's GridSearchCV over the same estimator, grid and folds,
for features and precomputed kernel lists, classifiers and regressors and every scoring it maps; the
tie rule is the library's; what it cannot reproduce is refused."""
import logging

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.datasets import load_breast_cancer, load_diabetes, load_iris
from sklearn.metrics import r2_score
from sklearn.model_selection import (GridSearchCV, GroupKFold, KFold, PredefinedSplit, ShuffleSplit,
                                     StratifiedKFold, TimeSeriesSplit)
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from kernelmix import GridSearchMKL, KernelList, MKLClassifier, MKLRegressor, MKLRidge, OneClassMKL

KERNELS = ["rbf:gamma=2^-2..2^2/mean", "linear"]


def breast_cancer(features):
    """120 rows of breast_cancer, scaled."""
    X, y = load_breast_cancer(return_X_y=True)
    rows = np.random.RandomState(0).permutation(len(y))[:120]
    return StandardScaler().fit_transform(X[rows][:, features]), y[rows]


@pytest.fixture(scope="module")
def cancer():
    """Two features (mean radius and texture): the settings score differently, the best alone."""
    return breast_cancer([0, 1])


@pytest.fixture(scope="module")
def diabetes():
    X, y = load_diabetes(return_X_y=True)
    return X[:90] / X[:90].std(axis=0), y[:90]


def lp_classifier(**params):
    return MKLClassifier(**{"kernels": KERNELS, "method": "lp", "tol": 1e-6, "mkl_tol": 1e-6, **params})


def assert_same_search(ours, theirs, tol=1e-6):
    """Split scores, means, population std and ranks of the two searches agree."""
    assert ours.n_splits_ == theirs.n_splits_
    assert [p for p in ours.cv_results_["params"]] == [p for p in theirs.cv_results_["params"]]
    for k in range(ours.n_splits_):
        np.testing.assert_allclose(ours.cv_results_[f"split{k}_test_score"], theirs.cv_results_[f"split{k}_test_score"],
                                   rtol=0, atol=tol)
    for key in ("mean_test_score", "std_test_score"):
        np.testing.assert_allclose(ours.cv_results_[key], theirs.cv_results_[key], rtol=0, atol=tol)
    np.testing.assert_array_equal(ours.cv_results_["rank_test_score"], theirs.cv_results_["rank_test_score"])
    for name in ours.cv_results_["params"][0]:
        np.testing.assert_array_equal(ours.cv_results_[f"param_{name}"], theirs.cv_results_[f"param_{name}"])


def assert_same_choice(ours, theirs):
    """The same best setting, where GridSearchCV's best mean is unique (no tie for the rules to break)."""
    means = theirs.cv_results_["mean_test_score"]
    assert np.sum(np.isclose(means, means.max(), rtol=0, atol=1e-12)) == 1
    assert ours.best_params_ == theirs.best_params_ and ours.best_index_ == theirs.best_index_
    assert ours.best_score_ == pytest.approx(theirs.best_score_, abs=1e-6)


def test_classifier_on_features_as_grid_search_cv(cancer):
    """C x p of lp-norm MKL, 4 stratified folds (cv=4 as GridSearchCV reads it), scored by accuracy
    (the estimator's score) and by roc_auc, whose continuous values leave no tie."""
    X, y = cancer
    grid = {"C": [0.1, 1, 10], "p": [1, "4/3", 2]}
    for scoring in (None, "roc_auc"):
        ours = GridSearchMKL(lp_classifier(), grid, warm_start=False, cv=4, scoring=scoring).fit(X, y)
        theirs = GridSearchCV(lp_classifier(), grid, cv=4, scoring=scoring).fit(X, y)
        assert_same_search(ours, theirs)
        assert len(np.unique(ours.cv_results_["mean_test_score"])) > 2   # the settings score differently
    assert_same_choice(ours, theirs)
    # the refitted estimator is a fit of the best setting on all rows, and the search delegates to it
    best = lp_classifier(**ours.best_params_).fit(X, y)
    np.testing.assert_array_equal(ours.best_estimator_.kernel_weights_, best.kernel_weights_)
    np.testing.assert_array_equal(ours.predict(X), best.predict(X))
    np.testing.assert_array_equal(ours.decision_function(X), best.decision_function(X))
    assert ours.score(X, y) == theirs.score(X, y)
    assert list(ours.classes_) == [0, 1] and ours.n_features_in_ == X.shape[1]
    # the library's figures of the best setting: the means over the splits of fits on their rows
    fits = [lp_classifier(**ours.best_params_).fit(X[train], y[train]) for train, _ in StratifiedKFold(4).split(X, y)]
    np.testing.assert_allclose(ours.cv_results_["mean_kernel_weights"][ours.best_index_],
                               np.mean([f.kernel_weights_ for f in fits], axis=0), rtol=0, atol=1e-6)
    assert ours.cv_results_["mean_n_support"][ours.best_index_] == np.mean([f.support_.size for f in fits])
    assert np.all(ours.cv_results_["mean_fit_time"] > 0)


def test_warm_starts_choose_as_cold_fits(cancer):
    """warm_start (the default): the C x p grid of lp-norm MKL warm-starts along p on each split; every
    split's roc_auc equals the cold search's to the solver's tolerance, and so does the choice."""
    X, y = cancer
    grid = {"C": [0.1, 1, 10], "p": [1, "4/3", 2, 4]}
    warm = GridSearchMKL(lp_classifier(), grid, cv=4, scoring="roc_auc").fit(X, y)
    cold = GridSearchMKL(lp_classifier(), grid, warm_start=False, cv=4, scoring="roc_auc").fit(X, y)
    for k in range(4):
        np.testing.assert_allclose(warm.cv_results_[f"split{k}_test_score"], cold.cv_results_[f"split{k}_test_score"],
                                   rtol=0, atol=1e-3)
    assert warm.best_params_ == cold.best_params_


def test_threads_give_the_results_of_one(cancer):
    """n_jobs: chains trained on two threads at once give one thread's cv_results_ to the last bit (times
    aside), with verbose progress logged from the threads; n_jobs=0 is refused."""
    X, y = cancer
    grid = {"C": [0.1, 1, 10], "p": [1, 2, "inf"]}
    one = GridSearchMKL(lp_classifier(), grid, cv=4, n_jobs=1, refit=False).fit(X, y)
    two = GridSearchMKL(lp_classifier(), grid, cv=4, n_jobs=2, refit=False, verbose=1).fit(X, y)
    for key, value in one.cv_results_.items():
        if key == "mean_kernel_weights":
            np.testing.assert_array_equal(np.stack(two.cv_results_[key]), np.stack(value))
        elif "time" not in key:
            assert list(two.cv_results_[key]) == list(value), key
    with pytest.raises(ValueError, match="n_jobs"):
        GridSearchMKL(lp_classifier(), grid, n_jobs=0).fit(X, y)


def test_ties_go_to_the_smaller_c_then_the_larger_p():
    """Accuracy ties among settings (all 30 features, nearly separable): the library's rule (smaller
    C, then larger p, then the earlier setting) where GridSearchCV takes the first in grid order."""
    X, y = breast_cancer(slice(None))
    grid = {"p": [1, 2, 4], "C": [10, 1, 0.1]}
    ours = GridSearchMKL(lp_classifier(), grid, warm_start=False, cv=4).fit(X, y)
    means = ours.cv_results_["mean_test_score"]
    tied = [s for s, m in enumerate(means) if abs(m - means.max()) <= 1e-12]
    assert len(tied) > 1   # the data give a tie, the case the rule decides
    params = ours.cv_results_["params"]
    rule = min(tied, key=lambda s: (float(params[s]["C"]), -float(params[s]["p"]), s))
    assert ours.best_index_ == rule
    theirs = GridSearchCV(lp_classifier(), grid, cv=4).fit(X, y)
    assert theirs.best_index_ == tied[0] != ours.best_index_


def test_precomputed_kernel_list_as_grid_search_cv(cancer):
    """A KernelList split by a shuffled StratifiedKFold given as a splitter, as GridSearchCV splits it
    for the pairwise estimator; a plain list of the matrices gives the same search."""
    X, y = cancer
    sq = np.sum(X * X, axis=1)
    distances = sq[:, None] + sq[None, :] - 2 * X @ X.T
    kernels = [X @ X.T] + [np.exp(-g * distances) for g in (0.003, 0.03, 0.3)]
    estimator = MKLClassifier(kernels="precomputed", method="lp", norm="mult", tol=1e-6, mkl_tol=1e-6)
    grid = [{"C": [0.1, 10], "p": [1, 2]}, {"C": [1], "p": ["inf"]}]
    cv = StratifiedKFold(3, shuffle=True, random_state=0)
    ours = GridSearchMKL(estimator, grid, warm_start=False, cv=cv, scoring="roc_auc").fit(KernelList(kernels), y)
    theirs = GridSearchCV(estimator, grid, cv=cv, scoring="roc_auc").fit(KernelList(kernels), y)
    assert_same_search(ours, theirs)
    assert_same_choice(ours, theirs)
    assert ours._get_tags()["pairwise"]
    listed = GridSearchMKL(estimator, grid, warm_start=False, cv=cv, scoring="roc_auc").fit(kernels, y)
    np.testing.assert_array_equal(listed.cv_results_["mean_test_score"], ours.cv_results_["mean_test_score"])
    test = KernelList(kernels)[np.ix_(np.arange(10), np.arange(len(y)))]
    np.testing.assert_array_equal(ours.predict(test), theirs.predict(test))


@pytest.mark.parametrize("estimator, grid", [
    (MKLRegressor(kernels=KERNELS, method="lp", tol=1e-6, mkl_tol=1e-6),
     {"C": [1, 100], "epsilon": [0.1, 0.5], "p": [1, 2]}),
    (MKLRidge(kernels=KERNELS, method="lp", mkl_tol=1e-6), {"C": [0.1, 10], "p": [1, 2]}),
], ids=["svr", "krr"])
@pytest.mark.parametrize("scoring", [None, "neg_mean_squared_error"])
def test_regressor_as_grid_search_cv(diabetes, estimator, grid, scoring):
    """KFold(3) (cv=3 for a regressor), scored by r2 (the estimator's score; the library's r2 is
    r2_score) and by the negated mean squared error."""
    X, y = diabetes
    ours = GridSearchMKL(estimator, grid, warm_start=False, cv=3, scoring=scoring).fit(X, y)
    theirs = GridSearchCV(estimator, grid, cv=3, scoring=scoring).fit(X, y)
    assert_same_search(ours, theirs, tol=1e-6 if scoring is None else 1e-6 * np.var(y))
    assert_same_choice(ours, theirs)
    if scoring is None:   # r2 of the best setting's first split by hand
        train, test = next(KFold(3).split(X))
        fitted = clone(estimator).set_params(**ours.best_params_).fit(X[train], y[train])
        assert ours.cv_results_["split0_test_score"][ours.best_index_] == pytest.approx(
            r2_score(y[test], fitted.predict(X[test])), abs=1e-9)
    else:
        assert np.all(ours.cv_results_["mean_test_score"] < 0)


@pytest.mark.parametrize("scoring", ["balanced_accuracy", "average_precision", "matthews_corrcoef", "neg_log_loss"])
def test_every_classifier_scoring_as_grid_search_cv(cancer, scoring):
    X, y = cancer[0][:80], cancer[1][:80]
    estimator = lp_classifier(probability=scoring == "neg_log_loss")
    grid = {"C": [0.05, 2], "p": [1, 2]}
    ours = GridSearchMKL(estimator, grid, warm_start=False, cv=3, scoring=scoring).fit(X, y)
    theirs = GridSearchCV(estimator, grid, cv=3, scoring=scoring).fit(X, y)
    assert_same_search(ours, theirs)


@pytest.mark.parametrize("estimator, grid", [
    (MKLClassifier(kernels=KERNELS), {"method": ["fixed", "lp", "elasticnet"]}),
    (lp_classifier(method="elasticnet"), {"elasticnet_lambda": [0.1, 0.5, 0.9], "C": [1, 10]}),
    (lp_classifier(method="clmkl", clusters=2), {"tau": [0.5, 2, np.inf]}),
], ids=["method", "elasticnet-lambda", "clmkl-tau"])
def test_other_parameters_as_grid_search_cv(cancer, estimator, grid):
    X, y = cancer
    ours = GridSearchMKL(estimator, grid, warm_start=False, cv=3, scoring="roc_auc").fit(X, y)
    theirs = GridSearchCV(estimator, grid, cv=3, scoring="roc_auc").fit(X, y)
    assert_same_search(ours, theirs)
    assert ours.best_params_ == theirs.best_params_


def test_kernel_sets_in_the_grid_and_group_folds(cancer):
    """kernels and norm as axes (one kernel set each) and GroupKFold's folds, given groups."""
    X, y = cancer
    groups = np.arange(len(y)) % 7
    grid = {"kernels": [["linear"], ["rbf:gamma=2^-1..2^1/mean", "linear"]], "norm": ["none", "spherical"],
            "C": [0.5, 5]}
    ours = GridSearchMKL(lp_classifier(), grid, warm_start=False, cv=GroupKFold(3), scoring="roc_auc").fit(X, y, groups=groups)
    theirs = GridSearchCV(lp_classifier(), grid, cv=GroupKFold(3), scoring="roc_auc").fit(X, y, groups=groups)
    assert_same_search(ours, theirs)
    assert_same_choice(ours, theirs)
    assert [w.shape for w in ours.cv_results_["mean_kernel_weights"][:2]] == [(1,), (1,)]


def test_explicit_splits_and_multiclass():
    """An iterable of (train, test) index pairs and PredefinedSplit's folds, on three classes."""
    X, y = load_iris(return_X_y=True)
    rows = np.random.RandomState(3).permutation(150)
    folds = list(KFold(3).split(X))
    grid = {"C": [0.1, 10]}
    estimator = lp_classifier(multiclass="ovr")
    ours = GridSearchMKL(estimator, grid, warm_start=False, cv=folds).fit(X[rows], y[rows])
    theirs = GridSearchCV(estimator, grid, cv=folds).fit(X[rows], y[rows])
    assert_same_search(ours, theirs)
    predefined = GridSearchMKL(estimator, grid, warm_start=False, cv=PredefinedSplit(np.arange(150) // 50), refit=False)
    predefined.fit(X[rows], y[rows])
    np.testing.assert_array_equal(predefined.cv_results_["split1_test_score"], ours.cv_results_["split1_test_score"])
    assert not hasattr(predefined, "best_estimator_") and predefined.best_params_ in ({"C": 0.1}, {"C": 10})
    with pytest.raises(Exception, match="refit=True"):
        predefined.predict(X)


def test_progress_is_logged(cancer, caplog):
    X, y = cancer
    with caplog.at_level(logging.INFO, logger="kernelmix"):
        GridSearchMKL(lp_classifier(), {"C": [0.1, 1]}, cv=2, verbose=1).fit(X, y)
    lines = [r.getMessage() for r in caplog.records if "GridSearchMKL" in r.getMessage()]
    assert len(lines) == 2 and lines[-1].startswith("GridSearchMKL: 2 of 2 settings done")


def shifted_splits(n):
    """Two splits whose test sets overlap."""
    rows = np.arange(n)
    return [(rows[n // 2:], rows[:n // 2]), (rows[:n // 3], rows[n // 3:])]


@pytest.mark.parametrize("make, message", [
    (lambda: GridSearchMKL(OneClassMKL(), {"nu": [0.5]}), "searches MKLClassifier, MKLRegressor or MKLRidge"),
    (lambda: GridSearchMKL(make_pipeline(StandardScaler(), lp_classifier()), {}), "use sklearn.model_selection"),
    (lambda: GridSearchMKL(lp_classifier(), {"C": [1]}, scoring=len), "scores by the library's metrics"),
    (lambda: GridSearchMKL(lp_classifier(), {"C": [1]}, scoring="f1"), "scores by the library's metrics"),
    (lambda: GridSearchMKL(lp_classifier(), {"C": [1]}, scoring="r2"), "scores a regressor, not MKLClassifier"),
    (lambda: GridSearchMKL(MKLRegressor(), {"C": [1]}, scoring="accuracy"), "scores a classifier, not MKLRegressor"),
    (lambda: GridSearchMKL(lp_classifier(), {"C": [1]}, scoring="neg_log_loss"), "set probability=True"),
    (lambda: GridSearchMKL(lp_classifier(), {"C": [1]}, refit="accuracy"), "refit='accuracy': give True or False"),
    (lambda: GridSearchMKL(lp_classifier(), {"C": [1]}, cv=ShuffleSplit(3, random_state=0)), "tested more than once"),
    (lambda: GridSearchMKL(lp_classifier(), {"C": [1]}, cv=TimeSeriesSplit(3)), "not on the 90 rows it does not test"),
    (lambda: GridSearchMKL(lp_classifier(), {"C": [1]}, cv=shifted_splits(120)), "split 2 tests row 40"),
    (lambda: GridSearchMKL(lp_classifier(), {"C": [1]}, cv=[(np.arange(60, 120), np.arange(60))]), "1 split"),
    (lambda: GridSearchMKL(lp_classifier(), {"C": [1]}, cv=[(np.arange(60, 120), np.arange(60)),
                                                           (np.r_[0:60, 119], np.arange(60, 119))]),
     "row 119 is tested by no"),
    (lambda: GridSearchMKL(lp_classifier(), {"C": [1]}, cv=[(np.arange(60, 120), np.arange(-1, 60)),
                                                           (np.arange(60), np.arange(60, 120))]), "not a row"),
    (lambda: GridSearchMKL(lp_classifier(class_weight="balanced"), {"C": [1]}), "class_weight='balanced'"),
    (lambda: GridSearchMKL(lp_classifier(), {"kernels": ["precomputed"]}), "X is either precomputed kernels or"),
    (lambda: GridSearchMKL(lp_classifier(), {"gamma": [1]}), "Invalid parameter 'gamma'"),
    (lambda: GridSearchMKL(lp_classifier(), {"C": [-1]}), "C=-1"),
], ids=["oneclass", "pipeline", "callable-scoring", "unknown-scoring", "regression-scoring", "class-scoring",
        "log-loss-without-probability", "multimetric-refit", "shuffle-split", "time-series-split", "overlap",
        "one-split", "untested-row", "negative-row", "balanced", "precomputed-switch", "unknown-parameter",
        "bad-value"])
def test_refusals(cancer, make, message):
    X, y = cancer
    with pytest.raises(ValueError, match=message):
        make().fit(X, y)


def test_refusals_of_the_data():
    X, y = load_iris(return_X_y=True)
    with pytest.raises(ValueError, match="scores a classifier of two classes; y has 3"):
        GridSearchMKL(lp_classifier(), {"C": [1]}, scoring="roc_auc").fit(X, y)
    binary = y[:100] + 1     # classes 1 and 2: average_precision's positive class 1 is classes_[0]
    with pytest.raises(ValueError, match=r"takes the class 1 as positive"):
        GridSearchMKL(lp_classifier(), {"C": [1]}, scoring="average_precision").fit(X[:100], binary)
    with pytest.raises(ValueError, match="break_ties=True"):
        GridSearchMKL(lp_classifier(), {"break_ties": [False, True]}).fit(X, y)
    # a split the library cannot score names the setting and the split
    target = np.r_[np.zeros(50), np.arange(50.0)]
    with pytest.raises(ValueError, match=r"setting 1 \(C=1\), split 1: r2: undefined for a constant target"):
        GridSearchMKL(MKLRegressor(), {"C": [1]}, cv=2).fit(X[:100], target)
