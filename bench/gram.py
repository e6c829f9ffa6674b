"""The Gram product's throughput: the machine's dgemm (dgemm.c, built against the OpenBLAS kernelmix
links) beside kernelmix's own Gram product, both on the shape N x d times d x N of the training rows.

Flops are counted as 2 N^2 d, the full product as dgemm computes it. kernelmix's Gram time is what
`kernelmix kernel -v --kernel linear` prints: its dgemm of the rows with themselves plus building the
feature views and copying the block (reading the data and writing the matrix excluded). A dsyrk (what
training uses for a full Gram matrix) does half the work, N^2 d; under this count its rate can exceed
dgemm's."""

import os
import re
import shutil
import statistics
import subprocess
from dataclasses import dataclass
from typing import List, Optional

from tools import BENCH_DIR

SOURCE = os.path.join(BENCH_DIR, "dgemm.c")
KERNELMIX_LINE = re.compile(r"^kernel 1: (\d+) x (\d+) matrix computed in ([0-9.]+) s$", re.MULTILINE)
DGEMM_LINE = re.compile(r"^n (\d+) d (\d+) flops (\d+) seconds ([0-9.]+) gflops ([0-9.]+)$")


def openblas_flags():
    """Compiler and linker flags of OpenBLAS from pkg-config (the library kernelmix's CMake build
    links), or plain -lopenblas where pkg-config does not know it."""
    if shutil.which("pkg-config"):
        done = subprocess.run(["pkg-config", "--cflags", "--libs", "openblas"], capture_output=True, text=True)
        if done.returncode == 0:
            return done.stdout.split()
    return ["-lopenblas"]


def build_command(program):
    return ["cc", "-O2", "-std=c11", SOURCE, "-o", program, *openblas_flags()]


def build(program):
    """Compiles dgemm.c to program; RuntimeError with the compiler's message when it fails."""
    command = build_command(program)
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError("building the dgemm program failed: %s\n%s" % (" ".join(command), done.stderr.strip()))


def build_if_stale(program):
    """Builds program unless it exists and is newer than dgemm.c."""
    if not os.path.exists(program) or os.path.getmtime(program) < os.path.getmtime(SOURCE):
        build(program)


def flops(n, d):
    return 2.0 * n * n * d


def dgemm_command(program, n, d):
    """One warm-up call and one timed call of dgemm on the Gram shape."""
    return [program, str(n), str(d), "1"]


def kernelmix_command(binary, train, output):
    return [binary, "kernel", "-v", "--kernel", "linear", train, output]


def parse_dgemm(text):
    """GFLOP/s printed by the dgemm program, or None."""
    match = DGEMM_LINE.search(text.strip())
    return float(match.group(5)) if match else None


def parse_kernelmix(text, n):
    """Seconds of the n x n matrix printed by kernelmix kernel -v, or None."""
    match = KERNELMIX_LINE.search(text)
    return float(match.group(3)) if match and int(match.group(1)) == n and int(match.group(2)) == n else None


@dataclass
class GramRuns:
    n: int
    d: int
    dgemm_gflops: List[float]
    gram_s: List[float]
    status: str = "ok"          # why kernelmix's figure is missing otherwise

    @property
    def dgemm_median(self) -> Optional[float]:
        return statistics.median(self.dgemm_gflops) if self.dgemm_gflops else None

    @property
    def gram_gflops(self) -> Optional[float]:
        return flops(self.n, self.d) / statistics.median(self.gram_s) / 1e9 if self.gram_s else None

    @property
    def percent(self) -> Optional[float]:
        mine, machine = self.gram_gflops, self.dgemm_median
        return 100.0 * mine / machine if mine is not None and machine else None


def _output_of(command, log):
    """(stdout text, return code) of one run, stdout and stderr also appended to log."""
    done = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True, text=True)
    with open(log, "a") as f:
        f.write("$ %s\n%s%s" % (" ".join(command), done.stdout, done.stderr))
    return done.stdout, done.returncode


def measure(program, kernelmix, problem, work_dir, repeats):
    """repeats turns of kernelmix's Gram product (none when kernelmix is None) and dgemm, alternating."""
    n, d = problem["n_train"], problem["dim"]
    runs = GramRuns(n=n, d=d, dgemm_gflops=[], gram_s=[], status="ok" if kernelmix else "not run (--peer-only)")
    log = os.path.join(work_dir, "gram.log")
    output = os.path.join(work_dir, "linear.kernel.bin")
    for _ in range(repeats):
        if kernelmix is not None and runs.status == "ok":
            text, code = _output_of(kernelmix_command(kernelmix, problem["train"], output), log)
            seconds = parse_kernelmix(text, n)
            if code != 0 or seconds is None:
                runs.status = "kernelmix kernel -v failed or printed no timing (see %s)" % log
            else:
                runs.gram_s.append(seconds)
        text, code = _output_of(dgemm_command(program, n, d), log)
        gflops = parse_dgemm(text)
        if code != 0 or gflops is None:
            raise RuntimeError("the dgemm program failed (see %s)" % log)
        runs.dgemm_gflops.append(gflops)
    if os.path.exists(output):
        os.remove(output)
    return runs


def csv_fields(runs):
    """Columns of the kernelmix row of the workload's CSV."""
    return {"dgemm_gflops": runs.dgemm_median, "gram_s": statistics.median(runs.gram_s) if runs.gram_s else None,
            "gram_gflops": runs.gram_gflops, "gram_percent_of_dgemm": runs.percent}


def table(all_runs):
    """Markdown lines: one row per problem, and how the figures are counted."""
    lines = ["| N | d | flops 2 N^2 d | dgemm GFLOP/s | kernelmix Gram s | kernelmix Gram GFLOP/s | % of dgemm |",
             "|---|---|---|---|---|---|---|"]
    for r in all_runs:
        gram_s = "%.4f" % statistics.median(r.gram_s) if r.gram_s else r.status
        lines.append("| %d | %d | %.3g | %.1f | %s | %s | %s |" % (
            r.n, r.d, flops(r.n, r.d), r.dgemm_median, gram_s,
            "%.1f" % r.gram_gflops if r.gram_gflops is not None else "",
            "%.0f %%" % r.percent if r.percent is not None else ""))
    return lines + [
        "",
        "Gram product X X^T of the N training rows (d features): flops counted as 2 N^2 d, the full product "
        "as dgemm computes it. dgemm: bench/dgemm.c on random N x d values with the OpenBLAS kernelmix links, "
        "median over the repeats (one warm-up call each). kernelmix: `kernelmix kernel -v --kernel linear`, "
        "its dgemm of the rows plus building the feature views and copying the block (reading and writing "
        "excluded), median over the repeats. Training with a full Gram matrix uses dsyrk, which does half "
        "the work (N^2 d); counted as 2 N^2 d its rate can exceed dgemm's.",
    ]
