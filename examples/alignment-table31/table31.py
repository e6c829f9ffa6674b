#!/usr/bin/python3
"""Table 3.1 of Rostamizadeh's thesis ("Learning Kernels", NYU 2010; Cortes, Mohri & Rostamizadeh,
"Two-Stage Learning Kernel Algorithms") with the kernelmix command-line tool.

Protocol (thesis §3.3.2): a seeded permutation of the rows into 5 folds; trial t tests on fold t,
selects the kernel-weight scale Lambda on fold t+1 (mod 5) and trains both stages on the other three
folds. The base kernels are Gaussians exp(-gamma ||x - x'||^2) on a grid gamma = 2^g0 .. 2^g1,
centred and normalized to trace 1 on the training folds. Ionosphere is a regression on +-1 labels
with kernel ridge regression (ridge 1, Lambda = 2^0 .. 2^20, root mean squared error); German,
Spambase and Splice are classifications with an SVM (C = 1, Lambda = 2^-4 .. 2^16, misclassification
in %). Each entry is the mean (sample std) of the five test errors, and the centred alignment of the
learned combination with the test labels on the test-test block (Def. 2.4 on the test sample),
averaged over the trials.

kernelmix normalizes a trace kernel to trace n (n training rows), the thesis to trace 1: the scale
Lambda of the thesis is --radius Lambda/n here (or C = Lambda/n for l1svm, where only C Lambda
matters). Two-stage methods (unif, align, alignf) train once per Lambda on the same weights; l2krr
and l1svm learn the weights at every Lambda.

--table21 adds Table 2.1: every base kernel alone on the same protocol, and the Pearson correlation
over the kernels between the mean test error and the mean training alignment, centred (rho) and
uncentred (A).

Usage: table31.py [--kernelmix PATH] [--data DIR] [--sets ionosphere,german,spam,splice]
                  [--methods unif,align,...] [--grid-step K] [--seeds 0,1,...] [--table21]
                  [--json FILE]
Without --data the sets are written by scripts/export-r-data.sh (needs Rscript and R's mlbench,
caret and kernlab) into a temporary directory.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# name: (task, gamma exponents, Lambda exponents, methods, error name)
SETS = {
    "ionosphere": ("krr", (-3, 3), (0, 20), ("unif", "l2krr", "align", "alignf"), "RMSE"),
    "german": ("svc", (-4, 3), (-4, 16), ("unif", "l1svm", "align", "alignf"), "error %"),
    "spam": ("svc", (-12, -7), (-4, 16), ("unif", "l1svm", "align", "alignf"), "error %"),
    "splice": ("svc", (-9, -3), (-4, 16), ("unif", "l1svm", "align", "alignf"), "error %"),
}

# The thesis' Table 3.1 (error (std) / alignment), for the side-by-side print.
THESIS = {
    "ionosphere": {"unif": (.467, .085, .242), "l2krr": (.457, .085, .248), "align": (.445, .086, .257),
                   "alignf": (.442, .087, .273)},
    "german": {"unif": (25.9, 1.8, .089), "l1svm": (26.0, 2.6, .082), "align": (25.5, 1.5, .089),
               "alignf": (24.2, 1.5, .093)},
    "spam": {"unif": (18.7, 2.8, .138), "l1svm": (20.9, 2.8, .099), "align": (18.6, 2.6, .140),
             "alignf": (18.0, 2.4, .146)},
    "splice": {"unif": (15.2, 2.2, .122), "l1svm": (15.3, 2.5, .105), "align": (15.1, 2.4, .123),
               "alignf": (13.9, 1.3, .124)},
}

MASK64 = (1 << 64) - 1


def splitmix64(state):
    """One step of splitmix64: (new state, output)."""
    state = (state + 0x9E3779B97F4A7C15) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


def five_folds(n, seed):
    """Fisher-Yates permutation driven by splitmix64(seed), cut into 5 contiguous folds."""
    perm = list(range(n))
    state = seed & MASK64
    for i in range(n - 1, 0, -1):
        state, r = splitmix64(state)
        j = r % (i + 1)
        perm[i], perm[j] = perm[j], perm[i]
    return [sorted(perm[t * n // 5:(t + 1) * n // 5]) for t in range(5)]


def read_libsvm(path):
    lines = [ln for ln in open(path).read().splitlines() if ln.strip()]
    y = np.empty(len(lines))
    rows = []
    d = 0
    for i, ln in enumerate(lines):
        parts = ln.split()
        y[i] = float(parts[0])
        row = {}
        for item in parts[1:]:
            k, v = item.split(":")
            row[int(k)] = float(v)
            d = max(d, int(k))
        rows.append(row)
    X = np.zeros((len(lines), d))
    for i, row in enumerate(rows):
        for k, v in row.items():
            X[i, k - 1] = v
    return lines, X, y


class Runner:
    def __init__(self, kernelmix, work):
        self.kernelmix = kernelmix
        self.work = work
        # thousands of small problems: one thread each, no idle OpenMP workers spinning
        self.env = dict(os.environ)
        self.env.setdefault("OMP_NUM_THREADS", "1")

    def run(self, *args):
        done = subprocess.run([self.kernelmix, *args], capture_output=True, text=True, env=self.env)
        if done.returncode != 0:
            raise SystemExit(f"kernelmix {' '.join(args)} failed: {done.stderr.strip()}")
        return done.stdout

    def train(self, options, train_file, model):
        self.run("train", "-q", *options, train_file, model)

    def predict(self, model, test_file):
        out = os.path.join(self.work, "pred")
        self.run("predict", "-q", test_file, model, out)
        return np.loadtxt(out, ndmin=1)

    def info(self, model):
        return json.loads(self.run("info", "--json", model))


def gaussian_grid(g0, g1):
    return f"rbf:gamma=2^{g0}..2^{g1}:center=1:norm=trace"


def method_options(task, method, n_kernels, scale):
    """Options of one method at the thesis' Lambda = scale (in trace-n units already)."""
    base = ["-s", task, "-c", "1"] if task == "krr" else ["-s", "svc", "-c", "1"]
    if method == "unif":
        return base + ["--weights", ",".join([repr(scale / n_kernels)] * n_kernels)]
    if method == "l1svm":  # lp-norm MKL at p = 1: weights on the simplex, C Lambda is what matters
        return ["-s", "svc", "-c", repr(scale), "--mkl", "lp", "--p", "1"]
    return base + ["--mkl", method, "--radius", repr(scale)]


