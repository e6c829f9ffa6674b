"""GridSearchMKL: scikit-learn's grid search over an MKL estimator, run by the library as one
cross-validation of a grid (km_grid, km_cv_run), so that the Gram blocks of a kernel set are computed
once for every setting and split instead of once per fit (docs/model-selection.md, "From Python")."""
import ctypes
import logging
import numbers
import time
from collections import defaultdict
from functools import partial

import numpy as np
from numpy.ma import MaskedArray
from scipy.stats import rankdata
from sklearn.base import BaseEstimator, MetaEstimatorMixin, clone, is_classifier
from sklearn.exceptions import NotFittedError
from sklearn.metrics import get_scorer
from sklearn.model_selection import ParameterGrid, check_cv
from sklearn.utils._tags import _safe_tags
from sklearn.utils.metaestimators import available_if
from sklearn.utils.validation import check_is_fitted

from . import _library as L
from .estimators import MKLClassifier, MKLRegressor, MKLRidge, _kernel_specs
from .kernel_list import KernelList

logger = logging.getLogger("kernelmix")

# scikit-learn's scoring names: (the library's score of the same name in km_score's table, the sign
# scikit-learn gives its values (neg_*: greater is better), what it scores: "classifier", "binary"
# (a classifier of two classes) or "regressor")
SCORINGS = {
    "accuracy": ("accuracy", 1, "classifier"),
    "balanced_accuracy": ("balanced-accuracy", 1, "classifier"),
    "neg_log_loss": ("log-loss", -1, "classifier"),
    "roc_auc": ("auc", 1, "binary"),
    "average_precision": ("average-precision", 1, "binary"),
    "matthews_corrcoef": ("mcc", 1, "binary"),
    "neg_mean_squared_error": ("mse", -1, "regressor"),
    "r2": ("r2", 1, "regressor"),
}

_NOT_A_PARTITION = ("GridSearchMKL needs splits whose test sets partition the rows, each split training on all "
                    "the rows it does not test (KFold, StratifiedKFold, GroupKFold, LeaveOneOut, ...); for other "
                    "splitters use sklearn.model_selection.GridSearchCV")


def _scoring(scoring, estimator, classes):
    """(the library's score name, the sign of scikit-learn's values) of scoring for estimator."""
    classifier = is_classifier(estimator)
    if scoring is None:     # the estimator's score(): ClassifierMixin's accuracy, RegressorMixin's r2
        scoring = "accuracy" if classifier else "r2"
    if not isinstance(scoring, str) or scoring not in SCORINGS:
        raise ValueError(f"scoring={scoring!r}: GridSearchMKL scores by the library's metrics, None (the "
                         f"estimator's score) or one of {', '.join(SCORINGS)}; for other scorers use "
                         f"sklearn.model_selection.GridSearchCV")
    name, sign, scores = SCORINGS[scoring]
    if (scores == "regressor") == classifier:
        raise ValueError(f"scoring={scoring!r} scores a {'regressor' if scores == 'regressor' else 'classifier'}, "
                         f"not {type(estimator).__name__}")
    if scores == "binary" and len(classes) != 2:
        raise ValueError(f"scoring={scoring!r} scores a classifier of two classes; y has {len(classes)}")
    if scoring == "average_precision" and classes[1] != 1:
        raise ValueError(f"scoring='average_precision' takes the class 1 as positive (scikit-learn's pos_label=1) "
                         f"and ranks the decision values of classes_[1]; the classes are {list(classes)}: give y in "
                         f"{{0, 1}} or {{-1, 1}}")
    return name, sign


def _rows(index, n, k, what):
    """The rows of a split's train or test index (integers or a boolean mask over the n rows)."""
    index = np.asarray(index)
    if index.dtype == bool and index.shape == (n,):
        return np.flatnonzero(index)
    if index.ndim != 1 or index.size and not np.issubdtype(index.dtype, np.integer):
        raise ValueError(f"cv: split {k + 1}'s {what} rows are not an array of row indices")
    if index.size and (index.min() < 0 or index.max() >= n):
        raise ValueError(f"cv: split {k + 1}'s {what} rows hold {index.min() if index.min() < 0 else index.max()}, "
                         f"not a row of the {n} rows")
    return index


