#!/usr/bin/python3
"""Empirical-Bayes MKL against a Gaussian-process library: the same model, a learned sum of fixed-width
RBF kernels plus noise, fitted by maximising the evidence, in one run.

Data: fashion-MNIST T-shirt/top (+1) against shirt (-1), N training images (default 1,000, drawn with
--seed by fashion_mnist.py) and 2,000 test images; targets +1/-1 centred by their training mean (the
mean is EB-MKL's bias; the Gaussian process gets the centred targets). Kernels: M RBF widths (default
20) gamma0 * 2^k, k evenly spaced in [-5, 4], gamma0 = 1 / mean ||x - x'||^2 over the training pairs.

Contenders:
  kernelmix-eb-mackay  kernelmix train -s krr --mkl eb-mackay --learn-noise, the M widths as --kernel
                       rbf:gamma=...: MacKay's fixed-point steps on the evidence (Tomioka & Suzuki)
  sklearn-gpr          scikit-learn GaussianProcessRegressor with the kernel
                       sum_m ConstantKernel(1.0) * RBF(length_scale_m, fixed) + WhiteKernel(1.0),
                       length_scale_m = 1 / sqrt(2 gamma_m): L-BFGS over the M + 1 log-amplitudes from
                       its default start, n_restarts_optimizer = 3 (random starts drawn with --seed)

Reports each contender's wall time and peak RSS, its log evidence log p(y | weights, noise) with its
constant, the test accuracy of the sign of its posterior mean, and kernelmix's time over the peer's.
The target ("speed where users wait", item 5a): kernelmix's evidence at least the peer's, in at most
0.2 of its time. Writes RESULTS/fashion-eb-gp.csv and .md.

  bench/eb_gp.py                   # N = 1,000, M = 20 (minutes: the Gaussian process)
  bench/eb_gp.py --n 300 --m 5     # a quick look"""

import argparse
import json
import math
import os
import subprocess
import sys

from libsvm_files import accuracy, read_labels, read_predictions
from machine import describe
from measure import floor_kib, run_measured
from report import write_csv
from tools import BENCH_DIR

REPOSITORY = os.path.dirname(BENCH_DIR)
COLUMNS = ("tool", "n_train", "n_test", "kernels", "time_s", "peak_rss_mib", "log_evidence", "noise",
           "kernels_kept", "accuracy", "time_ratio", "command")


def gamma_list(gamma0, count):
    """gamma0 * 2^k for count values of k evenly spaced in [-5, 4]."""
    if count == 1:
        return [gamma0]
    return [gamma0 * 2.0 ** (-5.0 + 9.0 * k / (count - 1)) for k in range(count)]


def model_data(path):
    """The first value of each entry of the [data eb] section of a kernelmix model file (an entry is
    a line "NAME rows R C" and the values on the lines after it)."""
    values, inside, key = {}, False, None
    with open(path, errors="replace") as f:
        for line in f:
            line = line.strip()
            if line.startswith("["):
                inside = line == "[data eb]"
            elif inside and " rows " in line:
                key = line.split()[0]
            elif inside and key:
                values[key] = float(line.split()[0])
                key = None
    return values


def run_peer(arguments):
    """The Gaussian process, in a child process (so that its time and memory are its own): fits on the
    centred training targets, writes its log evidence, noise and the sign of its test predictions."""
    import numpy as np
    from sklearn.datasets import load_svmlight_file
    from sklearn.gaussian_process import GaussianProcessRegressor
    from sklearn.gaussian_process.kernels import RBF, ConstantKernel, WhiteKernel

    train, test, gammas_text, seed, output = arguments
    gammas = [float(g) for g in gammas_text.split(",")]
    X, y = load_svmlight_file(train, n_features=784)
    Xt, _ = load_svmlight_file(test, n_features=784)
    X, Xt = X.toarray(), Xt.toarray()
    kernel = WhiteKernel(1.0)
    for g in gammas:
        kernel = ConstantKernel(1.0) * RBF(length_scale=1.0 / math.sqrt(2.0 * g), length_scale_bounds="fixed") + kernel
    mean = y.mean()
    gp = GaussianProcessRegressor(kernel=kernel, n_restarts_optimizer=3, random_state=int(seed)).fit(X, y - mean)
    predictions = gp.predict(Xt) + mean
    with open(output, "w") as f:
        noise = next(v for k, v in gp.kernel_.get_params().items() if k.endswith("noise_level"))
        json.dump({"log_evidence": float(gp.log_marginal_likelihood_value_), "noise": float(noise),
                   "kernel": str(gp.kernel_)}, f)
    with open(output + ".predictions", "w") as f:
        for p in predictions:
            f.write("%d\n" % (1 if p >= 0 else -1))


def parse_options(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=1000, help="training images (default 1000)")
    parser.add_argument("--m", type=int, default=20, help="RBF widths (default 20)")
    parser.add_argument("--test-size", type=int, default=2000, help="test images (default 2000)")
    parser.add_argument("--seed", type=int, default=1, help="draw of the training images and of the peer's "
                        "restarts (default 1)")
    parser.add_argument("--kernelmix", default=os.path.join(REPOSITORY, "build", "kernelmix"))
    parser.add_argument("--python", default="/usr/bin/python3", help="the interpreter of the peer")
    parser.add_argument("--results", default=os.path.join(BENCH_DIR, "results"))
    return parser.parse_args(argv)


