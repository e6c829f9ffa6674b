"""The workload table. A workload names its data (a preparation script and, for each problem it
runs, the script's arguments) and the tools that run on it; adding one is adding a row to WORKLOADS."""

from dataclasses import dataclass
from typing import Callable, List, Optional, Tuple


@dataclass(frozen=True)
class Workload:
    key: str                      # what --workloads selects
    name: str                     # results file stem: bench/results/<name>.csv
    title: str
    tools: Tuple[str, ...]        # kernelmix first, then its peers (keys of TOOLS in run)
    data_script: str              # preparation script in bench/, prints the problem's meta as JSON
    cases: Callable[[object], List[List[str]]]   # options -> the script's arguments, one list per problem
    phase: str = "train"          # what the timed first command does: "train" or "kernel" (no prediction)
    reference: str = "kernelmix"  # the tool whose time and memory the ratios divide by each peer's
    references: Tuple[Tuple[str, str], ...] = ()   # (peer, kernelmix row): peers whose ratios divide
                                                   # another row's, the one that runs their job (a
                                                   # kernelmix row listed as peer gets ratios too)
    cache_mb: Optional[float] = None   # kernel cache of every tool (-m), instead of the option's
    gram: bool = False            # also measure dgemm and kernelmix's Gram product (gram.py)
    busy: int = 0                 # competing busy processes (one core each) running through every repeat

    def reference_of(self, tool):
        """The kernelmix row whose time and memory the ratios of the peer `tool` divide."""
        return dict(self.references).get(tool, self.reference)


def fashion(widths="0", width_count=None, n=None, precomputed=False, kernel_files=False, task=None,
            default_sizes=(2000,)):
    """Cases of fashion_mnist.py: one per --sizes value (default_sizes without it; or the fixed n),
    or with width_count='M' one per --kernel-counts value. task: a fixed task instead of
    --fashion-task."""
    def arguments(options, size, count):
        args = ["--n", str(size), "--test-size", str(options.test_size), "--seed", str(options.seed),
                "--task", task or options.fashion_task, "--widths=" + widths]
        if count is not None:
            args += ["--width-count", str(count)]
        return args + ["--precomputed"] * precomputed + ["--kernel-files"] * kernel_files

    def cases(options):
        if width_count == "M":
            return [arguments(options, n, m) for m in options.kernel_counts]
        sizes = [n] if n else options.sizes or default_sizes
        return [arguments(options, size, width_count) for size in sizes]
    return cases


def fashion_blocks(options):
    """Cases of fashion_mnist_blocks.py: one per --sizes value (default 5,000)."""
    return [["--n", str(n), "--test-size", str(options.test_size), "--seed", str(options.seed)]
            for n in options.sizes or (5000,)]