def _fold_of(splits, n):
    """Each row's fold, the split that tests it: the library's km_cv_options.fold_of."""
    fold_of = np.full(n, -1, dtype=np.intc)
    k = -1
    for k, (train, test) in enumerate(splits):
        train, test = _rows(train, n, k, "train"), _rows(test, n, k, "test")
        if test.size == 0:
            raise ValueError(f"cv: split {k + 1} tests no row; {_NOT_A_PARTITION}")
        tested = np.bincount(test, minlength=n) + (fold_of >= 0)
        if np.any(tested > 1):
            raise ValueError(f"cv: split {k + 1} tests row {np.flatnonzero(tested > 1)[0]}, which is tested more "
                             f"than once; {_NOT_A_PARTITION}")
        trained = np.bincount(train, minlength=n)
        if np.any(trained[test]) or np.any(trained > 1) or train.size != n - test.size:
            raise ValueError(f"cv: split {k + 1} trains on {train.size} rows, not on the {n - test.size} rows it "
                             f"does not test; {_NOT_A_PARTITION}")
        fold_of[test] = k
    if k < 1:
        raise ValueError(f"cv: {k + 1} split; cross-validation needs at least 2")
    if np.any(fold_of < 0):
        raise ValueError(f"cv: row {np.flatnonzero(fold_of < 0)[0]} is tested by no split; {_NOT_A_PARTITION}")
    return fold_of


def _estimator_has(attribute):
    """Whether the refitted estimator (before fitting: the given one) has attribute."""
    def check(self):
        getattr(getattr(self, "best_estimator_", self.estimator), attribute)
        return True
    return check


