"""Description of the machine and software a benchmark ran on, for bench/results/latest.md.
Libraries are queried in child processes so the harness itself stays small (see measure.py)."""

import datetime
import os
import platform
import subprocess

OPENBLAS_CONFIG = ("import ctypes, ctypes.util; lib = ctypes.CDLL(ctypes.util.find_library('openblas'));"
                   "lib.openblas_get_config.restype = ctypes.c_char_p; print(lib.openblas_get_config().decode())")
PYTHON_VERSIONS = "import numpy, sklearn; print('numpy %s, scikit-learn %s' % (numpy.__version__, sklearn.__version__))"


def _output(command):
    """First line of a command's standard output, or '' when it fails."""
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    except OSError:
        return ""
    lines = done.stdout.strip().splitlines()
    return lines[0].strip() if done.returncode == 0 and lines else ""


def _cpuinfo():
    """(CPU model, physical cores) from /proc/cpuinfo."""
    model, cores, physical, core = "unknown", set(), None, None
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                key, _, value = (part.strip() for part in line.partition(":"))
                if key == "model name":
                    model = value
                elif key == "physical id":
                    physical = value
                elif key == "core id":
                    core = value
                elif not key and core is not None:
                    cores.add((physical, core))
                    core = None
    except OSError:
        pass
    if core is not None:
        cores.add((physical, core))
    return model, len(cores) or None


def _memory_gib():
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    return int(line.split()[1]) / 2 ** 20
    except OSError:
        pass
    return None


def _package_version(package):
    return _output(["dpkg-query", "-W", "-f", "${Version}", package]) or "not installed"


def describe(python, kernelmix, repository):
    """Ordered (field, value) pairs."""
    model, physical = _cpuinfo()
    memory = _memory_gib()
    threads = ", ".join("%s=%s" % (name, os.environ[name])
                        for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS") if name in os.environ)
    return [
        ("date", datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")),
        ("CPU", model),
        ("cores", "%s logical, %s physical" % (os.cpu_count(), physical or "unknown")),
        ("memory", "%.1f GiB" % memory if memory else "unknown"),
        ("system", platform.platform()),
        ("OpenBLAS", _output([python, "-c", OPENBLAS_CONFIG]) or
         "libopenblas0 " + _package_version("libopenblas0")),
        ("threads", threads or "OMP_NUM_THREADS and OPENBLAS_NUM_THREADS unset (libraries' defaults)"),
        ("kernelmix", "%s (repository at commit %s)" % (
            _output([kernelmix, "--version"]) or "not run",
            _output(["git", "-C", repository, "rev-parse", "--short", "HEAD"]) or "unknown")),
        ("LIBSVM", "libsvm-tools " + _package_version("libsvm-tools")),
        ("Python peers", _output([python, "-c", PYTHON_VERSIONS]) or "numpy/scikit-learn not importable"),
    ]
