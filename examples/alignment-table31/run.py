#!/usr/bin/python3
"""Table 3.1 and Table 2.1 of Rostamizadeh's thesis ("Learning Kernels", NYU 2010; Cortes, Mohri &
Rostamizadeh, "Two-Stage Learning Kernel Algorithms", ICML 2010): kernels learned by their alignment
with the labels (align, alignf) against the uniform combination (unif) and one-stage learning (l2krr
for regression, l1svm for classification).

Protocol (thesis §3.3.2): a seeded permutation of the rows into 5 folds; trial t tests on fold t,
selects the kernel-weight scale Lambda on fold t+1 (mod 5; the smallest Lambda on ties) and trains
both stages on the other three folds. The base kernels are Gaussians exp(-gamma ||x - x'||^2) on a grid
gamma = 2^g0 .. 2^g1, centred and normalized to trace 1 on the training folds. Ionosphere is a
regression on +-1 labels with kernel ridge regression (ridge 1, Lambda = 2^0 .. 2^20, root mean squared
error); German, Spambase and Splice are classifications with an SVM (C = 1, Lambda = 2^-4 .. 2^16,
misclassification in %). Each entry is the mean (sample std) of the test errors, and the centred
alignment of the learned combination with the test labels on the test-test block (Def. 2.4 on the
test sample), averaged over the trials. Table 2.1: every base kernel alone on the same protocol, and
the Pearson correlation over the kernels between its mean test error and its mean training alignment,
centred (rho) and uncentred (A).

kernelmix normalizes a trace kernel to trace n (n training rows), the thesis to trace 1: the thesis'
Lambda is --radius Lambda/n here (or C = Lambda/n for l1svm, where only C Lambda matters). Two-stage
methods (unif, align, alignf) train once per Lambda on the same weights; l2krr and l1svm learn the
weights at every Lambda. The data come from Debian's R packages through scripts/export-r-data.sh
(mlbench's Ionosphere and DNA, caret's GermanCredit, kernlab's spam); docs/krr-alignment.md says how
each differs from the thesis' version.

The thesis' conclusions, checked: on Ionosphere every method is within 0.03 of the thesis' RMSE; the
uniform combination errs most on every seed, align less, alignf within 0.01 of align (their order
changes between seeds, as the trials' std of 0.06 allows); the test alignments are ordered alignf >
align > unif on every seed; the single kernels' errors fall as their training alignment rises
(correlation below -0.98 centred, -0.95 uncentred; thesis -0.9979 and -0.9841), and the centred
alignment is the better correlated of the two on every set run. With --full, on every set: alignf's
test alignment is the highest of the four methods and align's is above unif's; and on splice the
uncentred alignment grows with the error (thesis: +0.4484), the thesis' case against it.

    /usr/bin/python3 examples/alignment-table31/run.py [--full] [--out DIR] [--kernelmix PATH]

Reduced size: Ionosphere, fold seeds 0-3 pooled, every second Lambda (under two minutes on two cores);
--full: the four sets, fold seeds 0-2, every Lambda."""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import gallery  # noqa: E402

# name: (task, gamma exponents, Lambda exponents, methods, error name)
SETS = {
    "ionosphere": ("krr", (-3, 3), (0, 20), ("unif", "l2krr", "align", "alignf"), "RMSE"),
    "german": ("svc", (-4, 3), (-4, 16), ("unif", "l1svm", "align", "alignf"), "error %"),
    "spam": ("svc", (-12, -7), (-4, 16), ("unif", "l1svm", "align", "alignf"), "error %"),
    "splice": ("svc", (-9, -3), (-4, 16), ("unif", "l1svm", "align", "alignf"), "error %"),
}
METHODS = ("unif", "l2krr", "l1svm", "align", "alignf")

# The thesis' Table 3.1: error, its std, test alignment.
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
# The thesis' Table 2.1: correlation over the base kernels of the single kernel's error with its training
# alignment, centred (rho) and uncentred (A).
THESIS_TABLE21 = {"ionosphere": (-0.9979, -0.9841), "german": (-0.9439, -0.9390), "spam": (-0.9918, -0.9889),
                  "splice": (-0.9515, 0.4484)}

def read_libsvm(path):
    """(the file's lines, dense features, labels)."""
    lines = [line for line in open(path).read().splitlines() if line.strip()]
    y = np.empty(len(lines))
    rows = []
    for i, line in enumerate(lines):
        parts = line.split()
        y[i] = float(parts[0])
        rows.append({int(k): float(v) for k, v in (item.split(":") for item in parts[1:])})
    X = np.zeros((len(lines), max((max(row, default=0) for row in rows), default=0)))
    for i, row in enumerate(rows):
        for k, v in row.items():
            X[i, k - 1] = v
    return lines, X, y