class GridSearchMKL(MetaEstimatorMixin, BaseEstimator):
    """Exhaustive search over the parameters of an MKL estimator, as scikit-learn's GridSearchCV, with
    every (setting, split) training run by the library in one cross-validation of a grid (km_cv_run):
    the Gram blocks of each kernel set are computed once over all rows for every setting and split,
    widths and normalization still fitted on each split's training rows, so each split scores what a
    fit of the estimator on its training rows scores.

    estimator : MKLClassifier, MKLRegressor or MKLRidge
        Its parameters are the fixed ones of every setting.
    param_grid : dict or list of dicts
        Lists of values of the estimator's parameters (C, p, method, elasticnet_lambda, tau, kernels as
        lists of specs, norm, ...), scikit-learn's form: the settings are the product of a dict's
        lists, the dicts of a list one after the other. With kernels="precomputed" the kernels are X's.
    cv : int, splitter or iterable of (train, test)
        An int k is GridSearchCV's k folds: StratifiedKFold(k) for a classifier, KFold(k) otherwise,
        without shuffling. A splitter (split(X, y, groups)) or iterable must give splits whose test sets
        partition the rows, each training on all other rows (KFold, StratifiedKFold, GroupKFold,
        LeaveOneOut, PredefinedSplit without -1, ...); others (ShuffleSplit, TimeSeriesSplit) are
        refused with a ValueError.
    scoring : None or str
        None: the estimator's score (accuracy for MKLClassifier, r2 for the regressors); or one of
        "accuracy", "balanced_accuracy", "roc_auc", "average_precision", "matthews_corrcoef",
        "neg_log_loss" (probability=True), "neg_mean_squared_error", "r2": the library's metric of that
        name, with scikit-learn's sign (neg_*: the negated loss). roc_auc, average_precision and
        matthews_corrcoef score two classes.
    refit : bool
        Fit best_estimator_ on all rows with best_params_ (predict, score, ... delegate to it).
    warm_start : bool
        True: lp-norm MKL settings that differ only in C and p start, on each split, from the solution
        of their neighbour along p (kernelmix cv's warm starts, docs/model-selection.md): each equals a
        cold training within the duality gap both certify, so scores may differ from GridSearchCV's in
        the last digits. False: every setting trains cold, as GridSearchCV's fits do.
    n_jobs : int or None
        Threads that train at once (kernelmix cv --threads), each on chains of (setting, split) trainings
        with its share of the estimator's cache_size beyond the Gram blocks all share; None or -1:
        OpenMP's number (OMP_NUM_THREADS, else the cores). Unlike GridSearchCV's processes, the threads
        share the Gram blocks; the scores do not depend on their number where each share holds the kernel
        matrices that the whole cache_size holds (docs/model-selection.md, "Threads").
    verbose : int
        1: log each setting done with the best so far (logger "kernelmix", INFO).

    Attributes: cv_results_ (as GridSearchCV's: params, param_NAME masked arrays, splitK_test_score,
    mean_test_score, std_test_score (the population standard deviation over the splits, as
    scikit-learn), rank_test_score, mean_fit_time (a split's seconds, training and scoring: the library
    times them together; no std_fit_time or score times); and the library's mean_n_support and
    mean_kernel_weights (each setting's mean over the splits of the support vectors and of the first
    machine's kernel weights)), best_index_, best_params_, best_score_, best_estimator_ and refit_time_
    (refit=True), n_splits_, scorer_ (what score uses), classes_ and n_features_in_ of best_estimator_.

    The best setting is the library's choice: the best mean, and among means equal to 1e-12 relative
    the smaller C, then the larger p, then the earlier setting. GridSearchCV takes the first in the
    grid's order among equal means, so the two choose differently only on such ties.

    A split that cannot be scored (a constant target for r2, one class in a split for roc_auc) raises a
    ValueError naming the setting and the split (GridSearchCV's error_score has no counterpart).
    class_weight="balanced" (its weights depend on each split's rows) and break_ties=True with more
    than two classes are refused.
    """

    def __init__(self, estimator, param_grid, *, cv=5, scoring=None, refit=True, warm_start=True, n_jobs=None,
                 verbose=0):
        self.estimator = estimator
        self.param_grid = param_grid
        self.cv = cv
        self.scoring = scoring
        self.refit = refit
        self.warm_start = warm_start
        self.n_jobs = n_jobs
        self.verbose = verbose

    @property
    def _estimator_type(self):
        return self.estimator._estimator_type

    def _more_tags(self):
        return {"pairwise": _safe_tags(self.estimator, "pairwise")}

    def fit(self, X, y, groups=None):
        """Cross-validates every setting of param_grid on (X, y) (groups: of a group splitter) and,
        with refit, fits best_estimator_ on all rows."""
        estimator = self.estimator
        if not isinstance(estimator, (MKLClassifier, MKLRegressor, MKLRidge)):
            raise ValueError(f"estimator={estimator!r}: GridSearchMKL searches MKLClassifier, MKLRegressor or "
                             f"MKLRidge; use sklearn.model_selection.GridSearchCV for others (pipelines too)")
        if not isinstance(self.refit, (bool, np.bool_)):
            raise ValueError(f"refit={self.refit!r}: give True or False (GridSearchMKL scores one metric)")
        if not isinstance(self.verbose, numbers.Integral) or self.verbose < 0:
            raise ValueError(f"verbose={self.verbose!r}: give 0 (silent) or 1 (each setting done)")
        candidates = list(ParameterGrid(self.param_grid))
        base = clone(estimator)
        X_checked, labels = base._training_data(X, y)
        classes, y_index = getattr(base, "classes_", None), getattr(base, "_y_index", None)
        score, sign = _scoring(self.scoring, estimator, classes)
        n = len(labels)
        # the splitter sees X as GridSearchCV passes it; precomputed kernels as one KernelList
        rows = KernelList(X_checked.kernels) if base._precomputed else X
        splits = check_cv(self.cv, y, classifier=is_classifier(estimator)).split(rows, y, groups)
        fold_of = _fold_of(splits, n)
        settings = [self._setting(clone(estimator).set_params(**clone(candidate, safe=False)), base, classes,
                                  y_index) for candidate in candidates]
        kernel_sets = {}
        for setting in settings:
            key = setting["kernel_set"]
            if key not in kernel_sets:
                kernel_sets[key] = setting["estimator"]._kernel_set(X_checked)
        data = base._dataset(X_checked, labels)
        results = self._run(data, candidates, settings, kernel_sets, fold_of, score)
        try:
            self._store(results, candidates, sign)
        finally:
            L.lib.km_cv_results_free(results)
        self.scorer_ = get_scorer(self.scoring) if self.scoring is not None else estimator.__class__.score
        if self.refit:
            start = time.perf_counter()
            self.best_estimator_ = clone(estimator).set_params(**clone(self.best_params_, safe=False)).fit(X, y)
            self.refit_time_ = time.perf_counter() - start
        return self

    def _setting(self, estimator, base, classes, y_index):
        """One setting: the estimator with its parameters, the library's parameters of its training and
        the key of its kernel set (settings with equal keys share one, and its Gram blocks)."""
        if estimator._precomputed != base._precomputed:
            raise ValueError(f"param_grid: kernels={estimator.kernels!r} in a grid whose estimator has "
                             f"kernels={base.kernels!r}: X is either precomputed kernels or features")
        if is_classifier(estimator):
            if isinstance(estimator.class_weight, str) and estimator.class_weight == "balanced":
                raise ValueError("class_weight='balanced' weighs the classes of each split's training rows; "
                                 "GridSearchMKL gives the library fixed class weights: give a dict, or use "
                                 "sklearn.model_selection.GridSearchCV")
            if estimator.break_ties and len(classes) > 2:
                raise ValueError("break_ties=True predicts otherwise than the library's vote, by which "
                                 "GridSearchMKL scores; use break_ties=False or GridSearchCV")
            estimator.classes_, estimator._y_index = classes, y_index   # the class weights' classes
        if self.scoring == "neg_log_loss" and not estimator.probability:
            raise ValueError("scoring='neg_log_loss' scores probabilities: set probability=True")
        if estimator._precomputed:
            key = ("precomputed", estimator.norm)
        else:
            key = (tuple(_kernel_specs(estimator.kernels)), tuple(estimator._clustering_specs()), estimator.norm)
        return {"estimator": estimator, "params": estimator._training_params(), "kernel_set": key}

    def _threads(self):
        """km_cv_options.threads of n_jobs (0: OpenMP's number)."""
        if self.n_jobs is None or self.n_jobs == -1:
            return 0
        if not isinstance(self.n_jobs, numbers.Integral) or self.n_jobs < 1:
            raise ValueError(f"n_jobs must be None, -1 or a positive integer, got {self.n_jobs!r}")
        return int(self.n_jobs)

    def _run(self, data, candidates, settings, kernel_sets, fold_of, score):
        """The library's km_cv_results of the settings on the folds (the caller frees them)."""
        grid = ctypes.c_void_p()
        L.check(L.lib.km_grid_new(ctypes.byref(grid)))
        try:
            for candidate, setting in zip(candidates, settings):
                text = ", ".join(f"{name}={value!r}" for name, value in candidate.items())
                L.check(L.lib.km_grid_add(grid, setting["params"].handle, kernel_sets[setting["kernel_set"]].handle,
                                          text.encode()))
            options = L.CvOptions(size=ctypes.sizeof(L.CvOptions), folds=int(fold_of.max()) + 1, repeats=1, seed=1,
                                  score=L.enum_value(L.ENUM_SCORE, score, "scoring"),
                                  fold_of=fold_of.ctypes.data_as(ctypes.POINTER(ctypes.c_int)), n_fold_of=len(fold_of),
                                  cold_starts=0 if self.warm_start else 1, threads=self._threads())
            if self.verbose:
                def progress(user, done, total, best, best_mean):
                    logger.info("GridSearchMKL: %d of %d settings done; the best so far %s, mean %s %.6g", done,
                                total, candidates[best], score, best_mean)
                    return 0
                options.progress = L.CV_PROGRESS_FN(progress)
            results = ctypes.c_void_p()
            L.check(L.lib.km_cv_run(data.handle, grid, ctypes.byref(options), ctypes.byref(results)))
            return results
        finally:
            L.lib.km_grid_free(grid)

    def _store(self, results, candidates, sign):
        """cv_results_ and the best_* attributes from the library's results, as GridSearchCV's."""
        n_candidates, n_splits = len(candidates), L.lib.km_cv_n_splits(results)
        scores = sign * np.array([np.ctypeslib.as_array(L.lib.km_cv_scores(results, s), (n_splits,))
                                  for s in range(n_candidates)])
        cv_results = {"mean_fit_time": np.array([L.lib.km_cv_fit_seconds(results, s) / n_splits
                                                 for s in range(n_candidates)])}
        param_results = defaultdict(partial(MaskedArray, np.empty(n_candidates), mask=True, dtype=object))
        for index, candidate in enumerate(candidates):
            for name, value in candidate.items():
                param_results[f"param_{name}"][index] = value
        cv_results.update(param_results)
        cv_results["params"] = candidates
        for k in range(n_splits):
            cv_results[f"split{k}_test_score"] = scores[:, k]
        means = np.average(scores, axis=1)
        cv_results["mean_test_score"] = means
        cv_results["std_test_score"] = np.sqrt(np.average((scores - means[:, np.newaxis]) ** 2, axis=1))
        cv_results["rank_test_score"] = rankdata(-means, method="min").astype(np.int32)
        cv_results["mean_n_support"] = np.array([L.lib.km_cv_mean_sv(results, s) for s in range(n_candidates)])
        weights = np.empty(n_candidates, dtype=object)
        for s in range(n_candidates):
            n_kernels = ctypes.c_size_t()
            values = L.lib.km_cv_mean_weights(results, s, ctypes.byref(n_kernels))
            weights[s] = np.ctypeslib.as_array(values, (n_kernels.value,)).copy()
        cv_results["mean_kernel_weights"] = weights
        self.cv_results_ = cv_results
        self.n_splits_ = n_splits
        self.best_index_ = int(L.lib.km_cv_best(results))
        self.best_params_ = candidates[self.best_index_]
        self.best_score_ = means[self.best_index_]

    # --- the refitted estimator -------------------------------------------------------------------

    def _refitted(self, method):
        check_is_fitted(self, "cv_results_")
        if not self.refit:
            raise NotFittedError(f"{method} is available after fit with refit=True (this search had refit=False)")
        return getattr(self.best_estimator_, method)

    @available_if(_estimator_has("predict"))
    def predict(self, X):
        return self._refitted("predict")(X)

    @available_if(_estimator_has("decision_function"))
    def decision_function(self, X):
        return self._refitted("decision_function")(X)

    @available_if(_estimator_has("predict_proba"))
    def predict_proba(self, X):
        return self._refitted("predict_proba")(X)

    @available_if(_estimator_has("predict_log_proba"))
    def predict_log_proba(self, X):
        return self._refitted("predict_log_proba")(X)

    def score(self, X, y):
        """The scoring of the search (None: the estimator's score) of best_estimator_ on (X, y)."""
        self._refitted("score")
        return self.scorer_(self.best_estimator_, X, y)

    @property
    def classes_(self):
        return self._refitted("classes_")

    @property
    def n_features_in_(self):
        return self._refitted("n_features_in_")
