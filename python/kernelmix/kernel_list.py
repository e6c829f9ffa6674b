"""KernelList: M precomputed kernel matrices over the same rows and columns, as one input that
scikit-learn's model selection splits the way a precomputed kernel is split."""
import numpy as np


class KernelList:
    """M kernel matrices K_1..K_M, each n_rows x n_cols: X of an estimator with kernels="precomputed".

    It looks like one (n_rows, n_cols) kernel matrix to scikit-learn: len() and shape[0] count its rows,
    so cross_val_score and GridSearchCV check it against y, and an estimator with the "pairwise" tag has
    its folds cut by ``X[np.ix_(rows, train_rows)]``, which takes those rows and columns of every K_m
    (train x train to fit, test x train to predict). A 1-D index takes rows only.

    kernels : sequence of 2-D arrays of one shape, or a 3-D array M x n_rows x n_cols. They are kept as
    given in the attribute kernels (C-ordered float32/float64 arrays reach the library without a copy).
    """

    def __init__(self, kernels):
        kernels = [np.asarray(K) for K in kernels]
        if not kernels:
            raise ValueError("KernelList: no kernel matrix given")
        for m, K in enumerate(kernels):
            if K.ndim != 2 or K.shape != kernels[0].shape:
                raise ValueError(f"KernelList: kernel {m + 1} has shape {K.shape}, kernel 1 {kernels[0].shape}: "
                                 f"give M matrices of one shape n_rows x n_cols")
        self.kernels = kernels

    @property
    def shape(self):
        """(n_rows, n_cols) of every kernel matrix."""
        return self.kernels[0].shape

    def __len__(self):
        return self.shape[0]

    def __iter__(self):
        raise TypeError("a KernelList is N rows to scikit-learn, not a sequence of matrices: iterate over its "
                        ".kernels")

    def __array__(self, dtype=None):
        raise TypeError(f"a KernelList is {len(self.kernels)} kernel matrices, not one array: give it to an estimator "
                        f"with kernels=\"precomputed\", or take its .kernels")

    def __getitem__(self, index):
        """The same rows (and, for a pair of indices, columns) of every kernel, as a KernelList."""
        if isinstance(index, tuple):
            if len(index) != 2:
                raise IndexError(f"KernelList: index rows or (rows, columns), not {len(index)} indices")
            rows, cols = index
            if np.ndim(rows) == 2 or np.ndim(cols) == 2:    # np.ix_(rows, cols): broadcast already
                return KernelList([K[rows, cols] for K in self.kernels])
            return KernelList([K[rows][:, cols] for K in self.kernels])
        if np.ndim(index) == 0 and not isinstance(index, slice):
            raise IndexError("KernelList: index rows with a slice or an array, keeping the matrices 2-D")
        return KernelList([K[index] for K in self.kernels])

    def __repr__(self):
        return f"KernelList({len(self.kernels)} kernels of {self.shape[0]} x {self.shape[1]})"
