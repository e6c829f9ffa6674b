"""Loading libkernelmix and declaring the C functions the package calls (ctypes).

ctypes calls a CDLL's functions with the GIL released, so training and prediction in one thread do not
stop other Python threads (joblib's threading backend, a GUI). The library is looked for, in order:

1. the file named by the environment variable ``KERNELMIX_LIBRARY``;
2. next to the package (``pip install ./python`` copies it there from the build tree);
3. the library directory of the prefix the package was installed into by ``cmake --install``
   (``_install_paths.py``, written at install time, gives it relative to the package);
4. the build tree of a source checkout (``build/`` beside ``python/``);
5. the system loader's search path (``ldconfig``, ``LD_LIBRARY_PATH``).
"""
import ctypes
import functools
import os

from ._messages import as_estimator_terms

# The API this module was written for: the shared library's soname is libkernelmix.so.MAJOR.MINOR
# before 1.0, and every 0.x minor release may change the ABI.
API_MAJOR, API_MINOR = 0, 2
LIBRARY_NAME = f"libkernelmix.so.{API_MAJOR}.{API_MINOR}"

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))

c_size_p = ctypes.POINTER(ctypes.c_size_t)
c_double_p = ctypes.POINTER(ctypes.c_double)
c_int64_p = ctypes.POINTER(ctypes.c_int64)
c_int32_p = ctypes.POINTER(ctypes.c_int32)
handle = ctypes.c_void_p
handle_p = ctypes.POINTER(ctypes.c_void_p)
status = ctypes.c_int

# The numbers the package asks the library with, as include/kernelmix.h fixes them (stable, never
# renumbered; python/tests/test_library_view.py checks them against the header): success, the km_enum
# ids of the name tables, the km_dtype of wrapped arrays and km_param_bounds' integer flag. Every other
# number (tasks, methods, solvers, ...: through the name tables; status names; which parameters are
# integers) is read from the loaded library below.
KM_OK = 0
ENUM_TASK, ENUM_MULTICLASS, ENUM_MKL_METHOD, ENUM_MKL_SOLVER, ENUM_MKL_REGULARIZER = 1, 2, 3, 4, 5
ENUM_NORMALIZATION = 7
ENUM_SCORE = 11
FLOAT64, FLOAT32 = 1, 2
PARAM_INTEGER = 1


class MachineInfo(ctypes.Structure):
    """km_machine_info (the fields of the first release; size tells the library which ones)."""
    _fields_ = [("size", ctypes.c_size_t), ("objective", ctypes.c_double), ("bias", ctypes.c_double),
                ("n_sv", ctypes.c_size_t), ("iterations", ctypes.c_long), ("converged", ctypes.c_int),
                ("primal", ctypes.c_double), ("gap", ctypes.c_double), ("mkl_iterations", ctypes.c_long),
                ("positive_label", ctypes.c_double), ("negative_label", ctypes.c_double)]


class EvidenceInfo(ctypes.Structure):
    """km_evidence_info: the evidence of an empirical-Bayes model."""
    _fields_ = [("size", ctypes.c_size_t), ("neg_log_evidence", ctypes.c_double), ("noise", ctypes.c_double),
                ("kernels_kept", ctypes.c_size_t)]


class Progress(ctypes.Structure):
    """km_progress (the fields of the first release; size tells which ones the library filled)."""
    _fields_ = [("size", ctypes.c_size_t), ("stage", ctypes.c_char_p), ("machine", ctypes.c_size_t),
                ("n_machines", ctypes.c_size_t), ("mkl_step", ctypes.c_long), ("mkl_gap", ctypes.c_double),
                ("fold", ctypes.c_int), ("n_folds", ctypes.c_int)]


# km_log_fn and km_progress_fn
LOG_FN = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int, ctypes.c_char_p)
PROGRESS_FN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.POINTER(Progress))
# km_cv_options.progress: (user, settings done, their total, the best so far, its mean)
CV_PROGRESS_FN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_size_t, ctypes.c_size_t,
                                  ctypes.c_double)


