"""Pickles carry a model's text (Model.__reduce__), which loads through km_model_load_buffer: a pickle
whose model data was edited (checksum recomputed) raises ValueError naming the data section and entry,
as `kernelmix info` refuses the same file, instead of reading out of bounds when the model is used."""
import os
import pickle
import sys

import numpy as np
import pytest
from conftest import REPOSITORY

from kernelmix import MKLClassifier, MKLRidge
from kernelmix._model import Model

sys.path.insert(0, os.path.join(REPOSITORY, "tests", "cli"))
from forge_model import forge  # noqa: E402


class _Forged:
    """Pickles as a Model whose text is `data`."""

    def __init__(self, data):
        self.data = data

    def __reduce__(self):
        return (Model.from_bytes, (self.data,))


@pytest.fixture(scope="module")
def rows():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(40, 3))
    return X, np.where(X[:, 0] + 0.3 * X[:, 1] > 0, 1, -1), 2 * X[:, 0] + 0.1 * rng.normal(size=40)


@pytest.mark.parametrize("method,section,key,edit", [
    ("lmkl", "clusters", "cluster_kernel", ("set", "0", "1000000")),
    ("lmkl", "clusters", "gated", ("fill", "0")),
    ("lmkl", "clusters", "memberships", ("set", "0", "-0.5")),
    ("clmkl", "clusters", "labels", ("set", "0", "7")),
    ("clmkl", "clusters", "centres", ("set", "1", "-3")),
    ("eb-mackay", "eb", "noise_1", ("set", "0", "-1")),
    ("eb-mackay", "eb", "kernels_kept_1", ("set", "0", "-1")),
])
def test_forged_pickle_raises(rows, method, section, key, edit):
    X, y, t = rows
    kernels = ["linear", "rbf:gamma=0.5", "rbf:gamma=2"]
    if method.startswith("eb"):
        estimator = MKLRidge(kernels=kernels, method=method).fit(X, t)
    else:
        estimator = MKLClassifier(kernels=kernels, method=method, clusters=2).fit(X, y)
    before = estimator.predict(X)
    text = estimator.model_.to_bytes()
    estimator.model_ = _Forged(forge(text, section, key, *edit))
    forged = pickle.dumps(estimator)
    with pytest.raises(ValueError, match=r"\[data %s\] %s: " % (section, key)):
        pickle.loads(forged)
    estimator.model_ = _Forged(text)   # the unedited text still loads and predicts the same
    np.testing.assert_array_equal(pickle.loads(pickle.dumps(estimator)).predict(X), before)

