"""The package's view of the library's numbers agrees with the library and with include/kernelmix.h:
the few numbers _library.py writes down (success, the km_enum ids, km_dtype, the integer flag), every
number it reads from the library (tasks through the name tables, status names, which parameters are
integers), the name tables against the header's enumerations, and text values read by the library."""
import ctypes
import os
import re

import numpy as np
import pytest
from conftest import REPOSITORY

from kernelmix import _library as L
from kernelmix._data import Matrix
from kernelmix._model import Params

HEADER = os.path.join(REPOSITORY, "include", "kernelmix.h")


def header_enums():
    """{typedef name: {constant: value}} of every `typedef enum NAME {...} NAME;` in kernelmix.h."""
    with open(HEADER, encoding="utf-8") as f:
        text = re.sub(r"/\*.*?\*/", "", f.read(), flags=re.DOTALL)
    enums = {}
    for name, body in re.findall(r"typedef enum (\w+) \{(.*?)\} \1;", text, flags=re.DOTALL):
        enums[name] = {constant: int(value) for constant, value in re.findall(r"(KM_\w+)\s*=\s*(-?\d+)", body)}
    return enums


def header_defines():
    with open(HEADER, encoding="utf-8") as f:
        return {name: int(value) for name, value in re.findall(r"^#define (KM_\w+) (\d+)u?\b", f.read(), flags=re.M)}


ENUMS = header_enums()
# the km_enum id of each name table and the enumeration it names
TABLES = {"KM_ENUM_TASK": "km_task", "KM_ENUM_MULTICLASS": "km_multiclass", "KM_ENUM_MKL_METHOD": "km_mkl_method",
          "KM_ENUM_MKL_SOLVER": "km_mkl_solver", "KM_ENUM_MKL_REGULARIZER": "km_mkl_regularizer",
          "KM_ENUM_KERNEL_TYPE": "km_kernel_type", "KM_ENUM_NORMALIZATION": "km_normalization",
          "KM_ENUM_CACHE_VALUES": "km_cache_values", "KM_ENUM_MU0": "km_mu0", "KM_ENUM_RANK1_WEIGHT": "km_rank1_weight",
          "KM_ENUM_SCORE": "km_score"}


def test_the_numbers_the_package_writes_down_are_the_headers():
    enum_ids, status = ENUMS["km_enum"], ENUMS["km_status"]
    assert L.KM_OK == status["KM_OK"] == 0
    for name in ("TASK", "MULTICLASS", "MKL_METHOD", "MKL_SOLVER", "MKL_REGULARIZER", "NORMALIZATION", "SCORE"):
        assert getattr(L, f"ENUM_{name}") == enum_ids[f"KM_ENUM_{name}"], name
    assert (L.FLOAT64, L.FLOAT32) == (ENUMS["km_dtype"]["KM_FLOAT64"], ENUMS["km_dtype"]["KM_FLOAT32"])
    assert L.PARAM_INTEGER == header_defines()["KM_PARAM_INTEGER"]
    # a float32 array wrapped with L.FLOAT32 is a float32 matrix to the library
    L.lib.km_matrix_dtype.restype, L.lib.km_matrix_dtype.argtypes = ctypes.c_int, [L.handle]
    for dtype, number in ((np.float32, L.FLOAT32), (np.float64, L.FLOAT64)):
        matrix = Matrix(np.eye(3, dtype=dtype))
        assert L.lib.km_matrix_dtype(matrix.handle) == number


def test_the_numbers_the_package_reads_are_the_headers():
    tasks = ENUMS["km_task"]
    assert (L.TASK_SVC, L.TASK_SVR, L.TASK_ONECLASS, L.TASK_KRR) == (
        tasks["KM_TASK_SVC"], tasks["KM_TASK_SVR"], tasks["KM_TASK_ONECLASS"], tasks["KM_TASK_KRR"])
    for name, value in ENUMS["km_status"].items():
        assert L.status_name(value) == name


