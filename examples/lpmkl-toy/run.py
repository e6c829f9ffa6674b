#!/usr/bin/python3
"""The toy experiment of Kloft's thesis ("lp-Norm Multiple Kernel Learning", TU Berlin 2011, §5.2;
Kloft, Brefeld, Sonnenburg & Zien, JMLR 2011, §6.1): which norm p on the kernel weights suits a
problem depends on how sparse the truly informative kernels are.

Two Gaussian classes in 50 dimensions with means +-rho w/||w||, rho = 1.75, where w has k equal
non-zero entries (k = 50, 28, 18, 9, 4, 1: sparsity 0, 44, 64, 82, 92 and 98 %); one linear kernel per
feature, multiplicatively normalized; 50 training rows, 1,000 validation rows that choose C from
{10^-4, 10^-3.5, ..., 1} for each p, and 1,000 test rows. The Bayes error is Phi(-1.75) = 4.01 % at
every sparsity. p runs over 1, 8/7, 4/3, 2, 4 and inf (kernelmix's --p, the norm on the weights; inf
is the uniform sum, the plain SVM on the normalized features).

The paper's conclusion, checked: the best p moves from the dense end to the sparse end as the
informative kernels become fewer; l1 comes near the Bayes error in the sparsest scenario, where the
uniform sum does not.

    /usr/bin/python3 examples/lpmkl-toy/run.py [--full] [--out DIR] [--kernelmix PATH]

Reduced size: 10 repetitions (under three minutes on two cores); --full: the paper's 250."""
import fractions
import math
import os
import statistics
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import gallery  # noqa: E402

DIMENSION, RHO = 50, 1.75
N_TRAIN, N_VALIDATION, N_TEST = 50, 1000, 1000
INFORMATIVE = [50, 28, 18, 9, 4, 1]
NORMS = ["1", "8/7", "4/3", "2", "4", "inf"]
C_GRID = "10^-4..10^0:0.5"
KERNELS = ["--kernel", "linear:features=each:norm=mult"]
BAYES_ERROR = 100 * 0.5 * math.erfc(RHO / math.sqrt(2))


def sparsity(k):
    return round(100 * (1 - k / DIMENSION))


def write_sample(path, rng, n, k):
    """n rows: y = +-1 with probability 1/2, x = y rho w/||w|| + standard normal noise."""
    y = np.where(rng.random(n) < 0.5, -1, 1)
    direction = np.zeros(DIMENSION)
    direction[:k] = 1 / math.sqrt(k)
    x = rng.standard_normal((n, DIMENSION)) + RHO * y[:, None] * direction
    with open(path, "w") as out:
        for label, row in zip(y, x):
            out.write(f"{label:+d} " + " ".join(f"{j + 1}:{v:.9g}" for j, v in enumerate(row)) + "\n")


def repetition(args, repetition_seed, k):
    """One draw at k informative features: the test error (%) of each p at its validation-chosen C."""
    rng = np.random.default_rng([args.seed, repetition_seed, k])
    with tempfile.TemporaryDirectory() as work:
        train, validation, test = (os.path.join(work, f) for f in ("train", "valid", "test"))
        for path, n in ((train, N_TRAIN), (validation, N_VALIDATION), (test, N_TEST)):
            write_sample(path, rng, n, k)
        return {p: 100 * (1 - accuracy) for p, accuracy in
                gallery.validated_test_scores(args, KERNELS, C_GRID, NORMS, train, validation, test, work).items()}


def main():
    args = gallery.arguments(__doc__, "lpmkl-toy", lambda parser: (
        parser.add_argument("--repetitions", type=int, help="draws per sparsity (default 10; --full: 250)"),
        parser.add_argument("--seed", type=int, default=1, help="the draws' seed (default 1)")))
    repetitions = args.repetitions or (250 if args.full else 10)
    calls = [(repetition, args, r, k) for r in range(repetitions) for k in INFORMATIVE]
    errors = {(k, p): [] for k in INFORMATIVE for p in NORMS}
    for (_, _, _, k), result in zip(calls, gallery.parallel(args, calls, "draws")):
        for p, error in result.items():
            errors[k, p].append(error)

    mean = {key: statistics.mean(values) for key, values in errors.items()}
    sem = {key: statistics.stdev(values) / math.sqrt(len(values)) for key, values in errors.items()}
    best = {k: min(NORMS, key=lambda p: mean[k, p]) for k in INFORMATIVE}
    rows = [[f"{sparsity(k)} %", *(("**%.1f**" if p == best[k] else "%.1f") % mean[k, p] + f" ± {sem[k, p]:.1f}"
                                   for p in NORMS), best[k]] for k in INFORMATIVE]
    gallery.write_table(os.path.join(args.out, "table.md"), ["sparsity", *(f"p = {p}" for p in NORMS), "best p"], rows,
                        f"Test error (%) over {repetitions} draws (mean ± standard error), C chosen on the validation "
                        f"rows for each p; Bayes error {BAYES_ERROR:.2f} %.")
    gallery.plot_cv(args, f"test error: mean +- standard error over {repetitions} draws",
                    [{"options": f"--sparsity {sparsity(k)} --p {p}", "metric": "test error (%)",
                      "scores": errors[k, p], "mean": mean[k, p], "std": sem[k, p]}
                     for k in INFORMATIVE for p in NORMS],
                    "figure", lower_is_better=True, series="--p")
    with open(os.path.join(args.out, "table.md")) as table:
        print(table.read())

    checks = gallery.Checks()
    dense, sparse = INFORMATIVE[0], INFORMATIVE[-1]
    norm_value = {p: math.inf if p == "inf" else float(fractions.Fraction(p)) for p in NORMS}
    checks.expect(norm_value[best[dense]] >= 2, f"at 0 % sparsity a dense norm is best (p = {best[dense]}, "
                                                f"expected p >= 2)")
    checks.expect(norm_value[best[sparse]] <= 8 / 7, f"at 98 % sparsity a sparse norm is best (p = {best[sparse]}, "
                                                     f"expected p <= 8/7)")
    order = [norm_value[best[k]] for k in INFORMATIVE]
    checks.expect(all(later <= earlier for earlier, later in zip(order, order[1:])),
                  "the best p never grows as the sparsity grows: " + " -> ".join(best[k] for k in INFORMATIVE))
    checks.expect(mean[sparse, "1"] <= BAYES_ERROR + 3, f"l1 at 98 % sparsity is near the Bayes error "
                                                        f"({mean[sparse, '1']:.1f} % against {BAYES_ERROR:.2f} %)")
    checks.expect(mean[sparse, "inf"] >= 2 * mean[sparse, "1"], f"the uniform sum errs at least twice as often at 98 % "
                                                                f"sparsity ({mean[sparse, 'inf']:.1f} %)")
    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
