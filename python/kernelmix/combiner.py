"""KernelCombiner: the learned combined kernel as a scikit-learn transformer."""
import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from ._data import Dataset
from ._keywords import SuggestsParameters
from ._model import KernelSet
from .estimators import MKLClassifier, MKLRegressor, _kernel_specs


class KernelCombiner(SuggestsParameters, TransformerMixin, BaseEstimator):
    """Learns kernel weights theta with MKL on (X, y) and transforms X into the combined kernel
    sum_m theta_m k_m(X, X_train) between X and the training rows (n_samples x n_train), the input of
    ``sklearn.svm.SVC(kernel="precomputed")`` and other precomputed-kernel estimators; in a pipeline
    ``fit_transform`` gives the train x train Gram matrix and ``transform`` the test x train block.

    Parameters: kernels, method, p, C, solver, tol, mkl_tol, norm as MKLClassifier; task
    "classification" (an MKLClassifier learns the weights, one set shared by all classes) or
    "regression" (an MKLRegressor, with epsilon). method="fixed" (the default, as the estimators' and the
    CLI's) gives the uniform sum and needs no y; method="lp" and the others learn the weights on (X, y).

    Attributes: kernel_weights_ (M,), kernel_specs_ (fitted), X_fit_ (the training rows, a copy),
    n_features_in_. Pickles without the library's kernel set, which is refitted on X_fit_ on first use.
    """

    def __init__(self, kernels=("linear", "rbf"), method="fixed", p=2.0, C=1.0, epsilon=0.1, task="classification",
                 solver="interleaved", tol=1e-3, mkl_tol=1e-3, norm="none"):
        self.kernels = kernels
        self.method = method
        self.p = p
        self.C = C
        self.epsilon = epsilon
        self.task = task
        self.solver = solver
        self.tol = tol
        self.mkl_tol = mkl_tol
        self.norm = norm

    def _estimator(self):
        common = dict(kernels=self.kernels, method=self.method, p=self.p, C=self.C, solver=self.solver, tol=self.tol,
                      mkl_tol=self.mkl_tol, norm=self.norm)
        if self.task == "classification":
            return MKLClassifier(shared_weights=self.method == "lp", **common)
        if self.task == "regression":
            return MKLRegressor(epsilon=self.epsilon, **common)
        raise ValueError(f"task={self.task!r}: give 'classification' or 'regression'")

    def fit(self, X, y=None):
        if isinstance(self.kernels, str) and self.kernels == "precomputed":
            raise ValueError("KernelCombiner computes kernels from features; for precomputed matrices K_m the "
                             "combination is sum(w * K for w, K in zip(weights, kernels))")
        estimator = self._estimator()
        if self.method == "fixed" and y is None:
            X = self._validate_data(X, accept_sparse=("csr", "csc"), dtype=np.float64, order="C")
            specs = _kernel_specs(self.kernels)
            kernel_set = KernelSet(specs, X.shape[1], self.norm)
            self.kernel_weights_ = np.ones(len(kernel_set))
        else:
            estimator.fit(X, y)
            X = self._validate_data(X, accept_sparse=("csr", "csc"), dtype=np.float64, order="C")
            weights = np.atleast_2d(estimator.kernel_weights_)
            self.kernel_weights_ = weights.mean(axis=0)   # equal rows with shared weights
        self.X_fit_ = X.copy()
        self._cache = None
        self.kernel_specs_ = self._fitted()[0].describe()
        return self

    def _fitted(self):
        """(fitted kernel set, training Dataset), built once per process."""
        if getattr(self, "_cache", None) is None:
            train = Dataset.from_array(self.X_fit_)
            specs = _kernel_specs(self.kernels)
            self._cache = (KernelSet(specs, self.X_fit_.shape[1], self.norm).fit(train), train)
        return self._cache

    def transform(self, X):
        """sum_m theta_m k_m(X, X_fit_), n_samples x n_train."""
        check_is_fitted(self, "X_fit_")
        X = self._validate_data(X, accept_sparse=("csr", "csc"), dtype=np.float64, order="C", reset=False)
        fitted, train = self._fitted()
        rows = Dataset.from_array(X)
        out = np.zeros((X.shape[0], self.X_fit_.shape[0]))
        for m, weight in enumerate(self.kernel_weights_):
            if weight != 0:
                out += weight * fitted.matrix(m, rows, train)
        return out

    def __getstate__(self):
        state = super().__getstate__()
        state.pop("_cache", None)
        return state

    def _more_tags(self):
        return {"requires_y": self.method != "fixed"}
