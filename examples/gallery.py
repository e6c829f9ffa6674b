"""What the gallery's experiments share (docs/gallery.md): the command line, running kernelmix, the
checks of a paper's conclusion, and writing a table as Markdown and a figure with `kernelmix plot`.

An experiment's script imports this module from the folder above its own:

    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    import gallery

and runs at its reduced size by default (minutes, as the test suite runs it) or at the paper's size
with --full. It writes table.md, figure.svg and the raw results into --out, and exits with status 1
when a check of the paper's conclusion fails (77 when data it needs is not installed)."""
import argparse
import concurrent.futures
import json
import math
import os
import shutil
import statistics
import subprocess
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SKIPPED = 77


def arguments(doc, name, extra=None):
    """The experiment's command line: --kernelmix, --full, --out, --jobs, and what extra(parser) adds."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kernelmix", default=os.environ.get("KERNELMIX", os.path.join(ROOT, "build", "kernelmix")),
                        help="the kernelmix command (default: $KERNELMIX, else build/kernelmix of this repository)")
    parser.add_argument("--full", action="store_true", help="run at the paper's size instead of the reduced one")
    parser.add_argument("--out", default=name, help=f"the folder for table.md, figure.svg and the results "
                                                   f"(default: ./{name})")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="kernelmix processes at once (default: the cores)")
    if extra:
        extra(parser)
    args = parser.parse_args()
    if not os.access(args.kernelmix, os.X_OK):
        parser.error(f"{args.kernelmix}: not an executable kernelmix (build it, or give --kernelmix)")
    os.makedirs(args.out, exist_ok=True)
    return args


def kernelmix(args, *command):
    """Runs kernelmix with the command's arguments; its standard output. A failure ends the experiment
    with kernelmix's own message."""
    done = subprocess.run([args.kernelmix, *command], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:
        sys.exit(f"kernelmix {' '.join(command)}: exit status {done.returncode}: {done.stderr.strip()}")
    return done.stdout


def progress(done, total, what):
    """'done/total what' on standard error: rewritten in place on a terminal, else a line per tenth."""
    if sys.stderr.isatty():
        print(f"\r{done}/{total} {what}", end="\n" if done == total else "", file=sys.stderr, flush=True)
    elif done == total or done * 10 // total != (done - 1) * 10 // total:
        print(f"{done}/{total} {what}", file=sys.stderr, flush=True)


def parallel(args, calls, what):
    """Runs the calls, each (function, arguments...), on --jobs threads (each a kernelmix process at a
    time); their results in the order of the calls, with progress counted in what."""
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(*call) for call in calls]
        for done, _ in enumerate(concurrent.futures.as_completed(futures), 1):
            progress(done, len(futures), what)
        return [future.result() for future in futures]


def results_over_splits(args, split, data, splits, sizes):
    """Runs split(args, data, seed, n) for every seed below splits and n of sizes on --jobs threads, each
    giving {name: value}; {(n, name): [values over the seeds]}, with the mean and the standard error of
    each list as two more dicts of the same keys."""
    calls = [(split, args, data, s, n) for s in range(splits) for n in sizes]
    values = {}
    for (_, _, _, _, n), result in zip(calls, parallel(args, calls, "splits")):
        for name, value in result.items():
            values.setdefault((n, name), []).append(value)
    mean = {key: statistics.mean(v) for key, v in values.items()}
    error = {key: statistics.stdev(v) / math.sqrt(len(v)) for key, v in values.items()}
    return values, mean, error


