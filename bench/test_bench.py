"""Tests of the benchmark harness (run from bench/: python3 -m unittest test_bench).
They check the data preparation, the file formats, the summaries and, end to end, that bench/run
drives a kernelmix binary with the LIBSVM-style command line. No test looks at timings."""

import csv
import gzip
import json
import os
import struct
import subprocess
import sys
import tempfile
import unittest

import numpy as np
from sklearn.datasets import load_svmlight_file

import cv_grid
import digits
import eb_gp
import fashion_mnist
import gram
from kernels import mean_squared_distance, rbf_sum, squared_distances
from libsvm_files import accuracy, read_labels, read_predictions, write_precomputed, write_sparse
from matrix_files import read_matrix
from report import ToolRuns, markdown_table, section, summarize
from tools import BENCH_DIR, MKL_LP
from workloads import DEFAULT_WORKLOADS, select

HAVE_FASHION = os.path.exists(os.path.join(fashion_mnist.DATA_DIR, "train-images-idx3-ubyte.gz"))
# the kernelmix CLI and library the suite built (ctest passes them), else those of build/
KERNELMIX_CLI = os.environ.get("KERNELMIX_CLI") or os.path.join(os.path.dirname(BENCH_DIR), "build", "kernelmix")
KERNELMIX_LIBRARY = os.environ.get("KERNELMIX_LIBRARY") or os.path.join(os.path.dirname(KERNELMIX_CLI),
                                                                        "libkernelmix.so")
HAVE_KERNELMIX = os.path.exists(KERNELMIX_CLI) and os.path.exists(KERNELMIX_LIBRARY)

# Stands in for the kernelmix CLI: accepts exactly the LIBSVM-style command lines the harness
# promises (kernelmix train -s 0 -t 2 -g G -c C -m MB -e EPS -q TRAIN MODEL, kernelmix predict
# TEST MODEL OUT) and runs LIBSVM with them.
CLI_STAND_IN = """#!/bin/sh
command=$1; shift
if [ "$command" = train ] && [ $# -eq 15 ] && [ "$1 $2 $3 $4 $5" = "-s 0 -t 2 -g" ] \\
   && [ "$7" = -c ] && [ "$9" = -m ] && [ "${11}" = -e ] && [ "${13}" = -q ]; then
    exec svm-train "$@"
fi
if [ "$command" = predict ] && [ $# -eq 3 ]; then
    svm-predict "$@" && exit 0
fi
echo "unexpected command line: $command $*" >&2
exit 2
"""


# Stands in for `kernelmix kernel`: prints the -v timing line of an n x n matrix computed in 0.5 s
# (n: the training file's rows) and writes nothing.
KERNEL_STAND_IN = """#!/bin/sh
for last; do :; done
for arg; do [ "$arg" = "$last" ] && break; train=$arg; done
printf 'kernel 1: %d x %d matrix computed in 0.500000 s\\n' "$(wc -l <"$train")" "$(wc -l <"$train")"
"""


def write_script(path, text):
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, 0o755)
    return path


