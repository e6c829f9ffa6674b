"""Errors name the estimators' parameters: a bad value of every parameter of every estimator raises a
ValueError that names that parameter (never the library's C name of it, nor a CLI option); the
library's messages that name CLI options read as estimator parameters; a misspelt keyword suggests
the parameter meant."""
import glob
import os
import re

import numpy as np
import pytest
from conftest import REPOSITORY
from sklearn.datasets import load_iris

from kernelmix import KernelCombiner, MKLClassifier, MKLRegressor, MKLRidge, OneClassMKL
from kernelmix._messages import CLI_OPTION, as_estimator_terms

ESTIMATORS = (MKLClassifier, MKLRegressor, MKLRidge, OneClassMKL, KernelCombiner)

# Bad values of every parameter (an estimator's parameters missing here fail the coverage test).
BAD = {
    "kernels": ["rbf:gama=1", 5, ["linear", 3], []],
    "method": ["bogus", 3],
    "p": ["two", 0.5, np.nan],
    "C": [0, -1.0, "big"],
    "epsilon": [-0.1, "wide"],
    "nu": [0, 1.5],
    "solver": ["newton"],
    "tol": [0, -1e-3, np.nan],
    "mkl_tol": [0, "small"],
    "cache_size": [0, -5],
    "class_weight": ["even", 2, {"no such class": 2.0}, {1: "twice"}, {1: -2.0}],
    "max_iter": [-5, 2.5, "many"],
    "random_state": [-1, "abc", 1.5],
    "verbose": [-1, "loud", 0.5],
    "norm": ["unit", 1],
    "multiclass": ["all"],
    "shared_weights": ["yes", 2],
    "decision_function_shape": ["ovx"],
    "break_ties": ["no"],
    "elasticnet_lambda": [-0.5, 1.5],
    "regularizer": ["l3"],
    "reg_param": [-1],
    "probability": ["sure"],
    "radius": [0, -2],
    "align_q": [1, 0.5],
    "epochs": [-1, 2.5],
    "online_epochs": [-1, np.nan],
    "obscure_radius": [-1, "far"],
    "clusters": [0, 1.5],
    "ae": [0, 2],
    "tau": [-1, "hard"],
    "cluster_kernel": [-1, "rbf:gama=1", 1.5],
    "noise": [-1],
    "learn_noise": [3],
    "eb_inner": [0],
    "eb_tol": [0, -1],
    "task": ["ranking"],
}
# parameters that only a task reads: the bad value is tried where it is read
CONTEXT = {(KernelCombiner, "epsilon"): dict(task="regression")}
# the library's names of parameters the estimators name otherwise
LIBRARY_NAMES = ("cache_mb", "mkl_gap", "tolerance", "seed", "mkl_radius", "cluster_ae", "cluster_tau", "eb_noise",
                 "obscure_epochs", "obscure_online_epochs", "lambda ")


@pytest.fixture(scope="module")
def data():
    X, y = load_iris(return_X_y=True)
    return X[40:100], y[40:100]      # two classes


def fit(estimator, X, y):
    return estimator.fit(X) if isinstance(estimator, OneClassMKL) else estimator.fit(X, y)


def test_every_parameter_has_bad_values():
    for Estimator in ESTIMATORS:
        assert set(Estimator().get_params()) <= set(BAD), Estimator.__name__


@pytest.mark.parametrize("Estimator", ESTIMATORS, ids=lambda e: e.__name__)
def test_a_bad_value_names_its_parameter(data, Estimator):
    X, y = data
    for name in Estimator().get_params():
        for value in BAD[name]:
            estimator = Estimator(**{name: value, **CONTEXT.get((Estimator, name), {})})
            with pytest.raises(ValueError) as error:
                fit(estimator, X, y)
            message = str(error.value)
            where = f"{Estimator.__name__}({name}={value!r}): {message}"
            assert re.search(rf"\b{name}\b", message), where
            assert not CLI_OPTION.search(message), where
            assert not any(library in message for library in LIBRARY_NAMES), where
            assert message.count("kernel spec") <= 1, where
            assert "\n" not in message, where


