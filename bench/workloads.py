"""The workload table. A workload names its data (a preparation script and its arguments for a
training size) and the tools that run on it; adding one is adding a row to WORKLOADS."""

import os
from dataclasses import dataclass
from typing import Callable, Optional, Tuple

BENCH_DIR = os.path.dirname(os.path.abspath(__file__))


@dataclass(frozen=True)
class Workload:
    key: str                      # what --workloads selects
    name: str                     # results file stem: bench/results/<name>.csv
    title: str
    tools: Tuple[str, ...]        # kernelmix first, then its peers (names in tools.py)
    data_script: str              # preparation script in bench/, prints the problem's meta as JSON
    data_args: Callable[[int, object], list]   # (training size, options) -> script arguments
    fixed_size: Optional[int] = None           # training size when the data fixes it (--sizes ignored)


def fashion_args(widths, precomputed):
    def arguments(n, options):
        args = ["--n", str(n), "--test-size", str(options.test_size), "--seed", str(options.seed),
                "--task", options.fashion_task, "--widths=" + widths]
        return args + (["--precomputed"] if precomputed else [])
    return arguments


WORKLOADS = [
    Workload(key="a", name="fashion-rbf",
             title="fashion-MNIST, one RBF kernel (gamma0 = 1/mean ||x-x'||^2), C-SVC",
             tools=("kernelmix", "libsvm"),
             data_script="fashion_mnist.py", data_args=fashion_args("0", precomputed=False)),
    Workload(key="a-mkl", name="fashion-rbf10",
             title="fashion-MNIST, 10 RBF kernels gamma0 * 2^k (k = -5..4), C-SVC; peers use their uniform sum",
             tools=("kernelmix", "libsvm-precomputed", "sklearn-precomputed"),
             data_script="fashion_mnist.py", data_args=fashion_args("-5..4", precomputed=True)),
    Workload(key="b", name="digits-rbf50",
             title="digits odd vs even (1,000 train / 797 test), 50 RBF kernels 2 sigma^2 = 1.2^k (k = 0..49), "
                   "C-SVC; peers use their uniform sum",
             tools=("kernelmix", "libsvm-precomputed", "sklearn-precomputed"),
             data_script="digits.py", data_args=lambda n, options: ["--precomputed"], fixed_size=1000),
]


def select(keys):
    """Workloads for a comma-separated list of keys, in the given order."""
    by_key = {w.key: w for w in WORKLOADS}
    unknown = [k for k in keys.split(",") if k not in by_key]
    if unknown:
        raise ValueError("unknown workload %s (known: %s)" % (", ".join(unknown), ", ".join(by_key)))
    return [by_key[k] for k in keys.split(",")]