def errors(task, pred, y):
    if task == "krr":
        return float(np.sqrt(np.mean((pred - y) ** 2)))
    return float(100.0 * np.mean(pred != y))


def test_alignment(info, X, y):
    """Centred alignment of the model's combination with yy' on the test-test block (Def. 2.4)."""
    sq = np.sum(X * X, axis=1)
    D = np.maximum(sq[:, None] + sq[None, :] - 2 * X @ X.T, 0)
    K = np.zeros_like(D)
    for kernel in info["kernels"]:
        fields = dict(f.split("=", 1) for f in kernel["spec"].split(":")[1:])
        if kernel["weight"] > 0:
            K += kernel["weight"] * np.exp(-float(fields["gamma"]) * D) / float(fields.get("scale", 1))
    n = len(y)
    U = np.eye(n) - 1.0 / n
    Kc = U @ K @ U
    yc = y - y.mean()
    norm = np.linalg.norm(Kc) * (yc @ yc)
    return float(yc @ Kc @ yc / norm) if norm > 0 else float("nan")


def write_rows(path, lines, rows):
    with open(path, "w") as out:
        out.write("\n".join(lines[i] for i in rows) + "\n")


def run_set(runner, name, path, grid_step, seeds, table21, only):
    """The protocol on one set, the trials of every seed pooled (mean and std over 5 x len(seeds))."""
    task, (g0, g1), (l0, l1), methods, _ = SETS[name]
    methods = [m for m in methods if only is None or m in only]
    lines, X, y = read_libsvm(path)
    lambdas = [2.0 ** e for e in range(l0, l1 + 1, grid_step)]
    gammas = list(range(g0, g1 + 1))
    results = {m: {"error": [], "alignment": []} for m in methods}
    single = {g: [] for g in gammas}
    train_rho, train_uncentred = [], []
    for trial, (folds, t) in enumerate((five_folds(len(y), seed), t) for seed in seeds for t in range(5)):
        test, val = folds[t], folds[(t + 1) % 5]
        train = sorted(i for f in range(5) if f not in (t, (t + 1) % 5) for i in folds[f])
        files = {}
        for part, rows in (("train", train), ("valtest", val + test)):
            files[part] = os.path.join(runner.work, f"{name}.{part}")
            write_rows(files[part], lines, rows)
        n = len(train)
        model, best_model = os.path.join(runner.work, "model"), os.path.join(runner.work, "best.model")

        def select(options_at, spec_options):
            """Best Lambda on the validation fold (smallest on ties): (test error, model info)."""
            best = None
            for lam in lambdas:
                runner.train(spec_options + options_at(lam / n), files["train"], model)
                pred = runner.predict(model, files["valtest"])
                err = errors(task, pred[:len(val)], y[val])
                if best is None or err < best[0]:
                    best = (err, errors(task, pred[len(val):], y[test]))
                    os.replace(model, best_model)
            return best[1], runner.info(best_model)

        kernel = ["--kernel", gaussian_grid(g0, g1)]
        for method in methods:
            err, info = select(lambda scale: method_options(task, method, len(gammas), scale), kernel)
            results[method]["error"].append(err)
            results[method]["alignment"].append(test_alignment(info, X[test], y[test]))
            if info["alignment"] and len(train_rho) == trial:  # models of learned weights keep them
                train_rho.append(info["alignment"]["targets"]["rho"])
                train_uncentred.append(info["alignment"]["targets"]["uncentred"])
        if table21:
            for g in gammas:
                err, _ = select(lambda scale: method_options(task, "unif", 1, scale),
                                ["--kernel", f"rbf:gamma=2^{g}:center=1:norm=trace"])
                single[g].append(err)
    out = {m: {"error": float(np.mean(r["error"])), "std": float(np.std(r["error"], ddof=1)),
               "alignment": float(np.mean(r["alignment"])), "errors": r["error"],
               "alignments": r["alignment"]} for m, r in results.items()}
    if table21:
        mean_err = [np.mean(single[g]) for g in gammas]
        out["table21"] = {"rho": float(np.corrcoef(mean_err, np.mean(train_rho, axis=0))[0, 1]),
                          "uncentred": float(np.corrcoef(mean_err, np.mean(train_uncentred, axis=0))[0, 1]),
                          "single_errors": [float(e) for e in mean_err]}
    return out