@pytest.mark.parametrize("table", sorted(TABLES))
def test_every_name_table_lists_its_enumeration(table):
    """The library's names of an enumeration (km_enum_name_at) give exactly the header's values, and
    each name reads back as its value (km_enum_value)."""
    e = ENUMS["km_enum"][table]
    names = L.enum_names(e)
    values = {}
    for index, name in enumerate(names):
        value = ctypes.c_int()
        assert L.lib.km_enum_name_at(e, index, ctypes.byref(value)).decode() == name
        values[name] = value.value
        assert L.enum_value(e, name, table) == value.value
    assert sorted(values.values()) == sorted(ENUMS[TABLES[table]].values())


def test_cv_options_are_the_headers_struct():
    """CvOptions has km_cv_options' fields in the header's order (its size then says which the package
    sets), and the score names GridSearchMKL maps scikit-learn's to are in the library's table."""
    with open(HEADER, encoding="utf-8") as f:
        text = re.sub(r"/\*.*?\*/", "", f.read(), flags=re.DOTALL)
    body = re.search(r"typedef struct km_cv_options \{(.*?)\} km_cv_options;", text, flags=re.DOTALL).group(1)
    declarations = [d.strip() for d in body.split(";") if d.strip()]
    fields = [(re.search(r"\(\*(\w+)\)", d) or re.search(r"(\w+)$", d)).group(1) for d in declarations]
    assert [name for name, _ in L.CvOptions._fields_] == fields
    from kernelmix.model_selection import SCORINGS
    assert sorted(name for name, _, _ in SCORINGS.values()) == sorted(L.enum_names(L.ENUM_SCORE))


def test_integer_parameters_are_the_librarys():
    """Params.set picks km_params_set_int exactly for the parameters the library's getters read as
    integers, for every parameter id of the header."""
    L.lib.km_param_name.restype, L.lib.km_param_name.argtypes = ctypes.c_char_p, [ctypes.c_int]
    L.lib.km_params_get_int.argtypes = [L.handle, ctypes.c_int, ctypes.POINTER(ctypes.c_int64)]
    L.lib.km_params_get_double.argtypes = [L.handle, ctypes.c_int, L.c_double_p]
    params, integers = Params(), 0
    for constant, id_ in ENUMS["km_param"].items():
        name = L.lib.km_param_name(id_).decode()
        assert L.param_id(name) == id_, constant
        is_int = L.lib.km_params_get_int(params.handle, id_, ctypes.byref(ctypes.c_int64())) == L.KM_OK
        is_double = L.lib.km_params_get_double(params.handle, id_, ctypes.byref(ctypes.c_double())) == L.KM_OK
        assert is_int != is_double, constant
        assert L.param_is_integer(name) == is_int, constant
        integers += is_int
    assert 0 < integers < len(ENUMS["km_param"])
    params.set("clusters", 4.0)     # an integer parameter takes a whole float, refuses a fraction
    with pytest.raises(ValueError, match="clusters=2.5: give an integer"):
        params.set("clusters", 2.5)


def test_text_values_are_read_by_the_library():
    """Params.set of text goes through km_params_set_text: the values the typed setters would store, and
    refusals that name the estimator's parameter."""
    L.lib.km_params_get_int.argtypes = [L.handle, ctypes.c_int, ctypes.POINTER(ctypes.c_int64)]
    L.lib.km_params_get_double.argtypes = [L.handle, ctypes.c_int, L.c_double_p]
    params = Params()
    for name, text, expected in (("p", "4/3", 4 / 3), ("p", "inf", np.inf), ("C", "2^-3", 0.125),
                                 ("tolerance", "1e-4", 1e-4)):
        params.set(name, text)
        value = ctypes.c_double()
        assert L.lib.km_params_get_double(params.handle, L.param_id(name), ctypes.byref(value)) == L.KM_OK
        assert value.value == expected, (name, text)
    params.set("clusters", "5")
    value = ctypes.c_int64()
    assert L.lib.km_params_get_int(params.handle, L.param_id("clusters"), ctypes.byref(value)) == L.KM_OK
    assert value.value == 5
    with pytest.raises(ValueError, match=r"^exponent='0.5' is out of range \[1, inf\]$"):
        params.set("p", "0.5", parameter="exponent")
    with pytest.raises(ValueError, match=r"^clusters='2.5' is not an integer$"):
        params.set("clusters", "2.5")