class CvOptions(ctypes.Structure):
    """km_cv_options (size tells the library which fields are set; cold_starts 0: warm starts along p;
    threads 0: OpenMP's number)."""
    _fields_ = [("size", ctypes.c_size_t), ("folds", ctypes.c_int), ("repeats", ctypes.c_int),
                ("seed", ctypes.c_uint64), ("score", ctypes.c_int), ("validation", ctypes.c_void_p),
                ("nested_folds", ctypes.c_int), ("progress", CV_PROGRESS_FN), ("progress_user", ctypes.c_void_p),
                ("fold_of", ctypes.POINTER(ctypes.c_int)), ("n_fold_of", ctypes.c_size_t),
                ("cold_starts", ctypes.c_int), ("threads", ctypes.c_int)]

# name: (restype, argtypes)
_FUNCTIONS = {
    "km_last_error": (ctypes.c_char_p, []),
    "km_status_name": (ctypes.c_char_p, [status]),
    "km_version": (ctypes.c_char_p, []),
    "km_version_number": (ctypes.c_uint, []),
    "km_enum_name_at": (ctypes.c_char_p, [ctypes.c_int, ctypes.c_size_t, ctypes.POINTER(ctypes.c_int)]),
    "km_enum_value": (status, [ctypes.c_int, ctypes.c_char_p, ctypes.POINTER(ctypes.c_int)]),
    "km_dataset_from_dense": (status, [ctypes.c_size_t, ctypes.c_size_t, c_double_p, c_double_p, handle_p]),
    "km_dataset_from_csr": (status, [ctypes.c_size_t, ctypes.c_size_t, c_int64_p, c_int32_p, c_double_p,
                                     c_double_p, handle_p]),
    "km_dataset_free": (None, [handle]),
    "km_dataset_rows": (ctypes.c_size_t, [handle]),
    "km_matrix_wrap": (status, [ctypes.c_size_t, ctypes.c_size_t, ctypes.c_int, ctypes.c_void_p, handle_p]),
    "km_matrix_free": (None, [handle]),
    "km_matrix_rows": (ctypes.c_size_t, [handle]),
    "km_matrix_cols": (ctypes.c_size_t, [handle]),
    "km_matrix_data": (c_double_p, [handle]),
    "km_kernel_set_new": (status, [handle_p]),
    "km_kernel_set_free": (None, [handle]),
    "km_kernel_set_add_spec": (status, [handle, ctypes.c_char_p]),
    "km_kernel_set_set_dimension": (status, [handle, ctypes.c_size_t]),
    "km_kernel_set_set_default_norm": (status, [handle, ctypes.c_int]),
    "km_kernel_set_add_matrix": (status, [handle, handle, ctypes.c_int, ctypes.c_int]),
    "km_kernel_set_fit": (status, [handle, handle, handle_p]),
    "km_kernel_matrix": (status, [handle, ctypes.c_size_t, handle, handle, handle_p]),
    "km_kernel_set_size": (ctypes.c_size_t, [handle]),
    "km_kernel_set_describe": (ctypes.c_size_t, [handle, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t]),
    "km_kernel_alignment": (status, [ctypes.POINTER(handle), ctypes.c_size_t, ctypes.c_size_t, c_double_p, c_double_p,
                                     c_double_p]),
    "km_params_new": (status, [handle_p]),
    "km_params_free": (None, [handle]),
    "km_params_set_double": (status, [handle, ctypes.c_int, ctypes.c_double]),
    "km_params_set_int": (status, [handle, ctypes.c_int, ctypes.c_int64]),
    "km_params_set_log": (None, [handle, LOG_FN, ctypes.c_void_p]),
    "km_params_set_progress": (None, [handle, PROGRESS_FN, ctypes.c_void_p]),
    "km_param_from_name": (status, [ctypes.c_char_p, ctypes.POINTER(ctypes.c_int)]),
    "km_param_bounds": (status, [ctypes.c_int, c_double_p, c_double_p, ctypes.POINTER(ctypes.c_uint)]),
    "km_params_set_text": (status, [handle, ctypes.c_int, ctypes.c_char_p]),
    "km_params_set_kernel_weights": (status, [handle, c_double_p, ctypes.c_size_t]),
    "km_params_set_class_weights": (status, [handle, c_double_p, c_double_p, ctypes.c_size_t]),
    "km_train": (status, [handle, handle, handle, handle_p]),
    "km_predict": (status, [handle, handle, ctypes.POINTER(handle), c_double_p, c_double_p]),
    "km_model_free": (None, [handle]),
    "km_model_save": (status, [handle, ctypes.c_char_p]),
    "km_model_save_buffer": (status, [handle, ctypes.POINTER(ctypes.c_void_p), c_size_p]),
    "km_model_load_buffer": (status, [ctypes.c_void_p, ctypes.c_size_t, handle_p]),
    "km_free": (None, [ctypes.c_void_p]),
    "km_plot_weights": (status, [handle, ctypes.POINTER(ctypes.c_void_p)]),
    "km_plot_trace": (status, [ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(ctypes.c_void_p)]),
    "km_plot_cv_series": (status, [ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]),
    "km_plot_path": (status, [handle_p, ctypes.c_size_t, ctypes.POINTER(ctypes.c_void_p)]),
    "km_model_task": (ctypes.c_int, [handle]),
    "km_model_n_decision": (ctypes.c_size_t, [handle]),
    "km_model_n_kernels": (ctypes.c_size_t, [handle]),
    "km_model_kernel_describe": (ctypes.c_size_t, [handle, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t]),
    "km_model_n_classes": (ctypes.c_size_t, [handle]),
    "km_model_labels": (c_double_p, [handle]),
    "km_model_n_machines": (ctypes.c_size_t, [handle]),
    "km_model_kernel_weights": (c_double_p, [handle, ctypes.c_size_t]),
    "km_model_weight_groups": (ctypes.c_size_t, [handle]),
    "km_model_n_sv": (ctypes.c_size_t, [handle, ctypes.c_size_t]),
    "km_model_machine_info": (status, [handle, ctypes.c_size_t, ctypes.POINTER(MachineInfo)]),
    "km_model_n_basis": (ctypes.c_size_t, [handle]),
    "km_model_basis_rows": (status, [handle, c_size_p]),
    "km_model_machine_support": (status, [handle, ctypes.c_size_t, c_size_p, c_double_p]),
    "km_model_machine_outputs": (ctypes.c_size_t, [handle, ctypes.c_size_t]),
    "km_model_machine_support_outputs": (status, [handle, ctypes.c_size_t, c_size_p, c_double_p]),
    "km_model_data_values": (c_double_p, [handle, ctypes.c_char_p, ctypes.c_char_p, c_size_p, c_size_p]),
    "km_model_has_probability": (ctypes.c_int, [handle]),
    "km_predict_probability": (status, [handle, handle, ctypes.POINTER(handle), c_double_p, c_double_p]),
    "km_model_sigmoid": (status, [handle, ctypes.c_size_t, c_double_p, c_double_p]),
    "km_model_laplace_sigma": (status, [handle, c_double_p]),
    "km_model_has_variance": (ctypes.c_int, [handle]),
    "km_predict_variance": (status, [handle, handle, c_double_p]),
    "km_grid_new": (status, [handle_p]),
    "km_grid_free": (None, [handle]),
    "km_grid_add": (status, [handle, handle, handle, ctypes.c_char_p]),
    "km_cv_run": (status, [handle, handle, ctypes.POINTER(CvOptions), handle_p]),
    "km_cv_results_free": (None, [handle]),
    "km_cv_n_splits": (ctypes.c_size_t, [handle]),
    "km_cv_scores": (c_double_p, [handle, ctypes.c_size_t]),
    "km_cv_fit_seconds": (ctypes.c_double, [handle, ctypes.c_size_t]),
    "km_cv_mean_sv": (ctypes.c_double, [handle, ctypes.c_size_t]),
    "km_cv_mean_weights": (c_double_p, [handle, ctypes.c_size_t, c_size_p]),
    "km_cv_best": (ctypes.c_size_t, [handle]),
    # the experimental tier of kernelmix.h (KM_EXPERIMENTAL_API): may change between minor versions,
    # which the package pins (API_MINOR)
    "km_model_target_alignment": (c_double_p, [handle]),
    "km_model_evidence": (status, [handle, ctypes.c_size_t, ctypes.POINTER(EvidenceInfo)]),
}