def gaussians(g0, g1):
    return f"rbf:gamma=2^{g0}..2^{g1}:center=1:norm=trace"


def method_options(task, method, n_kernels, scale):
    """Options of one method at the thesis' Lambda = scale (in trace-n units already)."""
    base = ["-s", task, "-c", "1"]
    if method == "unif":
        return base + ["--weights", ",".join([repr(scale / n_kernels)] * n_kernels)]
    if method == "l1svm":  # lp-norm MKL at p = 1: weights on the simplex, C Lambda is what matters
        return ["-s", "svc", "-c", repr(scale), "--mkl", "lp", "--p", "1"]
    return base + ["--mkl", method, "--radius", repr(scale)]


def test_alignment(info, X, y):
    """Centred alignment of the model's combination with yy' on the test-test block (Def. 2.4)."""
    sq = np.sum(X * X, axis=1)
    D = np.maximum(sq[:, None] + sq[None, :] - 2 * X @ X.T, 0)
    K = np.zeros_like(D)
    for kernel in info["kernels"]:
        fields = dict(f.split("=", 1) for f in kernel["spec"].split(":")[1:])
        if kernel["weight"] > 0:
            K += kernel["weight"] * np.exp(-float(fields["gamma"]) * D) / float(fields.get("scale", 1))
    return gallery.centred_alignment(K, y)


def uncentred_alignments(X, y, gammas):
    """A(K, yy') = <K, yy'>_F / (||K||_F ||yy'||_F) of each uncentred Gaussian exp(-2^g ||x - x'||^2) on the
    rows X (Def. 2.2; the scale of K cancels). The models' diagnostics hold the centred kernels' values,
    whose uncentred alignment orders the kernels as the centred one does."""
    sq = np.sum(X * X, axis=1)
    D = np.maximum(sq[:, None] + sq[None, :] - 2 * X @ X.T, 0)
    alignments = []
    for g in gammas:
        K = np.exp(-(2.0 ** g) * D)
        alignments.append(float(y @ K @ y / (np.linalg.norm(K) * (y @ y))))
    return alignments


def trial(args, name, data, lambdas, seed, t, methods):
    """Trial t of the fold seed: per method the test error at the chosen Lambda, the test alignment,
    the test error at every Lambda; for Table 2.1 each base kernel's test error, its uncentred training
    alignment and the centred training alignments that the first model of learned weights keeps."""
    task, (g0, g1), _, _, _ = SETS[name]
    lines, X, y = data
    gammas = list(range(g0, g1 + 1))
    with tempfile.TemporaryDirectory() as work:
        train, validation, test, files = gallery.protocol_trial(lines, seed, t, work)
        out = {"methods": {}, "single": [], "training_alignment": None,
               "uncentred": uncentred_alignments(X[train], y[train], gammas)}
        model, best_model, predictions = (os.path.join(work, f) for f in ("model", "best.model", "pred"))

        def select(options_at, kernel):
            """Best Lambda on the validation fold (smallest on ties): (test error there, the test error
            at every Lambda, that model's info)."""
            best, curve = None, []
            for scale in lambdas:
                gallery.kernelmix(args, "train", "-q", *kernel, *options_at(scale / len(train)), files["train"],
                                  model)
                gallery.kernelmix(args, "predict", "-q", files["valtest"], model, predictions)
                predicted = np.loadtxt(predictions, ndmin=1)
                curve.append(gallery.error_of(task, predicted[len(validation):], y[test]))
                validation_error = gallery.error_of(task, predicted[:len(validation)], y[validation])
                if best is None or validation_error < best[0]:
                    best = (validation_error, curve[-1])
                    os.replace(model, best_model)
            return best[1], curve, json.loads(gallery.kernelmix(args, "info", "--json", best_model))

        for method in methods:
            error, curve, info = select(lambda scale: method_options(task, method, len(gammas), scale),
                                        ["--kernel", gaussians(g0, g1)])
            out["methods"][method] = {"error": error, "curve": curve,
                                      "alignment": test_alignment(info, X[test], y[test])}
            if info["alignment"] and out["training_alignment"] is None:  # models of learned weights keep them
                out["training_alignment"] = info["alignment"]["targets"]["rho"]
        out["single"] = [select(lambda scale: method_options(task, "unif", 1, scale),
                                ["--kernel", gaussians(g, g)])[0] for g in gammas]
    return out


