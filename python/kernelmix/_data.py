"""Python data as libkernelmix datasets and matrices.

Every object here keeps references to the numpy arrays the library reads, so that memory outlives the
handle: km_dataset_from_csr and km_matrix_wrap use the caller's arrays without a copy.
"""
import ctypes

import numpy as np
import scipy.sparse as sp

from . import _library as L


def _ptr(array, ctype):
    return array.ctypes.data_as(ctypes.POINTER(ctype))


class Dataset:
    """A km_dataset over rows of features (dense or CSR) or, for precomputed kernels, n featureless rows."""

    def __init__(self, handle, keep):
        self.handle, self._keep = handle, keep

    @classmethod
    def from_array(cls, X, labels=None):
        """X: a validated 2-D float64 C-ordered ndarray or a CSR/CSC matrix; labels: float64 or None."""
        labels = None if labels is None else np.ascontiguousarray(labels, dtype=np.float64)
        if sp.issparse(X):
            return cls._from_csr(X, labels)
        X = np.ascontiguousarray(X, dtype=np.float64)  # no copy for a validated array
        out = ctypes.c_void_p()
        L.check(L.lib.km_dataset_from_dense(X.shape[0], X.shape[1], _ptr(X, ctypes.c_double),
                                            None if labels is None else _ptr(labels, ctypes.c_double),
                                            ctypes.byref(out)))
        return cls(out, ())  # the library copied the rows

    @classmethod
    def _from_csr(cls, X, labels):
        X = X.tocsr()
        if not X.has_canonical_format:   # sorted, no duplicates; never modify the caller's matrix
            X = X.copy()
            X.sum_duplicates()
        if X.shape[1] > np.iinfo(np.int32).max:
            raise ValueError(f"{X.shape[1]} columns: kernelmix reads at most 2^31 - 1 sparse columns")
        indptr = np.ascontiguousarray(X.indptr, dtype=np.int64)
        indices = np.ascontiguousarray(X.indices, dtype=np.int32)
        values = np.ascontiguousarray(X.data, dtype=np.float64)
        return cls._from_csr_arrays(X.shape, indptr, indices, values, labels)

    @classmethod
    def _from_csr_arrays(cls, shape, indptr, indices, values, labels):
        out = ctypes.c_void_p()
        L.check(L.lib.km_dataset_from_csr(shape[0], shape[1], _ptr(indptr, ctypes.c_int64),
                                          _ptr(indices, ctypes.c_int32), _ptr(values, ctypes.c_double),
                                          None if labels is None else _ptr(labels, ctypes.c_double),
                                          ctypes.byref(out)))
        return cls(out, (indptr, indices, values))

    @classmethod
    def featureless(cls, n, labels=None):
        """n rows without features: the rows of precomputed kernel matrices."""
        labels = None if labels is None else np.ascontiguousarray(labels, dtype=np.float64)
        empty = np.zeros(0)
        return cls._from_csr_arrays((n, 1), np.zeros(n + 1, dtype=np.int64), empty.astype(np.int32), empty,
                                    labels)

    @property
    def n_rows(self):
        return L.lib.km_dataset_rows(self.handle)

    def __del__(self):
        if self.handle:
            L.lib.km_dataset_free(self.handle)
            self.handle = None


class Matrix:
    """A km_matrix over a C-ordered float64 or float32 ndarray, without a copy."""

    def __init__(self, K):
        self.handle = None
        self._values = K
        out = ctypes.c_void_p()
        dtype = L.FLOAT32 if K.dtype == np.float32 else L.FLOAT64
        L.check(L.lib.km_matrix_wrap(K.shape[0], K.shape[1], dtype, K.ctypes.data, ctypes.byref(out)))
        self.handle = out

    def __del__(self):
        if self.handle:
            L.lib.km_matrix_free(self.handle)
            self.handle = None


class MatrixList:
    """Several matrices and the C array of their handles (km_predict's test_kernels)."""

    def __init__(self, kernels):
        self.matrices = [Matrix(K) for K in kernels]
        self.array = (ctypes.c_void_p * max(1, len(kernels)))(*[m.handle for m in self.matrices])
