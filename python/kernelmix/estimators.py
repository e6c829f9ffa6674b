"""scikit-learn estimators over libkernelmix: MKLClassifier, MKLRegressor, MKLRidge, OneClassMKL.

Each trains one km_model (the same model `kernelmix train` writes for the same options) on a kernel
set given as the CLI's spec strings, or on precomputed kernel matrices (``kernels="precomputed"``,
MKLpy's list style: ``fit([K1, K2, ...], y)`` with train × train matrices, ``predict([K1_test, ...])``
with test × train matrices; a KernelList of them for scikit-learn's model selection).
"""
import numbers
from collections import namedtuple

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin, OutlierMixin, RegressorMixin
from sklearn.utils import check_array, column_or_1d
from sklearn.utils.metaestimators import available_if
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted

from . import _library as L
from ._data import Dataset, MatrixList
from ._keywords import SuggestsParameters
from ._logging import log_training
from ._model import KernelSet, Model, Params
from .kernel_list import KernelList

PRECOMPUTED = "precomputed"
Precomputed = namedtuple("Precomputed", "n kernels")


def mkl_methods():
    """The kernel-weight methods the loaded library knows ("fixed", "lp", ...), in its order."""
    return L.enum_names(L.ENUM_MKL_METHOD)


def mkl_solvers():
    """The lp-norm MKL solvers of the loaded library ("interleaved", "wrapper", ...)."""
    return L.enum_names(L.ENUM_MKL_SOLVER)


def _norm_value(p, name):
    """p as given when it is a number (np.inf too) or text such as "4/3" or "inf", which the library
    reads (Params.set_text, km_params_set_text)."""
    if not isinstance(p, (str, numbers.Real)) or isinstance(p, bool):
        raise ValueError(f"{name}={p!r} is not a number")
    return p


def _flag(value, name):
    """A boolean parameter: True, False (numpy's too) or the CLI's 1 and 0."""
    if isinstance(value, (bool, np.bool_)) or isinstance(value, numbers.Integral) and value in (0, 1):
        return bool(value)
    raise ValueError(f"{name}={value!r}: give True or False")


def _kernel_specs(kernels):
    if isinstance(kernels, str):
        return [kernels]
    specs = list(kernels) if isinstance(kernels, (list, tuple, np.ndarray)) else []
    if not specs or not all(isinstance(s, str) for s in specs):
        raise ValueError(f"kernels={kernels!r}: give kernel spec strings (e.g. ['rbf:gamma=2^-3..2^1/mean', "
                         f"'linear']) or 'precomputed'")
    return specs


def check_kernel_list(K, n_train=None, n_kernels=None):
    """Precomputed kernel matrices as C-ordered float32/float64 arrays (no copy for arrays already so):
    a KernelList, a list of 2-D arrays, a 3-D array (M × rows × cols) or one 2-D array. Training
    (n_train None): each is n × n. Prediction: each is n_test × n_train, n_kernels of them."""
    if isinstance(K, KernelList):
        K = K.kernels
    if sp.issparse(K):
        raise TypeError("precomputed kernels must be dense arrays, not a sparse matrix")
    if isinstance(K, np.ndarray) and K.ndim == 2 or not isinstance(K, (list, tuple, np.ndarray)):
        K = [K]
    elif isinstance(K, (list, tuple)) and K and np.ndim(K[0]) == 1:
        K = [K]     # one matrix as a list of rows
    if len(K) == 0:
        raise ValueError("no precomputed kernel matrix given")
    matrices = [check_array(k, dtype=(np.float64, np.float32), order="C", input_name="precomputed kernel")
                for k in K]
    shape = matrices[0].shape
    for m, k in enumerate(matrices):
        if k.shape != shape:
            raise ValueError(f"precomputed kernel {m + 1} is {k.shape[0]} x {k.shape[1]}, kernel 1 is "
                             f"{shape[0]} x {shape[1]}")
    if n_train is None and shape[0] != shape[1]:
        raise ValueError(f"a precomputed training kernel must be square (train x train), got {shape[0]} x "
                         f"{shape[1]}")
    if n_train is not None and shape[1] != n_train:
        raise ValueError(f"precomputed test kernels must be test x train: {shape[1]} columns, but the model "
                         f"was trained on {n_train} rows")
    if n_kernels is not None and len(matrices) != n_kernels:
        raise ValueError(f"{len(matrices)} precomputed test kernels given, the model has {n_kernels}")
    return matrices