def run_set(args, name, path, seeds, methods):
    """The protocol on one set, the trials of every seed pooled."""
    _, (g0, g1), (l0, l1), _, _ = SETS[name]
    data = read_libsvm(path)
    lambdas = [2.0 ** e for e in range(l0, l1 + 1, args.grid_step)]
    calls = [(trial, args, name, data, lambdas, seed, t, methods) for seed in seeds for t in range(5)]
    trials = gallery.parallel(args, calls, f"{name} trials")
    out = {"lambda_exponents": list(range(l0, l1 + 1, args.grid_step)), "seeds": seeds}
    for method in methods:
        errors = [r["methods"][method]["error"] for r in trials]
        alignments = [r["methods"][method]["alignment"] for r in trials]
        out[method] = {"error": float(np.mean(errors)), "std": float(np.std(errors, ddof=1)),
                       "alignment": float(np.mean(alignments)), "errors": errors, "alignments": alignments,
                       "curves": [r["methods"][method]["curve"] for r in trials]}
    mean_error = np.mean([r["single"] for r in trials], axis=0)
    out["table21"] = {
        "gamma_exponents": list(range(g0, g1 + 1)), "single_errors": [float(e) for e in mean_error],
        "rho": float(np.corrcoef(mean_error, np.mean([r["training_alignment"] for r in trials], axis=0))[0, 1]),
        "uncentred": float(np.corrcoef(mean_error, np.mean([r["uncentred"] for r in trials], axis=0))[0, 1])}
    return out


def cell(name, mean, std, alignment):
    digits = 3 if SETS[name][0] == "krr" else 1
    return f"{mean:.{digits}f} ({std:.{digits}f}) / {alignment:.3f}"


def write_outputs(args, results):
    """table.md (ours beside the thesis', and Table 2.1), and a figure per set of the test error
    against Lambda (figure.svg: the first set; figure-SET.svg: the others)."""
    sets = list(results)
    headers = ["method"] + [h for s in sets for h in (f"{s} ({SETS[s][4]}), kernelmix", "thesis")]
    rows = []
    for method in METHODS:
        if any(method in results[s] for s in sets):
            rows.append([method] + [c for s in sets for c in (
                (cell(s, results[s][method]["error"], results[s][method]["std"], results[s][method]["alignment"]),
                 cell(s, *THESIS[s][method])) if method in results[s] else ("-", "-"))])
    trials = 5 * len(results[sets[0]]["seeds"])
    table = os.path.join(args.out, "table.md")
    gallery.write_table(table, headers, rows,
                        f"Table 3.1: test error (std over {trials} trials) / centred test alignment; Lambda "
                        f"exponents every {args.grid_step} of the thesis' grid.")
    with open(table, "a") as out:
        out.write("\nTable 2.1: correlation over the base kernels of the single kernel's test error with its "
                  "training alignment\n\n| set | centred (rho), kernelmix | thesis | uncentred (A), kernelmix | thesis |\n"
                  "|---|---|---|---|---|\n")
        for s in sets:
            t = results[s]["table21"]
            rho, uncentred = THESIS_TABLE21[s]
            out.write(f"| {s} | {t['rho']:+.4f} | {rho:+.4f} | {t['uncentred']:+.4f} | {uncentred:+.4f} |\n")
    for index, s in enumerate(sets):
        r = results[s]
        lines = []
        for method in METHODS:
            if method not in r:
                continue
            for k, exponent in enumerate(r["lambda_exponents"]):
                scores = [curve[k] for curve in r[method]["curves"]]
                lines.append({"options": f"--lambda 2^{exponent} --method {method}", "metric": f"test {SETS[s][4]}",
                              "scores": scores, "mean": float(np.mean(scores)), "std": float(np.std(scores, ddof=1))})
        gallery.plot_cv(args, f"{s}: test {SETS[s][4]} against Lambda, mean +- std over {trials} trials",
                        lines, "figure" if index == 0 else f"figure-{s}", lower_is_better=True, series="--method")
    with open(table) as out:
        print(out.read())