def test_the_kernel_spec_message_is_not_repeated(data):
    X, y = data
    with pytest.raises(ValueError) as error:
        MKLClassifier(kernels="rbf:gama=1").fit(X, y)
    assert str(error.value).startswith("kernels: kernel spec 'rbf:gama=1': unknown key")


def library_messages():
    """The format strings of the library's errors (km_log's lines are not errors, the package shows none;
    nor is what the library writes to a caller's stream with fprintf, as `kernelmix info`'s descriptions;
    the parameter and method tables' options and help texts are the command line's own)."""
    literals = re.compile(r'((?:"(?:[^"\\\n]|\\.)*"\s*)+)')
    for path in sorted(glob.glob(os.path.join(REPOSITORY, "src", "**", "*.c"), recursive=True)):
        text = open(path, encoding="utf-8").read()
        for match in literals.finditer(text):
            statement = re.split(r"[;{}]", text[max(0, match.start() - 400):match.start()])[-1]
            if ("km_log" not in statement and "fprintf" not in statement
                    and not re.search(r"\.(options|help|value_name) = $", statement)):
                yield "".join(re.findall(r'"((?:[^"\\\n]|\\.)*)"', match.group(1)))


def formatted(message):
    """The format string with sample values: %s a method name, numbers 0.001 or 3."""
    def sample(conversion):
        kind = conversion.group(0)[-1]
        return "lp" if kind == "s" else "0.001" if kind in "gef" else "3"
    return re.sub(r"%[-+ #0]*\d*(?:\.\d+)?(?:zu|ld|lld|[sdgfeu])", sample, message)


def test_every_library_message_with_a_cli_option_is_translated():
    translated = 0
    for message in library_messages():
        text = formatted(message)
        if CLI_OPTION.search(text):
            assert not CLI_OPTION.search(as_estimator_terms(text)), (text, as_estimator_terms(text))
            translated += 1
    assert translated >= 15        # the messages of the methods' and tasks' refusals are in the scan


@pytest.mark.parametrize("estimator,task,expected", [
    (MKLClassifier(method="lmkl"), "three classes",
     "method='lmkl' trains more than two classes one-vs-rest (multiclass='ovr')"),
    (MKLClassifier(method="obscure", solver="wrapper"), "two classes",
     "method='obscure' runs its own two stages (default) or solver='pegasos', not solver='wrapper'"),
    (MKLClassifier(method="lp", multiclass="ovr", probability=True), "three classes",
     "train with multiclass='ovo' for probability=True"),
    (MKLClassifier(method="obscure", class_weight="balanced"), "two classes", "drop class_weight"),
    (MKLRegressor(method="eb-rw"), "regression", "kernel ridge regression only (MKLRidge), not"),
    (OneClassMKL(method="obscure"), "one class", "method='obscure' learns classifiers"),
])
def test_library_refusals_name_the_parameters(estimator, task, expected):
    X, y = load_iris(return_X_y=True)
    if task == "two classes":
        X, y = X[40:100], y[40:100]
    with pytest.raises(ValueError) as error:
        fit(estimator, X, X[:, 0] if task == "regression" else y)
    message = str(error.value)
    assert expected in message and not CLI_OPTION.search(message), message


@pytest.mark.parametrize("Estimator", ESTIMATORS, ids=lambda e: e.__name__)
def test_a_misspelt_keyword_suggests_the_parameter(Estimator):
    with pytest.raises(TypeError, match=rf"{Estimator.__name__} has no parameter 'kernel': did you mean kernels=\?"):
        Estimator(kernel="rbf")
    with pytest.raises(TypeError, match=r"kernels=\['rbf:gamma=0.5'\]"):
        Estimator(gamma=0.5)
    with pytest.raises(TypeError, match="its parameters: kernels, method"):
        Estimator(zzz=1)
