"""The tools a workload compares: each turns a prepared problem (see problem_files.py) into a train
command line (for kernel-only workloads: the kernel computation) and a predict command line (None
when there is nothing to predict). kernelmix is measured; the others are its peers."""

import os
import shutil
from dataclasses import dataclass

BENCH_DIR = os.path.dirname(os.path.abspath(__file__))

# lp-norm MKL as the benchmarks run it: p = 4/3, the default solver (interleaved) and stopping gap (1e-3)
MKL_LP = ("--mkl", "lp", "--p", "4/3")
# the same, one set of weights shared by all the machines of a multiclass problem
MKL_LP_SHARED = MKL_LP + ("--shared-weights",)
# data-parallel training on this machine's two cores (docs/large-scale.md)
MPIRUN_2 = ("mpirun", "--allow-run-as-root", "-n", "2")
MKL_LP_NO_BIAS = MKL_LP + ("--no-bias",)   # C-SVC without bias: on low-rank kernels, coordinate descent
# OBSCURE at block norm 1.1 (kernel-weight p 11/9): one epoch of each stage (with the pass that gives R
# and the final objective's), or the online stage alone (at most 5 epochs and the R pass); beside it
# lp-norm MKL at the same p, one-vs-rest
MKL_OBSCURE_EPOCH = ("--mkl", "obscure", "--p-block", "1.1", "--online-epochs", "1", "--epochs", "1")
MKL_OBSCURE_ONLINE = ("--mkl", "obscure", "--p-block", "1.1", "--epochs", "0")
MKL_LP_OVR = ("--mkl", "lp", "--p", "11/9", "--multiclass", "ovr")
# the two-stage alignf method (Cortes, Mohri & Rostamizadeh): weights by the centred alignment, an exact NNLS
MKL_ALIGNF = ("--mkl", "alignf")
# independent alignment (Cortes, Mohri & Rostamizadeh) on rank-1 kernels
MKL_ALIGN = ("--mkl", "align")
# localized MKL on the localized problem (bench/localized.py): three clusters of the location z
MKL_CLMKL = ("--mkl", "clmkl", "--p", "4/3", "--ae", "0.4", "--cluster-kernel", "linear:features=1-2")
MKL_LMKL = ("--mkl", "lmkl", "--cluster-kernel", "linear:features=1-2")
# the same on DNA splice junctions (bench/dna_splice.py): clusters and gates on the mean of the kernels
MKL_CLMKL_MEAN = ("--mkl", "clmkl", "--p", "4/3", "--ae", "0.4")
MKL_LMKL_MEAN = ("--mkl", "lmkl")


@dataclass
class Settings:
    C: float
    epsilon: float     # SMO stopping tolerance (-e)
    cache_mb: float    # kernel cache (-m)


def _number(value):
    """Exact decimal text of a float, so every tool reads the same width."""
    return repr(float(value))


def _missing_program(path):
    return None if shutil.which(path) else "%s not found" % path


class Kernelmix:
    """kernelmix train/predict with LIBSVM's options; several widths become repeated --kernel,
    kernel matrix files a --kernels spec file (and --test-kernel files for prediction). mkl: the
    training options that learn the kernel weights (none: the fixed uniform combination)."""

    def __init__(self, binary, name="kernelmix", mkl=(), env=None, cache_mb=None, rank=None, launcher=()):
        self.binary = binary
        self.name = name
        self.mkl = list(mkl)
        self.env = env or {}    # environment variables the tool runs with, on top of the harness's
        self.cache_mb = cache_mb   # -m of this tool instead of the run's
        self.rank = rank        # every RBF kernel low-rank (spec key rank=) on this many landmarks
        self.launcher = list(launcher)   # what training runs under (mpirun -n K: data-parallel training)

    def unavailable(self):
        return _missing_program(self.binary)

    def train(self, problem, settings, model):
        gammas = problem["gammas"]
        if problem.get("kernel_specs"):
            kernels = ["--kernels", problem["kernel_specs"]]
        elif len(gammas) == 1:
            kernels = ["-t", "2", "-g", _number(gammas[0])]
        else:
            low_rank = ":rank=%d" % self.rank if self.rank else ""
            kernels = [arg for g in gammas for arg in ("--kernel", "rbf:gamma=" + _number(g) + low_rank)]
        return [*self.launcher, self.binary, "train", "-s", "0", *kernels, *self.mkl, "-c", _number(settings.C),
                "-m", _number(self.cache_mb or settings.cache_mb), "-e", _number(settings.epsilon), "-q",
                problem["train"], model]

    def predict(self, problem, model, output):
        test_kernels = [arg for path in problem.get("test_kernel_files") or () for arg in ("--test-kernel", path)]
        return [self.binary, "predict", *test_kernels, problem["test"], model, output]