def check(checks, results, full):
    """The thesis' conclusions that the size supports (the module's docstring)."""
    if "ionosphere" in results:
        r = results["ionosphere"]
        seeds = len(r["seeds"])
        for method in ("unif", "l2krr", "align", "alignf"):
            want = THESIS["ionosphere"][method][0]
            checks.expect(abs(r[method]["error"] - want) <= 0.03,
                          f"Ionosphere: {method}'s RMSE {r[method]['error']:.3f} is within 0.03 of the thesis' {want}")
        per_seed = {m: np.mean(np.reshape(r[m]["errors"], (seeds, 5)), axis=1) for m in ("unif", "align", "alignf")}
        aligned = {m: np.mean(np.reshape(r[m]["alignments"], (seeds, 5)), axis=1) for m in ("unif", "align", "alignf")}
        checks.expect(bool(np.all(per_seed["unif"] > np.maximum(per_seed["align"], per_seed["alignf"]))),
                      "Ionosphere: unif errs most on every seed (" +
                      ", ".join(f"{u:.3f} > {a:.3f}, {f:.3f}" for u, a, f in
                                zip(per_seed["unif"], per_seed["align"], per_seed["alignf"])) + ")")
        checks.expect(r["align"]["error"] < r["unif"]["error"] and r["alignf"]["error"] <= r["align"]["error"] + 0.01,
                      f"Ionosphere: align below unif ({r['align']['error']:.3f} < {r['unif']['error']:.3f}), alignf "
                      f"within 0.01 of align ({r['alignf']['error']:.3f})")
        checks.expect(bool(np.all(aligned["alignf"] > aligned["align"]) and np.all(aligned["align"] > aligned["unif"])),
                      "Ionosphere: test alignments alignf > align > unif on every seed")
        t = r["table21"]
        checks.expect(t["rho"] < -0.98 and t["uncentred"] < -0.95,
                      f"Ionosphere, Table 2.1: single-kernel RMSE falls as the training alignment rises "
                      f"(rho {t['rho']:+.4f}, A {t['uncentred']:+.4f})")
    for s, r in results.items():
        t = r["table21"]
        checks.expect(t["rho"] < t["uncentred"], f"{s}, Table 2.1: the centred alignment is the better "
                                                 f"correlated with the error (rho {t['rho']:+.4f}, A "
                                                 f"{t['uncentred']:+.4f})")
    if full:
        if "splice" in results:
            checks.expect(results["splice"]["table21"]["uncentred"] > 0,
                          f"splice, Table 2.1: the uncentred alignment grows with the error "
                          f"(A {results['splice']['table21']['uncentred']:+.4f})")
        for s, r in results.items():
            others = [m for m in r if m in METHODS and m != "alignf"]
            checks.expect(all(r["alignf"]["alignment"] > r[m]["alignment"] for m in others)
                          and r["align"]["alignment"] > r["unif"]["alignment"],
                          f"{s}: alignf's test alignment ({r['alignf']['alignment']:.3f}) is the highest, align's "
                          f"({r['align']['alignment']:.3f}) above unif's ({r['unif']['alignment']:.3f})")


def main():
    args = gallery.arguments(__doc__, "alignment-table31", lambda parser: (
        parser.add_argument("--data", help="folder with NAME.libsvm (default: scripts/export-r-data.sh writes them)"),
        parser.add_argument("--sets", help="a subset of ionosphere,german,spam,splice (default: ionosphere; "
                                           "--full: all)"),
        parser.add_argument("--seeds", help="fold seeds whose trials are pooled, e.g. 0,1,2 (default 0,1,2,3; "
                                            "--full: 0,1,2)"),
        parser.add_argument("--grid-step", type=int, help="use every K-th Lambda of the grid (default 2; --full: 1)")))
    sets = args.sets.split(",") if args.sets else list(SETS) if args.full else ["ionosphere"]
    unknown = [s for s in sets if s not in SETS]
    if unknown:
        sys.exit(f"run.py: unknown set {unknown[0]!r} (known: {', '.join(SETS)})")
    try:
        seeds = [int(v) for v in args.seeds.split(",")] if args.seeds else [0, 1, 2] if args.full else [0, 1, 2, 3]
    except ValueError:
        sys.exit(f"run.py: --seeds: not a list of integers: {args.seeds!r}")
    args.grid_step = args.grid_step or (1 if args.full else 2)
    if args.grid_step < 1:
        sys.exit("run.py: --grid-step must be at least 1")
    os.environ.setdefault("OMP_NUM_THREADS", "1")  # thousands of small problems, one at a time per job
    with tempfile.TemporaryDirectory(prefix="table31.") as work:
        data = args.data
        if data is None:
            data = os.path.join(work, "data")
            subprocess.run([os.path.join(gallery.ROOT, "scripts", "export-r-data.sh"), data],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if not all(os.path.exists(os.path.join(data, s + ".libsvm")) for s in sets):
                print("skipped: the data need Rscript and R's mlbench, caret and kernlab")
                return gallery.SKIPPED
        results = {s: run_set(args, s, os.path.join(data, s + ".libsvm"), seeds, SETS[s][3]) for s in sets}
    with open(os.path.join(args.out, "results.json"), "w") as out:
        json.dump(results, out, indent=1)
    write_outputs(args, results)
    checks = gallery.Checks()
    check(checks, results, args.full)
    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