WORKLOADS = [
    Workload(key="a", name="fashion-rbf",
             title="fashion-MNIST, one RBF kernel (gamma0 = 1/mean ||x-x'||^2), C-SVC",
             tools=("kernelmix", "libsvm"), data_script="fashion_mnist.py", cases=fashion()),
    Workload(key="a-mkl", name="fashion-rbf10",
             title="fashion-MNIST, 10 RBF kernels gamma0 * 2^k (k = -5..4), C-SVC; peers use their uniform sum",
             tools=("kernelmix", "libsvm-precomputed", "sklearn-precomputed"),
             data_script="fashion_mnist.py", cases=fashion("-5..4", precomputed=True)),
    Workload(key="a-lp", name="fashion-rbf10-lp",
             title="fashion-MNIST, lp-norm MKL (p = 4/3) over 10 RBF kernels gamma0 * 2^k (k = -5..4), C-SVC, "
                   "against LIBSVM and kernelmix with the single kernel gamma0",
             tools=("kernelmix-mkl", "libsvm-single", "kernelmix-single"), data_script="fashion_mnist.py",
             cases=fashion("-5..4"), reference="kernelmix-mkl",
             references=(("kernelmix-single", "kernelmix-mkl"),)),
    Workload(key="a-lp-busy", name="fashion-rbf10-lp-busy",
             title="as a-lp (N default 5,000) with one competing busy process on the machine: lp-norm MKL with the "
                   "default threads against the same with one thread",
             tools=("kernelmix-mkl", "kernelmix-mkl-1thread"), data_script="fashion_mnist.py",
             cases=fashion("-5..4", default_sizes=(5000,)), reference="kernelmix-mkl",
             references=(("kernelmix-mkl-1thread", "kernelmix-mkl"),), busy=1),
    Workload(key="b", name="digits-rbf50",
             title="digits odd vs even (1,000 train / 797 test), 50 RBF kernels 2 sigma^2 = 1.2^k (k = 0..49), "
                   "C-SVC; peers use their uniform sum",
             tools=("kernelmix", "libsvm-precomputed", "sklearn-precomputed"),
             data_script="digits.py", cases=lambda options: [["--precomputed"]]),
    Workload(key="c", name="fashion-m-scaling",
             title="fashion-MNIST N = 1,000, M precomputed RBF kernels (float32 files) gamma0 * 2^k, "
                   "k evenly spaced in [-5, 4], C-SVC; peers use their uniform sum",
             tools=("kernelmix", "kernelmix-mkl", "libsvm-precomputed", "sklearn-precomputed"),
             data_script="fashion_mnist.py",
             cases=fashion("-5..4", width_count="M", n=1000, precomputed=True, kernel_files=True)),
    Workload(key="d", name="fashion-kernel",
             title="fashion-MNIST, training kernel matrix of one RBF width alone, written as a float64 KMMATRIX file",
             tools=("kernelmix-kernel", "sklearn-kernel"), data_script="fashion_mnist.py", cases=fashion(),
             phase="kernel", gram=True),
    Workload(key="e", name="fashion-memory",
             title="fashion-MNIST even vs odd class, lp-norm MKL (p = 4/3) over 50 RBF kernels gamma0 * 2^k, "
                   "k evenly spaced in [-5, 4], C-SVC with a 1,000 MiB kernel cache (-m 1000), against LIBSVM "
                   "with the single kernel gamma0 and the same -m",
             tools=("kernelmix-mkl", "libsvm-single"), data_script="fashion_mnist.py",
             cases=fashion("-5..4", width_count=50, task="even-odd", default_sizes=(20000,)),
             reference="kernelmix-mkl", cache_mb=1000.0),
    Workload(key="mc", name="fashion-rbf10-lp-10class",
             title="fashion-MNIST, all 10 classes (N default 10,000), lp-norm MKL (p = 4/3) over 10 RBF kernels "
                   "gamma0 * 2^k (k = -5..4), one-vs-one: the default kernel cache against -m 2000",
             tools=("kernelmix-mkl", "kernelmix-mkl-m2000"), data_script="fashion_mnist.py",
             cases=fashion("-5..4", task="ten-class", default_sizes=(10000,)), reference="kernelmix-mkl",
             references=(("kernelmix-mkl-m2000", "kernelmix-mkl"),)),
    Workload(key="lowrank", name="fashion-rbf10-lp-lowrank",
             title="fashion-MNIST T-shirt/shirt (N default 12,000: every training row of the two classes), lp-norm "
                   "MKL (p = 4/3, --no-bias) over 10 RBF kernels gamma0 * 2^k (k = -5..4): the exact kernels "
                   "(SMO) against their Nystrom approximations on 1,000 and 2,000 landmarks (coordinate descent on "
                   "the features, -m 4000 for all)",
             tools=("kernelmix-mkl-nobias", "kernelmix-rank1000", "kernelmix-rank2000"), data_script="fashion_mnist.py",
             cases=fashion("-5..4", task="tshirt-shirt", default_sizes=(12000,)), reference="kernelmix-mkl-nobias",
             references=(("kernelmix-rank1000", "kernelmix-mkl-nobias"), ("kernelmix-rank2000", "kernelmix-mkl-nobias")),
             cache_mb=4000.0),
    Workload(key="shared", name="fashion-rbf10-lp-shared",
             title="fashion-MNIST, all 10 classes (N default 2,000), lp-norm MKL (p = 4/3) over 10 RBF kernels "
                   "gamma0 * 2^k (k = -5..4), one-vs-one: one set of weights for the 45 machines "
                   "(--shared-weights) against a set per machine",
             tools=("kernelmix-mkl-shared", "kernelmix-mkl"), data_script="fashion_mnist.py",
             cases=fashion("-5..4", task="ten-class"), reference="kernelmix-mkl-shared",
             references=(("kernelmix-mkl", "kernelmix-mkl-shared"),)),
    Workload(key="shared-digits", name="digits-rbf16-lp-shared",
             title="digits, all 10 classes (1,000 train / 797 test), lp-norm MKL (p = 4/3) over 16 RBF kernels "
                   "gamma = 2^-k (k = 0..15), one-vs-one: one set of weights for the 45 machines "
                   "(--shared-weights) against a set per machine",
             tools=("kernelmix-mkl-shared", "kernelmix-mkl"), data_script="digits.py",
             cases=lambda options: [["--task", "ten-class", "--base", "2", "--count", "16"]],
             reference="kernelmix-mkl-shared", references=(("kernelmix-mkl", "kernelmix-mkl-shared"),)),
    Workload(key="py", name="digits-rbf50-python",
             title="digits odd vs even (1,000 train / 797 test), 50 RBF kernels 2 sigma^2 = 1.2^k, C-SVC: the Python "
                   "package on the CLI's jobs (uniform sum and lp-norm MKL p = 4/3) beside scikit-learn on the "
                   "uniform sum and MKLpy (when MKLPY_PATH names a snapshot)",
             tools=("kernelmix", "python-kernelmix", "kernelmix-mkl", "python-kernelmix-mkl", "sklearn-precomputed",
                    "mklpy-average", "mklpy-easymkl", "mklpy-gram"),
             data_script="digits.py", cases=lambda options: [[]],
             references=(("python-kernelmix-mkl", "kernelmix-mkl"),)),
    Workload(key="wd", name="wd-kernel",
             title="random DNA sequences of length 60, training kernel matrix of the weighted-degree kernel of "
                   "degree 20 alone (N^2 kernel values; the rate is N^2 / time)",
             tools=("kernelmix-wd",), data_script="sequences.py",
             cases=lambda options: [["--n", str(n), "--seed", str(options.seed)] for n in options.sizes or (2000,)],
             phase="kernel"),
    Workload(key="eb", name="fashion-eb-bank1760",
             title="fashion-MNIST T-shirt vs shirt, the 1760-kernel histogram bank of examples/eb-kernel-bank, "
                   "kernel ridge regression on +1/-1: EB-MK (eb-mackay, learned noise) and the elastic net "
                   "(tikhonov, lambda = 0.5)",
             tools=("kernelmix-eb-mackay", "kernelmix-elasticnet-krr"), data_script="eb_bank.py",
             cases=lambda options: [["--n", str(n), "--test-size", str(options.test_size), "--seed",
                                     str(options.seed)] for n in options.sizes or (50, 500)],
             reference="kernelmix-eb-mackay", references=(("kernelmix-elasticnet-krr", "kernelmix-eb-mackay"),)),
    Workload(key="obscure", name="fashion-obscure",
             title="fashion-MNIST, 10 classes (t10k test images), 12 kernels = 4 blocks of 14x14 x {linear, "
                   "quadratic, RBF}: OBSCURE (p-block 1.1), one online and one stochastic epoch",
             tools=("kernelmix-obscure",), data_script="fashion_mnist_blocks.py",
             cases=fashion_blocks,
             reference="kernelmix-obscure"),
    Workload(key="obscure-lp", name="fashion-obscure-lp",
             title="fashion-MNIST, 10 classes, the 12 kernels of workload obscure: OBSCURE's online stage "
                   "(p-block 1.1) beside lp-norm MKL one-vs-rest at the same p (11/9, interleaved)",
             tools=("kernelmix-obscure-online", "kernelmix-lp-ovr"), data_script="fashion_mnist_blocks.py",
             cases=fashion_blocks,
             reference="kernelmix-obscure-online"),
    Workload(key="alignf", name="fashion-alignf1000",
             title="fashion-MNIST, alignf over 1,000 RBF kernels gamma0 * 2^k, k evenly spaced in [-5, 4]: the "
                   "1,000 x 1,000 centred Frobenius products of the kernels, the exact NNLS and the C-SVC on the "
                   "combination (time, memory)",
             tools=("kernelmix-alignf",), data_script="fashion_mnist.py",
             cases=fashion("-5..4", width_count=1000, default_sizes=(500,)),
             reference="kernelmix-alignf"),
    Workload(key="rank1", name="bow-rank1",
             title="synthetic bag of words (bench/bag_of_words.py), align on one rank-1 kernel per word, C-SVC: "
                   "2N rank-1 kernels (never N x N matrices) beside 200 of them as rank-1 kernels and as the "
                   "same kernels computed as N x N ones (linear on one feature, center=1:norm=trace): time, memory",
             tools=("kernelmix-rank1", "kernelmix-rank1-small", "kernelmix-dense-small"),
             data_script="bag_of_words.py",
             cases=lambda options: [["--n", str(n), "--test-size", str(options.test_size), "--seed",
                                     str(options.seed), "--dim", str(2 * n)]   # M = 2N words: 4,000 at N = 2,000
                                    for n in options.sizes or (2000,)],
             reference="kernelmix-rank1",
             references=(("kernelmix-dense-small", "kernelmix-rank1-small"),)),
    Workload(key="loc", name="localized-400",
             title="synthetic localized relevance (examples/clmkl-localized), 8 linear kernels, C-SVC: training "
                   "time of localized MKL (clmkl, p = 4/3, AE = 0.4, 3 clusters on z) beside global lp-norm MKL "
                   "(p = 4/3) and gated LMKL (gating on z)",
             tools=("kernelmix-clmkl", "kernelmix-mkl", "kernelmix-lmkl"), data_script="localized.py",
             cases=lambda options: [["--n", str(size), "--test-size", str(options.test_size), "--seed",
                                     str(options.seed)] for size in (options.sizes or [400])],
             reference="kernelmix-clmkl"),
    Workload(key="loc-dna", name="dna-splice-800",
             title="DNA splice junctions (r-cran-mlbench DNA, junction vs rest), 20 positional string kernels of "
                   "degrees 1..20: training time of localized MKL (clmkl, p = 4/3, AE = 0.4, 3 clusters on the mean "
                   "kernel) beside global lp-norm MKL (p = 4/3) and gated LMKL (gating on the mean kernel)",
             tools=("kernelmix-clmkl-dna", "kernelmix-mkl", "kernelmix-lmkl-dna"), data_script="dna_splice.py",
             cases=lambda options: [["--n", str(size), "--test-size", str(min(options.test_size, 2124))]
                                    for size in (options.sizes or [800])],
             reference="kernelmix-clmkl-dna"),
    Workload(key="ranks", name="synthetic-ranks",
             title="synthetic XOR rows (bench/synthetic_rows.py, 30 features, Bayes error 0.1; N default 200,000), "
                   "4 RBF kernels of rank 300: KRR (normal equations), C-SVC without bias (coordinate descent) "
                   "and C-SVC with bias (coordinate descent and the search for the bias), one process against "
                   "data-parallel training over two ranks (mpirun -n 2; peak memory: the largest rank's), -m 4000",
             tools=("kernelmix-krr", "kernelmix-krr-mpi2", "kernelmix-nobias", "kernelmix-nobias-mpi2", "kernelmix-svc",
                    "kernelmix-svc-mpi2"),
             data_script="synthetic_rows.py",
             cases=lambda options: [["--n", str(n), "--test-size", str(options.test_size), "--seed", str(options.seed)]
                                    for n in options.sizes or (200000,)],
             reference="kernelmix-krr",
             references=(("kernelmix-krr-mpi2", "kernelmix-krr"), ("kernelmix-nobias-mpi2", "kernelmix-nobias"),
                         ("kernelmix-svc-mpi2", "kernelmix-svc")),
             cache_mb=4000.0),
    Workload(key="ranks-1m", name="synthetic-ranks-1m",
             title="synthetic XOR rows as workload ranks, N default 1,000,000: KRR on the 4 RBF kernels of rank "
                   "300, one process against mpirun -n 2 (the features alone are 9.6 GB), -m 12000",
             tools=("kernelmix-krr", "kernelmix-krr-mpi2"), data_script="synthetic_rows.py",
             cases=lambda options: [["--n", str(n), "--test-size", str(options.test_size), "--seed", str(options.seed)]
                                    for n in options.sizes or (1000000,)],
             reference="kernelmix-krr", references=(("kernelmix-krr-mpi2", "kernelmix-krr"),), cache_mb=12000.0),
]

# what bench/run runs without --workloads (e takes tens of minutes and is never among them)
DEFAULT_WORKLOADS = "a"


def select(keys):
    """Workloads for a comma-separated list of keys, in the given order."""
    by_key = {w.key: w for w in WORKLOADS}
    unknown = [k for k in keys.split(",") if k not in by_key]
    if unknown:
        raise ValueError("unknown workload %s (known: %s)" % (", ".join(unknown), ", ".join(by_key)))
    return [by_key[k] for k in keys.split(",")]