class KernelmixSingle(Kernelmix):
    """kernelmix train with the one width gamma0 of a problem prepared with several widths: kernelmix's
    own single-kernel solve beside its MKL run (as libsvm-single for LIBSVM)."""

    def train(self, problem, settings, model):
        return super().train(dict(problem, gammas=[1.0 / problem["mean_sq_dist"]]), settings, model)


class KernelmixRidge(Kernelmix):
    """kernelmix train -s krr on +1/-1 targets (the squared-loss block-norm family, empirical Bayes):
    mkl as for Kernelmix; eb: no -c (the evidence sets the weights). Predictions are the signs of the
    regression values."""

    def __init__(self, binary, name, mkl=(), eb=False, launcher=()):
        super().__init__(binary, name, mkl, launcher=launcher)
        self.eb = eb

    def train(self, problem, settings, model):
        c = [] if self.eb else ["-c", _number(settings.C)]
        return [*self.launcher, self.binary, "train", "-s", "krr", "--kernels", problem["kernel_specs"], *self.mkl,
                *c, "-m", _number(settings.cache_mb), "-q", problem["train"], model]

    def predict(self, problem, model, output):
        return ["sh", "-c", '"$0" predict -q "$1" "$2" "$3.values" && '
                'awk \'{print ($1 >= 0 ? 1 : -1)}\' "$3.values" > "$3"', self.binary, problem["test"], model, output]


class KernelmixSpecs(Kernelmix):
    """kernelmix train -s 0 on the kernel-spec file the problem's meta names under `specs` (the rank-1
    workload: rank-1 kernels, or the same kernels computed as N x N ones). Rank-1 kernels have trace 1
    where norm=trace gives trace N, so rank1 trains with --radius N: both give the same model."""

    def __init__(self, binary, name, mkl, specs, radius_n=False):
        super().__init__(binary, name, mkl)
        self.specs = specs
        self.radius_n = radius_n

    def train(self, problem, settings, model):
        radius = ["--radius", str(problem["n_train"])] if self.radius_n else []
        return [self.binary, "train", "-s", "0", "--kernels", problem[self.specs], *self.mkl, *radius,
                "-c", _number(settings.C), "-m", _number(settings.cache_mb), "-e", _number(settings.epsilon), "-q",
                problem["train"], model]


class KernelmixKernel(Kernelmix):
    """kernelmix kernel: the training kernel matrix of one RBF width, written as a KMMATRIX file."""

    def train(self, problem, settings, model):
        return [self.binary, "kernel", "--kernel", "rbf:gamma=" + _number(problem["gammas"][0]),
                problem["train"], model]

    def predict(self, problem, model, output):
        return None


class KernelmixWd(Kernelmix):
    """kernelmix kernel: the training kernel matrix of the weighted-degree string kernel of degree 20
    (Lei et al.'s splice kernels summed with the weights of the weighted-degree kernel), unnormalized."""

    def train(self, problem, settings, model):
        return [self.binary, "kernel", "--kernel", "wd:degree=20", problem["train"], model]

    def predict(self, problem, model, output):
        return None


class Libsvm:
    """Debian's svm-train/svm-predict with one RBF kernel computed from the features."""
    name = "libsvm"

    def unavailable(self):
        return _missing_program("svm-train") or _missing_program("svm-predict")

    def train(self, problem, settings, model):
        if len(problem["gammas"]) != 1:
            raise ValueError("libsvm (-t 2) takes one kernel; use libsvm-precomputed for several")
        return ["svm-train", "-s", "0", "-t", "2", "-g", _number(problem["gammas"][0]),
                "-c", _number(settings.C), "-m", _number(settings.cache_mb),
                "-e", _number(settings.epsilon), "-q", problem["train"], model]

    def predict(self, problem, model, output):
        return ["svm-predict", "-q", problem["test"], model, output]