class _MKLBase(SuggestsParameters, BaseEstimator):
    """What the three estimators share: the kernel set, the parameters, training, prediction."""

    _task = None

    def _more_tags(self):
        return {"pairwise": self._precomputed}

    @property
    def _precomputed(self):
        return isinstance(self.kernels, str) and self.kernels == PRECOMPUTED

    # --- parameters -------------------------------------------------------------------------------

    def _task_params(self, params):
        """The task's own parameters (C, epsilon, nu)."""
        raise NotImplementedError

    def _regularizer_params(self, params):
        """C and the kernel-weight regularizer, of every estimator with a C."""
        params.set("C", self.C)
        params.set("lambda", self.elasticnet_lambda, parameter="elasticnet_lambda")
        params.set("regularizer", L.enum_value(L.ENUM_MKL_REGULARIZER, self.regularizer, "regularizer"))
        params.set("reg_param", self.reg_param)

    def _svm_params(self, params):
        """The parameters of the C-weighted SVMs (classifier and regressor)."""
        self._regularizer_params(params)
        params.set("mkl_radius", self.radius, parameter="radius")
        params.set("align_q", self.align_q)
        params.set("probability", _flag(self.probability, "probability"))

    def _params(self):
        params = Params()
        params.set("task", self._task)
        self._task_params(params)
        params.set("mkl_method", L.enum_value(L.ENUM_MKL_METHOD, self.method, "method"))
        params.set("p", _norm_value(self.p, "p"))
        params.set("mkl_solver", L.enum_value(L.ENUM_MKL_SOLVER, self.solver, "solver"))
        params.set("tolerance", self.tol, parameter="tol")
        params.set("mkl_gap", self.mkl_tol, parameter="mkl_tol")
        params.set("cache_mb", self.cache_size, parameter="cache_size")
        if not isinstance(self.max_iter, numbers.Integral) or self.max_iter < -1:
            raise ValueError(f"max_iter={self.max_iter!r}: give a positive number of solver iterations, or -1 "
                             f"for the solver's default limit")
        params.set("max_iter", max(0, self.max_iter))
        params.set("seed", self._seed(), parameter="random_state")
        log_training(params, self.verbose)
        return params

    def _seed(self):
        """The library's seed: random_state itself (an int), 0 (None) or drawn from a RandomState."""
        random_state = self.random_state
        if random_state is None or isinstance(random_state, numbers.Integral):
            return 0 if random_state is None else random_state
        if not isinstance(random_state, np.random.RandomState):
            raise ValueError(f"random_state={random_state!r}: give an int, a numpy RandomState or None")
        return random_state.randint(np.iinfo(np.int32).max)

    # --- data -------------------------------------------------------------------------------------

    def _check_input(self, X, reset, y=None, with_y=False):
        """(X checked, y checked): X a float64 C-ordered array or CSR/CSC matrix, or for precomputed
        kernels a Precomputed (rows, C-ordered matrices)."""
        if not self._precomputed:
            check = dict(accept_sparse=("csr", "csc"), dtype=np.float64, order="C", reset=reset)
            if not with_y:
                return self._validate_data(X, **check), None
            return self._validate_data(X, y, y_numeric=self._task != L.TASK_SVC, **check)
        kernels = check_kernel_list(X, None if reset else self.n_features_in_, None if reset else self._n_kernels)
        n = kernels[0].shape[0]
        if reset:
            self.n_features_in_ = n
        if with_y:
            if y is None:
                raise ValueError(f"{type(self).__name__} requires y to be passed, but the target y is None")
            y = column_or_1d(y, warn=True)
            if len(y) != n:
                raise ValueError(f"{len(y)} targets for {n} rows of the precomputed kernels")
        return Precomputed(n, kernels), y

    def _training_data(self, X, y):
        """(X checked, the float targets the library sees) of a regressor's training."""
        X, y = self._check_input(X, reset=True, y=y, with_y=True)
        if self._precomputed:
            y = check_array(y, ensure_2d=False, dtype=np.float64, input_name="y")
        return X, np.asarray(y, dtype=np.float64)

    def _kernel_set(self, X):
        """The kernel set of X (checked): its precomputed matrices, or the kernel specs (and localized
        MKL's clustering kernel) on its features."""
        if self._precomputed:
            return KernelSet(norm=self.norm, matrices=MatrixList(X.kernels))
        specs, clustering = _kernel_specs(self.kernels), self._clustering_specs()
        return KernelSet(specs + clustering, X.shape[1], self.norm,
                         parameters=["kernels"] * len(specs) + ["cluster_kernel"] * len(clustering))

    def _dataset(self, X, labels):
        """The library's rows of X (checked): featureless rows for precomputed kernels."""
        return Dataset.featureless(X.n, labels) if self._precomputed else Dataset.from_array(X, labels)

    def _training_params(self):
        """Every parameter of the estimator as the library's parameters of one training."""
        params = self._params()
        self._extra_params(params)
        self._localized_params(params)
        return params

    def _fit(self, X, labels):
        """Trains on X (checked) with the float labels the library sees; sets the fitted attributes."""
        n = X.n if self._precomputed else X.shape[0]
        if n < 2:
            raise ValueError(f"n_samples={n}: {type(self).__name__} needs at least 2 training rows")
        self.model_ = Model.train(self._dataset(X, labels), self._kernel_set(X), self._training_params())
        self._set_fitted()
        # as SVC: the support vectors' rows of X (CSR for sparse X); none for precomputed kernels
        self.support_vectors_ = np.empty((0, 0)) if self._precomputed else \
            (X.tocsr() if sp.issparse(X) else X)[self.support_]
        return self

    def _extra_params(self, params):
        pass

    def _clustering_specs(self):
        """Localized MKL's clustering-only kernel (cluster_kernel given as a spec), else none."""
        return [self.cluster_kernel] if isinstance(getattr(self, "cluster_kernel", None), str) else []

    def _localized_params(self, params):
        """Localized MKL (method "clmkl", "hlmkl", "lmkl"): clusters, ae, tau and the clustering kernel;
        nothing for an estimator without them."""
        if not hasattr(self, "clusters"):
            return
        params.set("clusters", self.clusters)
        params.set("cluster_ae", self.ae, parameter="ae")
        if self.tau is not None and not (isinstance(self.tau, numbers.Real) and self.tau >= 0):
            raise ValueError(f"tau={self.tau!r}: give None or a number >= 0 (np.inf: hard memberships)")
        params.set("cluster_tau", -1.0 if self.tau is None else self.tau, parameter="tau")
        if isinstance(self.cluster_kernel, str):
            if self._precomputed:
                raise ValueError("cluster_kernel: a spec needs features; with precomputed kernels give a kernel "
                                 "number")
            params.set("cluster_kernel", len(_kernel_specs(self.kernels)) + 1)
            params.set("cluster_only", 1)
        elif self.cluster_kernel is not None:
            params.set("cluster_kernel", self.cluster_kernel)

    def _set_fitted(self):
        model = self.model_
        self.kernel_specs_ = model.kernel_specs()
        self._n_kernels = len(self.kernel_specs_)
        infos = [model.machine_info(k) for k in range(model.n_machines)]
        self.kernel_weights_ = model.kernel_weights()
        self.support_, self.dual_coef_ = model.support()
        self.intercept_ = np.array([i.bias for i in infos])
        self.n_support_ = np.array([self.support_.size], dtype=np.int32)   # SVR's and OneClassSVM's (1,)
        self.objective_ = np.array([i.objective for i in infos])
        self.duality_gap_ = None if self.method == "fixed" else np.array([i.gap for i in infos])
        self.n_iter_ = np.array([i.iterations for i in infos], dtype=np.intp)
        self.converged_ = np.array([bool(i.converged) for i in infos])
        self.target_alignment_ = model.target_alignment()
        self._machine_labels = [(i.positive_label, i.negative_label) for i in infos]
        self.cluster_weights_ = model.cluster_weights() if L.lib.km_model_weight_groups(model.handle) > 1 else None
        if model.n_machines == 1:
            self.kernel_weights_ = self.kernel_weights_[0]
            if self.cluster_weights_ is not None:
                self.cluster_weights_ = self.cluster_weights_[0]

    def _test_input(self, X):
        """(Dataset, test kernels or None) of the rows to predict."""
        check_is_fitted(self, "model_")
        X, _ = self._check_input(X, reset=False)
        if self._precomputed:
            return Dataset.featureless(X.n), X.kernels
        return Dataset.from_array(X), None

    def _predict_raw(self, X):
        """(library labels, decision values n × n_decision)."""
        test, kernels = self._test_input(X)
        return self.model_.predict(test, kernels)

    def save(self, path):
        """Writes the model file `kernelmix predict` and `kernelmix info` read."""
        check_is_fitted(self, "model_")
        self.model_.save(path)


