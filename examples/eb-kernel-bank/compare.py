"""Uniform, elastic-net, block-1 and empirical-Bayes (MacKay) MKL on the kernel bank of bank.py.

Every method is kernel ridge regression on +1/-1 targets (the squared loss of Tomioka & Suzuki's
experiment, the class is the sign of the prediction) with loss weight C (-c, default 1) and no
cross-validation:
  uniform      -s krr                                             d_m = 1
  elastic net  -s krr --mkl tikhonov --regularizer elasticnet --lambda 0.5
  block-1      -s krr --mkl tikhonov --regularizer block1
  EB-MK        -s krr --mkl eb-mackay --learn-noise               (no C: the evidence sets d and s2)
For each data set and training size it draws --seeds training sets of n images per class, tests on the
rest (at most --test-rows), and prints the mean accuracy and the mean number of kernels kept (d_m > 0).

usage: compare.py KERNELMIX [--bank full|ci] [--data digits,fashion] [--per-class 10,25] [--seeds 3]
                  [--test-rows 400] [-c 1] [--json FILE] [--work DIR]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bank  # noqa: E402

METHODS = (
    ("uniform", []),
    ("elastic net", ["--mkl", "tikhonov", "--regularizer", "elasticnet", "--lambda", "0.5"]),
    ("block-1", ["--mkl", "tikhonov", "--regularizer", "block1"]),
    ("EB-MK", ["--mkl", "eb-mackay", "--learn-noise"]),
)
# the CI bank: descriptor 1, regions {whole, 4 quadrants, pyramid}, 3 widths: 36 kernels
CI_BANK = dict(descriptors=(0,), regions=(0, 1, 2, 3, 4, bank.N_REGIONS), gammas=(0.5, 1.2, 5))


def images(name):
    """(train pool, test pool) of images and +1/-1 labels."""
    if name == "digits":
        X, y = bank.load_digits(3, 8)
        t = np.where(y == 3, 1.0, -1.0)
        return (X, t), None
    Xtr, ytr = bank.load_fashion(0, 6, "train")
    Xte, yte = bank.load_fashion(0, 6, "t10k")
    return (Xtr, np.where(ytr == 0, 1.0, -1.0)), (Xte, np.where(yte == 0, 1.0, -1.0))


def draw(pool, test, per_class, test_rows, rng):
    """Training rows: per_class of each class; test rows: the rest of the pool (or the test pool)."""
    X, t = pool
    chosen = np.concatenate([rng.choice(np.flatnonzero(t == c), per_class, replace=False) for c in (1, -1)])
    if test is None:
        rest = np.setdiff1d(np.arange(len(t)), chosen)
        Xt, tt = X[rest], t[rest]
    else:
        Xt, tt = test
    keep = rng.permutation(len(tt))[:test_rows]
    return X[chosen], t[chosen], Xt[keep], tt[keep]


def run(kernelmix, work, kernels, method_args, C):
    model, out = os.path.join(work, "model"), os.path.join(work, "pred")
    start = time.perf_counter()
    c = [] if "eb-mackay" in method_args else ["-c", str(C)]
    subprocess.run([kernelmix, "train", "-q", "-s", "krr", *c, *method_args, "--kernels", kernels,
                    os.path.join(work, "train"), model], check=True)
    seconds = time.perf_counter() - start
    subprocess.run([kernelmix, "predict", "-q", os.path.join(work, "test"), model, out], check=True)
    info = json.loads(subprocess.run([kernelmix, "info", "--json", model], check=True, capture_output=True,
                                     text=True).stdout)
    weights = np.array(info["machines"][0]["kernel_weights"], float)
    return np.loadtxt(out), int(np.sum(weights > 0)), seconds


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("kernelmix")
    ap.add_argument("--bank", choices=("full", "ci"), default="full")
    ap.add_argument("--data", default="digits,fashion")
    ap.add_argument("--per-class", default="10,25")
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--test-rows", type=int, default=400)
    ap.add_argument("-c", type=float, default=1.0)
    ap.add_argument("--json")
    ap.add_argument("--work")
    a = ap.parse_args()
    work = a.work or tempfile.mkdtemp(prefix="eb-bank.")
    os.makedirs(work, exist_ok=True)
    kernels = os.path.join(work, "bank.txt")
    shape = CI_BANK if a.bank == "ci" else {}
    widths = len(shape.get("gammas", bank.GAMMAS))
    n_kernels = len(bank.kernel_specs(np.eye(2 * bank.N_REGIONS * sum(bank.BINS)), **shape)) * widths
    results = []
    print(f"{n_kernels} kernels (those constant on a training draw left out), C = {a.c:g}, {a.seeds} draws, "
          f"at most {a.test_rows} test rows; cells: accuracy (kernels kept)")
    print(f"{'data':8} {'n/class':>7} {'kernels':>7}  " + "  ".join(f"{m:>18}" for m, _ in METHODS))
    for name in a.data.split(","):
        pool, test = images(name)
        for per_class in map(int, a.per_class.split(",")):
            rng = np.random.default_rng(per_class)
            scores, used = {m: ([], [], []) for m, _ in METHODS}, []
            for _ in range(a.seeds):
                X, t, Xt, tt = draw(pool, test, per_class, a.test_rows, rng)
                F = bank.features(X)
                bank.write_libsvm(os.path.join(work, "train"), F, t)
                specs = bank.kernel_specs(F, **shape)
                used.append(len(specs) * widths)
                with open(kernels, "w") as f:
                    f.write("\n".join(specs) + "\n")
                bank.write_libsvm(os.path.join(work, "test"), bank.features(Xt), tt)
                for method, method_args in METHODS:
                    f, kept, seconds = run(a.kernelmix, work, kernels, method_args, a.c)
                    scores[method][0].append(np.mean(np.where(f >= 0, 1.0, -1.0) == tt))
                    scores[method][1].append(kept)
                    scores[method][2].append(seconds)
            row = {"data": name, "per_class": per_class, "kernels": float(np.mean(used))}
            cells = []
            for method, _ in METHODS:
                acc, kept, seconds = (float(np.mean(v)) for v in scores[method])
                row[method] = {"accuracy": acc, "accuracy_sd": float(np.std(scores[method][0])),
                               "kept": kept, "seconds": seconds}
                cells.append(f"{acc:.3f} ({kept:6.1f} k)")
            results.append(row)
            print(f"{name:8} {per_class:7d} {row['kernels']:7.1f}  " + "  ".join(f"{c:>18}" for c in cells), flush=True)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
