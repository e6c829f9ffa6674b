#!/usr/bin/python3
"""The kernel-bank experiment of Tomioka & Suzuki ("Regularization Strategies and Empirical Bayesian
Learning for MKL", arXiv:1011.3090, §5 and Fig. 1): uniform, elastic-net (lambda = 0.5), block-1 and
empirical-Bayes (MacKay) MKL with the squared loss on a bank of 1,760 kernels, C chosen per method by
4-fold cross-validation on the training rows, against the number of training images per class.

The paper's Caltech-101 SIFT features are not available offline; examples/eb-kernel-bank/bank.py builds
a bank of the same shape (4 per-pixel descriptors x 22 regions x rbf and chi2 x 10 widths) from grey
images, and the task is scikit-learn's digits 3 against 8, or Fashion-MNIST's T-shirt against shirt.
Every method is kernel ridge regression on +-1 targets, a test row's class the sign of its prediction;
`kernelmix cv --folds 4 --score mse` chooses C (the squared loss the methods minimize) and refits on
all training rows; EB-MK learns the noise variance and needs no C.

The paper's conclusions, checked: the elastic net keeps many of the kernels but not all (870 of 1,760 in
the paper), block-1 fewer and EB the fewest; the elastic net and the uniform sum classify best (averaged
over the sizes, neither below block-1 or EB by more than a point); and every training reaches its own
duality-gap target at the default tolerances (no warning from any fit of the grid).

    /usr/bin/python3 examples/blocknorm-bank/run.py [--full] [--out DIR] [--kernelmix PATH]

Reduced size: digits, 10 and 25 images per class, one draw each, the bank's first descriptor (440
kernels; under a minute on two cores); --full: digits and Fashion-MNIST, 10, 25 and 50 images per class,
two draws each, the whole bank."""
import json
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "eb-kernel-bank"))
import bank  # noqa: E402
import compare  # noqa: E402
import gallery  # noqa: E402

C_GRID = "2^-4..2^20:2"
METHODS = {  # name: (the training options, whether cv chooses C)
    "uniform": ([], True),
    "elastic net": (["--mkl", "tikhonov", "--regularizer", "elasticnet", "--lambda", "0.5"], True),
    "block-1": (["--mkl", "tikhonov", "--regularizer", "block1"], True),
    "EB-MK": (["--mkl", "eb-mackay", "--learn-noise"], False),
}
# The paper's Fig. 1 (Caltech-101 Cannon vs Cup): the elastic net kept 870 of the 1,760 kernels.
PAPER_ELASTIC_NET_KEPT = 870


def warnings_of(text):
    return [line for line in text.splitlines() if "warning" in line]


def fit(args, work, method):
    """(test predictions, kernels kept, chosen C or None, seconds, warnings) of one method on the draw in
    work (train, test, bank.txt)."""
    options, chooses_c = METHODS[method]
    model, predictions = (os.path.join(work, name) for name in ("model", "pred"))
    common = ["-s", "krr", *options, "--kernels", os.path.join(work, "bank.txt")]
    start = time.perf_counter()
    if chooses_c:
        done = subprocess.run([args.kernelmix, "cv", "-q", *common, "-c", C_GRID, "--folds", "4", "--score", "mse",
                               "--json", "--refit", model, os.path.join(work, "train")], capture_output=True, text=True)
    else:
        done = subprocess.run([args.kernelmix, "train", "-q", *common, os.path.join(work, "train"), model],
                              capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"kernelmix failed ({method}): {done.stderr.strip()}")
    seconds = time.perf_counter() - start
    chosen = None
    if chooses_c:
        best = gallery.json_lines(done.stdout)[-1]["best"]
        chosen = re.search(r"-c (\S+)", best["options"]).group(1)
    gallery.kernelmix(args, "predict", "-q", os.path.join(work, "test"), model, predictions)
    info = json.loads(gallery.kernelmix(args, "info", "--json", model))
    kept = int(np.sum(np.array(info["machines"][0]["kernel_weights"], float) > 0))
    return np.loadtxt(predictions, ndmin=1), kept, chosen, seconds, warnings_of(done.stderr)


def one_draw(args, images, per_class, draw_index, shape):
    """Every method on one draw from images (compare.images' pools): {method: (accuracy, kept, chosen C,
    seconds, warnings)} and the bank's size."""
    pool, test = images
    rng = np.random.default_rng([per_class, draw_index])
    X, t, Xt, tt = compare.draw(pool, test, per_class, args.test_rows, rng)
    with tempfile.TemporaryDirectory() as work:
        F = bank.features(X)
        bank.write_libsvm(os.path.join(work, "train"), F, t)
        bank.write_libsvm(os.path.join(work, "test"), bank.features(Xt), tt)
        specs = bank.kernel_specs(F, **shape)
        with open(os.path.join(work, "bank.txt"), "w") as f:
            f.write("\n".join(specs) + "\n")
        n_kernels = len(specs) * len(shape.get("gammas", bank.GAMMAS))
        out = {}
        for method in METHODS:
            predicted, kept, chosen, seconds, warned = fit(args, work, method)
            out[method] = (float(np.mean(np.where(predicted >= 0, 1.0, -1.0) == tt)), kept, chosen, seconds, warned)
    return out, n_kernels


