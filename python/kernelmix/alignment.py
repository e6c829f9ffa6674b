"""Centred kernel alignment (Cortes, Mohri & Rostamizadeh, "Algorithms for Learning Kernels Based on
Centered Alignment", JMLR 2012, Definitions 1 and 2):

    A(K1, K2) = <K1c, K2c>_F / (||K1c||_F ||K2c||_F),   Kc = H K H,  H = I - 11'/n,

and the alignment of a kernel with the target: with YY' for regression targets y, and the "same class"
kernel (one indicator column per class, Y Y' = [y_i == y_j]) for class labels, as libkernelmix's
model diagnostics (kernel_alignment / target_alignment_) compute it. The values are the library's
(km_kernel_alignment); centred() and target_kernel() give the matrices they are defined on.
"""
import numpy as np
from sklearn.utils import check_array, column_or_1d
from sklearn.utils.multiclass import type_of_target

from . import _library as L
from ._data import MatrixList


def centred(K):
    """H K H for a square kernel matrix K (H the centring matrix), without forming H."""
    K = _square(K)
    return K - K.mean(axis=0, keepdims=True) - K.mean(axis=1, keepdims=True) + K.mean()


def _square(K):
    K = check_array(K, dtype=np.float64, order="C", input_name="K")
    if K.shape[0] != K.shape[1]:
        raise ValueError(f"a kernel matrix on one set of rows is square, got {K.shape[0]} x {K.shape[1]}")
    return K


def _alignments(kernels, Y=None):
    """libkernelmix's km_kernel_alignment of square kernel matrices (float64, C order): the M x M matrix
    of their alignments, or with the n x T target matrix Y the M alignments with Y Y'."""
    matrices = MatrixList(kernels)
    M = len(kernels)
    if Y is None:
        out = np.empty((M, M))
        L.check(L.lib.km_kernel_alignment(matrices.array, M, 0, None, out.ctypes.data_as(L.c_double_p), None))
        return out
    Y = np.ascontiguousarray(Y, dtype=np.float64)
    out = np.empty(M)
    L.check(L.lib.km_kernel_alignment(matrices.array, M, Y.shape[1], Y.ctypes.data_as(L.c_double_p), None,
                                      out.ctypes.data_as(L.c_double_p)))
    return out


def kernel_alignment(K1, K2):
    """Centred alignment A(K1, K2) in [-1, 1] of two n x n kernel matrices on the same rows."""
    K1, K2 = _square(K1), _square(K2)
    if K1.shape != K2.shape:
        raise ValueError(f"kernels on different rows: {K1.shape} and {K2.shape}")
    return float(_alignments([K1, K2])[0, 1])


def _target_columns(y, task):
    """Y with Y Y' the target's kernel: one indicator column per class ([y_i == y_j]) for class labels,
    y itself (y y') for real-valued targets. task: "classification", "regression" or "auto"
    (scikit-learn's type_of_target: continuous means regression)."""
    y = column_or_1d(y)
    if task == "auto":
        task = "regression" if type_of_target(y) == "continuous" else "classification"
    if task == "classification":
        classes, class_of = np.unique(y, return_inverse=True)
        return (class_of[:, None] == np.arange(len(classes))[None, :]).astype(np.float64)
    if task == "regression":
        y = check_array(y, ensure_2d=False, dtype=np.float64, input_name="y")
        return y[:, None]
    raise ValueError(f"task={task!r}: give 'classification', 'regression' or 'auto'")


def target_kernel(y, task="auto"):
    """The target's kernel: [y_i == y_j] for class labels, y y' for real-valued targets. task:
    "classification", "regression" or "auto" (scikit-learn's type_of_target: continuous means
    regression)."""
    Y = _target_columns(y, task)
    return Y @ Y.T


def kernel_target_alignment(K, y, task="auto"):
    """Centred alignment of a kernel matrix (n x n) with the targets y (n values); a list of kernels
    gives one alignment each."""
    Y = _target_columns(y, task)
    several = isinstance(K, (list, tuple)) or (isinstance(K, np.ndarray) and K.ndim == 3)
    kernels = [_square(k) for k in (K if several else [K])]
    for k in kernels:
        if k.shape[0] != Y.shape[0]:
            raise ValueError(f"{Y.shape[0]} targets for a {k.shape[0]} x {k.shape[1]} kernel")
    alignments = _alignments(kernels, Y)
    return alignments if several else float(alignments[0])


def alignment_matrix(kernels):
    """M x M centred alignments between the kernels of a list (each n x n)."""
    return _alignments([_square(k) for k in kernels])
