"""scikit-learn's own estimator checks (check_estimator) for every kernelmix estimator, with its defaults
(fixed kernel weights, as the CLI) and with lp-norm MKL. A check that cannot pass for a principled reason
is declared in the estimator's _more_tags()["_xfail_checks"] with the reason, which
parametrize_with_checks turns into an expected failure. The estimators with probability models
(predict_proba, the Laplace width) are checked as instances of their own, and so are those on precomputed
kernels: their "pairwise" tag makes the checks give them linear-kernel matrices and split them by rows and
columns."""
from sklearn.utils.estimator_checks import parametrize_with_checks

from kernelmix import KernelCombiner, MKLClassifier, MKLRegressor, MKLRidge, OneClassMKL


@parametrize_with_checks([MKLClassifier(), MKLRegressor(), OneClassMKL(), KernelCombiner(), MKLRidge(),
                          MKLClassifier(method="lp"), MKLRegressor(method="lp"), OneClassMKL(method="lp"),
                          KernelCombiner(method="lp"), MKLClassifier(method="lp", probability=True),
                          MKLRegressor(method="lp", probability=True),
                          MKLClassifier(kernels="precomputed", method="lp"),
                          MKLRegressor(kernels="precomputed", method="lp"), MKLRidge(kernels="precomputed")])
def test_sklearn_estimator_checks(estimator, check):
    check(estimator)
