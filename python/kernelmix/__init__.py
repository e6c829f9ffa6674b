"""kernelmix: multiple kernel learning with scikit-learn estimators over the C library libkernelmix.

    from kernelmix import MKLClassifier
    clf = MKLClassifier(kernels=["rbf:gamma=2^-3..2^1/mean", "linear"], method="lp", p=4/3).fit(X, y)
    clf.kernel_weights_, clf.predict(X_test)

See docs/python.md.
"""
from ._library import KernelmixError
from ._library import lib as _lib
from . import alignment, plot
from .combiner import KernelCombiner
from .kernel_list import KernelList
from .estimators import MKLClassifier, MKLRegressor, MKLRidge, OneClassMKL, mkl_methods, mkl_solvers
from .model_selection import GridSearchMKL

__version__ = _lib.km_version().decode()
__all__ = ["MKLClassifier", "MKLRegressor", "MKLRidge", "OneClassMKL", "KernelCombiner", "KernelList", "alignment",
           "GridSearchMKL", "KernelmixError",
           "mkl_methods", "mkl_solvers", "plot", "__version__"]
