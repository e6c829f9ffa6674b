"""Squared distances and RBF kernel sums with BLAS (one X·X'ᵀ product serves every width)."""

import numpy as np


def squared_distances(A, B):
    """||a_i - b_j||^2 = ||a_i||^2 + ||b_j||^2 - 2 <a_i, b_j>, clipped at 0 against rounding."""
    a2 = np.einsum("ij,ij->i", A, A)
    b2 = np.einsum("ij,ij->i", B, B)
    D = a2[:, None] + b2[None, :] - 2.0 * (A @ B.T)
    np.maximum(D, 0.0, out=D)
    return D


def mean_squared_distance(X):
    """Mean of ||x_i - x_j||^2 over the n(n-1) ordered pairs i != j, in O(n d):
    sum_{i,j} ||x_i - x_j||^2 = 2 n sum_i ||x_i||^2 - 2 ||sum_i x_i||^2 (the i = j terms are 0)."""
    n = X.shape[0]
    if n < 2:
        raise ValueError("the mean pairwise distance needs at least 2 rows")
    total = 2.0 * n * np.einsum("ij,ij->", X, X) - 2.0 * float(np.dot(X.sum(axis=0), X.sum(axis=0)))
    return total / (n * (n - 1))


def rbf_sum(D, gammas):
    """Uniform sum of RBF kernels: sum_m exp(-gamma_m D), D the squared distances."""
    K = np.zeros_like(D)
    for gamma in gammas:
        K += np.exp(-gamma * D)
    return K