class KernelmixError(RuntimeError):
    """A libkernelmix call failed for a reason that is not the caller's input (memory, I/O)."""


def _candidates():
    env = os.environ.get("KERNELMIX_LIBRARY")
    if env:
        yield env
        return
    yield os.path.join(_PACKAGE_DIR, LIBRARY_NAME)
    try:
        from . import _install_paths
        yield os.path.normpath(os.path.join(_PACKAGE_DIR, _install_paths.LIBRARY_DIR, LIBRARY_NAME))
    except ImportError:
        pass
    yield os.path.normpath(os.path.join(_PACKAGE_DIR, "..", "..", "build", LIBRARY_NAME))
    yield LIBRARY_NAME


def _load():
    tried = []
    for path in _candidates():
        if os.sep in path and not os.path.exists(path):
            tried.append(path)
            continue
        try:
            lib = ctypes.CDLL(path)
        except OSError as e:
            tried.append(f"{path} ({e})")
            continue
        for name, (restype, argtypes) in _FUNCTIONS.items():
            fn = getattr(lib, name)
            fn.restype, fn.argtypes = restype, argtypes
        return lib, path
    raise ImportError(f"kernelmix: {LIBRARY_NAME} not found (tried: {'; '.join(tried)}); build it with CMake, "
                      f"install it, or set KERNELMIX_LIBRARY to its path")