_COMMON_DOC = """
    kernels : str, sequence of str, or "precomputed"
        Kernel specs of the CLI's spec language (``kernelmix kernel --help``), each expanding to one or
        more base kernels, e.g. ``("rbf:gamma=2^-3..2^1/mean", "linear")``; or "precomputed": X is
        then a list of kernel matrices (train x train for fit, test x train for prediction), or for
        cross_val_score and GridSearchCV a KernelList of the N x N matrices, which they split by rows
        and columns (the estimator carries scikit-learn's "pairwise" tag).
    method : str
        How the kernel weights are obtained: "fixed" (the uniform sum; the default), "lp", "elasticnet",
        "tikhonov", or any other name of the library's method table (``kernelmix.mkl_methods()``).
        Every default of the estimators is the CLI's default for the same option (here --mkl fixed), so
        an estimator and `kernelmix train` given the same options train the same model: kernel
        weights are learned only when asked for (method="lp", ...).
    p : float or str
        lp-norm MKL: the norm on the kernel weights, ||theta||_p = 1 (1 sparse ... inf uniform; "4/3").
    solver : str
        lp-norm MKL solver: "interleaved", "wrapper", "silp", "simplemkl", "simplex" (p = 1 on rank-1
        kernels) (``kernelmix.mkl_solvers()``).
    tol : float
        Stopping tolerance of the SVM solver on the KKT violation (the CLI's -e).
    mkl_tol : float
        Relative duality gap at which kernel-weight learning stops (--mkl-eps).
    cache_size : float
        Kernel cache in MiB (-m).
    max_iter : int
        Solver iteration limit, -1 for the solver's default (LIBSVM's max(10^7, 100 n)).
    random_state : int, RandomState or None
        Seed of the library's randomness (0 for None).
    verbose : int
        0: quiet (default); 1: training's stages, machines and warnings through the logger "kernelmix"
        (logging; INFO and WARNING); 2: also every MKL step with its gap and the solver's details (DEBUG).
    norm : str
        Normalization of every kernel whose spec names none (--norm): "none", "mult", "spherical", "trace".
    elasticnet_lambda : float
        Elastic net: 0 = l1 MKL ... 1 = uniform weights (--lambda).
    regularizer, reg_param : str, float
        Tikhonov block-norm family (--regularizer, --reg-param).
    radius, align_q : float
        Alignment methods ("align", "align-q", "alignf"): the sum Lambda of the kernel weights
        (--radius) and the norm q > 1 of align-q (--align-q). OneClassMKL has no targets to align.
"""

