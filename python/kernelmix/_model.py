"""A trained libkernelmix model: training, prediction, the model's figures, pickling as model bytes."""
import ctypes
import numbers

import numpy as np

from . import _library as L
from ._data import MatrixList
from ._messages import parameter_message, text_message


def _integer(value):
    """value as an int: an integer, a bool, or a float without a fraction (never truncated)."""
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real) and float(value).is_integer():
        return int(value)
    raise ValueError(value)


class Params:
    """A km_params handle set by parameter name (km_param_from_name), so new library parameters need no
    new binding code."""

    def __init__(self):
        out = ctypes.c_void_p()
        L.check(L.lib.km_params_new(ctypes.byref(out)))
        self.handle = out

    def set(self, name, value, parameter=None):
        """Sets the library parameter name, an integer or a number as the library's table says, from a
        number or from text as users write it (set_text); a bad value raises a ValueError naming
        parameter, the estimator's parameter it comes from (default: name)."""
        parameter = parameter or name
        if isinstance(value, str):
            self.set_text(name, value, parameter)
            return
        integer = L.param_is_integer(name)
        try:
            number = _integer(value) if integer else float(value)
        except (TypeError, ValueError, OverflowError):
            raise ValueError(f"{parameter}={value!r}: give {'an integer' if integer else 'a number'}") from None
        fn = L.lib.km_params_set_int if integer else L.lib.km_params_set_double
        if fn(self.handle, L.param_id(name), number) != L.KM_OK:
            raise ValueError(parameter_message(parameter, value, L.last_error()))

    def set_text(self, name, text, parameter=None):
        """Sets the library parameter name from text as users write it (km_params_set_text: "2^-3", "4/3"
        and "inf" where the parameter takes them, an enumeration's name)."""
        parameter = parameter or name
        if L.lib.km_params_set_text(self.handle, L.param_id(name), text.encode()) != L.KM_OK:
            raise ValueError(text_message(parameter, text, L.last_error()))

    def set_class_weights(self, labels, weights):
        labels = np.ascontiguousarray(labels, dtype=np.float64)
        weights = np.ascontiguousarray(weights, dtype=np.float64)
        L.check(L.lib.km_params_set_class_weights(self.handle, labels.ctypes.data_as(L.c_double_p),
                                                  weights.ctypes.data_as(L.c_double_p), len(labels)))

    def __del__(self):
        if self.handle:
            L.lib.km_params_free(self.handle)
            self.handle = None


class KernelSet:
    """A km_kernel_set from spec strings, or over precomputed training matrices (kept alive here)."""

    def __init__(self, specs=(), n_features=0, norm="none", matrices=None, parameters=None):
        """parameters: for each spec the estimator parameter it comes from, which a refusal names
        (default "kernels")."""
        out = ctypes.c_void_p()
        L.check(L.lib.km_kernel_set_new(ctypes.byref(out)))
        self.handle = out
        self._matrices = matrices
        norm_value = L.enum_value(L.ENUM_NORMALIZATION, norm, "norm")
        if matrices is not None:
            for m in matrices.matrices:
                L.check(L.lib.km_kernel_set_add_matrix(self.handle, m.handle, norm_value, 0))
            return
        L.check(L.lib.km_kernel_set_set_default_norm(self.handle, norm_value))
        L.check(L.lib.km_kernel_set_set_dimension(self.handle, n_features))
        for spec, parameter in zip(specs, parameters or ["kernels"] * len(specs)):
            if L.lib.km_kernel_set_add_spec(self.handle, spec.encode()) != L.KM_OK:
                message = L.last_error()
                if spec not in message:
                    message = f"kernel spec {spec!r}: {message}"
                raise ValueError(f"{parameter}: {message}")

    def __len__(self):
        return L.lib.km_kernel_set_size(self.handle)

    def describe(self):
        return [L.describe(L.lib.km_kernel_set_describe, self.handle, m) for m in range(len(self))]

    def fit(self, train):
        """The set fitted on the rows of train (a Dataset) and the Gram or cross matrices it gives."""
        out = ctypes.c_void_p()
        L.check(L.lib.km_kernel_set_fit(self.handle, train.handle, ctypes.byref(out)))
        fitted = KernelSet.__new__(KernelSet)
        fitted.handle, fitted._matrices = out, self._matrices
        return fitted

    def matrix(self, m, a, b):
        """Fitted kernel m between the rows of Dataset a and the training rows b, as an ndarray."""
        out = ctypes.c_void_p()
        L.check(L.lib.km_kernel_matrix(self.handle, m, a.handle, b.handle, ctypes.byref(out)))
        try:    # a new float64 matrix, whose values km_matrix_data gives
            shape = (L.lib.km_matrix_rows(out), L.lib.km_matrix_cols(out))
            return np.ctypeslib.as_array(L.lib.km_matrix_data(out), shape).copy()
        finally:
            L.lib.km_matrix_free(out)

    def __del__(self):
        if self.handle:
            L.lib.km_kernel_set_free(self.handle)
            self.handle = None


