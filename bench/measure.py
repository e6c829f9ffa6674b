"""Runs one command as a child process and measures its wall time, CPU time (user + system, all its
threads) and peak resident memory.

Peak memory is the child's ru_maxrss from os.wait4. On Linux the kernel also folds the resident size
of the process that started the child into that value (the fork/vfork copy is the child's memory
until exec), so a child that stays below the launcher's size reads as the launcher's size: the
harness keeps its own process small (no numpy) and records that floor with floor_kib()."""

import os
import subprocess
import time
from dataclasses import dataclass


@dataclass
class Measurement:
    wall_s: float
    cpu_s: float
    peak_rss_kib: int
    returncode: int


def run_measured(command, log_path, env=None):
    """Runs command (a list) with stdout and stderr appended to log_path."""
    with open(log_path, "ab") as log:
        log.write(("$ " + " ".join(command) + "\n").encode())
        log.flush()
        start = time.perf_counter()
        child = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log, stderr=log, env=env)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    return Measurement(wall_s=wall, cpu_s=usage.ru_utime + usage.ru_stime, peak_rss_kib=usage.ru_maxrss,
                       returncode=child.returncode)


def floor_kib(log_path):
    """Peak memory reported for a child that does nothing (/bin/true): the smallest value the
    harness can report."""
    return run_measured(["true"], log_path).peak_rss_kib