_LOCALIZED_DOC = """
    clusters : int
        Localized MKL (method "clmkl", "hlmkl"; docs/clmkl.md): clusters of the kernel k-means partition,
        each learning its own kernel weights (--clusters).
    ae : float
        Average evenness of the soft memberships in (0, 1]; tau follows by bisection (--ae).
    tau : float or None
        Memberships proportional to exp(-tau d^2) instead of ae (np.inf: hard; --tau).
    cluster_kernel : int, str or None
        Kernel of the partition (and of LMKL's gating): None the mean of the kernels, k kernel k (1-based),
        a spec an extra kernel that only clusters (--cluster-kernel).
"""


class MKLClassifier(ClassifierMixin, _MKLBase):
    __doc__ = """C-support vector classification on a learned combination of kernels (ℓp-norm MKL and its
    relatives); multiclass one-vs-one or one-vs-rest.
    """ + _COMMON_DOC + _LOCALIZED_DOC + """
    C : float
        Loss weight.
    class_weight : dict, "balanced" or None
        C of class c is multiplied by class_weight[c]; "balanced": n_samples / (n_classes * count(c)).
    multiclass : "ovo" or "ovr"
    shared_weights : bool
        Multiclass lp MKL: one set of kernel weights for all binary machines, learned jointly.
    decision_function_shape : "ovr" or "ovo"
        As scikit-learn's SVC: "ovr" turns one-vs-one decision values into n_samples x n_classes.
    break_ties : bool
        As SVC: predict by the argmax of the "ovr" decision function instead of the library's vote.
    probability : bool
        Also fit Platt sigmoids by 5-fold internal cross-validation, as LIBSVM's -b 1 (the CLI's
        train -b 1; docs/user-guide.md "Probability outputs"): training costs 5 more fixed-kernel SVMs
        per machine. The folds follow random_state (None: seed 0, the folds svm-train draws).
    epochs, online_epochs, obscure_radius : int, int, float or None
        method="obscure" (OBSCURE, Orabona, Jie & Caputo; docs/mkl.md): the stochastic-stage epochs at most
        (--epochs; the stage stops earlier at a certified relative duality gap of 1e-2), the
        online-stage epochs at most (--online-epochs), and R of the projection (--R;
        None: from the online stage; inf: Pegasos-MKL, as solver="pegasos"). p is the kernel-weight
        p; OBSCURE's block norm is 2p/(p+1), and p = 2 (the default) lets the library choose it from
        the number of kernels. More than two classes are one machine with one output per class
        (the Crammer-Singer loss); random_state orders the rows.

    Attributes
    ----------
    classes_, n_features_in_, kernel_specs_ (the fitted kernels, with widths and normalization
    constants), kernel_weights_ ((M,) for one machine, else n_machines x M; localized methods: the first
    cluster's), cluster_weights_ (localized methods: (clusters, M) for one machine, else
    n_machines x clusters x M; None otherwise), support_ (training rows of the support vectors, as
    SVC's grouped by class in the order of classes_, ascending within a class), support_vectors_ (those
    rows of X, CSR for sparse X; empty (0, 0) for precomputed kernels, as SVC), n_support_ (support
    vectors per class, as SVC), dual_coef_ (n_machines x n_support: each machine's coefficients on
    support_), intercept_, objective_, duality_gap_ (None for fixed weights), n_iter_,
    converged_, machine_classes_ (per machine, the classes of f > 0 and f < 0; None: the rest),
    target_alignment_, model_ (the library model; pickles as the model file's bytes).
    obscure_ (method="obscure"; else None): dict of the model's OBSCURE figures: "weights" (d_j / sum d,
    the paper's convention), "weights_pk" (||d||_p = 1), "objective_online", "objective", "radius" (-1:
    none), "lambda", "q", "eta", epochs, updates and "support_rows". With more than two classes,
    dual_coef_ is n_classes x n_support (one row per output) and decision_function is n_samples x
    n_classes, the outputs themselves.
    For binary problems dual_coef_ and intercept_ have scikit-learn's sign: f > 0 means classes_[1].
    probA_, probB_ (probability=True; else None): per machine the Platt sigmoid
    P = 1/(1 + exp(probA_ f + probB_)) of its decision value f. Binary: f = decision_function(X) and P
    the probability of classes_[1]; multiclass: f the machine's value (decision_function_shape="ovo")
    and P that of machine_classes_[k][0] against machine_classes_[k][1].
    predict_proba and predict_log_proba exist only with probability=True (as SVC). predict keeps the
    vote of the machines, which can differ from the most probable class on a few rows (as SVC).
    """

    _task = L.TASK_SVC

    def _more_tags(self):
        if not self._precomputed:
            return {}
        return {"_xfail_checks": {"check_classifiers_one_label":
                                  "its X (10 x 3) is no kernel matrix: a precomputed training kernel must be "
                                  "square, which fit checks before the labels"}}

    def __init__(self, kernels=("linear", "rbf"), method="fixed", p=2.0, C=1.0, solver="interleaved", tol=1e-3,
                 mkl_tol=1e-3, cache_size=100.0, class_weight=None, max_iter=-1, random_state=None, verbose=0,
                 norm="none", multiclass="ovo", shared_weights=False, decision_function_shape="ovr", break_ties=False,
                 elasticnet_lambda=0.5, regularizer="lq", reg_param=0.0, probability=False, radius=1.0,
                 align_q=2.0, epochs=50, online_epochs=5, obscure_radius=None, clusters=3, ae=0.5, tau=None,
                 cluster_kernel=None):
        self.kernels = kernels
        self.method = method
        self.p = p
        self.C = C
        self.radius = radius
        self.align_q = align_q
        self.clusters = clusters
        self.ae = ae
        self.tau = tau
        self.cluster_kernel = cluster_kernel
        self.solver = solver
        self.tol = tol
        self.mkl_tol = mkl_tol
        self.cache_size = cache_size
        self.class_weight = class_weight
        self.max_iter = max_iter
        self.random_state = random_state
        self.verbose = verbose
        self.norm = norm
        self.multiclass = multiclass
        self.shared_weights = shared_weights
        self.decision_function_shape = decision_function_shape
        self.break_ties = break_ties
        self.elasticnet_lambda = elasticnet_lambda
        self.regularizer = regularizer
        self.reg_param = reg_param
        self.probability = probability
        self.epochs = epochs
        self.online_epochs = online_epochs
        self.obscure_radius = obscure_radius

    def _task_params(self, params):
        self._svm_params(params)
        params.set("obscure_epochs", self.epochs, parameter="epochs")
        params.set("obscure_online_epochs", self.online_epochs, parameter="online_epochs")
        params.set("obscure_radius", 0.0 if self.obscure_radius is None else self.obscure_radius)
        params.set("multiclass", L.enum_value(L.ENUM_MULTICLASS, self.multiclass, "multiclass"))
        params.set("shared_weights", _flag(self.shared_weights, "shared_weights"))
        if self.decision_function_shape not in ("ovr", "ovo"):
            raise ValueError(f"decision_function_shape={self.decision_function_shape!r}: give 'ovr' or 'ovo'")
        _flag(self.break_ties, "break_ties")

    def _extra_params(self, params):
        weights = self._class_weights()
        if weights is not None:
            params.set_class_weights(np.arange(len(self.classes_)), weights)

    def _class_weights(self):
        if self.class_weight is None:
            return None
        if isinstance(self.class_weight, str):
            if self.class_weight != "balanced":
                raise ValueError(f"class_weight={self.class_weight!r}: give 'balanced', a dict or None")
            counts = np.bincount(self._y_index, minlength=len(self.classes_))
            return len(self._y_index) / (len(self.classes_) * counts)
        if not isinstance(self.class_weight, dict):
            raise ValueError(f"class_weight={self.class_weight!r}: give 'balanced', a dict or None")
        weights = np.ones(len(self.classes_))
        for label, w in self.class_weight.items():
            where = [k for k, c in enumerate(self.classes_) if c == label]
            if not where:
                raise ValueError(f"class_weight names the class {label!r}, which is not in the training "
                                 f"labels {list(self.classes_)}")
            if not isinstance(w, numbers.Real) or not w > 0:
                raise ValueError(f"class_weight[{label!r}]={w!r}: give a number > 0")
            weights[where[0]] = w
        return weights

    def _training_data(self, X, y):
        """(X checked, the class indices the library sees as labels); sets classes_ and _y_index."""
        X, y = self._check_input(X, reset=True, y=y, with_y=True)
        check_classification_targets(y)
        self.classes_, self._y_index = np.unique(y, return_inverse=True)
        if len(self.classes_) < 2:
            raise ValueError(f"The number of classes has to be greater than one; got {len(self.classes_)} class")
        return X, self._y_index.astype(np.float64)

    def fit(self, X, y):
        """Trains on X (n_samples x n_features array or sparse matrix, or precomputed kernels) and y."""
        X, labels = self._training_data(X, y)
        try:
            return self._fit(X, labels)
        finally:
            del self._y_index

    _OBSCURE_SCALARS = ("q", "lambda", "eta", "radius", "online_epochs", "online_updates", "online_steps",
                        "objective_online", "epochs", "objective", "dual", "training_error", "support_rows")

    def _set_fitted(self):
        super()._set_fitted()
        self._group_support_by_class()
        self.obscure_ = None
        if self.model_.data_values("obscure", "weights") is not None:
            self.obscure_ = {key: self.model_.data_values("obscure", key)[0] for key in ("weights", "weights_pk")}
            self.obscure_.update({key: float(self.model_.data_values("obscure", key)[0, 0])
                                  for key in self._OBSCURE_SCALARS
                                  if self.model_.data_values("obscure", key) is not None})
        classes = self.classes_
        self.machine_classes_ = [(classes[int(pos)], None if np.isnan(neg) else classes[int(neg)])
                                 for pos, neg in self._machine_labels]
        if len(classes) == 2 and self._machine_labels[0][0] == 0:   # f > 0 means classes_[0]: flip
            self._sign = -1.0
        else:
            self._sign = 1.0
        if len(classes) == 2:
            self.dual_coef_ = self._sign * self.dual_coef_
            self.intercept_ = self._sign * self.intercept_
        self.probA_ = self.probB_ = None
        if self.model_.has_probability:
            self.probA_, self.probB_ = np.array([self.model_.sigmoid(k) for k in range(self.model_.n_machines)]).T
            if self._sign < 0:   # P(classes_[1] | -f) = 1 - P(classes_[0] | f) = 1/(1 + exp(A (-f) - B))
                self.probB_ = -self.probB_

    def _group_support_by_class(self):
        """SVC's layout: support_ grouped by class in the order of classes_ (ascending rows within a
        class), dual_coef_'s columns along, and n_support_ the support vectors of each class."""
        classes = self._y_index[self.support_]
        order = np.argsort(classes, kind="stable")
        self.support_ = self.support_[order]
        self.dual_coef_ = self.dual_coef_[:, order]
        self.n_support_ = np.bincount(classes, minlength=len(self.classes_)).astype(np.int32)

    def decision_function(self, X):
        """Binary: (n_samples,), f > 0 for classes_[1]. Multiclass: (n_samples, n_classes) with
        decision_function_shape="ovr" (votes plus scaled confidences, as SVC), else the machines' values."""
        _, decision = self._predict_raw(X)
        if len(self.classes_) == 2:
            return self._sign * decision[:, 0]
        if self._joint:   # one output per class, in the model's label order
            out = np.empty_like(decision)
            out[:, self.model_.labels().astype(np.intp)] = decision
            return out
        if self.decision_function_shape == "ovo" or self.multiclass == "ovr":
            if self.multiclass == "ovr":     # machine k separates machine_classes_[k][0] from the rest
                order = [np.flatnonzero(self.classes_ == pos)[0] for pos, _ in self.machine_classes_]
                out = np.empty_like(decision)
                out[:, order] = decision
                return out
            return decision
        return self._ovr_from_ovo(decision)

    @property
    def _joint(self):
        """One machine with one output per class (method="obscure" with more than two classes)."""
        return self.model_.n_machines == 1 and self.model_.n_decision == len(self.classes_) > 2

    def _ovr_from_ovo(self, decision):
        """scikit-learn's transformation: votes plus confidences squashed into (-1/3, 1/3)."""
        k = len(self.classes_)
        votes = np.zeros((decision.shape[0], k))
        confidence = np.zeros((decision.shape[0], k))
        for m, (pos, neg) in enumerate(self._machine_labels):
            pos, neg, f = int(pos), int(neg), decision[:, m]
            votes[:, pos] += f > 0
            votes[:, neg] += f <= 0
            confidence[:, pos] += f
            confidence[:, neg] -= f
        return votes + confidence / (3 * (np.abs(confidence) + 1))

    def predict(self, X):
        if self.break_ties and len(self.classes_) > 2 and self.decision_function_shape == "ovr" and not self._joint:
            return self.classes_[np.argmax(self.decision_function(X), axis=1)]
        labels, _ = self._predict_raw(X)
        return self.classes_[labels.astype(np.intp)]

    def _check_probability(self):
        if not self.probability:
            raise AttributeError("predict_proba is not available when probability=False")
        return True

    @available_if(_check_probability)
    def predict_proba(self, X):
        """n_samples x n_classes probabilities, columns in the order of classes_: Platt's sigmoid of
        the decision value (binary), pairwise coupling of the one-vs-one sigmoids (multiclass);
        the values `kernelmix predict -b 1` writes."""
        test, kernels = self._test_input(X)
        _, model_order = self.model_.predict_probability(test, kernels)
        probabilities = np.empty_like(model_order)
        probabilities[:, self.model_.labels().astype(np.intp)] = model_order
        return probabilities

    @available_if(_check_probability)
    def predict_log_proba(self, X):
        """The logarithm of predict_proba(X)."""
        return np.log(self.predict_proba(X))