class Model:
    """A km_model handle. Pickles as the bytes of the model file (km_model_save_buffer)."""

    def __init__(self, handle):
        self.handle = handle

    @classmethod
    def train(cls, dataset, kernel_set, params):
        out = ctypes.c_void_p()
        st = L.lib.km_train(dataset.handle, kernel_set.handle, params.handle, ctypes.byref(out))
        L.check(st)
        return cls(out)

    @classmethod
    def from_bytes(cls, data):
        out = ctypes.c_void_p()
        L.check(L.lib.km_model_load_buffer(data, len(data), ctypes.byref(out)))
        return cls(out)

    def to_bytes(self):
        buffer, size = ctypes.c_void_p(), ctypes.c_size_t()
        L.check(L.lib.km_model_save_buffer(self.handle, ctypes.byref(buffer), ctypes.byref(size)))
        try:
            return ctypes.string_at(buffer, size.value)
        finally:
            L.lib.km_free(buffer)

    def __reduce__(self):
        return (Model.from_bytes, (self.to_bytes(),))

    def save(self, path):
        L.check(L.lib.km_model_save(self.handle, str(path).encode()))

    def __del__(self):
        if getattr(self, "handle", None):
            L.lib.km_model_free(self.handle)
            self.handle = None

    # --- prediction -------------------------------------------------------------------------------

    def predict(self, dataset, test_kernels=None):
        """(labels, decision values n × n_decision) of the rows of dataset; test_kernels: None or a list
        of C-ordered test × train arrays, one per kernel."""
        n = dataset.n_rows
        labels = np.empty(n)
        decision = np.empty((n, self.n_decision))
        kernels = MatrixList(test_kernels) if test_kernels is not None else None
        L.check(L.lib.km_predict(self.handle, dataset.handle, kernels.array if kernels else None,
                                 labels.ctypes.data_as(L.c_double_p), decision.ctypes.data_as(L.c_double_p)))
        return labels, decision

    def predict_probability(self, dataset, test_kernels=None):
        """(most probable labels, probabilities n × n_classes, column c for labels()[c]) of the rows of
        dataset (a model trained with probability models)."""
        n = dataset.n_rows
        labels = np.empty(n)
        probabilities = np.empty((n, self.n_classes))
        kernels = MatrixList(test_kernels) if test_kernels is not None else None
        L.check(L.lib.km_predict_probability(self.handle, dataset.handle, kernels.array if kernels else None,
                                             labels.ctypes.data_as(L.c_double_p),
                                             probabilities.ctypes.data_as(L.c_double_p)))
        return labels, probabilities

    # --- figures ----------------------------------------------------------------------------------

    @property
    def n_decision(self):
        return L.lib.km_model_n_decision(self.handle)

    @property
    def n_classes(self):
        return L.lib.km_model_n_classes(self.handle)

    def labels(self):
        """The class labels in the model's order (the library's, i.e. the estimator's class indices)."""
        return np.ctypeslib.as_array(L.lib.km_model_labels(self.handle), (self.n_classes,)).copy()

    @property
    def has_probability(self):
        return bool(L.lib.km_model_has_probability(self.handle))

    def sigmoid(self, k):
        """(A, B) of binary machine k's Platt sigmoid P(positive | f) = 1/(1 + exp(A f + B))."""
        A, B = ctypes.c_double(), ctypes.c_double()
        L.check(L.lib.km_model_sigmoid(self.handle, k, ctypes.byref(A), ctypes.byref(B)))
        return A.value, B.value

    @property
    def has_variance(self):
        return bool(L.lib.km_model_has_variance(self.handle))

    def evidence(self):
        """(-log evidence, noise variance, kernels kept) of an empirical-Bayes model."""
        info = L.EvidenceInfo()
        info.size = ctypes.sizeof(L.EvidenceInfo)
        L.check(L.lib.km_model_evidence(self.handle, 0, ctypes.byref(info)))
        return info.neg_log_evidence, info.noise, info.kernels_kept

    def predict_variance(self, dataset):
        """The GP posterior variance of an empirical-Bayes model at the rows of dataset."""
        variance = np.empty(dataset.n_rows)
        L.check(L.lib.km_predict_variance(self.handle, dataset.handle, variance.ctypes.data_as(L.c_double_p)))
        return variance

    def laplace_sigma(self):
        """The width of the Laplace distribution of a regression model's residuals."""
        sigma = ctypes.c_double()
        L.check(L.lib.km_model_laplace_sigma(self.handle, ctypes.byref(sigma)))
        return sigma.value

    @property
    def n_machines(self):
        return L.lib.km_model_n_machines(self.handle)

    @property
    def n_kernels(self):
        return L.lib.km_model_n_kernels(self.handle)

    def kernel_specs(self):
        return [L.describe(L.lib.km_model_kernel_describe, self.handle, m) for m in range(self.n_kernels)]

    def kernel_weights(self):
        """n_machines × M."""
        M = self.n_kernels
        return np.array([np.ctypeslib.as_array(L.lib.km_model_kernel_weights(self.handle, k), (M,))
                         for k in range(self.n_machines)])

    def cluster_weights(self):
        """n_machines × groups × M: one weight vector per cluster of a localized model (clmkl, hlmkl;
        lmkl: per gate)."""
        M, groups = self.n_kernels, L.lib.km_model_weight_groups(self.handle)
        return np.array([np.ctypeslib.as_array(L.lib.km_model_kernel_weights(self.handle, k), (groups * M,))
                         .reshape(groups, M) for k in range(self.n_machines)])

    def machine_info(self, k):
        info = L.MachineInfo()
        info.size = ctypes.sizeof(L.MachineInfo)
        L.check(L.lib.km_model_machine_info(self.handle, k, ctypes.byref(info)))
        return info

    def target_alignment(self):
        values = L.lib.km_model_target_alignment(self.handle)
        return None if not values else np.ctypeslib.as_array(values, (self.n_kernels,)).copy()

    def support(self):
        """(training rows of the support vectors, ascending; coefficients, one row per machine output:
        n_machines × n_support, or n_classes × n_support for a joint multiclass machine)."""
        n_basis = L.lib.km_model_n_basis(self.handle)
        basis_rows = np.empty(n_basis, dtype=np.uintp)
        L.check(L.lib.km_model_basis_rows(self.handle, basis_rows.ctypes.data_as(L.c_size_p)))
        outputs = [L.lib.km_model_machine_outputs(self.handle, k) for k in range(self.n_machines)]
        coef = np.zeros((sum(outputs), n_basis))
        first = 0
        for k in range(self.n_machines):
            n_sv = L.lib.km_model_n_sv(self.handle, k)
            index = np.empty(n_sv, dtype=np.uintp)
            values = np.empty((n_sv, outputs[k]))
            L.check(L.lib.km_model_machine_support_outputs(self.handle, k, index.ctypes.data_as(L.c_size_p),
                                                           values.ctypes.data_as(L.c_double_p)))
            coef[first:first + outputs[k], index] = values.T
            first += outputs[k]
        used = np.any(coef != 0, axis=0)
        order = np.argsort(basis_rows[used], kind="stable")
        return basis_rows[used][order].astype(np.intp), coef[:, used][:, order]

    def data_values(self, section, key):
        """A kernel-weight method's values kept in the model (rows × cols), or None."""
        rows, cols = ctypes.c_size_t(), ctypes.c_size_t()
        values = L.lib.km_model_data_values(self.handle, section.encode(), key.encode(), ctypes.byref(rows),
                                            ctypes.byref(cols))
        if not values:
            return None
        return np.ctypeslib.as_array(values, (rows.value, cols.value)).copy()