class LibsvmSingle(Libsvm):
    """svm-train -t 2 with the one width gamma0 = 1/mean ||x-x'||^2 of a problem prepared with
    several widths: the single-kernel baseline of an MKL run."""
    name = "libsvm-single"

    def train(self, problem, settings, model):
        return super().train(dict(problem, gammas=[1.0 / problem["mean_sq_dist"]]), settings, model)


class LibsvmPrecomputed(Libsvm):
    """svm-train -t 4 on the uniform-sum kernel written by the data preparation (computing and
    writing the kernel files is not timed; reading them is)."""
    name = "libsvm-precomputed"

    def train(self, problem, settings, model):
        return ["svm-train", "-s", "0", "-t", "4", "-c", _number(settings.C),
                "-m", _number(settings.cache_mb), "-e", _number(settings.epsilon), "-q",
                problem["train_kernel"], model]

    def predict(self, problem, model, output):
        return ["svm-predict", "-q", problem["test_kernel"], model, output]


class PythonPeer:
    """Base of the peers run by python_peer.py."""

    def __init__(self, python):
        self.python = python
        self.script = os.path.join(BENCH_DIR, "python_peer.py")

    def unavailable(self):
        return _missing_program(self.python)


class SklearnPrecomputed(PythonPeer):
    """scikit-learn SVC(kernel='precomputed') on the uniform-sum kernel, computed from the features
    or summed from the kernel matrix files inside the timed processes."""
    name = "sklearn-precomputed"

    def train(self, problem, settings, model):
        if problem.get("train_kernel_list"):
            kernels = ["-k", problem["train_kernel_list"]]
        else:
            kernels = ["-g", ",".join(_number(g) for g in problem["gammas"])]
        return [self.python, self.script, "train", *kernels, "-c", _number(settings.C),
                "-e", _number(settings.epsilon), "-m", _number(settings.cache_mb), problem["train"], model]

    def predict(self, problem, model, output):
        kernels = ["-k", problem["test_kernel_list"]] if problem.get("test_kernel_list") else []
        return [self.python, self.script, "predict", *kernels, problem["test"], model, output]


class SklearnKernel(PythonPeer):
    """scikit-learn's rbf_kernel of the training rows, written as a KMMATRIX file like kernelmix's."""
    name = "sklearn-kernel"

    def train(self, problem, settings, model):
        return [self.python, self.script, "kernel", "-g", _number(problem["gammas"][0]), problem["train"], model]

    def predict(self, problem, model, output):
        return None


class KernelmixPython(PythonPeer):
    """The Python package (kernelmix_python.py) on the job of the kernelmix rows: its time over theirs
    is the Python layer's overhead. mkl: lp-norm MKL, p = 4/3, as kernelmix-mkl."""

    def __init__(self, python, mkl=False):
        super().__init__(python)
        self.script = os.path.join(BENCH_DIR, "kernelmix_python.py")
        self.mkl = mkl
        self.name = "python-kernelmix-mkl" if mkl else "python-kernelmix"

    def train(self, problem, settings, model):
        return [self.python, self.script, "train", "-g", ",".join(_number(g) for g in problem["gammas"]),
                *["--mkl"] * self.mkl, "-c", _number(settings.C), "-e", _number(settings.epsilon),
                "-m", _number(settings.cache_mb), problem["train"], model]

    def predict(self, problem, model, output):
        return [self.python, self.script, "predict", problem["test"], model, output]


class Mklpy(PythonPeer):
    """MKLpy's AverageMKL, EasyMKL or GRAM (mklpy_peer.py) from a snapshot of its repository named by
    MKLPY_PATH; optional: a workload runs without it, saying why."""
    optional = True

    def __init__(self, python, algorithm):
        super().__init__(python)
        self.script = os.path.join(BENCH_DIR, "mklpy_peer.py")
        self.algorithm = algorithm
        self.name = "mklpy-" + algorithm

    def unavailable(self):
        path = os.environ.get("MKLPY_PATH")
        if not path or not os.path.isdir(os.path.join(path, "MKLpy")):
            return "no MKLpy snapshot (set MKLPY_PATH to a checkout of github.com/IvanoLauriola/MKLpy; needs PyTorch)"
        return _missing_program(self.python)

    def train(self, problem, settings, model):
        return [self.python, self.script, "train", "-a", self.algorithm,
                "-g", ",".join(_number(g) for g in problem["gammas"]), "-c", _number(settings.C),
                problem["train"], model]

    def predict(self, problem, model, output):
        return [self.python, self.script, "predict", problem["test"], model, output]