class MKLRegressor(RegressorMixin, _MKLBase):
    __doc__ = """ε-support vector regression on a learned combination of kernels.
    """ + _COMMON_DOC + _LOCALIZED_DOC + """
    C : float
        Loss weight.
    epsilon : float
        Tube half-width.
    probability : bool
        Also fit the Laplace width sigma_ of the residuals by 5-fold internal cross-validation, as
        LIBSVM's -b 1 (the CLI's train -b 1). The folds follow random_state (None: seed 0).

    Attributes: as MKLClassifier (one machine: kernel_weights_ (M,), dual_coef_ (1, n_support),
    support_ ascending, n_support_ (1,) as SVR's), and
    sigma_ (probability=True; else None): the width of the Laplace distribution of the residuals,
    y = predict(x) + z with density exp(-|z|/sigma_)/(2 sigma_), as LIBSVM's -b 1 for regression.
    """

    _task = L.TASK_SVR

    def __init__(self, kernels=("linear", "rbf"), method="fixed", p=2.0, C=1.0, epsilon=0.1, solver="interleaved",
                 tol=1e-3, mkl_tol=1e-3, cache_size=100.0, max_iter=-1, random_state=None, verbose=0, norm="none",
                 elasticnet_lambda=0.5, regularizer="lq", reg_param=0.0, probability=False, radius=1.0,
                 align_q=2.0, clusters=3, ae=0.5, tau=None, cluster_kernel=None):
        self.kernels = kernels
        self.radius = radius
        self.align_q = align_q
        self.method = method
        self.p = p
        self.C = C
        self.clusters = clusters
        self.ae = ae
        self.tau = tau
        self.cluster_kernel = cluster_kernel
        self.epsilon = epsilon
        self.solver = solver
        self.tol = tol
        self.mkl_tol = mkl_tol
        self.cache_size = cache_size
        self.max_iter = max_iter
        self.random_state = random_state
        self.verbose = verbose
        self.norm = norm
        self.elasticnet_lambda = elasticnet_lambda
        self.regularizer = regularizer
        self.reg_param = reg_param
        self.probability = probability

    def _task_params(self, params):
        self._svm_params(params)
        params.set("epsilon", self.epsilon)

    def fit(self, X, y):
        return self._fit(*self._training_data(X, y))

    def _set_fitted(self):
        super()._set_fitted()
        self.sigma_ = self.model_.laplace_sigma() if self.model_.has_probability else None

    def predict(self, X):
        return self._predict_raw(X)[0]


