"""Centred kernel alignment (Cortes, Mohri & Rostamizadeh, "Algorithms for Learning Kernels Based on
Centered Alignment", JMLR 2012, Definitions 1 and 2):

    A(K1, K2) = <K1c, K2c>_F / (||K1c||_F ||K2c||_F),   Kc = H K H,  H = I - 11'/n,

and the alignment of a kernel with the target: with YY' for regression targets y, and the "same class"
kernel (one indicator column per class, Y Y' = [y_i == y_j]) for class labels, as libkernelmix's
model diagnostics (kernel_alignment / target_alignment_) compute it.
"""
import numpy as np
from sklearn.utils import check_array, column_or_1d
from sklearn.utils.multiclass import type_of_target


def centred(K):
    """H K H for a square kernel matrix K (H the centring matrix), without forming H."""
    K = check_array(K, dtype=np.float64, input_name="K")
    if K.shape[0] != K.shape[1]:
        raise ValueError(f"a kernel matrix on one set of rows is square, got {K.shape[0]} x {K.shape[1]}")
    return K - K.mean(axis=0, keepdims=True) - K.mean(axis=1, keepdims=True) + K.mean()


def _aligned(K1c, K2c):
    norm = np.linalg.norm(K1c) * np.linalg.norm(K2c)
    if norm == 0:
        raise ValueError("the alignment of a kernel that is constant after centring is undefined")
    return float(np.vdot(K1c, K2c) / norm)


def kernel_alignment(K1, K2):
    """Centred alignment A(K1, K2) in [-1, 1] of two n x n kernel matrices on the same rows."""
    K1c, K2c = centred(K1), centred(K2)
    if K1c.shape != K2c.shape:
        raise ValueError(f"kernels on different rows: {K1c.shape} and {K2c.shape}")
    return _aligned(K1c, K2c)


def target_kernel(y, task="auto"):
    """The target's kernel: [y_i == y_j] for class labels, y y' for real-valued targets. task:
    "classification", "regression" or "auto" (scikit-learn's type_of_target: continuous means
    regression)."""
    y = column_or_1d(y)
    if task == "auto":
        task = "regression" if type_of_target(y) == "continuous" else "classification"
    if task == "classification":
        return (y[:, None] == y[None, :]).astype(np.float64)
    if task == "regression":
        y = check_array(y, ensure_2d=False, dtype=np.float64, input_name="y")
        return np.outer(y, y)
    raise ValueError(f"task={task!r}: give 'classification', 'regression' or 'auto'")


def kernel_target_alignment(K, y, task="auto"):
    """Centred alignment of a kernel matrix (n x n) with the targets y (n values); a list of kernels
    gives one alignment each."""
    Yc = centred(target_kernel(y, task))
    if isinstance(K, (list, tuple)) or (isinstance(K, np.ndarray) and K.ndim == 3):
        return np.array([_aligned(centred(k), Yc) for k in K])
    Kc = centred(K)
    if Kc.shape != Yc.shape:
        raise ValueError(f"{Yc.shape[0]} targets for a {Kc.shape[0]} x {Kc.shape[1]} kernel")
    return _aligned(Kc, Yc)


def alignment_matrix(kernels):
    """M x M centred alignments between the kernels of a list (each n x n)."""
    centred_kernels = [centred(k) for k in kernels]
    M = len(centred_kernels)
    A = np.eye(M)
    for a in range(M):
        for b in range(a + 1, M):
            A[a, b] = A[b, a] = _aligned(centred_kernels[a], centred_kernels[b])
    return A