def r_table(work, code):
    """The numeric table an R expression makes (code: R statements that leave it in `table`, after the
    packages they load), as a numpy array; None when Rscript or a package is missing."""
    if not shutil.which("Rscript"):
        return None
    path = os.path.join(work, "r-table.csv")
    done = subprocess.run(["Rscript", "--vanilla", "-e", f"suppressMessages({{ {code} }}); write.table(table, "
                           f"'{path}', sep = ',', row.names = FALSE, col.names = FALSE)"],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return np.loadtxt(path, delimiter=",", ndmin=2) if done.returncode == 0 else None


def write_libsvm(path, x, y):
    """Rows x with labels y as a LIBSVM file (zeros left out, 6 significant digits)."""
    with open(path, "w") as out:
        for label, row in zip(y, x):
            out.write(f"{label} " + " ".join(f"{j + 1}:{v:.6g}" for j, v in enumerate(row) if v) + "\n")


def json_lines(text):
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def option(options, name):
    """The value of option name in a result's options string ("-c 10^-2 --p 4/3 ...")."""
    words = options.split()
    return words[words.index(name) + 1]


def validated_test_scores(args, options, c_grid, norms, train, validation, test, work):
    """For each p of norms: C chosen from c_grid on the validation rows (the smaller C of equal
    scores), and the test score of that setting, trained on train; {p: test score}. options: the
    kernels and anything else every setting shares (a --score among them)."""
    # cold fits, so that the test run trains the very models the validation run scored: at the smallest
    # C every coefficient may sit at its bound, which leaves the offset free in an interval (the primal
    # is flat in it), and a warm start may settle elsewhere in it than a cold one
    common = ["cv", "-q", "--json", "--cold", "--threads", "1", *options]
    chosen = {}
    # settings come C-major, so the first of equal validation scores is the smaller C
    for line in json_lines(kernelmix(args, *common, "-c", c_grid, "--p", ",".join(norms), "--validation", validation,
                                     train)):
        if "options" in line:
            p = option(line["options"], "--p")
            if p not in chosen or line["mean"] > chosen[p]["mean"]:
                chosen[p] = line
    settings = os.path.join(work, "settings")
    with open(settings, "w") as out:
        out.write("".join(f"-c {option(chosen[p]['options'], '-c')} --p {p}\n" for p in norms))
    return {option(line["options"], "--p"): line["mean"]
            for line in json_lines(kernelmix(args, *common, "--settings", settings, "--validation", test, train))
            if "options" in line}


MASK64 = (1 << 64) - 1


def splitmix64(state):
    """One step of splitmix64: (new state, output)."""
    state = (state + 0x9E3779B97F4A7C15) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


def five_folds(n, seed):
    """The folds of Rostamizadeh's protocol (thesis §3.3.2: trial t tests on fold t, selects on fold t+1
    mod 5, trains on the rest): a Fisher-Yates permutation of the n rows driven by splitmix64(seed), cut
    into 5 contiguous folds, each sorted."""
    perm = list(range(n))
    state = seed & MASK64
    for i in range(n - 1, 0, -1):
        state, r = splitmix64(state)
        j = r % (i + 1)
        perm[i], perm[j] = perm[j], perm[i]
    return [sorted(perm[t * n // 5:(t + 1) * n // 5]) for t in range(5)]


def protocol_trial(lines, seed, t, work):
    """Trial t of Rostamizadeh's protocol (five_folds) on the rows' LIBSVM lines, written into work:
    (train rows, validation rows, test rows, {"train": path, "valtest": path}); the valtest file holds the
    validation rows, then the test rows."""
    folds = five_folds(len(lines), seed)
    test, validation = folds[t], folds[(t + 1) % 5]
    train = sorted(i for f in range(5) if f not in (t, (t + 1) % 5) for i in folds[f])
    files = {}
    for part, rows in (("train", train), ("valtest", validation + test)):
        files[part] = os.path.join(work, part)
        with open(files[part], "w") as f:
            f.write("\n".join(lines[i] for i in rows) + "\n")
    return train, validation, test, files


def error_of(task, predicted, y):
    """RMSE for krr, else the misclassification in %."""
    if task == "krr":
        return float(np.sqrt(np.mean((predicted - y) ** 2)))
    return float(100.0 * np.mean(predicted != y))


def centred_alignment(K, y):
    """The centred alignment of the kernel matrix K with yy' (Cortes, Mohri & Rostamizadeh, Def. 2.4 on
    the sample): <K_c, y_c y_c'>_F / (||K_c||_F ||y_c||^2), K_c = UKU, U = I - 11'/n; NaN when a norm is 0."""
    n = len(y)
    U = np.eye(n) - 1.0 / n
    Kc = U @ K @ U
    yc = y - y.mean()
    norm = np.linalg.norm(Kc) * (yc @ yc)
    return float(yc @ Kc @ yc / norm) if norm > 0 else float("nan")


def write_table(path, headers, rows, caption=None):
    """A Markdown table (cells as given, str() of anything else)."""
    with open(path, "w") as out:
        if caption:
            out.write(caption + "\n\n")
        out.write("| " + " | ".join(headers) + " |\n")
        out.write("|" + "|".join("---" for _ in headers) + "|\n")
        for row in rows:
            out.write("| " + " | ".join(str(cell) for cell in row) + " |\n")


def plot_cv(args, title, lines, name, lower_is_better, series=None):
    """Writes lines (cross-validation style results: options, metric, scores, mean, std) as JSON lines
    NAME.jsonl in --out and draws them with `kernelmix plot cv` into NAME.svg, titled title (series: a
    line per value of that option)."""
    results = os.path.join(args.out, name + ".jsonl")
    with open(results, "w") as out:
        out.write(json.dumps({"title": title}) + "\n")
        for line in lines:
            out.write(json.dumps(line) + "\n")
    kernelmix(args, "plot", "cv", "--lower-is-better" if lower_is_better else "--higher-is-better",
              *(["--series", series] if series else []), results, os.path.join(args.out, name + ".svg"))


class Checks:
    """The paper's conclusions as checks: each prints one line, and finish() gives the exit status."""

    def __init__(self):
        self.failed = 0

    def expect(self, holds, text):
        print(("holds: " if holds else "FAILS: ") + text, flush=True)
        self.failed += not holds

    def finish(self):
        return 1 if self.failed else 0
