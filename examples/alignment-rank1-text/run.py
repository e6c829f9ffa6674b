#!/usr/bin/python3
"""Table 3.2 of Rostamizadeh's thesis ("Learning Kernels", NYU 2010; Cortes, Mohri & Rostamizadeh,
"Two-Stage Learning Kernel Algorithms", ICML 2010) on real text that Debian ships: rank-1 kernels, one
per frequent bigram, combined uniformly (unif), by their alignment with the labels (align), or learned
in one stage with the machine (l1svm for classification, l2krr for regression).

The thesis used the sentiment reviews of Blitzer et al. (four product domains, 2,000 reviews each,
the 4,000 most frequent bigrams, rating regression and positive-against-negative classification).
Debian has no review corpus; r-cran-janeaustenr has Jane Austen's six novels. A document here is a
passage of 6 consecutive lines of a novel (about 70 words, chapter headings left out), and a domain
is a pair of novels: which of the two a passage comes from, 1,000 passages of each, drawn by a seed.
Features: the counts of the 4,000 most frequent bigrams of the domain's passages; the k-th kernel is
K_k = v_k v_k' of the centred k-th bigram count, normalized to trace 1 (kernelmix's rank1 family).
Classification: C-SVC (C = 1), misclassification in %; regression: kernel ridge regression (ridge 1)
on the +-1 labels, RMSE (the thesis' ratings have no counterpart). The protocol is Table 3.1's (thesis
§3.3.2; examples/alignment-table31): five folds, trial t tests on fold t, picks Lambda on fold t+1 and
trains on the other three; entries are the mean (std) of the five test errors and the centred test
alignment of the learned combination, averaged. With trace-1 kernels Lambda is kernelmix's --radius
(l2krr starts from mu0 = Lambda/sqrt(d), --mu0 uniform, as in the thesis), unif's weights Lambda/d
are -c Lambda/d on the plain sum, and l1svm's weights on the simplex scaled by Lambda are -c Lambda
(solved by linear programs, --solver simplex: at the large C of the grid the SVM-based solvers stall on
the low-rank combined kernel).

The thesis' conclusions, checked on every domain: align's test alignment is above unif's, and align
errs less than unif and than the one-stage method (l1svm, l2krr) by classification and regression
alike; the sparse l1svm does not beat the uniform combination.

    /usr/bin/python3 examples/alignment-rank1-text/run.py [--full] [--out DIR] [--kernelmix PATH]

Reduced size: one domain, 600 passages of each novel, the 1,000 most frequent bigrams, every second
Lambda (under a minute on two cores); --full: four domains, 1,000 passages of each novel, 4,000 bigrams,
every Lambda."""
import collections
import json
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import gallery  # noqa: E402

NOVELS = ["Sense & Sensibility", "Pride & Prejudice", "Mansfield Park", "Emma", "Northanger Abbey", "Persuasion"]
DOMAINS = [(0, 1), (2, 3), (4, 5), (1, 3)]  # pairs of NOVELS
LINES_PER_PASSAGE = 6
LAMBDA_EXPONENTS = range(0, 21, 2)
# task: (kernelmix task, the one-stage method, error name)
TASKS = {"classification": ("svc", "l1svm", "error %"), "regression": ("krr", "l2krr", "RMSE")}
# The thesis' Table 3.2 (error +- std, alignment), for the table: the mean over its four domains.
THESIS = {"classification": {"unif": (22.25, .035), "l1svm": (26.3, .045), "align": (19.9, .055)},
          "regression": {"unif": (1.395, .034), "l2krr": (1.371, .037), "align": (1.359, .059)}}