def main():
    args = gallery.arguments(__doc__, "blocknorm-bank", lambda parser: (
        parser.add_argument("--test-rows", type=int, default=400, help="test images per draw (default 400)")))
    if args.full:
        datasets, sizes, draws, shape = ["digits", "fashion"], [10, 25, 50], 2, {}
    else:
        datasets, sizes, draws, shape = ["digits"], [10, 25], 1, {"descriptors": (0,)}
    available = [d for d in datasets if d == "digits" or os.path.isdir(bank.FASHION)]
    if not available:
        print("skipped: the data sets need scikit-learn's digits")
        return gallery.SKIPPED
    os.environ.setdefault("OMP_NUM_THREADS", "1")  # one fit per job
    images = {data: compare.images(data) for data in available}
    calls = [(one_draw, args, images[data], n, k, shape) for data in available for n in sizes for k in range(draws)]
    outcomes = iter(gallery.parallel(args, calls, "draws"))
    results = {(data, n): [next(outcomes) for _ in range(draws)] for data in available for n in sizes}

    rows, lines, records = [], [], []
    summary = {}
    for (data, n), runs in results.items():
        n_kernels = float(np.mean([r[1] for r in runs]))
        cells = []
        for method in METHODS:
            accuracy = [r[0][method][0] for r in runs]
            kept = float(np.mean([r[0][method][1] for r in runs]))
            chosen = [r[0][method][2] for r in runs]
            seconds = float(np.mean([r[0][method][3] for r in runs]))
            warned = [w for r in runs for w in r[0][method][4]]
            summary[data, n, method] = (float(np.mean(accuracy)), kept, n_kernels, warned)
            cells.append(f"{np.mean(accuracy):.3f} ({kept:.0f})" + (f" C {'/'.join(chosen)}" if chosen[0] else ""))
            lines.append({"options": f"--data {data} --per-class {n} --method {method.replace(' ', '-')}",
                          "metric": "accuracy",
                          "scores": accuracy, "mean": float(np.mean(accuracy)),
                          "std": float(np.std(accuracy, ddof=1)) if len(accuracy) > 1 else 0.0})
            records.append({"data": data, "per_class": n, "method": method, "accuracy": accuracy, "kept": kept,
                            "kernels": n_kernels, "chosen_c": chosen, "fit_seconds": seconds, "warnings": warned})
        rows.append([data, n, f"{n_kernels:.0f}", *cells])
    with open(os.path.join(args.out, "results.json"), "w") as out:
        json.dump(records, out, indent=1)
    gallery.write_table(os.path.join(args.out, "table.md"),
                        ["data", "images per class", "kernels", *METHODS], rows,
                        f"Test accuracy (kernels kept) and the C chosen by 4-fold cross-validation, mean over "
                        f"{draws} draw(s) of the training images; at most {args.test_rows} test images per draw. "
                        f"The paper (Caltech-101 Cannon vs Cup): the elastic net keeps {PAPER_ELASTIC_NET_KEPT} "
                        f"of 1,760 kernels.")
    for data in available:
        gallery.plot_cv(args, f"{data}: test accuracy against training images per class (C by 4-fold cv)",
                        [line for line in lines if line["options"].startswith(f"--data {data} ")],
                        "figure" if data == available[0] else f"figure-{data}", lower_is_better=False,
                        series="--method")
    with open(os.path.join(args.out, "table.md")) as table:
        print(table.read())

    checks = gallery.Checks()
    warned = [w for v in summary.values() for w in v[3]]
    checks.expect(not warned, f"every fit reaches its duality-gap target at the default tolerances "
                              f"({len(warned)} warnings{': ' + warned[0] if warned else ''})")
    for data in available:
        for n in sizes:
            kept = {m: summary[data, n, m][1] for m in METHODS}
            total = summary[data, n, "uniform"][2]
            checks.expect(kept["EB-MK"] < kept["block-1"] < kept["elastic net"] < total,
                          f"{data}, {n} per class: EB keeps the fewest kernels ({kept['EB-MK']:.0f}), block-1 fewer "
                          f"({kept['block-1']:.0f}) than the elastic net ({kept['elastic net']:.0f} of {total:.0f}; "
                          f"the paper {PAPER_ELASTIC_NET_KEPT} of 1,760)")
        mean = {m: float(np.mean([summary[data, n, m][0] for n in sizes])) for m in METHODS}
        for best in ("elastic net", "uniform"):
            for other in ("block-1", "EB-MK"):
                checks.expect(mean[best] >= mean[other] - 0.01,
                              f"{data}: {best} ({mean[best]:.3f}, mean over the sizes) classifies at least as well "
                              f"as {other} ({mean[other]:.3f}) less a point")
    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