def main(argv):
    if argv[:1] == ["--peer"]:
        run_peer(argv[1:])
        return 0
    o = parse_options(argv)
    work = os.path.join(o.results, "tmp", "eb-gp-n%d-m%d" % (o.n, o.m))
    os.makedirs(work, exist_ok=True)
    meta = json.loads(subprocess.run(
        [o.python, os.path.join(BENCH_DIR, "fashion_mnist.py"), "--n", str(o.n), "--test-size", str(o.test_size),
         "--seed", str(o.seed), "--task", "tshirt-shirt",
         "--out", os.path.join(o.results, "tmp", "data", "eb-gp-n%d-test%d-seed%d" % (o.n, o.test_size, o.seed))],
        check=True, capture_output=True, text=True).stdout)
    gamma0 = 1.0 / meta["mean_sq_dist"]
    gammas = gamma_list(gamma0, o.m)
    truth = read_labels(meta["test"])
    log = os.path.join(work, "log.txt")
    floor = floor_kib(log)
    model, kernelmix_predictions = os.path.join(work, "eb.model"), os.path.join(work, "eb.predictions")
    kernelmix_command = [o.kernelmix, "train", "-s", "krr", "--mkl", "eb-mackay", "--learn-noise", "-q",
                         *[a for g in gammas for a in ("--kernel", "rbf:gamma=%r" % g)], meta["train"], model]
    peer_output = os.path.join(work, "gpr.json")
    peer_command = [o.python, os.path.abspath(__file__), "--peer", meta["train"], meta["test"],
                    ",".join(repr(g) for g in gammas), str(o.seed), peer_output]
    rows = []
    for tool, command in (("kernelmix-eb-mackay", kernelmix_command), ("sklearn-gpr", peer_command)):
        print("%s ..." % tool, flush=True)
        measured = run_measured(command, log)
        if measured.returncode != 0:
            sys.exit("%s failed (exit %d): see %s" % (tool, measured.returncode, log))
        if tool == "sklearn-gpr":
            with open(peer_output) as f:
                found = json.load(f)
            evidence, noise, kept, predictions = found["log_evidence"], found["noise"], None, peer_output + ".predictions"
        else:
            if run_measured([o.kernelmix, "predict", "-q", meta["test"], model, kernelmix_predictions], log).returncode:
                sys.exit("kernelmix predict failed: see %s" % log)
            data = model_data(model)
            evidence, noise = -data["neg_log_evidence_1"], data["noise_1"]
            kept, predictions = int(data["kernels_kept_1"]), kernelmix_predictions
        rows.append({"tool": tool, "n_train": o.n, "n_test": len(truth), "kernels": o.m,
                     "time_s": measured.wall_s, "peak_rss_mib": max(measured.peak_rss_kib, floor) / 1024.0,
                     "log_evidence": evidence, "noise": noise, "kernels_kept": kept,
                     "accuracy": accuracy(truth, [1.0 if v >= 0 else -1.0 for v in read_predictions(predictions)]),
                     "time_ratio": None,
                     "command": " ".join(command)})
        print("  %.2f s, log evidence %.6f" % (measured.wall_s, evidence), flush=True)
    rows[1]["time_ratio"] = rows[0]["time_s"] / rows[1]["time_s"]
    met_time = rows[1]["time_ratio"] <= 0.2
    met_evidence = rows[0]["log_evidence"] >= rows[1]["log_evidence"]
    lines = ["# kernelmix benchmarks", "",
             "## fashion-eb-gp: fashion-MNIST T-shirt vs shirt, N = %d, %d RBF widths gamma0 * 2^k (k evenly "
             "spaced in [-5, 4]), a learned sum of the kernels plus noise by the evidence" % (o.n, o.m), "",
             "| tool | N | M | seconds | peak RSS MiB | log evidence | noise | kernels kept | test accuracy | "
             "time kernelmix/peer |", "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append("| %s | %d | %d | %.2f | %.1f | %.6f | %.6g | %s | %.4f | %s |" % (
            r["tool"], r["n_train"], r["kernels"], r["time_s"], r["peak_rss_mib"], r["log_evidence"], r["noise"],
            "" if r["kernels_kept"] is None else r["kernels_kept"], r["accuracy"],
            "" if r["time_ratio"] is None else "%.3f (target <= 0.2: %s)" % (r["time_ratio"],
                                                                            "met" if met_time else "missed")))
    lines += ["", "- gamma0 = %r (1 / mean ||x - x'||^2 over the training pairs); test rows %d" % (gamma0, len(truth)),
              "- log evidence: log p(y - mean(y) | weights, noise) with its constant -(N/2) log 2 pi; kernelmix's "
              "minus the model's neg_log_evidence_1, the peer's log_marginal_likelihood_value_; kernelmix's %s the "
              "peer's (target: at least as high: %s)" % (
                  ">=" if met_evidence else "<", "met" if met_evidence else "missed"),
              "- seconds: wall time of training alone (kernelmix train; the peer's process: reading the data, the "
              "fit with its restarts and the test predictions)",
              "", "## Machine", ""] + ["- %s: %s" % field for field in describe(o.python, o.kernelmix, REPOSITORY)]
    os.makedirs(o.results, exist_ok=True)
    write_csv(os.path.join(o.results, "fashion-eb-gp.csv"), rows, COLUMNS)
    with open(os.path.join(o.results, "fashion-eb-gp.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