def print_table(results, table21):
    sets = list(results)
    rows = []
    for method in ("unif", "l2krr", "l1svm", "align", "alignf"):
        if any(method in results[s] for s in sets):
            rows.append(method)
    width = 24
    head = f"{'method':<8}" + "".join(f"{s + ' (' + SETS[s][4] + ')':>{width}}" for s in sets)
    print("kernelmix (error (std) / test alignment)")
    print(head)
    for method in rows:
        cells = []
        for s in sets:
            r = results[s].get(method)
            digits = 3 if SETS[s][0] == "krr" else 1
            cells.append(f"{r['error']:.{digits}f}({r['std']:.{digits}f}) / {r['alignment']:.3f}" if r else "-")
        print(f"{method:<8}" + "".join(f"{c:>{width}}" for c in cells))
    print("thesis Table 3.1")
    print(head)
    for method in rows:
        cells = []
        for s in sets:
            r = THESIS[s].get(method)
            digits = 3 if SETS[s][0] == "krr" else 1
            cells.append(f"{r[0]:.{digits}f}({r[1]:.{digits}f}) / {r[2]:.3f}" if r else "-")
        print(f"{method:<8}" + "".join(f"{c:>{width}}" for c in cells))
    if table21:
        print("Table 2.1: correlation of single-kernel error with training alignment")
        for s in sets:
            t = results[s]["table21"]
            print(f"{s:<12} rho {t['rho']:+.4f}   A {t['uncentred']:+.4f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kernelmix", default=shutil.which("kernelmix") or os.path.join(ROOT, "build", "kernelmix"))
    parser.add_argument("--data", help="directory with NAME.libsvm (default: export them with R)")
    parser.add_argument("--sets", default="ionosphere,german,spam,splice")
    parser.add_argument("--grid-step", type=int, default=1, help="use every K-th Lambda of the grid")
    parser.add_argument("--seeds", default="0",
                        help="seeds of the fold permutation, e.g. 0,1,2 (trials pooled; default 0)")
    parser.add_argument("--methods", help="a subset of unif,l2krr,l1svm,align,alignf (default: all)")
    parser.add_argument("--table21", action="store_true",
                        help="also the single-kernel correlations (needs a method of learned weights)")
    parser.add_argument("--json", help="write the results as JSON")
    args = parser.parse_args()
    sets = args.sets.split(",")
    for s in sets:
        if s not in SETS:
            parser.error(f"unknown set {s!r} (known: {', '.join(SETS)})")
    for m in args.methods.split(",") if args.methods else []:
        if m not in ("unif", "l2krr", "l1svm", "align", "alignf"):
            parser.error(f"unknown method {m!r}")
    try:
        seeds = [int(v) for v in args.seeds.split(",")]
    except ValueError:
        parser.error(f"--seeds: not a list of integers: {args.seeds!r}")
    if args.grid_step < 1:
        parser.error("--grid-step must be at least 1")
    with tempfile.TemporaryDirectory(prefix="table31.") as work:
        data = args.data
        if data is None:
            data = os.path.join(work, "data")
            subprocess.run([os.path.join(ROOT, "scripts", "export-r-data.sh"), data], check=True,
                           stdout=subprocess.DEVNULL)
        runner = Runner(args.kernelmix, work)
        only = args.methods.split(",") if args.methods else None
        results = {s: run_set(runner, s, os.path.join(data, s + ".libsvm"), args.grid_step, seeds, args.table21,
                              only) for s in sets}
    print_table(results, args.table21)
    if args.json:
        with open(args.json, "w") as out:
            json.dump(results, out, indent=1)


if __name__ == "__main__":
    sys.exit(main())