def run_harness(*args):
    done = subprocess.run([sys.executable, os.path.join(BENCH_DIR, "run"), *args],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise AssertionError("bench/run %s failed:\n%s" % (" ".join(args), done.stderr))
    return done.stdout


def read_csv(path):
    with open(path, newline="") as f:
        return {row["tool"]: row for row in csv.DictReader(f)}


class KernelTests(unittest.TestCase):
    def test_mean_squared_distance_matches_all_pairs(self):
        X = np.random.default_rng(3).normal(size=(40, 7))
        pairs = [np.sum((X[i] - X[j]) ** 2) for i in range(40) for j in range(40) if i != j]
        self.assertAlmostEqual(mean_squared_distance(X) / np.mean(pairs), 1.0, places=12)

    def test_rbf_sum_adds_each_width(self):
        A = np.array([[0.0, 1.0], [2.0, 0.0]])
        B = np.array([[1.0, 1.0]])
        D = squared_distances(A, B)
        np.testing.assert_allclose(D, [[1.0], [2.0]], rtol=1e-15)
        np.testing.assert_allclose(rbf_sum(D, [0.5, 2.0]),
                                   [[np.exp(-0.5) + np.exp(-2.0)], [np.exp(-1.0) + np.exp(-4.0)]], rtol=1e-15)


class FileFormatTests(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory(dir=BENCH_DIR)

    def tearDown(self):
        self.dir.cleanup()

    def path(self, name):
        return os.path.join(self.dir.name, name)

    def test_sparse_rows_read_back_exactly(self):
        X = np.array([[0.0, 1.0 / 3.0, 0.0], [0.1, 0.0, 255.0 / 255.0], [0.0, 0.0, 0.0]])
        y = np.array([1.0, -1.0, 1.0])
        write_sparse(self.path("x.svm"), X, y)
        read_X, read_y = load_svmlight_file(self.path("x.svm"), n_features=3)
        np.testing.assert_array_equal(read_X.toarray(), X)
        np.testing.assert_array_equal(read_y, y)
        self.assertEqual(read_labels(self.path("x.svm")), [1.0, -1.0, 1.0])
        with open(self.path("x.svm")) as f:
            self.assertEqual(f.readline(), "1 2:0.3333333333333333\n")

    def test_precomputed_rows_carry_ids_and_values(self):
        K = np.array([[1.0, 0.25], [0.25, 1.0 / 3.0]])
        write_precomputed(self.path("k.txt"), K, [1.0, -1.0])
        with open(self.path("k.txt")) as f:
            self.assertEqual(f.read().splitlines(), ["1 0:1 1:1 2:0.25", "-1 0:2 1:0.25 2:0.3333333333"])

    def test_predictions_skip_probability_header(self):
        with open(self.path("p.txt"), "w") as f:
            f.write("labels 1 -1\n1 0.9 0.1\n-1 0.2 0.8\n")
        self.assertEqual(read_predictions(self.path("p.txt")), [1.0, -1.0])
        self.assertEqual(accuracy([1.0, 1.0], [1.0, -1.0]), 0.5)
        self.assertRaises(ValueError, accuracy, [1.0], [1.0, -1.0])

    def test_idx_reader_checks_magic_and_shape(self):
        payload = bytes(range(24))
        with gzip.open(self.path("good.gz"), "wb") as f:
            f.write(struct.pack(">IIII", fashion_mnist.IMAGES_MAGIC, 2, 3, 4) + payload)
        images = fashion_mnist.read_idx(self.path("good.gz"), fashion_mnist.IMAGES_MAGIC)
        self.assertEqual(images.shape, (2, 3, 4))
        self.assertEqual(int(images[1, 2, 3]), 23)
        self.assertRaises(ValueError, fashion_mnist.read_idx, self.path("good.gz"), fashion_mnist.LABELS_MAGIC)
        with gzip.open(self.path("short.gz"), "wb") as f:
            f.write(struct.pack(">IIII", fashion_mnist.IMAGES_MAGIC, 2, 3, 4) + payload[:-1])
        self.assertRaises(ValueError, fashion_mnist.read_idx, self.path("short.gz"), fashion_mnist.IMAGES_MAGIC)


class SummaryTests(unittest.TestCase):
    def test_ratios_are_kernelmix_over_each_peer(self):
        problem = {"n_train": 10, "n_test": 5, "gammas": [1.0], "mean_sq_dist": 1.0}
        mine = ToolRuns("kernelmix", ["km"], time_s=[1.0, 3.0, 2.0], predict_s=[1, 1, 1],
                        peak_kib=[1024, 1024, 2048], accuracy=[0.8, 0.8, 0.8])
        peer = ToolRuns("libsvm", ["svm-train"], time_s=[4.0, 4.0, 5.0], predict_s=[1, 1, 1],
                        peak_kib=[4096, 4096, 4096], accuracy=[0.8, 0.8, 0.8])
        broken = ToolRuns("other", ["x"], status="train failed")
        rows = summarize(select("a")[0], problem, [mine, peer, broken])
        self.assertEqual(rows[0]["time_s"], 2.0)
        self.assertEqual((rows[0]["time_ratio"], rows[0]["memory_ratio"]), ("", ""))
        self.assertEqual((rows[1]["time_ratio"], rows[1]["memory_ratio"], rows[1]["ratio_of"]),
                         ("0.50", "0.25", "kernelmix"))
        self.assertEqual((rows[2]["time_s"], rows[2]["time_ratio"]), (None, ""))

    def test_ratios_of_the_reference_kernelmix_row(self):
        """Workload c: peers divide by the uniform-sum kernelmix row; the MKL row is kernelmix's own."""
        problem = {"n_train": 10, "n_test": 5, "gammas": [1.0, 2.0], "mean_sq_dist": 1.0}
        uniform = ToolRuns("kernelmix", ["km"], time_s=[1.0], predict_s=[1], peak_kib=[1024], accuracy=[0.8])
        mkl = ToolRuns("kernelmix-mkl", ["km"], time_s=[3.0], predict_s=[1], peak_kib=[1024], accuracy=[0.8])
        peer = ToolRuns("libsvm-precomputed", ["svm-train"], time_s=[4.0], predict_s=[1], peak_kib=[2048],
                        accuracy=[0.8])
        rows = summarize(select("c")[0], problem, [uniform, mkl, peer])
        self.assertEqual([r["time_ratio"] for r in rows], ["", "", "0.25"])
        lp = summarize(select("a-lp")[0], problem, [mkl, peer])
        self.assertEqual((lp[1]["ratio_of"], lp[1]["time_ratio"], lp[1]["memory_ratio"]),
                         ("kernelmix-mkl", "0.75", "0.50"))
        self.assertIn("| time kernelmix-mkl/peer | memory kernelmix-mkl/peer |", markdown_table(lp, select("a-lp")[0]))

    def test_ratios_of_the_row_that_runs_the_job(self):
        """Workload py: the Python package's MKL row divides by kernelmix-mkl, its uniform-sum row and
        scikit-learn's by the uniform-sum kernelmix row; the table names the other reference."""
        problem = {"n_train": 10, "n_test": 5, "gammas": [1.0, 2.0], "mean_sq_dist": 1.0}

        def runs(tool, time_s, kib):
            return ToolRuns(tool, ["x"], time_s=[time_s], cpu_s=[2 * time_s], predict_s=[1], peak_kib=[kib],
                            accuracy=[0.8])
        workload = select("py")[0]
        rows = summarize(workload, problem, [runs("kernelmix", 1.0, 1024), runs("python-kernelmix", 2.0, 4096),
                                             runs("kernelmix-mkl", 3.0, 2048), runs("python-kernelmix-mkl", 4.0, 4096),
                                             runs("sklearn-precomputed", 5.0, 1024)])
        self.assertEqual([(r["ratio_of"], r["time_ratio"], r["memory_ratio"]) for r in rows],
                         [("", "", ""), ("kernelmix", "0.50", "0.25"), ("", "", ""),
                          ("kernelmix-mkl", "0.75", "0.50"), ("kernelmix", "0.20", "1.00")])
        table = markdown_table(rows, workload)
        self.assertIn("| python-kernelmix-mkl | 4.000 | 8.000 | 1.000 | 4.0 | 0.8000 | 0.75 (kernelmix-mkl) | "
                      "0.50 (kernelmix-mkl) |", table)
        self.assertIn("| python-kernelmix | 2.000 | 4.000 | 1.000 | 4.0 | 0.8000 | 0.50 | 0.25 |", table)

    def test_ratio_of_default_threads_over_one_thread(self):
        """Workload a-lp-busy: the one-thread row, a kernelmix row, carries default threads / one thread."""
        problem = {"n_train": 10, "n_test": 5, "gammas": [1.0, 2.0], "mean_sq_dist": 1.0}
        rows = summarize(select("a-lp-busy")[0], problem,
                         [ToolRuns("kernelmix-mkl", ["x"], time_s=[13.0], predict_s=[1], peak_kib=[2048],
                                   accuracy=[0.8]),
                          ToolRuns("kernelmix-mkl-1thread", ["x"], time_s=[10.0], predict_s=[1], peak_kib=[1024],
                                   accuracy=[0.8])])
        self.assertEqual([(r["ratio_of"], r["time_ratio"], r["memory_ratio"]) for r in rows],
                         [("", "", ""), ("kernelmix-mkl", "1.30", "2.00")])

    def test_memory_against_the_cache_budget(self):
        problem = {"n_train": 10, "n_test": 5, "gammas": [1.0, 2.0], "mean_sq_dist": 1.0}
        mkl = ToolRuns("kernelmix-mkl", ["km"], time_s=[3.0], predict_s=[1], peak_kib=[1024 * 1024], accuracy=[0.8])
        workload = select("e")[0]
        rows = summarize(workload, problem, [mkl], workload.cache_mb)
        self.assertIn("- kernelmix-mkl at N = 10: peak RSS 1024.0 MiB, 102 % of the 1000 MiB kernel cache budget (-m)",
                      section(workload, rows))


class GramTests(unittest.TestCase):
    """The dgemm program and the Gram throughput figures."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory(dir=BENCH_DIR)

    def tearDown(self):
        self.dir.cleanup()

    def test_dgemm_program_builds_and_prints_a_positive_rate(self):
        program = os.path.join(self.dir.name, "dgemm")
        gram.build(program)
        done = subprocess.run(gram.dgemm_command(program, 300, 784), capture_output=True, text=True, check=True)
        self.assertRegex(done.stdout, r"^n 300 d 784 flops 141120000 seconds [0-9.]+ gflops [0-9.]+\n$")
        self.assertGreater(gram.parse_dgemm(done.stdout), 0.0)
        self.assertNotEqual(subprocess.run([program, "300", "0", "1"], capture_output=True).returncode, 0)

    def test_percentage_of_dgemm(self):
        runs = gram.GramRuns(n=1000, d=500, dgemm_gflops=[10.0, 20.0, 40.0], gram_s=[0.1, 0.05, 0.2])
        # 2 * 1000^2 * 500 = 1e9 flops in the median 0.1 s: 10 GFLOP/s, half of the median dgemm rate
        self.assertAlmostEqual(runs.gram_gflops, 10.0)
        self.assertAlmostEqual(runs.percent, 50.0)
        self.assertIn("| 1000 | 500 | 1e+09 | 20.0 | 0.1000 | 10.0 | 50 % |", gram.table([runs]))
        self.assertEqual(gram.parse_kernelmix("kernel 1: 1000 x 1000 matrix computed in 0.125000 s\n", 1000), 0.125)
        self.assertIsNone(gram.parse_kernelmix("kernel 1: 999 x 1000 matrix computed in 0.125000 s\n", 1000))


@unittest.skipUnless(HAVE_FASHION, "needs Debian's dataset-fashion-mnist")
class FashionMnistTests(unittest.TestCase):
    def test_tshirt_shirt_task(self):
        images, labels = fashion_mnist.load_split(fashion_mnist.DATA_DIR, "t10k")
        self.assertEqual(images.shape, (10000, 784))
        X, y = fashion_mnist.task_rows(images, labels, "tshirt-shirt", 2000, np.random.default_rng(1))
        # t10k has 1,000 T-shirts and 1,000 shirts: asking for 2,000 takes all of them
        self.assertEqual((X.shape, int((y == 1).sum()), int((y == -1).sum())), ((2000, 784), 1000, 1000))
        self.assertEqual((X.min(), X.max()), (0.0, 1.0))
        self.assertRaises(ValueError, fashion_mnist.task_rows, images, labels, "tshirt-shirt", 2001,
                          np.random.default_rng(1))
        drawn = fashion_mnist.task_rows(images, labels, "tshirt-shirt", 50, np.random.default_rng(1))[0]
        again = fashion_mnist.task_rows(images, labels, "tshirt-shirt", 50, np.random.default_rng(1))[0]
        np.testing.assert_array_equal(drawn, again)

    def test_ten_class_task(self):
        images, labels = fashion_mnist.load_split(fashion_mnist.DATA_DIR, "t10k")
        X, y = fashion_mnist.task_rows(images, labels, "ten-class", 10000, np.random.default_rng(1))
        # t10k has 1,000 images of each class: all of them, labelled 0..9
        self.assertEqual(X.shape, (10000, 784))
        self.assertEqual(np.bincount(y.astype(int)).tolist(), [1000] * 10)


@unittest.skipUnless(HAVE_FASHION, "needs Debian's dataset-fashion-mnist")
class HarnessTests(unittest.TestCase):
    """bench/run end to end on small problems, results in a temporary directory."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory(dir=BENCH_DIR)
        self.stand_in = os.path.join(self.dir.name, "kernelmix")
        with open(self.stand_in, "w") as f:
            f.write(CLI_STAND_IN)
        os.chmod(self.stand_in, 0o755)
        self.common = ["--sizes", "300", "--test-size", "300", "--results", self.dir.name]

    def tearDown(self):
        self.dir.cleanup()

    def test_single_kernel_side_by_side(self):
        output = run_harness("--workloads", "a", "--repeats", "2", "--kernelmix", self.stand_in, *self.common)
        rows = read_csv(os.path.join(self.dir.name, "fashion-rbf.csv"))
        self.assertEqual(set(rows), {"kernelmix", "libsvm"})
        mine, peer = rows["kernelmix"], rows["libsvm"]
        self.assertEqual((mine["status"], peer["status"], mine["repeats"]), ("ok", "ok", "2"))
        self.assertEqual(mine["accuracy"], peer["accuracy"])   # same solver behind the stand-in
        self.assertGreater(float(peer["accuracy"]), 0.7)
        self.assertAlmostEqual(float(peer["time_ratio"]), float(mine["time_s"]) / float(peer["time_s"]), delta=0.01)
        self.assertIn("| fashion-rbf | 300 | 1 | kernelmix |", output)
        with open(os.path.join(self.dir.name, "latest.md")) as f:
            latest = f.read()
        for field in ("- CPU:", "- OpenBLAS:", "- memory:", "- date:", "| fashion-rbf | 300 | 1 | libsvm |"):
            self.assertIn(field, latest)
        # the recorded width is 1/mean squared distance, the value kernelmix and svm-train were given
        self.assertAlmostEqual(float(peer["gamma_min"]) * float(peer["mean_sq_dist"]), 1.0, places=12)
        self.assertIn("-g %r" % float(peer["gamma_min"]), peer["command"])
        self.assertIn("- N = 300, 300 test rows: mean ||x-x'||^2 = ", latest)

    def test_mkl_workload_commands(self):
        output = run_harness("--workloads", "a-lp", "--dry-run", "--kernelmix", self.stand_in, *self.common)
        commands = [line.split() for line in output.splitlines()]
        train = next(c for c in commands if c[1:2] == ["train"])
        self.assertEqual(train[train.index("--mkl"):train.index("--mkl") + 4], list(MKL_LP))
        gammas = [float(arg.split("=")[1]) for arg in train if arg.startswith("rbf:gamma=")]
        self.assertEqual(len(gammas), 10)
        # LIBSVM's single kernel is the middle width gamma0 = gammas[5] (k = 0)
        libsvm = next(c for c in commands if c[0] == "svm-train")
        self.assertEqual(float(libsvm[libsvm.index("-g") + 1]), gammas[5])
        self.assertEqual(libsvm[libsvm.index("-t") + 1], "2")

    def test_busy_workload_commands(self):
        output = run_harness("--workloads", "a-lp-busy", "--dry-run", "--kernelmix", self.stand_in, *self.common)
        lines = output.splitlines()
        self.assertIn("# 1 competing busy process(es)", lines[0])
        trains = [line.split() for line in lines if " train " in line]
        self.assertEqual(len(trains), 2)
        default, single = trains
        self.assertEqual(single[:2], ["OMP_NUM_THREADS=1", "OPENBLAS_NUM_THREADS=1"])
        self.assertEqual(single[2:-1], default[:-1])    # the same job (its own model file), one thread

    def test_multiclass_workload_commands(self):
        output = run_harness("--workloads", "mc", "--dry-run", "--kernelmix", self.stand_in, *self.common)
        trains = [line.split() for line in output.splitlines() if " train " in line]
        self.assertEqual(len(trains), 2)
        default, large = trains
        self.assertIn(" ".join(MKL_LP), " ".join(default))
        self.assertEqual((default[default.index("-m") + 1], large[large.index("-m") + 1]), ("100.0", "2000.0"))
        self.assertEqual(large[:large.index("-m")], default[:default.index("-m")])   # the same job otherwise

    def test_single_kernel_beside_mkl(self):
        output = run_harness("--workloads", "a-lp", "--dry-run", "--kernelmix", self.stand_in, *self.common)
        trains = [line.split() for line in output.splitlines() if " train " in line]
        mkl, single = trains
        self.assertEqual(sum(a.startswith("rbf:gamma=") for a in mkl), 10)
        gamma0 = float(single[single.index("-g") + 1])
        self.assertIn("rbf:gamma=" + single[single.index("-g") + 1], mkl)
        self.assertEqual((single[single.index("-t") + 1], "--mkl" in single), ("2", False))
        self.assertGreater(gamma0, 0)

    def test_memory_workload_commands(self):
        output = run_harness("--workloads", "e", "--dry-run", "--kernelmix", self.stand_in, *self.common)
        commands = [line.split() for line in output.splitlines()]
        train = next(c for c in commands if c[1:2] == ["train"])
        libsvm = next(c for c in commands if c[0] == "svm-train")
        self.assertIn(" ".join(MKL_LP), " ".join(train))
        self.assertEqual((train[train.index("-m") + 1], libsvm[libsvm.index("-m") + 1]), ("1000.0", "1000.0"))
        gammas = np.array([float(a.split("=")[1]) for a in train if a.startswith("rbf:gamma=")])
        exponents = np.log2(gammas / float(libsvm[libsvm.index("-g") + 1]))
        np.testing.assert_allclose(exponents, np.linspace(-5, 4, 50), atol=1e-12)
        self.assertNotIn("e", DEFAULT_WORKLOADS.split(","))

    def test_failing_kernelmix_is_reported_not_fatal(self):
        run_harness("--workloads", "a", "--repeats", "1", "--kernelmix", "/bin/false", *self.common)
        rows = read_csv(os.path.join(self.dir.name, "fashion-rbf.csv"))
        self.assertTrue(rows["kernelmix"]["status"].startswith("train failed (exit 1"))
        self.assertEqual((rows["libsvm"]["status"], rows["libsvm"]["time_ratio"]), ("ok", ""))

    def test_several_widths_peers_agree(self):
        output = run_harness("--workloads", "a-mkl", "--dry-run", "--kernelmix", self.stand_in, *self.common)
        kernelmix_train = next(line for line in output.splitlines() if " train " in line and "kernelmix" in line)
        gammas = [float(arg.split("=")[1]) for arg in kernelmix_train.split() if arg.startswith("rbf:gamma=")]
        self.assertEqual(len(gammas), 10)
        np.testing.assert_allclose(np.array(gammas) / gammas[5], 2.0 ** np.arange(-5, 5), rtol=1e-15)
        run_harness("--workloads", "a-mkl", "--repeats", "1", "--peer-only", *self.common)
        rows = read_csv(os.path.join(self.dir.name, "fashion-rbf10.csv"))
        self.assertEqual(set(rows), {"libsvm-precomputed", "sklearn-precomputed"})
        # the same uniform-sum kernel (LIBSVM's read from 10-digit text) and the same solver family
        self.assertAlmostEqual(float(rows["libsvm-precomputed"]["accuracy"]),
                               float(rows["sklearn-precomputed"]["accuracy"]), delta=0.01)


class DigitsTests(unittest.TestCase):
    def test_odd_even_labels(self):
        X, y = digits.load(digits.DIGITS)
        self.assertEqual(X.shape, (1797, 64))
        self.assertEqual((X.min(), X.max()), (0.0, 16.0))
        self.assertEqual(y[:10].tolist(), [-1, 1, -1, 1, -1, 1, -1, 1, -1, 1])   # digits 0..9 in order

    def test_ten_class_labels(self):
        """The shared-weights workload's labels: the digits themselves, all ten in the training rows."""
        _, y = digits.load(digits.DIGITS, "ten-class")
        self.assertEqual(y[:10].tolist(), list(range(10)))
        self.assertEqual(sorted(set(y[:digits.TRAIN_ROWS].tolist())), list(range(10)))


@unittest.skipUnless(HAVE_FASHION, "needs Debian's dataset-fashion-mnist")
class KernelFileWorkloadTests(unittest.TestCase):
    """Workloads c (precomputed kernel files) and d (kernel computation alone) on small problems."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory(dir=BENCH_DIR)
        self.common = ["--sizes", "200", "--test-size", "100", "--kernel-counts", "3", "--results", self.dir.name,
                       "--kernelmix", "/bin/true"]

    def tearDown(self):
        self.dir.cleanup()

    def test_precomputed_files_reach_every_tool(self):
        commands = run_harness("--workloads", "c", "--dry-run", *self.common).splitlines()
        train = next(c.split() for c in commands if c.startswith("/bin/true train") and "--mkl" not in c)
        mkl_train = next(c for c in commands if c.startswith("/bin/true train") and "--mkl" in c)
        self.assertIn("--kernels %s %s " % (train[train.index("--kernels") + 1], " ".join(MKL_LP)), mkl_train)
        self.assertIn("kernelmix-mkl.model", mkl_train)
        predict = next(c.split() for c in commands if c.startswith("/bin/true predict"))
        with open(train[train.index("--kernels") + 1]) as f:
            specs = f.read().splitlines()
        self.assertEqual(len(specs), 3)
        self.assertTrue(all(spec.startswith("precomputed:file=") for spec in specs))
        test_files = [predict[i + 1] for i, arg in enumerate(predict) if arg == "--test-kernel"]
        self.assertEqual(len(test_files), 3)
        # training and test kernels of one width: K(x, x) = 1 on the training diagonal, values in (0, 1]
        K = read_matrix(specs[1].split("=", 1)[1])
        T = read_matrix(test_files[1])
        self.assertEqual((K.shape, T.shape), ((1000, 1000), (100, 1000)))
        np.testing.assert_allclose(np.diag(K), 1.0, rtol=1e-7)
        self.assertTrue(0.0 < T.min() and T.max() <= 1.0)
        run_harness("--workloads", "c", "--repeats", "1", "--peer-only", *self.common)
        rows = read_csv(os.path.join(self.dir.name, "fashion-m-scaling.csv"))
        self.assertEqual(rows["sklearn-precomputed"]["kernels"], "3")
        self.assertAlmostEqual(float(rows["libsvm-precomputed"]["accuracy"]),
                               float(rows["sklearn-precomputed"]["accuracy"]), delta=0.02)

    def test_kernel_alone_has_no_prediction(self):
        stand_in = write_script(os.path.join(self.dir.name, "kernelmix"), KERNEL_STAND_IN)
        output = run_harness("--workloads", "d", "--repeats", "1", *self.common, "--kernelmix", stand_in)
        rows = read_csv(os.path.join(self.dir.name, "fashion-kernel.csv"))
        self.assertEqual((rows["sklearn-kernel"]["status"], rows["sklearn-kernel"]["phase"]), ("ok", "kernel"))
        self.assertEqual((rows["sklearn-kernel"]["predict_s"], rows["sklearn-kernel"]["accuracy"]), ("", ""))
        # a script stands in for kernelmix here: it "computes" nothing, quickly; only the ratio is checked
        self.assertNotEqual(rows["sklearn-kernel"]["time_ratio"], "")
        # its Gram line says 0.5 s for 2 * 200^2 * 784 flops; the percentage is of the dgemm measured in the run
        mine = rows["kernelmix"]
        self.assertEqual(float(mine["gram_s"]), 0.5)
        self.assertAlmostEqual(float(mine["gram_gflops"]), 2 * 200 ** 2 * 784 / 0.5 / 1e9, places=9)
        self.assertGreater(float(mine["dgemm_gflops"]), 0.0)
        percent = 100 * float(mine["gram_gflops"]) / float(mine["dgemm_gflops"])
        self.assertAlmostEqual(float(mine["gram_percent_of_dgemm"]), percent, places=6)
        self.assertIn("| 200 | 784 | 6.27e+07 | %.1f | 0.5000 | %.1f | %.0f %% |"
                      % (float(mine["dgemm_gflops"]), float(mine["gram_gflops"]), percent), output)
        K = read_matrix(os.path.join(self.dir.name, "tmp", "runs", "fashion-kernel-n200-m1", "sklearn-kernel.kernel.bin"))
        self.assertEqual(K.shape, (200, 200))
        np.testing.assert_allclose(np.diag(K), 1.0, rtol=1e-12)


# Whether the kernelmix under test runs as MPI ranks (KERNELMIX_MPI from the build: 1 or 0).
KERNELMIX_MPI = os.environ.get("KERNELMIX_MPI", "1") == "1"


class EbGpTests(unittest.TestCase):
    """eb_gp.py's widths and its reading of the evidence from a model file."""

    def test_widths_span_two_to_the_minus_five_to_four(self):
        gammas = eb_gp.gamma_list(0.5, 20)
        self.assertEqual(len(gammas), 20)
        self.assertAlmostEqual(gammas[0], 0.5 / 32)
        self.assertAlmostEqual(gammas[-1], 0.5 * 16)
        self.assertTrue(all(b > a for a, b in zip(gammas, gammas[1:])))

    def test_reads_the_eb_section_of_a_model(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "m.model")
            with open(path, "w") as f:
                f.write("[mkl]\nneg_log_evidence_1 rows 1 1\n7\n[data eb]\nneg_log_evidence_1 rows 1 1\n"
                        "324.5\nnoise_1 rows 1 1\n0.0125\nkernels_kept_1 rows 1 1\n3\n[basis]\nnoise_1 rows 1 1\n9\n")
            self.assertEqual(eb_gp.model_data(path), {"neg_log_evidence_1": 324.5, "noise_1": 0.0125,
                                                      "kernels_kept_1": 3.0})


class CvGridRulesTests(unittest.TestCase):
    """cv_grid.py's comparisons: the MPI results check and kernelmix cv's choice among ties."""

    def test_results_equal_apart_from_seconds(self):
        line = {"options": "-c 2^0 --p 1", "scores": [0.8, 0.9], "mean": 0.85, "fit_seconds": 1.5,
                "kernel_weights": [0.5, 0.5]}
        with tempfile.TemporaryDirectory() as d:
            def write(name, *records):
                with open(os.path.join(d, name), "w") as f:
                    f.writelines(json.dumps(r) + "\n" for r in records)
                return os.path.join(d, name)
            one = write("one", line, {"best": line})
            slower = write("slower", dict(line, fit_seconds=0.7), {"best": dict(line, fit_seconds=0.7)})
            other_score = write("other_score", dict(line, scores=[0.8, 0.8]), {"best": line})
            other_weight = write("other_weight", line, {"best": dict(line, kernel_weights=[0.5, 0.4])})
            self.assertTrue(cv_grid.same_apart_from_seconds(one, slower))
            self.assertFalse(cv_grid.same_apart_from_seconds(one, other_score))
            self.assertFalse(cv_grid.same_apart_from_seconds(one, other_weight))   # inside "best" too
            self.assertFalse(cv_grid.same_apart_from_seconds(one, write("fewer", line)))

    def test_choice_prefers_smaller_C_then_larger_p_among_ties(self):
        outcome = cv_grid.Outcome("x", None)
        grid = [(c, p) for c in ("2^-2", "2^0") for p in ("1", "4/3", "inf")]
        outcome.scores = {s: [0.8, 0.8] for s in grid}
        outcome.scores[("2^0", "1")] = [0.9, 0.8]
        self.assertEqual(cv_grid.choose(outcome, grid), ("2^0", "1"))        # the best mean
        outcome.scores[("2^-2", "4/3")] = [0.8, 0.9]
        self.assertEqual(cv_grid.choose(outcome, grid), ("2^-2", "4/3"))     # a tie: the smaller C
        outcome.scores[("2^-2", "inf")] = [0.9, 0.8]
        self.assertEqual(cv_grid.choose(outcome, grid), ("2^-2", "inf"))     # then the larger p
        self.assertEqual(cv_grid.setting_of_options("--kernel rbf:gamma=2^-4..2^5/mean --mkl lp -c 2^-2 --p 4/3"),
                         ("2^-2", "4/3"))


@unittest.skipUnless(HAVE_FASHION and HAVE_KERNELMIX, "needs dataset-fashion-mnist and a kernelmix build")
class CvGridTests(unittest.TestCase):
    """cv_grid.py end to end on a small problem: every contender on the same folds as kernelmix cv."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory(dir=BENCH_DIR)
        self.data = os.path.join(self.dir.name, "data")

    def tearDown(self):
        self.dir.cleanup()

    def test_data_are_the_first_rows_of_each_class_with_kernelmix_folds(self):
        done = subprocess.run([sys.executable, os.path.join(BENCH_DIR, "fashion_cv.py"), "--n", "40", "--folds", "4",
                               "--library", KERNELMIX_LIBRARY, "--out", self.data], capture_output=True, text=True)
        self.assertEqual(done.returncode, 0, done.stderr)
        meta = json.loads(done.stdout)
        images, labels = fashion_mnist.load_split(fashion_mnist.DATA_DIR, "train")
        rows = np.sort(np.concatenate([np.flatnonzero(labels == 0)[:20], np.flatnonzero(labels == 6)[:20]]))
        X, y = load_svmlight_file(meta["train"], n_features=784)
        np.testing.assert_array_equal(X.toarray(), images[rows] / 255.0)
        np.testing.assert_array_equal(y, np.where(labels[rows] == 0, 1.0, -1.0))
        with open(meta["fold_of_row"]) as f:
            fold = np.array(json.load(f))
        for f in range(4):
            # stratified: 5 rows of each class in every fold; the fold files hold the rows in file order
            self.assertEqual(((y[fold == f] > 0).sum(), (y[fold == f] < 0).sum()), (5, 5))
            test = load_svmlight_file(meta["fold_test"][f], n_features=784)[0].toarray()
            train = load_svmlight_file(meta["fold_train"][f], n_features=784)[0].toarray()
            np.testing.assert_array_equal(test, X.toarray()[fold == f])
            np.testing.assert_array_equal(train, X.toarray()[fold != f])
        # the uniform sum of the 10 widths: 10 on the diagonal
        K = load_svmlight_file(meta["train_kernel"])[0].toarray()
        np.testing.assert_allclose(K[:, 1:].diagonal(), 10.0, rtol=1e-9)
        self.assertEqual(K[:, 0].tolist(), list(range(1, 41)))

    def run_grid(self, *args):
        done = subprocess.run([sys.executable, os.path.join(BENCH_DIR, "cv_grid.py"), "--n", "60", "-c", "2^0,2^4",
                               "--p", "4/3,inf", "--library", KERNELMIX_LIBRARY, "--results", self.dir.name,
                               "--scratch", self.dir.name, *args], capture_output=True, text=True)
        self.assertEqual(done.returncode, 0, done.stderr)
        with open(os.path.join(self.dir.name, "fashion-cv-grid.csv"), newline="") as f:
            return done.stdout, {row["contender"]: row for row in csv.DictReader(f)}

    def test_contenders_score_the_same_fits(self):
        output, rows = self.run_grid("--kernelmix", KERNELMIX_CLI)
        self.assertEqual(list(rows), list(cv_grid.CONTENDERS))
        for name in ("kernelmix-train", "kernelmix-train-v", "sklearn-grid"):
            self.assertEqual(rows[name]["agreement"], "fold accuracies equal to kernelmix-cv's in 4 of 4 settings")
            self.assertEqual(rows[name]["best_setting"], rows["kernelmix-cv"]["best_setting"])
            self.assertAlmostEqual(float(rows[name]["time_ratio"]),
                                   float(rows["kernelmix-cv"]["seconds"]) / float(rows[name]["seconds"]), places=9)
        self.assertEqual((rows["kernelmix-train"]["processes"], rows["kernelmix-train-v"]["processes"],
                          rows["libsvm-grid"]["processes"]), ("40", "4", "2"))
        self.assertGreater(float(rows["libsvm-grid"]["best_accuracy"]), 0.6)
        # a build without MPI refuses to run as one of mpirun's processes: skipped, saying so
        self.assertEqual(rows["kernelmix-cv-mpi2"]["status"],
                         "ok" if KERNELMIX_MPI else "skipped: kernelmix built without MPI")
        self.assertIn("| kernelmix-cv | kernelmix cv, one process, a thread a core | 1 |", output)

    @unittest.skipUnless(KERNELMIX_MPI, "kernelmix built without MPI")
    def test_ranks_are_checked_against_one_process(self):
        output, rows = self.run_grid("--kernelmix", KERNELMIX_CLI, "--contenders",
                                     "kernelmix-cv,kernelmix-cv-1thread,kernelmix-cv-mpi2")
        self.assertEqual(rows["kernelmix-cv-mpi2"]["status"], "ok")
        self.assertEqual(rows["kernelmix-cv-mpi2"]["ratio_of"], "kernelmix-cv-mpi2/kernelmix-cv-1thread")
        self.assertEqual(rows["kernelmix-cv-1thread"]["ratio_of"], "kernelmix-cv/kernelmix-cv-1thread")
        for name in ("kernelmix-cv", "kernelmix-cv-mpi2"):
            self.assertIn("- %s: results identical to kernelmix-cv-1thread's apart from the *_seconds fields" % name,
                          output)


class WorkloadTableTests(unittest.TestCase):
    def test_selection(self):
        self.assertEqual([w.name for w in select("a-mkl,a")], ["fashion-rbf10", "fashion-rbf"])
        self.assertRaises(ValueError, select, "a,z")


if __name__ == "__main__":
    unittest.main()
