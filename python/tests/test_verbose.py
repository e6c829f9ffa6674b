"""verbose=: training's progress through the logger "kernelmix" (logging), never printed."""
import logging
import re

import numpy as np
from sklearn.datasets import load_iris

from kernelmix import MKLClassifier

KERNELS = ["rbf:gamma=2^-2..2^1/mean", "linear"]


def _records(caplog, level):
    return [r for r in caplog.records if r.name == "kernelmix" and r.levelno == level]


def test_verbose_1_logs_the_stages_and_machines(caplog, capfd):
    X, y = load_iris(return_X_y=True)
    with caplog.at_level(logging.DEBUG, logger="kernelmix"):
        MKLClassifier(kernels=KERNELS, verbose=1).fit(X, y)
    messages = [r.getMessage() for r in _records(caplog, logging.INFO)]
    assert messages[0] == "fitting the kernels"
    assert messages[1:] == ["machine 1/3", "machine 2/3", "machine 3/3"]
    assert not _records(caplog, logging.DEBUG)    # MKL steps only at verbose=2
    assert capfd.readouterr() == ("", "")         # logging, not print


def test_verbose_2_logs_each_mkl_step_with_the_models_gap(caplog):
    X, y = load_iris(return_X_y=True)
    with caplog.at_level(logging.DEBUG, logger="kernelmix"):
        clf = MKLClassifier(kernels=KERNELS, method="lp", verbose=2).fit(X, y)
    last_gap = {}
    for r in _records(caplog, logging.DEBUG):
        step = re.fullmatch(r"machine (\d)/3: MKL step (\d+), gap (\S+)", r.getMessage())
        if step:
            last_gap[int(step.group(1))] = float(step.group(3))
    assert sorted(last_gap) == [1, 2, 3]
    # the last step reported for each machine is the certificate the model keeps (printed to 3 digits)
    np.testing.assert_allclose([last_gap[k] for k in (1, 2, 3)], clf.duality_gap_, rtol=6e-3)


def test_verbose_0_logs_nothing(caplog):
    X, y = load_iris(return_X_y=True)
    with caplog.at_level(logging.DEBUG, logger="kernelmix"):
        MKLClassifier(kernels=KERNELS).fit(X, y)
    assert not [r for r in caplog.records if r.name == "kernelmix"]
