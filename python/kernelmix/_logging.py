"""Training's progress and the library's messages through the standard logging module (logger
"kernelmix"), for the estimators' verbose= parameter: the library never prints, it calls back."""
import ctypes
import logging
import numbers

from . import _library as L

logger = logging.getLogger("kernelmix")

# km_log_level: error, warning, info, debug
_LEVELS = {0: logging.ERROR, 1: logging.WARNING, 2: logging.DEBUG, 3: logging.DEBUG}


def _describe(progress):
    """What a progress report says, and the level it is logged at (None: not logged)."""
    fold = f"fold {progress.fold}/{progress.n_folds}, " if progress.fold else ""
    stage = progress.stage.decode()
    if stage == "kernels":
        return logging.INFO, f"{fold}fitting the kernels"
    if stage not in ("start", "mkl", "fold"):
        return None, ""
    if stage == "fold":
        return logging.INFO, f"fold {progress.fold}/{progress.n_folds} done"
    machine = (f"machine {progress.machine}/{progress.n_machines}" if progress.machine
               else f"{progress.n_machines} machines jointly")
    if stage == "start":
        return logging.INFO, f"{fold}{machine}"
    return logging.DEBUG, f"{fold}{machine}: MKL step {progress.mkl_step}, gap {progress.mkl_gap:.2e}"


def log_training(params, verbose):
    """Sets the log and progress callbacks of a Params for verbose >= 1 (verbose 1: INFO and WARNING
    records; 2: DEBUG records too, which the logger's level decides to keep); they live as long as it."""
    if not isinstance(verbose, numbers.Integral) or verbose < 0:
        raise ValueError(f"verbose={verbose!r}: give 0 (silent), 1 (stages and warnings) or 2 (solver details too)")
    if not verbose:
        return

    def log(user, level, message):
        level = _LEVELS.get(level, logging.DEBUG)
        if level >= logging.WARNING or verbose >= 2:
            logger.log(level, "%s", message.decode(errors="replace"))

    def progress(user, report):
        level, text = _describe(report.contents)
        if level is not None and (level >= logging.INFO or verbose >= 2):
            logger.log(level, "%s", text)
        return 0

    params.callbacks = (L.LOG_FN(log), L.PROGRESS_FN(progress))
    L.lib.km_params_set_log(params.handle, params.callbacks[0], None)
    L.lib.km_params_set_progress(params.handle, params.callbacks[1], None)