def export_novels(work):
    """{novel index: [its non-empty lines]} from R's janeaustenr; None without it."""
    path = os.path.join(work, "austen.tsv")
    code = ("suppressMessages(library(janeaustenr)); b <- austen_books(); keep <- b$text != ''; "
            f"write.table(data.frame(as.integer(b$book[keep]), b$text[keep]), '{path}', sep = '\\t', "
            "row.names = FALSE, col.names = FALSE, quote = FALSE)")
    try:
        done = subprocess.run(["Rscript", "--vanilla", "-e", code], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except FileNotFoundError:
        return None
    if done.returncode != 0:
        return None
    novels = collections.defaultdict(list)
    with open(path) as f:
        for line in f:
            book, _, text = line.rstrip("\n").partition("\t")
            novels[int(book) - 1].append(text)
    return novels


def passages(lines):
    """Consecutive runs of LINES_PER_PASSAGE lines, a chapter heading ending a run (and left out)."""
    out, current = [], []
    for line in lines:
        if re.match(r"^(CHAPTER|Chapter|VOLUME)\b", line):
            current = []
            continue
        current.append(line)
        if len(current) == LINES_PER_PASSAGE:
            out.append(" ".join(current))
            current = []
    return out


def bigrams(text):
    words = re.findall(r"[a-z]+(?:'[a-z]+)?", text.lower())
    return [a + " " + b for a, b in zip(words, words[1:])]


def domain_data(novels, pair, per_novel, n_bigrams, seed):
    """(LIBSVM lines, dense counts, +-1 labels) of one domain: per_novel passages of each novel of the
    pair (+1 the first), the counts of the n_bigrams most frequent bigrams."""
    rng = np.random.default_rng([seed, *pair])
    documents, labels = [], []
    for label, novel in zip((1, -1), pair):
        candidates = passages(novels[novel])
        for i in sorted(rng.choice(len(candidates), size=per_novel, replace=False)):
            documents.append(collections.Counter(bigrams(candidates[i])))
            labels.append(label)
    totals = collections.Counter()
    for document in documents:
        totals.update(document)
    vocabulary = {b: j for j, (b, _) in enumerate(sorted(totals.items(), key=lambda kv: (-kv[1], kv[0]))[:n_bigrams])}
    X = np.zeros((len(documents), len(vocabulary)))
    for i, document in enumerate(documents):
        for b, count in document.items():
            if b in vocabulary:
                X[i, vocabulary[b]] = count
    lines = [f"{y} " + " ".join(f"{j + 1}:{int(v)}" for j, v in enumerate(row) if v) for y, row in zip(labels, X)]
    return lines, X, np.array(labels, dtype=float)


def options(task, method, d, scale):
    """The method's options at the thesis' Lambda = scale on d trace-1 rank-1 kernels."""
    kind = TASKS[task][0]
    if method == "unif":
        return ["-s", kind, "-c", repr(scale / d)]
    if method == "l1svm":
        return ["-s", "svc", "-c", repr(scale), "--mkl", "lp", "--p", "1", "--solver", "simplex"]
    extra = ["--mu0", "uniform"] if method == "l2krr" else []
    return ["-s", kind, "-c", "1", "--mkl", method, "--radius", repr(scale), *extra]


def rank1_test_alignment(weights, X_train, X_test, y):
    """Centred alignment with yy' of the combination sum_k mu_k K_k on the test-test block: K_k built
    from the test rows centred and scaled as the training rows (kernelmix's rank1 family)."""
    mean = X_train.mean(axis=0)
    norm = np.linalg.norm(X_train - mean, axis=0)
    scaled = np.where(norm > 0, (X_test - mean) / np.where(norm > 0, norm, 1), 0) * np.sqrt(weights)
    return gallery.centred_alignment(scaled @ scaled.T, y)


def trial(args, task, data, seed, t, lambdas):
    """Trial t: per method (error at the validation-chosen Lambda, test alignment, test error at each Lambda)."""
    lines, X, y = data
    kind, one_stage, _ = TASKS[task]
    d = X.shape[1]
    out = {}
    with tempfile.TemporaryDirectory() as work:
        train, validation, test, files = gallery.protocol_trial(lines, seed, t, work)
        model, best_model, predictions = (os.path.join(work, f) for f in ("model", "best.model", "pred"))
        for method in ("unif", one_stage, "align"):
            best, curve = None, []
            for scale in lambdas:
                gallery.kernelmix(args, "train", "-q", "--kernel", "rank1", *options(task, method, d, scale),
                                  files["train"], model)
                gallery.kernelmix(args, "predict", "-q", files["valtest"], model, predictions)
                predicted = np.loadtxt(predictions, ndmin=1)
                validation_error = gallery.error_of(kind, predicted[:len(validation)], y[validation])
                curve.append(gallery.error_of(kind, predicted[len(validation):], y[test]))
                if best is None or validation_error < best[0]:
                    best = (validation_error, curve[-1])
                    os.replace(model, best_model)
            info = json.loads(gallery.kernelmix(args, "info", "--json", best_model))
            weights = np.array([kernel["weight"] for kernel in info["kernels"]])
            out[method] = (best[1], rank1_test_alignment(weights, X[train], X[test], y[test]), curve)
    return out


def main():
    args = gallery.arguments(__doc__, "alignment-rank1-text", lambda parser: (
        parser.add_argument("--seed", type=int, default=1, help="the passages' and folds' seed (default 1)")))
    domains, per_novel, n_bigrams, step = (DOMAINS, 1000, 4000, 1) if args.full else (DOMAINS[:1], 600, 1000, 2)
    lambdas = [2.0 ** e for e in list(LAMBDA_EXPONENTS)[::step]]
    with tempfile.TemporaryDirectory() as work:
        novels = export_novels(work)
    if novels is None:
        print("skipped: the novels need Rscript and r-cran-janeaustenr")
        return gallery.SKIPPED
    os.environ.setdefault("OMP_NUM_THREADS", "1")  # many small problems, one at a time per job
    data = {pair: domain_data(novels, pair, per_novel, n_bigrams, args.seed) for pair in domains}
    calls = [(trial, args, task, data[pair], args.seed, t, lambdas) for pair in domains for task in TASKS
             for t in range(5)]
    outcomes = iter(gallery.parallel(args, calls, "trials"))
    results = {(pair, task): [next(outcomes) for _ in range(5)] for pair in domains for task in TASKS}

    def name(pair):
        return " / ".join(NOVELS[i] for i in pair)

    summary = {}
    for (pair, task), trials in results.items():
        for method in trials[0]:
            errors = [r[method][0] for r in trials]
            summary[pair, task, method] = (float(np.mean(errors)), float(np.std(errors, ddof=1)),
                                           float(np.mean([r[method][1] for r in trials])), errors)
    with open(os.path.join(args.out, "results.json"), "w") as out:
        json.dump([{"domain": name(pair), "task": task, "method": method, "error": v[0], "std": v[1],
                    "alignment": v[2], "errors": v[3]} for (pair, task, method), v in summary.items()], out, indent=1)
    rows = []
    for task, (kind, one_stage, error_name) in TASKS.items():
        digits = 3 if kind == "krr" else 1
        for method in ("unif", one_stage, "align"):
            thesis = THESIS[task][method]
            rows.append([task, method, *(f"{summary[pair, task, method][0]:.{digits}f} ± "
                                         f"{summary[pair, task, method][1]:.{digits}f} / "
                                         f"{summary[pair, task, method][2]:.3f}" for pair in domains),
                         f"{thesis[0]:.{digits}f} / {thesis[1]:.3f}"])
    gallery.write_table(os.path.join(args.out, "table.md"),
                        ["task", "method", *(name(pair) for pair in domains), "thesis (mean of its domains)"], rows,
                        f"Test error (misclassification %, or RMSE on the ±1 labels) ± std over the five trials / "
                        f"centred test alignment; {per_novel} passages of each novel, {n_bigrams} bigram kernels.")
    first = results[domains[0], "classification"]
    lines = []
    for method in ("unif", "l1svm", "align"):
        for k, scale in enumerate(lambdas):
            scores = [r[method][2][k] for r in first]
            lines.append({"options": f"--lambda 2^{int(np.log2(scale))} --method {method}", "metric": "test error (%)",
                          "scores": scores, "mean": float(np.mean(scores)), "std": float(np.std(scores, ddof=1))})
    gallery.plot_cv(args, f"{name(domains[0])}: test error against Lambda, mean +- std over five trials", lines,
                    "figure", lower_is_better=True, series="--method")
    with open(os.path.join(args.out, "table.md")) as table:
        print(table.read())

    checks = gallery.Checks()
    for pair in domains:
        for task, (_, one_stage, _) in TASKS.items():
            unif, single, align = (summary[pair, task, m] for m in ("unif", one_stage, "align"))
            checks.expect(align[2] > unif[2], f"{name(pair)}, {task}: align's test alignment ({align[2]:.3f}) is "
                                              f"above unif's ({unif[2]:.3f})")
            checks.expect(align[0] < unif[0] and align[0] < single[0],
                          f"{name(pair)}, {task}: align errs less ({align[0]:.3f}) than unif ({unif[0]:.3f}) and "
                          f"{one_stage} ({single[0]:.3f})")
        l1, unif = summary[pair, "classification", "l1svm"], summary[pair, "classification", "unif"]
        checks.expect(l1[0] >= unif[0] - unif[1] / np.sqrt(5),
                      f"{name(pair)}: the sparse l1svm ({l1[0]:.1f} %) does not beat unif ({unif[0]:.1f} %) by more "
                      f"than a standard error")
    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