lib, path = _load()
_number = lib.km_version_number()
if (_number // 10000, _number // 100 % 100) != (API_MAJOR, API_MINOR):
    raise ImportError(f"kernelmix: {path} is version {lib.km_version().decode()}, the package needs "
                      f"{API_MAJOR}.{API_MINOR}.x")


def last_error():
    """The library's message of the last failed call, in the estimators' terms (no CLI options)."""
    return as_estimator_terms(lib.km_last_error().decode("utf-8", "replace"))


def status_name(st):
    """The library's name of a status code ("KM_EINVAL")."""
    return lib.km_status_name(st).decode()


def check(st):
    """Raises for a failed call: ValueError for bad input (KM_EINVAL, KM_EFORMAT), else KernelmixError."""
    if st == KM_OK:
        return
    name = status_name(st)
    message = last_error() or name
    if name in ("KM_EINVAL", "KM_EFORMAT"):
        raise ValueError(message)
    if name == "KM_ENOMEM":
        raise MemoryError(message)
    raise KernelmixError(f"{name}: {message}")


def enum_names(e):
    """The canonical names of an enumeration, in the library's order."""
    names, i = [], 0
    while True:
        name = lib.km_enum_name_at(e, i, None)
        if name is None:
            return names
        names.append(name.decode())
        i += 1


def enum_value(e, name, what):
    """The value of the name of enumeration e; a ValueError naming the parameter what otherwise."""
    value = ctypes.c_int()
    if not isinstance(name, str):
        raise ValueError(f"{what}={name!r}: give one of {', '.join(enum_names(e))}")
    if lib.km_enum_value(e, name.encode(), ctypes.byref(value)) != KM_OK:
        raise ValueError(f"{what}={name!r}: {last_error()}")
    return value.value


@functools.lru_cache(maxsize=None)
def param_id(name):
    value = ctypes.c_int()
    check(lib.km_param_from_name(name.encode(), ctypes.byref(value)))
    return value.value


@functools.lru_cache(maxsize=None)
def param_is_integer(name):
    """Whether the library's parameter name is an integer or enumeration (km_param_bounds'
    KM_PARAM_INTEGER flag): set with km_params_set_int, else km_params_set_double."""
    flags = ctypes.c_uint()
    check(lib.km_param_bounds(param_id(name), None, None, ctypes.byref(flags)))
    return bool(flags.value & PARAM_INTEGER)


def describe(fn, obj, m):
    size = fn(obj, m, None, 0)
    buf = ctypes.create_string_buffer(size + 1)
    fn(obj, m, buf, size + 1)
    return buf.value.decode()


# The tasks the estimators train, by their names in the library's table.
TASK_SVC, TASK_SVR, TASK_ONECLASS, TASK_KRR = (enum_value(ENUM_TASK, name, "task")
                                               for name in ("svc", "svr", "oneclass", "krr"))