class MKLRidge(RegressorMixin, _MKLBase):
    __doc__ = """Kernel ridge regression on a combination of kernels (the CLI's train -s krr), with the
    squared-loss block-norm family and empirical-Bayes kernel weights (docs/blocknorm-bayes.md).
    """ + _COMMON_DOC + """
        method="tikhonov" learns d by the block-norm regularizer (block1, lq, uniform, elasticnet);
        method="eb-rw" or "eb-mackay" maximises the evidence of the Gaussian process with covariance
        sum_m d_m k_m + noise I (no C: C is then ignored).
    C : float
        Loss weight of 1/2 ||w||^2 + C/2 sum_i (y_i - f(x_i))^2 (the ridge is 1/C).
    noise : float
        Empirical Bayes: the noise variance sigma^2 (--noise); 0 means 0.1 var(y); with learn_noise the
        starting value.
    learn_noise : bool
        Empirical Bayes: learn sigma^2 too, as the weight of a kernel I (--learn-noise).
    eb_inner, eb_tol : int, float
        eb-rw's weight steps per tangent (--eb-inner) and the relative change of the evidence at which
        both stop (--eb-tol).

    Attributes: as MKLRegressor, and for empirical-Bayes methods evidence_ (-log p(y | d, sigma^2) with
    its n/2 log 2 pi), noise_ (sigma^2) and kernels_kept_ (None otherwise). predict(X, return_std=True)
    also returns the GP posterior standard deviation of the latent function (empirical-Bayes models
    only; add noise_ to its square for that of a new target).
    """

    _task = L.TASK_KRR

    def _more_tags(self):
        xfail = {}
        if self.method == "fixed":
            xfail["check_non_transformer_estimators_n_iter"] = ("fixed weights make kernel ridge regression one "
                                                                "direct (Cholesky) solve: n_iter_ is 0, there is no "
                                                                "iteration to count")
        if self._precomputed:
            xfail["check_estimators_dtypes"] = ("it truncates the kernel matrix to integers, which is then no longer "
                                                "positive semi-definite: K + I/C need not be positive definite")
        return {"_xfail_checks": xfail} if xfail else {}

    def __init__(self, kernels=("linear", "rbf"), method="fixed", p=2.0, C=1.0, solver="interleaved", tol=1e-3,
                 mkl_tol=1e-3, cache_size=100.0, max_iter=-1, random_state=None, verbose=0, norm="none",
                 elasticnet_lambda=0.5, regularizer="lq", reg_param=0.0, noise=0.0, learn_noise=False,
                 eb_inner=100, eb_tol=1e-10):
        self.kernels = kernels
        self.method = method
        self.p = p
        self.C = C
        self.solver = solver
        self.tol = tol
        self.mkl_tol = mkl_tol
        self.cache_size = cache_size
        self.max_iter = max_iter
        self.random_state = random_state
        self.verbose = verbose
        self.norm = norm
        self.elasticnet_lambda = elasticnet_lambda
        self.regularizer = regularizer
        self.reg_param = reg_param
        self.noise = noise
        self.learn_noise = learn_noise
        self.eb_inner = eb_inner
        self.eb_tol = eb_tol

    def _task_params(self, params):
        self._regularizer_params(params)
        params.set("eb_noise", self.noise, parameter="noise")
        params.set("eb_learn_noise", _flag(self.learn_noise, "learn_noise"))
        params.set("eb_inner", self.eb_inner)
        params.set("eb_tol", self.eb_tol)

    def fit(self, X, y):
        return self._fit(*self._training_data(X, y))

    def _set_fitted(self):
        super()._set_fitted()
        self.evidence_ = self.noise_ = self.kernels_kept_ = None
        if self.model_.has_variance:
            self.evidence_, self.noise_, self.kernels_kept_ = self.model_.evidence()

    def predict(self, X, return_std=False):
        mean = self._predict_raw(X)[0]
        if not return_std:
            return mean
        if not self.model_.has_variance:
            raise ValueError("return_std=True needs empirical-Bayes kernel weights (method='eb-rw' or "
                             "'eb-mackay'): only they define a posterior variance")
        test, _ = self._test_input(X)
        return mean, np.sqrt(self.model_.predict_variance(test))


class OneClassMKL(OutlierMixin, _MKLBase):
    __doc__ = """One-class SVM (ν) on a learned combination of kernels: +1 inliers, -1 outliers.
    """ + _COMMON_DOC + """
    nu : float
        Upper bound on the fraction of training outliers, in (0, 1].

    Attributes: as MKLRegressor, and offset_ = -intercept_[0] (decision_function = score_samples - offset_,
    as OneClassSVM).
    """

    _task = L.TASK_ONECLASS

    def __init__(self, kernels=("linear", "rbf"), method="fixed", p=2.0, nu=0.5, solver="interleaved", tol=1e-3,
                 mkl_tol=1e-3, cache_size=100.0, max_iter=-1, random_state=None, verbose=0, norm="none",
                 elasticnet_lambda=0.5, regularizer="lq", reg_param=0.0):
        self.kernels = kernels
        self.method = method
        self.p = p
        self.nu = nu
        self.solver = solver
        self.tol = tol
        self.mkl_tol = mkl_tol
        self.cache_size = cache_size
        self.max_iter = max_iter
        self.random_state = random_state
        self.verbose = verbose
        self.norm = norm
        self.elasticnet_lambda = elasticnet_lambda
        self.regularizer = regularizer
        self.reg_param = reg_param

    def _task_params(self, params):
        params.set("nu", self.nu)
        params.set("lambda", self.elasticnet_lambda, parameter="elasticnet_lambda")
        params.set("regularizer", L.enum_value(L.ENUM_MKL_REGULARIZER, self.regularizer, "regularizer"))
        params.set("reg_param", self.reg_param)

    def fit(self, X, y=None):
        """Trains on X alone (y is ignored)."""
        X, _ = self._check_input(X, reset=True)
        self._fit(X, None)
        self.offset_ = -self.intercept_[0]
        return self

    def score_samples(self, X):
        """sum_j c_j k(x, x_j), the decision function without its bias."""
        return self._predict_raw(X)[1][:, 0] + self.offset_

    def decision_function(self, X):
        """f(x) = score_samples(X) - offset_: > 0 for inliers."""
        return self.score_samples(X) - self.offset_

    def predict(self, X):
        return self._predict_raw(X)[0].astype(np.intp)
